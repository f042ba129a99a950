#include "sim/network.h"

#include <algorithm>

#include "common/sim_time.h"

namespace mmusim {
namespace {

nlohmann::json tw_json(const Mmu::Series& s) {
  return {{"mean", s.mean()}, {"p99", s.quantile(0.99)}, {"max", s.max()}};
}

// Mean and nearest-rank p50/p99/max of `v`, each divided by `scale`.
template <class T>
nlohmann::json rank_stats(std::vector<T> v, double scale) {
  nlohmann::json j = {{"mean", 0.0}, {"p50", 0.0}, {"p99", 0.0}, {"max", 0.0}};
  if (v.empty()) return j;
  std::sort(v.begin(), v.end());
  long double sum = 0;
  for (T x : v) sum += x;
  auto rank = [&](double q) {
    size_t k = size_t(std::ceil(q * double(v.size())));
    return v[std::min(v.size(), std::max<size_t>(1, k)) - 1];
  };
  j["mean"] = double(sum / v.size()) / scale;
  j["p50"] = double(rank(0.50)) / scale;
  j["p99"] = double(rank(0.99)) / scale;
  j["max"] = double(v.back()) / scale;
  return j;
}

// Flow completion times, ps in, ns out.
nlohmann::json fct_json(std::vector<uint64_t> v) { return rank_stats(std::move(v), 1000.0); }
// Slowdowns (FCT / ideal FCT).
nlohmann::json slowdown_json(std::vector<double> v) { return rank_stats(std::move(v), 1.0); }

// a += b (or a = max(a, b)) over numbers, recursively through objects.
void merge(nlohmann::json& a, const nlohmann::json& b, bool max) {
  if (a.is_object() && b.is_object()) {
    for (auto it = b.begin(); it != b.end(); ++it) {
      if (a.contains(it.key())) merge(a[it.key()], it.value(), max);
      else a[it.key()] = it.value();
    }
  } else if (a.is_array() && b.is_array() && !max) {
    a.insert(a.end(), b.begin(), b.end());
  } else if (a.is_number_unsigned() && b.is_number_unsigned()) {
    a = max ? std::max(a.get<uint64_t>(), b.get<uint64_t>()) : a.get<uint64_t>() + b.get<uint64_t>();
  } else if (a.is_number() && b.is_number()) {
    a = max ? std::max(a.get<double>(), b.get<double>()) : a.get<double>() + b.get<double>();
  }
}

}  // namespace

uint64_t ideal_fct_ps(const Scenario& sc, const Flow& f, const std::vector<const NetworkCfg::Port*>& inner) {
  const NetworkCfg::Host& a = sc.net.hosts[f.src];
  const NetworkCfg::Host& b = sc.net.hosts[f.dst];
  std::vector<std::pair<uint64_t, uint64_t>> links{{a.rate_bps, a.delay_ps}};  // (rate, delay)
  for (const NetworkCfg::Port* p : inner) links.push_back({p->rate_bps, p->delay_ps});
  links.push_back({b.rate_bps, b.delay_ps});
  const uint64_t oh = sc.topo.wire_overhead_bytes;
  const uint64_t n = (f.bytes + f.packet_bytes - 1) / f.packet_bytes;
  const uint64_t last = f.bytes - (n - 1) * f.packet_bytes;
  const uint64_t last_wire = std::max<uint64_t>(64, last) + oh;
  const uint64_t first_wire = n > 1 ? uint64_t(f.packet_bytes) + oh : last_wire;
  const uint64_t all_wire = (n - 1) * (uint64_t(f.packet_bytes) + oh) + last_wire;
  // Store and forward: whichever link j is the bottleneck sends every frame, the links
  // before it add the first frame and the links after it the last one. The first link
  // sends back to back, or paced at the flow's rate (as the NIC paces).
  uint64_t ser = 0, delay = 0;
  for (size_t j = 0; j < links.size(); ++j) {
    uint64_t all = serialization_ps(all_wire, links[j].first);
    if (j == 0 && f.rate_bps && f.rate_bps < a.rate_bps)
      all = std::max(all, serialization_ps(f.bytes - last, f.rate_bps) + serialization_ps(last_wire, a.rate_bps));
    uint64_t t = all;
    for (size_t i = 0; i < links.size(); ++i)
      if (i != j) t += serialization_ps(i < j ? first_wire : last_wire, links[i].first);
    ser = std::max(ser, t);
    delay += links[j].second;
  }
  return ser + (links.size() - 1) * uint64_t(sc.mmu.pipeline_latency_cycles) * sc.mmu.clock_period_ps + delay;
}

// Appendix B across switches: a queue paused by a downstream switch is released once that
// switch's pause of it drains (its counter for (its ingress port, the queue) falls to 0; at
// 0 the resume is already on its way). Draining sets only grow, so iterate to the fixpoint;
// what is left waits on a cycle or on a peer that never resumes.
std::vector<std::vector<uint8_t>> Network::bfc_can_drain() const {
  const NetworkCfg& net = m_sc.net;
  std::vector<std::vector<uint8_t>> d(m_switches.size());
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t s = 0; s < m_switches.size(); ++s) {
      if (!m_switches[s]->bfc) continue;
      auto next = m_switches[s]->bfc_can_drain([&](uint32_t port, uint32_t q) {
        const NetworkCfg::Port& pc = net.switches[s].ports[port];
        if (pc.peer_host || !m_switches[s]->egress[port]->bfc_paused().test(q) || !m_switches[pc.peer]->bfc)
          return false;
        const BfcPauseCounters& c = m_switches[pc.peer]->bfc->counters();
        return c.value(pc.peer_port, q) == 0 ||
               (!d[pc.peer].empty() && d[pc.peer][size_t(pc.peer_port) * c.queues() + q] != 0);
      });
      if (next != d[s]) {
        d[s] = std::move(next);
        changed = true;
      }
    }
  }
  return d;
}

