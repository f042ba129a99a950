#include "config/bfc_config.h"

#include <algorithm>

#include "config/json_reader.h"

namespace mmusim {

namespace {

uint32_t bfc_port(const Scenario& sc, const nlohmann::json& v, const std::string& field) {
  if (!v.is_string()) throw ConfigError(field + ": must be a port name like Ethernet0");
  const std::string name = v.get<std::string>();
  for (uint32_t i = 0; i < sc.ports(); ++i)
    if (sc.topo.ports[i].name == name) return i;
  throw ConfigError(field + ": unknown port '" + name + "'");
}

}  // namespace

void load_bfc(Scenario& sc, JsonReader r) {
  BfcCfg& b = sc.bfc;
  if (r.has("enabled")) {
    const auto& v = r.raw("enabled");
    if (!v.is_boolean()) r.fail("enabled", "must be true or false");
    b.enabled = v.get<bool>();
  }
  b.queues_per_port = uint32_t(r.integer("queues_per_port", 1, kBfcMaxQueues, 32));
  const std::string a = r.string("assignment", "dynamic");
  if (a == "dynamic") b.assignment = BfcCfg::Assignment::kDynamic;
  else if (a == "hash") b.assignment = BfcCfg::Assignment::kHash;
  else if (a == "single") b.assignment = BfcCfg::Assignment::kSingle;
  else r.fail("assignment", "must be dynamic, hash or single, got '" + a + "'");
  // Default HRTT: out and back over the slowest, longest port of any switch, one MTU frame
  // each way.
  uint64_t max_delay = 0, min_rate = UINT64_MAX;
  for (const auto& sw : sc.net.switches)
    for (const auto& p : sw.ports) {
      max_delay = std::max(max_delay, p.delay_ps);
      min_rate = std::min(min_rate, p.rate_bps);
    }
  const uint64_t mtu_ps =
      (uint64_t(sc.topo.mtu_bytes + sc.topo.wire_overhead_bytes) * 8 * 1'000'000'000'000ull + min_rate - 1) / min_rate;
  b.hrtt_ps = r.time_ps("hrtt_ns", 1e3, false, 2 * (max_delay + mtu_ps));
  if (r.has("sticky_factor")) {
    b.sticky_factor = r.number("sticky_factor");
    if (!(b.sticky_factor >= 0 && b.sticky_factor <= 1e6)) r.fail("sticky_factor", "must be in [0, 1e6]");
  }
  b.refresh_ps = r.time_ps("refresh_ns", 1e3, false, b.refresh_ps);
  // Refreshes closer than one BFC frame on the slowest link would queue frames without bound.
  const uint64_t frame_ps =
      (uint64_t(64 + sc.topo.wire_overhead_bytes) * 8 * 1'000'000'000'000ull + min_rate - 1) / min_rate;
  if (b.refresh_ps < frame_ps)
    r.fail("refresh_ns", "must be at least " + nlohmann::json(double(frame_ps) / 1e3).dump() +
                             " ns, one 64 B BFC frame on the slowest link (" +
                             nlohmann::json(double(min_rate) / 1e9).dump() + " Gb/s)");
  b.table_factor = uint32_t(r.integer("table_factor", 1, 10000, 100));
  if (uint64_t(b.table_factor) * b.queues_per_port * sc.ports() > (uint64_t(1) << 26))
    r.fail("table_factor", "flow table of more than 2^26 entries");
  if (r.has("suppress")) {
    const auto& s = r.raw("suppress");
    if (!s.is_array()) r.fail("suppress", "must be an array of {ingress, egress} port pairs");
    for (size_t i = 0; i < s.size(); ++i) {
      JsonReader e(s[i], r.field("suppress") + "[" + std::to_string(i) + "]");
      const uint32_t in = bfc_port(sc, e.raw("ingress"), e.field("ingress"));
      const uint32_t out = bfc_port(sc, e.raw("egress"), e.field("egress"));
      e.done();
      b.suppress.emplace_back(in, out);
    }
  }
  r.done();
}

BfcCfg bfc_switch_view(const BfcCfg& b, uint32_t ports) {
  BfcCfg v = b;
  v.suppress.clear();
  for (const auto& [in, out] : b.suppress)
    if (in < ports && out < ports) v.suppress.emplace_back(in, out);
  return v;
}

}  // namespace mmusim
