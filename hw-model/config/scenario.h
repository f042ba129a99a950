#pragma once
// A scenario: one JSON file describing topology, MMU, SONiC buffer tables, traffic and
// measurement. Loading validates everything and names the offending field on error.
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/block_config.h"
#include "config/config_error.h"
#include "config/headroom.h"
#include "config/switch_config.h"
#include "config/topology.h"
#include "config/transport_config.h"

namespace mmusim {

// Seeds are 0 ... 2^61 - 1 (docs/configuration.md), in the file and on the command line.
constexpr uint64_t kMaxSeed = (uint64_t(1) << 61) - 1;

// A network scenario: the run (seed, duration, measurement window), the network (topology,
// hosts, links), the hosts' transport and the traffic, over one switch configuration per
// switch. The inherited SwitchConfig is the scenario's own: the single switch's in the
// single-switch form; in the graph form the shared tables over the largest switch's ports
// (topo.ports: the names SONiC tables may use), and each switch has its own in `switches`.
struct Scenario : SwitchConfig {
  std::string name = "unnamed";
  uint64_t seed = 1;
  uint64_t duration_ps = 0;
  uint64_t measure_start_ps = 0;
  uint64_t measure_end_ps = 0;
  NetworkCfg net;  // switches, hosts, links (the single-switch form too)
  HostCfg host;
  std::vector<GeneratorCfg> traffic;
  std::vector<uint32_t> pfc_storm_switch;  // the switch of each of pfc_storms (every switch's)
  // Graph form: switch s's configuration (its ports, SONiC tables and storms).
  std::vector<SwitchConfig> switch_configs;
  // Unsafe but valid settings found by the loader (config/headroom.h), every switch's.
  std::vector<std::string> warnings;

  uint32_t hosts() const { return uint32_t(net.hosts.size()); }
  uint64_t host_rate_bps(uint32_t host) const { return net.hosts[host].rate_bps; }
  // Switch `s`'s configuration (the scenario's own when single-switch).
  const SwitchConfig& switch_view(uint32_t s) const { return net.graph ? switch_configs[s] : *this; }
};

// The "host" object (config/host_config.cc).
void load_host(Scenario& sc, const nlohmann::json& j);
// A generator's "transport" key, and the checks once every generator is loaded (ACKs on
// when a flow can have a transport).
int8_t load_generator_transport(const nlohmann::json& v, const std::string& field);
void finish_transports(Scenario& sc);
// After the switch configurations: DCQCN/DCTCP need an ECN-marking queue of their class, PowerTCP
// INT on it (ConfigError); RoCE on a class without PFC is returned as a warning.
std::vector<std::string> check_transport_classes(const Scenario& sc);

// Parse and validate. `origin` names the source in messages (file name or "default").
Scenario load_scenario(const nlohmann::json& j, const std::string& origin);
Scenario load_scenario_file(const std::string& path);
nlohmann::json parse_json_file(const std::string& path);
// Apply "--set a.b.c=value" (value parsed as JSON, else as a string).
void apply_override(nlohmann::json& j, const std::string& assignment);
// The embedded default scenario (README's first command).
nlohmann::json default_scenario_json();

}  // namespace mmusim
