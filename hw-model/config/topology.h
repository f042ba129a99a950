#pragma once
// Network topology of a scenario: switches, hosts and full-duplex links, from either the
// single-switch form (topology.ports: one host per port) or the graph form
// (topology.switches/hosts/links, or topology.generator expanding to them), and the
// static shortest-path routes with their ECMP next-hop sets.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mmusim {

struct Scenario;
class JsonReader;

struct NetworkCfg {
  struct Port {
    std::string name;  // SONiC name, Ethernet<i * port_name_stride>
    uint64_t rate_bps = 0;
    uint64_t delay_ps = 0;
    // Far end: a host index, or a switch index and its port.
    bool peer_host = false;
    uint32_t peer = 0;
    uint32_t peer_port = 0;
  };
  struct Switch {
    std::string name;
    std::vector<Port> ports;
    nlohmann::json buffer;  // per-switch SONiC tables (topology.switches[i].buffer); null: the scenario's
  };
  struct Host {
    std::string name;
    uint32_t sw = 0, port = 0;  // attachment
    uint64_t rate_bps = 0, delay_ps = 0;
  };
  bool graph = false;  // false: the single-switch form
  std::vector<Switch> switches;
  std::vector<Host> hosts;

  // Index of host `name`, or -1.
  int host_index(const std::string& name) const;
};

// Parses topology.{switches,hosts,links} or topology.generator into sc.net and sets
// sc.topo.ports to the ports of the largest switch (the names SONiC tables may use).
void load_network(Scenario& sc, JsonReader& r);
// The single-switch form as a graph: host i on port i of switch 0.
void single_switch_network(Scenario& sc);
// topology.generator -> {switches, hosts, links} (also used by docs and tests).
nlohmann::json expand_topology_generator(const nlohmann::json& gen, const std::string& field);

// Next-hop ports per (switch, destination host): all ports on a shortest path (BFS hop
// count over switch-switch links); one port when the host is attached to the switch.
using Routes = std::vector<std::vector<std::vector<uint16_t>>>;  // [switch][host] -> ports
Routes compute_routes(const NetworkCfg& net);

// Deterministic ECMP choice among `n` next hops from a 5-tuple hash, salted per switch.
uint32_t ecmp_pick(uint64_t seed, uint32_t switch_id, uint32_t src_ip, uint32_t dst_ip, uint16_t src_port,
                   uint16_t dst_port, uint8_t proto, uint32_t n);

// The switch-to-switch ports a flow from host `src` to host `dst` leaves through, in
// order, as the ingress pipelines route it (shortest paths, ECMP by ecmp_pick with the
// scenario seed). Empty on a one-switch path.
std::vector<const NetworkCfg::Port*> inner_path(const NetworkCfg& net, const Routes& routes, uint64_t seed,
                                                uint32_t src, uint32_t dst, uint32_t src_ip, uint32_t dst_ip,
                                                uint16_t src_port, uint16_t dst_port, uint8_t proto);

}  // namespace mmusim
