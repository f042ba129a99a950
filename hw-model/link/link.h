#pragma once
// One direction of a full-duplex cable: line-rate serialisation plus propagation delay.
// Stateless apart from counters: the transmitter owns the "busy" time it is told.
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/protocol.h"

namespace mmusim {

class Link : public sc_core::sc_module, public FrameTarget {
 public:
  FrameTarget::Socket<> in;
  tlm_utils::simple_initiator_socket<Link, 32, PacketProtocol> out;

  Link(sc_core::sc_module_name name, uint64_t rate_bps, uint64_t delay_ps, uint32_t overhead_bytes);

  uint64_t rate_bps() const { return m_rate_bps; }
  uint64_t delay_ps() const { return m_delay_ps; }
  uint64_t data_frames() const { return m_data_frames; }
  uint64_t control_frames() const { return m_control_frames; }
  uint64_t wire_bytes() const { return m_wire_bytes; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(Packet& p, tlm::tlm_phase& phase, sc_core::sc_time& t) override;
  void end_of_elaboration() override { m_out = out.operator->(); }

  // What a frame reads and counts, in one cache line. Serialisation, and serialisation
  // plus propagation, of the last frame size seen.
  alignas(64) uint64_t m_last_wire = 0;
  sc_core::sc_time m_ser, m_ser_delay;
  uint64_t m_data_frames = 0;
  uint64_t m_control_frames = 0;
  uint64_t m_wire_bytes = 0;
  uint32_t m_overhead_bytes;
  tlm::tlm_fw_transport_if<PacketProtocol>* m_out = nullptr;  // out's interface, in this line
  uint64_t m_rate_bps;
  uint64_t m_delay_ps;
};

}  // namespace mmusim
