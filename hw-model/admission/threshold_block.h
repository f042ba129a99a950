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
// Lag mode (pipe 3's rule 4: the tests read the registers in the test stage, a cycle
// before the decide stage): the reads return the bank visible in the previous unit cycle,
// and the core clocks the block with the *_lagged calls. The registers load as without it.
#include <cstdint>
#include <vector>

#include "admission/types.h"

namespace mmusim::admission {

class ThresholdBlock {
 public:
  static constexpr uint32_t kMaxPrios = 8;  // CoreConfig::validate's bound on priorities
  static constexpr uint32_t kMaxN = 2 * kMaxPrios;  // n_p entries: abm keeps both sides'

  ThresholdBlock() = default;
  // m_now and m_vis point into m_regs.
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
  // Lag mode on or off, before the next sync() (which sizes the banks: three with it).
  void set_lag(bool on) { m_lag = on; }
  // The registers take the live state as if loaded at the last cycle's edge; the next
  // load is a period later. Sizes the registers: the pool count stays from here on. In
  // lag mode the reads return the synced bank too.
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
  // At most 2 x period - 1; 2 x period in lag mode, where the bank read (the last idle
  // cycle's) must hold a load if the gap's does: one that falls before its last cycle.
  uint64_t equivalent_idle(uint64_t cycles, uint32_t period) const {
    const uint64_t d = until_load(period);
    const uint64_t k = cycles % period;
    const uint64_t m = cycles > d && k <= d ? k + period : k;
    return m_lag && cycles >= d + 2 && m < d + 2 ? m + period : m;
  }

  // Lag mode's begin, end and idle: the same loads, the same counter; the bank read in a
  // cycle is the one visible in the cycle before (m_vis then), so a load goes to a third
  // bank (with THRESH_PERIOD 1 the block loads every cycle: the bank read, the one visible
  // and the one loading are all different).
  void begin_lagged() {
    m_loading = m_count == 0 && !m_fresh;
    if (m_loading) load(m_next = spare());
  }
  void end_lagged(bool csr_write, uint32_t period) {
    m_now = m_vis;
    if (m_loading) {
      m_vis = m_next;
      m_loading = false;
    }
    m_fresh = false;
    m_count = csr_write || m_count + 1 >= period ? 0 : m_count + 1;
  }
  // The bank read after the run is the one visible in its last cycle: a load at the last
  // cycle's edge is not seen yet, one at an earlier cycle is.
  void idle_lagged(uint64_t cycles, uint32_t period) {
    if (cycles == 0) return;
    const uint64_t d = until_load(period);
    uint64_t* vis = m_vis;
    if (cycles > d && !m_fresh) {  // (when fresh, m_vis holds what the load would)
      load(vis = spare());
      m_fresh = true;
    }
    m_now = cycles - 1 > d ? vis : m_vis;
    m_vis = vis;
    if (period == 1) return;
    m_count = uint32_t(cycles >= d ? (cycles - d) % period : m_count + cycles);
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
  // Lag mode: a bank neither read nor visible (of three).
  uint64_t* spare() const {
    uint64_t* b = m_regs.data();
    while (b == m_now || b == m_vis) b += m_stride;
    return b;
  }
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
    if (m_with_n) load_n(bank);
  }
  void load_n(uint64_t* bank);
  // Whether a load must write n_p: the live n is kept, or a bank still holds entries of it.
  // The live n changes size only with the policy's reset or load, before a bind or a sync.
  void note_n() { m_with_n = !m_n_live->empty() || m_nlen[0] || m_nlen[1] || m_nlen[2]; }

  const std::vector<uint64_t>* m_pool_live = nullptr;
  const std::vector<uint64_t>* m_n_live = nullptr;
  // Two banks of m_stride words, the registers and the next load; three in lag mode.
  mutable std::vector<uint64_t> m_regs;
  uint64_t* m_now = nullptr;  // the bank read: the visible one (in lag mode, the previous cycle's)
  uint64_t* m_vis = nullptr;  // lag mode: the visible bank
  uint64_t* m_next = nullptr; // lag mode: the bank loading in this cycle
  uint32_t m_npools = 0, m_stride = 0;
  uint32_t m_nlen[3] = {0, 0, 0};  // n_p entries each bank last loaded
  bool m_lag = false;
  bool m_with_n = false;
  uint32_t m_count = 0;         // the RTL's period counter at the coming edge: 0 loads
  bool m_loading = false;
  bool m_fresh = false;  // the visible registers hold the live state (loaded since the last cycle)
};

}  // namespace mmusim::admission
