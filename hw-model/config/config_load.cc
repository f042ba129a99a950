#include "config/config_load.h"

#include "config/config_checks.h"

namespace mmusim {

Scenario load_configured_scenario(nlohmann::json j, const std::string& origin, LoadReport& report) {
  try {
    report.imported = apply_switch_config(j, origin, report);
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    throw ConfigError(what.rfind(origin + ":", 0) == 0 ? what : origin + ": " + what);
  }
  Scenario sc = load_scenario(j, origin);
  try {
    check_buffer_semantics(sc, report.imported, report.warnings);
  } catch (const ConfigError& e) {
    throw ConfigError(origin + ": " + e.what());
  }
  for (auto& w : lossless_traffic_warnings(sc)) report.warnings.push_back(std::move(w));
  // Warnings belong with the loader's, which summary.json lists too.
  sc.warnings.insert(sc.warnings.begin(), report.warnings.begin(), report.warnings.end());
  report.warnings.clear();
  return sc;
}

void print_load_report(std::ostream& os, const LoadReport& report) {
  for (const auto& n : report.notes) os << "mmusim: note: " << n << "\n";
  if (!report.ignored.empty()) {
    os << "mmusim: warning: CONFIG_DB tables and fields not modelled (ignored):\n";
    for (const auto& i : report.ignored) os << "  " << i << "\n";
  }
  for (const auto& w : report.warnings) os << "mmusim: warning: " << w << "\n";
}

}  // namespace mmusim
