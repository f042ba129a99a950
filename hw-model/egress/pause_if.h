#pragma once
// A received 802.1Qbb frame, handed by the ingress MAC to the transmitter of the same port.
#include <systemc>

#include "pfc/pfc_frame.h"

namespace mmusim {

class PauseIf : public virtual sc_core::sc_interface {
 public:
  virtual void pfc_received(const PfcFrame& f) = 0;
};

}  // namespace mmusim
