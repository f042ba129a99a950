#include "config/scenario.h"

#include <algorithm>
#include <map>

#include "admission/policy.h"
#include "config/input_file.h"
#include "config/json_parse.h"
#include "config/headroom.h"
#include "config/json_reader.h"
#include "config/trace_config.h"

namespace mmusim {
namespace {

constexpr double kPsPerUs = 1e6;
constexpr double kPsPerNs = 1e3;
constexpr uint64_t kMinSamplePs = 10'000;
constexpr uint64_t kMaxSamples = 10'000'000;
constexpr uint64_t kMinFrameBytes = 64;  // a PFC or BFC frame, the smallest data frame

std::string ns_text(uint64_t ps) { return nlohmann::json(double(ps) / 1e3).dump(); }

// Refreshes closer than one PFC frame on the wire would queue frames without bound. Both
// times scale with the port rate, so the check is in bit times.
void check_pfc_refresh(const Scenario& sc) {
  const double every = double(sc.pfc.pause_quanta) * 512 * sc.pfc.refresh_fraction;
  const uint64_t frame = (kMinFrameBytes + sc.topo.wire_overhead_bytes) * 8;
  if (every < double(frame))
    throw ConfigError("pfc.refresh_fraction: a refresh every pause_quanta x 512 x refresh_fraction = " +
                      nlohmann::json(every).dump() + " bit times is shorter than one PFC frame on the wire (" +
                      std::to_string(frame) + " bit times); raise pfc.refresh_fraction or pfc.pause_quanta");
}

// Every field, empty ones included ("3," is "3" and ""), so a stray separator is an error.
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

// Command-line text echoed in messages is cut short.
std::string clip(const std::string& s) { return s.size() <= 80 ? s : s.substr(0, 80) + "..."; }

bool parse_uint(const std::string& s, uint64_t& out) {
  if (s.empty() || s.size() > 18 || !std::all_of(s.begin(), s.end(), ::isdigit)) return false;
  out = std::stoull(s);
  return true;
}

// "3", "3-4" or "0,3-4" -> bitmask of priorities 0..7.
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

// skip: a switch of a graph topology reading the shared SONiC tables ignores names of
// ports it lacks (they were checked against the largest switch); -1 then.
int port_index_or_skip(const Scenario& sc, const std::string& name, const std::string& field, bool skip) {
  for (uint32_t i = 0; i < sc.ports(); ++i)
    if (sc.topo.ports[i].name == name) return int(i);
  if (skip) return -1;
  throw ConfigError(field + ": unknown port '" + name + "'");
}

uint32_t port_index(const Scenario& sc, const std::string& name, const std::string& field) {
  return uint32_t(port_index_or_skip(sc, name, field, false));
}

// SONiC key "Ethernet0|3-4" or "Ethernet0,Ethernet4|3" -> (ports, priority mask).
std::pair<std::vector<uint32_t>, uint8_t> parse_port_prio_key(const Scenario& sc,
                                                               const std::string& key,
                                                               const std::string& table,
                                                               bool skip_missing = false) {
  const std::string field = "buffer." + table + "." + key;
  auto bar = key.find('|');
  if (bar == std::string::npos)
    throw ConfigError(field + ": key must be PORT|PRIORITIES, e.g. Ethernet0|3-4");
  std::vector<uint32_t> ports;
  for (const auto& name : split(key.substr(0, bar), ','))
    if (const int i = port_index_or_skip(sc, name, field, skip_missing); i >= 0) ports.push_back(uint32_t(i));
  return {ports, parse_prio_set(key.substr(bar + 1), field)};
}

// Host lists: "h3", "h1-h16", or an array of these (graph form: any host name, ranges of
// h<N> names).
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

void load_topology(Scenario& sc, JsonReader r) {
  if (r.object().contains("switches") || r.object().contains("generator")) {
    sc.topo.mtu_bytes = uint32_t(r.integer("mtu_bytes", 64, 65535, 1500));
    sc.topo.wire_overhead_bytes = uint32_t(r.integer("wire_overhead_bytes", 0, 64, 20));
    load_network(sc, r);
    r.done();
    return;
  }
  sc.topo.switch_name = r.string("switch", "sw0");
  const uint32_t n = uint32_t(r.integer("ports", 1, 1024));
  const uint64_t rate = r.rate_bps("rate_gbps");
  const uint64_t delay = r.time_ps("link_delay_ns", kPsPerNs, true);
  const uint32_t stride = uint32_t(r.integer("port_name_stride", 1, 64, 4));
  sc.topo.mtu_bytes = uint32_t(r.integer("mtu_bytes", 64, 65535, 1500));
  sc.topo.wire_overhead_bytes = uint32_t(r.integer("wire_overhead_bytes", 0, 64, 20));
  for (uint32_t i = 0; i < n; ++i)
    sc.topo.ports.push_back({"Ethernet" + std::to_string(i * stride), rate, delay});
  if (r.has("port_overrides")) {
    JsonReader o = r.child("port_overrides");
    for (auto it = o.object().begin(); it != o.object().end(); ++it) {
      const uint32_t p = port_index(sc, it.key(), o.field(it.key()));
      JsonReader po = o.child(it.key());
      if (po.has("rate_gbps")) sc.topo.ports[p].rate_bps = po.rate_bps("rate_gbps");
      if (po.has("link_delay_ns")) sc.topo.ports[p].delay_ps = po.time_ps("link_delay_ns", kPsPerNs, true);
      po.done();
    }
    o.done();
  }
  r.done();
  single_switch_network(sc);
}

void load_mmu(Scenario& sc, JsonReader r) {
  sc.mmu.buffer_bytes = r.positive("buffer_bytes");
  sc.mmu.cell_bytes = uint32_t(r.integer("cell_bytes", 1, 65536, 256));
  // 1 MHz to 10 GHz: a cycle of 100 ps to 1 us (docs/configuration.md has the reasons).
  const double mhz = r.number("clock_mhz");
  if (!(mhz >= 1 && mhz <= 1e4))
    r.fail("clock_mhz", "must be in [1, 10000] MHz (1 MHz to 10 GHz), got " + nlohmann::json(mhz).dump());
  sc.mmu.clock_period_ps = uint64_t(std::llround(1e6 / mhz));
  sc.mmu.pipeline_latency_cycles = uint32_t(r.integer("pipeline_latency_cycles", 0, 1 << 20, 4));
  sc.mmu.pipelines = uint32_t(r.integer("pipelines", 1, sc.ports(), 1));
  sc.mmu.counter_bits = uint32_t(r.integer("counter_bits", 8, 64, 32));
  const uint64_t cells = sc.mmu.buffer_bytes / sc.mmu.cell_bytes;
  if (sc.mmu.counter_bits < 64 && cells > (uint64_t(1) << sc.mmu.counter_bits) - 1)
    r.fail("counter_bits", std::to_string(sc.mmu.counter_bits) + " bits cannot count the buffer's " +
                               std::to_string(cells) + " cells");
  r.done();
}

// SONiC's PFC_WD table (pfcwdorch.cpp): GLOBAL.POLL_INTERVAL, and per port action,
// detection_time and restoration_time, in ms. SONiC takes 100 ... 5000 ms (detection) and
// 100 ... 60000 ms (restoration); shorter times are accepted, for short simulations.
void load_pfc_wd(Scenario& sc, JsonReader t, bool skip_missing) {
  PfcWatchdogCfg& wd = sc.pfc_wd;
  wd.ports.assign(sc.ports(), {});
  constexpr double kPsPerMs = 1e9;
  for (auto it = t.object().begin(); it != t.object().end(); ++it) {
    JsonReader e = t.child(it.key());
    if (it.key() == "GLOBAL") {
      wd.poll_ps = e.time_ps("POLL_INTERVAL", kPsPerMs, false, wd.poll_ps);
      e.done();
      continue;
    }
    PfcWatchdogCfg::Port cfg;
    cfg.enabled = true;
    const std::string action = e.string("action", "drop");
    if (action == "drop") cfg.action = PfcWatchdogCfg::Action::kDrop;
    else if (action == "forward") cfg.action = PfcWatchdogCfg::Action::kForward;
    else if (action == "alert") cfg.action = PfcWatchdogCfg::Action::kAlert;
    else e.fail("action", "must be drop, forward or alert");
    cfg.detection_ps = e.time_ps("detection_time", kPsPerMs, false);
    cfg.restoration_ps = e.time_ps("restoration_time", kPsPerMs, false);
    e.done();
    for (const auto& name : split(it.key(), ','))
      if (const int p = port_index_or_skip(sc, name, t.field(it.key()), skip_missing); p >= 0) {
        cfg.priorities = sc.buffer.pfcwd_sw_enable[size_t(p)];
        wd.ports[size_t(p)] = cfg;
      }
  }
  t.done();
}

// Faulty NICs: pause frames at a host's switch port from start to stop.
void load_pfc_storms(Scenario& sc, const nlohmann::json& a) {
  if (!a.is_array()) throw ConfigError("pfc_storms: must be an array");
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string f = "pfc_storms[" + std::to_string(i) + "]";
    JsonReader r(a[i], f);
    PfcStormCfg st;
    const auto hosts = parse_hosts(r.raw("host"), r.field("host"), sc);
    if (hosts.size() != 1) r.fail("host", "exactly one host");
    st.host = hosts[0];
    const auto& h = sc.net.hosts[st.host];
    st.port = h.port;
    st.priorities = parse_prio_set(r.string("priorities"), r.field("priorities"));
    st.quanta = uint16_t(r.integer("quanta", 1, 65535, 65535));
    st.start_ps = r.time_ps("start_us", kPsPerUs, true, 0);
    st.stop_ps = r.time_ps("stop_us", kPsPerUs, false, sc.duration_ps);
    if (st.stop_ps > sc.duration_ps) r.fail("stop_us", "beyond duration_us");
    if (st.stop_ps <= st.start_ps) r.fail("stop_us", "must be after start_us");
    st.period_ps = r.time_ps("period_us", kPsPerUs, false);
    // As for PFC refreshes: no more often than one PFC frame fits on the host's link.
    const uint64_t rate = sc.host_rate_bps(st.host);
    if ((unsigned __int128)rate * st.period_ps <
        (unsigned __int128)(kMinFrameBytes + sc.topo.wire_overhead_bytes) * 8 * 1'000'000'000'000ull)
      r.fail("period_us", "shorter than one PFC frame on " + h.name + "'s link");
    r.done();
    sc.pfc_storms.push_back(st);
    sc.pfc_storm_switch.push_back(h.sw);
  }
}

void load_buffer(Scenario& sc, JsonReader r, bool skip_missing = false) {
  BufferCfg& b = sc.buffer;
  const uint32_t np = sc.ports();
  const uint64_t buf = sc.mmu.buffer_bytes;
  std::map<std::string, uint32_t> pool_idx, prof_idx;

  JsonReader pools = r.child("BUFFER_POOL");
  for (auto it = pools.object().begin(); it != pools.object().end(); ++it) {
    JsonReader p = pools.child(it.key());
    BufferCfg::Pool pool;
    pool.name = it.key();
    const std::string type = p.string("type");
    if (type != "ingress" && type != "egress") p.fail("type", "must be ingress or egress");
    pool.ingress = type == "ingress";
    const std::string mode = p.string("mode", "dynamic");
    if (mode != "dynamic" && mode != "static") p.fail("mode", "must be dynamic or static");
    pool.dynamic = mode == "dynamic";
    pool.size_bytes = p.positive("size");
    if (pool.size_bytes > buf)
      p.fail("size", "pool of " + std::to_string(pool.size_bytes) + " B larger than the buffer (" +
                         std::to_string(buf) + " B)");
    if (p.has("xoff")) {
      if (!pool.ingress) p.fail("xoff", "only ingress pools have a shared headroom (xoff)");
      pool.has_xoff = true;
      pool.xoff_bytes = p.non_negative("xoff", 0);
      if (pool.xoff_bytes > buf) p.fail("xoff", "headroom pool larger than the buffer");
    }
    p.done();
    pool_idx[pool.name] = uint32_t(b.pools.size());
    b.pools.push_back(pool);
  }
  if (b.pools.empty()) pools.fail("", "at least one pool is required");
  uint64_t xoff_total = 0;
  for (const auto& p : b.pools) xoff_total += p.has_xoff ? p.xoff_bytes : 0;
  if (xoff_total > buf)
    pools.fail("", "ingress pools' xoff total " + std::to_string(xoff_total) +
                       " B larger than the buffer (" + std::to_string(buf) + " B)");
  pools.done();

  JsonReader profs = r.child("BUFFER_PROFILE");
  for (auto it = profs.object().begin(); it != profs.object().end(); ++it) {
    JsonReader p = profs.child(it.key());
    BufferCfg::Profile pr;
    pr.name = it.key();
    const std::string pool = p.string("pool");
    if (!pool_idx.count(pool)) p.fail("pool", "unknown pool '" + pool + "'");
    pr.pool = pool_idx[pool];
    pr.size_bytes = p.non_negative("size", 0);
    if (pr.size_bytes > buf) p.fail("size", "reserved size larger than the buffer");
    const bool dyn = p.has("dynamic_th"), stat = p.has("static_th");
    if (dyn == stat) p.fail("", "exactly one of dynamic_th and static_th is required");
    // The profile's key sets its threshold mode, overriding the pool's "mode" as
    // SAI_BUFFER_PROFILE_THRESHOLD_MODE does.
    pr.dynamic = dyn;
    if (dyn) pr.dynamic_th = int(p.integer("dynamic_th", -8, 8));
    else pr.static_th_bytes = p.non_negative("static_th", 0);
    if (p.has("xoff")) {
      pr.has_xoff = true;
      pr.xoff_bytes = p.positive("xoff");
    }
    pr.xon_bytes = p.non_negative("xon", 0);
    pr.xon_offset_bytes = p.non_negative("xon_offset", 0);
    p.done();
    prof_idx[pr.name] = uint32_t(b.profiles.size());
    b.profiles.push_back(pr);
  }
  profs.done();

  b.pfc_enable.assign(np, 0);
  b.pfcwd_sw_enable.assign(np, 0);
  b.dscp_to_tc.assign(np, {});
  b.dot1p_to_tc.assign(np, {});
  b.has_dot1p_map.assign(np, 0);
  for (uint32_t p = 0; p < np; ++p)
    for (uint32_t d = 0; d < 64; ++d) b.dscp_to_tc[p][d] = uint8_t(d >> 3);  // class selector
  std::array<uint8_t, 8> identity{};
  for (uint8_t i = 0; i < 8; ++i) identity[i] = i;
  b.tc_to_pg.assign(np, identity);
  b.tc_to_queue.assign(np, identity);
  b.pfc_to_queue.assign(np, identity);

  auto load_map = [&](const char* table, const std::string& name, const std::string& field, size_t entries,
                      auto& out) {
    JsonReader maps = r.child(table);
    if (!maps.object().contains(name)) throw ConfigError(field + ": unknown map '" + name + "'");
    JsonReader m = maps.child(name);
    for (auto it = m.object().begin(); it != m.object().end(); ++it) {
      uint64_t k = 0;
      if (!parse_uint(it.key(), k) || k >= entries) m.fail(it.key(), "key out of range");
      out[k] = uint8_t(m.integer(it.key(), 0, 7));
    }
    m.done();
  };
  std::set<std::string> used_tables;
  if (r.has("PORT_QOS_MAP")) {
    JsonReader q = r.child("PORT_QOS_MAP");
    for (auto it = q.object().begin(); it != q.object().end(); ++it) {
      std::vector<uint32_t> ports;
      for (const auto& name : split(it.key(), ','))
        if (const int i = port_index_or_skip(sc, name, q.field(it.key()), skip_missing); i >= 0)
          ports.push_back(uint32_t(i));
      JsonReader e = q.child(it.key());
      uint8_t pfc = 0;
      if (e.has("pfc_enable")) {
        const std::string s = e.string("pfc_enable");
        pfc = s.empty() ? 0 : parse_prio_set(s, e.field("pfc_enable"));
      }
      int wd = -1;  // pfcwd_sw_enable: the priorities the PFC watchdog watches
      if (e.has("pfcwd_sw_enable")) {
        const std::string s = e.string("pfcwd_sw_enable");
        wd = s.empty() ? 0 : parse_prio_set(s, e.field("pfcwd_sw_enable"));
      }
      std::array<uint8_t, 64> dscp{};
      bool has_dscp = false;
      if (e.has("dscp_to_tc_map")) {
        if (!ports.empty()) dscp = b.dscp_to_tc[ports[0]];
        load_map("DSCP_TO_TC_MAP", e.string("dscp_to_tc_map"), e.field("dscp_to_tc_map"), 64, dscp);
        used_tables.insert("DSCP_TO_TC_MAP");
        has_dscp = true;
      }
      std::array<uint8_t, 8> dot1p{};
      bool has_dot1p = false;
      if (e.has("dot1p_to_tc_map")) {
        load_map("DOT1P_TO_TC_MAP", e.string("dot1p_to_tc_map"), e.field("dot1p_to_tc_map"), 8, dot1p);
        used_tables.insert("DOT1P_TO_TC_MAP");
        has_dot1p = true;
      }
      // TC -> PG, TC -> queue, PFC priority -> queue: 8 entries, unlisted ones identity.
      struct ClassMap {
        const char* key;
        const char* table;
        std::vector<std::array<uint8_t, 8>>* per_port;
        std::array<uint8_t, 8> map;
        bool given;
      };
      ClassMap class_maps[] = {{"tc_to_pg_map", "TC_TO_PRIORITY_GROUP_MAP", &b.tc_to_pg, identity, false},
                               {"tc_to_queue_map", "TC_TO_QUEUE_MAP", &b.tc_to_queue, identity, false},
                               {"pfc_to_queue_map", "MAP_PFC_PRIORITY_TO_QUEUE", &b.pfc_to_queue, identity, false}};
      for (auto& m : class_maps)
        if (e.has(m.key)) {
          load_map(m.table, e.string(m.key), e.field(m.key), 8, m.map);
          used_tables.insert(m.table);
          m.given = true;
        }
      e.done();
      for (uint32_t p : ports)
        for (const auto& m : class_maps)
          if (m.given) (*m.per_port)[p] = m.map;
      for (uint32_t p : ports) {
        b.pfc_enable[p] = pfc;
        b.pfcwd_sw_enable[p] = uint8_t(wd < 0 ? pfc : wd);
        if (has_dscp) b.dscp_to_tc[p] = dscp;
        if (has_dot1p) {
          b.dot1p_to_tc[p] = dot1p;
          b.has_dot1p_map[p] = 1;
        }
      }
    }
    q.done();
  }
  for (const char* t : {"DSCP_TO_TC_MAP", "DOT1P_TO_TC_MAP", "TC_TO_PRIORITY_GROUP_MAP", "TC_TO_QUEUE_MAP",
                        "MAP_PFC_PRIORITY_TO_QUEUE"})
    if (r.has(t) && !used_tables.count(t)) r.child(t);  // still must be an object
  b.lossless_pgs.assign(np, 0);
  for (uint32_t p = 0; p < np; ++p)
    for (uint32_t tc = 0; tc < Scenario::kPrios; ++tc)
      if (b.pfc_enable[p] >> tc & 1) b.lossless_pgs[p] |= uint8_t(1u << b.tc_to_pg[p][tc]);

  auto load_assign = [&](const char* table, std::vector<int>& out) {
    out.assign(size_t(np) * Scenario::kPrios, -1);
    if (!r.has(table)) return;
    JsonReader t = r.child(table);
    for (auto it = t.object().begin(); it != t.object().end(); ++it) {
      auto [ports, mask] = parse_port_prio_key(sc, it.key(), table, skip_missing);
      JsonReader e = t.child(it.key());
      const std::string prof = e.string("profile");
      if (!prof_idx.count(prof)) e.fail("profile", "unknown profile '" + prof + "'");
      e.done();
      for (uint32_t p : ports)
        for (uint32_t q = 0; q < Scenario::kPrios; ++q)
          if (mask >> q & 1) out[p * Scenario::kPrios + q] = int(prof_idx[prof]);
    }
    t.done();
  };
  load_assign("BUFFER_PG", b.pg_profile);
  load_assign("BUFFER_QUEUE", b.queue_profile);

  // Unlisted PGs/queues take SONiC's conventional default profiles by class.
  auto fill = [&](std::vector<int>& v, const char* table, bool ingress) {
    for (uint32_t p = 0; p < np; ++p)
      for (uint32_t q = 0; q < Scenario::kPrios; ++q) {
        int& slot = v[p * Scenario::kPrios + q];
        const bool ll = ingress ? sc.lossless(p, q) : sc.queue_lossless(p, q);
        const std::string dflt = std::string(ingress ? "ingress_" : "egress_") +
                                 (ll ? "lossless" : "lossy") + "_profile";
        const std::string key = sc.topo.ports[p].name + "|" + std::to_string(q);
        if (slot < 0) {
          auto it = prof_idx.find(dflt);
          if (it == prof_idx.end())
            throw ConfigError(std::string("buffer.") + table + ": no entry for " + key +
                              " and no default profile '" + dflt + "'");
          slot = int(it->second);
        }
        const auto& pr = b.profiles[size_t(slot)];
        if (b.pools[pr.pool].ingress != ingress)
          throw ConfigError(std::string("buffer.") + table + "." + key + ": profile '" + pr.name +
                            "' uses " + (ingress ? "an egress" : "an ingress") + " pool");
      }
  };
  fill(b.pg_profile, "BUFFER_PG", true);
  fill(b.queue_profile, "BUFFER_QUEUE", false);
  if (r.has("PFC_WD")) load_pfc_wd(sc, r.child("PFC_WD"), skip_missing);
  r.done();
}

void load_admission(Scenario& sc, JsonReader r) {
  AdmissionCfg& a = sc.admission;
  a.policy = r.string("policy", a.policy);
  bool known = false;
  std::string names;
  for (const auto& p : admission::policies()) {
    known |= a.policy == p.name;
    names += std::string(names.empty() ? "" : ", ") + p.name;
  }
  if (!known) r.fail("policy", "unknown policy '" + a.policy + "' (" + names + ")");
  const std::string impl = r.string("impl", "cpp");
  if (impl != "cpp" && impl != "rtl") r.fail("impl", "must be cpp or rtl");
  a.rtl = impl == "rtl";
  const std::string rule = r.string("congestion_rule", "threshold");
  if (rule == "threshold") a.congestion_rule = admission::CongestionRule::Kind::kThreshold;
  else if (rule == "saturation") a.congestion_rule = admission::CongestionRule::Kind::kSaturation;
  else r.fail("congestion_rule", "must be threshold or saturation");
  a.congested_bytes = r.positive("congested_bytes", a.congested_bytes);
  if (r.has("ewma")) {
    JsonReader e = r.child("ewma");
    a.ewma.k = uint8_t(e.integer("k", 0, 30, a.ewma.k));
    a.ewma.frac_bits = uint8_t(e.integer("frac_bits", 0, 32, a.ewma.frac_bits));
    const std::string upd = e.string("update", "dequeue");
    if (upd == "dequeue") a.ewma.rule = admission::EwmaConfig::Rule::kDequeue;
    else if (upd == "enqueue_dequeue") a.ewma.rule = admission::EwmaConfig::Rule::kEnqueueDequeue;
    else if (upd == "periodic") a.ewma.rule = admission::EwmaConfig::Rule::kPeriodic;
    else e.fail("update", "must be dequeue, enqueue_dequeue or periodic");
    a.ewma.period_cycles = uint32_t(e.integer("period_cycles", 1, 1 << 30, a.ewma.period_cycles));
    if (e.has("clamp")) {
      const auto& v = e.raw("clamp");
      if (!v.is_boolean()) e.fail("clamp", "must be true or false");
      a.ewma.clamp = v.get<bool>();
    }
    e.done();
  }
  if (r.has("abm")) {
    JsonReader b = r.child("abm");
    a.abm_interval_ps = b.time_ps("interval_ns", kPsPerNs, false, a.abm_interval_ps);
    // The interval is counted in whole MMU cycles: a shorter one would be a silent clamp.
    if (a.abm_interval_ps < sc.mmu.clock_period_ps)
      b.fail("interval_ns", "shorter than one MMU clock cycle (" + ns_text(sc.mmu.clock_period_ps) + " ns)");
    b.done();
  }
  if (r.has("dsh")) {
    JsonReader d = r.child("dsh");
    a.dsh_port_xon_offset_bytes = d.non_negative("port_xon_offset_bytes", 0);
    d.done();
  }
  r.done();
}

GeneratorCfg load_generator(const Scenario& sc, JsonReader r, size_t i) {
  GeneratorCfg g;
  // The key of a period that must carry one frame (each one starts a flow per source).
  const char* frame_period = nullptr;
  const std::string type = r.string("type");
  g.name = r.string("name", type + std::to_string(i));
  if (type == "trace") return load_trace_generator(sc, r, std::move(g));
  auto hosts = [&](const char* key) { return parse_hosts(r.raw(key), r.field(key), sc); };
  if (type == "incast") {
    g.kind = GeneratorCfg::Kind::kIncast;
    g.srcs = hosts("senders");
    g.dsts = hosts("receiver");
    if (g.dsts.size() != 1) r.fail("receiver", "exactly one receiver");
    g.burst_bytes = r.positive("burst_bytes");
    g.period_ps = r.time_ps("period_us", kPsPerUs, true, 0);
    g.count = uint32_t(r.integer("count", 1, 1'000'000, 1));
    if (g.count > 1 && g.period_ps == 0) r.fail("period_us", "required and > 0 when count > 1");
    if (g.count > 1) frame_period = "period_us";
  } else if (type == "constant" || type == "onoff") {
    g.kind = type == "constant" ? GeneratorCfg::Kind::kConstant : GeneratorCfg::Kind::kOnOff;
    g.srcs = hosts("src");
    g.dsts = hosts("dst");
    if (g.srcs.size() != g.dsts.size() && g.dsts.size() != 1)
      r.fail("dst", "one destination, or one per source");
    if (g.kind == GeneratorCfg::Kind::kOnOff) {
      g.on_ps = r.time_ps("on_us", kPsPerUs, false);
      g.off_ps = r.time_ps("off_us", kPsPerUs, false);
      frame_period = "on_us";
    }
  } else if (type == "poisson") {
    g.kind = GeneratorCfg::Kind::kPoisson;
    g.srcs = hosts("srcs");
    g.dsts = hosts("dsts");
    g.load = r.fraction("load", 0, 1);
    JsonReader s = r.child("size");
    const std::string dist = s.string("dist");
    if (dist == "fixed") {
      g.size.kind = SizeDist::Kind::kFixed;
      g.size.bytes = s.positive("bytes");
    } else if (dist == "uniform") {
      g.size.kind = SizeDist::Kind::kUniform;
      g.size.min = s.positive("min_bytes");
      g.size.max = s.positive("max_bytes");
      if (g.size.max < g.size.min) s.fail("max_bytes", "must be >= min_bytes");
    } else if (dist == "exponential") {
      g.size.kind = SizeDist::Kind::kExponential;
      g.size.mean = double(s.positive("mean_bytes"));
    } else if (dist == "cdf") {
      g.size.kind = SizeDist::Kind::kCdf;
      const auto& pts = s.raw("points");
      if (!pts.is_array() || pts.size() < 2) s.fail("points", "array of at least two [bytes, cdf] pairs");
      double last_p = 0;
      uint64_t last_b = 0;
      for (size_t k = 0; k < pts.size(); ++k) {
        const auto& e = pts[k];
        const std::string f = s.field("points") + "[" + std::to_string(k) + "]";
        if (!e.is_array() || e.size() != 2 || !e[0].is_number() || !e[1].is_number())
          throw ConfigError(f + ": must be [bytes, cumulative probability]");
        const double by = e[0].get<double>(), pr = e[1].get<double>();
        if (by < 1 || by != std::floor(by) || uint64_t(by) < last_b || pr < last_p || pr > 1)
          throw ConfigError(f + ": sizes and probabilities must be non-decreasing, bytes >= 1, p <= 1");
        last_b = uint64_t(by);
        last_p = pr;
        g.size.cdf.push_back({last_b, pr});
      }
      if (last_p != 1.0) s.fail("points", "last cumulative probability must be 1");
    } else {
      s.fail("dist", "must be fixed, uniform, exponential or cdf");
    }
    s.done();
    // Mean arrival gap per source = mean size x 8 / (line rate x load): at least one 64 B
    // frame time (no more flow starts than a link sends frames) and at most 2^62 ps.
    const double mean = g.size.mean_bytes();
    if (mean < double(kMinFrameBytes) * g.load)
      r.fail("size", "a mean flow size of " + nlohmann::json(mean).dump() + " B at load " +
                         nlohmann::json(g.load).dump() +
                         " starts flows faster than one per 64 B frame time: the mean must be >= 64 B x load");
    for (uint32_t src : g.srcs)
      if (mean * 8e12 / (double(sc.host_rate_bps(src)) * g.load) > 4611686018427387904.0)
        r.fail("load", "the mean gap between flows of " + sc.net.hosts[src].name + " exceeds 2^62 ps");
  } else {
    r.fail("type", "unknown generator type '" + type + "' (constant, onoff, poisson, incast, trace)");
  }
  // Constant/on-off pair sources with destinations; Poisson picks any destination but the
  // source, so each source needs one other; incast has one receiver.
  const bool paired = g.kind != GeneratorCfg::Kind::kPoisson && g.dsts.size() == g.srcs.size() && g.dsts.size() > 1;
  for (size_t i = 0; i < g.srcs.size(); ++i) {
    const uint32_t s = g.srcs[i];
    const bool other = std::any_of(g.dsts.begin(), g.dsts.end(), [s](uint32_t d) { return d != s; });
    const bool self = paired ? g.dsts[i] == s
                             : g.kind == GeneratorCfg::Kind::kPoisson ? !other
                                                                      : std::find(g.dsts.begin(), g.dsts.end(), s) != g.dsts.end();
    if (self)
      r.fail(g.kind == GeneratorCfg::Kind::kIncast ? "receiver" : g.kind == GeneratorCfg::Kind::kPoisson ? "dsts" : "dst",
             "host " + sc.net.hosts[s].name + " would send to itself");
  }
  const bool has_dscp = r.has("dscp"), has_pcp = r.has("pcp");
  if (has_dscp == has_pcp) r.fail("", "exactly one of dscp and pcp is required");
  if (has_dscp) g.dscp = uint8_t(r.integer("dscp", 0, 63));
  if (has_pcp) g.pcp = int(r.integer("pcp", 0, 7));
  if (r.has("ecn")) {
    const std::string e = r.string("ecn");
    if (e == "not_ect") g.ecn = 0;
    else if (e == "ect1") g.ecn = 1;
    else if (e == "ect0") g.ecn = 2;
    else r.fail("ecn", "must be not_ect, ect0 or ect1, got '" + e + "'");
  }
  if (r.has("rate_gbps")) g.rate_bps = r.rate_bps("rate_gbps");
  for (uint32_t s : g.srcs)
    if (g.rate_bps > sc.host_rate_bps(s))
      r.fail("rate_gbps", "faster than the line rate of h" + std::to_string(s));
  g.start_ps = r.time_ps("start_us", kPsPerUs, true, 0);
  g.stop_ps = r.time_ps("stop_us", kPsPerUs, false, 0);
  if (g.stop_ps && g.stop_ps <= g.start_ps) r.fail("stop_us", "must be after start_us");
  g.packet_bytes = uint32_t(r.integer("packet_bytes", 64, sc.topo.mtu_bytes, sc.topo.mtu_bytes));
  if (r.has("transport")) g.transport = load_generator_transport(r.raw("transport"), r.field("transport"));
  // A shorter period would start flows faster than any link sends them.
  const uint64_t period_ps = g.kind == GeneratorCfg::Kind::kOnOff ? g.on_ps : g.period_ps;
  for (uint32_t s = 0; frame_period && s < g.srcs.size(); ++s) {
    const uint64_t rate = g.rate_bps ? g.rate_bps : sc.host_rate_bps(g.srcs[s]);
    if ((unsigned __int128)rate * period_ps < (unsigned __int128)kMinFrameBytes * 8 * 1'000'000'000'000ull)
      r.fail(frame_period, "shorter than one 64 B frame at " + sc.net.hosts[g.srcs[s]].name + "'s rate of " +
                               nlohmann::json(double(rate) / 1e9).dump() + " Gb/s");
  }
  r.done();
  return g;
}

// Graph form: each switch reads the SONiC tables (its own or the shared ones) over its own
// ports; the view is what its MMU, pipeline and PFC generator see.
void build_switch_views(Scenario& sc, const nlohmann::json& shared_buffer, const nlohmann::json& watchdog) {
  for (size_t s = 0; s < sc.net.switches.size(); ++s) {
    const NetworkCfg::Switch& sw = sc.net.switches[s];
    auto v = std::make_shared<Scenario>();
    v->name = sc.name;
    v->seed = sc.seed;
    v->duration_ps = sc.duration_ps;
    v->measure_start_ps = sc.measure_start_ps;
    v->measure_end_ps = sc.measure_end_ps;
    v->topo = sc.topo;
    v->topo.switch_name = sw.name;
    v->topo.ports.clear();
    for (const auto& p : sw.ports) v->topo.ports.push_back({p.name, p.rate_bps, p.delay_ps});
    v->mmu = sc.mmu;
    v->pfc = sc.pfc;
    v->admission = sc.admission;
    v->dwrr_quantum_bytes = sc.dwrr_quantum_bytes;
    v->output = sc.output;
    v->bfc = bfc_switch_view(sc.bfc, uint32_t(sw.ports.size()));
    const bool own = !sw.buffer.is_null();
    const std::string f = own ? "topology.switches[" + std::to_string(s) + "].buffer" : "buffer";
    try {
      load_buffer(*v, JsonReader(own ? sw.buffer : shared_buffer, f), !own);
      v->wred = sc.wred;
      v->int_telemetry = sc.int_telemetry;
      resolve_wred_queues(*v, true);
      if (!watchdog.is_null() && v->pfc_wd.ports.empty()) load_pfc_wd(*v, JsonReader(watchdog, "pfc_watchdog"), true);
      // threshold_queues applies where the port exists with that class; else the default.
      OutputCfg& o = v->output;
      auto keep = [&](int port, int prio, bool lossless) {
        return port >= 0 && port < int(v->ports()) && v->lossless(uint32_t(port), uint32_t(prio)) == lossless;
      };
      if (!keep(o.th_lossless_port, o.th_lossless_prio, true)) o.th_lossless_port = -1;
      if (!keep(o.th_lossy_port, o.th_lossy_prio, false)) o.th_lossy_port = -1;
      v->core_config().validate();
      for (auto& w : headroom_warnings(*v)) sc.warnings.push_back(std::move(w));
      for (auto& w : class_map_warnings(*v)) sc.warnings.push_back("switch '" + sw.name + "' " + w);
    } catch (const std::exception& e) {
      throw ConfigError("switch '" + sw.name + "': " + e.what());
    }
    sc.views.push_back(v);
  }
}

}  // namespace

