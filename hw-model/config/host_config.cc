// The scenario's "host" object: NIC transport (ACKs, go-back-N), Smart-Pause and the
// congestion-control transports (host.transport).
#include <cmath>
#include <set>

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

TransportKind transport_kind(const std::string& name, const std::string& field) {
  TransportKind k;
  if (!parse_transport_kind(name, k))
    throw ConfigError(field + ": unknown transport '" + name + "' (none, dcqcn, dctcp, cubic, powertcp)");
  return k;
}

// A gain or weight in (0, 1].
double gain(JsonReader& r, const std::string& key, double dflt) {
  return r.has(key) ? r.fraction(key, 0, 1) : dflt;
}

uint64_t rate(JsonReader& r, const std::string& key, uint64_t dflt) { return r.has(key) ? r.rate_bps(key) : dflt; }

void load_transport(Scenario& sc, JsonReader r) {
  TransportCfg& t = sc.host.transport;
  if (r.has("default")) t.default_kind = transport_kind(r.string("default"), r.field("default"));
  if (r.has("classes")) {
    JsonReader c = r.child("classes");
    for (uint32_t prio = 0; prio < Scenario::kPrios; ++prio) {
      const std::string key = std::to_string(prio);
      if (c.has(key)) t.by_class[prio] = int8_t(transport_kind(c.string(key), c.field(key)));
    }
    c.done();  // any other key: "unknown key" names it
  }
  if (r.has("dcqcn")) {
    JsonReader d = r.child("dcqcn");
    DcqcnCfg& q = t.dcqcn;
    q.g = gain(d, "g", q.g);
    q.alpha_timer_ps = d.time_ps("alpha_timer_us", 1e6, false, q.alpha_timer_ps);
    q.increase_timer_ps = d.time_ps("increase_timer_us", 1e6, false, q.increase_timer_ps);
    q.byte_counter_bytes = d.non_negative("byte_counter_bytes", q.byte_counter_bytes);
    q.fast_recovery_steps = uint32_t(d.integer("fast_recovery_steps", 0, 1000, q.fast_recovery_steps));
    q.rate_ai_bps = rate(d, "rate_ai_gbps", q.rate_ai_bps);
    q.rate_hai_bps = rate(d, "rate_hai_gbps", q.rate_hai_bps);
    q.min_rate_bps = rate(d, "min_rate_gbps", q.min_rate_bps);
    q.rate_decrease_interval_ps = d.time_ps("rate_decrease_interval_us", 1e6, true, q.rate_decrease_interval_ps);
    q.cnp_interval_ps = d.time_ps("cnp_interval_us", 1e6, true, q.cnp_interval_ps);
    // Timers drive events: at most one per flow per simulated 10 ns.
    if (q.alpha_timer_ps < 10'000) d.fail("alpha_timer_us", "must be at least 0.01 us");
    if (q.increase_timer_ps < 10'000) d.fail("increase_timer_us", "must be at least 0.01 us");
    if (q.byte_counter_bytes && q.byte_counter_bytes < sc.topo.mtu_bytes)
      d.fail("byte_counter_bytes", "must be 0 (off) or at least mtu_bytes");
    d.done();
  }
  if (r.has("tcp")) {
    JsonReader c = r.child("tcp");
    TcpCfg& q = t.tcp;
    q.min_rto_ps = c.time_ps("min_rto_us", 1e6, false, q.min_rto_ps);
    q.initial_rto_ps = c.time_ps("initial_rto_us", 1e6, false, q.initial_rto_ps);
    q.max_rto_ps = c.time_ps("max_rto_us", 1e6, false, q.max_rto_ps);
    q.initial_window_packets = uint32_t(c.integer("initial_window_packets", 1, 1 << 20, q.initial_window_packets));
    q.dupack_threshold = uint32_t(c.integer("dupack_threshold", 1, 1000, q.dupack_threshold));
    // Each expiry rewinds a flow: at most one per flow per simulated us.
    if (q.min_rto_ps < 1'000'000) c.fail("min_rto_us", "must be at least 1 us");
    if (q.initial_rto_ps < q.min_rto_ps) c.fail("initial_rto_us", "must be at least min_rto_us");
    if (q.max_rto_ps < q.initial_rto_ps) c.fail("max_rto_us", "must be at least initial_rto_us");
    c.done();
  }
  if (r.has("dctcp")) {
    JsonReader c = r.child("dctcp");
    t.dctcp.g = gain(c, "g", t.dctcp.g);
    if (c.has("initial_alpha")) {
      const double a = c.number("initial_alpha");
      if (!(a >= 0 && a <= 1)) c.fail("initial_alpha", "must be in [0, 1]");
      t.dctcp.initial_alpha = a;
    }
    c.done();
  }
  if (r.has("cubic")) {
    JsonReader c = r.child("cubic");
    CubicCfg& q = t.cubic;
    if (c.has("c")) {
      q.c = c.number("c");
      if (!(q.c > 0 && q.c <= 1e6)) c.fail("c", "must be in (0, 1e6]");
    }
    if (c.has("beta")) {
      q.beta = c.number("beta");
      if (!(q.beta > 0 && q.beta < 1)) c.fail("beta", "must be in (0, 1)");
    }
    q.fast_convergence = boolean(c, "fast_convergence", q.fast_convergence);
    q.reno_friendly = boolean(c, "reno_friendly", q.reno_friendly);
    q.ecn = boolean(c, "ecn", q.ecn);
    c.done();
  }
  if (r.has("roce_rto_us")) {
    t.roce_rto_ps = r.time_ps("roce_rto_us", 1e6, false);
    if (t.roce_rto_ps < 1'000'000) r.fail("roce_rto_us", "must be at least 1 us");
  }
  if (r.has("powertcp")) {
    JsonReader c = r.child("powertcp");
    PowertcpCfg& q = t.powertcp;
    q.gamma = gain(c, "gamma", q.gamma);
    q.expected_flows = uint32_t(c.integer("expected_flows", 1, 1 << 20, q.expected_flows));
    q.base_rtt_ps = c.time_ps("base_rtt_us", 1e6, true, q.base_rtt_ps);
    c.done();
  }
  r.done();
}

}  // namespace

bool parse_transport_kind(const std::string& name, TransportKind& kind) {
  static const std::pair<const char*, TransportKind> names[] = {{"none", TransportKind::kNone},
                                                                {"dcqcn", TransportKind::kDcqcn},
                                                                {"dctcp", TransportKind::kDctcp},
                                                                {"cubic", TransportKind::kCubic},
                                                                {"powertcp", TransportKind::kPowertcp}};
  for (const auto& [n, k] : names)
    if (name == n) {
      kind = k;
      return true;
    }
  return false;
}

const char* transport_name(TransportKind kind) {
  switch (kind) {
    case TransportKind::kNone: return "none";
    case TransportKind::kDcqcn: return "dcqcn";
    case TransportKind::kDctcp: return "dctcp";
    case TransportKind::kCubic: return "cubic";
    case TransportKind::kPowertcp: return "powertcp";
  }
  return "?";
}

bool TransportCfg::any() const {
  if (default_kind != TransportKind::kNone) return true;
  for (int8_t k : by_class)
    if (k > 0) return true;
  return false;
}

int8_t load_generator_transport(const nlohmann::json& v, const std::string& field) {
  if (!v.is_string()) throw ConfigError(field + ": must be a transport name (none, dcqcn, dctcp, cubic, powertcp)");
  return int8_t(transport_kind(v.get<std::string>(), field));
}

void finish_transports(Scenario& sc) {
  bool any = sc.host.transport.any();
  for (const GeneratorCfg& g : sc.traffic) any = any || g.transport > 0;
  // Every transport is ACK-clocked (window, RTT, ECE, INT echo) or recovers losses by
  // go-back-N (DCQCN, PowerTCP over RoCE).
  if (any && sc.host.acks_disabled)
    throw ConfigError("host.acks.enabled: false, but a transport (host.transport or traffic[].transport) needs ACKs");
  sc.host.acks = sc.host.acks || any;
}

void load_host(Scenario& sc, const nlohmann::json& j) {
  JsonReader r(j, "host");
  HostCfg& h = sc.host;
  bool acks_given = false;
  if (r.has("acks")) {
    JsonReader a = r.child("acks");
    acks_given = a.has("enabled");
    h.acks = boolean(a, "enabled", false);
    h.acks_disabled = acks_given && !h.acks;
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
  if (r.has("transport")) load_transport(sc, r.child("transport"));
  // Smart-Pause measures delay through ACKs, so it turns them on.
  h.acks = h.acks || h.smart_pause;
  r.done();
}

}  // namespace mmusim

namespace mmusim {

std::vector<std::string> check_transport_classes(const Scenario& sc) {
  std::vector<std::string> warnings;
  for (size_t g = 0; g < sc.traffic.size(); ++g) {
    const GeneratorCfg& gen = sc.traffic[g];
    if (gen.kind == GeneratorCfg::Kind::kTrace || gen.srcs.empty()) continue;  // the class is per flow
    const std::string f = "traffic[" + std::to_string(g) + "]";
    std::set<uint32_t> seen_tc;
    for (uint32_t h : gen.srcs) {
      const auto& host = sc.net.hosts[h];
      const BufferCfg& b = sc.switch_view(host.sw).buffer;
      // The class the NIC gives the flow (traffic_manager classifies at the host's port).
      const uint32_t tc = gen.pcp >= 0 && b.has_dot1p_map[host.port] ? b.dot1p_to_tc[host.port][size_t(gen.pcp)]
                                                                     : b.dscp_to_tc[host.port][gen.pcp >= 0 ? 0 : gen.dscp];
      if (!seen_tc.insert(tc).second) continue;
      const TransportKind k = gen.transport >= 0 ? TransportKind(gen.transport) : sc.host.transport.for_class(uint8_t(tc));
      const std::string who = f + " ('" + gen.name + "', transport " + transport_name(k) + ", TC " + std::to_string(tc) + ")";
      const std::string field = gen.transport >= 0                      ? f + ".transport"
                                : sc.host.transport.by_class[tc & 7] >= 0 ? "host.transport.classes." + std::to_string(tc)
                                                                          : std::string("host.transport.default");
      if (k == TransportKind::kDcqcn || k == TransportKind::kDctcp) {
        // ECN-driven: some egress queue of this class must carry a marking WRED profile.
        bool marks = false;
        for (uint32_t s = 0; s < sc.net.switches.size() && !marks; ++s) {
          const SwitchConfig& v = sc.switch_view(s);
          for (uint32_t p = 0; p < v.ports() && !marks; ++p) {
            const size_t i = size_t(p) * Scenario::kPrios + v.buffer.tc_to_queue[p][tc];
            marks = i < v.wred.queue_profile.size() && v.wred.queue_profile[i] >= 0 &&
                    v.wred.profiles[size_t(v.wred.queue_profile[i])].marks_green();
          }
        }
        if (!marks)
          throw ConfigError(field + ": " + who + " reacts to ECN, but no egress queue of TC " + std::to_string(tc) +
                            " has an ECN-marking WRED profile (wred.QUEUE with a profile whose ecn mode marks green)");
      }
      if (k == TransportKind::kPowertcp && !(sc.int_telemetry.classes >> tc & 1u))
        throw ConfigError(field + ": " + who + " needs INT, but int.enabled_classes does not list TC " + std::to_string(tc));
      // DCQCN (SIGCOMM'15 §2) and Reverie's RDMA runs assume a PFC-lossless fabric; go-back-N
      // still recovers losses here, so a lossy RoCE class is a warning, not an error.
      if ((k == TransportKind::kDcqcn || k == TransportKind::kPowertcp) &&
          !sc.switch_view(host.sw).tc_lossless(host.port, tc))
        warnings.push_back(who + ": RoCE on a class that is not PFC-lossless at " + host.name + "'s switch port " +
                           sc.switch_view(host.sw).topo.ports[host.port].name +
                           " (no pfc_enable): losses fall to go-back-N");
    }
  }
  return warnings;
}

}  // namespace mmusim
