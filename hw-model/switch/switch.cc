#include "switch/switch.h"

#include <string>

namespace mmusim {

Switch::Switch(sc_core::sc_module_name name, const Scenario& sc, uint32_t switch_id, PacketPool& pool)
    : sc_module(name), ingress("ingress", sc, pool), mmu("mmu", sc), pfc("pfc", sc, switch_id, pool),
      csr("csr", mmu.core_mut()) {
  csr.set_stats([this] {
    const uint64_t drops = mmu.dropped_lossless() + mmu.dropped_lossy();
    return admission::CsrStats{uint32_t(mmu.admitted() + drops), uint32_t(drops)};
  });
  ingress.mmu.bind(mmu.admission_export);
  mmu.pfc.bind(pfc.event_export);
  for (uint32_t i = 0; i < sc.ports(); ++i) {
    egress.push_back(std::make_unique<EgressPort>(("egress_" + sc.topo.ports[i].name).c_str(), i,
                                                  sc.topo.ports[i].rate_bps, sc.dwrr_quantum_bytes));
    EgressPort& e = *egress.back();
    ingress.to_egress.bind(e.in);
    pfc.out.bind(e.in);
    ingress.pause.bind(e.pause_export);
    e.mmu.bind(mmu.admission_export);
  }
}

uint64_t Switch::held_packets() const {
  uint64_t n = ingress.pending_data();
  for (const auto& e : egress) n += e->queued_data();
  return n;
}

}  // namespace mmusim
