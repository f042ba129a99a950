#pragma once
// XOFF/XON decisions of the admission core, per ingress (port, priority).
#include <systemc>

#include "admission/admission_core.h"

namespace mmusim {

class PfcEventIf : public virtual sc_core::sc_interface {
 public:
  virtual void pfc_event(uint32_t port, uint8_t prio, admission::PfcEvent e) = 0;
};

}  // namespace mmusim
