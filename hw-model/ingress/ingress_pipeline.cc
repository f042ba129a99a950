#include "ingress/ingress_pipeline.h"

#include "common/sim_time.h"
#include "ingress/classifier.h"

namespace mmusim {

IngressPipeline::IngressPipeline(sc_core::sc_module_name name, const Scenario& sc, PacketPool& pool)
    : sc_module(name), from_link("from_link"), to_egress("to_egress"), pause("pause"), mmu("mmu"),
      m_sc(sc), m_pool(pool), m_period(sc.mmu.clock_period_ps),
      m_latency(uint64_t(sc.mmu.pipeline_latency_cycles) * sc.mmu.clock_period_ps),
      m_next_slot(sc.mmu.pipelines, 0) {
  from_link.register_nb_transport_fw(this, &IngressPipeline::nb_transport_fw);
  to_egress.register_nb_transport_bw(this, &IngressPipeline::nb_transport_bw);
}

tlm::tlm_sync_enum IngressPipeline::nb_transport_fw(int port, Packet& p, tlm::tlm_phase& ph,
                                                    sc_core::sc_time& t) {
  expect_begin_req(ph, name());
  p.in_port = uint16_t(port);
  if (p.kind == Packet::Kind::kData) ++m_arrivals_data;
  m_cal.at<&IngressPipeline::on_arrival>(now_ps() + t.value(), Phase::kArrival, this, &p);
  return tlm::TLM_COMPLETED;
}

void IngressPipeline::on_arrival(Packet* p) {
  if (p->kind == Packet::Kind::kPfc) {
    // MAC control frames stop at the MAC: they pause this port's transmitter.
    ++m_rx_pfc;
    pause[p->in_port]->pfc_received(p->pfc);
    m_pool.put(p);
    return;
  }
  if (p->kind == Packet::Kind::kBfc) {
    ++m_rx_bfc;
    pause[p->in_port]->bfc_received(p->bfc);
    m_pool.put(p);
    return;
  }
  --m_arrivals_data;
  ++m_rx_data;
  auto route = m_fib.find(p->tuple.dst_ip);
  if (route == m_fib.end() || route->second.empty()) {
    ++m_no_route;
    m_pool.put(p);
    return;
  }
  const auto& hops = route->second;
  const FiveTuple& ft = p->tuple;
  p->out_port = hops.size() == 1 ? hops[0]
                                 : hops[ecmp_pick(m_ecmp_seed, m_switch_id, ft.src_ip, ft.dst_ip, ft.src_port,
                                                  ft.dst_port, ft.proto, uint32_t(hops.size()))];
  p->tc = classify(m_sc.buffer, p->in_port, p->dscp, p->pcp);
  p->prio = m_sc.buffer.tc_to_pg[p->in_port][p->tc];
  p->cells = uint32_t(m_sc.cells(p->bytes));
  // First MMU clock edge after the pipeline latency, then one decision per cycle.
  uint64_t& slot = m_next_slot[p->in_port % m_next_slot.size()];
  uint64_t t = (now_ps() + m_latency + m_period - 1) / m_period * m_period;
  if (t < slot) t = slot;
  slot = t + m_period;
  ++m_decisions;
  m_cal.at<&IngressPipeline::on_decision>(t, Phase::kDecision, this, p);
}

void IngressPipeline::on_decision(Packet* p) {
  --m_decisions;
  if (!mmu->admit(*p)) {
    m_pool.put(p);
    return;
  }
  if (bfc.size()) bfc->enqueue(*p);  // BFC queue assignment and backpressure
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  to_egress[p->out_port]->nb_transport_fw(*p, ph, t);
}

}  // namespace mmusim
