#include "pfcwd/pfc_watchdog.h"

#include "common/sim_time.h"

namespace mmusim {

PfcWatchdog::PfcWatchdog(sc_core::sc_module_name name, const Scenario& sc, const std::vector<EgressPort*>& egress,
                         PacketPool& pool)
    : sc_module(name), m_cfg(sc.pfc_wd), m_egress(egress), m_counters(sc.ports()) {
  for (const auto& p : sc.topo.ports) m_names.push_back(p.name);
  for (uint32_t port = 0; port < sc.ports(); ++port) {
    const auto& pc = m_cfg.ports[port];
    if (!pc.enabled) continue;
    // SONiC watches the queue of each watched priority (here through pfc_to_queue_map).
    for (uint8_t q = 0; q < Scenario::kPrios; ++q) {
      uint8_t prios = 0;
      for (uint32_t p = 0; p < Scenario::kPrios; ++p)
        if ((pc.priorities >> p & 1) && sc.buffer.pfc_to_queue[port][p] == q) prios |= uint8_t(1u << p);
      if (!prios) continue;
      Queue w;
      w.port = port;
      w.queue = q;
      w.prios = prios;
      w.detect_left = pc.detection_ps;
      w.restore_left = pc.restoration_ps;
      m_queues.push_back(w);
    }
    m_egress[port]->enable_watchdog([this] { arm(); }, [&pool](Packet& p) { pool.put(&p); });
  }
  SC_HAS_PROCESS(PfcWatchdog);
  SC_METHOD(poll);
  sensitive << m_poll_ev;
  dont_initialize();
}

void PfcWatchdog::arm() {
  if (m_polling) return;
  m_polling = true;
  const uint64_t now = now_ps(), p = m_cfg.poll_ps;
  m_poll_ev.notify(ps((now / p + 1) * p - now));
}

void PfcWatchdog::mitigate(const Queue& w) {
  uint8_t ignore = 0, drop = 0;
  for (const Queue& q : m_queues)
    if (q.port == w.port && q.stormed) {
      const auto a = m_cfg.ports[q.port].action;
      if (a != PfcWatchdogCfg::Action::kAlert) ignore |= uint8_t(1u << q.queue);
      if (a == PfcWatchdogCfg::Action::kDrop) drop |= uint8_t(1u << q.queue);
    }
  m_egress[w.port]->set_watchdog_queues(ignore, drop);
}

// pfc_detect_*.lua and pfc_restore.lua as of their classic form: per poll, a queue is in a
// storm when it was paused at this poll and the last, pause frames for it arrived and no
// resume in between, and it holds packets yet sent none; detection when the remaining
// time is at most one poll, else the remaining time drops by one poll; any other poll
// resets it. Restoration counts polls without a pause frame the same way.
void PfcWatchdog::poll() {
  const uint64_t now = now_ps(), period = m_cfg.poll_ps;
  bool busy = false;
  for (Queue& w : m_queues) {
    const EgressPort& e = *m_egress[w.port];
    const auto& pc = m_cfg.ports[w.port];
    uint64_t rx = 0, xon = 0;
    for (uint32_t p = 0; p < Scenario::kPrios; ++p)
      if (w.prios >> p & 1) rx += e.pfc_rx_pause(p), xon += e.pfc_rx_resume(p);
    const bool paused = e.any_paused(w.prios);
    const uint64_t tx = e.queue_tx(w.queue);
    const bool alert = pc.action == PfcWatchdogCfg::Action::kAlert;
    if (w.have_last && (!w.stormed || alert)) {
      const bool storm = paused && w.paused_last && rx > w.rx_last && xon == w.xon_last &&
                         e.queue_len(w.queue) > 0 && tx == w.tx_last;
      if (w.stormed && !storm) {  // alert: restored as soon as the storm is gone
        w.stormed = false;
        ++m_counters[w.port].restored;
        m_counters[w.port].last_restore_ps = now;
      } else if (!w.stormed && storm && w.detect_left <= period) {
        w.stormed = true;
        w.detect_left = pc.detection_ps;
        w.restore_left = pc.restoration_ps;
        if (!m_counters[w.port].storms++) m_counters[w.port].first_storm_ps = now;
        mitigate(w);
      } else if (!w.stormed) {
        w.detect_left = storm ? w.detect_left - period : pc.detection_ps;
      }
    } else if (w.have_last && w.stormed) {
      if (rx != w.rx_last) {
        w.restore_left = pc.restoration_ps;
      } else if (w.restore_left <= period) {
        w.stormed = false;
        w.restore_left = pc.restoration_ps;
        ++m_counters[w.port].restored;
        m_counters[w.port].last_restore_ps = now;
        mitigate(w);
      } else {
        w.restore_left -= period;
      }
    }
    w.have_last = true;
    w.paused_last = paused;
    w.rx_last = rx;
    w.xon_last = xon;
    w.tx_last = tx;
    busy |= paused || w.stormed;
  }
  if (busy) {
    m_poll_ev.notify(ps(period));
    return;
  }
  // Idle until the next PFC frame; the first poll after it only records a baseline, as a
  // poll whose predecessor saw no pause cannot count.
  m_polling = false;
  for (Queue& w : m_queues) w.have_last = false;
}

uint64_t PfcWatchdog::drops() const {
  uint64_t n = 0;
  for (uint32_t port = 0; port < m_egress.size(); ++port)
    if (m_cfg.ports[port].enabled) n += m_egress[port]->watchdog_drops();
  return n;
}

nlohmann::json PfcWatchdog::summary() const {
  nlohmann::json ports = nlohmann::json::object();
  uint64_t storms = 0, restored = 0;
  for (uint32_t port = 0; port < m_egress.size(); ++port) {
    if (!m_cfg.ports[port].enabled) continue;
    const PortCounters& c = m_counters[port];
    storms += c.storms;
    restored += c.restored;
    nlohmann::json pj = {{"storms_detected", c.storms},
                         {"storms_restored", c.restored},
                         {"dropped", m_egress[port]->watchdog_drops()}};
    pj["first_storm_ns"] = c.storms ? nlohmann::json(double(c.first_storm_ps) / 1e3) : nlohmann::json();
    pj["last_restore_ns"] = c.restored ? nlohmann::json(double(c.last_restore_ps) / 1e3) : nlohmann::json();
    ports[m_names[port]] = pj;
  }
  return {{"storms_detected", storms}, {"storms_restored", restored}, {"dropped", drops()}, {"ports", ports}};
}

}  // namespace mmusim
