#include "host/host.h"

#include <algorithm>

#include "bfc/flow_table.h"
#include "common/sim_time.h"

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
  m_ready[queue_of(id)].push_back(id);
  try_send();
}

tlm::tlm_sync_enum Host::on_rx_fw(int, Packet& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
  expect_begin_req(ph, name());
  m_arrivals.push(now_ps() + t.value(), &p);
  if (p.kind == Packet::Kind::kData) ++m_rx_data_pending;
  m_rx_ev.notify(ps(m_arrivals.next_time() - now_ps()));
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
      Flow& f = m_flows[p->flow];
      f.received_bytes += std::min<uint64_t>(p->bytes, f.bytes - f.received_bytes);
      if (f.received_bytes == f.bytes) f.finish_ps = now;
    }
    m_pool.put(p);
  }
  if (!m_arrivals.empty()) m_rx_ev.notify(ps(m_arrivals.next_time() - now));
}

void Host::try_send() {
  if (m_busy) return;
  const uint64_t now = now_ps();
  while (!m_waiting.empty() && m_waiting.next_time() <= now) {
    const uint32_t id = m_waiting.top();
    m_waiting.pop();
    m_ready[queue_of(id)].push_back(id);
  }
  const int nq = int(m_ready.size());
  int prio = -1;  // the queue to serve (a priority without BFC)
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
    uint64_t wake = m_pause.next_expiry(blocked, now);
    if (!m_waiting.empty() && (wake == 0 || m_waiting.next_time() < wake)) wake = m_waiting.next_time();
    if (wake) m_wake.notify(ps(wake - now));
    return;
  }
  m_rr = (prio + 1) % nq;
  auto& ready = m_ready[size_t(prio)];
  const uint32_t id = ready.front();
  ready.pop_front();
  Flow& f = m_flows[id];
  const uint64_t chunk = std::min<uint64_t>(f.packet_bytes, f.bytes - f.sent_bytes);
  Packet* p = m_pool.get();
  p->bytes = uint32_t(std::max<uint64_t>(64, chunk));  // Ethernet minimum frame
  p->flow = id;
  p->tuple = f.tuple;
  p->dscp = f.dscp;
  p->pcp = f.pcp;
  p->upstream_q = uint16_t(prio);
  f.sent_bytes += chunk;
  ++f.packets_sent;
  ++m_injected;
  if (f.sent_bytes < f.bytes) {
    if (f.rate_bps && f.rate_bps < m_rate_bps) {
      // Open loop: paced from the flow's start, so time lost to a pause is caught up at
      // line rate, as a source with a backlog would.
      const uint64_t next = f.start_ps + serialization_ps(f.sent_bytes, f.rate_bps);
      m_waiting.push(std::max(next, now), id);
    } else {
      ready.push_back(id);
    }
  }
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
