#pragma once
// The threshold calculator of the RTL unit (rtl/mmu_adm_thresh.sv) as the golden core
// models it, cycle for cycle: at every THRESH_PERIOD-th unit cycle (counted from reset,
// restarted by every CSR write) it registers the pool occupancies and n_p; every threshold
// an operation compares against is computed from those registers (and the live
// configuration), not from the counters the operation reads. A register loaded at a
// cycle's clock edge holds the state before that cycle's operations and is seen from the
// next cycle on, so with THRESH_PERIOD 1 an operation's thresholds miss the previous
// cycle's operations. The core clocks the block once per unit cycle, and through a run of
// idle cycles at once (idle()).
#include <cstdint>
#include <vector>

#include "admission/types.h"

namespace mmusim::admission {

class ThresholdBlock {
 public:
  static constexpr uint32_t kMaxPrios = 8;  // CoreConfig::validate's bound on priorities
  static constexpr uint32_t kMaxN = 2 * kMaxPrios;  // n_p entries: abm keeps both sides'

  ThresholdBlock() = default;
  // m_now points into m_regs.
  ThresholdBlock(const ThresholdBlock&) = delete;
  ThresholdBlock& operator=(const ThresholdBlock&) = delete;

  // The live state the registers load from: the pool counters and n_p (Policy::congestion:
  // per priority, abm's per priority of each side; 8 fraction bits; empty when the policy
  // keeps none). Both must outlive the block or the
  // next bind.
  void bind(const std::vector<uint64_t>* pool_used, const std::vector<uint64_t>* n) {
    m_pool_live = pool_used;
    m_n_live = n;
    note_n();
  }
  // The registers take the live state as if loaded at the last cycle's edge; the next
  // load is a period later. Sizes the registers: the pool count stays from here on.
  void sync(uint32_t period);
  // A unit cycle begins: if the registers load at its edge, they take the state now,
  // before the cycle's operations (into the bank that becomes visible at end()); nothing
  // to load if they already hold it.
  void begin() {
    m_loading = m_count == 0 && !m_fresh;
    if (m_loading) load(other());
  }
  // The cycle ends: what loaded at its edge becomes visible; the period counter steps, or
  // restarts after a CSR write (accepted or refused).
  void end(bool csr_write, uint32_t period) {
    if (m_loading) {
      m_now = other();
      m_loading = false;
    }
    m_fresh = false;  // the cycle's operations may have changed the state
    // As the RTL's counter: wraps at period - 1 (a period lowered under it restarts it
    // anyway: the write that lowers it is a CSR write).
    m_count = csr_write || m_count + 1 >= period ? 0 : m_count + 1;
  }
  // `cycles` unit cycles with no operation and no CSR write, in O(1): the state does not
  // change during them, so what matters is whether a loading edge falls among them (the
  // registers then hold the state now) and where the counter ends.
  void idle(uint64_t cycles, uint32_t period) {
    const uint64_t d = until_load(period);
    if (cycles > d && !m_fresh) {
      load(m_now);
      m_fresh = true;
    }
    if (period == 1) return;  // the counter stays at 0
    m_count = uint32_t(cycles >= d ? (cycles - d) % period : m_count + cycles);
  }
  // The fewest idle cycles that leave the block as `cycles` idle cycles would (the same
  // registers and counter): what a clock-gated unit must be clocked for a gap of `cycles`.
  // At most 2 x period - 1.
  uint64_t equivalent_idle(uint64_t cycles, uint32_t period) const {
    const uint64_t d = until_load(period);
    const uint64_t k = cycles % period;
    return cycles > d && k <= d ? k + period : k;
  }

  uint64_t pool_used(uint16_t pool) const { return m_now[pool]; }
  const uint64_t* pools_used() const { return m_now; }  // every pool, until the next cycle ends
  // n_p entry k (< kMaxN, as Policy::congestion orders them) as registered (the raw count,
  // 8 fraction bits); 0 while the policy keeps none (the unit's n_p registers are zero
  // then: no traffic of a policy with n_p moves them).
  uint64_t n(uint32_t k) const { return m_now[m_npools + k]; }

 private:
  // Idle cycles before the next loading edge (the counter is below the period: every
  // write of the period restarts it).
  uint64_t until_load(uint32_t period) const { return m_count == 0 ? 0 : period - m_count; }
  uint64_t* other() const { return m_regs.data() + (m_now == m_regs.data() ? m_stride : 0); }
  // A bank: the pools, then kMaxN n_p (0 past the live n's size). Every operation
  // loads one: up to four pools are copied without a loop (nor a switch, whose jump table
  // is a data read), and n_p only when some policy keeps it.
  void load(uint64_t* bank) {
    const uint64_t* pool = m_pool_live->data();
    const uint32_t n = m_npools;
    if (n > 0) bank[0] = pool[0];
    if (n > 1) bank[1] = pool[1];
    if (n > 2) bank[2] = pool[2];
    if (n > 3) bank[3] = pool[3];
    for (uint32_t k = 4; k < n; ++k) bank[k] = pool[k];
    if (m_with_n) load_n(bank + m_npools, bank == m_regs.data() ? m_nlen[0] : m_nlen[1]);
  }
  void load_n(uint64_t* np, uint32_t& had);
  // Whether a load must write n_p: the live n is kept, or a bank still holds entries of it.
  // The live n changes size only with the policy's reset or load, before a bind or a sync.
  void note_n() { m_with_n = !m_n_live->empty() || m_nlen[0] || m_nlen[1]; }

  const std::vector<uint64_t>* m_pool_live = nullptr;
  const std::vector<uint64_t>* m_n_live = nullptr;
  mutable std::vector<uint64_t> m_regs;  // two banks of m_stride words: the registers and the next load
  uint64_t* m_now = nullptr;             // the visible bank
  uint32_t m_npools = 0, m_stride = 0;
  uint32_t m_nlen[2] = {0, 0};  // n_p entries each bank last loaded
  bool m_with_n = false;
  uint32_t m_count = 0;         // the RTL's period counter at the coming edge: 0 loads
  bool m_loading = false;
  bool m_fresh = false;  // the visible registers hold the live state (loaded since the last cycle)
};

}  // namespace mmusim::admission
