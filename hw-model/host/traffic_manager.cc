#include "host/traffic_manager.h"

#include "common/sim_time.h"
#include "ingress/classifier.h"

namespace mmusim {

TrafficManager::TrafficManager(sc_core::sc_module_name name, const Scenario& sc, FlowTable& flows,
                               std::vector<Host*> hosts)
    : sc_module(name), m_sc(sc), m_flows(flows), m_hosts(std::move(hosts)), m_routes(compute_routes(sc.net)) {
  m_head.resize(sc.traffic.size());
  for (uint32_t g = 0; g < sc.traffic.size(); ++g) {
    m_gens.push_back(make_generator(sc, g));
    pull(g);
  }
}

// Unloaded round trip: one full-size data frame out and one ACK back over every link of
// the routed path (store and forward), with the ingress pipeline latency at each switch.
uint64_t TrafficManager::base_rtt_ps(const Flow& f, const std::vector<const NetworkCfg::Port*>& inner) const {
  const NetworkCfg::Host& a = m_sc.net.hosts[f.src];
  const NetworkCfg::Host& b = m_sc.net.hosts[f.dst];
  const uint64_t oh = m_sc.topo.wire_overhead_bytes;
  const uint64_t data = uint64_t(f.packet_bytes) + oh, ack = uint64_t(m_sc.host.ack_bytes) + oh;
  auto link = [&](uint64_t rate, uint64_t delay) {
    return 2 * delay + serialization_ps(data, rate) + serialization_ps(ack, rate);
  };
  uint64_t rtt = link(a.rate_bps, a.delay_ps) + link(b.rate_bps, b.delay_ps);
  for (const NetworkCfg::Port* p : inner) rtt += link(p->rate_bps, p->delay_ps);
  return rtt + 2 * (inner.size() + 1) * uint64_t(m_sc.mmu.pipeline_latency_cycles) * m_sc.mmu.clock_period_ps;
}

void TrafficManager::pull(uint32_t gen) {
  if (m_gens[gen]->next(m_head[gen]) && m_head[gen].start_ps < m_sc.duration_ps)
    m_cal.at<&TrafficManager::on_start>(m_head[gen].start_ps, Phase::kFlowStart, this, gen);
}

void TrafficManager::on_start(uint32_t g) {
  Flow f = m_head[g];
  f.id = uint32_t(m_flows.size());
  if (f.has_ports) f.tuple.src_ip = host_ip(f.src), f.tuple.dst_ip = host_ip(f.dst);
  else f.tuple = FiveTuple{host_ip(f.src), host_ip(f.dst), uint16_t(49152 + f.id % 16384), 4791, 17};
  const FiveTuple& t = f.tuple;
  const auto path =
      inner_path(m_sc.net, m_routes, m_sc.seed, f.src, f.dst, t.src_ip, t.dst_ip, t.src_port, t.dst_port, t.proto);
  f.switch_hops = uint32_t(path.size()) + 1;
  // The NIC classifies as the switch port it is attached to will.
  const NetworkCfg::Host& at = m_sc.net.hosts[f.src];
  f.prio = classify(m_sc.switch_view(at.sw).buffer, at.port, f.dscp, f.pcp);
  const int8_t gt = m_sc.traffic[g].transport;
  f.transport = gt >= 0 ? TransportKind(gt) : m_sc.host.transport.for_class(f.prio);
  if (f.transport == TransportKind::kPowertcp) f.base_rtt_ps = base_rtt_ps(f, path);
  m_flows.push_back(f);
  m_hosts[f.src]->start_flow(f.id);
  pull(g);
}

}  // namespace mmusim
