#include "config/topology.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>

#include "config/json_reader.h"
#include "config/scenario.h"
#include "common/splitmix.h"

namespace mmusim {
namespace {

constexpr double kPsPerNs = 1e3;

// Names become SystemC module names and appear in summaries: keep them plain.
bool valid_name(const std::string& s) {
  return !s.empty() && s.size() <= 64 &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(uint8_t(c)) || c == '_'; });
}

uint64_t gbps(JsonReader& r, const std::string& key) { return r.rate_bps(key); }

struct End {
  bool host = false;
  uint32_t node = 0, port = 0;
  bool operator<(const End& o) const {
    return std::tie(host, node, port) < std::tie(o.host, o.node, o.port);
  }
};

nlohmann::json link(const std::string& a, const std::string& b, double rate_gbps, double delay_ns) {
  return {{"a", a}, {"b", b}, {"rate_gbps", rate_gbps}, {"delay_ns", delay_ns}};
}
std::string at(const std::string& sw, uint64_t port) { return sw + ":" + std::to_string(port); }
std::string h(uint64_t i) { return "h" + std::to_string(i); }

}  // namespace

int NetworkCfg::host_index(const std::string& name) const {
  for (size_t i = 0; i < hosts.size(); ++i)
    if (hosts[i].name == name) return int(i);
  return -1;
}

