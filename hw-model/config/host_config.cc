// The scenario's "host" object: NIC transport (ACKs, go-back-N) and Smart-Pause.
#include <cmath>

#include "config/json_reader.h"
#include "config/scenario.h"

namespace mmusim {
namespace {

bool boolean(JsonReader& r, const std::string& key, bool dflt) {
  if (!r.has(key)) return dflt;
  const auto& v = r.raw(key);
  if (!v.is_boolean()) r.fail(key, "must be true or false");
  return v.get<bool>();
}

}  // namespace

void load_host(Scenario& sc, const nlohmann::json& j) {
  JsonReader r(j, "host");
  HostCfg& h = sc.host;
  bool acks_given = false;
  if (r.has("acks")) {
    JsonReader a = r.child("acks");
    acks_given = a.has("enabled");
    h.acks = boolean(a, "enabled", false);
    h.ack_bytes = uint32_t(a.integer("bytes", 64, sc.topo.mtu_bytes, h.ack_bytes));
    h.ack_dscp = uint8_t(a.integer("dscp", 0, 63, h.ack_dscp));
    h.rto_ps = a.time_ps("rto_us", 1e6, false, h.rto_ps);
    // Each expiry rewinds a flow: at most one per flow per simulated us.
    if (h.rto_ps < 1'000'000) a.fail("rto_us", "must be at least 1 us");
    a.done();
  }
  if (r.has("smart_pause")) {
    JsonReader s = r.child("smart_pause");
    h.smart_pause = boolean(s, "enabled", false);
    const bool one = s.has("threshold_ns"), by_hops = s.has("threshold_ns_by_hops");
    if (one && by_hops) s.fail("", "give threshold_ns or threshold_ns_by_hops, not both");
    if (one) h.threshold_ps = {s.time_ps("threshold_ns", 1e3, false)};
    if (by_hops) {
      const auto& v = s.raw("threshold_ns_by_hops");
      const std::string f = s.field("threshold_ns_by_hops");
      if (!v.is_array() || v.empty() || v.size() > 64)
        throw ConfigError(f + ": must be an array of 1 to 64 thresholds (ns), one per switch hop count 1, 2, ...");
      for (size_t i = 0; i < v.size(); ++i) {
        const double ns = v[i].is_number() ? v[i].get<double>() : -1;
        if (!(ns >= 0.001 && ns <= 1e12))
          throw ConfigError(f + "[" + std::to_string(i) + "]: must be a number of ns in [0.001, 1e12]");
        h.threshold_ps.push_back(uint64_t(std::llround(ns * 1e3)));
      }
    }
    const std::string mode = s.string("pause", "fixed");
    if (mode != "fixed" && mode != "dynamic") s.fail("pause", "must be fixed or dynamic, got '" + mode + "'");
    h.dynamic_pause = mode == "dynamic";
    if (h.dynamic_pause && s.has("pause_ns")) s.fail("pause_ns", "only with pause fixed (dynamic P = OWD - T)");
    if (!h.dynamic_pause)
      h.pause_ps = h.smart_pause ? s.time_ps("pause_ns", 1e3, false) : s.time_ps("pause_ns", 1e3, false, 0);
    if (h.smart_pause && h.threshold_ps.empty())
      s.fail("", "threshold_ns or threshold_ns_by_hops is required when enabled");
    if (h.smart_pause && acks_given && !h.acks)
      s.fail("enabled", "needs host.acks (the one-way delay comes back in ACKs)");
    s.done();
  }
  // Smart-Pause measures delay through ACKs, so it turns them on.
  h.acks = h.acks || h.smart_pause;
  r.done();
}

}  // namespace mmusim
