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
  rx.register_nb_transport_fw(this, &Host::on_rx_fw);
  tx.register_nb_transport_bw(this, &Host::on_tx_bw);
  SC_HAS_PROCESS(Host);
  SC_METHOD(on_rx);
  sensitive << m_rx_ev;
  dont_initialize();
  SC_METHOD(on_tx_done);
  sensitive << m_tx_done;
  dont_initialize();
  SC_METHOD(try_send);
  sensitive << m_wake;
  dont_initialize();
}

uint64_t Host::paused_ps() const { return m_pause.paused_ps(now_ps()); }

void Host::enable_acks(const HostCfg& cfg, uint8_t ack_prio) {
  m_acks = &cfg;
  m_ack_prio = ack_prio;
}

void Host::enable_bfc(uint32_t queues) {
  m_bfc = true;
  m_ready.assign(queues, {});
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
  enqueue(id, now_ps(), now_ps());
  try_send();
}

void Host::enqueue(uint32_t id, uint64_t eligible_ps, uint64_t now) {
  m_flows[id].queued = true;
  if (eligible_ps > now) m_waiting.push(eligible_ps, id);
  else m_ready[queue_of(id)].push_back(id);
}

tlm::tlm_sync_enum Host::on_rx_fw(int, Packet& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
  expect_begin_req(ph, name());
  const uint64_t now = now_ps();
  m_arrivals.push(now + t.value(), &p);
  if (p.kind == Packet::Kind::kData) ++m_rx_data_pending;
  m_rx_ev.notify(ps(m_arrivals.next_time() - now));
  return tlm::TLM_COMPLETED;
}

void Host::on_rx() {
  const uint64_t now = now_ps();
  while (!m_arrivals.empty() && m_arrivals.next_time() <= now) {
    Packet* p = m_arrivals.top();
    m_arrivals.pop();
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
      } else if (m_acks) {
        receive_data(*p, now);
      } else {
        Flow& f = m_flows[p->flow];
        f.received_bytes += std::min<uint64_t>(p->bytes, f.bytes - f.received_bytes);
        if (f.received_bytes == f.bytes) f.finish_ps = now;
      }
    }
    m_pool.put(p);
  }
  if (!m_arrivals.empty()) m_rx_ev.notify(ps(m_arrivals.next_time() - now));
}

// Go-back-N receiver: only the next expected byte is accepted; every data packet, in order
// or not, is acknowledged once with its send time, its arrival time and the cumulative ack.
void Host::receive_data(Packet& p, uint64_t now) {
  Flow& f = m_flows[p.flow];
  if (p.seq == f.received_bytes) {
    f.received_bytes += std::min<uint64_t>(p.bytes, f.bytes - f.received_bytes);
    if (f.received_bytes == f.bytes) f.finish_ps = now;
  } else {
    ++m_ackc.out_of_order;
  }
  Packet* a = m_pool.get();
  a->ack = true;
  a->bytes = m_acks->ack_bytes;
  a->flow = p.flow;
  a->tuple = FiveTuple{p.tuple.dst_ip, p.tuple.src_ip, p.tuple.dst_port, p.tuple.src_port, p.tuple.proto};
  a->dscp = m_acks->ack_dscp;
  a->seq = p.seq;
  a->tx_ps = p.tx_ps;
  a->rx_ps = now;
  a->cum_ack = f.received_bytes;
  m_ack_q.push_back(a);
  try_send();
}

void Host::receive_ack(const Packet& a, uint64_t now) {
  ++m_ackc.acks_received;
  Flow& f = m_flows[a.flow];
  ++f.acks;
  f.last_owd_ps = a.rx_ps - a.tx_ps;
  if (a.cum_ack > f.acked_bytes) {
    f.acked_bytes = a.cum_ack;
    // After a spurious rewind the originals' ACKs can overtake the resend point.
    f.sent_bytes = std::max(f.sent_bytes, f.acked_bytes);
    f.rto_deadline_ps = 0;
    if (f.acked_bytes < f.highest_sent) arm_timeout(f, now);
  }
  // The receiver saw a gap: go back to its first missing byte. ACKs of packets sent before
  // the last rewind report the same gap and must not rewind again.
  if (a.seq > a.cum_ack && a.tx_ps > f.rewind_ps && f.sent_bytes > f.acked_bytes) {
    ++m_ackc.rewinds;
    rewind(f, now);
  }
  try_send();
}

