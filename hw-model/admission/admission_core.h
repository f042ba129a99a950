#pragma once
// Integer-only admission core: the counter bank plus the configured policy (dt, static,
// sih, abm, reverie, dsh). No SystemC here: the SystemC Mmu wraps it, and the RTL
// admission unit is checked against it decision for decision.
#include <memory>
#include <utility>
#include <vector>

#include "admission/arch_state.h"
#include "admission/counters.h"
#include "admission/policy.h"
#include "admission/policies/sonic.h"
#include "admission/types.h"

namespace mmusim::admission {

class AdmissionCore {
 public:
  explicit AdmissionCore(CoreConfig cfg);
  // The policy and its blocks refer to m_cfg: a core stays where it was built.
  AdmissionCore(const AdmissionCore&) = delete;
  AdmissionCore& operator=(const AdmissionCore&) = delete;

  // Timing (the unit's clock): each operation, pair and CSR write is one unit cycle, which
  // clocks the threshold calculator (threshold_block.h; not with cfg.thresholds.zero_latency).
  // An operation is taken at its cycle and decided cfg.pipe cycles later, in its decide
  // stage; the calculator is clocked in decide-stage cycles. Forwarding makes the pipeline
  // sequential, so the core decides at once, in the order taken, and the result is due at
  // due(cycle taken); state() is what the unit has committed once the last operation's
  // result is due. Operations carry their MMU cycle (Request::cycle, Departure::cycle):
  // before one whose cycle is more than one past the last operation's, the clock has run
  // idle through the cycles between (see set_idle_from_cycles). A CSR write acts in the
  // decide stage directly, after the operations taken before it are decided: the first
  // pipe cycles after it are idle there.
  //
  // Pipe 3 (docs/ppa.md "v2, step 17": look-up, memory, test and decide stages, the
  // decide stage selecting among outcomes the test stage computed) decides as that unit
  // does, which its clock needs:
  //  1. in a pair the request is decided before the release, each on the exact state;
  //  2. a request's five tests do not see the release decided in the previous decide
  //     cycle (its refund of every counter reaches them a cycle late) ...
  //  3. ... and count the request admitted then at its full cells in each pool it charged,
  //     not its exact charge (the previous cycle's records: PrevCycle, sonic.h);
  //  4. every threshold (the request's tests, the release's XON test) is read from the
  //     calculator's registers of the previous decide cycle (ThresholdBlock's lag mode).
  // The verdicts' updates, the pause bits and XOFF/XON are exact. "The previous decide
  // cycle" is none after an idle cycle, a CSR write, reset, load_state or a sync: then the
  // tests are exact. Pipe 3 runs out of line (admit3 ...) for dt, static, sih and dsh.
  // dsh's lossless tests (the shared segment, the port's insurance cells, the headroom
  // pool, egress, buffer) read the same view, the insurance cells without R's refund of
  // them too; its port pause bit, charges and XOFF tests are exact.
  //
  // Inline, as depart: the MMU calls one per frame and switch, and its request then needs
  // no copy in memory nor the call's saved registers. Pipe 3 leaves through the range
  // check's cold branch (inline_ok), so pipe 0 and 1's path tests nothing more for it.
  Result admit(const Request& r) {
    if (!inline_ok(r.in_port, r.out_port, r.prio, r.egress_queue())) return admit_aside(r);
    op_begin(r.cycle);
    const Result res = m_sonic ? m_sonic->SonicPolicy::admit(m_c, r) : m_policy->admit(m_c, r);
    cycle_end();
    return res;
  }
  // Headroom drains first, then the ingress share (reverie §2.2.1). Returns XON events when
  // a paused queue (or, for DSH, port) may resume.
  PfcUpdate depart(const Departure& d) {
    if (!inline_ok(d.in_port, d.out_port, d.prio, d.egress_queue())) return depart_aside(d);
    op_begin(d.cycle);
    const PfcUpdate u = m_sonic ? m_sonic->SonicPolicy::depart(m_c, d) : m_policy->depart(m_c, d);
    cycle_end();
    return u;
  }
  // A release and a request in one cycle (a dual-issue unit); the pair's cycle is the
  // release's. Pipe 0 and 1: the release first; the request's pool tests see the pools
  // before the release (its refund of them lags a cycle there), everything else after it.
  // Pipe 3: the request first (rule 1), then the release.
  std::pair<PfcUpdate, Result> depart_and_admit(const Departure& d, const Request& r);
  // Unit cycles in which no operation is taken (the clock running idle; a CSR read), in
  // O(1). The decide stage sees them pipe cycles later: the last pipe of them come after
  // a CSR write made next (which needs the operations in flight decided first).
  void idle(uint64_t cycles = 1);
  // On (the default): the idle cycles between operations are counted from their cycles
  // (the SystemC Mmu, a co-simulation); operations in one cycle follow each other on the
  // unit's clock, as the unit takes them. Off: only idle() runs the clock idle (a caller
  // that clocks a unit cycle by cycle). The first operation (after construction or reset)
  // has none. Either way idle() may add cycles.
  void set_idle_from_cycles(bool on) {
    m_idle_from_cycles = on;
    if (!on) m_idle_from = kNoCycle;
  }
  // The idle cycles a clock-gated unit must be clocked before taking an operation at
  // `cycle` to hold what this core's calculator will when it decides it (fewer than the
  // gap: ThresholdBlock::equivalent_idle; those idle() told and not yet seen by the decide
  // stage included). Pipe 3: the idle cycles the decide stage then sees (those pending and
  // these) are none exactly when the gap and those pending are none, as the core's (an
  // operation follows the previous cycle's only then).
  uint64_t idle_clocks_before(uint64_t cycle) const;
  // Unit cycles from taking an operation to the clock edge that registers its response
  // (pipe + 1), and that edge for an operation taken at unit cycle `taken`.
  uint32_t latency() const { return m_cfg.pipe + 1; }
  uint64_t due(uint64_t taken) const { return taken + latency(); }
  // The cycle of a CSR write the unit refused (reconfigure is the accepted one's): it
  // restarts the calculator's period as any write does.
  void refused_write();
  // The calculator's registers take the state now, as the unit's do one cycle after its
  // last CSR write (its programming): the next load is a period later.
  void sync_thresholds();
  void reset();
  // Run-time reprogramming (CSR writes): counters and policy state are kept unless the
  // policy itself changes; every block reads the new values from the next operation on.
  // Throws std::invalid_argument, leaving the old configuration, for an invalid one or one
  // that changes what the RTL fixes at elaboration (ports, priorities, pools, counter
  // width, EWMA fraction bits, pipeline depth).
  void reconfigure(const CoreConfig& cfg);

