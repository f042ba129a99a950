#include "link/link.h"

#include "common/sim_time.h"

namespace mmusim {

Link::Link(sc_core::sc_module_name name, uint64_t rate_bps, uint64_t delay_ps, uint32_t overhead_bytes)
    : sc_module(name), in("in"), out("out"), m_overhead_bytes(overhead_bytes), m_rate_bps(rate_bps),
      m_delay_ps(delay_ps) {
  in.bind(*this);
}

tlm::tlm_sync_enum Link::nb_transport_fw(Packet& p, tlm::tlm_phase& phase, sc_core::sc_time& t) {
  expect_begin_req(phase, name());
  const uint64_t wire = uint64_t(p.bytes) + m_overhead_bytes;
  if (wire != m_last_wire) {  // frames mostly repeat a size: reuse its times
    const uint64_t ser = serialization_ps(wire, m_rate_bps);
    m_last_wire = wire;
    m_ser = ps(ser);
    m_ser_delay = ps(ser + m_delay_ps);
  }
  m_wire_bytes += wire;
  if (p.kind == Packet::Kind::kData) ++m_data_frames;
  else ++m_control_frames;
  // Store-and-forward: the far end sees the frame once its last bit has propagated.
  tlm::tlm_phase fw = tlm::BEGIN_REQ;
  sc_core::sc_time arrive = t + m_ser_delay;
  m_out->nb_transport_fw(p, fw, arrive);
  phase = tlm::END_REQ;
  t += m_ser;
  return tlm::TLM_UPDATED;
}

}  // namespace mmusim
