#pragma once
// The threshold calculator of the RTL unit (rtl/mmu_adm_thresh.sv) as the golden core
// models it, cycle for cycle: at every THRESH_PERIOD-th unit cycle (counted from reset,
// restarted by every CSR write) it registers the pool occupancies and n_p; every threshold
// an operation compares against is computed from those registers (and the live
// configuration), not from the counters the operation reads. A register loaded at a
// cycle's clock edge holds the state before that cycle's operations and is seen from the
// next cycle on, so with THRESH_PERIOD 1 an operation's thresholds miss the previous
// cycle's operations. The core clocks the block once per unit cycle.
#include <cstdint>
#include <vector>

#include "admission/types.h"

namespace mmusim::admission {

class ThresholdBlock {
 public:
  // The registers take `pool_used` and `n` (n_p per priority, 8 fraction bits; empty when
  // the policy keeps none) as if loaded at the last cycle's edge; the next load is a
  // period later.
  void sync(const std::vector<uint64_t>& pool_used, const std::vector<uint64_t>& n, uint32_t period);
  // A unit cycle begins: if the registers load at its edge, they take the state now,
  // before the cycle's operations.
  void begin(const std::vector<uint64_t>& pool_used, const std::vector<uint64_t>& n);
  // The cycle ends: what loaded at its edge becomes visible; the period counter steps, or
  // restarts after a CSR write (accepted or refused).
  void end(bool csr_write, uint32_t period);

  uint64_t pool_used(uint16_t pool) const { return m_pool[pool]; }
  // n_p of a priority as registered (the raw count, 8 fraction bits); 0 while the policy
  // keeps none (the unit's n_p registers are zero then: no reverie traffic moves them).
  uint64_t n(uint32_t prio) const { return prio < m_n.size() ? m_n[prio] : 0; }

 private:
  std::vector<uint64_t> m_pool, m_n, m_pool_next, m_n_next;
  uint32_t m_count = 0;  // the RTL's period counter at the coming edge: 0 loads
  bool m_loading = false;
};

}  // namespace mmusim::admission
