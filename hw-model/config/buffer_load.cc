#include "config/buffer_load.h"

#include <map>
#include <set>
#include <string>

#include "config/headroom.h"
#include "config/scenario.h"
#include "config/scenario_parse.h"

namespace mmusim {
namespace {

// BUFFER_POOL: name -> index into b.pools; each pool and the pools' headroom fit the buffer.
void load_pools(BufferCfg& b, JsonReader& r, uint64_t buf, std::map<std::string, uint32_t>& pool_idx) {
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

}

// BUFFER_PROFILE: name -> index into b.profiles.
void load_profiles(BufferCfg& b, JsonReader& r, uint64_t buf, const std::map<std::string, uint32_t>& pool_idx,
                   std::map<std::string, uint32_t>& prof_idx) {
  JsonReader profs = r.child("BUFFER_PROFILE");
  for (auto it = profs.object().begin(); it != profs.object().end(); ++it) {
    JsonReader p = profs.child(it.key());
    BufferCfg::Profile pr;
    pr.name = it.key();
    const std::string pool = p.string("pool");
    if (!pool_idx.count(pool)) p.fail("pool", "unknown pool '" + pool + "'");
    pr.pool = pool_idx.at(pool);
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

}

// PORT_QOS_MAP and the maps it names: pfc_enable, pfcwd_sw_enable, DSCP/PCP -> TC, TC -> PG,
// TC -> queue, PFC priority -> queue per port; class selector and identity where not given.
void load_port_qos_maps(SwitchConfig& sc, JsonReader& r, bool skip_missing) {
  BufferCfg& b = sc.buffer;
  const uint32_t np = sc.ports();
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
}

// A PG is lossless when a PFC-enabled TC maps to it.
void derive_lossless_pgs(BufferCfg& b, uint32_t np) {
  b.lossless_pgs.assign(np, 0);
  for (uint32_t p = 0; p < np; ++p)
    for (uint32_t tc = 0; tc < Scenario::kPrios; ++tc)
      if (b.pfc_enable[p] >> tc & 1) b.lossless_pgs[p] |= uint8_t(1u << b.tc_to_pg[p][tc]);

}

// BUFFER_PG or BUFFER_QUEUE: [port*8+class] -> profile index, -1 where not listed.
void load_profile_table(const SwitchConfig& sc, JsonReader& r, const char* table,
                        const std::map<std::string, uint32_t>& prof_idx, std::vector<int>& out, bool skip_missing) {
  const uint32_t np = sc.ports();
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
        if (mask >> q & 1) out[p * Scenario::kPrios + q] = int(prof_idx.at(prof));
  }
  t.done();
}

// Unlisted PGs/queues take SONiC's conventional default profiles by class.
void fill_default_profiles(const SwitchConfig& sc, const std::map<std::string, uint32_t>& prof_idx, std::vector<int>& v,
                           const char* table, bool ingress) {
  const BufferCfg& b = sc.buffer;
  const uint32_t np = sc.ports();
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
}

}  // namespace

void load_buffer(SwitchConfig& sc, JsonReader r, bool skip_missing) {
  BufferCfg& b = sc.buffer;
  std::map<std::string, uint32_t> pool_idx, prof_idx;
  load_pools(b, r, sc.mmu.buffer_bytes, pool_idx);
  load_profiles(b, r, sc.mmu.buffer_bytes, pool_idx, prof_idx);
  load_port_qos_maps(sc, r, skip_missing);
  derive_lossless_pgs(b, sc.ports());
  load_profile_table(sc, r, "BUFFER_PG", prof_idx, b.pg_profile, skip_missing);
  load_profile_table(sc, r, "BUFFER_QUEUE", prof_idx, b.queue_profile, skip_missing);
  fill_default_profiles(sc, prof_idx, b.pg_profile, "BUFFER_PG", true);
  fill_default_profiles(sc, prof_idx, b.queue_profile, "BUFFER_QUEUE", false);
  if (r.has("PFC_WD")) load_pfc_wd(sc, r.child("PFC_WD"), skip_missing);
  r.done();
}

void load_pfc_wd(SwitchConfig& sc, JsonReader t, bool skip_missing) {
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

uint8_t SwitchConfig::pg_priorities(uint32_t port, uint32_t pg) const {
  uint8_t m = 0;
  for (uint32_t tc = 0; tc < kPrios; ++tc)
    if (tc_lossless(port, tc) && buffer.tc_to_pg[port][tc] == pg) m |= uint8_t(1u << tc);
  return m;
}

bool SwitchConfig::queue_lossless(uint32_t port, uint32_t q) const {
  for (uint32_t tc = 0; tc < kPrios; ++tc)
    if (tc_lossless(port, tc) && buffer.tc_to_queue[port][tc] == q) return true;
  return false;
}

admission::CoreConfig SwitchConfig::core_config() const {
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
  c.lossless.resize(n);
  for (uint32_t port = 0; port < ports(); ++port)
    for (uint32_t q = 0; q < kPrios; ++q) {
      const size_t i = size_t(port) * kPrios + q;
      const size_t pi = size_t(b.pg_profile[i]);
      const auto& pr = b.profiles[pi];
      c.lossless[i] = lossless(port, q) ? 1 : 0;
      c.queue_profile[i] = uint16_t(b.queue_profile[i]);  // egress counters are per (port, queue)
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
  c.thresholds = admission.thresholds;
  c.pipe = admission.pipeline;
  // The interval in whole MMU cycles, rounded down to a power of two (docs/policies.md, abm).
  const uint64_t interval_cycles = std::max<uint64_t>(1, admission.abm_interval_ps / mmu.clock_period_ps);
  c.abm.interval_log2 = uint8_t(63 - __builtin_clzll(interval_cycles));  // <= 20 (scenario.cc)
  for (const auto& p : topo.ports)
    c.abm.port_cells_per_interval.push_back(uint64_t(
        (unsigned __int128)p.rate_bps * ((uint64_t(1) << c.abm.interval_log2) * mmu.clock_period_ps) /
        8'000'000'000'000ull / mmu.cell_bytes));
  c.dsh.port_xon_offset_cells = cells(admission.dsh_port_xon_offset_bytes);
  return c;
}

}  // namespace mmusim
