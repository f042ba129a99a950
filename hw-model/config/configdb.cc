#include "config/configdb.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <cctype>
#include <set>
#include <sstream>

#include "config/input_file.h"
#include "config/scenario.h"
#include "config/scenario_parse.h"
#include "config/sonic_buffermgr.h"
#include "config/topology.h"

namespace mmusim {
namespace {

using nlohmann::json;

// Tables the import reads; every other table lands in the warning block.
const std::set<std::string> kTables = {
    "PORT", "CABLE_LENGTH", "BUFFER_POOL", "BUFFER_PROFILE", "BUFFER_PG", "BUFFER_QUEUE", "PORT_QOS_MAP",
    "DSCP_TO_TC_MAP", "DOT1P_TO_TC_MAP", "TC_TO_PRIORITY_GROUP_MAP", "TC_TO_QUEUE_MAP", "MAP_PFC_PRIORITY_TO_QUEUE",
    "DEVICE_METADATA", "DEFAULT_LOSSLESS_BUFFER_PARAMETER", "LOSSLESS_TRAFFIC_PATTERN",
    "BUFFER_PORT_INGRESS_PROFILE_LIST", "BUFFER_PORT_EGRESS_PROFILE_LIST", "WRED_PROFILE", "QUEUE", "PFC_WD"};

// The scenario's "wred" object, created empty if absent (ConfigError if not an object).
json& wred_object(json& j) {
  json& w = j["wred"];
  if (w.is_null()) w = json::object();
  if (!w.is_object()) throw ConfigError("wred: must be an object");
  return w;
}

// buffermgrd's INGRESS_LOSSLESS_PG_POOL_NAME: the pool of generated lossless profiles.
const char* const kLosslessPool = "ingress_lossless_pool";

std::string join(const std::vector<std::string>& v, const std::string& sep = ", ") {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

[[noreturn]] void fail(const std::string& field, const std::string& what) {
  throw ConfigError("switch_config: " + field + ": " + what);
}

// CONFIG_DB writes every value as a string; JSON numbers are accepted too.
std::string text(const json& v, const std::string& field) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer() || v.is_number_unsigned()) return std::to_string(v.get<int64_t>());
  fail(field, "must be a string");
}

uint64_t uint_value(const json& v, const std::string& field, uint64_t max = uint64_t(1) << 50) {
  const std::string s = text(v, field);
  if (s.empty() || s.size() > 16 || s.find_first_not_of("0123456789") != std::string::npos)
    fail(field, "'" + s + "' is not a non-negative integer");
  const uint64_t x = std::stoull(s);
  if (x > max) fail(field, s + " is out of range (at most " + std::to_string(max) + ")");
  return x;
}

double real_value(const json& v, const std::string& field) {
  const std::string s = text(v, field);
  size_t used = 0;
  double d = 0;
  try {
    d = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (s.empty() || used != s.size() || !(d >= 0) || d > 1e9) fail(field, "'" + s + "' is not a non-negative number");
  return d;
}

// A small signed integer ("-3"), as dynamic_th and lookup thresholds are written.
int64_t int_value(const json& v, const std::string& field, int64_t lo, int64_t hi) {
  const std::string s = text(v, field);
  const size_t digits = s.size() - (!s.empty() && s[0] == '-');
  if (digits < 1 || digits > 12 || s.find_first_not_of("0123456789", s.size() - digits) != std::string::npos)
    fail(field, "'" + s + "' is not an integer");
  const int64_t x = std::stoll(s);
  if (x < lo || x > hi) fail(field, s + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return x;
}

// "[BUFFER_POOL|ingress_lossless_pool]" (older CONFIG_DB) or "ingress_lossless_pool".
std::string deref(const json& v, const std::string& table, const std::string& field) {
  const std::string s = text(v, field);
  if (s.size() < 2 || s.front() != '[') return s;
  const auto bar = s.find('|');
  if (s.back() != ']' || bar == std::string::npos) fail(field, "'" + s + "' is not a reference like [" + table + "|name]");
  if (s.substr(1, bar - 1) != table) fail(field, "'" + s + "' refers to table " + s.substr(1, bar - 1) + ", expected " + table);
  return s.substr(bar + 1, s.size() - bar - 2);
}

// "300m" -> 300.
uint64_t cable_metres(const json& v, const std::string& field) {
  const std::string s = text(v, field);
  if (s.size() < 2 || s.back() != 'm') fail(field, "'" + s + "' is not a cable length like 300m");
  return uint_value(json(s.substr(0, s.size() - 1)), field, 100000);
}

const json& table(const json& db, const char* name) {
  static const json empty = json::object();
  auto it = db.find(name);
  if (it == db.end()) return empty;
  if (!it->is_object()) fail(name, "must be an object");
  return *it;
}

// The one entry of a CONFIG_DB singleton table (CABLE_LENGTH|AZURE, LOSSLESS_TRAFFIC_PATTERN|AZURE, ...).
const json& singleton(const json& db, const char* name) {
  static const json empty = json::object();
  const json& t = table(db, name);
  if (t.empty()) return empty;
  if (t.size() > 1) fail(name, "more than one entry; SONiC uses one (e.g. AZURE)");
  if (!t.begin()->is_object()) fail(std::string(name) + "." + t.begin().key(), "must be an object");
  return *t.begin();
}

// "3,4" -> bits 3 and 4 (as buffermgrd tokenises pfc_enable).
uint8_t prio_mask(const std::string& s, const std::string& field) {
  uint8_t m = 0;
  if (s.empty()) return 0;
  for (const auto& part : split(s, ',')) {
    const auto r = split(part, '-');
    if (r.size() > 2) fail(field, "'" + s + "' is not a priority list like 3,4");
    const uint64_t lo = uint_value(json(r[0]), field, 7), hi = uint_value(json(r.back()), field, 7);
    if (lo > hi) fail(field, "'" + s + "' is not a priority list like 3,4");
    for (uint64_t p = lo; p <= hi; ++p) m |= uint8_t(1u << p);
  }
  return m;
}

std::string mask_text(uint8_t m) {
  std::vector<std::string> v;
  for (int p = 0; p < 8; ++p)
    if (m >> p & 1) v.push_back(std::to_string(p));
  return join(v, ",");
}

// A TC -> PG / queue map: 8 entries, missing ones identity.
std::array<uint8_t, 8> tc_map(const json& db, const char* tbl, const std::string& name, const std::string& field) {
  const json& t = table(db, tbl);
  if (!t.contains(name)) fail(field, "unknown " + std::string(tbl) + " '" + name + "'");
  std::array<uint8_t, 8> m{};
  for (uint8_t i = 0; i < 8; ++i) m[i] = i;
  const json& e = t.at(name);
  if (!e.is_object()) fail(std::string(tbl) + "." + name, "must be an object");
  for (auto it = e.begin(); it != e.end(); ++it) {
    const std::string f = std::string(tbl) + "." + name + "." + it.key();
    m[uint_value(json(it.key()), f, 7)] = uint8_t(uint_value(*it, f, 7));
  }
  return m;
}

// PORT_QOS_MAP keys of the TC -> PG, TC -> queue and PFC priority -> queue maps, and their tables.
struct ClassMapKey {
  const char* key;
  const char* table;
};
constexpr std::array<ClassMapKey, 3> kClassMaps = {{{"tc_to_pg_map", "TC_TO_PRIORITY_GROUP_MAP"},
                                                    {"tc_to_queue_map", "TC_TO_QUEUE_MAP"},
                                                    {"pfc_to_queue_map", "MAP_PFC_PRIORITY_TO_QUEUE"}}};

int class_map_index(const std::string& key) {
  for (size_t k = 0; k < kClassMaps.size(); ++k)
    if (key == kClassMaps[k].key) return int(k);
  return -1;
}

struct PortInfo {
  std::string name;
  bool in_port_table = false;
  uint64_t speed_mbps = 0;  // PORT.speed, else the topology's rate
  uint64_t mtu = 9100;      // SONiC's default port MTU
  uint32_t lanes = 0;
  bool admin_up = false;
  bool has_cable = false;
  uint64_t cable_m = 0;
};

uint64_t topo_uint(const json& t, const char* key, uint64_t dflt, uint64_t lo, uint64_t hi, const std::string& field) {
  if (!t.contains(key)) return dflt;
  const json& v = t.at(key);
  if (!v.is_number_integer() || v.get<int64_t>() < int64_t(lo) || v.get<int64_t>() > int64_t(hi))
    throw ConfigError(field + ": must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v.get<uint64_t>();
}

// A switch's ports as the topology names them (Ethernet<stride * i>), at `gbps` until PORT
// says otherwise (0: unknown).
// In a graph, switch `sw`'s ports take the rate of their link where it gives one.
std::vector<PortInfo> switch_ports(uint64_t n, uint64_t stride, const json& t, const std::string& sw = "") {
  const double gbps = t.contains("rate_gbps") && t.at("rate_gbps").is_number() ? t.at("rate_gbps").get<double>() : 0;
  std::vector<PortInfo> ports(n);
  for (size_t i = 0; i < ports.size(); ++i) {
    ports[i].name = "Ethernet" + std::to_string(i * stride);
    ports[i].speed_mbps = uint64_t(std::llround(gbps * 1000));
  }
  if (sw.empty() || !t.contains("links") || !t.at("links").is_array()) return ports;
  for (const auto& l : t.at("links")) {
    if (!l.is_object() || !l.contains("rate_gbps") || !l.at("rate_gbps").is_number()) continue;
    for (const char* end : {"a", "b"}) {
      const std::string e = l.contains(end) && l.at(end).is_string() ? l.at(end).get<std::string>() : "";
      if (e.rfind(sw + ":", 0) != 0) continue;
      const std::string port = e.substr(sw.size() + 1);
      if (port.empty() || port.size() > 4 || port.find_first_not_of("0123456789") != std::string::npos) continue;
      if (const uint64_t p = std::stoull(port); p < n)
        ports[p].speed_mbps = uint64_t(std::llround(l.at("rate_gbps").get<double>() * 1000));
    }
  }
  return ports;
}

// CONFIG_DB files named by switch_config, merged field by field (later files win).
json read_config_db(const json& spec) {
  if (spec.is_object()) return spec;
  std::vector<std::string> files;
  if (spec.is_string()) files.push_back(spec.get<std::string>());
  else if (spec.is_array())
    for (const auto& f : spec) {
      if (!f.is_string()) throw ConfigError("switch_config: must be a file name, a list of them, or an object");
      files.push_back(f.get<std::string>());
    }
  else
    throw ConfigError("switch_config: must be a file name, a list of them, or an object");
  if (files.empty()) throw ConfigError("switch_config: empty list");
  json db = json::object();
  for (const auto& f : files) {
    const json one = parse_json_file(f);
    if (!one.is_object()) throw ConfigError(f + ": a CONFIG_DB file is a JSON object of tables");
    for (auto t = one.begin(); t != one.end(); ++t) {
      if (!t->is_object()) throw ConfigError(f + ": " + t.key() + ": must be an object");
      for (auto e = t->begin(); e != t->end(); ++e) {
        json& dst = db[t.key()][e.key()];
        if (dst.is_object() && e->is_object()) dst.update(*e);
        else dst = *e;
      }
    }
  }
  return db;
}

class Importer {
 public:
  // `single`: the single-switch form, whose ports PORT and CABLE_LENGTH set; else a switch
  // of a graph, whose links set them.
  // `wred`: WRED_PROFILE and QUEUE go to the scenario's "wred"; false for one switch of a
  // graph, whose own WRED tables are not modelled.
  Importer(const json& db, json& scenario, std::vector<PortInfo> ports, bool single, ImportMessages& msgs,
           bool wred = false)
      : m_db(db), m_j(scenario), m_single(single), m_msgs(msgs), m_ports(std::move(ports)), m_wred(wred) {}

  // The scenario `buffer` tables.
  json run() {
    for (size_t i = 0; i < m_ports.size(); ++i) m_port_idx[m_ports[i].name] = i;
    for (auto it = m_db.begin(); it != m_db.end(); ++it)
      if (!kTables.count(it.key()))
        ignore(it.key(), !it->is_object() ? "not a table" : std::to_string(it->size()) + (it->size() == 1 ? " entry" : " entries"));
    read_platform();
    read_ports();
    read_pools();
    read_profiles();
    m_pg = assignments("BUFFER_PG", "BUFFER_PROFILE");
    m_queue = assignments("BUFFER_QUEUE", "BUFFER_PROFILE");
    read_qos_map();
    read_wred();
    read_pfc_wd();
    generate_lossless_profiles();
    size_pools();
    json buffer = buffer_tables();
    set_ports();
    for (const auto& [what, items] : m_ignored) {
      std::vector<std::string> v(items.begin(), items.end());
      m_msgs.ignored.push_back(v.empty() ? what : what + " (" + join(v) + ")");
    }
    return buffer;
  }

 private:
  void ignore(const std::string& what, const std::string& detail = "") {
    auto& s = m_ignored[what];
    if (!detail.empty()) s.insert(detail);
  }

  void read_platform() {
    const json& meta = table(m_db, "DEVICE_METADATA");
    std::string model;
    if (meta.contains("localhost")) {
      const json& l = meta.at("localhost");
      if (!l.is_object()) fail("DEVICE_METADATA.localhost", "must be an object");
      for (auto it = l.begin(); it != l.end(); ++it)
        if (it.key() == "buffer_model") model = text(*it, "DEVICE_METADATA.localhost.buffer_model");
        else ignore("DEVICE_METADATA.localhost", it.key());
    }
    bool sizeless = false;
    for (const auto& v : table(m_db, "BUFFER_POOL")) sizeless |= v.is_object() && !v.contains("size");
    if (model.empty()) {
      m_dynamic = sizeless;
      m_msgs.notes.push_back(std::string("DEVICE_METADATA.localhost.buffer_model not given: ") +
                             (sizeless ? "dynamic (a pool has no size)" : "traditional (every pool has a size)"));
    } else if (model == "dynamic" || model == "traditional") {
      m_dynamic = model == "dynamic";
    } else {
      fail("DEVICE_METADATA.localhost.buffer_model", "'" + model + "' is not dynamic or traditional");
    }
    const json p = m_j.contains("platform") ? m_j.at("platform") : json::object();
    if (!p.is_object()) throw ConfigError("platform: must be an object");
    for (auto it = p.begin(); it != p.end(); ++it) {
      if (it.key() == "pg_profile_lookup") {
        if (!it->is_string()) throw ConfigError("platform.pg_profile_lookup: must be a file name");
        m_lookup_file = it->get<std::string>();
        m_lookup = read_pg_profile_lookup(m_lookup_file);
      } else if (it.key() == "asic_table") {
        if (!it->is_object()) throw ConfigError("platform.asic_table: must be an object");
        for (auto a = it->begin(); a != it->end(); ++a) {
          const std::string f = "platform.asic_table." + a.key();
          if (!a->is_number() || !(a->get<double>() >= 0) || a->get<double>() > 1e6)
            throw ConfigError(f + ": must be a number in [0, 1e6]");
          const double v = a->get<double>();
          if (a.key() == "cell_size") {
            if (v < 1 || v != std::floor(v)) throw ConfigError(f + ": must be an integer >= 1");
            m_asic.cell_size = uint32_t(v);
          } else if (a.key() == "pipeline_latency") m_asic.pipeline_latency_kb = v;
          else if (a.key() == "mac_phy_delay") m_asic.mac_phy_delay_kb = v;
          else if (a.key() == "peer_response_time") m_asic.peer_response_time_kb = v;
          else throw ConfigError(f + ": unknown key (cell_size, pipeline_latency, mac_phy_delay, peer_response_time)");
        }
        m_asic_given = true;
      } else {
        throw ConfigError("platform." + it.key() + ": unknown key (pg_profile_lookup, asic_table)");
      }
    }
  }

  void read_ports() {
    const json& port = table(m_db, "PORT");
    std::vector<std::string> absent;
    for (auto it = port.begin(); it != port.end(); ++it) {
      const std::string f = "PORT." + it.key();
      if (!it->is_object()) fail(f, "must be an object");
      auto idx = m_port_idx.find(it.key());
      if (idx == m_port_idx.end()) {
        absent.push_back(it.key());
        continue;
      }
      PortInfo& p = m_ports[idx->second];
      p.in_port_table = true;
      for (auto k = it->begin(); k != it->end(); ++k) {
        if (k.key() == "speed") p.speed_mbps = uint_value(*k, f + ".speed", 100'000'000);
        else if (k.key() == "mtu") p.mtu = uint_value(*k, f + ".mtu", 65535);
        else if (k.key() == "lanes") p.lanes = uint32_t(split(text(*k, f + ".lanes"), ',').size());
        else if (k.key() == "admin_status") p.admin_up = text(*k, f + ".admin_status") == "up";
        else ignore("PORT fields", k.key());
      }
      if (p.speed_mbps == 0) fail(f + ".speed", "required and > 0");
    }
    if (!absent.empty()) ignore("PORT: ports not in the topology", join(absent));
    const json& cable = singleton(m_db, "CABLE_LENGTH");
    absent.clear();
    for (auto it = cable.begin(); it != cable.end(); ++it) {
      auto idx = m_port_idx.find(it.key());
      if (idx == m_port_idx.end()) {
        absent.push_back(it.key());
        continue;
      }
      m_ports[idx->second].has_cable = true;
      m_ports[idx->second].cable_m = cable_metres(*it, "CABLE_LENGTH." + table(m_db, "CABLE_LENGTH").begin().key() + "." + it.key());
    }
    if (!absent.empty()) ignore("CABLE_LENGTH: ports not in the topology", join(absent));
  }

  void read_pools() {
    const json& pools = table(m_db, "BUFFER_POOL");
    if (pools.empty()) fail("BUFFER_POOL", "at least one pool is required");
    for (auto it = pools.begin(); it != pools.end(); ++it) {
      const std::string f = "BUFFER_POOL." + it.key();
      if (!it->is_object()) fail(f, "must be an object");
      json out = json::object();
      for (auto k = it->begin(); k != it->end(); ++k) {
        if (k.key() == "type" || k.key() == "mode") out[k.key()] = text(*k, f + "." + k.key());
        else if (k.key() == "size" || k.key() == "xoff") out[k.key()] = uint_value(*k, f + "." + k.key());
        else ignore("BUFFER_POOL fields", k.key());
      }
      if (!out.contains("type")) fail(f + ".type", "required field is missing");
      m_pools[it.key()] = out;
    }
  }

  void read_profiles() {
    const json& profs = table(m_db, "BUFFER_PROFILE");
    for (auto it = profs.begin(); it != profs.end(); ++it) {
      const std::string f = "BUFFER_PROFILE." + it.key();
      if (!it->is_object()) fail(f, "must be an object");
      json out = json::object();
      for (auto k = it->begin(); k != it->end(); ++k) {
        const std::string kf = f + "." + k.key();
        if (k.key() == "pool") {
          const std::string pool = deref(*k, "BUFFER_POOL", kf);
          if (!m_pools.count(pool)) fail(kf, "unknown pool '" + pool + "'");
          out["pool"] = pool;
        } else if (k.key() == "dynamic_th") {
          out["dynamic_th"] = int_value(*k, kf, -8, 8);
        } else if (k.key() == "size" || k.key() == "static_th" || k.key() == "xoff" || k.key() == "xon" ||
                   k.key() == "xon_offset") {
          out[k.key()] = uint_value(*k, kf);
        } else {
          ignore("BUFFER_PROFILE fields", k.key());
        }
      }
      if (!out.contains("pool")) fail(f + ".pool", "required field is missing");
      m_profiles[it.key()] = out;
    }
  }

  // BUFFER_PG / BUFFER_QUEUE over the topology's ports: [port][index] -> profile, "" unset,
  // "NULL" kept (the dynamic model's lossless PG).
  std::vector<std::array<std::string, 8>> assignments(const char* name, const char* ref_table) {
    std::vector<std::array<std::string, 8>> out(m_ports.size());
    const json& t = table(m_db, name);
    std::set<std::string> absent;
    for (auto it = t.begin(); it != t.end(); ++it) {
      const std::string f = std::string(name) + "." + it.key();
      const auto bar = it.key().find('|');
      if (bar == std::string::npos) fail(f, "key must be PORT|IDS, e.g. Ethernet0|3-4");
      const uint8_t mask = prio_mask(it.key().substr(bar + 1), f);
      if (!it->is_object() || !it->contains("profile")) fail(f + ".profile", "required field is missing");
      for (auto k = it->begin(); k != it->end(); ++k)
        if (k.key() != "profile") ignore(std::string(name) + " fields", k.key());
      const std::string prof = deref(it->at("profile"), ref_table, f + ".profile");
      if (prof != "NULL" && !m_profiles.count(prof)) fail(f + ".profile", "unknown profile '" + prof + "'");
      for (const auto& port : split(it.key().substr(0, bar), ',')) {
        auto idx = m_port_idx.find(port);
        if (idx == m_port_idx.end()) {
          absent.insert(port);
          continue;
        }
        for (int q = 0; q < 8; ++q)
          if (mask >> q & 1) out[idx->second][size_t(q)] = prof;
      }
    }
    if (!absent.empty()) ignore(std::string(name) + ": ports not in the topology", join({absent.begin(), absent.end()}));
    return out;
  }

  // WRED_PROFILE and QUEUE's wred_profile become the scenario's wred tables, which the
  // loader checks; QUEUE's ports outside the topology are left out.
  void read_wred() {
    const json& profs = table(m_db, "WRED_PROFILE");
    const json& queues = table(m_db, "QUEUE");
    if (profs.empty() && queues.empty()) return;
    if (!m_wred) {
      ignore("WRED_PROFILE and QUEUE of one switch of a graph (give them in the top-level switch_config or wred)");
      return;
    }
    static const std::set<std::string> fields = {
        "ecn", "wred_green_enable", "wred_yellow_enable", "wred_red_enable", "green_min_threshold",
        "green_max_threshold", "green_drop_probability", "yellow_min_threshold", "yellow_max_threshold",
        "yellow_drop_probability", "red_min_threshold", "red_max_threshold", "red_drop_probability"};
    json out_p = json::object(), out_q = json::object();
    for (auto it = profs.begin(); it != profs.end(); ++it) {
      const std::string f = "WRED_PROFILE." + it.key();
      if (!it->is_object()) fail(f, "must be an object");
      json& o = out_p[it.key()] = json::object();
      for (auto k = it->begin(); k != it->end(); ++k)
        if (fields.count(k.key())) o[k.key()] = *k;
        else ignore("WRED_PROFILE fields", k.key());
    }
    std::set<std::string> absent;
    for (auto it = queues.begin(); it != queues.end(); ++it) {
      const std::string f = "QUEUE." + it.key();
      const auto bar = it.key().find('|');
      if (bar == std::string::npos) fail(f, "key must be PORT|IDS, e.g. Ethernet0|3-4");
      if (!it->is_object()) fail(f, "must be an object");
      std::string prof;
      for (auto k = it->begin(); k != it->end(); ++k)
        if (k.key() == "wred_profile") prof = deref(*k, "WRED_PROFILE", f + ".wred_profile");
        else ignore("QUEUE fields", k.key());
      if (prof.empty()) continue;
      if (!profs.contains(prof)) fail(f + ".wred_profile", "unknown profile '" + prof + "'");
      std::vector<std::string> ports;
      for (const auto& port : split(it.key().substr(0, bar), ','))
        if (m_port_idx.count(port)) ports.push_back(port);
        else absent.insert(port);
      if (!ports.empty()) out_q[join(ports, ",") + it.key().substr(bar)] = {{"wred_profile", prof}};
    }
    if (!absent.empty()) ignore("QUEUE: ports not in the topology", join({absent.begin(), absent.end()}));
    json& w = wred_object(m_j);
    for (const char* t : {"WRED_PROFILE", "QUEUE"})
      if (w.contains(t))
        throw ConfigError(std::string("wred.") + t + ": give either wred." + t + " or a switch_config with " + t + ", not both");
    w["WRED_PROFILE"] = out_p;
    w["QUEUE"] = out_q;
  }

  void read_qos_map() {
    m_pfc.assign(m_ports.size(), 0);
    m_pfcwd.assign(m_ports.size(), std::nullopt);
    m_dscp_map.assign(m_ports.size(), "");
    m_dot1p_map.assign(m_ports.size(), "");
    const json& q = table(m_db, "PORT_QOS_MAP");
    for (auto& m : m_class_maps) m.assign(m_ports.size(), "");
    std::string global_dscp;
    std::set<std::string> absent;
    for (auto it = q.begin(); it != q.end(); ++it) {
      const std::string f = "PORT_QOS_MAP." + it.key();
      if (!it->is_object()) fail(f, "must be an object");
      if (it.key() == "global") {
        for (auto k = it->begin(); k != it->end(); ++k)
          if (k.key() == "dscp_to_tc_map") global_dscp = deref(*k, "DSCP_TO_TC_MAP", f + ".dscp_to_tc_map");
          else ignore("PORT_QOS_MAP.global fields", k.key());
        continue;
      }
      std::vector<size_t> ports;
      for (const auto& port : split(it.key(), ',')) {
        auto idx = m_port_idx.find(port);
        if (idx == m_port_idx.end()) absent.insert(port);
        else ports.push_back(idx->second);
      }
      for (auto k = it->begin(); k != it->end(); ++k) {
        const std::string kf = f + "." + k.key();
        if (k.key() == "pfc_enable") {
          const uint8_t m = prio_mask(text(*k, kf), kf);
          for (size_t p : ports) m_pfc[p] = m;
        } else if (k.key() == "pfcwd_sw_enable") {
          const std::string m = mask_text(prio_mask(text(*k, kf), kf));
          for (size_t p : ports) m_pfcwd[p] = m;
        } else if (k.key() == "dscp_to_tc_map" || k.key() == "dot1p_to_tc_map") {
          const bool dscp = k.key() == "dscp_to_tc_map";
          const std::string tbl = dscp ? "DSCP_TO_TC_MAP" : "DOT1P_TO_TC_MAP";
          const std::string name = deref(*k, tbl, kf);
          if (!table(m_db, tbl.c_str()).contains(name)) fail(kf, "unknown " + tbl + " '" + name + "'");
          for (size_t p : ports) (dscp ? m_dscp_map : m_dot1p_map)[p] = name;
        } else if (const int c = class_map_index(k.key()); c >= 0) {
          const char* tbl = kClassMaps[size_t(c)].table;
          const std::string name = deref(*k, tbl, kf);
          tc_map(m_db, tbl, name, kf);  // checked here, to name the field
          for (size_t p : ports) m_class_maps[size_t(c)][p] = name;
        } else {
          ignore("PORT_QOS_MAP fields", k.key());
        }
      }
    }
    if (!absent.empty()) ignore("PORT_QOS_MAP: ports not in the topology", join({absent.begin(), absent.end()}));
    if (!global_dscp.empty()) {
      if (!table(m_db, "DSCP_TO_TC_MAP").contains(global_dscp))
        fail("PORT_QOS_MAP.global.dscp_to_tc_map", "unknown DSCP_TO_TC_MAP '" + global_dscp + "'");
      std::vector<std::string> took;
      for (size_t p = 0; p < m_ports.size(); ++p)
        if (m_dscp_map[p].empty()) {
          m_dscp_map[p] = global_dscp;
          took.push_back(m_ports[p].name);
        }
      if (!took.empty())
        m_msgs.notes.push_back("PORT_QOS_MAP.global: DSCP_TO_TC_MAP '" + global_dscp +
                               "' classifies the ports without their own: " + join(took));
    }
  }

  // PFC_WD: GLOBAL.POLL_INTERVAL and each port's action, detection_time, restoration_time (ms).
  void read_pfc_wd() {
    const json& t = table(m_db, "PFC_WD");
    std::set<std::string> absent;
    for (auto it = t.begin(); it != t.end(); ++it) {
      const std::string f = "PFC_WD." + it.key();
      if (!it->is_object()) fail(f, "must be an object");
      const bool global = it.key() == "GLOBAL";
      if (!global && !m_port_idx.count(it.key())) {
        absent.insert(it.key());
        continue;
      }
      json out = json::object();
      for (auto k = it->begin(); k != it->end(); ++k) {
        const std::string kf = f + "." + k.key();
        if (global && k.key() == "POLL_INTERVAL") out[k.key()] = uint_value(*k, kf, 1'000'000);
        else if (!global && k.key() == "action") out[k.key()] = text(*k, kf);
        else if (!global && (k.key() == "detection_time" || k.key() == "restoration_time"))
          out[k.key()] = uint_value(*k, kf, 1'000'000);
        else ignore(global ? "PFC_WD.GLOBAL fields" : "PFC_WD fields", k.key());
      }
      if (!out.empty()) m_pfc_wd[it.key()] = out;
    }
    if (!absent.empty()) ignore("PFC_WD: ports not in the topology", join({absent.begin(), absent.end()}));
  }

  // What SONiC's buffer manager adds at run time: a lossless profile per (speed, cable) for
  // the PFC-enabled PGs of each port that CONFIG_DB leaves without a profile (traditional:
  // buffermgr.cpp doSpeedUpdateTask, from pg_profile_lookup.ini; dynamic: buffermgrdyn.cpp
  // with buffer_headroom_mellanox.lua, for PGs whose profile is NULL).
  void generate_lossless_profiles() {
    const json& dflt = singleton(m_db, "DEFAULT_LOSSLESS_BUFFER_PARAMETER");
    const json& pattern = singleton(m_db, "LOSSLESS_TRAFFIC_PATTERN");
    int dyn_th = 0;
    double over_subscribe = 0;
    for (auto it = dflt.begin(); it != dflt.end(); ++it) {
      const std::string f = "DEFAULT_LOSSLESS_BUFFER_PARAMETER." + table(m_db, "DEFAULT_LOSSLESS_BUFFER_PARAMETER").begin().key() + "." + it.key();
      if (it.key() == "default_dynamic_th") {
        dyn_th = int(int_value(*it, f, -8, 8));
      } else if (it.key() == "over_subscribe_ratio") {
        over_subscribe = real_value(*it, f);
      } else {
        ignore("DEFAULT_LOSSLESS_BUFFER_PARAMETER fields", it.key());
      }
    }
    m_over_subscribe = over_subscribe;
    uint64_t lossless_mtu = 1024;
    uint32_t small_pct = 100;
    for (auto it = pattern.begin(); it != pattern.end(); ++it) {
      const std::string f = "LOSSLESS_TRAFFIC_PATTERN." + table(m_db, "LOSSLESS_TRAFFIC_PATTERN").begin().key() + "." + it.key();
      if (it.key() == "mtu") lossless_mtu = uint_value(*it, f, 65535);
      else if (it.key() == "small_packet_percentage") small_pct = uint32_t(uint_value(*it, f, 100));
      else ignore("LOSSLESS_TRAFFIC_PATTERN fields", it.key());
    }
    std::vector<std::string> speed_from_topology, no_cable, null_lossy;
    bool used_lookup = false, used_safe = false, used_lua = false;
    for (size_t p = 0; p < m_ports.size(); ++p) {
      PortInfo& port = m_ports[p];
      for (int pg = 0; pg < 8; ++pg) {
        std::string& slot = m_pg[p][size_t(pg)];
        const bool lossless = m_pfc[p] >> pg & 1;
        if (slot == "NULL" && !lossless) {
          null_lossy.push_back(port.name + "|" + std::to_string(pg));
          slot.clear();
          continue;
        }
        if (!lossless || (!slot.empty() && slot != "NULL")) continue;
        if (m_dynamic && slot.empty()) continue;  // dynamic model: only NULL PGs get a generated profile
        if (!port.has_cable || port.cable_m == 0) {
          no_cable.push_back(port.name + "|" + std::to_string(pg));
          slot.clear();
          continue;
        }
        if (!m_pools.count(kLosslessPool))
          fail("BUFFER_POOL", std::string("no '") + kLosslessPool + "' for the lossless profile of " + port.name);
        if (!port.in_port_table && std::find(speed_from_topology.begin(), speed_from_topology.end(), port.name) ==
                                       speed_from_topology.end())
          speed_from_topology.push_back(port.name);
        if (port.speed_mbps == 0)
          fail("PORT." + port.name + ".speed", "required to name and size its lossless profile (no rate_gbps to take)");
        const std::string speed = std::to_string(port.speed_mbps), cable = std::to_string(port.cable_m) + "m";
        const std::string name = "pg_lossless_" + speed + "_" + cable + "_profile";
        slot = name;
        if (m_profiles.count(name)) continue;  // reused, as buffermgr does
        json prof = {{"pool", kLosslessPool}};
        if (m_dynamic) {
          const bool shp = m_pools.at(kLosslessPool).value("xoff", uint64_t(0)) != 0 || over_subscribe != 0;
          const DynamicHeadroom h = dynamic_headroom(m_asic, port.speed_mbps, port.cable_m, port.mtu, lossless_mtu,
                                                     small_pct, shp, port.lanes == 8);
          // Mellanox's size is the PG's whole buffer, headroom included; the model's size is
          // the reserved part beside xoff.
          prof["xon"] = h.xon;
          prof["xoff"] = h.xoff;
          prof["size"] = h.size > h.xoff ? h.size - h.xoff : 0;
          prof["dynamic_th"] = dyn_th;
          m_sonic_size[name] = h.size;
          used_lua = true;
        } else if (!m_lookup_file.empty()) {
          auto s = m_lookup.find(speed);
          if (s == m_lookup.end() || !s->second.count(cable))
            fail("PORT_QOS_MAP." + port.name + ".pfc_enable",
                 m_lookup_file + " has no entry for speed " + speed + " and cable " + cable);
          const LookupRow& r = s->second.at(cable);
          const std::string f = m_lookup_file + " (" + speed + " " + cable + ")";
          prof["size"] = uint_value(json(r.size), f + " size");
          prof["xon"] = uint_value(json(r.xon), f + " xon");
          prof["xoff"] = uint_value(json(r.xoff), f + " xoff");
          if (!r.xon_offset.empty()) prof["xon_offset"] = uint_value(json(r.xon_offset), f + " xon_offset");
          const std::string mode = m_pools.at(kLosslessPool).value("mode", "dynamic");
          prof[mode == "static" ? "static_th" : "dynamic_th"] =
              mode == "static" ? int_value(json(r.threshold), f + " threshold", 0, int64_t(1) << 50)
                               : int_value(json(r.threshold), f + " threshold", -8, 8);
          used_lookup = true;
        } else {
          prof["size"] = 0;
          prof["dynamic_th"] = dyn_th;
          used_safe = true;
        }
        m_profiles[name] = prof;
        m_generated.push_back(name);
      }
    }
    if (!null_lossy.empty())
      m_msgs.warnings.push_back("BUFFER_PG: profile NULL (a dynamically sized lossless PG) where PORT_QOS_MAP enables "
                                "no PFC on that priority, so the PG stays lossy: " + join(null_lossy));
    if (used_lookup)
      m_msgs.notes.push_back("lossless PG profiles from " + m_lookup_file + " (as buffermgrd's pg_profile_lookup.ini)");
    if (used_safe)
      m_msgs.notes.push_back("traditional buffer model without platform.pg_profile_lookup: the generated lossless "
                             "profiles have no xoff, so each PG gets mmusim's safe headroom");
    if (used_lua)
      m_msgs.notes.push_back(std::string("lossless PG headroom computed as buffer_headroom_mellanox.lua does, with ") +
                             (m_asic_given ? "platform.asic_table" : "MELLANOX-SPECTRUM's ASIC_TABLE (cell 96 B)"));
    if (!m_generated.empty()) m_msgs.notes.push_back("generated profiles: " + join(m_generated));
    if (!speed_from_topology.empty())
      m_msgs.notes.push_back("no PORT.speed for " + join(speed_from_topology) + ": the topology's rate names the profile");
    if (!no_cable.empty())
      m_msgs.warnings.push_back("lossless PGs without a CABLE_LENGTH (or 0m) get no generated profile, as in SONiC: " +
                                join(no_cable) + " take the default profile by name");
  }

  // Size-less pools, as buffer_pool_mellanox.lua sizes them, over this switch's ports.
  void size_pools() {
    std::vector<std::string> sizeless;
    uint32_t ingress_sizeless = 0;
    for (auto it = m_pools.begin(); it != m_pools.end(); ++it)
      if (!it->contains("size")) {
        const std::string& name = it.key();
        const json& p = *it;
        sizeless.push_back(name);
        ingress_sizeless += p.value("type", "") == "ingress";
      }
    if (sizeless.empty()) return;
    uint64_t mmu = 0;
    std::string mmu_from;
    if (m_j.contains("mmu") && m_j["mmu"].is_object() && m_j["mmu"].contains("buffer_bytes") &&
        m_j["mmu"]["buffer_bytes"].is_number_integer() && m_j["mmu"]["buffer_bytes"].get<int64_t>() > 0) {
      mmu = m_j["mmu"]["buffer_bytes"].get<uint64_t>();
      mmu_from = "mmu.buffer_bytes";
    } else if (m_pools.count("egress_lossless_pool") && m_pools["egress_lossless_pool"].contains("size")) {
      mmu = m_pools["egress_lossless_pool"]["size"].get<uint64_t>();
      mmu_from = "egress_lossless_pool's size, as the Lua plugin falls back to";
    } else {
      throw ConfigError("mmu.buffer_bytes: required: pools " + join(sizeless) +
                        " have no size and there is no egress_lossless_pool size to take the MMU size from");
    }
    // Reference counts of the profiles over PGs, queues and the port profile lists.
    std::map<std::string, uint64_t> refs;
    std::set<size_t> lossless_ports;
    auto is_ingress = [&](const std::string& prof) {
      return m_pools.at(m_profiles.at(prof)["pool"].get<std::string>()).value("type", "") == "ingress";
    };
    for (size_t p = 0; p < m_ports.size(); ++p)
      for (int i = 0; i < 8; ++i) {
        for (const auto* v : {&m_pg[p][size_t(i)], &m_queue[p][size_t(i)]})
          if (!v->empty() && *v != "NULL") ++refs[*v];
        const std::string& pg = m_pg[p][size_t(i)];
        if (!pg.empty() && pg != "NULL" && m_profiles.at(pg).contains("xoff")) lossless_ports.insert(p);
      }
    for (const char* list : {"BUFFER_PORT_INGRESS_PROFILE_LIST", "BUFFER_PORT_EGRESS_PROFILE_LIST"}) {
      const json& t = table(m_db, list);
      for (auto it = t.begin(); it != t.end(); ++it) {
        if (!m_port_idx.count(it.key())) continue;
        const std::string f = std::string(list) + "." + it.key() + ".profile_list";
        if (!it->is_object() || !it->contains("profile_list")) fail(f, "required field is missing");
        for (const auto& name : split(text(it->at("profile_list"), f), ',')) {
          const std::string prof = deref(json(name), "BUFFER_PROFILE", f);
          if (!m_profiles.count(prof)) fail(f, "unknown profile '" + prof + "'");
          // A lossy ingress profile in a list reserves nothing (the Lua's "_list" entries).
          if (is_ingress(prof) && !m_profiles.at(prof).contains("xoff")) continue;
          ++refs[prof];
        }
      }
    }
    const double lossy_pg_reserved = m_asic.pipeline_latency_kb * 1024;
    double occupied = 0, xoff_total = 0;
    double shp = double(m_pools.count(kLosslessPool) ? m_pools[kLosslessPool].value("xoff", uint64_t(0)) : 0);
    for (const auto& [prof, n] : refs) {
      const json& pr = m_profiles.at(prof);
      double size = double(m_sonic_size.count(prof) ? m_sonic_size.at(prof) : pr.value("size", uint64_t(0)));
      if (is_ingress(prof) && !pr.contains("xoff")) size += lossy_pg_reserved;
      if (size == 0) continue;
      if (shp == 0 && pr.contains("xon") && pr.contains("xoff")) {
        const double x = double(pr["xon"].get<uint64_t>() + pr["xoff"].get<uint64_t>());
        if (x > size) xoff_total += (x - size) * double(n);
      }
      occupied += size * double(n);
    }
    bool shp_enabled = shp != 0 || m_over_subscribe != 0;
    if (xoff_total > 0 && !shp_enabled) {
      shp = 655360;
      shp_enabled = true;
    }
    if (shp_enabled) {
      const double priv = double(lossless_ports.size()) * 10 * 1024;
      occupied += priv;
      xoff_total = std::max(0.0, xoff_total - priv);
    }
    uint64_t admin_up = 0;
    for (const auto& p : m_ports) admin_up += p.admin_up;
    occupied += double(admin_up) * lossy_pg_reserved;  // management PGs
    occupied += double(admin_up) * 10 * 1024 + 256 * 1024;  // egress mirror headroom, management pool
    if (shp_enabled && shp == 0) {
      shp = std::ceil(xoff_total / m_over_subscribe);
      if (shp == 0) shp = 655360;
    }
    occupied += shp;
    const double available = double(mmu) - occupied;
    if (available <= 0)
      fail("BUFFER_POOL", "the buffer reserved by profiles, headroom and management (" + std::to_string(uint64_t(occupied)) +
                              " B) leaves nothing of the MMU's " + std::to_string(mmu) + " B for pools " + join(sizeless));
    double pool = ingress_sizeless == 1 ? available : available / 2;
    pool = std::min(pool, double(mmu / m_asic.cell_size * m_asic.cell_size));
    for (const auto& name : sizeless) {
      m_pools[name]["size"] = uint64_t(std::ceil(pool));
      if (name == kLosslessPool && shp != 0) m_pools[name]["xoff"] = uint64_t(std::ceil(shp));
    }
    m_msgs.notes.push_back("pools " + join(sizeless) + " sized as buffer_pool_mellanox.lua does: " +
                           std::to_string(uint64_t(std::ceil(pool))) + " B each (MMU " + std::to_string(mmu) +
                           " B from " + mmu_from + ", " + std::to_string(uint64_t(occupied)) + " B reserved over " +
                           std::to_string(m_ports.size()) + " ports" +
                           (shp != 0 ? ", shared headroom " + std::to_string(uint64_t(std::ceil(shp))) + " B" : "") + ")");
  }

  json buffer_tables() {
    json buffer = json::object();
    buffer["BUFFER_POOL"] = m_pools;
    buffer["BUFFER_PROFILE"] = m_profiles;
    for (auto [name, assign] : {std::pair{"BUFFER_PG", &m_pg}, std::pair{"BUFFER_QUEUE", &m_queue}}) {
      json t = json::object();
      for (size_t p = 0; p < m_ports.size(); ++p)
        for (int i = 0; i < 8; ++i) {
          const std::string& prof = (*assign)[p][size_t(i)];
          if (!prof.empty() && prof != "NULL") t[m_ports[p].name + "|" + std::to_string(i)] = {{"profile", prof}};
        }
      buffer[name] = t;
    }
    json qos = json::object();
    std::set<std::string> dscp_maps, dot1p_maps;
    for (size_t p = 0; p < m_ports.size(); ++p) {
      json e = json::object();
      if (m_pfc[p]) e["pfc_enable"] = mask_text(m_pfc[p]);
      if (m_pfcwd[p]) e["pfcwd_sw_enable"] = *m_pfcwd[p];
      if (!m_dscp_map[p].empty()) e["dscp_to_tc_map"] = m_dscp_map[p], dscp_maps.insert(m_dscp_map[p]);
      if (!m_dot1p_map[p].empty()) e["dot1p_to_tc_map"] = m_dot1p_map[p], dot1p_maps.insert(m_dot1p_map[p]);
      for (size_t k = 0; k < kClassMaps.size(); ++k)
        if (!m_class_maps[k][p].empty()) e[kClassMaps[k].key] = m_class_maps[k][p];
      if (!e.empty()) qos[m_ports[p].name] = e;
    }
    buffer["PORT_QOS_MAP"] = qos;
    if (!m_pfc_wd.empty()) buffer["PFC_WD"] = m_pfc_wd;
    for (auto [tbl, used] : {std::pair{"DSCP_TO_TC_MAP", &dscp_maps}, std::pair{"DOT1P_TO_TC_MAP", &dot1p_maps}}) {
      json t = json::object();
      for (const auto& name : *used) {
        const json& src = table(m_db, tbl).at(name);
        if (!src.is_object()) fail(std::string(tbl) + "." + name, "must be an object");
        for (auto it = src.begin(); it != src.end(); ++it)
          t[name][it.key()] = uint_value(*it, std::string(tbl) + "." + name + "." + it.key(), 7);
      }
      buffer[tbl] = t;
    }
    for (size_t k = 0; k < kClassMaps.size(); ++k) {
      json t = json::object();
      for (const auto& names : m_class_maps[k])
        if (!names.empty() && !t.contains(names)) {
          const auto m = tc_map(m_db, kClassMaps[k].table, names, std::string(kClassMaps[k].table) + "." + names);
          for (size_t i = 0; i < 8; ++i) t[names][std::to_string(i)] = m[i];
        }
      if (!t.empty()) buffer[kClassMaps[k].table] = t;
    }
    return buffer;
  }

  void set_ports() {
    if (!m_single) {
      for (const auto& p : m_ports)
        if (p.in_port_table || p.has_cable) {
          m_msgs.notes.push_back("PORT.speed, PORT.mtu and CABLE_LENGTH name the generated profiles only: in a graph "
                                 "topology the links set rates and delays");
          break;
        }
      return;
    }
    json& topo = m_j["topology"];
    uint64_t mtu = 0;
    std::set<uint64_t> mtus;
    for (const auto& p : m_ports) {
      json ov = json::object();
      if (p.in_port_table) {
        ov["rate_gbps"] = double(p.speed_mbps) / 1000;
        mtus.insert(p.mtu);
        mtu = std::max(mtu, p.mtu);
      }
      if (p.has_cable) ov["link_delay_ns"] = p.cable_m * kCableNsPerMetre;
      if (ov.empty()) continue;
      json& dst = topo["port_overrides"][p.name];
      for (auto it = ov.begin(); it != ov.end(); ++it)
        if (!dst.contains(it.key())) dst[it.key()] = *it;
    }
    if (mtu && !topo.contains("mtu_bytes")) {
      topo["mtu_bytes"] = mtu;
      m_msgs.notes.push_back("topology.mtu_bytes = " + std::to_string(mtu) + " from PORT.mtu");
    } else if (mtu && topo["mtu_bytes"] != json(mtu)) {
      m_msgs.warnings.push_back("PORT.mtu " + std::to_string(mtu) + " differs from topology.mtu_bytes " +
                                topo["mtu_bytes"].dump() + "; the scenario's is used");
    }
    if (mtus.size() > 1)
      m_msgs.warnings.push_back("PORT.mtu differs between ports; the model has one MTU, the largest (" +
                                std::to_string(mtu) + ")");
  }

  const json& m_db;
  json& m_j;
  bool m_single;
  ImportMessages& m_msgs;
  std::vector<PortInfo> m_ports;
  std::map<std::string, size_t> m_port_idx;
  std::map<std::string, std::set<std::string>> m_ignored;
  bool m_dynamic = false;
  std::string m_lookup_file;
  PgProfileLookup m_lookup;
  AsicTable m_asic;
  bool m_asic_given = false;
  double m_over_subscribe = 0;
  json m_pools = json::object(), m_profiles = json::object();
  std::map<std::string, uint64_t> m_sonic_size;  // generated dynamic profiles: SONiC's size (headroom included)
  std::vector<std::string> m_generated;
  std::vector<std::array<std::string, 8>> m_pg, m_queue;
  std::vector<uint8_t> m_pfc;
  std::vector<std::string> m_dscp_map, m_dot1p_map;
  bool m_wred;
  std::array<std::vector<std::string>, 3> m_class_maps;  // per kClassMaps entry, per port: map name
  std::vector<std::optional<std::string>> m_pfcwd;        // per port: pfcwd_sw_enable
  json m_pfc_wd = json::object();
};

}  // namespace

bool is_config_db(const nlohmann::json& j) {
  if (!j.is_object() || j.empty()) return false;
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key().empty() || !std::isupper(static_cast<unsigned char>(it.key()[0]))) return false;
  return true;
}

nlohmann::json scenario_for_config_db(const std::vector<std::string>& files, std::string& note) {
  const json db = read_config_db(json(files));
  std::set<uint64_t> numbers;
  auto take = [&](const std::string& name) {
    if (name.rfind("Ethernet", 0) != 0 || name.size() == 8 || name.size() > 14 ||
        name.find_first_not_of("0123456789", 8) != std::string::npos)
      return;
    numbers.insert(std::stoull(name.substr(8)));
  };
  for (const char* t : {"PORT", "PORT_QOS_MAP"})
    for (auto it = table(db, t).begin(); it != table(db, t).end(); ++it)
      for (const auto& port : split(it.key(), ',')) take(port);
  for (auto it = singleton(db, "CABLE_LENGTH").begin(); it != singleton(db, "CABLE_LENGTH").end(); ++it) take(it.key());
  for (const char* t : {"BUFFER_PG", "BUFFER_QUEUE", "QUEUE"})
    for (auto it = table(db, t).begin(); it != table(db, t).end(); ++it)
      for (const auto& port : split(it.key().substr(0, it.key().find('|')), ',')) take(port);
  if (numbers.empty()) throw ConfigError("switch_config: names no port Ethernet<N>");
  uint64_t stride = 0;
  for (uint64_t n : numbers) stride = std::gcd(stride, n);
  if (stride == 0) stride = 1;
  if (stride > 64) stride = std::gcd(stride, uint64_t(64)) ? std::gcd(stride, uint64_t(64)) : 1;
  const uint64_t ports = *numbers.rbegin() / stride + 1;
  if (ports > 1024) throw ConfigError("switch_config: Ethernet" + std::to_string(*numbers.rbegin()) +
                                      " needs more than 1024 ports at a name stride of " + std::to_string(stride));
  note = "no scenario: one switch of " + std::to_string(ports) + " ports Ethernet0 ... Ethernet" +
         std::to_string((ports - 1) * stride) + " (stride " + std::to_string(stride) +
         "), 100 Gb/s where PORT has no speed, no traffic";
  return {{"name", files.front()},
          {"duration_us", 1},
          {"topology", {{"ports", ports}, {"port_name_stride", stride}, {"rate_gbps", 100}, {"link_delay_ns", 0}}},
          {"mmu", {{"clock_mhz", 1000}}},
          {"switch_config", files},
          {"traffic", json::array()}};
}

uint64_t infer_buffer_bytes(const nlohmann::json& buffer) {
  if (!buffer.is_object() || !buffer.contains("BUFFER_POOL") || !buffer["BUFFER_POOL"].is_object()) return 0;
  uint64_t ingress = 0, egress = 0;
  for (const auto& p : buffer["BUFFER_POOL"]) {
    if (!p.is_object() || !p.contains("size")) continue;
    auto bytes = [&](const char* k) -> uint64_t {
      if (!p.contains(k)) return 0;
      const json& v = p.at(k);
      if (v.is_number_unsigned()) return v.get<uint64_t>();
      if (v.is_string() && !v.get<std::string>().empty() && v.get<std::string>().size() <= 16 &&
          v.get<std::string>().find_first_not_of("0123456789") == std::string::npos)
        return std::stoull(v.get<std::string>());
      return 0;  // the loader reports the bad value
    };
    if (p.contains("type") && p["type"] == "ingress") ingress += bytes("size") + bytes("xoff");
    else egress = std::max(egress, bytes("size"));
  }
  return std::max(ingress, egress);
}

namespace {

// Messages of one switch of a graph, prefixed with its name.
void merge_messages(ImportMessages& into, const ImportMessages& from, const std::string& prefix) {
  for (const auto& s : from.ignored) into.ignored.push_back(prefix + s);
  for (const auto& s : from.warnings) into.warnings.push_back(prefix + s);
  for (const auto& s : from.notes) into.notes.push_back(prefix + s);
}

}  // namespace

namespace {

// A generated topology with a switch_config: the generator is expanded in place (switches,
// hosts, links), and a switch_config keyed by switch names or "prefix*" patterns is handed
// to the switches it names (an exact name before the longest matching prefix).
void expand_generated(json& j, json& topo, const std::string& origin) {
  const json expanded = expand_topology_generator(topo.at("generator"), "topology.generator");
  topo.erase("generator");
  for (const char* k : {"switches", "hosts", "links"}) topo[k] = expanded.at(k);
  json& spec = j["switch_config"];
  if (!spec.is_object() || is_config_db(spec)) return;  // shared by every switch
  const std::string f = origin + ": switch_config";
  std::map<std::string, bool> used;
  for (auto it = spec.begin(); it != spec.end(); ++it) used[it.key()] = false;
  for (json& sw : topo["switches"]) {
    const std::string name = sw.at("name").get<std::string>();
    std::string best;
    for (const auto& [key, u] : used) {
      const bool prefix = !key.empty() && key.back() == '*';
      const std::string stem = prefix ? key.substr(0, key.size() - 1) : key;
      if (prefix ? name.rfind(stem, 0) == 0 : name == key) {
        const bool exact = !prefix;
        const bool best_exact = !best.empty() && best.back() != '*';
        if (best.empty() || (exact && !best_exact) || (!best_exact && !exact && key.size() > best.size())) best = key;
      }
    }
    if (best.empty()) {
      if (j.contains("buffer")) continue;  // this switch takes the scenario's buffer
      std::string keys;
      for (const auto& [key, u] : used) keys += (keys.empty() ? "" : ", ") + key;
      throw ConfigError(f + ": no entry for switch '" + name + "' (" + keys + ") and no top-level buffer");
    }
    used[best] = true;
    sw["switch_config"] = spec.at(best);
  }
  for (const auto& [key, u] : used)
    if (!u) throw ConfigError(f + "." + key + ": names no switch of the generated topology");
  j.erase("switch_config");
}

}  // namespace

bool apply_switch_config(nlohmann::json& j, const std::string& origin, ImportMessages& msgs) {
  if (!j.is_object()) return false;
  bool imported = false;
  json* topo = j.contains("topology") && j["topology"].is_object() ? &j["topology"] : nullptr;
  if (topo && topo->contains("generator") && j.contains("switch_config")) expand_generated(j, *topo, origin);
  const bool graph = topo && (topo->contains("switches") || topo->contains("generator"));
  if (graph && topo->contains("switches") && (*topo)["switches"].is_array()) {
    json& sws = (*topo)["switches"];
    const uint64_t stride = topo_uint(*topo, "port_name_stride", 4, 1, 64, "topology.port_name_stride");
    json first;
    uint64_t largest = 0;
    std::string largest_name;  // its links' rates size the shared tables' generated profiles
    for (size_t i = 0; i < sws.size(); ++i) {
      json& sw = sws[i];
      const std::string f = "topology.switches[" + std::to_string(i) + "]";
      if (!sw.is_object()) continue;  // the loader names it
      const uint64_t n = topo_uint(sw, "ports", 0, 1, 1024, f + ".ports");
      if (n > largest && sw.contains("name") && sw["name"].is_string()) largest_name = sw["name"].get<std::string>();
      largest = std::max(largest, n);
      if (!sw.contains("switch_config")) continue;
      if (sw.contains("buffer")) throw ConfigError(origin + ": " + f + ": give either buffer or switch_config, not both");
      const std::string name = sw.contains("name") && sw["name"].is_string() ? sw["name"].get<std::string>() : f;
      try {
        const json db = read_config_db(sw.at("switch_config"));
        ImportMessages own;
        sw["buffer"] = Importer(db, j, switch_ports(n, stride, *topo, name), false, own).run();
        merge_messages(msgs, own, "switch '" + name + "': ");
      } catch (const ConfigError& e) {
        throw ConfigError(origin + ": " + f + "." + e.what());
      }
      sw.erase("switch_config");
      if (first.is_null()) first = sw["buffer"];
      imported = true;
    }
    if (j.contains("switch_config")) {
      if (j.contains("buffer")) throw ConfigError(origin + ": buffer: give either buffer or switch_config, not both");
      // Shared by the switches without their own, over the largest switch's ports.
      j["buffer"] = Importer(read_config_db(j.at("switch_config")), j, switch_ports(largest, stride, *topo, largest_name), false, msgs, true).run();
      j.erase("switch_config");
      imported = true;
    } else if (!j.contains("buffer") && !first.is_null()) {
      j["buffer"] = first;  // the loader requires a top-level buffer; every switch has its own
    }
  } else if (j.contains("switch_config")) {
    if (j.contains("buffer"))
      throw ConfigError(origin + ": buffer: give either buffer or switch_config, not both");
    if (!topo || !topo->contains("ports")) throw ConfigError(origin + ": topology.ports: required field is missing");
    const uint64_t n = topo_uint(*topo, "ports", 0, 1, 1024, "topology.ports");
    const uint64_t stride = topo_uint(*topo, "port_name_stride", 4, 1, 64, "topology.port_name_stride");
    const json db = read_config_db(j.at("switch_config"));
    j.erase("switch_config");
    j["buffer"] = Importer(db, j, switch_ports(n, stride, *topo), true, msgs, true).run();
    imported = true;
  }
  if (imported) j.erase("platform");
  else if (j.contains("platform")) throw ConfigError(origin + ": platform: only with switch_config");
  auto mmu_it = j.find("mmu");
  if (mmu_it != j.end() && mmu_it->is_object() && !mmu_it->contains("buffer_bytes") && j.contains("buffer")) {
    json& mmu = *mmu_it;
    // Every switch has the one MMU size: the largest any switch's pools need.
    uint64_t b = infer_buffer_bytes(j["buffer"]);
    if (topo && topo->contains("switches") && (*topo)["switches"].is_array())
      for (const auto& sw : (*topo)["switches"])
        if (sw.is_object() && sw.contains("buffer")) b = std::max(b, infer_buffer_bytes(sw["buffer"]));
    if (b) {
      mmu["buffer_bytes"] = b;
      msgs.notes.push_back("mmu.buffer_bytes not given: " + std::to_string(b) +
                           " B, inferred from the pools (the ingress pools' sizes and xoff summed, or the largest "
                           "egress pool if larger)");
    }
  }
  return imported;
}

}  // namespace mmusim
