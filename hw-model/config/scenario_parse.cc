#include "config/scenario_parse.h"

#include <algorithm>

#include "config/scenario.h"

namespace mmusim {

std::string ns_text(uint64_t ps) { return nlohmann::json(double(ps) / 1e3).dump(); }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

std::string clip(const std::string& s) { return s.size() <= 80 ? s : s.substr(0, 80) + "..."; }

bool parse_uint(const std::string& s, uint64_t& out) {
  if (s.empty() || s.size() > 18 || !std::all_of(s.begin(), s.end(), ::isdigit)) return false;
  out = std::stoull(s);
  return true;
}

uint8_t parse_prio_set(const std::string& s, const std::string& field) {
  if (s.empty()) throw ConfigError(field + ": empty priority list; expected e.g. 3, 3-4 or 0,3-4");
  uint8_t mask = 0;
  for (const auto& part : split(s, ',')) {
    auto range = split(part, '-');
    uint64_t lo = 0, hi = 0;
    if (range.size() == 1 && parse_uint(range[0], lo)) {
      hi = lo;
    } else if (!(range.size() == 2 && parse_uint(range[0], lo) && parse_uint(range[1], hi))) {
      throw ConfigError(field + ": '" + s + "' is not a priority list like 3 or 3-4");
    }
    if (lo > hi || hi > 7) throw ConfigError(field + ": priorities must be 0..7, got '" + s + "'");
    for (uint64_t p = lo; p <= hi; ++p) mask |= uint8_t(1u << p);
  }
  return mask;
}

int port_index_or_skip(const SwitchConfig& sc, const std::string& name, const std::string& field, bool skip) {
  for (uint32_t i = 0; i < sc.ports(); ++i)
    if (sc.topo.ports[i].name == name) return int(i);
  if (skip) return -1;
  throw ConfigError(field + ": unknown port '" + name + "'");
}

uint32_t port_index(const SwitchConfig& sc, const std::string& name, const std::string& field) {
  return uint32_t(port_index_or_skip(sc, name, field, false));
}

std::pair<std::vector<uint32_t>, uint8_t> parse_port_prio_key(const SwitchConfig& sc, const std::string& key,
                                                               const std::string& table, bool skip_missing) {
  const std::string field = "buffer." + table + "." + key;
  auto bar = key.find('|');
  if (bar == std::string::npos)
    throw ConfigError(field + ": key must be PORT|PRIORITIES, e.g. Ethernet0|3-4");
  std::vector<uint32_t> ports;
  for (const auto& name : split(key.substr(0, bar), ','))
    if (const int i = port_index_or_skip(sc, name, field, skip_missing); i >= 0) ports.push_back(uint32_t(i));
  return {ports, parse_prio_set(key.substr(bar + 1), field)};
}

std::vector<uint32_t> parse_hosts(const nlohmann::json& v, const std::string& field, const Scenario& sc) {
  std::vector<uint32_t> out;
  const uint32_t nhosts = sc.hosts();
  auto one = [&](const nlohmann::json& e) {
    if (!e.is_string()) throw ConfigError(field + ": hosts are strings like h3 or h1-h16");
    const std::string s = e.get<std::string>();
    if (sc.net.graph && s.find('-') == std::string::npos) {
      const int i = sc.net.host_index(s);
      if (i < 0) throw ConfigError(field + ": unknown host '" + s + "'");
      out.push_back(uint32_t(i));
      return;
    }
    auto range = split(s, '-');
    uint64_t lo = 0, hi = 0;
    auto host = [&](const std::string& h, uint64_t& n) {
      return h.size() > 1 && h[0] == 'h' && parse_uint(h.substr(1), n);
    };
    bool ok = range.size() == 1 ? host(range[0], lo) && (hi = lo, true)
                                : range.size() == 2 && host(range[0], lo) && host(range[1], hi);
    if (!ok || lo > hi) throw ConfigError(field + ": '" + s + "' is not a host like h3 or h1-h16");
    if (!sc.net.graph && hi >= nhosts)
      throw ConfigError(field + ": host h" + std::to_string(hi) + " does not exist (switch has " +
                        std::to_string(nhosts) + " ports)");
    if (sc.net.graph && hi - lo >= nhosts) throw ConfigError(field + ": '" + s + "' names more hosts than exist");
    for (uint64_t h = lo; h <= hi; ++h) {
      const int i = sc.net.graph ? sc.net.host_index("h" + std::to_string(h)) : int(h);
      if (i < 0) throw ConfigError(field + ": '" + s + "': unknown host 'h" + std::to_string(h) + "'");
      out.push_back(uint32_t(i));
    }
  };
  if (v.is_array()) {
    for (const auto& e : v) one(e);
  } else {
    one(v);
  }
  if (out.empty()) throw ConfigError(field + ": empty host list");
  return out;
}

}  // namespace mmusim
