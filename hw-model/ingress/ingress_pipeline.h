#pragma once
// Ingress pipeline: receives frames from every port's link, hands PFC frames to the
// port's transmitter, classifies data (DSCP or PCP -> TC -> PG, lossless per
// PORT_QOS_MAP.pfc_enable), counts cells, routes, and after a fixed latency makes one
// admission decision per MMU cycle per pipeline. With BFC, admitted packets pass through
// the BFC unit (queue assignment, pause counters) and BFC frames go to the port's transmitter.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>

#include "bfc/bfc_if.h"
#include "common/calendar.h"
#include "common/protocol.h"
#include "config/block_config.h"
#include "egress/pause_if.h"
#include "mmu/admission_if.h"

namespace mmusim {

class IngressPipeline : public sc_core::sc_module {
 public:
  IndexedFrameSocket<IngressPipeline> from_link;  // per port, in binding order
  tlm_utils::multi_passthrough_initiator_socket<IngressPipeline, 32, PacketProtocol> to_egress;  // per port
  sc_core::sc_port<PauseIf, 0> pause;  // per port: received PFC frames
  sc_core::sc_port<AdmissionIf> mmu;
  sc_core::sc_port<BfcIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND> bfc;  // bound when bfc.enabled

  IngressPipeline(sc_core::sc_module_name name, IngressConfig cfg, PacketPool& pool);
  void add_route(uint32_t dst_ip, uint16_t port) { add_route(dst_ip, std::vector<uint16_t>{port}); }
  // Equal-cost next hops: a frame takes ports[hash(5-tuple) % size], salted by set_ecmp.
  // Destinations span at most kFibSpan addresses (hosts' are consecutive, host/flow.h).
  void add_route(uint32_t dst_ip, const std::vector<uint16_t>& ports);
  void set_ecmp(uint64_t seed, uint32_t switch_id) {
    m_ecmp_seed = seed;
    m_switch_id = switch_id;
  }

  uint64_t received_data() const;
  uint64_t received_pfc() const { return m_rx_pfc; }
  uint64_t received_bfc() const { return m_rx_bfc; }
  uint64_t no_route_drops() const { return m_no_route; }
  uint64_t pending_data() const { return m_arrivals_data + m_waiting + m_admitted; }

 private:
  friend class IndexedFrameSocket<IngressPipeline>;
  tlm::tlm_sync_enum nb_transport_fw(int port, Packet& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum nb_transport_bw(int, Packet&, tlm::tlm_phase&, sc_core::sc_time&) {
    return tlm::TLM_COMPLETED;
  }
  void on_arrival(Packet* p);
  // A routed data frame waits in its pipeline from the moment its link starts sending it.
  void enqueue(Packet* p, uint64_t arrival);
  void on_decisions();
  void decide(Packet* p);
  // An admitted frame joins its egress queue (through BFC) when the verdict takes effect.
  void forward(Packet* p);
  // A frame admitted by a pipelined unit, its verdict taking effect now (verdict_delay_ps).
  void forward_admitted(Packet* p) {
    --m_admitted;
    forward(p);
  }
  void end_of_elaboration() override;

  const IngressConfig m_cfg;
  PacketPool& m_pool;
  // What every frame reads, in the first aligned lines of the pipeline's state.
  alignas(64) uint64_t m_period;
  uint64_t m_latency;
  uint64_t m_verdict_delay = 0;  // the MMU's (AdmissionIf::verdict_delay_ps)
  // A data frame takes the first free MMU clock edge of its pipeline at or after its
  // arrival + latency, in the order of the arrival entries it would have (time, posting
  // order). That order is known once its arrival time has come, and a frame sent later
  // arrives later than any decision due before it, so frames wait per pipeline in that
  // order, only the head's decision time is computed, and one calendar entry at the
  // earliest head's time (Decision phase) makes that edge's decisions: a frame costs one
  // entry in the switch's ingress, not an arrival and a decision.
  struct Waiting {
    uint64_t arrival;
    uint64_t seq;  // the arrival entry's posting order (Calendar::Client::reserve)
    Packet* p;
    bool before(const Waiting& o) const { return arrival != o.arrival ? arrival < o.arrival : seq < o.seq; }
  };
  struct Pipeline {
    // In arrival order from w[head]; a vector whose consumed front is dropped when empty
    // or when it is most of it.
    std::vector<Waiting> w;
    size_t head = 0;
    uint64_t next_slot = 0;  // first free decision cycle
    uint64_t due = 0;        // the head's decision time, if any
    bool empty() const { return head == w.size(); }
    const Waiting& front() const { return w[head]; }
    void pop_front() {
      if (++head == w.size()) {
        w.clear();
        head = 0;
      } else if (head >= 256 && 2 * head >= w.size()) {
        w.erase(w.begin(), w.begin() + std::ptrdiff_t(head));
        head = 0;
      }
    }
  };
  uint64_t edge_after(uint64_t arrival) const {
    return (arrival + m_latency + m_period - 1) / m_period * m_period;
  }
  void set_due(Pipeline& pl) { pl.due = std::max(edge_after(pl.front().arrival), pl.next_slot); }
  static constexpr uint64_t kNone = ~uint64_t(0);
  uint64_t m_due = kNone;  // earliest head's decision time: the calendar entry that counts
  std::vector<Pipeline> m_pipes;
  uint32_t m_last_bytes = 0, m_last_cells = 0;  // cells of the last frame size seen
  uint64_t m_waiting = 0;  // frames waiting in the pipelines
  uint64_t m_admitted = 0;  // frames admitted whose verdict has not yet taken effect (held)
  // The bound interfaces a decision calls, here rather than in the ports' own (cold) lines.
  AdmissionIf* m_mmu = nullptr;
  BfcIf* m_bfc_unit = nullptr;  // when bound
  std::vector<tlm::tlm_fw_transport_if<PacketProtocol>*> m_egress;  // to_egress, per port
  // The forwarding table, flat: a route per destination address from m_fib_base, so that
  // a frame's next hop is one load in one line (n next hops; n > 1: m_hops[first, first + n)).
  struct Route {
    uint16_t port = 0, n = 0;
    uint32_t first = 0;
  };
  static constexpr uint32_t kFibSpan = 1u << 20;
  uint32_t m_fib_base = 0;
  std::vector<Route> m_fib;
  std::vector<uint16_t> m_hops;
  uint64_t m_rx_data = 0;
  Calendar::Client m_cal;
  uint64_t m_ecmp_seed = 0;
  uint32_t m_switch_id = 0;
  uint64_t m_arrivals_data = 0;  // unrouted data frames on their last bit's way in
  uint64_t m_rx_pfc = 0, m_rx_bfc = 0, m_no_route = 0;
  std::vector<Waiting> m_batch;  // one edge's decisions
};

}  // namespace mmusim
