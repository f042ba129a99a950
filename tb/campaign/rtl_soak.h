#pragma once
// One case of the RTL lockstep soak: random traffic with hazards and run-time CSR writes
// on a Lockstep (golden core + Verilated unit), everything drawn from one generator so the
// case seed replays it exactly. Used by the soak tool (rtl_soak.cc) and the random
// lockstep tests (tb/rtl/test_rtl_lockstep.cc).
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../common/random_csr.h"
#include "cosim/lockstep.h"

namespace mmusim::soak {

// Functional coverage: what the stimulus exercised, counted from what both models agreed
// on (a case stops at its first mismatch). The bins of Stats::bins() are the ones a run of
// every policy must hit (rtl_soak --require-coverage).
struct Stats {
  uint64_t requests = 0;     // admission requests (alone, in a burst or paired)
  uint64_t releases = 0;     // releases (alone or paired)
  uint64_t pairs = 0;        // a release and a request in the same cycle
  uint64_t same_queue = 0;   // ... naming the same ingress and egress queue
  uint64_t bursts = 0;       // back-to-back requests on one queue
  uint64_t csr_writes = 0;   // accepted by both
  uint64_t csr_refused = 0;  // refused by both (busy buffer or a value out of range)
  uint64_t policy_changes = 0;
  uint64_t drains = 0;       // buffer emptied, then accounting registers rewritten
  uint64_t resets = 0;
  uint64_t squeezes = 0;     // BUFFER_CELLS cut below the occupancy under traffic, then restored
  uint64_t queue_not_prio = 0;  // requests whose egress queue is not their PG
  uint64_t idle = 0;         // idle cycles between operations (the threshold calculator loads)
  uint64_t gated_gaps = 0;   // gaps counted from the operations' cycles, the unit clocked through them
  uint64_t period_changes = 0;  // THRESH_PERIOD changed under traffic
  // Hazard bins.
  uint64_t pair_same_in = 0, pair_same_out = 0, pair_same_prio = 0;  // pairs sharing one of these
  uint64_t ewma_k_under_traffic = 0;    // CTRL.ewma_k changed, accepted, cells in the buffer
  uint64_t congested_changed = 0;       // CONGESTED_CELLS changed and accepted (empty buffer)
  uint64_t congested_refused_busy = 0;  // a CONGESTED_CELLS change refused: cells in the buffer
  // Verdict bins: [verdict] and drops by [reason].
  uint64_t verdict[3] = {};
  uint64_t drop_reason[5] = {};
  // PFC bins: queue XOFF, XON; port (dsh) XOFF, XON.
  uint64_t xoff = 0, xon = 0, port_xoff = 0, port_xon = 0;

