#pragma once
// Narrow interface of a switch's BFC unit towards the ingress pipeline (enqueue, after
// admission) and the egress ports (depart, peer pause state).
#include <systemc>

#include "bfc/bfc_frame.h"
#include "common/packet.h"

namespace mmusim {

class BfcIf : public virtual sc_core::sc_interface {
 public:
  // Assigns p.queue at p.out_port and counts the packet against (p.in_port, p.upstream_q).
  virtual void enqueue(Packet& p) = 0;
  // The packet's last bit left egress p.out_port.
  virtual void depart(const Packet& p) = 0;
  // The peer of egress `port` now pauses exactly `paused` of its queues.
  virtual void peer_paused(uint32_t port, const QueueMask& paused) = 0;
};

}  // namespace mmusim
