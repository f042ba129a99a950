#pragma once
// XOFF/XON decisions of the admission core, per ingress (port, PG) or whole port.
#include <systemc>

#include "admission/admission_core.h"

namespace mmusim {

class PfcEventIf : public virtual sc_core::sc_interface {
 public:
  virtual void pfc_event(uint32_t port, uint8_t pg, admission::PfcEvent e) = 0;
  // Port-level XOFF/XON (DSH): every priority of the port.
  virtual void port_pfc_event(uint32_t port, admission::PfcEvent e) = 0;
};

}  // namespace mmusim
