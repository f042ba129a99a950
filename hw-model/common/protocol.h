#pragma once
// TLM-2.0 protocol traits for frames: modules exchange Packet transactions through
// nb_transport_fw. BEGIN_REQ carries a frame whose last bit arrives after the annotated
// delay; a link answers END_REQ with the serialisation time (its request channel busy).
#include <string>

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

// A block that receives frames on a plain TLM-2.0 target socket bound to itself: an
// initiator's nb_transport_fw reaches it in one virtual call, where a convenience socket's
// callback binder and functor cost some 30 instructions a frame. Frames use only
// nb_transport_fw; the other calls of the interface are wiring bugs.
class FrameTarget : public tlm::tlm_fw_transport_if<PacketProtocol> {
 public:
  // The socket: N initiators may bind to it (0: any number).
  template <int N = 1>
  using Socket = tlm::tlm_target_socket<32, PacketProtocol, N>;
  void b_transport(Packet&, sc_core::sc_time&) override { wrong_call("b_transport"); }
  bool get_direct_mem_ptr(Packet&, tlm::tlm_dmi&) override {
    wrong_call("get_direct_mem_ptr");
    return false;
  }
  unsigned int transport_dbg(Packet&) override {
    wrong_call("transport_dbg");
    return 0;
  }

 private:
  static void wrong_call(const char* what) {
    SC_REPORT_ERROR("mmusim/frame", (std::string(what) + " on a frame socket: frames use nb_transport_fw").c_str());
  }
};

}  // namespace mmusim
