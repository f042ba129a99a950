#pragma once
// One switch: ingress pipeline -> MMU (admission core) -> egress ports, with the PFC
// generator fed by the MMU and writing into the egress ports' control queues; with
// bfc.enabled, a BFC unit between ingress and egress (queue assignment, backpressure).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "bfc/bfc_unit.h"
#include "bfc/deadlock.h"
#include "config/scenario.h"
#include "egress/egress_port.h"
#include "ingress/ingress_pipeline.h"
#include "mmu/csr_target.h"
#include "mmu/mmu.h"
#include "pfc/pfc_generator.h"
#include "pfcwd/pfc_storm.h"
#include "pfcwd/pfc_watchdog.h"

namespace mmusim {

class Switch : public sc_core::sc_module {
 public:
  // Switch `switch_id` of the scenario (its switch_view), built from its typed block configurations.
  Switch(sc_core::sc_module_name name, const Scenario& scenario, uint32_t switch_id, PacketPool& pool);

  IngressPipeline ingress;
  Mmu mmu;
  PfcGenerator pfc;
  std::vector<std::unique_ptr<EgressPort>> egress;
  // Register map of the admission unit over TLM-2.0 (docs/registers.md); socket may stay unbound.
  CsrTarget csr;
  std::unique_ptr<BfcUnit> bfc;  // bfc.enabled only
  std::unique_ptr<PfcWatchdog> watchdog;  // buffer.PFC_WD only
  std::vector<std::unique_ptr<PfcStorm>> storms;  // pfc_storms at this switch's ports

  // BFC end-of-run check. can_drain[port * queues + q]: a packet counted against (ingress
  // port, upstreamQ q) can still leave: its egress queue is not paused, or `released(egress
  // port, queue)` says the peer that paused it will resume it (a downstream switch whose own
  // pause drains; the network decides, as this switch cannot see its peer).
  std::vector<uint8_t> bfc_can_drain(const std::function<bool(uint32_t, uint32_t)>& released) const;
  // summary.json's "bfc" object: unit statistics, pauses, the deadlock check over can_drain.
  nlohmann::json bfc_summary(uint64_t now, const std::vector<uint8_t>& can_drain) const;

  // admission.impl rtl: the co-simulated unit decides (Mmu::enable_rtl), and the CSR target
  // presents its register map and passes software writes on to it.
  void enable_rtl(const std::string& waveform);

  // Data packets on their way into or held in this switch: on the host->switch wire,
  // in the ingress pipeline, in egress queues.
  uint64_t held_packets() const;
};

}  // namespace mmusim
