#include "pfc/pfc_generator.h"

#include <algorithm>

#include "common/sim_time.h"
#include "pfc/pfc_frame.h"

namespace mmusim {

PfcGenerator::PfcGenerator(sc_core::sc_module_name name, const Scenario& sc, uint32_t switch_id,
                           PacketPool& pool)
    : sc_module(name), out("out"), event_export("event_export"), m_sc(sc), m_switch_id(switch_id),
      m_pool(pool), m_queue_paused(sc.ports(), 0), m_port_paused(sc.ports(), 0), m_paused(sc.ports(), 0),
      m_refresh_at(sc.ports(), 0),
      m_since(size_t(sc.ports()) * Scenario::kPrios, 0) {
  out.register_nb_transport_bw(this, &PfcGenerator::nb_transport_bw);
  event_export.bind(*this);
  for (uint32_t port = 0; port < sc.ports(); ++port) {
    auto& v = m_pg_prios.emplace_back();
    for (uint32_t pg = 0; pg < Scenario::kPrios; ++pg) v[pg] = sc.pg_priorities(port, pg);
  }
  for (const auto& p : sc.topo.ports) {
    const uint64_t pause = pause_quanta_to_ps(sc.pfc.pause_quanta, p.rate_bps);
    m_refresh_every.push_back(std::max<uint64_t>(1, uint64_t(double(pause) * sc.pfc.refresh_fraction)));
  }
}

void PfcGenerator::send(uint32_t port, uint8_t class_enable, uint8_t pause_mask) {
  Packet* p = m_pool.get();
  p->kind = Packet::Kind::kPfc;
  p->bytes = kPfcFrameBytes;
  p->pfc.src_mac = port_mac(m_switch_id, port);
  p->pfc.class_enable = class_enable;
  for (int i = 0; i < 8; ++i)
    if (class_enable >> i & 1) p->pfc.quanta[size_t(i)] = (pause_mask >> i & 1) ? m_sc.pfc.pause_quanta : 0;
  if (pause_mask & class_enable) ++m_pause_frames;
  else ++m_resume_frames;
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  out[int(port)]->nb_transport_fw(*p, ph, t);
}

uint64_t PfcGenerator::clip(uint64_t a, uint64_t b) const {
  a = std::max(a, m_sc.measure_start_ps);
  b = std::min(b, m_sc.measure_end_ps);
  return b > a ? b - a : 0;
}

void PfcGenerator::pfc_event(uint32_t port, uint8_t pg, admission::PfcEvent e) {
  const uint8_t bit = uint8_t(1u << pg);
  if (e == admission::PfcEvent::kXoff) {
    ++m_xoff;
    m_queue_paused[port] |= bit;
  } else if (e == admission::PfcEvent::kXon) {
    ++m_xon;
    m_queue_paused[port] &= uint8_t(~bit);
  }
  update(port);
}

void PfcGenerator::port_pfc_event(uint32_t port, admission::PfcEvent e) {
  if (e == admission::PfcEvent::kXoff) ++m_xoff;
  if (e == admission::PfcEvent::kXon) ++m_xon;
  m_port_paused[port] = e == admission::PfcEvent::kXoff ? 1 : 0;
  update(port);
}

void PfcGenerator::update(uint32_t port) {
  const uint64_t now = now_ps();
  uint8_t want = 0xFF;
  if (!m_port_paused[port]) {
    want = 0;
    for (uint32_t pg = 0; pg < Scenario::kPrios; ++pg)
      if (m_queue_paused[port] >> pg & 1) want |= m_pg_prios[port][pg];
  }
  const uint8_t changed = uint8_t(want ^ m_paused[port]);
  if (!changed) return;
  for (uint32_t q = 0; q < Scenario::kPrios; ++q) {
    if (!(changed >> q & 1)) continue;
    const size_t i = size_t(port) * Scenario::kPrios + q;
    if (want >> q & 1) m_since[i] = now;
    else m_paused_closed += clip(m_since[i], now);
  }
  m_paused[port] = want;
  if (want & changed) {
    // An XOFF frame carries the whole paused set, so it refreshes every paused class and
    // the refresh period restarts from it: the next refresh is one period after the
    // latest XOFF, never at the phase of an earlier pause episode.
    send(port, uint8_t(changed | want), want);
    m_refresh_at[port] = now + m_refresh_every[port];
    m_cal.at<&PfcGenerator::on_refresh>(m_refresh_at[port], Phase::kRefresh, this, port);
  } else {
    send(port, changed, want);
    if (!want) m_refresh_at[port] = 0;  // nothing left to refresh; its timer entry is stale
  }
}

void PfcGenerator::on_refresh(uint32_t port) {
  const uint64_t now = now_ps();
  if (m_refresh_at[port] != now) return;  // superseded
  if (m_paused[port] == 0) {
    m_refresh_at[port] = 0;
    return;
  }
  // One frame refreshes every paused priority of the port.
  send(port, m_paused[port], m_paused[port]);
  m_refresh_at[port] = now + m_refresh_every[port];
  m_cal.at<&PfcGenerator::on_refresh>(m_refresh_at[port], Phase::kRefresh, this, port);
}

uint64_t PfcGenerator::paused_ps(uint64_t now) const {
  uint64_t total = m_paused_closed;
  for (uint32_t p = 0; p < m_paused.size(); ++p)
    for (uint32_t q = 0; q < Scenario::kPrios; ++q)
      if (m_paused[p] >> q & 1) total += clip(m_since[size_t(p) * Scenario::kPrios + q], now);
  return total;
}

uint32_t PfcGenerator::xoff_states() const {
  uint32_t n = 0;
  for (size_t p = 0; p < m_queue_paused.size(); ++p) n += uint32_t(__builtin_popcount(m_queue_paused[p])) + m_port_paused[p];
  return n;
}

uint32_t PfcGenerator::paused_queues() const {
  uint32_t n = 0;
  for (uint8_t m : m_paused) n += uint32_t(__builtin_popcount(m));
  return n;
}

}  // namespace mmusim