nlohmann::json expand_topology_generator(const nlohmann::json& gen, const std::string& field) {
  JsonReader r(gen, field);
  const std::string type = r.string("type");
  nlohmann::json sw = nlohmann::json::array(), hosts = nlohmann::json::array(), links = nlohmann::json::array();
  const double delay = r.number("link_delay_ns");
  if (!(delay >= 0) || !std::isfinite(delay)) r.fail("link_delay_ns", "must be >= 0");
  if (type == "leaf_spine") {
    const int64_t leaves = r.integer("leaves", 1, 256), spines = r.integer("spines", 1, 256);
    const int64_t hpl = r.integer("hosts_per_leaf", 1, 1024);
    const double host_rate = r.gbps("host_rate_gbps");
    double up_rate = host_rate;
    if (r.has("uplink_rate_gbps") && r.has("oversubscription"))
      r.fail("oversubscription", "give uplink_rate_gbps or oversubscription, not both");
    if (r.has("uplink_rate_gbps")) up_rate = r.gbps("uplink_rate_gbps");
    // Oversubscription = host capacity / uplink capacity of a leaf.
    if (r.has("oversubscription")) {
      up_rate = host_rate * double(hpl) / (r.fraction("oversubscription", 0, 1024) * double(spines));
      if (up_rate < JsonReader::kMinGbps)
        r.fail("oversubscription", "gives uplinks of " + nlohmann::json(up_rate).dump() + " Gb/s, below 1 Mb/s");
    }
    for (int64_t l = 0; l < leaves; ++l) sw.push_back({{"name", "leaf" + std::to_string(l)}, {"ports", hpl + spines}});
    for (int64_t s = 0; s < spines; ++s) sw.push_back({{"name", "spine" + std::to_string(s)}, {"ports", leaves}});
    for (int64_t l = 0; l < leaves; ++l) {
      const std::string leaf = "leaf" + std::to_string(l);
      for (int64_t i = 0; i < hpl; ++i) {
        hosts.push_back({{"name", h(uint64_t(l * hpl + i))}});
        links.push_back(link(at(leaf, uint64_t(i)), h(uint64_t(l * hpl + i)), host_rate, delay));
      }
      for (int64_t s = 0; s < spines; ++s)
        links.push_back(link(at(leaf, uint64_t(hpl + s)), at("spine" + std::to_string(s), uint64_t(l)), up_rate, delay));
    }
  } else if (type == "bfc_testbed") {
    // bfc-nsdi22 Fig. 6: groups 1 and 2 on switch 1, group 3 on switch 3, both into
    // switch 2, which serves receivers 1 and 2.
    const int64_t n = r.integer("senders_per_group", 1, 256);
    const double rate = r.gbps("rate_gbps");
    sw = {{{"name", "sw1"}, {"ports", 2 * n + 1}}, {{"name", "sw2"}, {"ports", 4}}, {{"name", "sw3"}, {"ports", n + 1}}};
    for (int64_t i = 0; i < 3 * n + 2; ++i) hosts.push_back({{"name", h(uint64_t(i))}});
    for (int64_t i = 0; i < 2 * n; ++i) links.push_back(link(at("sw1", uint64_t(i)), h(uint64_t(i)), rate, delay));
    for (int64_t i = 0; i < n; ++i) links.push_back(link(at("sw3", uint64_t(i)), h(uint64_t(2 * n + i)), rate, delay));
    links.push_back(link(at("sw1", uint64_t(2 * n)), at("sw2", 0), rate, delay));
    links.push_back(link(at("sw3", uint64_t(n)), at("sw2", 1), rate, delay));
    links.push_back(link(at("sw2", 2), h(uint64_t(3 * n)), rate, delay));
    links.push_back(link(at("sw2", 3), h(uint64_t(3 * n + 1)), rate, delay));
  } else if (type == "dsh_collateral") {
    // dsh-icdcs23 Fig. 13a: H0, H1 on S0; S0 -> S1; S1 serves R0, R1 and the fan-in senders.
    const int64_t fanin = r.integer("fanin", 1, 1000, 24);
    const double rate = r.gbps("rate_gbps");
    sw = {{{"name", "s0"}, {"ports", 3}}, {{"name", "s1"}, {"ports", 3 + fanin}}};
    for (int64_t i = 0; i < fanin + 4; ++i) hosts.push_back({{"name", h(uint64_t(i))}});
    links.push_back(link("s0:0", h(0), rate, delay));
    links.push_back(link("s0:1", h(1), rate, delay));
    links.push_back(link("s0:2", "s1:0", rate, delay));
    links.push_back(link("s1:1", h(uint64_t(fanin + 2)), rate, delay));  // R0
    links.push_back(link("s1:2", h(uint64_t(fanin + 3)), rate, delay));  // R1
    for (int64_t i = 0; i < fanin; ++i) links.push_back(link(at("s1", uint64_t(3 + i)), h(uint64_t(2 + i)), rate, delay));
  } else if (type == "incast_cascade") {
    // buffer-bandwidth-tradeoff Fig. 5: stage i switches each merge k_i inputs; one
    // switch in the last stage; sources feed stage 1, one receiver after stage n.
    const auto& ks = r.raw("stages");
    if (!ks.is_array() || ks.empty() || ks.size() > 8) r.fail("stages", "array of 1..8 fan-in factors k_i");
    std::vector<uint64_t> k;
    for (size_t i = 0; i < ks.size(); ++i) {
      if (!ks[i].is_number_integer() || ks[i].get<int64_t>() < 2 || ks[i].get<int64_t>() > 64)
        throw ConfigError(r.field("stages") + "[" + std::to_string(i) + "]: k_i must be an integer in [2, 64]");
      k.push_back(ks[i].get<uint64_t>());
    }
    const double rate = r.gbps("rate_gbps");
    const size_t n = k.size();
    std::vector<uint64_t> count(n, 1);  // switches per stage: prod_{j>i} k_j
    for (size_t i = n; i-- > 0;) count[i] = i + 1 < n ? count[i + 1] * k[i + 1] : 1;
    const uint64_t sources = count[0] * k[0];
    if (sources > 4096) r.fail("stages", "more than 4096 sources");
    auto name = [](size_t stage, uint64_t j) { return "st" + std::to_string(stage + 1) + "_" + std::to_string(j); };
    for (size_t i = 0; i < n; ++i)
      for (uint64_t j = 0; j < count[i]; ++j) sw.push_back({{"name", name(i, j)}, {"ports", k[i] + 1}});
    for (uint64_t s = 0; s <= sources; ++s) hosts.push_back({{"name", h(s)}});
    for (uint64_t s = 0; s < sources; ++s) links.push_back(link(at(name(0, s / k[0]), s % k[0]), h(s), rate, delay));
    for (size_t i = 0; i + 1 < n; ++i)
      for (uint64_t j = 0; j < count[i]; ++j)
        links.push_back(link(at(name(i, j), k[i]), at(name(i + 1, j / k[i + 1]), j % k[i + 1]), rate, delay));
    links.push_back(link(at(name(n - 1, 0), k[n - 1]), h(sources), rate, delay));
  } else {
    r.fail("type", "unknown topology generator '" + type + "' (leaf_spine, bfc_testbed, dsh_collateral, incast_cascade)");
  }
  r.done();
  return {{"switches", sw}, {"hosts", hosts}, {"links", links}};
}