double SizeDist::mean_bytes() const {
  switch (kind) {
    case Kind::kFixed: return double(bytes);
    case Kind::kUniform: return (double(min) + double(max)) / 2;
    case Kind::kExponential: return mean;
    case Kind::kCdf: {
      double m = 0, prev_p = 0, prev_b = double(cdf.front().first);
      for (const auto& [b, p] : cdf) {
        m += (p - prev_p) * (prev_b + double(b)) / 2;
        prev_p = p;
        prev_b = double(b);
      }
      return m;
    }
  }
  return 1;
}

uint8_t Scenario::pg_priorities(uint32_t port, uint32_t pg) const {
  uint8_t m = 0;
  for (uint32_t tc = 0; tc < kPrios; ++tc)
    if (tc_lossless(port, tc) && buffer.tc_to_pg[port][tc] == pg) m |= uint8_t(1u << tc);
  return m;
}

bool Scenario::queue_lossless(uint32_t port, uint32_t q) const {
  for (uint32_t tc = 0; tc < kPrios; ++tc)
    if (tc_lossless(port, tc) && buffer.tc_to_queue[port][tc] == q) return true;
  return false;
}

std::vector<int> Scenario::core_queue_profiles() const {
  // The lowest TC that some ingress port maps to the PG decides; queue `pg` if none does.
  std::array<int, kPrios> first_tc;
  first_tc.fill(-1);
  for (uint32_t in = 0; in < ports(); ++in)
    for (uint32_t tc = kPrios; tc-- > 0;) {
      int& f = first_tc[buffer.tc_to_pg[in][tc]];
      if (f < 0 || int(tc) < f) f = int(tc);
    }
  std::vector<int> out(size_t(ports()) * kPrios);
  for (uint32_t port = 0; port < ports(); ++port)
    for (uint32_t pg = 0; pg < kPrios; ++pg) {
      const uint32_t q = first_tc[pg] < 0 ? pg : buffer.tc_to_queue[port][size_t(first_tc[pg])];
      out[size_t(port) * kPrios + pg] = buffer.queue_profile[size_t(port) * kPrios + q];
    }
  return out;
}

