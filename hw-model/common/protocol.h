#pragma once
// TLM-2.0 protocol traits for frames: modules exchange Packet transactions through
// nb_transport_fw. BEGIN_REQ carries a frame whose last bit arrives after the annotated
// delay; a link answers END_REQ with the serialisation time (its request channel busy).
#include <memory>
#include <string>
#include <vector>

#include <tlm>
#include <tlm_utils/multi_socket_bases.h>

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

// A target socket that tells its block M which of its bindings a frame came through (the
// i-th bind: M::nb_transport_fw(i, ...)), as tlm_utils' multi_passthrough_target_socket
// does, through a binding object that calls the block directly instead of a callback
// binder and functor (some 30 instructions a frame fewer).
template <class M>
class IndexedFrameSocket : public tlm::tlm_target_socket<32, PacketProtocol, 0>,
                           public tlm_utils::multi_to_multi_bind_base<PacketProtocol> {
  using Base = tlm::tlm_target_socket<32, PacketProtocol, 0>;
  struct Binding final : FrameTarget {
    Binding(M* m, int id) : m(m), id(id) {}
    tlm::tlm_sync_enum nb_transport_fw(Packet& p, tlm::tlm_phase& ph, sc_core::sc_time& t) override {
      return m->nb_transport_fw(id, p, ph, t);
    }
    M* const m;
    const int id;
  };

 public:
  IndexedFrameSocket(const char* name, M* owner) : Base(name), m_owner(owner) { Base::bind(m_export_if); }
  // An initiator's bind (and a multi-socket's, through get_last_binder) takes a new binding.
  tlm::tlm_fw_transport_if<PacketProtocol>& get_base_interface() override {
    m_bindings.push_back(std::make_unique<Binding>(m_owner, int(m_bindings.size())));
    return *m_bindings.back();
  }
  const tlm::tlm_fw_transport_if<PacketProtocol>& get_base_interface() const override { return m_export_if; }
  tlm::tlm_fw_transport_if<PacketProtocol>* get_last_binder(tlm::tlm_bw_transport_if<PacketProtocol>*) override {
    return m_bindings.back().get();
  }

 private:
  M* const m_owner;
  // The export's own interface, which SystemC wants bound; frames come through the bindings.
  struct Unbound final : FrameTarget {
    tlm::tlm_sync_enum nb_transport_fw(Packet&, tlm::tlm_phase&, sc_core::sc_time&) override {
      SC_REPORT_ERROR("mmusim/frame", "frame sent to a socket's export instead of one of its bindings");
      return tlm::TLM_COMPLETED;
    }
  } m_export_if;
  std::vector<std::unique_ptr<Binding>> m_bindings;
};

}  // namespace mmusim
