#pragma once
// Signal groups of counters.vcd (`mmusim run --vcd-signals`): what an architect selects to
// look at, each group a set of sc_trace'd values updated on change only.
#include <string>

namespace mmusim {

struct VcdSignals {
  bool mmu = true;      // occupancy by class and the representative thresholds (bytes)
  bool queues = false;  // per port and priority: ingress, headroom and egress bytes
  bool ports = false;   // per port: ingress and egress bytes
  bool pfc = false;     // per port and priority: PG held in XOFF, transmitter paused by the peer;
                        // per port: DSH port-level XOFF

  // "mmu,queues,ports,pfc" or "all"; throws std::invalid_argument naming an unknown group.
  static VcdSignals parse(const std::string& list);
};

}  // namespace mmusim