std::vector<std::string> class_map_warnings(const Scenario& sc) {
  // Queues whose TCs share a PG share the core's egress counter and must agree on a profile
  // to be admitted as configured.
  std::vector<std::string> out;
  const BufferCfg& b = sc.buffer;
  for (uint32_t pg = 0; pg < Scenario::kPrios; ++pg) {
    uint8_t tcs = 0;
    for (uint32_t in = 0; in < sc.ports(); ++in)
      for (uint32_t tc = 0; tc < Scenario::kPrios; ++tc)
        if (b.tc_to_pg[in][tc] == pg) tcs |= uint8_t(1u << tc);
    for (uint32_t port = 0; port < sc.ports(); ++port) {
      std::map<std::string, std::string> profiles;  // profile -> queues
      for (uint32_t tc = 0; tc < Scenario::kPrios; ++tc)
        if (tcs >> tc & 1) {
          const uint32_t q = b.tc_to_queue[port][tc];
          std::string& qs = profiles[b.profiles[size_t(b.queue_profile[size_t(port) * Scenario::kPrios + q])].name];
          if (qs.find(std::to_string(q)) == std::string::npos) qs += (qs.empty() ? "" : ",") + std::to_string(q);
        }
      if (profiles.size() < 2) continue;
      std::string list;
      for (const auto& [prof, qs] : profiles) list += (list.empty() ? "" : ", ") + qs + " '" + prof + "'";
      out.push_back(sc.topo.ports[port].name + ": TCs of PG " + std::to_string(pg) + " go to queues with different " +
                    "BUFFER_QUEUE profiles (" + list + "); the admission core counts egress per (port, PG), so " +
                    "they share one counter with the first one's profile");
      break;  // one line per PG
    }
  }
  return out;
}

