#pragma once
// One case of the RTL lockstep soak: random traffic with hazards and run-time CSR writes
// on a Lockstep (golden core + Verilated unit), everything drawn from one generator so the
// case seed replays it exactly. Used by the soak tool (rtl_soak.cc) and the random
// lockstep tests (tb/rtl/test_rtl_lockstep.cc).
#include <cstdint>
#include <random>
#include <vector>

#include "../common/random_csr.h"
#include "cosim/lockstep.h"

namespace mmusim::soak {

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
  }
};

struct Packet {
  uint32_t in, out;
  uint8_t prio;
  uint32_t cells;
};

// Runs `requests` admission requests through `ls`; stops early at the first mismatch.
template <class M>
Stats run(rtl::Lockstep<M>& ls, std::mt19937_64& rng, uint64_t requests) {
  const rtl::UnitParams& p = ls.unit().params();
  const admission::RtlParams rp = ls.rtl_params();
  auto pick = [&](uint64_t lo, uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  std::vector<Packet> live;
  Stats st;
  const uint32_t hot_out = uint32_t(pick(0, p.nports - 1));
  auto fresh = [&]() {
    return Packet{uint32_t(pick(0, p.nports - 1)), rng() % 3 ? hot_out : uint32_t(pick(0, p.nports - 1)),
                  uint8_t(pick(0, p.nprio - 1)), uint32_t(pick(1, 8))};
  };
  auto take = [&]() {
    const size_t i = size_t(pick(0, live.size() - 1));
    const Packet k = live[i];
    live[i] = live.back();
    live.pop_back();
    return k;
  };
  auto admit = [&](const Packet& k) {
    if (ls.admit({k.in, k.out, k.prio, k.cells, 0}).verdict != admission::Verdict::kDrop) live.push_back(k);
    ++st.requests;
  };
  auto release = [&](const Packet& k) {
    ls.depart({k.in, k.out, k.prio, k.cells, 0});
    ++st.releases;
  };
  auto write = [&](const testgen::CsrWrite& w) {
    const std::string before = ls.config().policy;
    if (ls.csr_write(w.addr, w.data)) ++st.csr_writes;
    else ++st.csr_refused;
    st.policy_changes += ls.config().policy != before;
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
        ++st.same_queue;
      } else {
        if (rng() % 2) k.in = d.in;
        if (rng() % 2) k.out = d.out;
        if (rng() % 2) k.prio = d.prio;
      }
      const auto res = ls.depart_and_admit({d.in, d.out, d.prio, d.cells, 0}, {k.in, k.out, k.prio, k.cells, 0});
      if (res.second.verdict != admission::Verdict::kDrop) live.push_back(k);
      ++st.requests;
      ++st.releases;
      ++st.pairs;
    } else {
      release(take());
    }
  }
  return st;
}

}  // namespace mmusim::soak