  void add(const Stats& o) {
    requests += o.requests;
    releases += o.releases;
    pairs += o.pairs;
    same_queue += o.same_queue;
    bursts += o.bursts;
    csr_writes += o.csr_writes;
    csr_refused += o.csr_refused;
    policy_changes += o.policy_changes;
    drains += o.drains;
    resets += o.resets;
    squeezes += o.squeezes;
    queue_not_prio += o.queue_not_prio;
    idle += o.idle;
    gated_gaps += o.gated_gaps;
    period_changes += o.period_changes;
    pair_same_in += o.pair_same_in;
    pair_same_out += o.pair_same_out;
    pair_same_prio += o.pair_same_prio;
    ewma_k_under_traffic += o.ewma_k_under_traffic;
    congested_changed += o.congested_changed;
    congested_refused_busy += o.congested_refused_busy;
    for (int i = 0; i < 3; ++i) verdict[i] += o.verdict[i];
    for (int i = 0; i < 5; ++i) drop_reason[i] += o.drop_reason[i];
    xoff += o.xoff;
    xon += o.xon;
    port_xoff += o.port_xoff;
    port_xon += o.port_xon;
  }
  void count(const admission::Result& r) {
    ++verdict[size_t(r.verdict)];
    if (r.verdict == admission::Verdict::kDrop) ++drop_reason[size_t(r.reason)];
    count(admission::PfcUpdate{r.pfc, r.port_pfc});
  }
  void count(const admission::PfcUpdate& u) {
    xoff += u.pfc == admission::PfcEvent::kXoff;
    xon += u.pfc == admission::PfcEvent::kXon;
    port_xoff += u.port_pfc == admission::PfcEvent::kXoff;
    port_xon += u.port_pfc == admission::PfcEvent::kXon;
  }
  // Named bins of the coverage report. `dsh` and `sonic`: whether the run had dsh (port
  // PFC) and a SONiC-style policy (ingress drops) in it, so their bins are expected.
  std::vector<std::pair<std::string, uint64_t>> bins() const {
    return {{"hazard: same queue back-to-back", bursts},
            {"hazard: release+request, same queues", same_queue},
            {"hazard: release+request, same in-port", pair_same_in},
            {"hazard: release+request, same out-port", pair_same_out},
            {"hazard: release+request, same priority", pair_same_prio},
            {"egress queue other than the PG", queue_not_prio},
            {"csr: ewma_k written under traffic", ewma_k_under_traffic},
            {"csr: CONGESTED_CELLS written (empty)", congested_changed},
            {"csr: CONGESTED_CELLS refused (busy)", congested_refused_busy},
            {"csr: policy changed", policy_changes},
            {"csr: BUFFER_CELLS cut under traffic", squeezes},
            {"csr: THRESH_PERIOD changed under traffic", period_changes},
            {"timing: idle cycles between operations", idle},
            {"timing: gaps between operation cycles (gated clock)", gated_gaps},
            {"verdict: admit shared", verdict[0]},
            {"verdict: admit headroom", verdict[1]},
            {"verdict: drop, ingress", drop_reason[1]},
            {"verdict: drop, egress", drop_reason[2]},
            {"verdict: drop, headroom", drop_reason[3]},
            {"verdict: drop, buffer", drop_reason[4]},
            {"pfc: XOFF", xoff},
            {"pfc: XON", xon},
            {"pfc: port XOFF (dsh)", port_xoff},
            {"pfc: port XON (dsh)", port_xon}};
  }
};

struct Packet {
  uint32_t in, out;
  uint8_t prio;
  uint32_t cells;
  uint8_t queue;  // egress queue: the PG, or (a quarter of the packets) another (issue 14)
};

// Runs `requests` admission requests through `ls`; stops early at the first mismatch.
template <class M>
Stats run(rtl::Lockstep<M>& ls, std::mt19937_64& rng, uint64_t requests) {
  const rtl::UnitParams& p = ls.unit().params();
  const admission::RtlParams rp = ls.rtl_params();
  auto pick = [&](uint64_t lo, uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  std::vector<Packet> live;
  Stats st;
  // Half the cases count the idle cycles between operations from their cycles, as a
  // co-simulation does (the gated unit clocked the fewest cycles that match, a pipelined
  // one streamed through them); all clock some explicitly (ls.idle).
  const bool from_cycles = rng() % 2;
  ls.set_idle_from_cycles(from_cycles);
  // The cycle of each operation: mostly 0..3 cycles after the last, now and then up to
  // 600 (abm's intervals roll; the threshold calculator loads in the gap).
  uint64_t cycle = 0;
  auto now = [&]() {
    cycle += rng() % 32 ? pick(0, 3) : pick(4, 600);
    st.gated_gaps += from_cycles && ls.core().idle_clocks_before(cycle) > 0;
    return cycle;
  };
  const uint32_t hot_out = uint32_t(pick(0, p.nports - 1));
  auto fresh = [&]() {
    Packet k{uint32_t(pick(0, p.nports - 1)), rng() % 3 ? hot_out : uint32_t(pick(0, p.nports - 1)),
             uint8_t(pick(0, p.nprio - 1)), uint32_t(pick(1, 8)), 0};
    k.queue = rng() % 4 ? k.prio : uint8_t(pick(0, p.nprio - 1));
    if (k.queue != k.prio) ++st.queue_not_prio;
    return k;
  };
  auto req = [](const Packet& k, uint64_t t) { return admission::Request{k.in, k.out, k.prio, k.cells, t, k.queue}; };
  auto dep = [](const Packet& k, uint64_t t) { return admission::Departure{k.in, k.out, k.prio, k.cells, t, k.queue}; };
  auto take = [&]() {
    const size_t i = size_t(pick(0, live.size() - 1));
    const Packet k = live[i];
    live[i] = live.back();
    live.pop_back();
    return k;
  };
  auto admit = [&](const Packet& k) {
    const admission::Result r = ls.admit(req(k, now()));
    ++st.requests;
    if (ls.mismatch().any) return;
    if (r.verdict != admission::Verdict::kDrop) live.push_back(k);
    st.count(r);
  };
  auto release = [&](const Packet& k) {
    const admission::PfcUpdate u = ls.depart(dep(k, now()));
    ++st.releases;
    if (!ls.mismatch().any) st.count(u);
  };
  auto write = [&](const testgen::CsrWrite& w) {
    const std::string before = ls.config().policy;
    const uint8_t k_before = ls.config().ewma.k;
    const uint64_t cong_before = ls.config().congestion.cells;
    const uint32_t period_before = ls.config().thresholds.period_cycles;
    const bool ok = ls.csr_write(w.addr, w.data);
    if (ok) ++st.csr_writes;
    else ++st.csr_refused;
    st.policy_changes += ls.config().policy != before;
    st.ewma_k_under_traffic += ok && !live.empty() && ls.config().ewma.k != k_before;
    st.congested_changed += ok && ls.config().congestion.cells != cong_before;
    st.period_changes += ok && !live.empty() && ls.config().thresholds.period_cycles != period_before;
    st.congested_refused_busy += !ok && !live.empty() && admission::reg_name(w.addr, rp) == "CONGESTED_CELLS";
  };
  auto held = [&]() {
    uint64_t cells = 0;
    for (const Packet& k : live) cells += k.cells;
    return cells;
  };
  // The smallest buffer software may program: no pool, nor the headroom pool, larger (the
  // core's configuration check, which the RTL leaves to software).
  auto buffer_floor = [&]() {
    const admission::CoreConfig& c = ls.config();
    uint64_t floor = std::max<uint64_t>(c.headroom_pool_cells, 1);
    for (uint64_t p : c.pool_cells) floor = std::max(floor, p);
    return floor;
  };
  while (st.requests < requests && !ls.mismatch().any) {
    const uint64_t roll = pick(0, 999);
    if (roll < 8) {
      // Under traffic: a live field, now and then an accounting field (refused unless the
      // buffer happens to be empty) or a value the unit refuses.
      const uint64_t kind = pick(0, 7);
      write(kind == 0 ? testgen::illegal_write(rng, ls.config(), rp)
                      : testgen::random_write(rng, ls.config(), rp, kind == 1));
    } else if (roll < 10) {
      // Drain the buffer, then rewrite accounting registers (policy, pools, reserved
      // sizes, queue maps, CONGESTED_CELLS) on the empty unit.
      while (!live.empty() && !ls.mismatch().any) release(take());
      ++st.drains;
      for (uint64_t n = pick(1, 6); n > 0; --n) write(testgen::random_write(rng, ls.config(), rp, true));
    } else if (roll < 11 && pick(0, 9) == 0) {
      ls.reset();
      live.clear();
      ++st.resets;
    } else if (roll < 14 && buffer_floor() < held()) {
      // Squeeze: BUFFER_CELLS (a live register) cut below what the buffer holds under
      // traffic, a few requests, then the old size back: drops for the buffer limit.
      const uint64_t old = ls.config().buffer_cells, h = held();
      write({admission::regs::BUFFER_CELLS_ADDR, uint32_t(std::max(buffer_floor(), h - 1 - pick(0, h / 4)))});
      for (uint64_t n = pick(1, 4); n > 0 && st.requests < requests; --n) admit(fresh());
      write({admission::regs::BUFFER_CELLS_ADDR, uint32_t(old)});
      ++st.squeezes;
    } else if (roll < 30) {
      // Idle cycles: the threshold calculator loads between operations.
      ls.idle(pick(1, 3));
      ++st.idle;
    } else if (roll < 100) {
      // The same queue in consecutive cycles.
      const Packet k = fresh();
      for (uint64_t n = pick(2, 6); n > 0 && st.requests < requests; --n) admit(k);
      ++st.bursts;
    } else if (live.empty() || roll < 400) {
      admit(fresh());
    } else if (roll < 700) {
      // A release and a request in the same cycle; the request often names the release's
      // queues, port or priority (a quarter of the time exactly its queues), so every
      // forwarding path between the two slots is exercised.
      const Packet d = take();
      Packet k = fresh();
      if (rng() % 4 == 0) {
        k.in = d.in;
        k.out = d.out;
        k.prio = d.prio;
        k.queue = d.queue;
        ++st.same_queue;
      } else {
        if (rng() % 2) k.in = d.in;
        if (rng() % 2) k.out = d.out;
        if (rng() % 2) k.prio = d.prio;
      }
      const uint64_t t = now();
      const auto res = ls.depart_and_admit(dep(d, t), req(k, t));
      if (res.second.verdict != admission::Verdict::kDrop) live.push_back(k);
      ++st.requests;
      ++st.releases;
      ++st.pairs;
      st.pair_same_in += k.in == d.in;
      st.pair_same_out += k.out == d.out;
      st.pair_same_prio += k.prio == d.prio;
      if (!ls.mismatch().any) {
        st.count(res.first);
        st.count(res.second);
      }
    } else {
      release(take());
    }
  }
  return st;
}

}  // namespace mmusim::soak