admission::CoreConfig Scenario::core_config() const {
  admission::CoreConfig c;
  const BufferCfg& b = buffer;
  c.ports = ports();
  c.prios = kPrios;
  c.counter_bits = mmu.counter_bits;
  const uint64_t cb = mmu.cell_bytes;
  // Capacities and thresholds round down (only whole cells fit); reserved, headroom and
  // xon sizes round up (never short of what the operator asked for).
  c.buffer_cells = mmu.buffer_bytes / cb;
  const std::vector<uint64_t> safe = safe_headroom_cells(*this);
  for (const auto& p : b.pools) c.pool_cells.push_back(p.size_bytes / cb);
  auto th = [&](const BufferCfg::Profile& p) {
    admission::Threshold t;
    t.dynamic = p.dynamic;
    t.shift = int8_t(p.dynamic_th);
    t.static_cells = p.static_th_bytes / cb;
    return t;
  };
  for (const auto& p : b.profiles) c.egress_profiles.push_back({uint16_t(p.pool), cells(p.size_bytes), th(p)});
  // Ingress profiles are specialised per port when xoff is derived from the port's link.
  std::map<std::pair<size_t, uint64_t>, uint16_t> spec;
  bool shared_hdrm = false;
  for (const auto& p : b.pools)
    if (p.ingress && p.has_xoff) {
      shared_hdrm = true;
      c.headroom_pool_cells += p.xoff_bytes / cb;
    }
  uint64_t sih_total = 0;
  const size_t n = size_t(ports()) * kPrios;
  c.pg_profile.resize(n);
  c.queue_profile.resize(n);
  const std::vector<int> queue_prof = core_queue_profiles();
  c.lossless.resize(n);
  for (uint32_t port = 0; port < ports(); ++port)
    for (uint32_t q = 0; q < kPrios; ++q) {
      const size_t i = size_t(port) * kPrios + q;
      const size_t pi = size_t(b.pg_profile[i]);
      const auto& pr = b.profiles[pi];
      c.lossless[i] = lossless(port, q) ? 1 : 0;
      c.queue_profile[i] = uint16_t(queue_prof[i]);
      uint64_t xoff = 0;
      if (c.lossless[i]) {
        xoff = pr.has_xoff ? pr.xoff_bytes : safe[port] * cb;
        sih_total += cells(xoff);
      }
      auto key = std::make_pair(pi, xoff);
      auto it = spec.find(key);
      if (it == spec.end()) {
        admission::IngressProfile ip{uint16_t(pr.pool), cells(pr.size_bytes), th(pr), cells(xoff),
                                     cells(pr.xon_bytes), cells(pr.xon_offset_bytes)};
        it = spec.emplace(key, uint16_t(c.ingress_profiles.size())).first;
        c.ingress_profiles.push_back(ip);
      }
      c.pg_profile[i] = it->second;
    }
  // Without a pool xoff every lossless PG has its own static headroom (SIH).
  if (!shared_hdrm) c.headroom_pool_cells = std::min(sih_total, c.buffer_cells);
  c.policy = admission.policy;
  c.congestion = {admission.congestion_rule, cells(admission.congested_bytes)};
  c.ewma = admission.ewma;
  c.abm.interval_cycles = uint32_t(std::max<uint64_t>(1, admission.abm_interval_ps / mmu.clock_period_ps));
  for (const auto& p : topo.ports)
    c.abm.port_cells_per_interval.push_back(uint64_t(
        (unsigned __int128)p.rate_bps * (uint64_t(c.abm.interval_cycles) * mmu.clock_period_ps) /
        8'000'000'000'000ull / mmu.cell_bytes));
  c.dsh.port_xon_offset_cells = cells(admission.dsh_port_xon_offset_bytes);
  return c;
}

