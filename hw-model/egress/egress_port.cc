#include "egress/egress_port.h"

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "common/sim_time.h"

namespace mmusim {

EgressPort::EgressPort(sc_core::sc_module_name name, uint32_t port, uint64_t link_bps,
                       uint32_t dwrr_quantum)
    : sc_module(name), in("in"), to_link("to_link"), pause_export("pause_export"), mmu("mmu"),
      m_quantum(dwrr_quantum), m_port(port), m_q(kQueues), m_pause(link_bps) {
  in.bind(*this);
  to_link.register_nb_transport_bw(this, &EgressPort::nb_transport_bw);
  pause_export.bind(*this);
  SC_HAS_PROCESS(EgressPort);
  // A pause ends without an event of its own: while traced, this wakes at each expiry.
  SC_METHOD(trace_pause);
  sensitive << m_tr_ev;
  dont_initialize();
}

uint64_t EgressPort::now() { return now_ps(); }

void EgressPort::end_of_elaboration() {
  m_link = to_link.operator->();
  m_mmu = mmu.operator->();
  m_dequeue = m_mmu->wants_dequeue();
  if (bfc.size()) m_bfc_unit = bfc.operator->();
}

tlm::tlm_sync_enum EgressPort::nb_transport_fw(Packet& p, tlm::tlm_phase& phase, sc_core::sc_time&) {
  expect_begin_req(phase, name());
  if (p.kind != Packet::Kind::kData) {
    m_ctrl.push_back(&p);
    ++m_ctrl_len;
  }
  else if (const size_t q = m_bfc ? p.queue : m_tc_queue[p.tc]; m_wd_drop >> q & 1) wd_drop(p);
  else {
    m_q[q].push(&p);
    m_nonempty.set(uint32_t(q), true);
  }
  try_send();
  return tlm::TLM_COMPLETED;
}

void EgressPort::set_class_maps(const std::array<uint8_t, 8>& tc_to_queue, const std::array<uint8_t, 8>& pfc_to_queue) {
  m_tc_queue = tc_to_queue;
  m_queue_prios.fill(0);
  for (int p = 0; p < 8; ++p) m_queue_prios[pfc_to_queue[size_t(p)]] |= uint8_t(1u << p);
}

void EgressPort::pfc_received(const PfcFrame& f) {
  m_pause.apply(f, now());
  for (int p = 0; p < 8; ++p)
    if (f.class_enable >> p & 1) ++(f.quanta[size_t(p)] ? m_pfc_rx : m_pfc_xon)[size_t(p)];
  if (m_wd_on_pfc) m_wd_on_pfc();
  if (m_tr_paused) trace_pause();
  try_send();  // a resume may unblock a queue
}

void EgressPort::enable_watchdog(std::function<void()> on_pfc, std::function<void(Packet&)> drop) {
  m_wd_on_pfc = std::move(on_pfc);
  m_wd_drop_fn = std::move(drop);
}

void EgressPort::wd_drop(Packet& p) {
  ++m_wd_drops;
  mmu->depart(p);
  m_wd_drop_fn(p);
}

void EgressPort::set_watchdog_queues(uint8_t ignore_pause, uint8_t drop) {
  const uint8_t flush = uint8_t(drop & ~m_wd_drop);
  m_wd_ignore = ignore_pause;
  m_wd_drop = drop;
  for (size_t q = 0; q < m_q.size() && q < 8; ++q)
    if (flush >> q & 1) {
      while (m_q[q].head) wd_drop(*m_q[q].pop());
      m_nonempty.set(uint32_t(q), false);
      m_q[q].deficit = 0;
    }
  try_send();  // an ignored pause may unblock a queue
}

void EgressPort::trace(sc_core::sc_trace_file* tf) {
  m_tr_paused = std::make_unique<bool[]>(kQueues);
  for (int q = 0; q < kQueues; ++q)
    sc_core::sc_trace(tf, m_tr_paused[size_t(q)], std::string(name()) + ".tx_paused" + std::to_string(q));
}

void EgressPort::trace_pause() {
  const uint64_t t = now();
  for (int q = 0; q < kQueues; ++q) m_tr_paused[size_t(q)] = m_pause.any_paused(m_queue_prios[size_t(q)], t);
  if (const uint64_t e = m_pause.next_expiry(0xff, t)) m_tr_ev.notify(ps(e - t));
}

void EgressPort::enable_bfc(uint32_t queues) {
  m_bfc = true;
  m_q.assign(queues, {});
}

void EgressPort::bfc_received(const BfcFrame& f) {
  if (!m_bfc) SC_REPORT_ERROR(name(), "BFC frame received by an egress port without BFC queues");
  m_bfc_paused = f.paused;
  if (bfc.size()) bfc->peer_paused(m_port, m_bfc_paused);
  try_send();  // a resume may unblock a queue
}

// PFC pauses the queues its priorities map to; with BFC, a queue waits while the class
// queue of the frame at its head is PFC-paused.
bool EgressPort::queue_paused(size_t q, uint64_t t) const {
  if (!m_bfc) return !(m_wd_ignore >> q & 1) && m_pause.any_paused(m_queue_prios[q], t);
  return m_bfc_paused.test(uint32_t(q)) || m_pause.any_paused(m_queue_prios[m_tc_queue[m_q[q].head->tc]], t);
}

void EgressPort::for_each_queued(const std::function<void(const Packet&, int, bool)>& fn) const {
  const uint64_t t = now();
  for (size_t q = 0; q < m_q.size(); ++q)
    for (const Packet* p = m_q[q].head; p; p = p->next) fn(*p, int(q), queue_paused(q, t));
  if (m_busy && m_on_wire.kind == Packet::Kind::kData) fn(m_on_wire, -1, false);
}

uint64_t EgressPort::queued_data() const {
  // A frame being serialised is already counted by the receiver it travels to.
  uint64_t n = 0;
  for (const auto& q : m_q) n += q.len;
  return n;
}

int EgressPort::next_sendable(int from, uint64_t t) const {
  const int nq = int(m_q.size());
  for (int q = next_nonempty(from); q < nq; q = next_nonempty(q + 1))
    if (!queue_paused(size_t(q), t)) return q;
  for (int q = next_nonempty(0); q < from; q = next_nonempty(q + 1))
    if (!queue_paused(size_t(q), t)) return q;
  return -1;
}

int EgressPort::next_nonempty(int from) const {
  for (int w = from / 64; w < int(m_nonempty.w.size()); ++w) {
    uint64_t bits = m_nonempty.w[size_t(w)];
    if (w == from / 64) bits &= ~uint64_t(0) << (from % 64);
    if (bits) return w * 64 + __builtin_ctzll(bits);
  }
  return int(kBfcMaxQueues);
}

uint64_t EgressPort::sendable_bits(uint64_t t) const {
  const uint64_t full = m_nonempty.w[0];
  const uint8_t prios = m_pause.paused_mask(t);
  if (!prios) return full;  // mostly: no pause running
  uint64_t held = 0;
  for (int q = 0; q < kQueues; ++q)
    if ((m_queue_prios[size_t(q)] & prios) && !(m_wd_ignore >> q & 1)) held |= uint64_t(1) << q;
  return full & ~held;
}

// Inlined into try_send (as a call it saved and restored registers, some 15 instructions a
// frame); the BFC walk stays out of line.
[[gnu::always_inline]] inline int EgressPort::pick_dwrr(uint64_t t) {
  if (m_bfc) return [this, t]() __attribute__((noinline)) { return dwrr([&](int from) { return next_sendable(from, t); }); }();
  // Eight queues: which may send is one word, read once per pick.
  const uint64_t s = sendable_bits(t);
  return dwrr([s](int from) { return first_from(s, from); });
}

template <class Next>
int EgressPort::dwrr(Next next) {
  // DWRR's walk from m_rr, jumping over queues that are empty or paused (passing one ends
  // the turn and its quantum). An emptied queue's credit is cleared where it empties
  // (try_send), so idle queues hold none.
  int q = next(m_rr);
  if (q < 0) return -1;
  const int nq = int(m_q.size());
  for (;;) {
    if (q != m_rr) {
      m_rr = q;
      m_quantum_given = false;
    }
    Queue& qu = m_q[size_t(q)];
    if (!m_quantum_given) {
      qu.deficit += m_quantum;
      m_quantum_given = true;
    }
    const uint32_t need = qu.head->bytes;
    if (qu.deficit >= need) {
      qu.deficit -= need;
      return q;
    }
    m_quantum_given = false;
    q = next(q + 1 == nq ? 0 : q + 1);
  }
}

// A frame is some 460 bytes (PFC/BFC payloads, INT stacks); its departure (MMU, BFC unit,
// deadlock check) reads only fields of its first line, before `next`: one block copy.
void EgressPort::keep_on_wire(const Packet& p) {
  static_assert(std::is_trivially_copyable_v<PacketHead> && std::is_standard_layout_v<PacketHead>);
  constexpr size_t kRead = offsetof(PacketHead, next);
  static_assert(offsetof(PacketHead, kind) < kRead && offsetof(PacketHead, bytes) < kRead &&
                offsetof(PacketHead, flow) < kRead && offsetof(PacketHead, tuple) < kRead &&
                offsetof(PacketHead, prio) < kRead && offsetof(PacketHead, tc) < kRead &&
                offsetof(PacketHead, cells) < kRead && offsetof(PacketHead, in_port) < kRead &&
                offsetof(PacketHead, out_port) < kRead && offsetof(PacketHead, headroom) < kRead &&
                offsetof(PacketHead, upstream_q) < kRead && offsetof(PacketHead, queue) < kRead &&
                offsetof(PacketHead, bfc_slot) < kRead && offsetof(PacketHead, bfc_counted) < kRead,
                "departure reads fields before Packet::next");
  std::memcpy(static_cast<void*>(&m_on_wire), static_cast<const void*>(&p), kRead);
}

void EgressPort::try_send() {
  if (m_busy) return;
  Packet* p = nullptr;
  const uint64_t t_now = now();
  if (m_ctrl_len) {
    p = m_ctrl.front();
    m_ctrl.pop_front();
    --m_ctrl_len;
  } else {
    const int q = pick_dwrr(t_now);
    if (q < 0) {
      uint8_t waiting = 0;  // priorities whose PFC pause holds a queue
      for (int i = next_nonempty(0); i < int(m_q.size()); i = next_nonempty(i + 1))
        if (!(m_bfc && m_bfc_paused.test(uint32_t(i))))
          waiting |= m_queue_prios[m_bfc ? m_tc_queue[m_q[size_t(i)].head->tc] : size_t(i)];
      if (const uint64_t t = m_pause.next_expiry(waiting, t_now)) wake_at(t);
      return;
    }
    Queue& qu = m_q[size_t(q)];
    p = qu.pop();
    ++qu.tx;
    if (!qu.head) {  // textbook DWRR: an emptied queue loses its credit and turn
      m_nonempty.set(uint32_t(q), false);
      qu.deficit = 0;
      m_rr = q + 1 == int(m_q.size()) ? 0 : q + 1;
      m_quantum_given = false;
    }
  }
  if (m_dequeue && p->kind == Packet::Kind::kData) m_mmu->dequeue(*p);  // ECN marking at dequeue, INT
  m_busy = true;
  keep_on_wire(*p);
  if (m_bfc && p->kind == Packet::Kind::kData) p->upstream_q = p->queue;  // the next hop's upstreamQ
  if (m_tx_hook) m_tx_hook(*p, t_now);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  m_link->nb_transport_fw(*p, phase, t);
  m_cal.at<&EgressPort::on_tx_done>(t_now + t.value(), Phase::kDeparture, this);
}

void EgressPort::wake_at(uint64_t t) {
  if (m_wake_at != 0 && m_wake_at <= t) return;
  m_wake_at = t;
  m_cal.at<&EgressPort::on_wake>(t, Phase::kRetry, this);
}

void EgressPort::on_wake() {
  if (now() != m_wake_at) return;  // superseded by an earlier retry
  m_wake_at = 0;
  try_send();
}

void EgressPort::on_tx_done() {
  m_busy = false;
  // The last cell has left the buffer.
  if (m_on_wire.kind == Packet::Kind::kData) {
    ++m_tx_data;
    m_mmu->depart(m_on_wire);
    if (m_bfc_unit) m_bfc_unit->depart(m_on_wire);
  } else if (m_on_wire.kind == Packet::Kind::kBfc) {
    ++m_tx_bfc;
  } else {
    ++m_tx_pfc;
  }
  try_send();
}

}  // namespace mmusim