nlohmann::json Network::switch_summary(uint32_t s, const std::vector<uint8_t>& bfc_can_drain) const {
  const Switch& sw = *m_switches[s];
  const SwitchConfig& view = m_sc.switch_view(s);
  const Mmu& m = sw.mmu;
  uint64_t rx = sw.ingress.received_data(), tx = 0;
  for (const auto& e : sw.egress) tx += e->tx_data_frames();
  const auto& r = m.drops_by_reason();
  nlohmann::json pools;
  for (size_t i = 0; i < view.buffer.pools.size(); ++i) pools[view.buffer.pools[i].name] = tw_json(m.pools()[i]);
  const auto& o = m.occupancy();
  nlohmann::json j = {
      {"name", view.topo.switch_name},
      {"packets",
       {{"received", rx},
        {"admitted", m.admitted()},
        {"admitted_headroom", m.admitted_headroom()},
        {"dropped", m.dropped_lossless() + m.dropped_lossy() + sw.ingress.no_route_drops()},
        {"transmitted", tx},
        {"buffered_at_end", sw.held_packets()}}},
      {"drops",
       {{"lossless", m.dropped_lossless()},
        {"lossy", m.dropped_lossy()},
        {"no_route", sw.ingress.no_route_drops()},
        {"by_reason",
         {{"ingress_threshold", r[1]}, {"egress_threshold", r[2]}, {"headroom_full", r[3]}, {"buffer_full", r[4]}}}}},
      {"pfc",
       {{"pause_frames", sw.pfc.pause_frames()},
        {"resume_frames", sw.pfc.resume_frames()},
        {"xoff_events", sw.pfc.xoff_events()},
        {"xon_events", sw.pfc.xon_events()},
        {"xoff_states_at_end", sw.pfc.xoff_states()},
        {"paused_time_ns", double(sw.pfc.paused_ps(m_sc.duration_ps)) / 1000.0},
        {"paused_queues_at_end", sw.pfc.paused_queues()}}},
      {"occupancy_bytes",
       {{"lossless", tw_json(o.lossless)},
        {"lossy", tw_json(o.lossy)},
        {"headroom", tw_json(o.headroom)},
        {"total", tw_json(o.total)}}},
      {"thresholds_bytes", {{"ingress_lossless", tw_json(o.th_lossless)}, {"egress_lossy", tw_json(o.th_lossy)}}},
      {"pools_bytes", pools},
  };
  if (sw.bfc) j["bfc"] = sw.bfc_summary(m_sc.duration_ps, bfc_can_drain);
  if (view.wred.configured()) j["wred"] = m.wred_summary();
  if (view.int_telemetry.enabled()) j["int"] = m.int_summary();
  if (sw.watchdog) {  // its drops are the switch's drops too (conservation)
    j["pfc_watchdog"] = sw.watchdog->summary();
    j["drops"]["pfc_watchdog"] = sw.watchdog->drops();
    j["packets"]["dropped"] = j["packets"]["dropped"].get<uint64_t>() + sw.watchdog->drops();
  }
  if (m_sc.output.ingress_peaks) {
    nlohmann::json peaks = nlohmann::json::object();
    for (uint32_t p = 0; p < view.ports(); ++p) peaks[view.topo.ports[p].name] = m.ingress_peak_bytes(p);
    j["ingress_peak_bytes"] = peaks;
  }
  return j;
}

