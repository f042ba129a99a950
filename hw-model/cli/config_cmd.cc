#include "cli/config_cmd.h"

#include "config/config_load.h"
#include "config/configdb.h"
#include "config/effective_config.h"

namespace mmusim {
namespace {

// A scenario file, or CONFIG_DB files around which a one-switch scenario is built.
nlohmann::json effective(const std::vector<std::string>& files, const std::vector<std::string>& sets,
                         std::ostream& err) {
  nlohmann::json j;
  std::string origin = files.front();
  LoadReport report;
  if (files.size() == 1 && !is_config_db(j = parse_json_file(files.front()))) {
    // a scenario
  } else {
    std::string note;
    j = scenario_for_config_db(files, note);
    report.notes.push_back(note);
  }
  for (const auto& s : sets) apply_override(j, s);
  const Scenario sc = load_configured_scenario(j, origin, report);
  print_load_report(err, report);
  for (const auto& w : sc.warnings) err << "mmusim: warning: " << w << "\n";
  return effective_config(sc);
}

}  // namespace

int run_config_show(const ConfigCmdArgs& a, std::ostream& out, std::ostream& err) {
  try {
    const nlohmann::json eff = effective(a.files, a.sets, err);
    if (a.json) out << eff.dump(2) << "\n";
    else print_effective_config(out, eff);
  } catch (const ConfigError& e) {
    err << "mmusim: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

int run_config_diff(const ConfigCmdArgs& a, std::ostream& out, std::ostream& err) {
  try {
    const nlohmann::json x = effective({a.files.at(0)}, a.sets, err);
    const nlohmann::json y = effective({a.files.at(1)}, a.sets, err);
    const auto d = diff_effective_config(x, y);
    if (a.json) {
      out << nlohmann::json(d).dump(2) << "\n";
    } else {
      for (const auto& line : d) out << line << "\n";
      out << d.size() << " difference" << (d.size() == 1 ? "" : "s") << " between " << a.files[0] << " and "
          << a.files[1] << "\n";
    }
  } catch (const ConfigError& e) {
    err << "mmusim: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace mmusim
