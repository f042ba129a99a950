#pragma once
// The loading path of the command line: CONFIG_DB import (config/configdb.h), the scenario
// loader, then the checks that need the whole configuration (config/config_checks.h).
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/configdb.h"
#include "config/scenario.h"

namespace mmusim {

struct LoadReport : ImportMessages {
  bool imported = false;  // the switch came from a CONFIG_DB (switch_config)
};

// `j` with its --set overrides applied; ConfigError on bad input. The import's and the
// checks' warnings end up in the scenario's `warnings` (before the loader's), its notes and
// the list of what is not modelled in `report`.
Scenario load_configured_scenario(nlohmann::json j, const std::string& origin, LoadReport& report);

// Notes, then the one block of what is not modelled: "mmusim: note: ..." /
// "mmusim: warning: ...". The scenario's warnings are the caller's to print.
void print_load_report(std::ostream& os, const LoadReport& report);

}  // namespace mmusim