uint64_t Network::ideal_fct(const Flow& f) const {
  const FiveTuple& t = f.tuple;
  return ideal_fct_ps(m_sc, f,
                      inner_path(m_sc.net, m_routes, m_sc.seed, f.src, f.dst, t.src_ip, t.dst_ip, t.src_port,
                                 t.dst_port, t.proto));
}

nlohmann::json Network::summary(double wall_s) const {
  uint64_t injected = 0, delivered = 0, in_flight_to_hosts = 0, host_pfc_rx = 0;
  for (const auto& h : m_hosts) {
    injected += h->injected();
    delivered += h->delivered();
    in_flight_to_hosts += h->pending_rx_data();
    host_pfc_rx += h->pfc_received();
  }
  // Network totals: counts add up; occupancy statistics are the element-wise maximum over
  // switches (the most loaded one), as a sum of p99s or maxima would mean nothing.
  nlohmann::json switches = nlohmann::json::array();
  const auto drain = bfc_can_drain();
  for (uint32_t s = 0; s < m_switches.size(); ++s) switches.push_back(switch_summary(s, drain[s]));
  nlohmann::json sw = switches[0];
  for (size_t s = 1; s < switches.size(); ++s) {
    merge(sw["packets"], switches[s]["packets"], false);
    merge(sw["drops"], switches[s]["drops"], false);
    merge(sw["pfc"], switches[s]["pfc"], false);
    for (const char* k : {"occupancy_bytes", "thresholds_bytes", "pools_bytes"}) merge(sw[k], switches[s][k], true);
    for (const char* k : {"wred", "int"})
      if (switches[s].contains(k)) {
        for (const char* c : {"marked", "dropped", "hops_recorded", "stack_full"})
          if (sw[k].contains(c)) sw[k][c] = sw[k][c].get<uint64_t>() + switches[s][k][c].get<uint64_t>();
      }
    if (switches[s].contains("bfc")) {
      const double longest = std::max(sw["bfc"]["longest_pause_ns"].get<double>(),
                                      switches[s]["bfc"]["longest_pause_ns"].get<double>());
      merge(sw["bfc"], switches[s]["bfc"], false);
      sw["bfc"]["longest_pause_ns"] = longest;  // a maximum, not a count
    }
  }
  std::vector<uint64_t> all, incast, background;
  std::vector<std::vector<uint64_t>> per_gen(m_sc.traffic.size());
  std::vector<uint64_t> gen_flows(m_sc.traffic.size(), 0);
  std::vector<double> all_sd;
  std::vector<std::vector<double>> gen_sd(m_sc.traffic.size());
  for (const Flow& f : m_flows) {
    ++gen_flows[f.generator];
    if (!f.finish_ps) continue;
    const uint64_t fct = f.finish_ps - f.start_ps;
    const double sd = double(fct) / double(ideal_fct(f));
    all_sd.push_back(sd);
    gen_sd[f.generator].push_back(sd);
    all.push_back(fct);
    per_gen[f.generator].push_back(fct);
    (m_sc.traffic[f.generator].kind == GeneratorCfg::Kind::kIncast ? incast : background).push_back(fct);
  }
  nlohmann::json gens = nlohmann::json::object();
  for (size_t g = 0; g < m_sc.traffic.size(); ++g)
    gens[m_sc.traffic[g].name] = {{"flows", gen_flows[g]},
                                  {"completed", per_gen[g].size()},
                                  {"fct_ns", fct_json(per_gen[g])},
                                  {"slowdown", slowdown_json(gen_sd[g])}};
  const uint64_t dropped = sw["packets"]["dropped"].get<uint64_t>();
  nlohmann::json j = {
      {"schema", "mmusim.summary/1"},
      {"scenario", m_sc.name},
      {"policy", m_sc.admission.policy},
      {"impl", m_sc.admission.rtl ? "rtl" : "cpp"},
      {"seed", m_sc.seed},
      {"sim_time_ns", double(m_sc.duration_ps) / 1000.0},
      {"measure_ns", {double(m_sc.measure_start_ps) / 1000.0, double(m_sc.measure_end_ps) / 1000.0}},
      {"wall_time_s", wall_s},
      {"packets",
       {{"injected", injected},
        {"delivered", delivered},
        {"dropped", dropped},
        {"buffered_at_end", sw["packets"]["buffered_at_end"].get<uint64_t>() + in_flight_to_hosts},
        {"hops", hops()}}},
      {"drops", sw["drops"]},
      {"pfc", sw["pfc"]},
      {"occupancy_bytes", sw["occupancy_bytes"]},
      {"thresholds_bytes", sw["thresholds_bytes"]},
      {"pools_bytes", sw["pools_bytes"]},
      {"flows",
       {{"started", m_flows.size()},
        {"completed", all.size()},
        {"fct_ns", fct_json(all)},
        {"slowdown", slowdown_json(all_sd)},
        {"incast_fct_ns", fct_json(incast)},
        {"background_fct_ns", fct_json(background)}}},
      {"generators", gens},
      {"switches", switches},
  };
  j["pfc"]["frames_received_by_hosts"] = host_pfc_rx;
  j["warnings"] = m_sc.warnings;
  if (m_sc.host.acks) {
    Host::AckCounters c;
    for (const auto& h : m_hosts) {
      const auto& x = h->ack_counters();
      c.acks_sent += x.acks_sent;
      c.acks_received += x.acks_received;
      c.out_of_order += x.out_of_order;
      c.rewinds += x.rewinds;
      c.timeouts += x.timeouts;
      c.retransmitted += x.retransmitted;
      c.holds += x.holds;
      c.held_ps += x.held_ps;
    }
    j["acks"] = {{"sent", c.acks_sent},
                 {"received", c.acks_received},
                 {"data_injected", injected - c.acks_sent},
                 {"data_delivered", delivered - c.acks_received},
                 {"out_of_order_discarded", c.out_of_order},
                 {"go_back_n_rewinds", c.rewinds},
                 {"timeouts", c.timeouts},
                 {"retransmitted", c.retransmitted}};
    if (m_sc.host.smart_pause)
      j["smart_pause"] = {{"holds", c.holds}, {"held_time_ns", double(c.held_ps) / 1000.0}};
  }
  if (m_sc.host.transport.any()) j["transport"] = transport_summary(m_hosts);
  if (sw.contains("wred")) j["wred"] = {{"marked", sw["wred"]["marked"]}, {"dropped", sw["wred"]["dropped"]}};
  if (sw.contains("int")) j["int"] = sw["int"];
  if (sw.contains("bfc")) {
    j["bfc"] = sw["bfc"];
    uint64_t nic_paused = 0, nic_rx = 0;  // NIC queues still paused when the run ends
    for (const auto& h : m_hosts) {
      nic_paused += h->bfc_paused().count();
      nic_rx += h->bfc_received();
    }
    j["bfc"]["nic_queues_paused_at_end"] = nic_paused;
    j["bfc"]["frames_received_by_hosts"] = nic_rx;
  }
  return j;
}

}  // namespace mmusim
