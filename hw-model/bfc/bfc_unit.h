#pragma once
// BFC unit of one switch (bfc-nsdi22 §3.3, §4): flow table and queue assignment, queue
// lengths per egress (port, queue), the Th lookup table, pause counters per (ingress port,
// upstreamQ), and the BFC frames that carry pause/resume/refresh upstream through the
// control queue of the ingress port's own transmitter. Event-driven: it acts on enqueue,
// departure and, while some upstream queue is paused, on the periodic refresh.
#include <cstdint>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>

#include "bfc/bfc_if.h"
#include "bfc/flow_table.h"
#include "bfc/pause_counters.h"
#include "bfc/threshold_table.h"
#include "common/calendar.h"
#include "common/protocol.h"
#include "config/scenario.h"
#include "stats/time_weighted.h"

namespace mmusim {

class BfcUnit : public sc_core::sc_module, public BfcIf {
 public:
  // Bound to every egress port, in port order (frames go to their control queue).
  tlm_utils::multi_passthrough_initiator_socket<BfcUnit, 32, PacketProtocol> out;
  sc_core::sc_export<BfcIf> bfc_export;

  BfcUnit(sc_core::sc_module_name name, const Scenario& sc, uint32_t switch_id, PacketPool& pool);

  void enqueue(Packet& p) override;
  void depart(const Packet& p) override;
  void peer_paused(uint32_t port, const QueueMask& paused) override;

  const BfcPauseCounters& counters() const { return m_counters; }
  // Longest time an upstream queue stayed paused (open pauses up to `now`).
  uint64_t longest_pause_ps(uint64_t now) const;
  // bfc_queues.csv (output.bfc_queues): every sample interval, one row per non-empty queue.
  void enable_queue_series(std::ostream* out);
  // Closes the time-weighted statistics; then stats() is final.
  void finish(uint64_t now);
  nlohmann::json stats() const;

 private:
  tlm::tlm_sync_enum nb_transport_bw(int, Packet&, tlm::tlm_phase&, sc_core::sc_time&) {
    return tlm::TLM_COMPLETED;
  }
  void send(uint32_t port, BfcFrame::Op op, uint16_t queue);
  void sample_until(uint64_t t);
  void on_refresh();
  // Queue length of (port, q) changes by +/- cells; keeps bitmap, N_active and statistics.
  void change_queue(uint32_t port, uint32_t q, int64_t delta_cells);
  bool is_active(uint32_t port, uint32_t q) const {
    return m_qlen[size_t(port) * m_nq + q] > 0 && !m_peer_paused[port].test(q);
  }

  const Scenario& m_sc;
  uint32_t m_switch_id;
  PacketPool& m_pool;
  uint32_t m_nq;
  BfcFlowTable m_table;
  BfcPauseCounters m_counters;
  BfcThresholdTable m_th;
  std::vector<uint8_t> m_suppress;        // [in * ports + out]
  std::vector<uint32_t> m_qlen;           // cells per (port, queue)
  std::vector<uint64_t> m_port_cells;     // per port
  std::vector<uint32_t> m_busy;           // per port: non-empty queues
  std::vector<uint32_t> m_active;         // per port: non-empty and not paused by the peer
  std::vector<QueueMask> m_peer_paused;   // per port
  std::vector<uint64_t> m_pause_since;    // per (in port, upstreamQ): when the counter left 0
  uint64_t m_longest_closed_ps = 0;
  bool m_refresh_armed = false;
  Calendar::Client m_cal;
  // Statistics.
  std::vector<TimeWeighted> m_bytes_tw, m_busy_tw, m_empty_tw;  // per port
  std::vector<uint32_t> m_max_queue_cells;                      // per port
  uint64_t m_pause_frames = 0, m_resume_frames = 0, m_refresh_frames = 0;
  uint64_t m_counted = 0, m_suppressed = 0;
  std::ostream* m_series = nullptr;
  uint64_t m_next_sample = 0;
};

}  // namespace mmusim
