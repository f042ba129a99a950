#include "host/traffic_manager.h"

#include "common/sim_time.h"
#include "host/generators.h"
#include "host/host.h"

namespace mmusim {

TrafficManager::TrafficManager(sc_core::sc_module_name name, TrafficConfig cfg,
                               std::vector<std::unique_ptr<Generator>> gens, FlowTable& flows, std::vector<Host*> hosts)
    : sc_module(name), m_cfg(std::move(cfg)), m_flows(flows), m_hosts(std::move(hosts)),
      m_routes(compute_routes(m_cfg.net)), m_gens(std::move(gens)) {
  m_head.resize(m_gens.size());
  for (uint32_t g = 0; g < m_gens.size(); ++g) pull(g);
}

TrafficManager::~TrafficManager() = default;

// Unloaded round trip: one full-size data frame out and one ACK back over every link of
// the routed path (store and forward), with the ingress pipeline latency at each switch.
uint64_t TrafficManager::base_rtt_ps(const Flow& f, const std::vector<const NetworkCfg::Port*>& inner) const {
  const NetworkCfg::Host& a = m_cfg.net.hosts[f.src];
  const NetworkCfg::Host& b = m_cfg.net.hosts[f.dst];
  const uint64_t oh = m_cfg.wire_overhead_bytes;
  const uint64_t data = uint64_t(f.packet_bytes) + f.int_header_bytes + oh, ack = uint64_t(m_cfg.ack_bytes) + oh;
  auto link = [&](uint64_t rate, uint64_t delay) {
    return 2 * delay + serialization_ps(data, rate) + serialization_ps(ack, rate);
  };
  uint64_t rtt = link(a.rate_bps, a.delay_ps) + link(b.rate_bps, b.delay_ps);
  for (const NetworkCfg::Port* p : inner) rtt += link(p->rate_bps, p->delay_ps);
  return rtt + 2 * (inner.size() + 1) * uint64_t(m_cfg.pipeline_latency_cycles) * m_cfg.clock_period_ps;
}

// A RoCE flow's retransmission timeout, as InfiniBand sizes a QP's local ACK timeout from
// its path (IBA 9.7.6.1.3; rdma_cm sets timeout = PacketLifeTime + 1): 4.096 us x 2^n, the
// smallest at least twice the packet lifetime L. L = half the unloaded RTT plus, at every
// switch on the path, its whole buffer draining at the path's egress rate: under PFC a
// packet can wait behind a full buffer at each hop, and an RTO below that rewinds flows
// that are only queued (go-back-N then resends what is still in the network).
uint64_t TrafficManager::roce_rto_ps(const Flow& f, const std::vector<const NetworkCfg::Port*>& inner) const {
  if (m_cfg.transport.roce_rto_ps) return m_cfg.transport.roce_rto_ps;
  uint64_t life = base_rtt_ps(f, inner) / 2;
  uint32_t s = m_cfg.net.hosts[f.src].sw;
  for (size_t k = 0; k <= inner.size(); ++k) {
    const uint64_t rate = k < inner.size() ? inner[k]->rate_bps : m_cfg.net.hosts[f.dst].rate_bps;
    life += serialization_ps(m_cfg.switch_buffer_bytes[s], rate);
    if (k < inner.size()) s = inner[k]->peer;
  }
  uint64_t rto = 4'096'000;
  while (rto < 2 * life) rto *= 2;
  return rto;
}

void TrafficManager::pull(uint32_t gen) {
  if (m_gens[gen]->next(m_head[gen]) && m_head[gen].start_ps < m_cfg.duration_ps)
    m_cal.at<&TrafficManager::on_start>(m_head[gen].start_ps, Phase::kFlowStart, this, gen);
}

void TrafficManager::on_start(uint32_t g) {
  Flow f = m_head[g];
  f.id = uint32_t(m_flows.size());
  if (f.has_ports) f.tuple.src_ip = host_ip(f.src), f.tuple.dst_ip = host_ip(f.dst);
  else f.tuple = FiveTuple{host_ip(f.src), host_ip(f.dst), uint16_t(49152 + f.id % 16384), 4791, 17};
  const FiveTuple& t = f.tuple;
  const auto path =
      inner_path(m_cfg.net, m_routes, m_cfg.seed, f.src, f.dst, t.src_ip, t.dst_ip, t.src_port, t.dst_port, t.proto);
  f.switch_hops = uint32_t(path.size()) + 1;
  // The NIC classifies as the switch port it is attached to will.
  f.prio = m_cfg.host_classifier[f.src].classify(f.dscp, f.pcp);
  if (m_cfg.int_telemetry.classes >> f.prio & 1u) f.int_header_bytes = uint16_t(m_cfg.int_telemetry.header_bytes);
  const int8_t gt = m_cfg.generators[g].transport;
  f.transport = gt >= 0 ? TransportKind(gt) : m_cfg.transport.for_class(f.prio);
  if (f.transport == TransportKind::kPowertcp) f.base_rtt_ps = base_rtt_ps(f, path);
  if (f.transport == TransportKind::kDcqcn || f.transport == TransportKind::kPowertcp) f.rto_ps = roce_rto_ps(f, path);
  m_flows.push_back(f);
  m_hosts[f.src]->start_flow(f.id);
  pull(g);
}

}  // namespace mmusim
