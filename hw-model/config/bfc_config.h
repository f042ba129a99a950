#pragma once
// BFC (bfc-nsdi22 §3.3): per-scenario switch feature, its configuration and loader.
#include <cstdint>
#include <utility>
#include <vector>

#include "common/frames.h"  // kBfcMaxQueues

namespace mmusim {

struct BfcCfg {
  enum class Assignment { kDynamic, kHash, kSingle };  // Fig. 8: dynamic, stochastic, single
  bool enabled = false;
  uint32_t queues_per_port = 32;  // Tofino2 at 100G; the NIC has as many
  Assignment assignment = Assignment::kDynamic;
  uint64_t hrtt_ps = 0;           // 1-hop RTT for Th and the sticky time; derived when absent
  double sticky_factor = 2;       // sticky threshold = sticky_factor x HRTT
  uint64_t refresh_ps = 10'000'000;  // periodic pause-bitmap refresh
  uint32_t table_factor = 100;    // flow-table entries per egress port = factor x queues
  std::vector<std::pair<uint32_t, uint32_t>> suppress;  // (ingress, egress) without backpressure
};

class JsonReader;
struct Scenario;
// Reads the "bfc" object into sc.bfc (topology already loaded: ports and delays).
void load_bfc(Scenario& sc, JsonReader r);
// The BFC configuration one switch of `ports` ports runs with in a multi-switch topology:
// the same, with the suppressed pairs whose ports it has (names are per switch, Ethernet0...).
BfcCfg bfc_switch_view(const BfcCfg& b, uint32_t ports);

}  // namespace mmusim
