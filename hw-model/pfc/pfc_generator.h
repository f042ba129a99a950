#pragma once
// PFC generator: turns the admission core's XOFF/XON per ingress (port, PG), and per port
// for DSH, into 802.1Qbb frames queued at the port's transmitter. A PG's XOFF pauses its
// priority vector (the PFC-enabled TCs that map to it); a priority is paused upstream while
// a PG it belongs to OR its port is paused; each change of that set sends
// one frame (pause quanta for every paused class when a class is newly paused, zero for
// resumed ones), and paused classes are refreshed every refresh period counted from the
// port's latest XOFF frame, before their pause expires.
#include <array>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>

#include "common/calendar.h"
#include "common/packet.h"
#include "common/protocol.h"
#include "config/scenario.h"
#include "pfc/pfc_event_if.h"

namespace mmusim {

class PfcGenerator : public sc_core::sc_module, public PfcEventIf {
 public:
  // Bound to every egress port, in port order.
  tlm_utils::multi_passthrough_initiator_socket<PfcGenerator, 32, PacketProtocol> out;
  sc_core::sc_export<PfcEventIf> event_export;

  PfcGenerator(sc_core::sc_module_name name, const Scenario& sc, uint32_t switch_id, PacketPool& pool);

  void pfc_event(uint32_t port, uint8_t pg, admission::PfcEvent e) override;
  void port_pfc_event(uint32_t port, admission::PfcEvent e) override;

  uint64_t pause_frames() const { return m_pause_frames; }
  uint64_t resume_frames() const { return m_resume_frames; }
  uint64_t xoff_events() const { return m_xoff; }
  uint64_t xon_events() const { return m_xon; }
  // Queue- and port-level XOFF states still set: xoff_events - xon_events.
  uint32_t xoff_states() const;
  // Sum over (port, priority) of time in the paused state, within the measurement window.
  uint64_t paused_ps(uint64_t now) const;
  uint32_t paused_queues() const;

 private:
  tlm::tlm_sync_enum nb_transport_bw(int, Packet&, tlm::tlm_phase&, sc_core::sc_time&) {
    return tlm::TLM_COMPLETED;
  }
  void send(uint32_t port, uint8_t class_enable, uint8_t pause_mask);
  // Recompute the port's effective paused set and signal the difference upstream.
  void update(uint32_t port);
  void on_refresh(uint32_t port);
  uint64_t clip(uint64_t a, uint64_t b) const;

  const Scenario& m_sc;
  uint32_t m_switch_id;
  PacketPool& m_pool;
  std::vector<uint8_t> m_queue_paused;    // per port, bit per PG: PG-level XOFF
  std::vector<std::array<uint8_t, 8>> m_pg_prios;  // per port and PG: its priority vector
  std::vector<uint8_t> m_port_paused;     // per port: port-level XOFF
  std::vector<uint8_t> m_paused;          // per port: effective paused set sent upstream
  std::vector<uint64_t> m_refresh_at;     // per port, 0 = none pending
  std::vector<uint64_t> m_refresh_every;  // per port
  std::vector<uint64_t> m_since;          // per (port, prio): XOFF time
  uint64_t m_paused_closed = 0;
  Calendar::Client m_cal;
  uint64_t m_pause_frames = 0, m_resume_frames = 0, m_xoff = 0, m_xon = 0;
};

}  // namespace mmusim
