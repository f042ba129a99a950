#pragma once
// Narrow interface of the MMU towards the ingress pipeline (admit) and the egress
// ports (depart).
#include <systemc>

#include "common/packet.h"

namespace mmusim {

class AdmissionIf : public virtual sc_core::sc_interface {
 public:
  // Decides and accounts one packet (prio, cells, ports filled in). False = dropped.
  virtual bool admit(Packet& p) = 0;
  // The packet's last cell left the buffer.
  virtual void depart(const Packet& p) = 0;
  // A data packet leaves its egress queue and starts on the wire: ECN marking at dequeue,
  // INT (the packet may change).
  virtual void dequeue(Packet&) {}
  // Whether dequeue does anything, read once after elaboration: an egress port skips the
  // call per frame when not (the MMU without INT or WRED marking at dequeue).
  virtual bool wants_dequeue() const { return false; }
  // How long after its decision edge a verdict takes effect (the admitted packet joins its
  // egress queue, PFC events go out): 0 for the one-cycle unit.
  virtual uint64_t verdict_delay_ps() const { return 0; }
};

}  // namespace mmusim