Scenario load_scenario(const nlohmann::json& j, const std::string& origin) {
  Scenario sc;
  try {
    JsonReader r(j, "");
    sc.name = r.string("name", origin);
    sc.seed = uint64_t(r.integer("seed", 0, int64_t(kMaxSeed), 1));
    sc.duration_ps = r.time_ps("duration_us", kPsPerUs, false);
    load_topology(sc, r.child("topology"));
    load_mmu(sc, r.child("mmu"));
    if (sc.mmu.buffer_bytes / sc.mmu.cell_bytes == 0)
      throw ConfigError("mmu.buffer_bytes: smaller than one cell");
    load_buffer(sc, r.child("buffer"));
    // pfc_watchdog: PFC_WD's keys for every switch whose buffer has no PFC_WD of its own.
    if (r.has("pfc_watchdog")) {
      if (sc.pfc_wd.ports.empty()) load_pfc_wd(sc, r.child("pfc_watchdog"), false);
      else r.child("pfc_watchdog");
    }
    sc.measure_end_ps = sc.duration_ps;
    if (r.has("measure")) {
      JsonReader m = r.child("measure");
      sc.measure_start_ps = m.time_ps("start_us", kPsPerUs, true, 0);
      sc.measure_end_ps = m.time_ps("end_us", kPsPerUs, false, sc.duration_ps);
      if (sc.measure_end_ps > sc.duration_ps) m.fail("end_us", "beyond duration_us");
      if (sc.measure_start_ps >= sc.measure_end_ps) m.fail("start_us", "must be before end_us");
      m.done();
    }
    if (r.has("pfc")) {
      JsonReader p = r.child("pfc");
      sc.pfc.pause_quanta = uint16_t(p.integer("pause_quanta", 1, 65535, 65535));
      if (p.has("refresh_fraction")) sc.pfc.refresh_fraction = p.fraction("refresh_fraction", 0, 0.99);
      p.done();
    }
    check_pfc_refresh(sc);
    if (r.has("admission")) load_admission(sc, r.child("admission"));
    if (r.has("egress")) {
      JsonReader e = r.child("egress");
      sc.dwrr_quantum_bytes = uint32_t(e.integer("dwrr_quantum_bytes", 64, 1 << 24, 1600));
      e.done();
    }
    if (r.has("host")) load_host(sc, r.raw("host"));
    if (r.has("bfc")) load_bfc(sc, r.child("bfc"));
    if (r.has("wred")) load_wred(sc, r.child("wred"));
    if (r.has("int")) load_int(sc, r.child("int"));
    if (r.has("output")) {
      JsonReader o = r.child("output");
      sc.output.sample_interval_ps = o.time_ps("sample_interval_ns", kPsPerNs, false, sc.output.sample_interval_ps);
      if (sc.output.sample_interval_ps < kMinSamplePs)
        o.fail("sample_interval_ns", "must be at least 10 ns (at most 100 rows per simulated us)");
      sc.output.occupancy_bucket_bytes = uint32_t(o.integer("occupancy_bucket_bytes", 1, 1 << 24, 1024));
      if (o.has("ingress_peaks")) {
        if (!o.raw("ingress_peaks").is_boolean()) o.fail("ingress_peaks", "must be true or false");
        sc.output.ingress_peaks = o.raw("ingress_peaks").get<bool>();
      }
      if (o.has("bfc_queues")) {
        if (!o.raw("bfc_queues").is_boolean()) o.fail("bfc_queues", "must be true or false");
        sc.output.bfc_queues = o.raw("bfc_queues").get<bool>();
        if (sc.output.bfc_queues && !sc.bfc.enabled) o.fail("bfc_queues", "needs bfc.enabled");
      }
      if (o.has("threshold_queues")) {
        JsonReader t = o.child("threshold_queues");
        for (const char* cls : {"lossless", "lossy"}) {
          if (!t.has(cls)) continue;
          const std::string key = t.string(cls);
          auto [ports, mask] = parse_port_prio_key(sc, key, "output.threshold_queues");
          if (ports.size() != 1 || __builtin_popcount(mask) != 1)
            t.fail(cls, "'" + key + "' must name one PORT|PRIORITY");
          const int prio = __builtin_ctz(mask);
          if (sc.lossless(ports[0], uint32_t(prio)) != (cls == std::string("lossless")))
            t.fail(cls, "'" + key + "' is not a " + cls + " queue");
          (cls == std::string("lossless") ? sc.output.th_lossless_port : sc.output.th_lossy_port) = int(ports[0]);
          (cls == std::string("lossless") ? sc.output.th_lossless_prio : sc.output.th_lossy_prio) = prio;
        }
        t.done();
      }
      o.done();
    }
    // Bounded output: with the 10 ns floor above, at most 10^7 rows per file.
    if (sc.duration_ps / sc.output.sample_interval_ps >= kMaxSamples)
      throw ConfigError("output.sample_interval_ns: " + ns_text(sc.output.sample_interval_ps) + " ns gives " +
                        std::to_string(sc.duration_ps / sc.output.sample_interval_ps + 1) +
                        " timeseries rows over duration_us; at most 10^7 per file");
    const auto& t = r.raw("traffic");
    if (!t.is_array()) r.fail("traffic", "must be an array of generators");
    for (size_t i = 0; i < t.size(); ++i) {
      const std::string f = "traffic[" + std::to_string(i) + "]";
      sc.traffic.push_back(load_generator(sc, JsonReader(t[i], f), i));
      for (size_t k = 0; k < i; ++k)
        if (sc.traffic[k].name == sc.traffic[i].name)
          throw ConfigError(f + ".name: '" + sc.traffic[i].name + "' already names traffic[" + std::to_string(k) + "]");
      if (sc.traffic[i].stop_ps > sc.duration_ps) throw ConfigError(f + ".stop_us: beyond duration_us");
    }
    finish_transports(sc);
    if (r.has("pfc_storms")) load_pfc_storms(sc, r.raw("pfc_storms"));
    r.done();
    sc.core_config().validate();
    if (sc.net.graph) {
      build_switch_views(sc, j.at("buffer"), j.contains("pfc_watchdog") ? j.at("pfc_watchdog") : nlohmann::json());
      for (size_t i = 0; i < sc.pfc_storms.size(); ++i)
        std::const_pointer_cast<Scenario>(sc.views[sc.pfc_storm_switch[i]])->pfc_storms.push_back(sc.pfc_storms[i]);
    } else {
      sc.warnings = headroom_warnings(sc);
      for (auto& w : class_map_warnings(sc)) sc.warnings.push_back(std::move(w));
    }
    for (uint32_t s = 0; s < sc.net.switches.size(); ++s)
      if (sc.bfc.enabled && sc.switch_view(s).pfc_wd.enabled())
        throw ConfigError("buffer.PFC_WD: the PFC watchdog is not modelled with bfc.enabled");
  } catch (const std::invalid_argument& e) {
    throw ConfigError(origin + ": " + e.what());
  } catch (const ConfigError& e) {
    throw ConfigError(origin + ": " + e.what());
  }
  return sc;
}

