#pragma once
// TLM-2.0 protocol traits for frames: modules exchange Packet transactions through
// nb_transport_fw. BEGIN_REQ carries a frame whose last bit arrives after the annotated
// delay; a link answers END_REQ with the serialisation time (its request channel busy).
#include <tlm>

#include "common/packet.h"

namespace mmusim {

struct PacketProtocol {
  typedef Packet tlm_payload_type;
  typedef tlm::tlm_phase tlm_phase_type;
};

}  // namespace mmusim

namespace mmusim {

// Frames only ever travel as BEGIN_REQ; anything else is a wiring bug.
inline void expect_begin_req(const tlm::tlm_phase& ph, const char* who) {
  if (ph != tlm::BEGIN_REQ) SC_REPORT_ERROR(who, "frame transaction with a phase other than BEGIN_REQ");
}

}  // namespace mmusim
