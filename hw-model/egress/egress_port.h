#pragma once
// Egress port of the switch: a strict-priority control queue (PFC and BFC frames) and DWRR
// among the eight data queues, skipping priorities paused by the peer. With BFC
// (enable_bfc) it has bfc.queues_per_port data queues chosen by the BFC unit, pauses
// queues as BFC frames from the peer say, and stamps upstreamQ on what it sends.
// Event-driven: it wakes on enqueue, end of transmission and pause expiry only.
#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "bfc/bfc_if.h"
#include "common/calendar.h"
#include "common/protocol.h"
#include "egress/pause_if.h"
#include "mmu/admission_if.h"
#include "pfc/pause_timers.h"

namespace mmusim {

class EgressPort : public sc_core::sc_module, public PauseIf, public FrameTarget {
 public:
  static constexpr int kQueues = 8;
  // Frames to send: data from the ingress pipeline, PFC frames from the generator.
  FrameTarget::Socket<0> in;
  tlm_utils::simple_initiator_socket<EgressPort, 32, PacketProtocol> to_link;
  sc_core::sc_export<PauseIf> pause_export;
  sc_core::sc_port<AdmissionIf> mmu;
  sc_core::sc_port<BfcIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND> bfc;  // bound when bfc.enabled

  // Called with each frame as it starts on the wire (pcap tap, frees).
  using FrameHook = std::function<void(const Packet&, uint64_t now_ps)>;

  EgressPort(sc_core::sc_module_name name, uint32_t port, uint64_t link_bps, uint32_t dwrr_quantum);
  void set_tx_hook(FrameHook h) { m_tx_hook = std::move(h); }
  // counters.vcd: per priority, whether the peer's PFC pauses this transmitter (before the
  // simulation starts; --vcd-signals pfc).
  void trace(sc_core::sc_trace_file* tf);

  // The port's TC -> queue map and the queue each received PFC priority pauses
  // (PORT_QOS_MAP tc_to_queue_map, pfc_to_queue_map); identity unless set.
  void set_class_maps(const std::array<uint8_t, 8>& tc_to_queue, const std::array<uint8_t, 8>& pfc_to_queue);
  void pfc_received(const PfcFrame& f) override;
  // PFC watchdog (pfcwd/pfc_watchdog.h): `on_pfc` runs at each received PFC frame; `drop`
  // takes each frame the watchdog drops, after its cells left the MMU.
  void enable_watchdog(std::function<void()> on_pfc, std::function<void(Packet&)> drop);
  // Queues whose PFC pause is ignored (mitigated) and whose frames are dropped, queued ones
  // at once and arrivals as they come (bit per class queue; not with BFC).
  void set_watchdog_queues(uint8_t ignore_pause, uint8_t drop);
  uint64_t pfc_rx_pause(uint32_t prio) const { return m_pfc_rx[prio]; }    // frames pausing prio
  uint64_t pfc_rx_resume(uint32_t prio) const { return m_pfc_xon[prio]; }  // zero quanta for prio
  uint64_t queue_tx(uint32_t q) const { return m_q[q].tx; }
  size_t queue_len(uint32_t q) const { return m_q[q].len; }
  bool any_paused(uint8_t prios) const { return m_pause.any_paused(prios, now()); }
  uint64_t watchdog_drops() const { return m_wd_drops; }
  // BFC: `queues` data queues indexed by Packet::queue, paused by BFC frames (before running).
  void enable_bfc(uint32_t queues);
  void bfc_received(const BfcFrame& f) override;
  // Each queued data frame with its queue and whether the peer pauses that queue; then the
  // frame in transmission, if any, with queue -1.
  void for_each_queued(const std::function<void(const Packet&, int queue, bool paused)>& fn) const;

