#pragma once
// Host NIC: a traffic source and sink that obeys PFC. Flows are pulled packet by packet
// when the link is free (round robin over unpaused priorities, then over flows), so a
// paused flow builds no queue of materialised packets; rate-limited flows wait for their
// next eligible time. With host.acks the receiver acknowledges every data packet (an ACK
// frame sent ahead of data), the sender recovers losses by go-back-N and, with Smart-Pause,
// holds a flow's next packet while its last measured one-way delay is above T.
// With BFC (enable_bfc) the NIC keeps one queue per flow hash
// (bfc.queues_per_port of them) instead of one per priority, stamps upstreamQ and obeys
// BFC frames; PFC still pauses the priority of a queue's head flow.
#include <array>
#include <deque>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/protocol.h"
#include "bfc/bfc_frame.h"
#include "common/calendar.h"
#include "common/timed_queue.h"
#include "config/block_config.h"
#include "host/flow.h"
#include "host/transport/transport.h"
#include "host/transport_counters.h"
#include "pfc/pause_timers.h"

namespace mmusim {

class Host : public sc_core::sc_module, public FrameTarget {
 public:
  FrameTarget::Socket<> rx;
  tlm_utils::simple_initiator_socket<Host, 32, PacketProtocol> tx;

  Host(sc_core::sc_module_name name, uint32_t index, uint64_t rate_bps, FlowTable& flows, PacketPool& pool);
  // ACKs (and Smart-Pause if cfg says so); ack_prio: the ACK's class at this host's switch port.
  void enable_acks(const HostCfg& cfg, uint8_t ack_prio);
  void start_flow(uint32_t id);
  // BFC: `queues` NIC queues, a flow in queue bfc_flow_hash(5-tuple) % queues (before running).
  void enable_bfc(uint32_t queues);

  uint64_t injected() const { return m_injected; }
  uint64_t delivered() const { return m_delivered; }
  uint64_t pending_rx_data() const { return m_rx_data_pending; }
  uint64_t pfc_received() const { return m_pfc_rx; }
  uint64_t bfc_received() const { return m_bfc_rx; }
  const QueueMask& bfc_paused() const { return m_bfc_paused; }
  uint64_t paused_ps() const;
  struct AckCounters {
    uint64_t acks_sent = 0, acks_received = 0;
    uint64_t out_of_order = 0;   // data discarded by the go-back-N receiver
    uint64_t rewinds = 0, timeouts = 0, retransmitted = 0;
    uint64_t holds = 0, held_ps = 0;  // Smart-Pause
  };
  const AckCounters& ack_counters() const { return m_ackc; }
  // Per transport (CNPs also count in acks_sent / acks_received: control frames from the
  // receiver; timeouts in timeouts).
  const TransportCounterSet& transport_counters() const { return m_tc; }
  const TransportCounters& transport_counters(TransportKind k) const { return m_tc[size_t(k)]; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(Packet& p, tlm::tlm_phase& ph, sc_core::sc_time& t) override;  // rx
  tlm::tlm_sync_enum on_tx_bw(Packet&, tlm::tlm_phase&, sc_core::sc_time&) { return tlm::TLM_COMPLETED; }
  void on_rx(Packet* p);
  // A data frame without ACKs, arrived at `at`: its bytes to its flow.
  void receive_plain(const Packet& p, uint64_t at);
  void try_send();
  void on_tx_done();
  void wake_at(uint64_t t);  // retry at t; an earlier pending retry stands
  void on_wake();
  void enqueue(uint32_t id, uint64_t eligible_ps, uint64_t now);
  void receive_data(Packet& p, uint64_t now);
  void receive_ack(const Packet& a, uint64_t now);
  void receive_cnp(const Packet& c, uint64_t now);
  Packet* reply(const Packet& p);
  TransportCounters& tc(const Flow& f) { return m_tc[size_t(f.transport)]; }
  Transport* transport(const Flow& f) { return f.cc == Flow::kNoTransport ? nullptr : m_cc[f.cc].get(); }
  void release_transport(Flow& f);
  static void keep_out_of_order(Flow& f, uint64_t b, uint64_t e);
  void rewind(Flow& f, uint64_t now);
  void check_timeouts(uint64_t now);
  void arm_timeout(Flow& f, uint64_t now);
  void transmit(Packet* p);
  void end_of_elaboration() override { m_tx = tx.operator->(); }
  size_t queue_of(uint32_t flow) const;
  bool queue_paused(size_t q, uint64_t now) const;

  // What a send reads, in the first aligned lines; the rest after.
  alignas(64) bool m_busy = false;
  bool m_bfc = false;
  int m_rr = 0;
  uint32_t m_ack_n = 0;  // m_ack_q's size
  uint32_t m_index;
  uint64_t m_rate_bps;
  FlowTable& m_flows;
  PacketPool& m_pool;
  const HostCfg* m_acks = nullptr;  // null: no ACKs
  tlm::tlm_fw_transport_if<PacketProtocol>* m_tx = nullptr;  // tx's interface
  uint64_t m_injected = 0;
  Calendar::Client m_cal;
  uint64_t m_wake_at = 0;  // pending retry, 0 = none
  PauseTimers m_pause;
  std::vector<std::deque<uint32_t>> m_ready;  // per queue: flows with a packet eligible now
  // The queues of m_ready that hold a flow: the round robin reads these words, not every
  // queue's deque (eight of them span ten cache lines, cold at each frame in a large network).
  QueueMask m_ready_bits;
  void ready_push(size_t q, uint32_t id) {
    m_ready[q].push_back(id);
    m_ready_bits.set(uint32_t(q), true);
  }
  QueueMask m_bfc_paused;
  TimedQueue<uint32_t> m_waiting;               // rate-limited flows, by eligible time
  uint64_t m_rx_data_pending = 0;
  uint64_t m_delivered = 0, m_pfc_rx = 0, m_bfc_rx = 0;
  uint8_t m_ack_prio = 0;
  std::deque<Packet*> m_ack_q;     // ACKs go ahead of data
  TimedQueue<uint32_t> m_rto;      // flows by retransmission deadline (stale entries skipped)
  AckCounters m_ackc;
  TransportCounterSet m_tc{};
  std::vector<std::unique_ptr<Transport>> m_cc;  // per-flow transports, by Flow::cc
  std::vector<uint32_t> m_cc_free;               // released slots
};

}  // namespace mmusim