nlohmann::json parse_json_file(const std::string& path) {
  return parse_json_text(read_regular_file(path, kMaxScenarioBytes, "scenario file"), path);
}

Scenario load_scenario_file(const std::string& path) { return load_scenario(parse_json_file(path), path); }

void apply_override(nlohmann::json& j, const std::string& assignment) {
  const std::string arg = "--set '" + clip(assignment) + "'";
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw ConfigError(arg + ": expected key.path=value");
  const std::string path = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  const auto parts = split(path, '.');
  // The path's objects count towards the nesting limit with the value's own.
  if (parts.size() >= size_t(kMaxJsonDepth))
    throw ConfigError(arg + ": key path deeper than " + std::to_string(kMaxJsonDepth - 1) + " levels");
  const int value_depth = kMaxJsonDepth - int(parts.size());
  if (const std::string p = json_limit_problem(text, clip(path), value_depth, false); !p.empty())
    throw ConfigError(arg + ": " + p);
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error&) {
    value = text;  // not JSON: a string
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(arg + ": " + e.what());
  }
  nlohmann::json* node = &j;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& k = parts[i];
    if (k.empty()) throw ConfigError(arg + ": empty path component");
    if (node->is_array()) {
      uint64_t idx = 0;
      if (!parse_uint(k, idx) || idx >= node->size())
        throw ConfigError(arg + ": '" + clip(k) + "' is not an index of that array");
      node = &(*node)[size_t(idx)];
    } else if (node->is_object() || node->is_null()) {
      node = &(*node)[k];
    } else {
      throw ConfigError(arg + ": '" + clip(k) + "' is under a non-object value");
    }
  }
  *node = std::move(value);
}

}  // namespace mmusim
