#pragma once
// A received 802.1Qbb (or BFC) frame, handed by the ingress MAC to the transmitter of the
// same port.
#include <systemc>

#include "bfc/bfc_frame.h"
#include "pfc/pfc_frame.h"

namespace mmusim {

class PauseIf : public virtual sc_core::sc_interface {
 public:
  virtual void pfc_received(const PfcFrame& f) = 0;
  // Only transmitters with BFC queues (bfc.enabled) understand BFC frames.
  virtual void bfc_received(const BfcFrame&) {
    SC_REPORT_ERROR("PauseIf", "BFC frame received by a transmitter without BFC queues");
  }
};

}  // namespace mmusim
