#include "ingress/ingress_pipeline.h"

#include <stdexcept>
#include <string>

#include "common/sim_time.h"
#include "config/topology.h"  // ecmp_pick

namespace mmusim {

IngressPipeline::IngressPipeline(sc_core::sc_module_name name, IngressConfig cfg, PacketPool& pool)
    : sc_module(name), from_link("from_link", this), to_egress("to_egress"), pause("pause"), mmu("mmu"),
      m_cfg(std::move(cfg)), m_pool(pool), m_period(m_cfg.clock_period_ps),
      m_latency(uint64_t(m_cfg.pipeline_latency_cycles) * m_cfg.clock_period_ps), m_pipes(m_cfg.pipelines) {
  to_egress.register_nb_transport_bw(this, &IngressPipeline::nb_transport_bw);
}

void IngressPipeline::end_of_elaboration() {
  m_mmu = mmu.operator->();
  m_verdict_delay = m_mmu->verdict_delay_ps();
  if (bfc.size()) m_bfc_unit = bfc.operator->();
  for (unsigned i = 0; i < to_egress.size(); ++i) m_egress.push_back(to_egress[int(i)]);
}

void IngressPipeline::add_route(uint32_t dst_ip, const std::vector<uint16_t>& ports) {
  if (m_fib.empty()) m_fib_base = dst_ip;
  const uint32_t lo = std::min(m_fib_base, dst_ip);
  const uint64_t hi = std::max<uint64_t>(uint64_t(m_fib_base) + m_fib.size(), uint64_t(dst_ip) + 1);
  if (hi - lo > kFibSpan)
    throw std::invalid_argument(std::string(name()) + ": route destinations span more than " +
                                std::to_string(kFibSpan) + " addresses");
  if (lo < m_fib_base) m_fib.insert(m_fib.begin(), m_fib_base - lo, Route{});
  m_fib_base = lo;
  m_fib.resize(size_t(hi - lo));
  Route& r = m_fib[dst_ip - lo];
  r.n = uint16_t(ports.size());
  r.port = ports.empty() ? 0 : ports[0];
  r.first = uint32_t(m_hops.size());
  m_hops.insert(m_hops.end(), ports.begin(), ports.end());
}

tlm::tlm_sync_enum IngressPipeline::nb_transport_fw(int port, Packet& p, tlm::tlm_phase& ph,
                                                    sc_core::sc_time& t) {
  expect_begin_req(ph, name());
  p.in_port = uint16_t(port);
  const uint64_t arrival = now_ps() + t.value();
  if (p.kind == Packet::Kind::kData) {
    const uint32_t i = p.tuple.dst_ip - m_fib_base;
    if (i < m_fib.size() && m_fib[i].n) {
      const Route& r = m_fib[i];
      const FiveTuple& ft = p.tuple;
      p.out_port = r.n == 1 ? r.port
                            : m_hops[r.first + ecmp_pick(m_ecmp_seed, m_switch_id, ft.src_ip, ft.dst_ip, ft.src_port,
                                                         ft.dst_port, ft.proto, r.n)];
      p.tc = m_cfg.classifiers[p.in_port].classify(p.dscp, p.pcp);
      p.prio = m_cfg.tc_to_pg[p.in_port][p.tc];
      if (p.bytes != m_last_bytes) {  // frames mostly repeat a size: reuse its cells
        m_last_bytes = p.bytes;
        m_last_cells = (p.bytes + m_cfg.cell_bytes - 1) / m_cfg.cell_bytes;
      }
      p.cells = m_last_cells;
      enqueue(&p, arrival);
      return tlm::TLM_COMPLETED;
    }
    ++m_arrivals_data;
  }
  m_cal.at<&IngressPipeline::on_arrival>(arrival, Phase::kArrival, this, &p);
  return tlm::TLM_COMPLETED;
}

void IngressPipeline::on_arrival(Packet* p) {
  if (p->kind == Packet::Kind::kPfc) {
    // MAC control frames stop at the MAC: they pause this port's transmitter.
    ++m_rx_pfc;
    pause[p->in_port]->pfc_received(p->pfc);
  } else if (p->kind == Packet::Kind::kBfc) {
    ++m_rx_bfc;
    pause[p->in_port]->bfc_received(p->bfc);
  } else {  // a data frame with no route
    --m_arrivals_data;
    ++m_rx_data;
    ++m_no_route;
  }
  m_pool.put(p);
}

void IngressPipeline::enqueue(Packet* p, uint64_t arrival) {
  Pipeline& pl = m_pipes[m_pipes.size() == 1 ? 0 : p->in_port % m_pipes.size()];
  const Waiting w{arrival, m_cal.reserve(), p};
  ++m_waiting;
  if (pl.empty() || !w.before(pl.w.back())) {
    pl.w.push_back(w);
    if (pl.w.size() - pl.head > 1) return;
  } else {  // a shorter frame or a shorter path overtook
    const auto at = std::upper_bound(pl.w.begin() + std::ptrdiff_t(pl.head), pl.w.end(), w,
                                     [](const Waiting& a, const Waiting& b) { return a.before(b); });
    const bool head = at == pl.w.begin() + std::ptrdiff_t(pl.head);
    pl.w.insert(at, w);
    if (!head) return;
  }
  set_due(pl);  // a new head: its decision may come before the pending one
  if (pl.due < m_due) {
    m_due = pl.due;
    m_cal.at<&IngressPipeline::on_decisions>(m_due, Phase::kDecision, this);
  }
}

void IngressPipeline::on_decisions() {
  const uint64_t t = now_ps();
  if (t != m_due) return;  // superseded by an earlier head
  if (m_pipes.size() == 1) {
    Pipeline& pl = m_pipes[0];
    Packet* p = pl.front().p;
    pl.pop_front();
    pl.next_slot = t + m_period;
    m_due = kNone;
    if (!pl.empty()) {
      set_due(pl);
      m_due = pl.due;
      m_cal.at<&IngressPipeline::on_decisions>(m_due, Phase::kDecision, this);
    }
    --m_waiting;
    ++m_rx_data;
    decide(p);
    return;
  }
  // This edge's decisions, in the order of their arrival entries; the next edge with one.
  m_batch.clear();
  uint64_t next = kNone;
  for (Pipeline& pl : m_pipes) {
    if (pl.empty()) continue;
    if (pl.due == t) {
      m_batch.push_back(pl.front());
      pl.pop_front();
      pl.next_slot = t + m_period;
      if (pl.empty()) continue;
      set_due(pl);
    }
    next = std::min(next, pl.due);
  }
  // At most one frame per pipeline, mostly in order already: an insertion sort, without
  // std::sort's set-up (the keys are distinct, so the order is the same).
  for (size_t i = 1; i < m_batch.size(); ++i) {
    const Waiting w = m_batch[i];
    size_t j = i;
    for (; j > 0 && w.before(m_batch[j - 1]); --j) m_batch[j] = m_batch[j - 1];
    m_batch[j] = w;
  }
  m_due = next;
  if (m_due != kNone) m_cal.at<&IngressPipeline::on_decisions>(m_due, Phase::kDecision, this);
  m_waiting -= m_batch.size();
  m_rx_data += m_batch.size();
  for (const Waiting& w : m_batch) decide(w.p);
}

uint64_t IngressPipeline::received_data() const {
  // Waiting frames whose arrival time has come have been received.
  uint64_t n = m_rx_data;
  for (const Pipeline& pl : m_pipes)
    for (size_t i = pl.head; i < pl.w.size(); ++i) n += m_cal.ran(pl.w[i].arrival, Phase::kArrival, pl.w[i].seq);
  return n;
}

void IngressPipeline::decide(Packet* p) {
  if (!m_mmu->admit(*p)) {
    m_pool.put(p);
    return;
  }
  if (m_verdict_delay) {
    ++m_admitted;
    m_cal.at<&IngressPipeline::forward_admitted>(now_ps() + m_verdict_delay, Phase::kDecision, this, p);
  } else {
    forward(p);
  }
}

void IngressPipeline::forward(Packet* p) {
  if (m_bfc_unit) m_bfc_unit->enqueue(*p);  // BFC queue assignment and backpressure
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  m_egress[p->out_port]->nb_transport_fw(*p, ph, t);
}

}  // namespace mmusim