  // Architectural state (counters, pause bits, q_hat, n_p, dsh port counters).
  ArchState state() const;
  // Loads a state of this core's shape and policy (vector sizes checked: throws
  // std::invalid_argument). Nothing is checked against the configuration.
  void load_state(const ArchState& s);

  const CoreConfig& config() const { return m_cfg; }
  uint64_t ingress_cells(uint32_t port, uint32_t prio) const { return m_c.q[m_c.idx(port, prio)].ing; }
  uint64_t headroom_cells(uint32_t port, uint32_t prio) const { return m_c.q[m_c.idx(port, prio)].hdrm; }
  uint64_t egress_cells(uint32_t port, uint32_t q) const { return m_c.q[m_c.idx(port, q)].egr; }
  bool paused(uint32_t port, uint32_t prio) const { return m_c.q[m_c.idx(port, prio)].paused != 0; }
  bool port_paused(uint32_t port) const { return m_c.port_paused[port] != 0; }
  uint64_t pool_used(uint16_t pool) const { return m_c.pool_used.at(pool); }
  const std::vector<uint64_t>& pools_used() const { return m_c.pool_used; }  // every pool, unchecked
  uint64_t headroom_pool_used() const { return m_c.hdrm_pool_used; }
  uint64_t total_used() const { return m_c.total; }
  uint64_t ingress_threshold(uint32_t port, uint32_t prio) const {
    return m_policy->ingress_threshold(m_c, port, prio);
  }
  uint64_t egress_threshold(uint32_t port, uint32_t q) const { return m_policy->egress_threshold(m_c, port, q); }
  // For callers that evaluate a threshold themselves (Policy::threshold_form): its form,
  // a pool's occupancy as the thresholds read it, and a count of the configuration changes
  // (after which a form is read again).
  ThresholdForm threshold_form(bool ingress, uint32_t port, uint32_t prio) const {
    return m_policy->threshold_form(ingress, port, prio);
  }
  uint64_t threshold_pool_used(uint16_t pool) const { return m_policy->threshold_pool_used(m_c, pool); }
  // Every pool's threshold_pool_used at once (the policy reads the calculator's registers
  // unless thresholds are zero-latency), valid until the next operation or CSR write.
  const uint64_t* threshold_pools_used() const {
    return m_cfg.thresholds.zero_latency ? m_c.pool_used.data() : m_tb.pools_used();
  }
  uint32_t config_version() const { return m_config_version; }
  uint64_t compared_ingress_cells(uint32_t port, uint32_t prio) const {
    return m_policy->compared_ingress_cells(m_c, port, prio);
  }

