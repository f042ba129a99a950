#pragma once
// `mmusim config show` and `mmusim config diff` (docs/configuration.md, "Effective configuration").
#include <ostream>
#include <string>
#include <vector>

namespace mmusim {

struct ConfigCmdArgs {
  std::vector<std::string> files;  // show: a scenario, or CONFIG_DB files; diff: A and B
  std::vector<std::string> sets;   // --set, applied to each side
  bool json = false;
};

// Exit codes as mmusim's: 0 ok, 1 bad input.
int run_config_show(const ConfigCmdArgs& a, std::ostream& out, std::ostream& err);
int run_config_diff(const ConfigCmdArgs& a, std::ostream& out, std::ostream& err);

}  // namespace mmusim
