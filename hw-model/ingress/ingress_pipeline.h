#pragma once
// Ingress pipeline: receives frames from every port's link, hands PFC frames to the
// port's transmitter, classifies data (DSCP or PCP -> TC -> PG, lossless per
// PORT_QOS_MAP.pfc_enable), counts cells, routes, and after a fixed latency makes one
// admission decision per MMU cycle per pipeline. With BFC, admitted packets pass through
// the BFC unit (queue assignment, pause counters) and BFC frames go to the port's transmitter.
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "bfc/bfc_if.h"
#include "common/calendar.h"
#include "common/protocol.h"
#include "config/scenario.h"
#include "egress/pause_if.h"
#include "mmu/admission_if.h"

namespace mmusim {

class IngressPipeline : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<IngressPipeline, 32, PacketProtocol> from_link;  // per port
  tlm_utils::multi_passthrough_initiator_socket<IngressPipeline, 32, PacketProtocol> to_egress;  // per port
  sc_core::sc_port<PauseIf, 0> pause;  // per port: received PFC frames
  sc_core::sc_port<AdmissionIf> mmu;
  sc_core::sc_port<BfcIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND> bfc;  // bound when bfc.enabled

  IngressPipeline(sc_core::sc_module_name name, const Scenario& sc, PacketPool& pool);
  void add_route(uint32_t dst_ip, uint16_t port) { m_fib[dst_ip] = {port}; }
  // Equal-cost next hops: a frame takes ports[hash(5-tuple) % size], salted by set_ecmp.
  void add_route(uint32_t dst_ip, std::vector<uint16_t> ports) { m_fib[dst_ip] = std::move(ports); }
  void set_ecmp(uint64_t seed, uint32_t switch_id) {
    m_ecmp_seed = seed;
    m_switch_id = switch_id;
  }

  uint64_t received_data() const { return m_rx_data; }
  uint64_t received_pfc() const { return m_rx_pfc; }
  uint64_t received_bfc() const { return m_rx_bfc; }
  uint64_t no_route_drops() const { return m_no_route; }
  uint64_t pending_data() const { return m_arrivals_data + m_decisions; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(int port, Packet& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum nb_transport_bw(int, Packet&, tlm::tlm_phase&, sc_core::sc_time&) {
    return tlm::TLM_COMPLETED;
  }
  void on_arrival(Packet* p);
  void on_decision(Packet* p);

  const Scenario& m_sc;
  PacketPool& m_pool;
  uint64_t m_period;
  uint64_t m_latency;
  std::vector<uint64_t> m_next_slot;  // per pipeline: first free decision cycle
  std::unordered_map<uint32_t, std::vector<uint16_t>> m_fib;  // looked up, never iterated
  uint64_t m_ecmp_seed = 0;
  uint32_t m_switch_id = 0;
  Calendar::Client m_cal;
  uint64_t m_arrivals_data = 0;  // data frames on their last bit's way in
  uint64_t m_decisions = 0;      // frames waiting for their decision slot
  uint64_t m_rx_data = 0, m_rx_pfc = 0, m_rx_bfc = 0, m_no_route = 0;
};

}  // namespace mmusim
