// mmusim: command-line front end. sc_main only parses, elaborates and runs.
#include <unistd.h>

#include <cstdio>
#include <sstream>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <systemc>

#include "admission/policy.h"
#include "cli/compare.h"
#include "cli/config_cmd.h"
#include "cli/headroom_cmd.h"
#include "cli/report.h"
#include "config/config_load.h"
#include "config/scenario.h"
#include "output/checked_file.h"
#include "sim/network.h"

namespace {

enum Exit { kOk = 0, kBadInput = 1, kUsage = 2, kModelError = 3 };

struct Args {
  std::string scenario;
  std::string out = "mmusim-out";
  std::vector<std::string> sets;
  std::vector<std::string> switch_configs;
  long long seed = -1;
  std::string policy;
  std::string impl;
  bool pcap = false, vcd = false, quiet = false, progress = false;
  std::string vcd_signals = "mmu";
};

nlohmann::json load_json(const Args& a, std::string& origin) {
  nlohmann::json j;
  if (a.scenario.empty()) {
    j = mmusim::default_scenario_json();
    origin = "default";
  } else {
    j = mmusim::parse_json_file(a.scenario);
    origin = a.scenario;
  }
  // --switch-config replaces the scenario's own SONiC tables.
  if (!a.switch_configs.empty()) {
    if (j.is_object()) j.erase("buffer");
    j["switch_config"] = a.switch_configs;
  }
  for (const auto& s : a.sets) mmusim::apply_override(j, s);
  if (a.seed >= 0) j["seed"] = a.seed;
  if (!a.policy.empty()) j["admission"]["policy"] = a.policy;
  if (!a.impl.empty()) j["admission"]["impl"] = a.impl;
  return j;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  CLI::App app{"mmusim: cycle-approximate SystemC model of a shared-buffer switch MMU with PFC"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("mmusim ") + MMUSIM_VERSION);
  // CLI11 reports an unknown command as a missing one: name it instead.
  if (argc > 1 && argv[1][0] != '-' && std::string(argv[1]) != "run" && std::string(argv[1]) != "check" &&
      std::string(argv[1]) != "compare" && std::string(argv[1]) != "config" && std::string(argv[1]) != "headroom") {
    std::cerr << "mmusim: error: unknown command '" << argv[1] << "' (commands: run, check, compare, config, headroom; --help)\n";
    return kUsage;
  }
  std::vector<std::string> policy_names;
  for (const auto& info : mmusim::admission::policies()) policy_names.push_back(info.name);
  std::string policy_list;
  for (const auto& n : policy_names) policy_list += (policy_list.empty() ? "" : ", ") + n;
  Args a;
  CLI::App* run = app.add_subcommand("run", "simulate a scenario (the embedded default if none is given)");
  run->add_option("scenario", a.scenario, "scenario JSON file")->check(CLI::ExistingFile);
  run->add_option("--out", a.out, "output directory")->capture_default_str();
  run->add_option("--set", a.sets, "override a scenario key: key.path=value (repeatable)");
  run->add_option("--switch-config", a.switch_configs,
                  "SONiC CONFIG_DB JSON for the switch, as SONiC writes it (repeatable: merged in order)");
  const CLI::Range seed_range(0LL, (long long)mmusim::kMaxSeed);
  run->add_option("--seed", a.seed, "random seed (overrides the scenario's)")->check(seed_range);
  run->add_option("--policy", a.policy, "admission policy (overrides admission.policy): " + policy_list)
      ->check(CLI::IsMember(policy_names));
  run->add_option("--impl", a.impl, "admission implementation: cpp, or rtl (Verilated unit, checked in lockstep)")
      ->check(CLI::IsMember({"cpp", "rtl"}));
  run->add_flag("--pcap", a.pcap, "write the PFC frames sent as DIR/pfc.pcap");
  run->add_flag("--vcd", a.vcd,
                "trace key counters to DIR/counters.vcd; with --impl rtl also the unit's waveform, "
                "DIR/rtl_unit.fst (rtl_unit_<switch>.fst per switch of a network)");
  run->add_option("--vcd-signals", a.vcd_signals,
                  "signal groups of counters.vcd, comma-separated (implies --vcd): mmu (occupancy and "
                  "thresholds), queues (per port and priority), ports, pfc (XOFF held, transmitters "
                  "paused), all")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& v) {
            try {
              mmusim::VcdSignals::parse(v);
              return std::string();
            } catch (const std::invalid_argument& e) {
              return std::string(e.what());
            }
          },
          "GROUPS"));
  run->add_flag("--quiet", a.quiet, "no table on stdout");
  run->add_flag("--progress", a.progress,
                "progress on stderr (simulated time, packet-hops/s, ETA; at most a line a second) even when "
                "stderr is not a terminal");
  mmusim::CompareArgs cmp;
  std::string cmp_policies = "dt,abm,reverie,dsh,sih";
  CLI::App* compare = app.add_subcommand("compare", "run one scenario under several policies, side by side");
  compare->add_option("scenario", cmp.scenario, "scenario JSON file (default: the embedded one)")->check(CLI::ExistingFile);
  compare->add_option("--policies", cmp_policies, "comma-separated policies")->capture_default_str();
  compare->add_option("--out", cmp.out, "output directory")->capture_default_str();
  compare->add_option("--set", cmp.sets, "override a scenario key: key.path=value (repeatable)");
  compare->add_option("--seed", cmp.seed, "random seed")->check(seed_range);
  compare->add_flag_callback("--no-plot", [&cmp] { cmp.plot = false; }, "skip the occupancy plot");
  CLI::App* check = app.add_subcommand("check", "validate a scenario and exit");
  check->add_option("scenario", a.scenario, "scenario JSON file (with --switch-config: default, the embedded one)")
      ->check(CLI::ExistingFile);
  check->add_option("--set", a.sets, "override a scenario key: key.path=value (repeatable)");
  check->add_option("--switch-config", a.switch_configs, "SONiC CONFIG_DB JSON for the switch (repeatable)");
  mmusim::ConfigCmdArgs cfg;
  CLI::App* config = app.add_subcommand("config", "the effective switch configuration: show, diff");
  config->require_subcommand(1);
  CLI::App* show = config->add_subcommand("show", "pools, and per port and PG/queue the profiles, in cells");
  show->add_option("files", cfg.files, "a scenario, or SONiC CONFIG_DB files (merged)")->required()->check(CLI::ExistingFile);
  CLI::App* diff = config->add_subcommand("diff", "compare the effective configurations of A and B");
  diff->add_option("files", cfg.files, "A and B: scenarios or CONFIG_DB files")->required()->expected(2)
      ->check(CLI::ExistingFile);
  for (CLI::App* c : {show, diff}) {
    c->add_option("--set", cfg.sets, "override a scenario key: key.path=value (repeatable)");
    c->add_flag("--json", cfg.json, "JSON instead of a table");
  }
  mmusim::HeadroomLink hr;
  CLI::App* headroom = mmusim::add_headroom_command(app, hr);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kOk : kUsage;
  }

  if (headroom->parsed()) return mmusim::run_headroom(hr);
  if (show->parsed()) return mmusim::run_config_show(cfg, std::cout, std::cerr);
  if (diff->parsed()) return mmusim::run_config_diff(cfg, std::cout, std::cerr);
  if (compare->parsed()) {
    std::stringstream ss(cmp_policies);
    for (std::string p; std::getline(ss, p, ',');) {
      bool known = false;
      for (const auto& info : mmusim::admission::policies()) known |= p == info.name;
      if (!known) {
        std::cerr << "mmusim: error: --policies: unknown policy '" << p << "'\n";
        return kBadInput;
      }
      cmp.policies.push_back(p);
    }
    if (cmp.policies.empty()) {
      std::cerr << "mmusim: error: --policies: empty list\n";
      return kBadInput;
    }
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
      std::cerr << "mmusim: error: cannot find my own executable\n";
      return kModelError;
    }
    self[n] = 0;
    return mmusim::run_compare(self, cmp, std::cout);
  }

  if (check->parsed() && a.scenario.empty() && a.switch_configs.empty()) {
    std::cerr << "mmusim: error: check: a scenario file (or --switch-config) is required\n";
    return kUsage;
  }
  if (run->parsed() && a.out.empty()) {
    std::cerr << "mmusim: error: --out: must name a directory, got ''\n";
    return kBadInput;
  }
  std::string origin;
  mmusim::Scenario sc;
  mmusim::LoadReport report;
  try {
    sc = mmusim::load_configured_scenario(load_json(a, origin), origin, report);
  } catch (const mmusim::ConfigError& e) {
    std::cerr << "mmusim: error: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {  // a loader bug, still reported on stderr
    std::cerr << "mmusim: error: " << (origin.empty() ? a.scenario : origin) << ": " << e.what() << "\n";
    return kModelError;
  }
  mmusim::print_load_report(std::cerr, report);
  for (const auto& w : sc.warnings) std::cerr << "mmusim: warning: " << w << "\n";
  if (check->parsed()) {
    if (sc.net.graph)
      std::cout << origin << ": ok (" << sc.net.switches.size() << " switches, " << sc.hosts() << " hosts, "
                << sc.traffic.size() << " generators)\n";
    else
      std::cout << origin << ": ok (" << sc.ports() << " ports, " << sc.traffic.size() << " generators)\n";
    return kOk;
  }
  try {
    const bool vcd = a.vcd || run->count("--vcd-signals") > 0;
    const bool progress = a.progress || isatty(2);
    mmusim::Network net(sc, {a.out, a.pcap, vcd, progress, mmusim::VcdSignals::parse(a.vcd_signals)});
    const nlohmann::json s = net.run();
    if (!a.quiet) mmusim::print_report(std::cout, s);
    if (sc.admission.rtl)
      std::cerr << "rtl co-simulation: " << net.sw().mmu.rtl_cycles()
                << " RTL cycles in lockstep with the C++ core, 0 mismatches\n";
  } catch (const mmusim::ConfigError& e) {
    std::cerr << "mmusim: error: " << e.what() << "\n";
    return kBadInput;
  } catch (const mmusim::OutputError& e) {
    // Nothing is renamed into place: no summary.json (docs/outputs.md).
    std::cerr << "mmusim: error: " << e.what() << "\n";
    return kBadInput;
  } catch (const sc_core::sc_report& e) {
    std::cerr << "mmusim: model error: " << e.what() << "\n";
    return kModelError;
  } catch (const std::exception& e) {
    std::cerr << "mmusim: model error: " << e.what() << "\n";
    return kModelError;
  }
  return kOk;
}

// SystemC prints its banner in sc_elab_and_sim, before sc_main: silence it first so
// stdout carries only the report.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