void single_switch_network(Scenario& sc) {
  NetworkCfg& net = sc.net;
  net = NetworkCfg{};
  NetworkCfg::Switch s;
  s.name = sc.topo.switch_name;
  for (uint32_t i = 0; i < sc.ports(); ++i) {
    const PortCfg& p = sc.topo.ports[i];
    s.ports.push_back({p.name, p.rate_bps, p.delay_ps, true, i, 0});
    net.hosts.push_back({"h" + std::to_string(i), 0, i, p.rate_bps, p.delay_ps});
  }
  net.switches.push_back(std::move(s));
}

void load_network(Scenario& sc, JsonReader& r) {
  NetworkCfg& net = sc.net;
  net = NetworkCfg{};
  net.graph = true;
  for (const char* k : {"ports", "switch", "port_overrides"})
    if (r.object().contains(k)) r.fail(k, "belongs to the single-switch form; not allowed with switches/generator");
  const uint32_t stride = uint32_t(r.integer("port_name_stride", 1, 64, 4));
  nlohmann::json expanded;
  const nlohmann::json* graph = &r.object();
  std::string base = r.field("");
  bool has_dflt_rate = false, has_dflt_delay = false;
  uint64_t dflt_rate = 0, dflt_delay = 0;
  if (r.has("generator")) {
    for (const char* k : {"switches", "hosts", "links", "rate_gbps", "link_delay_ns"})
      if (r.object().contains(k)) r.fail(k, "not allowed with generator (the generator builds the graph)");
    expanded = expand_topology_generator(r.raw("generator"), r.field("generator"));
    graph = &expanded;
    base = r.field("generator") + " (expanded)";
  } else {
    if ((has_dflt_rate = r.has("rate_gbps"))) dflt_rate = gbps(r, "rate_gbps");
    if ((has_dflt_delay = r.has("link_delay_ns"))) dflt_delay = r.time_ps("link_delay_ns", kPsPerNs, true);
    r.raw("switches");
    r.raw("hosts");
    r.raw("links");
  }
  auto array = [&](const char* key) -> const nlohmann::json& {
    const std::string f = base + "." + key;
    if (!graph->contains(key)) throw ConfigError(f + ": required field is missing");
    const auto& a = graph->at(key);
    if (!a.is_array() || a.empty()) throw ConfigError(f + ": must be a non-empty array");
    return a;
  };

  std::map<std::string, uint32_t> sw_idx, host_idx;
  std::map<std::string, std::string> name_field;
  auto claim = [&](const std::string& name, const std::string& f) {
    if (!valid_name(name)) throw ConfigError(f + ": '" + name + "' must be 1-64 letters, digits or _");
    if (name_field.count(name)) throw ConfigError(f + ": '" + name + "' already names " + name_field[name]);
    name_field[name] = f;
  };
  const auto& switches = array("switches");
  for (size_t i = 0; i < switches.size(); ++i) {
    const std::string f = base + ".switches[" + std::to_string(i) + "]";
    JsonReader s(switches[i], f);
    NetworkCfg::Switch sw;
    sw.name = s.string("name");
    claim(sw.name, s.field("name"));
    const uint32_t n = uint32_t(s.integer("ports", 1, 1024));
    for (uint32_t p = 0; p < n; ++p) sw.ports.push_back({"Ethernet" + std::to_string(p * stride), 0, 0, false, 0, 0});
    if (s.has("buffer")) {
      if (!s.raw("buffer").is_object()) s.fail("buffer", "must be an object (SONiC tables for this switch)");
      sw.buffer = s.raw("buffer");
    }
    s.done();
    sw_idx[sw.name] = uint32_t(net.switches.size());
    net.switches.push_back(std::move(sw));
  }
  const auto& hosts = array("hosts");
  for (size_t i = 0; i < hosts.size(); ++i) {
    JsonReader hr(hosts[i], base + ".hosts[" + std::to_string(i) + "]");
    NetworkCfg::Host host;
    host.name = hr.string("name");
    claim(host.name, hr.field("name"));
    hr.done();
    host.sw = UINT32_MAX;
    host_idx[host.name] = uint32_t(net.hosts.size());
    net.hosts.push_back(host);
  }
  if (net.hosts.size() > 65535) throw ConfigError(base + ".hosts: at most 65535 hosts");

  const auto& links = array("links");
  std::map<End, std::string> used;
  // Switch adjacency for the connectivity check.
  std::vector<std::vector<uint32_t>> adj(net.switches.size());
  for (size_t i = 0; i < links.size(); ++i) {
    JsonReader l(links[i], base + ".links[" + std::to_string(i) + "]");
    End e[2];
    const char* keys[2] = {"a", "b"};
    for (int k = 0; k < 2; ++k) {
      const std::string s = l.string(keys[k]);
      const auto colon = s.find(':');
      if (colon == std::string::npos) {
        auto it = host_idx.find(s);
        if (it == host_idx.end())
          l.fail(keys[k], "unknown host '" + s + "' (a switch end is SWITCH:PORT, e.g. sw0:3)");
        e[k] = {true, it->second, 0};
      } else {
        auto it = sw_idx.find(s.substr(0, colon));
        if (it == sw_idx.end()) l.fail(keys[k], "unknown switch '" + s.substr(0, colon) + "' in '" + s + "'");
        const std::string ps = s.substr(colon + 1);
        if (ps.empty() || ps.size() > 6 || !std::all_of(ps.begin(), ps.end(), ::isdigit))
          l.fail(keys[k], "'" + s + "': port must be a number, e.g. " + it->first + ":0");
        const uint32_t port = uint32_t(std::stoul(ps));
        if (port >= net.switches[it->second].ports.size())
          l.fail(keys[k], "'" + s + "': port " + ps + " out of range (" + it->first + " has " +
                              std::to_string(net.switches[it->second].ports.size()) + " ports)");
        e[k] = {false, it->second, port};
      }
      auto prev = used.find(e[k]);
      if (prev != used.end())
        l.fail(keys[k], "'" + s + "' is already connected by " + prev->second);
      if (e[k].host && net.hosts[e[k].node].sw != UINT32_MAX)
        l.fail(keys[k], "host '" + s + "' already has its link (one NIC port per host)");
    }
    if (e[0].host && e[1].host) l.fail("", "links two hosts; a host attaches to a switch port");
    if (!e[0].host && !e[1].host && e[0].node == e[1].node)
      l.fail("b", "links switch '" + net.switches[e[0].node].name + "' to itself");
    const uint64_t rate = l.has("rate_gbps") || !has_dflt_rate ? gbps(l, "rate_gbps") : dflt_rate;
    const uint64_t delay = l.has("delay_ns") || !has_dflt_delay ? l.time_ps("delay_ns", kPsPerNs, true) : dflt_delay;
    l.done();
    for (int k = 0; k < 2; ++k) used[e[k]] = l.field("");
    if (e[0].host) std::swap(e[0], e[1]);  // e[0] is a switch end
    NetworkCfg::Port& p = net.switches[e[0].node].ports[e[0].port];
    p.rate_bps = rate;
    p.delay_ps = delay;
    p.peer_host = e[1].host;
    p.peer = e[1].node;
    p.peer_port = e[1].port;
    if (e[1].host) {
      NetworkCfg::Host& host = net.hosts[e[1].node];
      host.sw = e[0].node;
      host.port = e[0].port;
      host.rate_bps = rate;
      host.delay_ps = delay;
    } else {
      NetworkCfg::Port& q = net.switches[e[1].node].ports[e[1].port];
      q.rate_bps = rate;
      q.delay_ps = delay;
      q.peer_host = false;
      q.peer = e[0].node;
      q.peer_port = e[0].port;
      adj[e[0].node].push_back(e[1].node);
      adj[e[1].node].push_back(e[0].node);
    }
  }
  for (size_t s = 0; s < net.switches.size(); ++s)
    for (uint32_t p = 0; p < net.switches[s].ports.size(); ++p)
      if (!used.count(End{false, uint32_t(s), p}))
        throw ConfigError(base + ".switches[" + std::to_string(s) + "].ports: port " + std::to_string(p) + " (" +
                          net.switches[s].ports[p].name + ") of '" + net.switches[s].name +
                          "' is not connected; every port needs a link");
  for (size_t i = 0; i < net.hosts.size(); ++i)
    if (net.hosts[i].sw == UINT32_MAX)
      throw ConfigError(base + ".hosts[" + std::to_string(i) + "]: host '" + net.hosts[i].name + "' has no link");
  std::vector<bool> seen(net.switches.size(), false);
  std::queue<uint32_t> q;
  q.push(0);
  seen[0] = true;
  while (!q.empty()) {
    const uint32_t s = q.front();
    q.pop();
    for (uint32_t t : adj[s])
      if (!seen[t]) seen[t] = true, q.push(t);
  }
  for (size_t s = 0; s < net.switches.size(); ++s)
    if (!seen[s])
      throw ConfigError(base + ".links: switch '" + net.switches[s].name + "' is not connected to '" +
                        net.switches[0].name + "' (hosts on it could not reach the others)");

  // SONiC tables name ports; the largest switch's names are the set they may use.
  size_t largest = 0;
  for (size_t s = 1; s < net.switches.size(); ++s)
    if (net.switches[s].ports.size() > net.switches[largest].ports.size()) largest = s;
  sc.topo.switch_name = net.switches[0].name;
  sc.topo.ports.clear();
  for (const auto& p : net.switches[largest].ports) sc.topo.ports.push_back({p.name, p.rate_bps, p.delay_ps});
}

