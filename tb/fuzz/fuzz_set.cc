// Fuzz harness: each line of the input is one `--set key.path=value`, applied in order to
// the embedded default scenario, which is then loaded (as `mmusim check --set ...`).
#include <cstdint>
#include <string>

#include "config/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const nlohmann::json base = mmusim::default_scenario_json();
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json j = base;
  try {
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      mmusim::apply_override(j, text.substr(start, end - start));
      start = end + 1;
    }
    mmusim::load_scenario(j, "default");
  } catch (const mmusim::ConfigError&) {
    // bad input, reported: the expected outcome
  }
  return 0;
}
