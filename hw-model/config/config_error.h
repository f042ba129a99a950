#pragma once
#include <stdexcept>

namespace mmusim {

// Bad scenario, trace or command line: the message names the field.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mmusim