Routes compute_routes(const NetworkCfg& net) {
  const size_t ns = net.switches.size();
  Routes routes(ns, std::vector<std::vector<uint16_t>>(net.hosts.size()));
  for (size_t d = 0; d < net.hosts.size(); ++d) {
    const auto& host = net.hosts[d];
    std::vector<uint32_t> dist(ns, UINT32_MAX);
    std::queue<uint32_t> q;
    dist[host.sw] = 0;
    q.push(host.sw);
    while (!q.empty()) {
      const uint32_t s = q.front();
      q.pop();
      for (const auto& p : net.switches[s].ports)
        if (!p.peer_host && dist[p.peer] == UINT32_MAX) dist[p.peer] = dist[s] + 1, q.push(p.peer);
    }
    routes[host.sw][d] = {uint16_t(host.port)};
    for (size_t s = 0; s < ns; ++s) {
      if (s == host.sw || dist[s] == UINT32_MAX) continue;
      const auto& ports = net.switches[s].ports;
      for (uint16_t p = 0; p < ports.size(); ++p)
        if (!ports[p].peer_host && dist[ports[p].peer] + 1 == dist[s]) routes[s][d].push_back(p);
    }
  }
  return routes;
}

uint32_t ecmp_pick(uint64_t seed, uint32_t switch_id, uint32_t src_ip, uint32_t dst_ip, uint16_t src_port,
                   uint16_t dst_port, uint8_t proto, uint32_t n) {
  // Salted per switch so consecutive tiers do not polarise onto the same choice.
  uint64_t x = splitmix(seed ^ (uint64_t(switch_id) << 32));
  x = splitmix(x ^ (uint64_t(src_ip) << 32 | dst_ip));
  x = splitmix(x ^ (uint64_t(src_port) << 24 | uint64_t(dst_port) << 8 | proto));
  return uint32_t(x % n);
}

std::vector<const NetworkCfg::Port*> inner_path(const NetworkCfg& net, const Routes& routes, uint64_t seed,
                                                uint32_t src, uint32_t dst, uint32_t src_ip, uint32_t dst_ip,
                                                uint16_t src_port, uint16_t dst_port, uint8_t proto) {
  std::vector<const NetworkCfg::Port*> path;
  uint32_t s = net.hosts[src].sw;
  // A shortest path visits each switch at most once.
  while (s != net.hosts[dst].sw && path.size() < net.switches.size()) {
    const auto& hops = routes[s][dst];
    if (hops.empty()) break;
    const uint16_t p = hops.size() == 1
                           ? hops[0]
                           : hops[ecmp_pick(seed, s, src_ip, dst_ip, src_port, dst_port, proto, uint32_t(hops.size()))];
    path.push_back(&net.switches[s].ports[p]);
    s = net.switches[s].ports[p].peer;
  }
  return path;
}

}  // namespace mmusim
