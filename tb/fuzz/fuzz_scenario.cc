// Fuzz harness: the bytes as a scenario file's text, through the same path as
// `mmusim check` (parse_json_text with its limits, then load_configured_scenario: the
// CONFIG_DB import, load_scenario, the buffer checks). Paths inside, such as a trace
// generator's or switch_config's files, are relative to the working directory.
#include <cstdint>
#include <string>

#include "config/json_parse.h"
#include "config/config_load.h"
#include "config/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    mmusim::LoadReport report;
    mmusim::load_configured_scenario(mmusim::parse_json_text(text, "fuzz.json"), "fuzz.json", report);
  } catch (const mmusim::ConfigError&) {
    // bad input, reported: the expected outcome
  }
  return 0;
}