void Host::rewind(Flow& f, uint64_t now) {
  f.sent_bytes = f.acked_bytes;
  f.rewind_ps = now;
  if (!f.queued) enqueue(f.id, now, now);
}

void Host::arm_timeout(Flow& f, uint64_t now) {
  f.rto_deadline_ps = now + m_acks->rto_ps;
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
    m_ready[queue_of(id)].push_back(id);
  }
  if (!m_ack_q.empty() && !m_pause.paused(m_ack_prio, now)) {
    Packet* a = m_ack_q.front();
    m_ack_q.pop_front();
    ++m_ackc.acks_sent;
    ++m_injected;
    transmit(a);
    return;
  }
  const int nq = int(m_ready.size());
  int prio = -1;  // the queue served (a priority without BFC)
  uint32_t id = 0;
  for (;;) {
    prio = -1;
    for (int k = 0; k < nq; ++k) {
      const int q = (m_rr + k) % nq;
      if (!m_ready[size_t(q)].empty() && !queue_paused(size_t(q), now)) {
        prio = q;
        break;
      }
    }
    if (prio < 0) {
      uint8_t blocked = 0;  // priorities whose PFC pause holds a queue
      for (int q = 0; q < nq; ++q)
        if (!m_ready[size_t(q)].empty() && !(m_bfc && m_bfc_paused.test(uint32_t(q))))
          blocked |= uint8_t(1u << (m_bfc ? m_flows[m_ready[size_t(q)].front()].prio : q));
      if (!m_ack_q.empty()) blocked |= uint8_t(1u << m_ack_prio);
      uint64_t wake = m_pause.next_expiry(blocked, now);
      if (!m_waiting.empty() && (wake == 0 || m_waiting.next_time() < wake)) wake = m_waiting.next_time();
      if (!m_rto.empty() && (wake == 0 || m_rto.next_time() < wake)) wake = m_rto.next_time();
      if (wake) m_wake.notify(ps(wake - now));
      return;
    }
    m_rr = (prio + 1) % nq;
    auto& ready = m_ready[size_t(prio)];
    id = ready.front();
    ready.pop_front();
    Flow& f = m_flows[id];
    if (f.sent_bytes == f.bytes) {  // a rewind was overtaken by ACKs: nothing left to send
      f.queued = false;
      continue;
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
  const uint64_t chunk = std::min<uint64_t>(f.packet_bytes, f.bytes - f.sent_bytes);
  Packet* p = m_pool.get();
  p->bytes = uint32_t(std::max<uint64_t>(64, chunk));  // Ethernet minimum frame
  p->flow = id;
  p->tuple = f.tuple;
  p->dscp = f.dscp;
  p->pcp = f.pcp;
  p->seq = f.sent_bytes;
  p->tx_ps = now;
  if (f.sent_bytes < f.highest_sent) ++m_ackc.retransmitted;
  p->upstream_q = uint16_t(prio);
  f.sent_bytes += chunk;
  f.highest_sent = std::max(f.highest_sent, f.sent_bytes);
  ++f.packets_sent;
  ++m_injected;
  if (m_acks && f.rto_deadline_ps == 0) arm_timeout(f, now);
  if (f.sent_bytes < f.bytes) {
    if (f.rate_bps && f.rate_bps < m_rate_bps) {
      // Open loop: paced from the flow's start, so time lost to a pause is caught up at
      // line rate, as a source with a backlog would.
      const uint64_t next = f.start_ps + serialization_ps(f.sent_bytes, f.rate_bps);
      m_waiting.push(std::max(next, now), id);
    } else {
      m_ready[queue_of(id)].push_back(id);
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
  tx->nb_transport_fw(*p, ph, t);
  m_tx_done.notify(t);
}

void Host::on_tx_done() {
  m_busy = false;
  try_send();
}

}  // namespace mmusim
