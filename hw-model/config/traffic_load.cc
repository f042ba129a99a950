#include "config/traffic_load.h"

#include <algorithm>
#include <cmath>

#include "config/scenario.h"
#include "config/scenario_parse.h"
#include "config/trace_config.h"

namespace mmusim {

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

}  // namespace mmusim