 private:
  void check(uint32_t in, uint32_t out, uint8_t prio, uint8_t queue, const char* what) const {
    if (in >= m_cfg.ports || out >= m_cfg.ports || prio >= m_cfg.prios || queue >= m_cfg.prios) out_of_range(what);
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void out_of_range(const char* what);
  // check() for the inline admit and depart: with m_inline_ports 0 under pipe 3, every
  // operation fails it and goes aside, where check() tells a bad one from pipe 3's.
  bool inline_ok(uint32_t in, uint32_t out, uint8_t prio, uint8_t queue) const {
    return in < m_inline_ports && out < m_inline_ports && prio < m_cfg.prios && queue < m_cfg.prios;
  }
  [[gnu::cold, gnu::noinline]] Result admit_aside(const Request& r);
  [[gnu::cold, gnu::noinline]] PfcUpdate depart_aside(const Departure& d);
  void attach();
  // Idle cycles between the last operation and one at `cycle`; 0 unless counted from cycles.
  uint64_t gap_before(uint64_t cycle) const { return cycle > m_idle_from ? cycle - m_idle_from : 0; }
  // An operation at `cycle` begins a decide-stage cycle: the idle cycles before it first.
  void op_begin(uint64_t cycle) {
    if (!m_cfg.thresholds.zero_latency) {
      const uint64_t n = m_pending + gap_before(cycle);
      if (n) m_tb.idle(n, m_cfg.thresholds.period_cycles);
      m_tb.begin();
    }
    m_pending = 0;
    if (m_idle_from_cycles) m_idle_from = cycle + 1;
  }
  void cycle_begin();
  void cycle_end() {
    if (!m_cfg.thresholds.zero_latency) m_tb.end(false, m_cfg.thresholds.period_cycles);
  }
  // A CSR write's cycle ends: the next operation is decided pipe cycles after it is taken.
  void csr_cycle_end();

  // Pipe 3 (m_sonic3): its operations, and its decide cycle's begin (an idle cycle before
  // it clears the previous cycle's records) and end.
  Result admit3(const Request& r);
  PfcUpdate depart3(const Departure& d);
  std::pair<PfcUpdate, Result> depart_and_admit3(const Departure& d, const Request& r);
  void op_begin3(uint64_t cycle);
  void cycle_end3() {
    if (!m_cfg.thresholds.zero_latency) m_tb.end_lagged(false, m_cfg.thresholds.period_cycles);
  }
  // A request decided on the view of m_prev, which then records it as Q (the pool
  // counters diffed around its charge); a release on the exact state, recorded as R.
  Result request3(const Request& r);
  PfcUpdate release3(const Departure& d);

  CoreConfig m_cfg;
  Counters m_c;
  std::unique_ptr<Policy> m_policy;
  SonicPolicy* m_sonic = nullptr;  // m_policy when it is plain(), pipe 0 or 1: its operations called by name
  SonicPolicy* m_sonic3 = nullptr;  // m_policy under pipe 3 (dt, static, sih: plain; dsh)
  uint32_t m_inline_ports = 0;      // ports, or 0 under pipe 3 (inline_ok)
  ThresholdBlock m_tb;
  static constexpr uint64_t kNoCycle = ~uint64_t(0);
  bool m_idle_from_cycles = true;
  // reconfigure()s so far, modulo 2^32: beside what every operation reads, for a caller
  // that checks it at every operation (the MMU's threshold statistics).
  uint32_t m_config_version = 0;
  // The first idle cycle after the last operation (kNoCycle: none counted, before the
  // first operation or when not counting).
  uint64_t m_idle_from = kNoCycle;
  // Idle cycles told (idle(), or owed after a CSR write) that the decide stage has not yet
  // seen: at most pipe.
  uint64_t m_pending = 0;
  // Scratch: each pool's refund (depart_and_admit), the pools before an operation (pipe 3).
  std::vector<uint64_t> m_pool_refund;
  PrevCycle m_prev;  // pipe 3: the previous decide cycle's admitted request Q and release R
};

}  // namespace mmusim::admission