  uint64_t queued_data() const;
  uint64_t paused_ps() const { return m_pause.paused_ps(now()); }
  uint64_t tx_data_frames() const { return m_tx_data; }
  uint64_t tx_pfc_frames() const { return m_tx_pfc; }
  uint64_t tx_bfc_frames() const { return m_tx_bfc; }
  // Queues the peer's last BFC frame paused.
  const QueueMask& bfc_paused() const { return m_bfc_paused; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(Packet& p, tlm::tlm_phase& phase, sc_core::sc_time& t) override;
  tlm::tlm_sync_enum nb_transport_bw(Packet&, tlm::tlm_phase&, sc_core::sc_time&) {
    return tlm::TLM_COMPLETED;
  }
  static uint64_t now();
  // The bound link and MMU, kept beside the per-frame state (sc_port's are in the port objects).
  void end_of_elaboration() override;
  void try_send();
  void on_tx_done();
  void keep_on_wire(const Packet& p);
  void wake_at(uint64_t t);  // retry at t (a pause expiry); an earlier pending retry stands
  void on_wake();
  int pick_dwrr(uint64_t t);
  // DWRR's walk over the queues `next(from)` offers (the first sendable at or after
  // `from`, cyclically; -1: none).
  template <class Next>
  int dwrr(Next next);
  // Without BFC queues: the data queues holding a frame that no pause holds at t, as bits.
  uint64_t sendable_bits(uint64_t t) const;
  // First queue at or after `from`, cyclically, holding a frame and not paused; or -1.
  int next_sendable(int from, uint64_t t) const;
  // First non-empty queue at or after `from`, or kBfcMaxQueues.
  int next_nonempty(int from) const;
  bool queue_paused(size_t q, uint64_t t) const;
  void trace_pause();  // refresh the traced pause bits, wake again at the next expiry

  // A data queue: a list through its frames (Packet::next), its DWRR credit and the data
  // frames it sent, together: a frame's enqueue and dequeue touch one small record.
  struct Queue {
    Packet* head = nullptr;
    Packet* tail = nullptr;
    uint64_t deficit = 0;
    uint64_t tx = 0;
    uint32_t len = 0;
    void push(Packet* p) {
      p->next = nullptr;
      (tail ? tail->next : head) = p;
      tail = p;
      ++len;
    }
    Packet* pop() {
      Packet* p = head;
      head = p->next;
      if (!head) tail = nullptr;
      --len;
      return p;
    }
  };
  // What a frame's enqueue, pick, dequeue and end of serialisation read, in the first
  // aligned lines of the port; the rest after.
  alignas(64) bool m_busy = false;
  bool m_bfc = false;
  bool m_quantum_given = false;
  bool m_dequeue = false;  // the MMU's dequeue does something (AdmissionIf::wants_dequeue)
  int m_rr = 0;
  uint32_t m_quantum;
  uint32_t m_port;
  QueueMask m_nonempty;  // data queues holding frames
  std::vector<Queue> m_q;
  std::array<uint8_t, 8> m_tc_queue{0, 1, 2, 3, 4, 5, 6, 7};
  std::array<uint8_t, 8> m_queue_prios{1, 2, 4, 8, 16, 32, 64, 128};  // PFC priorities pausing each queue
  uint8_t m_wd_ignore = 0, m_wd_drop = 0;
  uint32_t m_ctrl_len = 0;  // m_ctrl's size
  Calendar::Client m_cal;
  BfcIf* m_bfc_unit = nullptr;  // bfc's interface when bound (the port's vector is far off)
  tlm::tlm_fw_transport_if<PacketProtocol>* m_link = nullptr;  // to_link's interface
  AdmissionIf* m_mmu = nullptr;                                 // mmu's interface
  uint64_t m_tx_data = 0;
  FrameHook m_tx_hook;
  PauseTimers m_pause;
  uint64_t m_wake_at = 0;  // pending retry, 0 = none
  uint64_t m_tx_pfc = 0;
  uint64_t m_tx_bfc = 0;
  // What departs when serialisation ends: a copy of the fields departure reads, as the far
  // end may already own the frame.
  alignas(64) Packet m_on_wire;
  std::deque<Packet*> m_ctrl;
  QueueMask m_bfc_paused;
  std::array<uint64_t, 8> m_pfc_rx{}, m_pfc_xon{};
  std::function<void()> m_wd_on_pfc;
  std::function<void(Packet&)> m_wd_drop_fn;
  uint64_t m_wd_drops = 0;
  void wd_drop(Packet& p);
  std::unique_ptr<bool[]> m_tr_paused;  // traced pause bits, when traced
  sc_core::sc_event m_tr_ev;
};

}  // namespace mmusim
