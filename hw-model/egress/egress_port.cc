#include "egress/egress_port.h"

#include "common/sim_time.h"

namespace mmusim {

EgressPort::EgressPort(sc_core::sc_module_name name, uint32_t port, uint64_t link_bps,
                       uint32_t dwrr_quantum)
    : sc_module(name), in("in"), to_link("to_link"), pause_export("pause_export"), mmu("mmu"),
      m_port(port), m_quantum(dwrr_quantum), m_q(kQueues), m_deficit(kQueues, 0), m_pause(link_bps) {
  in.register_nb_transport_fw(this, &EgressPort::nb_transport_fw);
  to_link.register_nb_transport_bw(this, &EgressPort::nb_transport_bw);
  pause_export.bind(*this);
  SC_HAS_PROCESS(EgressPort);
  SC_METHOD(on_tx_done);
  sensitive << m_tx_done;
  dont_initialize();
  SC_METHOD(try_send);
  sensitive << m_wake;
  dont_initialize();
  // A pause ends without an event of its own: while traced, this wakes at each expiry.
  SC_METHOD(trace_pause);
  sensitive << m_tr_ev;
  dont_initialize();
}

uint64_t EgressPort::now() { return now_ps(); }

tlm::tlm_sync_enum EgressPort::nb_transport_fw(int, Packet& p, tlm::tlm_phase& phase, sc_core::sc_time&) {
  expect_begin_req(phase, name());
  if (p.kind != Packet::Kind::kData) m_ctrl.push_back(&p);
  else m_q[m_bfc ? p.queue : p.prio].push_back(&p);
  try_send();
  return tlm::TLM_COMPLETED;
}

void EgressPort::pfc_received(const PfcFrame& f) {
  m_pause.apply(f, now());
  if (m_tr_paused) trace_pause();
  try_send();  // a resume may unblock a queue
}

void EgressPort::trace(sc_core::sc_trace_file* tf) {
  m_tr_paused = std::make_unique<bool[]>(kQueues);
  for (int q = 0; q < kQueues; ++q)
    sc_core::sc_trace(tf, m_tr_paused[size_t(q)], std::string(name()) + ".tx_paused" + std::to_string(q));
}

void EgressPort::trace_pause() {
  const uint64_t t = now();
  for (int q = 0; q < kQueues; ++q) m_tr_paused[size_t(q)] = m_pause.paused(uint8_t(q), t);
  if (const uint64_t e = m_pause.next_expiry(0xff, t)) m_tr_ev.notify(ps(e - t));
}

void EgressPort::enable_bfc(uint32_t queues) {
  m_bfc = true;
  m_q.assign(queues, {});
  m_deficit.assign(queues, 0);
}

void EgressPort::bfc_received(const BfcFrame& f) {
  if (!m_bfc) SC_REPORT_ERROR(name(), "BFC frame received by an egress port without BFC queues");
  m_bfc_paused = f.paused;
  if (bfc.size()) bfc->peer_paused(m_port, m_bfc_paused);
  try_send();  // a resume may unblock a queue
}

// BFC pauses queues; PFC still pauses the priority of the frame at a queue's head.
bool EgressPort::queue_paused(size_t q, uint64_t t) const {
  if (!m_bfc) return m_pause.paused(uint8_t(q), t);
  return m_bfc_paused.test(uint32_t(q)) || m_pause.paused(m_q[q].front()->prio, t);
}

void EgressPort::for_each_queued(const std::function<void(const Packet&, int, bool)>& fn) const {
  const uint64_t t = now();
  for (size_t q = 0; q < m_q.size(); ++q)
    for (const Packet* p : m_q[q]) fn(*p, int(q), queue_paused(q, t));
  if (m_busy && m_on_wire.kind == Packet::Kind::kData) fn(m_on_wire, -1, false);
}

uint64_t EgressPort::queued_data() const {
  // A frame being serialised is already counted by the receiver it travels to.
  uint64_t n = 0;
  for (const auto& q : m_q) n += q.size();
  return n;
}

int EgressPort::pick_dwrr(uint64_t t) {
  // An emptied queue's credit is cleared where it empties (try_send), so idle queues hold
  // none and the scan only needs one sendable queue to know the walk below ends.
  const int nq = int(m_q.size());
  int q0 = 0;
  while (q0 < nq && (m_q[size_t(q0)].empty() || queue_paused(size_t(q0), t))) ++q0;
  if (q0 == nq) return -1;
  for (;;) {
    const size_t q = size_t(m_rr);
    if (!m_q[q].empty() && !queue_paused(q, t)) {
      if (!m_quantum_given) {
        m_deficit[q] += m_quantum;
        m_quantum_given = true;
      }
      const uint32_t need = m_q[q].front()->bytes;
      if (m_deficit[q] >= need) {
        m_deficit[q] -= need;
        return int(q);
      }
    }
    m_rr = m_rr + 1 == nq ? 0 : m_rr + 1;
    m_quantum_given = false;
  }
}

void EgressPort::try_send() {
  if (m_busy) return;
  Packet* p = nullptr;
  const uint64_t t_now = now();
  if (!m_ctrl.empty()) {
    p = m_ctrl.front();
    m_ctrl.pop_front();
  } else {
    const int q = pick_dwrr(t_now);
    if (q < 0) {
      uint8_t waiting = 0;  // priorities whose PFC pause holds a queue
      for (size_t i = 0; i < m_q.size(); ++i)
        if (!m_q[i].empty() && !(m_bfc && m_bfc_paused.test(uint32_t(i))))
          waiting |= uint8_t(1u << (m_bfc ? m_q[i].front()->prio : i));
      if (const uint64_t t = m_pause.next_expiry(waiting, t_now)) m_wake.notify(ps(t - t_now));
      return;
    }
    p = m_q[size_t(q)].front();
    m_q[size_t(q)].pop_front();
    if (m_q[size_t(q)].empty()) {  // textbook DWRR: an emptied queue loses its credit and turn
      m_deficit[size_t(q)] = 0;
      m_rr = (q + 1) % int(m_q.size());
      m_quantum_given = false;
    }
  }
  m_busy = true;
  m_on_wire = *p;
  if (m_bfc && p->kind == Packet::Kind::kData) p->upstream_q = p->queue;  // the next hop's upstreamQ
  if (m_tx_hook) m_tx_hook(*p, t_now);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  to_link->nb_transport_fw(*p, phase, t);
  m_tx_done.notify(t);
}

void EgressPort::on_tx_done() {
  m_busy = false;
  // The last cell has left the buffer.
  if (m_on_wire.kind == Packet::Kind::kData) {
    ++m_tx_data;
    mmu->depart(m_on_wire);
    if (bfc.size()) bfc->depart(m_on_wire);
  } else if (m_on_wire.kind == Packet::Kind::kBfc) {
    ++m_tx_bfc;
  } else {
    ++m_tx_pfc;
  }
  try_send();
}

}  // namespace mmusim
