#pragma once
// One switch: ingress pipeline -> MMU (admission core) -> egress ports, with the PFC
// generator fed by the MMU and writing into the egress ports' control queues.
#include <memory>
#include <vector>

#include <systemc>

#include "config/scenario.h"
#include "egress/egress_port.h"
#include "ingress/ingress_pipeline.h"
#include "mmu/csr_target.h"
#include "mmu/mmu.h"
#include "pfc/pfc_generator.h"

namespace mmusim {

class Switch : public sc_core::sc_module {
 public:
  Switch(sc_core::sc_module_name name, const Scenario& sc, uint32_t switch_id, PacketPool& pool);

  IngressPipeline ingress;
  Mmu mmu;
  PfcGenerator pfc;
  std::vector<std::unique_ptr<EgressPort>> egress;
  // Register map of the admission unit over TLM-2.0 (docs/registers.md); socket may stay unbound.
  CsrTarget csr;

  // Data packets on their way into or held in this switch: on the host->switch wire,
  // in the ingress pipeline, in egress queues.
  uint64_t held_packets() const;
};

}  // namespace mmusim
