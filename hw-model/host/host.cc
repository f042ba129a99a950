#include "host/host.h"

#include <algorithm>

#include "bfc/flow_table.h"
#include "common/sim_time.h"
#include "host/smart_pause.h"

namespace mmusim {

Host::Host(sc_core::sc_module_name name, uint32_t index, uint64_t rate_bps, FlowTable& flows,
           PacketPool& pool)
    : sc_module(name), rx("rx"), tx("tx"), m_index(index), m_rate_bps(rate_bps), m_flows(flows),
      m_pool(pool), m_pause(rate_bps), m_ready(8) {
  rx.bind(*this);
  tx.register_nb_transport_bw(this, &Host::on_tx_bw);
}

uint64_t Host::paused_ps() const { return m_pause.paused_ps(now_ps()); }

void Host::enable_acks(const HostCfg& cfg, uint8_t ack_prio) {
  m_acks = &cfg;
  m_ack_prio = ack_prio;
}

void Host::enable_bfc(uint32_t queues) {
  m_bfc = true;
  m_ready.assign(queues, {});
  m_ready_bits = {};
  m_rr = 0;  // the round robin stays within the queues
}

size_t Host::queue_of(uint32_t flow) const {
  const Flow& f = m_flows[flow];
  return m_bfc ? bfc_flow_hash(f.tuple) % m_ready.size() : f.prio;
}

bool Host::queue_paused(size_t q, uint64_t now) const {
  if (!m_bfc) return m_pause.paused(uint8_t(q), now);
  return m_bfc_paused.test(uint32_t(q)) || m_pause.paused(m_flows[m_ready[q].front()].prio, now);
}

void Host::start_flow(uint32_t id) {
  Flow& f = m_flows[id];
  if (f.transport != TransportKind::kNone && m_acks) {
    auto t = make_transport(f.transport, m_acks->transport, m_rate_bps, f.packet_bytes, f.base_rtt_ps);
    sat_inc(tc(f).flows);
    if (m_cc_free.empty()) {
      f.cc = uint32_t(m_cc.size());
      m_cc.push_back(std::move(t));
    } else {
      f.cc = m_cc_free.back();
      m_cc_free.pop_back();
      m_cc[f.cc] = std::move(t);
    }
  }
  enqueue(id, now_ps(), now_ps());
  try_send();
}

void Host::enqueue(uint32_t id, uint64_t eligible_ps, uint64_t now) {
  m_flows[id].queued = true;
  if (eligible_ps > now) m_waiting.push(eligible_ps, id);
  else ready_push(queue_of(id), id);
}

tlm::tlm_sync_enum Host::nb_transport_fw(Packet& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
  expect_begin_req(ph, name());
  const uint64_t arrival = now_ps() + t.value();
  if (p.kind == Packet::Kind::kData) {
    // Without ACKs a data frame's arrival counts it and its flow's bytes, which nothing
    // reads before the run ends: done now, at its arrival time, if that is within the run
    // (a calendar entry costs more than the frame's whole receipt).
    if (!m_acks && !p.ack && !p.cnp && m_cal.runs(arrival)) {
      ++m_delivered;
      receive_plain(p, arrival);
      m_pool.put(&p);
      return tlm::TLM_COMPLETED;
    }
    ++m_rx_data_pending;
  }
  m_cal.at<&Host::on_rx>(arrival, Phase::kArrival, this, &p);
  return tlm::TLM_COMPLETED;
}

void Host::receive_plain(const Packet& p, uint64_t at) {
  Flow& f = m_flows[p.flow];
  f.received_bytes += std::min<uint64_t>(p.bytes - f.int_header_bytes, f.bytes - f.received_bytes);
  if (f.received_bytes == f.bytes) f.finish_ps = at;
}

void Host::on_rx(Packet* p) {
  const uint64_t now = now_ps();
  if (p->kind == Packet::Kind::kPfc) {
    ++m_pfc_rx;
    m_pause.apply(p->pfc, now);
    try_send();
  } else if (p->kind == Packet::Kind::kBfc) {
    if (!m_bfc) SC_REPORT_ERROR(name(), "BFC frame received by a NIC without BFC queues");
    ++m_bfc_rx;
    m_bfc_paused = p->bfc.paused;
    try_send();
  } else {
    --m_rx_data_pending;
    ++m_delivered;
    if (p->ack) {
      receive_ack(*p, now);
    } else if (p->cnp) {
      receive_cnp(*p, now);
    } else if (m_acks) {
      receive_data(*p, now);
    } else {
      receive_plain(*p, now);
    }
  }
  m_pool.put(p);
}

// Go-back-N receiver: only the next expected byte is accepted; every data packet, in order
// or not, is acknowledged once with its send time, its arrival time and the cumulative ack.
void Host::receive_data(Packet& p, uint64_t now) {
  Flow& f = m_flows[p.flow];
  const bool tcp = f.transport == TransportKind::kDctcp || f.transport == TransportKind::kCubic;
  const uint64_t carried = p.bytes - f.int_header_bytes;  // flow bytes (a short last frame: padding too)
  if (p.seq == f.received_bytes) {
    f.received_bytes += std::min<uint64_t>(carried, f.bytes - f.received_bytes);
    // A TCP receiver's kept data that now follows in order.
    while (!f.ooo.empty() && f.ooo.front().first <= f.received_bytes) {
      f.received_bytes = std::max(f.received_bytes, f.ooo.front().second);
      f.ooo.erase(f.ooo.begin());
    }
    if (f.received_bytes == f.bytes) f.finish_ps = now;
  } else if (tcp && p.seq > f.received_bytes) {
    sat_inc(tc(f).out_of_order_kept);
    keep_out_of_order(f, p.seq, p.seq + std::min<uint64_t>(carried, f.bytes - p.seq));
  } else {
    ++m_ackc.out_of_order;
  }
  Packet* a = reply(p);
  a->ack = true;
  a->seq = p.seq;
  a->tx_ps = p.tx_ps;
  a->rx_ps = now;
  a->cum_ack = f.received_bytes;
  a->ece = p.ecn == 3;  // CE
  a->int_echo_hops = p.int_hops;
  std::copy(p.int_stack.begin(), p.int_stack.begin() + p.int_hops, a->int_echo.begin());
  m_ack_q.push_back(a);
  ++m_ack_n;
  // DCQCN NP: a CE-marked packet gets the sender a CNP, at most one per flow per interval.
  if (f.transport == TransportKind::kDcqcn && p.ecn == 3 &&
      (!f.cnp_sent || now >= f.last_cnp_ps + m_acks->transport.dcqcn.cnp_interval_ps)) {
    f.cnp_sent = true;
    f.last_cnp_ps = now;
    sat_inc(tc(f).cnps_sent);
    Packet* c = reply(p);
    c->cnp = true;
    m_ack_q.push_back(c);
    ++m_ack_n;
  }
  try_send();
}

// Inserts [b, e) into the flow's sorted, disjoint out-of-order ranges, merging neighbours.
void Host::keep_out_of_order(Flow& f, uint64_t b, uint64_t e) {
  auto& r = f.ooo;
  auto it = std::lower_bound(r.begin(), r.end(), std::make_pair(b, uint64_t(0)));
  if (it != r.begin() && std::prev(it)->second >= b) --it;
  while (it != r.end() && it->first <= e) {
    b = std::min(b, it->first);
    e = std::max(e, it->second);
    it = r.erase(it);
  }
  r.insert(it, {b, e});
}

// A control frame from this receiver back to p's sender, in the ACK class.
Packet* Host::reply(const Packet& p) {
  Packet* a = m_pool.get();
  a->bytes = m_acks->ack_bytes;
  a->flow = p.flow;
  a->tuple = FiveTuple{p.tuple.dst_ip, p.tuple.src_ip, p.tuple.dst_port, p.tuple.src_port, p.tuple.proto};
  a->dscp = m_acks->ack_dscp;
  return a;
}

void Host::receive_cnp(const Packet& c, uint64_t now) {
  ++m_ackc.acks_received;
  const Flow& f = m_flows[c.flow];
  sat_inc(tc(f).cnps_received);
  if (Transport* t = transport(f)) t->on_cnp(now);
}

void Host::release_transport(Flow& f) {
  m_cc[f.cc].reset();
  m_cc_free.push_back(f.cc);
  f.cc = Flow::kNoTransport;
}

void Host::receive_ack(const Packet& a, uint64_t now) {
  ++m_ackc.acks_received;
  Flow& f = m_flows[a.flow];
  ++f.acks;
  f.last_owd_ps = a.rx_ps - a.tx_ps;
  // The receiver saw a gap (a packet past its next expected byte, sent after the last rewind).
  const bool gap = a.seq > a.cum_ack && a.tx_ps > f.rewind_ps && f.sent_bytes > f.acked_bytes;
  Transport* t = transport(f);
  bool retransmit = false;
  if (t) {
    AckEvent e;
    e.cum_ack = a.cum_ack;
    e.newly_acked = a.cum_ack > f.acked_bytes ? a.cum_ack - f.acked_bytes : 0;
    e.dup = gap && e.newly_acked == 0;
    e.ece = a.ece;
    e.rtt_ps = now - a.tx_ps;
    e.snd_nxt = f.highest_sent;
    e.int_hops = a.int_echo.data();
    e.int_n = a.int_echo_hops;
    if (a.ece) sat_inc(tc(f).ece_acks);
    retransmit = t->on_ack(e, now);
  }
  if (a.cum_ack > f.acked_bytes) {
    f.acked_bytes = a.cum_ack;
    // After a spurious rewind the originals' ACKs can overtake the resend point.
    f.sent_bytes = std::max(f.sent_bytes, f.acked_bytes);
    f.rto_deadline_ps = 0;
    if (f.acked_bytes < f.highest_sent) arm_timeout(f, now);
  }
  // The receiver saw a gap: go back to its first missing byte. ACKs of packets sent before
  // the last rewind report the same gap and must not rewind again.
  if (t && t->own_loss_detection()) {
    // TCP: resend the first unacknowledged segment, then go on from SND.NXT.
    if (retransmit && f.acked_bytes < f.highest_sent) {
      sat_inc(tc(f).fast_retransmits);
      f.retx_pending = true;
    }
  } else if (gap) {
    ++m_ackc.rewinds;
    rewind(f, now);
  }
  if (t) {
    if (f.acked_bytes == f.bytes) release_transport(f);
    else if (!f.queued && (f.sent_bytes < f.bytes || f.retx_pending)) enqueue(f.id, now, now);  // the window may have opened
  }
  try_send();
}

void Host::rewind(Flow& f, uint64_t now) {
  f.sent_bytes = f.acked_bytes;
  f.rewind_ps = now;
  if (!f.queued) enqueue(f.id, now, now);
}

void Host::arm_timeout(Flow& f, uint64_t now) {
  const Transport* t = transport(f);
  const uint64_t dflt = f.rto_ps ? f.rto_ps : m_acks->rto_ps;
  f.rto_deadline_ps = now + (t ? t->rto_ps(dflt) : dflt);
  m_rto.push(f.rto_deadline_ps, f.id);
}

void Host::check_timeouts(uint64_t now) {
  while (!m_rto.empty() && m_rto.next_time() <= now) {
    const uint64_t t = m_rto.next_time();
    Flow& f = m_flows[m_rto.top()];
    m_rto.pop();
    if (f.rto_deadline_ps != t) continue;  // re-armed or stopped since
    f.rto_deadline_ps = 0;
    if (f.acked_bytes < f.highest_sent) {
      ++m_ackc.timeouts;
      if (Transport* tr = transport(f)) {
        sat_inc(tc(f).timeouts);
        tr->on_timeout(f.highest_sent - f.acked_bytes, now);
      }
      rewind(f, now);
    }
  }
}

void Host::try_send() {
  if (m_busy) return;
  const uint64_t now = now_ps();
  if (m_acks) check_timeouts(now);
  while (!m_waiting.empty() && m_waiting.next_time() <= now) {
    const uint32_t id = m_waiting.top();
    m_waiting.pop();
    ready_push(queue_of(id), id);
  }
  if (m_ack_n && !m_pause.paused(m_ack_prio, now)) {
    Packet* a = m_ack_q.front();
    m_ack_q.pop_front();
    --m_ack_n;
    ++m_ackc.acks_sent;
    ++m_injected;
    transmit(a);
    return;
  }
  const int nq = int(m_ready.size());
  int prio = -1;  // the queue served (a priority without BFC)
  uint32_t id = 0;
  for (;;) {
    // The first non-empty queue that may send, from m_rr on, cyclically.
    prio = -1;
    if (!m_bfc) {
      // A queue per priority, eight: which may send is one word (the queue scan cost some
      // 50 instructions a frame).
      prio = first_from(m_ready_bits.w[0] & ~uint64_t(m_pause.paused_mask(now)), m_rr);
    } else {
      for (int q = int(m_ready_bits.next(uint32_t(m_rr))); q < nq && prio < 0; q = int(m_ready_bits.next(uint32_t(q + 1))))
        if (!queue_paused(size_t(q), now)) prio = q;
      for (int q = int(m_ready_bits.next(0)); q < m_rr && prio < 0; q = int(m_ready_bits.next(uint32_t(q + 1))))
        if (!queue_paused(size_t(q), now)) prio = q;
    }
    if (prio < 0) {
      uint8_t blocked = 0;  // priorities whose PFC pause holds a queue
      for (int q = int(m_ready_bits.next(0)); q < nq; q = int(m_ready_bits.next(uint32_t(q + 1))))
        if (!(m_bfc && m_bfc_paused.test(uint32_t(q))))
          blocked |= uint8_t(1u << (m_bfc ? m_flows[m_ready[size_t(q)].front()].prio : q));
      if (m_ack_n) blocked |= uint8_t(1u << m_ack_prio);
      uint64_t wake = m_pause.next_expiry(blocked, now);
      if (!m_waiting.empty() && (wake == 0 || m_waiting.next_time() < wake)) wake = m_waiting.next_time();
      if (!m_rto.empty() && (wake == 0 || m_rto.next_time() < wake)) wake = m_rto.next_time();
      if (wake) wake_at(wake);
      return;
    }
    m_rr = prio + 1 == nq ? 0 : prio + 1;
    auto& ready = m_ready[size_t(prio)];
    id = ready.front();
    ready.pop_front();
    if (ready.empty()) m_ready_bits.set(uint32_t(prio), false);
    Flow& f = m_flows[id];
    if (f.sent_bytes == f.bytes && !f.retx_pending) {  // a rewind was overtaken by ACKs: nothing left to send
      f.queued = false;
      continue;
    }
    const Transport* tw = transport(f);
    if (tw && !f.retx_pending) {  // window: one packet always goes when none is in flight
      const uint64_t flight = f.sent_bytes - f.acked_bytes;
      if (flight && flight + std::min<uint64_t>(f.packet_bytes, f.bytes - f.sent_bytes) > tw->window_bytes()) {
        sat_inc(tc(f).window_blocked);
        f.queued = false;  // an ACK that opens the window queues it again
        continue;
      }
    }
    if (m_acks && m_acks->smart_pause && !f.hold_served) {
      const uint64_t hold = smart_pause_hold_ps(*m_acks, f.acks > 0, f.last_owd_ps, f.switch_hops);
      if (hold) {
        f.hold_served = true;
        ++m_ackc.holds;
        m_ackc.held_ps += hold;
        m_waiting.push(now + hold, id);
        continue;
      }
    }
    f.hold_served = false;
    break;
  }
  Flow& f = m_flows[id];
  // A TCP fast retransmission sends the segment at SND.UNA and leaves SND.NXT where it is.
  const bool retx = f.retx_pending && f.acked_bytes < f.bytes;
  f.retx_pending = false;
  const uint64_t seq = retx ? f.acked_bytes : f.sent_bytes;
  const uint64_t chunk = std::min<uint64_t>(f.packet_bytes, f.bytes - seq);
  Packet* p = m_pool.get();
  // An INT class's frame carries the INT header on top of its chunk (HPCC's ns-3: payload + headers).
  p->bytes = uint32_t(std::max<uint64_t>(64, chunk + f.int_header_bytes));  // Ethernet minimum frame
  p->flow = id;
  p->tuple = f.tuple;
  p->dscp = f.dscp;
  p->ecn = f.ecn;
  p->pcp = f.pcp;
  p->seq = seq;
  p->tx_ps = now;
  Transport* t = transport(f);
  if (t) {
    t->advance(now);
    t->on_send(p->bytes, now);
    if (t->ect()) p->ecn = 2;  // ECT(0)
  }
  if (seq < f.highest_sent) ++m_ackc.retransmitted;
  p->upstream_q = uint16_t(prio);
  if (!retx) f.sent_bytes += chunk;
  f.highest_sent = std::max(f.highest_sent, f.sent_bytes);
  ++f.packets_sent;
  ++m_injected;
  if (m_acks && f.rto_deadline_ps == 0) arm_timeout(f, now);
  if (f.sent_bytes < f.bytes) {
    // A transport's pacing rate spaces its packets by their frame time at that rate.
    const uint64_t cc_next = t && t->rate_bps() < m_rate_bps ? now + serialization_ps(p->bytes, t->rate_bps()) : 0;
    if (f.rate_bps && f.rate_bps < m_rate_bps) {
      // Open loop: paced from the flow's start, so time lost to a pause is caught up at
      // line rate, as a source with a backlog would.
      const uint64_t next = f.start_ps + serialization_ps(f.sent_bytes, f.rate_bps);
      m_waiting.push(std::max({next, now, cc_next}), id);
    } else if (cc_next) {
      m_waiting.push(cc_next, id);
    } else {
      ready_push(queue_of(id), id);
    }
  } else {
    f.queued = false;
  }
  transmit(p);
}

void Host::transmit(Packet* p) {
  m_busy = true;
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  m_tx->nb_transport_fw(*p, ph, t);
  m_cal.at<&Host::on_tx_done>(now_ps() + t.value(), Phase::kDeparture, this);
}

void Host::wake_at(uint64_t t) {
  if (m_wake_at != 0 && m_wake_at <= t) return;
  m_wake_at = t;
  m_cal.at<&Host::on_wake>(t, Phase::kRetry, this);
}

void Host::on_wake() {
  if (now_ps() != m_wake_at) return;  // superseded by an earlier retry
  m_wake_at = 0;
  try_send();
}

void Host::on_tx_done() {
  m_busy = false;
  try_send();
}

}  // namespace mmusim
