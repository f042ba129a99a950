// The RTL admission unit against the golden C++ core, decision for decision: directed
// cases per policy with hand-computed outcomes, then constrained-random stimulus over
// random configurations and three parameter sets. Any mismatch fails with the cycle, the
// operation, what the core said and what the RTL said, and is replayed into an FST
// waveform next to the test binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "Vmmu_big.h"
#include "Vmmu_mid.h"
#include "Vmmu_p3mid.h"
#include "Vmmu_pmid.h"
#include "Vmmu_psmall.h"
#include "Vmmu_small.h"
#include "../campaign/rtl_soak.h"
#include "cosim/lockstep.h"
#include "rtl_test_configs.h"

using namespace mmusim;
using namespace mmusim::rtl;
using admission::PfcEvent;
using admission::Verdict;
using namespace mmusim::rtl::testcfg;

namespace {

using soak::Packet;

template <class M>
void expect_clean(const Lockstep<M>& ls) {
  EXPECT_FALSE(ls.mismatch().any) << ls.mismatch().report;
}

// -------- directed, per policy (on the mid-size unit) ----------------------------------

class Directed : public ::testing::TestWithParam<std::string> {};

// An index past each region and the addresses past the map read zero, though the entry an
// index would alias to (index mod 2^bits: queue kLl of port 0, port 0, pool 0) holds
// state; the scalar words are the statistics ports'.
TEST_P(Directed, DebugPortWordsPastTheStateReadZero) {
  namespace sm = mmusim::rtl::state_map;
  Lockstep<Vmmu_mid> ls(directed_config(kMid, GetParam()), kMid);
  for (int i = 0; i < 400; ++i) ls.admit({0, 0, uint8_t(kLl), 2, 0});
  expect_clean(ls);
  auto& u = ls.unit();
  const uint32_t nq = kMid.nports * kMid.nprio;
  ASSERT_GT(u.peek(sm::kIng, kLl), 0u);
  ASSERT_GT(u.peek(sm::kPoolUsed, 0), 0u);
  for (sm::Region r : {sm::kIng, sm::kHdrm, sm::kEgr, sm::kPaused, sm::kAvgIn, sm::kAvgEg}) {
    EXPECT_EQ(u.peek(r, nq + kLl), 0u) << r;
    EXPECT_EQ(u.peek(r, 0xfff), 0u) << r;
  }
  EXPECT_EQ(u.peek(sm::kNcong, 24), 0u);
  for (sm::Region r : {sm::kAbmIn, sm::kAbmEg}) {
    EXPECT_EQ(u.peek(r, nq + kLl), 0u) << r;
    EXPECT_EQ(u.peek(r, 3 * 512 + kLl), 0u) << r;  // past the tag field
  }
  for (sm::Region r : {sm::kPortPaused, sm::kPortShared, sm::kPortIns}) EXPECT_EQ(u.peek(r, kMid.nports), 0u) << r;
  EXPECT_EQ(u.peek(sm::kPoolUsed, kMid.npools), 0u);
  EXPECT_EQ(u.peek(sm::kScalar, sm::kTotal), u.total());
  EXPECT_EQ(u.peek(sm::kScalar, sm::kHdrmUsed), u.hdrm_pool());
  EXPECT_EQ(u.peek(sm::kScalar, sm::kUnderflow), uint64_t(u.underflow()));
  EXPECT_EQ(u.peek(sm::kScalar, 3), 0u);
  for (uint32_t r = 14; r < 16; ++r) EXPECT_EQ(u.peek(sm::Region(r), 0), 0u) << r;
}

TEST_P(Directed, ExactlyAtThreshold) {
  // With an idle cycle after each admission the threshold calculator (THRESH_PERIOD 1)
  // has the whole occupancy: dt: q >= 600 - q first at q = 300; reverie (Eq. 4, q_hat <=
  // Gamma admits): 301; dsh: XOFF once q > (600 - q) - 50, i.e. at the 276th cell, which
  // is still admitted; static: the threshold alpha x 600 = 600 is never reached first, the
  // pool fills at 600; sih: dt's thresholds. Back to back, the threshold misses the
  // previous cycle's cell: dt q >= 600 - (q - 1) first at q = 301; dsh q > 600 - (q - 2)
  // - 50 at the 277th cell; static and reverie (its filter updates on dequeue: q_hat 0,
  // the pool decides) do not move. A cycle between the requests' cycles, counted as a
  // co-simulation does (the gated unit clocked through it), is an idle cycle.
  const std::string pol = GetParam();
  for (const int mode : {0, 1, 2}) {  // idle() after each, back to back, every other cycle
    const bool idle = mode != 1;
    Lockstep<Vmmu_mid> ls(directed_config(kMid, pol), kMid);
    ls.set_idle_from_cycles(mode == 2);
    uint32_t shared = 0, xoff_at = 0;
    for (uint32_t i = 1; i <= 700 && !xoff_at; ++i) {
      const auto r = ls.admit({0, 1, uint8_t(kLl), 1, mode == 2 ? 2 * uint64_t(i) : 0});
      if (r.verdict == Verdict::kAdmitShared) ++shared;
      if (r.pfc == PfcEvent::kXoff) xoff_at = i;
      if (mode == 0) ls.idle();
    }
    expect_clean(ls);
    const uint32_t late = idle ? 0 : 1;
    if (pol == "dt" || pol == "sih" || pol == "abm") {  // abm: n_p = 1, no departures (full rate)
      EXPECT_EQ(shared, 300u + late) << mode;
      EXPECT_EQ(xoff_at, 301u + late) << mode;
    } else if (pol == "static") {
      EXPECT_EQ(shared, 600u) << mode;
      EXPECT_EQ(xoff_at, 601u) << mode;
    } else if (pol == "reverie") {
      EXPECT_EQ(shared, 301u) << mode;
      EXPECT_EQ(xoff_at, 302u) << mode;
    } else {
      EXPECT_EQ(xoff_at, 276u + late) << mode;
      EXPECT_EQ(shared, 276u + late) << mode;
    }
  }
}

TEST_P(Directed, HeadroomExhaustion) {
  const std::string pol = GetParam();
  Lockstep<Vmmu_mid> ls(directed_config(kMid, pol), kMid);
  uint32_t headroom = 0, drops = 0;
  for (int i = 0; i < 1200 && drops == 0; ++i) {
    const auto r = ls.admit({0, 1, uint8_t(kLl), 1, 0});
    headroom += r.verdict == Verdict::kAdmitHeadroom;
    if (r.verdict == Verdict::kDrop) {
      ++drops;
      EXPECT_EQ(r.reason, admission::DropReason::kHeadroom);
    }
  }
  expect_clean(ls);
  // dt, reverie, static, sih: the PG's xoff (50; sih's pool, 8 x 50, does not bind). dsh:
  // queue XOFF keeps admitting to the shared segment until the port XOFF; then the port's
  // insurance (its largest xoff, 50).
  EXPECT_EQ(headroom, 50u);
  EXPECT_EQ(drops, 1u);
  // Drain it all: every counter returns to zero in both, XON on the way.
  bool xon = false;
  while (ls.core().total_used()) xon |= ls.depart({0, 1, uint8_t(kLl), 1, 0}).pfc == PfcEvent::kXon;
  EXPECT_TRUE(xon);
  EXPECT_EQ(ls.unit().total(), 0u);
  expect_clean(ls);
}

TEST_P(Directed, SimultaneousEnqueueAndDequeueOnOneQueue) {
  Lockstep<Vmmu_mid> ls(directed_config(kMid, GetParam()), kMid);
  for (int i = 0; i < 400; ++i) ls.admit({0, 1, uint8_t(kLl), 2, 0});
  for (int i = 0; i < 300; ++i) ls.depart_and_admit({0, 1, uint8_t(kLl), 2, 0}, {0, 1, uint8_t(kLl), 2, 0});
  expect_clean(ls);
}

TEST_P(Directed, ResetInTheMiddleOfTraffic) {
  Lockstep<Vmmu_mid> ls(directed_config(kMid, GetParam()), kMid);
  for (int i = 0; i < 350; ++i) ls.admit({uint32_t(i % 3), 1, uint8_t(i % 2 ? kLl : kLy), 1, 0});
  ls.reset();
  EXPECT_EQ(ls.unit().total(), 0u);
  EXPECT_EQ(ls.core().total_used(), 0u);
  for (int i = 0; i < 350; ++i) ls.admit({uint32_t(i % 3), 1, uint8_t(i % 2 ? kLl : kLy), 1, 0});
  expect_clean(ls);
}

TEST_P(Directed, RegisterWritesWhileTrafficFlows) {
  Lockstep<Vmmu_mid> ls(directed_config(kMid, GetParam()), kMid);
  namespace R = admission::regs;
  for (int i = 0; i < 200; ++i) ls.admit({0, 1, uint8_t(kLl), 1, 0});
  // Run-time fields: alpha of the lossless profile to 2 (shift 1), its xoff, buffer.
  EXPECT_TRUE(ls.csr_write(R::IPROF_MODE_ADDR, (1u << 8) | (1u << 16)));
  EXPECT_TRUE(ls.csr_write(R::IPROF_XOFF_ADDR, 80));
  EXPECT_TRUE(ls.csr_write(R::BUFFER_CELLS_ADDR, 1000));
  EXPECT_TRUE(ls.csr_write(R::POOL_SIZE_ADDR, 500));  // shrink the ingress pool under load
  for (int i = 0; i < 400; ++i) ls.admit({0, 1, uint8_t(kLl), 1, 0});
  // Accounting fields need an empty buffer: both refuse them now.
  EXPECT_FALSE(ls.csr_write(R::IPROF_RESERVED_ADDR, 5));
  EXPECT_FALSE(ls.csr_write(R::QMAP_ADDR, 0));
  while (ls.core().total_used()) ls.depart({0, 1, uint8_t(kLl), 1, 0});
  EXPECT_TRUE(ls.csr_write(R::IPROF_RESERVED_ADDR, 5));
  for (int i = 0; i < 100; ++i) ls.admit({0, 1, uint8_t(kLl), 1, 0});
  expect_clean(ls);
}

// Releases of every size from one state, each from a fresh reset: port 0's lossless PG
// (reserved 20, xon 40, xon_offset 10) paused with cells in headroom, beside 300 lossy
// cells in its pool (so that its threshold is low), then one release of k cells for k = 1
// to all of them: every split between headroom and the shared part and each XON test's
// boundary +-1 (the queue empty, shared part below xon, shared part + xon_offset at the
// threshold); alone, and with a request in the same cycle on the same PG,
// on port 1's lossless PG and on the lossy PG (one pool: dual issue's request decides on
// the registers and the release's refund). The whole state is compared with the core
// after each operation, so an inexact fold of these tests fails here.
struct ReleaseCounts {
  uint32_t xon = 0, still_paused = 0;
};
template <class M>
ReleaseCounts releases_of_every_size(const UnitParams& p, const std::string& pol) {
  admission::CoreConfig c = directed_config(p, pol);
  c.ingress_profiles[0].reserved_cells = 20;
  c.ingress_profiles[0].xon_cells = 40;
  Lockstep<M> ls(c, p);
  ReleaseCounts n;
  const admission::Request with[] = {{0, 1, uint8_t(kLl), 1, 0}, {1, 1, uint8_t(kLl), 3, 0}, {2, 1, uint8_t(kLy), 2, 0}};
  uint32_t held = 0;  // the PG's cells before the release
  for (int variant = 0; variant <= 3; ++variant) {
    for (uint32_t k = 1; k <= held || k == 1; ++k) {
      ls.reset();
      ls.admit({2, 1, uint8_t(kLy), 300, 0});
      ls.admit({1, 1, uint8_t(kLl), 5, 0});
      uint32_t to_h = 0;
      held = 0;
      while (to_h < 12) {
        const auto r = ls.admit({0, 1, uint8_t(kLl), 4, 0});
        if (r.verdict == Verdict::kDrop) break;
        held += 4;
        to_h += r.verdict == Verdict::kAdmitHeadroom ? 4 : 0;
      }
      ls.idle(2);
      const admission::Departure d{0, 1, uint8_t(kLl), k, 0};
      const auto u = variant == 0 ? ls.depart(d) : ls.depart_and_admit(d, with[variant - 1]).first;
      n.xon += u.pfc == PfcEvent::kXon;
      n.still_paused += u.pfc != PfcEvent::kXon && ls.core().paused(0, kLl);
      EXPECT_FALSE(ls.mismatch().any) << pol << " variant " << variant << " k " << k << ": " << ls.mismatch().report;
      if (ls.mismatch().any) return n;
    }
  }
  return n;
}

TEST_P(Directed, ReleasesOfEverySizeFromOneState) {
  const ReleaseCounts n = releases_of_every_size<Vmmu_mid>(kMid, GetParam());
  EXPECT_GT(n.xon, 0u);
  EXPECT_GT(n.still_paused, 0u);
  const ReleaseCounts s = releases_of_every_size<Vmmu_small>(kSmall, GetParam());  // single issue
  EXPECT_GT(s.xon, 0u);
  std::printf("%s: %u releases with XON, %u leaving the PG paused\n", GetParam().c_str(), n.xon, n.still_paused);
}

INSTANTIATE_TEST_SUITE_P(Policies, Directed, ::testing::Values("dt", "reverie", "dsh", "static", "sih", "abm"),
                         [](const auto& info) { return info.param; });

// Issue 12 through the unit, the whole state compared after every operation and write:
// CTRL.ewma_k written under traffic reaches the filter (k 0: q_hat = the length the arrival
// sees, 150 cells); CONGESTED_CELLS written on the empty buffer reaches n_p (60: lossy
// queues of 50 cells are not congested, n_p = 0, Gamma = 600 - 100 = 500, where the old
// level of 1 counted both: 250); a policy change restarts the filters (q_hat 0 again).
// Values the core refuses (CONGESTED_CELLS 0, a missing profile) the unit refuses too.
TEST(DirectedWrites, EwmaKCongestedCellsAndPolicyChangeReachUnitAndCore) {
  namespace R = admission::regs;
  admission::CoreConfig c = directed_config(kMid, "reverie");
  c.ewma.k = 10;
  c.ewma.clamp = false;
  Lockstep<Vmmu_mid> ls(c, kMid);
  const uint32_t q = 0 * kMid.nprio + kLl;
  for (int i = 0; i < 10; ++i) ls.admit({0, 1, uint8_t(kLl), 1, 0});
  const uint32_t ctrl = ls.csr_read(R::CTRL_ADDR);
  EXPECT_TRUE(ls.csr_write(R::CTRL_ADDR, ctrl & ~R::CTRL_EWMA_K_MASK));  // k 0, same policy
  for (int i = 10; i <= 150; ++i) ls.admit({0, 1, uint8_t(kLl), 1, 0});
  EXPECT_EQ(ls.unit().avg_in(q), uint64_t(150) << 16);
  EXPECT_EQ(ls.core().compared_ingress_cells(0, kLl), 150u);
  // Pools and buffer shrunk below the occupancy (151 cells) under traffic: legal, the next
  // request pauses the queue and is a buffer drop (and no assertion fires: the occupancy
  // may sit above BUFFER_CELLS).
  for (uint32_t k = 0; k < 3; ++k) EXPECT_TRUE(ls.csr_write(R::POOL_SIZE_ADDR + k, 100));
  EXPECT_TRUE(ls.csr_write(R::BUFFER_CELLS_ADDR, 100));
  EXPECT_EQ(ls.admit({0, 1, uint8_t(kLl), 1, 0}).reason, admission::DropReason::kBuffer);
  EXPECT_TRUE(ls.csr_write(R::BUFFER_CELLS_ADDR, 1000));
  for (uint32_t k = 0; k < 3; ++k) EXPECT_TRUE(ls.csr_write(R::POOL_SIZE_ADDR + k, c.pool_cells[k]));
  ASSERT_FALSE(ls.mismatch().any) << ls.mismatch().report;
  EXPECT_TRUE(ls.csr_write(R::CTRL_ADDR, (ctrl & ~R::CTRL_EWMA_K_MASK) | (4u << R::CTRL_EWMA_K_LSB)));
  while (ls.core().total_used()) ls.depart({0, 1, uint8_t(kLl), 1, 0});
  EXPECT_GT(ls.unit().avg_in(q), 0u);  // no clamp: the filter still remembers the queue

  EXPECT_FALSE(ls.csr_write(R::CONGESTED_CELLS_ADDR, 0));  // every queue congested: refused
  EXPECT_FALSE(ls.csr_write(R::QMAP_ADDR, 31u << R::QMAP_QUEUE_PROFILE_LSB));  // no profile 31
  EXPECT_TRUE(ls.csr_write(R::CONGESTED_CELLS_ADDR, 60));
  for (uint32_t out = 0; out < 2; ++out)
    for (int i = 0; i < 50; ++i) ls.admit({0, out, uint8_t(kLy), 1, 0});
  EXPECT_EQ(ls.unit().ncong(kLy), 0u);
  // The threshold calculator (THRESH_PERIOD 1) registered the pool one cycle ago, before
  // the last admission: 600 - 99; after an idle cycle it has all 100 cells.
  EXPECT_EQ(ls.core().egress_threshold(0, kLy), 501u);
  ls.idle();
  EXPECT_EQ(ls.core().egress_threshold(0, kLy), 500u);
  for (uint32_t out = 0; out < 2; ++out)
    for (int i = 0; i < 50; ++i) ls.depart({0, out, uint8_t(kLy), 1, 0});

  const uint32_t now = ls.csr_read(R::CTRL_ADDR) & ~R::CTRL_POLICY_MASK;
  EXPECT_TRUE(ls.csr_write(R::CTRL_ADDR, now | R::CTRL_POLICY_DT));
  EXPECT_TRUE(ls.csr_write(R::CTRL_ADDR, now | R::CTRL_POLICY_REVERIE));
  EXPECT_EQ(ls.unit().avg_in(q), 0u);
  expect_clean(ls);
}

TEST(DirectedLimits, CountersReachTheirWidthAndThresholdsSaturate) {
  // 16-bit unit: a 65535-cell buffer fills exactly, the next cell is a buffer drop, and
  // alpha = 2^15 saturates the threshold at 65535 instead of wrapping.
  admission::CoreConfig c = directed_config(kSmall, "dt");
  c.buffer_cells = 65535;
  c.pool_cells = {65535, 65535, 65535};
  c.headroom_pool_cells = 0;
  c.ingress_profiles[0].th = {true, 15, 0};
  c.ingress_profiles[1].th = {true, 15, 0};
  c.egress_profiles[0].th = {false, 0, 65535};
  c.egress_profiles[1].th = {true, 15, 0};
  Lockstep<Vmmu_small> ls(c, kSmall);
  EXPECT_EQ(ls.core().ingress_threshold(0, kLy), 65535u);
  uint64_t admitted = 0;
  admission::Result r;
  for (;;) {
    r = ls.admit({0, 1, uint8_t(kLy), 1000, 0});
    if (r.verdict == Verdict::kDrop) break;
    admitted += 1000;
  }
  EXPECT_EQ(admitted, 65000u);
  r = ls.admit({0, 1, uint8_t(kLy), 535, 0});
  EXPECT_EQ(r.verdict, Verdict::kAdmitShared);
  r = ls.admit({0, 1, uint8_t(kLy), 1, 0});
  EXPECT_EQ(r.verdict, Verdict::kDrop);
  EXPECT_EQ(ls.unit().total(), 65535u);
  expect_clean(ls);
}

// -------- issue rate --------------------------------------------------------------------

// One request per cycle sustained on the dual-issue unit: 4 000 cycles, each with a
// request, on three ingress ports and two priorities towards one egress port, and the
// release of the oldest buffered packet in the same cycle. Blocks of 500 cycles alternate
// filling (3-cell requests, a release every other cycle) and draining (1-cell requests,
// a release every cycle), so the queues pass their thresholds (XOFF, headroom, drops) and
// come back (XON) while the unit takes a request every cycle.
class Sustained : public ::testing::TestWithParam<std::string> {};

// The sustained traffic (above) on `ls`, one cycle each: the counts of what it met.
struct SustainedCounts {
  uint64_t cycles = 0;
  uint32_t decisions = 0, xoff = 0, xon = 0, drops = 0, releases = 0;
};
template <class M>
SustainedCounts sustained_traffic(Lockstep<M>& ls, uint64_t n) {
  namespace R = admission::regs;
  std::mt19937_64 rng(7);
  std::deque<Packet> live;
  SustainedCounts k;
  const uint32_t decisions_before = ls.csr_read(R::STAT_DECISIONS_ADDR);
  const uint64_t cycle_before = ls.unit().cycle();
  for (uint64_t c = 0; c < n; ++c) {
    const bool drain = (c / 500) % 2 == 1;
    const Packet p{uint32_t(rng() % 3), 1, uint8_t(rng() % 4 ? kLl : kLy), drain ? 1u : 3u, 0};
    const admission::Request r{p.in, p.out, p.prio, p.cells, c};  // cycle c: abm's intervals roll
    admission::Result res;
    if (live.empty() || (!drain && c % 2)) {
      res = ls.admit(r);
    } else {
      const Packet d = live.front();
      live.pop_front();
      const auto [rel, req] = ls.depart_and_admit({d.in, d.out, d.prio, d.cells, c}, r);
      k.xon += rel.pfc == PfcEvent::kXon;
      ++k.releases;
      res = req;
    }
    k.xoff += res.pfc == PfcEvent::kXoff;
    if (res.verdict == Verdict::kDrop) ++k.drops;
    else live.push_back(p);
  }
  k.cycles = ls.unit().cycle() - cycle_before;
  k.decisions = ls.csr_read(R::STAT_DECISIONS_ADDR) - decisions_before;  // drains the pipeline first
  return k;
}

TEST_P(Sustained, OneRequestPerCycleWhileReleasesCompete) {
  Lockstep<Vmmu_mid> ls(directed_config(kMid, GetParam()), kMid);
  ASSERT_TRUE(kMid.dual_issue);
  constexpr uint64_t kCycles = 4000;
  const SustainedCounts k = sustained_traffic(ls, kCycles);
  expect_clean(ls);
  EXPECT_EQ(k.cycles, kCycles) << "requests: " << kCycles;
  EXPECT_EQ(k.decisions, kCycles);
  EXPECT_GT(k.xoff, 0u);
  EXPECT_GT(k.xon, 0u);
  EXPECT_GT(k.drops, 0u);
  std::printf("%s: %llu requests and %u releases in %llu cycles; %u XOFF, %u XON, %u drops\n",
              GetParam().c_str(), (unsigned long long)kCycles, k.releases, (unsigned long long)k.cycles, k.xoff, k.xon,
              k.drops);
}

INSTANTIATE_TEST_SUITE_P(Policies, Sustained, ::testing::Values("dt", "reverie", "dsh", "static", "sih", "abm"),
                         [](const auto& info) { return info.param; });

// The single-issue unit (DUAL_ISSUE 0) holds a request offered with a release for one
// cycle: a pair takes two cycles, and the request still decides after the release.
TEST(SingleIssue, ARequestOfferedWithAReleaseWaitsOneCycle) {
  ASSERT_FALSE(kSmall.dual_issue);
  for (const char* pol : {"dt", "reverie", "dsh", "static", "sih", "abm"}) {
    Lockstep<Vmmu_small> ls(directed_config(kSmall, pol), kSmall);
    for (int i = 0; i < 400; ++i) ls.admit({0, 1, uint8_t(kLl), 2, 0});
    const uint64_t before = ls.unit().cycle();
    for (int i = 0; i < 100; ++i) ls.depart_and_admit({0, 1, uint8_t(kLl), 2, 0}, {0, 1, uint8_t(kLl), 2, 0});
    EXPECT_TRUE(ls.unit().request_waited());
    EXPECT_EQ(ls.unit().cycle() - before, 200u) << pol;
    expect_clean(ls);
  }
}

// A release and a request in one cycle: the request's pool test reads the pool registers,
// the release's refund of a pool reaching it a cycle later ("The pool refund's lag",
// docs/rtl.md). Lossy profiles with static thresholds of 1000 and 60 requests of 10 cells
// fill ingress pool 0 and egress pool 2 to their 600 cells; the same-cycle request is
// dropped at ingress (600 + 10 > 600), the next one admitted (590 + 10), on the one-cycle
// and the pipelined unit.
template <class M>
void pool_refund_lags(const UnitParams& p) {
  admission::CoreConfig c = directed_config(p, "dt");
  c.egress_profiles[1] = {2, 0, {false, 0, 1000}};
  Lockstep<M> ls(c, p);
  for (int i = 0; i < 60; ++i) ASSERT_EQ(ls.admit({0, 1, uint8_t(kLy), 10, 0}).verdict, Verdict::kAdmitShared);
  const auto got = ls.depart_and_admit({0, 1, uint8_t(kLy), 10, 0}, {1, 0, uint8_t(kLy), 10, 0}).second;
  EXPECT_EQ(got.verdict, Verdict::kDrop);
  EXPECT_EQ(got.reason, admission::DropReason::kIngress);
  EXPECT_EQ(ls.admit({1, 0, uint8_t(kLy), 10, 0}).verdict, Verdict::kAdmitShared);
  ls.drain();
  EXPECT_EQ(ls.unit().peek(state_map::kPoolUsed, 0), 600u);
  EXPECT_EQ(ls.unit().peek(state_map::kPoolUsed, 2), 600u);
  expect_clean(ls);
}

TEST(DualIssue, TheSameCycleReleasesPoolRefundReachesTheRequestsPoolTestACycleLater) {
  ASSERT_TRUE(kMid.dual_issue && kPipeMid.dual_issue);
  pool_refund_lags<Vmmu_mid>(kMid);
  pool_refund_lags<Vmmu_pmid>(kPipeMid);
}

// -------- the pipelined unit (PIPE 1) ---------------------------------------------------

// The response comes two cycles after the request: none at the edge of the request's
// cycle, then the verdict at the next edge (and the counters with it).
TEST(Pipelined, ResponseTwoCyclesAfterTheRequest) {
  Lockstep<Vmmu_pmid> ls(directed_config(kPipeMid, "dt"), kPipeMid);
  auto& u = ls.unit();
  const admission::Request r{0, 1, uint8_t(kLl), 5, 0};
  const CycleOut first = u.step(nullptr, &r);
  EXPECT_FALSE(first.rsp_valid);
  EXPECT_EQ(u.total(), 0u);
  const CycleOut second = u.step(nullptr, nullptr);
  EXPECT_TRUE(second.rsp_valid);
  EXPECT_EQ(second.rsp.verdict, Verdict::kAdmitShared);
  EXPECT_EQ(u.total(), 5u);
  const CycleOut third = u.step(nullptr, nullptr);
  EXPECT_FALSE(third.rsp_valid);
}

// The verdict on port 1's lossy PG for one cell requested in the cycle of the CSR write `w`
// (the pipelined unit's response a cycle later).
template <class M>
Verdict verdict_with_write(const admission::CoreConfig& c, const UnitParams& p,
                           std::pair<uint32_t, uint32_t> w) {
  Lockstep<M> ls(c, p);
  auto& u = ls.unit();
  const admission::Request r{1, 2, uint8_t(kLy), 1, 0};
  CycleOut o = u.step(nullptr, &r, &w);
  if (p.pipe) o = u.step(nullptr, nullptr);
  EXPECT_TRUE(o.rsp_valid);
  return o.rsp.verdict;
}

// A request taken in the cycle of a CSR write is decided after it, on the new
// configuration: on an empty buffer, QMAP moves the lossy queue to the static profile 1
// (static_th 0 after the write below: every cell over) in the request's cycle; the request
// is dropped. Taken a cycle later than the write it is dropped on both units; taken in the
// write's cycle the one-cycle unit (PIPE 0) still decides on the old map (admitted), the
// pipelined unit on the new one (the read stage's look-up takes the write's next value).
TEST(Pipelined, ARequestTakenWithACsrWriteDecidesOnTheWrittenConfiguration) {
  namespace R = admission::regs;
  admission::CoreConfig c = directed_config(kPipeMid, "dt");
  c.ingress_profiles[1].th = {false, 0, 0};  // profile 1: static_th 0
  c.pg_profile[1 * kPipeMid.nprio + kLy] = 0;  // port 1's lossy PG on the dynamic profile 0
  c.lossless[1 * kPipeMid.nprio + kLy] = 0;
  const std::pair<uint32_t, uint32_t> w{R::QMAP_ADDR + 1 * kPipeMid.nprio + kLy, 1u | (1u << R::QMAP_QUEUE_PROFILE_LSB)};
  EXPECT_EQ(verdict_with_write<Vmmu_pmid>(c, kPipeMid, w), Verdict::kDrop);
  EXPECT_EQ(verdict_with_write<Vmmu_mid>(c, kMid, w), Verdict::kAdmitShared);
}

// The look-up substitutes the write's data at each of its levels (mmu_adm_lookup): per
// case a write, in the request's cycle, to the entry the request's look-up names (port 1's
// lossy PG on ingress profile 1, port 2's lossy queue on egress profile 1), that turns the
// verdict: the pipelined unit decides on the written value, the one-cycle unit on the old.
TEST(Pipelined, ARequestTakenWithAWriteToTheEntryItLooksUpDecidesOnTheWrittenEntry) {
  namespace R = admission::regs;
  const uint32_t q = 1 * kPipeMid.nprio + kLy, eq = 2 * kPipeMid.nprio + kLy;
  const uint32_t qmap = 1u | (1u << R::QMAP_QUEUE_PROFILE_LSB);  // profiles 1 and 1, lossy
  struct Case {
    const char* what;
    std::function<void(admission::CoreConfig&)> setup;
    std::pair<uint32_t, uint32_t> w;
    Verdict piped, one_cycle;
  };
  const Case cases[] = {
      {"IPROF_RESERVED: the cell fits in the new reserved cells",
       [](auto& c) { c.ingress_profiles[1].th = {false, 0, 0}; },
       {R::IPROF_RESERVED_ADDR + 1 * R::IPROF_STRIDE, 5}, Verdict::kAdmitShared, Verdict::kDrop},
      {"EPROF_RESERVED: likewise at egress",
       [](auto& c) { c.egress_profiles[1].th = {false, 0, 0}; },
       {R::EPROF_RESERVED_ADDR + 1 * R::EPROF_STRIDE, 5}, Verdict::kAdmitShared, Verdict::kDrop},
      {"IPROF_MODE: the profile moves to the empty pool 3",
       [](auto&) {}, {R::IPROF_MODE_ADDR + 1 * R::IPROF_STRIDE, 3}, Verdict::kDrop, Verdict::kAdmitShared},
      {"EPROF_MODE: likewise at egress",
       [](auto&) {}, {R::EPROF_MODE_ADDR + 1 * R::EPROF_STRIDE, 3u | (1u << R::EPROF_MODE_DYNAMIC_LSB)},
       Verdict::kDrop, Verdict::kAdmitShared},
      {"QMAP: ingress profile 0 (reserved 5 cells, read at the written profile)",
       [](auto& c) {
         c.ingress_profiles[1].th = {false, 0, 0};
         c.ingress_profiles[0].th = {false, 0, 0};
         c.ingress_profiles[0].reserved_cells = 5;
       },
       {R::QMAP_ADDR + q, qmap & ~1u}, Verdict::kAdmitShared, Verdict::kDrop},
      {"QMAP: ingress profile 0 on the empty pool 3 (the pool read at the written profile)",
       [](auto& c) {
         c.ingress_profiles[0].th = {false, 0, 1000};
         c.ingress_profiles[0].pool = 3;
       },
       {R::QMAP_ADDR + q, qmap & ~1u}, Verdict::kDrop, Verdict::kAdmitShared},
      {"QMAP: the egress queue to egress profile 0 (static 0)",
       [](auto& c) { c.egress_profiles[0].th = {false, 0, 0}; },
       {R::QMAP_ADDR + eq, 1u}, Verdict::kDrop, Verdict::kAdmitShared},
      {"QMAP: the egress queue to egress profile 0 on the empty pool 3",
       [](auto& c) { c.egress_profiles[0].pool = 3; },
       {R::QMAP_ADDR + eq, 1u}, Verdict::kDrop, Verdict::kAdmitShared},
      {"QMAP: the egress queue to egress profile 0 (reserved 5 cells)",
       [](auto& c) {
         c.egress_profiles[1].th = {false, 0, 0};
         c.egress_profiles[0].th = {false, 0, 0};
         c.egress_profiles[0].reserved_cells = 5;
       },
       {R::QMAP_ADDR + eq, 1u}, Verdict::kAdmitShared, Verdict::kDrop},
      {"QMAP: lossless, over the threshold into headroom",
       [](auto& c) {
         c.ingress_profiles[1].th = {false, 0, 0};
         c.ingress_profiles[1].xoff_cells = 50;
       },
       {R::QMAP_ADDR + q, qmap | (1u << R::QMAP_LOSSLESS_LSB)}, Verdict::kAdmitHeadroom, Verdict::kDrop},
  };
  for (const Case& k : cases) {
    admission::CoreConfig c = directed_config(kPipeMid, "dt");
    c.pool_cells = {600, 1000, 600, 0};
    k.setup(c);
    EXPECT_EQ(verdict_with_write<Vmmu_pmid>(c, kPipeMid, k.w), k.piped) << k.what;
    EXPECT_EQ(verdict_with_write<Vmmu_mid>(c, kMid, k.w), k.one_cycle) << k.what;
  }
}

// A CSR write reaches the threshold calculator's outputs from the operations taken after
// its cycle, on both units: the pipelined unit's threshold registers (PIPE 1) load from the
// stored fields, so the request taken in the write's cycle (decided in the next) compares
// against the old threshold, as the one-cycle unit's (decided in the write's cycle) does;
// the request taken in the next cycle against the new one. Under traffic (port 0's lossless
// PG holding 200 cells, so n_p 1), POOL_SIZE[0] goes from 600 to 300: dt's alpha-1 threshold
// (and reverie's room b* - q*, its one pool being 0) from 600 - 200 = 400 to 300 - 201 = 99
// cells: the first request is admitted to the shared pool, the second goes over the
// threshold into headroom (XOFF). The golden core takes no operation in the write's cycle
// (Lockstep::csr_write drains the pipeline first): it decides the operations after it on
// the new value (tb/unit/test_threshold_timing.cc).
template <class M>
void threshold_write_under_traffic(const UnitParams& p, const std::string& pol) {
  namespace R = admission::regs;
  Lockstep<M> ls(directed_config(p, pol), p);
  const admission::Request r{0, 1, uint8_t(kLl), 1, 0};
  for (int i = 0; i < 200; ++i) ASSERT_EQ(ls.admit(r).verdict, Verdict::kAdmitShared) << pol << " cell " << i;
  ls.idle();
  expect_clean(ls);
  auto& u = ls.unit();
  const std::pair<uint32_t, uint32_t> w{R::POOL_SIZE_ADDR, 300u};
  std::vector<CycleOut> o;
  o.push_back(u.step(nullptr, &r, &w));  // taken with the write
  o.push_back(u.step(nullptr, &r));      // taken in the next cycle
  o.push_back(u.step(nullptr, nullptr));
  const CycleOut& first = o[p.pipe];
  const CycleOut& second = o[p.pipe + 1];
  ASSERT_TRUE(first.rsp_valid && second.rsp_valid) << pol << " pipe " << p.pipe;
  EXPECT_EQ(first.rsp.verdict, Verdict::kAdmitShared) << pol << " pipe " << p.pipe << ": the old threshold";
  EXPECT_EQ(first.rsp.pfc, PfcEvent::kNone) << pol << " pipe " << p.pipe;
  EXPECT_EQ(second.rsp.verdict, Verdict::kAdmitHeadroom) << pol << " pipe " << p.pipe << ": the new threshold";
  EXPECT_EQ(second.rsp.pfc, PfcEvent::kXoff) << pol << " pipe " << p.pipe;
}

TEST(Pipelined, AThresholdWriteUnderTrafficReachesTheRequestsTakenAfterItsCycle) {
  for (const char* pol : {"dt", "reverie", "sih"}) {
    threshold_write_under_traffic<Vmmu_pmid>(kPipeMid, pol);
    threshold_write_under_traffic<Vmmu_mid>(kMid, pol);
  }
}

// Reverie's one shared pool is a derived register (mmu_adm_derive) that loads a cycle
// after a write with PIPE 1; the read stage divides Gamma_p for the request taken in that
// cycle from the register's input, not from the register (rev_pool_nx_o). Port 0's
// lossless PG fills to 200 cells and drains (k 4, no clamp: q_hat stays above 0); on the
// empty buffer its profile moves from pool 0 (600 cells, alpha 1) to pool 3 (50 cells,
// alpha 2^-3). The first request after the write must compare q_hat with
// Gamma = 50/8 = 6 (over it: headroom, XOFF), not with the old pool's 600/8 = 75.
// Both units, against the golden core.
template <class M>
void reverie_pool_write_reaches_the_next_request(const UnitParams& p) {
  namespace R = admission::regs;
  admission::CoreConfig c = directed_config(p, "reverie");
  c.pool_cells = {600, 1000, 600, 50};
  c.ewma.k = 4;
  c.ewma.clamp = false;
  Lockstep<M> ls(c, p);
  const admission::Request r{0, 1, uint8_t(kLl), 1, 0};
  for (int i = 0; i < 200; ++i)
    ASSERT_EQ(ls.admit(r).verdict, Verdict::kAdmitShared) << "pipe " << p.pipe << " cell " << i;
  while (ls.core().total_used()) ls.depart({0, 1, uint8_t(kLl), 1, 0});
  const uint64_t q_hat = ls.unit().avg_in(0 * p.nprio + kLl) >> p.ewma_frac;
  ASSERT_TRUE(q_hat > 6 && q_hat < 75) << "pipe " << p.pipe << ": q_hat " << q_hat << " cells separates no Gamma";
  const uint32_t mode = 3u | (1u << R::IPROF_MODE_DYNAMIC_LSB) | ((uint32_t(-3) & 31u) << R::IPROF_MODE_SHIFT_LSB);
  ASSERT_TRUE(ls.csr_write(R::IPROF_MODE_ADDR, mode));
  const admission::Result first = ls.admit(r);
  EXPECT_EQ(first.verdict, Verdict::kAdmitHeadroom) << "pipe " << p.pipe;
  EXPECT_EQ(first.pfc, PfcEvent::kXoff) << "pipe " << p.pipe;
  ls.idle();
  expect_clean(ls);
}

TEST(Pipelined, AReveriePoolWriteReachesTheRequestTakenInTheNextCycle) {
  reverie_pool_write_reaches_the_next_request<Vmmu_pmid>(kPipeMid);
  reverie_pool_write_reaches_the_next_request<Vmmu_mid>(kMid);
}

// A profile's static threshold (IPROF_STATIC) likewise: port 1's lossy PG on the static
// profile 1, 100 cells going to 0 in the request's cycle: admitted on both units (the old
// threshold), and a request a cycle later dropped.
TEST(Pipelined, ARequestTakenWithAThresholdWriteDecidesOnTheOldThreshold) {
  namespace R = admission::regs;
  admission::CoreConfig c = directed_config(kPipeMid, "dt");
  c.ingress_profiles[1].th = {false, 0, 100};  // profile 1: static_th 100
  c.pg_profile[1 * kPipeMid.nprio + kLy] = 1;
  c.lossless[1 * kPipeMid.nprio + kLy] = 0;
  const std::pair<uint32_t, uint32_t> w{R::IPROF_STATIC_ADDR + 1 * R::IPROF_STRIDE, 0u};
  EXPECT_EQ(verdict_with_write<Vmmu_pmid>(c, kPipeMid, w), Verdict::kAdmitShared);
  EXPECT_EQ(verdict_with_write<Vmmu_mid>(c, kMid, w), Verdict::kAdmitShared);
  Lockstep<Vmmu_pmid> ls(c, kPipeMid);
  auto& u = ls.unit();
  const admission::Request r{1, 2, uint8_t(kLy), 1, 0};
  u.step(nullptr, &r, &w);
  u.step(nullptr, &r);
  const CycleOut o = u.step(nullptr, nullptr);
  ASSERT_TRUE(o.rsp_valid);
  EXPECT_EQ(o.rsp.verdict, Verdict::kDrop);
}

// The quiesce rule with a request in flight: QMAP moves port 1's lossy PG from ingress
// profile 1 (pool 0) to profile 0 (pool 3) on an empty buffer while one request for it is
// between the look-up and the write-back (taken up to PIPE cycles before the write; with
// PIPE 0 in the write's own cycle). The request was looked up on the old map, so accepting
// the write would charge pool 0 and let the release refund pool 3: pool 0 would keep a
// cell for ever and pool 3 wrap. Whatever the unit does with the write, once the packet
// has left every counter must read zero, and the map must hold what the unit says it does
// (a refused write leaves the old entry). A request taken in the write's cycle by a
// pipelined unit is looked up on the written map (mmu_adm_lookup), so that write is kept.
template <class M>
void quiesce_write_with_a_request_in_flight(const UnitParams& p) {
  namespace R = admission::regs;
  admission::CoreConfig c = directed_config(p, "dt");
  c.pool_cells = {600, 1000, 600, 600};
  c.ingress_profiles[0].pool = 3;
  const uint32_t q = 1 * p.nprio + kLy;
  const uint32_t old_map = 1u | (1u << R::QMAP_QUEUE_PROFILE_LSB), new_map = 1u << R::QMAP_QUEUE_PROFILE_LSB;
  const std::pair<uint32_t, uint32_t> w{R::QMAP_ADDR + q, new_map};
  const admission::Request r{1, 2, uint8_t(kLy), 1, 0};
  for (int d = 0; d <= int(p.pipe); ++d) {  // the request taken d cycles before the write
    Lockstep<M> ls(c, p);
    auto& u = ls.unit();
    for (int i = 0; i <= d + int(p.pipe) + 1; ++i) u.step(nullptr, i == 0 ? &r : nullptr, i == d ? &w : nullptr);
    const uint32_t map = u.read(R::QMAP_ADDR + q);
    const std::string at = "PIPE " + std::to_string(p.pipe) + ", request " + std::to_string(d) + " cycle(s) before the write";
    EXPECT_EQ(u.total(), 1u) << at;
    EXPECT_EQ(map, p.pipe != 0 && d == 0 ? new_map : old_map) << at << ": the write "
        << (map == new_map ? "accepted" : "refused");
    u.depart({1, 2, uint8_t(kLy), 1, 0});
    for (uint32_t k = 0; k < p.npools; ++k) EXPECT_EQ(u.pool_used(k), 0u) << at << ", pool " << k;
    EXPECT_EQ(u.total(), 0u) << at;
    EXPECT_FALSE(u.underflow()) << at;
  }
}

TEST(Quiesce, AMapWriteWithARequestInFlightLeavesTheCountersExact) {
  quiesce_write_with_a_request_in_flight<Vmmu_mid>(kMid);
  quiesce_write_with_a_request_in_flight<Vmmu_pmid>(kPipeMid);
  quiesce_write_with_a_request_in_flight<Vmmu_p3mid>(kPipe3Mid);
}

// STAT_DROPS's increment is registered (regmap.json "inc_reg"); a read adds the pending
// one, so the read in the cycle right after a drop is decided already counts it, as it did
// with the increment straight into the counter: on both units, after each of three drops
// (a request for more cells than the 1000-cell buffer), and after two drops decided in
// consecutive cycles (the pipelined unit, streamed).
template <class M>
void drops_read_back(const UnitParams& p) {
  namespace R = admission::regs;
  Lockstep<M> ls(directed_config(p, "dt"), p);
  auto& u = ls.unit();
  const admission::Request big{0, 1, uint8_t(kLy), 2000, 0};
  EXPECT_EQ(u.read(R::STAT_DROPS_ADDR), 0u);
  for (uint32_t n = 1; n <= 3; ++n) {
    EXPECT_EQ(u.admit(big).verdict, Verdict::kDrop);
    EXPECT_EQ(u.read(R::STAT_DROPS_ADDR), n) << "pipe " << p.pipe;
  }
  u.step(nullptr, &big);
  u.step(nullptr, &big);
  if (p.pipe) u.step(nullptr, nullptr);
  EXPECT_EQ(u.read(R::STAT_DROPS_ADDR), 5u) << "pipe " << p.pipe;
  EXPECT_EQ(u.read(R::STAT_DROPS_ADDR), 5u) << "pipe " << p.pipe;
  EXPECT_EQ(u.read(R::STAT_DECISIONS_ADDR), 5u) << "pipe " << p.pipe;
}

TEST(Pipelined, AReadRightAfterADropCountsIt) {
  drops_read_back<Vmmu_pmid>(kPipeMid);
  drops_read_back<Vmmu_mid>(kMid);
}

// Per policy, streamed: the same queue in every cycle, filling past XOFF into headroom and
// drops, then a release and a request on that queue in every cycle, then releases only
// (XON), the whole state compared as each operation is decided; the verdicts equal those
// of the one-cycle unit (PIPE 0) given the same operations in the same cycles.
class Pipelined : public ::testing::TestWithParam<std::string> {};

TEST_P(Pipelined, SameQueueInConsecutiveCyclesDecidesAsTheOneCycleUnit) {
  Lockstep<Vmmu_pmid> lp(directed_config(kPipeMid, GetParam()), kPipeMid);
  Lockstep<Vmmu_mid> l1(directed_config(kMid, GetParam()), kMid);
  lp.set_streaming(true);
  const admission::Request r{0, 1, uint8_t(kLl), 2, 0};
  const admission::Departure d{0, 1, uint8_t(kLl), 2, 0};
  uint32_t xoff = 0, xon = 0, drops = 0, differ = 0;
  for (int i = 0; i < 400; ++i) {
    const auto a = lp.admit(r), b = l1.admit(r);
    differ += !(a.verdict == b.verdict && a.pfc == b.pfc);
    xoff += a.pfc == PfcEvent::kXoff;
    drops += a.verdict == Verdict::kDrop;
  }
  for (int i = 0; i < 300; ++i) {
    const auto [ua, ra] = lp.depart_and_admit(d, r);
    const auto [ub, rb] = l1.depart_and_admit(d, r);
    differ += !(ra.verdict == rb.verdict && ra.pfc == rb.pfc && ua.pfc == ub.pfc);
  }
  while (l1.core().total_used()) {
    const auto ua = lp.depart(d), ub = l1.depart(d);
    differ += ua.pfc != ub.pfc;
    xon += ua.pfc == PfcEvent::kXon;
  }
  lp.drain();
  expect_clean(lp);
  expect_clean(l1);
  EXPECT_EQ(differ, 0u);
  EXPECT_EQ(xoff, 1u);
  EXPECT_GT(drops, 0u);
  EXPECT_EQ(xon, 1u);
  EXPECT_EQ(lp.unit().total(), 0u);
}

// A request every cycle, streamed, on a pipelined dual-issue unit, with the traffic of
// Sustained above (a release in every cycle while draining, every other cycle while
// filling): 4 000 requests in exactly 4 000 cycles.
template <class M>
void one_request_and_one_release_per_cycle(const UnitParams& p, const std::string& policy) {
  Lockstep<M> ls(directed_config(p, policy), p);
  ls.set_streaming(true);
  constexpr uint64_t kCycles = 4000;
  const SustainedCounts k = sustained_traffic(ls, kCycles);
  expect_clean(ls);
  EXPECT_EQ(k.cycles, kCycles);
  EXPECT_EQ(k.decisions, kCycles);
  EXPECT_GT(k.xoff, 0u);
  EXPECT_GT(k.xon, 0u);
  std::printf("%s, PIPE %u: %llu requests and %u releases in %llu cycles; %u XOFF, %u XON, %u drops\n",
              policy.c_str(), p.pipe, (unsigned long long)kCycles, k.releases, (unsigned long long)k.cycles, k.xoff,
              k.xon, k.drops);
}

TEST_P(Pipelined, OneRequestAndOneReleasePerCycle) {
  one_request_and_one_release_per_cycle<Vmmu_pmid>(kPipeMid, GetParam());
}

// Streamed with the gaps counted from the operations' cycles, as the co-simulated
// pipelined unit runs: requests on one queue at cycles with gaps of 0 to 9 cycles
// (THRESH_PERIOD 3: loads fall inside gaps and on operations), the gated unit clocked
// only AdmissionCore::idle_clocks_before() cycles per gap, each operation checked when it
// is decided (in a later gap or at the next operation), a CSR write in the middle (the
// decide stage idles a cycle after it). Beside it the one-cycle unit runs the same
// operations the same way (its calculator's phase is a cycle earlier: the verdicts that
// differ are printed).
TEST_P(Pipelined, GapsCountedFromTheCyclesAsACoSimulation) {
  namespace R = admission::regs;
  admission::CoreConfig c = directed_config(kPipeMid, GetParam());
  c.thresholds.period_cycles = 3;
  Lockstep<Vmmu_pmid> lp(c, kPipeMid);
  Lockstep<Vmmu_mid> l1(c, kMid);
  lp.set_streaming(true);
  lp.set_idle_from_cycles(true);
  l1.set_idle_from_cycles(true);
  uint64_t cycle = 0;
  uint32_t xoff = 0, differ = 0;
  for (int i = 0; i < 500; ++i) {
    cycle += uint64_t(i * 7 % 10);
    const admission::Request r{uint32_t(i % 2), 1, uint8_t(kLl), 2, cycle};
    const auto a = lp.admit(r), b = l1.admit(r);
    differ += !(a.verdict == b.verdict && a.pfc == b.pfc);
    xoff += a.pfc == PfcEvent::kXoff;
    if (i == 250) {
      EXPECT_TRUE(lp.csr_write(R::IPROF_XOFF_ADDR, 60));
      EXPECT_TRUE(l1.csr_write(R::IPROF_XOFF_ADDR, 60));
    }
  }
  lp.drain();
  expect_clean(lp);
  expect_clean(l1);
  EXPECT_GT(xoff, 0u);
  EXPECT_LT(lp.unit().cycle(), cycle);  // clock-gated: fewer unit cycles than MMU cycles
  std::printf("%s: %u of 500 verdicts differ from the one-cycle unit's; %llu unit cycles for %llu MMU cycles\n",
              GetParam().c_str(), differ, (unsigned long long)lp.unit().cycle(), (unsigned long long)cycle);
}

// Releases of every size (Directed above) on the pipelined unit.
TEST_P(Pipelined, ReleasesOfEverySizeFromOneState) {
  EXPECT_GT(releases_of_every_size<Vmmu_pmid>(kPipeMid, GetParam()).xon, 0u);
  EXPECT_GT(releases_of_every_size<Vmmu_psmall>(kPipeSmall, GetParam()).xon, 0u);
}

INSTANTIATE_TEST_SUITE_P(Policies, Pipelined, ::testing::Values("dt", "reverie", "dsh", "static", "sih", "abm"),
                         [](const auto& info) { return info.param; });

// -------- PIPE 3 (the four-stage request path) -------------------------------------------

// The response comes four cycles after the request (look-up, memory, test, decide), the
// counters with it.
TEST(Pipe3, ResponseFourCyclesAfterTheRequest) {
  Lockstep<Vmmu_p3mid> ls(directed_config(kPipe3Mid, "dt"), kPipe3Mid);
  auto& u = ls.unit();
  EXPECT_EQ(ls.core().latency(), 4u);
  const admission::Request r{0, 1, uint8_t(kLl), 5, 0};
  CycleOut o = u.step(nullptr, &r);
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(o.rsp_valid) << i;
    EXPECT_EQ(u.total(), 0u) << i;
    o = u.step(nullptr, nullptr);
  }
  EXPECT_TRUE(o.rsp_valid);
  EXPECT_EQ(o.rsp.verdict, Verdict::kAdmitShared);
  EXPECT_EQ(u.total(), 5u);
  EXPECT_FALSE(u.step(nullptr, nullptr).rsp_valid);
}

// A CSR write with requests in flight (PIPE 3): each reader of a field takes the written
// value from its own stage on, so the first request that decides on it depends on the
// reader. Per case, one request taken d cycles after the write's cycle (d < 0: before it),
// d from -3 to 2, a fresh unit each; its verdict is the old one for d < d0 and the new one
// from d0 on (docs/rtl.md, "CSR writes with operations in flight").
// - IPROF_STATIC (a threshold register, loaded from the stored field an edge after the
//   write's; the test stage reads it): d0 = 0.
// - BUFFER_CELLS and IPROF_XOFF (the test stage reads the stored field): d0 = -1.
// - sih's capacity from IPROF_XOFF (mmu_adm_derive: products an edge after the write's,
//   their sum an edge later; the test stage reads it): d0 = 1.
// - dsh's insurance headroom from IPROF_XOFF (the test stage compares with the stored
//   field): d0 = -1.
TEST(Pipe3, ACsrWriteReachesEachReaderFromItsOwnStage) {
  namespace R = admission::regs;
  struct Case {
    const char* what;
    std::string policy;
    std::function<void(admission::CoreConfig&)> setup;
    std::function<void(Lockstep<Vmmu_p3mid>&)> fill;  // before the write, drained
    admission::Request r;
    std::pair<uint32_t, uint32_t> w;
    Verdict before, after;
    int d0;
  };
  const auto none = [](Lockstep<Vmmu_p3mid>&) {};
  const admission::Request lossy{1, 2, uint8_t(kLy), 1, 0}, lossless{0, 1, uint8_t(kLl), 1, 0};
  const Case cases[] = {
      {"IPROF_STATIC 1000 -> 0 (port 1's lossy PG, static profile 1)", "dt", [](auto&) {}, none, lossy,
       {R::IPROF_STATIC_ADDR + 1 * R::IPROF_STRIDE, 0u}, Verdict::kAdmitShared, Verdict::kDrop, 0},
      {"BUFFER_CELLS 1000 -> 0", "dt", [](auto&) {}, none, lossy, {R::BUFFER_CELLS_ADDR, 0u},
       Verdict::kAdmitShared, Verdict::kDrop, -1},
      {"IPROF_XOFF 50 -> 0 (port 0's lossless PG over a static 0 into headroom)", "dt",
       [](auto& c) { c.ingress_profiles[0].th = {false, 0, 0}; }, none, lossless, {R::IPROF_XOFF_ADDR, 0u},
       Verdict::kAdmitHeadroom, Verdict::kDrop, -1},
      {"sih: IPROF_XOFF[2] 100 -> 0, the capacity 200 -> 100 (port 2's PG holding 100 headroom cells)", "sih",
       [](auto& c) {
         for (uint32_t port = 0; port < kPipe3Mid.nports; ++port) {
           c.lossless[port * kPipe3Mid.nprio + kLl] = port == 0 || port == 2;
           c.pg_profile[port * kPipe3Mid.nprio + kLl] = port == 2 ? 2 : port == 0 ? 0 : 1;
         }
         c.ingress_profiles[0].th = {false, 0, 0};
         c.ingress_profiles[0].xoff_cells = 100;
         c.ingress_profiles.push_back({0, 0, {false, 0, 0}, 100, 0, 10});
       },
       [](Lockstep<Vmmu_p3mid>& ls) {
         ASSERT_EQ(ls.admit({2, 1, uint8_t(kLl), 100, 0}).verdict, Verdict::kAdmitHeadroom);
       },
       {0, 1, uint8_t(kLl), 100, 0}, {R::IPROF_XOFF_ADDR + 2 * R::IPROF_STRIDE, 0u}, Verdict::kAdmitHeadroom,
       Verdict::kDrop, 1},
      // dsh's insurance headroom: the test stage compares with the stored xoff of each of the
      // port's lossless PGs' profiles (mmu_adm_derive's mask): port 0 paused by one shared
      // cell over X_poff = N_q x 0, so a request goes to insurance, 0 + 1 <= eta = 50 before,
      // > 0 after.
      {"dsh: IPROF_XOFF 50 -> 0, port 0's insurance headroom 50 -> 0 (port 0 paused)", "dsh",
       [](auto& c) { c.ingress_profiles[0].th = {false, 0, 0}; },
       [](Lockstep<Vmmu_p3mid>& ls) {
         ASSERT_EQ(ls.admit({0, 1, uint8_t(kLl), 1, 0}).port_pfc, PfcEvent::kXoff);
       },
       lossless, {R::IPROF_XOFF_ADDR, 0u}, Verdict::kAdmitHeadroom, Verdict::kDrop, -1},
  };
  for (const Case& k : cases) {
    admission::CoreConfig c = directed_config(kPipe3Mid, k.policy);
    k.setup(c);
    for (int d = -3; d <= 2; ++d) {
      Lockstep<Vmmu_p3mid> ls(c, kPipe3Mid);
      k.fill(ls);
      auto& u = ls.unit();
      CycleOut rsp;
      for (int t = std::min(d, 0); t <= std::max(d, 0) + 3; ++t) {
        const CycleOut o = u.step(nullptr, t == d ? &k.r : nullptr, t == 0 ? &k.w : nullptr);
        if (t == d + 3) rsp = o;
      }
      ASSERT_TRUE(rsp.rsp_valid) << k.what << ", d " << d;
      EXPECT_EQ(rsp.rsp.verdict, d < k.d0 ? k.before : k.after) << k.what << ": request taken " << d
          << " cycle(s) after the write";
    }
  }
}

// A release and a request on one queue in every cycle: the request is decided first, then
// the release, and the request's tests miss the release of the cycle before. The lossless
// queue of directed_config fills past XOFF into headroom (50 cells) with a request of 3
// cells every cycle, then releases of 1 cell and requests of 3 cells together, then
// releases only until XON; unit and core agree on every decision and state.
class Pipe3 : public ::testing::TestWithParam<std::string> {};

TEST_P(Pipe3, SameQueueEveryCycleWithReleases) {
  Lockstep<Vmmu_p3mid> ls(directed_config(kPipe3Mid, GetParam()), kPipe3Mid);
  ls.set_streaming(true);
  const admission::Request r{0, 1, uint8_t(kLl), 3, 0};
  const admission::Departure d{0, 1, uint8_t(kLl), 1, 0};
  uint32_t xoff = 0, xon = 0, drops = 0, admitted = 0;
  // (Each loop stops at a mismatch: the unit's state is then not the core's, and a release
  // could underflow it.)
  for (int i = 0; i < 300 && !ls.mismatch().any; ++i) {
    const auto a = ls.admit(r);
    xoff += a.pfc == PfcEvent::kXoff;
    drops += a.verdict == Verdict::kDrop;
    admitted += a.verdict != Verdict::kDrop;
  }
  for (int i = 0; i < 200 && !ls.mismatch().any; ++i) {
    const auto [u, a] = ls.depart_and_admit(d, r);
    xon += u.pfc == PfcEvent::kXon;
    xoff += a.pfc == PfcEvent::kXoff;
    admitted += a.verdict != Verdict::kDrop;
  }
  while (ls.core().total_used() && !ls.mismatch().any) xon += ls.depart(d).pfc == PfcEvent::kXon;
  ls.drain();
  expect_clean(ls);
  EXPECT_GE(xoff, 1u);
  EXPECT_GT(drops, 0u);
  EXPECT_GE(xon, 1u);
  EXPECT_EQ(ls.unit().total(), 0u);
  std::printf("%s: %u admitted, %u dropped, %u XOFF, %u XON\n", GetParam().c_str(), admitted, drops, xoff, xon);
}

TEST_P(Pipe3, OneRequestAndOneReleasePerCycle) {
  one_request_and_one_release_per_cycle<Vmmu_p3mid>(kPipe3Mid, GetParam());
}

// Gaps counted from the operations' cycles, the unit clock-gated between them
// (AdmissionCore::idle_clocks_before with three idle cycles owed after a CSR write).
TEST_P(Pipe3, GapsCountedFromTheCyclesAsACoSimulation) {
  namespace R = admission::regs;
  admission::CoreConfig c = directed_config(kPipe3Mid, GetParam());
  c.thresholds.period_cycles = 3;
  Lockstep<Vmmu_p3mid> ls(c, kPipe3Mid);
  ls.set_streaming(true);
  ls.set_idle_from_cycles(true);
  uint64_t cycle = 0;
  uint32_t xoff = 0;
  for (int i = 0; i < 500; ++i) {
    cycle += uint64_t(i * 7 % 10);
    xoff += ls.admit({uint32_t(i % 2), 1, uint8_t(kLl), 2, cycle}).pfc == PfcEvent::kXoff;
    if (i == 250) {
      EXPECT_TRUE(ls.csr_write(R::IPROF_XOFF_ADDR, 60));
    }
  }
  ls.drain();
  expect_clean(ls);
  EXPECT_GT(xoff, 0u);
}

INSTANTIATE_TEST_SUITE_P(Policies, Pipe3, ::testing::Values("dt", "static", "sih", "dsh"),
                         [](const auto& info) { return info.param; });

// -------- constrained random ------------------------------------------------------------

// Seed of the random suites: MMUSIM_SEED if set, else fresh; printed for a replay.
uint64_t suite_seed() {
  static const uint64_t seed = [] {
    if (const char* e = std::getenv("MMUSIM_SEED")) return uint64_t(std::strtoull(e, nullptr, 0));
    return (uint64_t(std::random_device{}()) << 32) | std::random_device{}();
  }();
  return seed;
}

// Random configurations on one parameter set, each driven by the soak's traffic
// (tb/campaign/rtl_soak.h: hazards, run-time and accounting CSR writes, drains, resets).
const std::vector<std::string> kAllPolicies = {"dt", "reverie", "dsh", "static", "sih", "abm"};
const std::vector<std::string> kPipe3Policies = {"dt", "static", "sih", "dsh"};  // PIPE 3's

template <class M>
void random_suite(const UnitParams& p, int configs, uint64_t per_config, const char* tag,
                  const std::vector<std::string>& policies = kAllPolicies) {
  const bool stream = p.pipe != 0;  // a pipelined unit takes the operations in consecutive cycles
  const uint64_t seed = suite_seed();
  std::printf("%s: MMUSIM_SEED=%llu\n", tag, (unsigned long long)seed);
  std::mt19937_64 rng(seed ^ std::hash<std::string>{}(tag));
  soak::Stats total;
  const admission::RtlParams rp{p.nports, p.nprio, p.npools, p.nprof, p.cw};
  for (int c = 0; c < configs; ++c) {
    const std::string pol = policies[c % policies.size()];
    const uint64_t cfg_seed = rng();
    std::mt19937_64 crng(cfg_seed);
    Lockstep<M> ls(testgen::random_config(crng, rp, uint8_t(p.ewma_frac), pol), p);
    ls.set_streaming(stream);
    total.add(soak::run(ls, crng, per_config));
    if (ls.mismatch().any) {
      // Replay the same seed with a waveform for the report.
      const std::string fst = std::string("mismatch_") + tag + "_" + std::to_string(c) + ".fst";
      std::mt19937_64 rrng(cfg_seed);
      Lockstep<M> replay(testgen::random_config(rrng, rp, uint8_t(p.ewma_frac), pol), p, fst);
      replay.set_streaming(stream);
      soak::run(replay, rrng, per_config);
      FAIL() << tag << " config " << c << " (" << pol << ", case seed " << cfg_seed << ", MMUSIM_SEED=" << seed
             << "): " << ls.mismatch().report << "; waveform " << fst;
    }
  }
  std::printf("%s: %llu requests, %llu releases, %llu CSR writes (%llu refused), %llu policy changes over %d "
              "random configurations, 0 mismatches\n",
              tag, (unsigned long long)total.requests, (unsigned long long)total.releases,
              (unsigned long long)(total.csr_writes + total.csr_refused), (unsigned long long)total.csr_refused,
              (unsigned long long)total.policy_changes, configs);
}

// sih's headroom capacity, the sum of xoff over the lossless PGs, after random queue map
// writes (the unit with PIPE 1 keeps it as lossless PGs per profile x the profile's xoff,
// mmu_adm_derive). A binds it: A (port 0) fills 50 cells of headroom on profile 0 (xoff
// 50), then xoff 0 -> 1 and xoff 1 -> 60 under traffic leave a capacity of n0 + 60 for
// n0 lossless PGs on profile 0 and B (port 1), the only one on profile 1: B's headroom
// takes n0 + 60 - 50 cells (under its own xoff, 60) and the next is a headroom drop.
template <class M>
void sih_capacity_after_map_writes(const UnitParams& p, uint64_t seed) {
  namespace R = admission::regs;
  admission::CoreConfig c = directed_config(p, "sih");
  c.ingress_profiles[1] = c.ingress_profiles[0];
  Lockstep<M> ls(c, p);
  std::mt19937_64 rng(seed);
  const uint32_t nq = p.nports * p.nprio, a = 0 * p.nprio + kLl, b = 1 * p.nprio + kLl;
  const uint32_t eprof = 1u << R::QMAP_QUEUE_PROFILE_LSB;  // egress profiles as directed_config's
  const uint32_t want_n0 = 1 + uint32_t(rng() % 40);
  std::vector<uint32_t> order(nq);
  for (uint32_t q = 0; q < nq; ++q) order[q] = q;
  std::shuffle(order.begin(), order.end(), rng);
  uint32_t n0 = 0;
  for (int pass = 0; pass < 2; ++pass) {  // twice: the second pass replaces every entry again
    n0 = 0;
    for (const uint32_t q : order) {
      bool ll = false;
      uint32_t prof = uint32_t(rng() % 2);
      if (q == a) ll = true, prof = 0;
      else if (q == b) ll = true, prof = 1;
      else if (n0 + 1 < want_n0 && rng() % 2) ll = true, prof = 0;
      n0 += ll && prof == 0;
      const uint32_t eq = (q % p.nprio == kLl) ? 0 : eprof;
      ASSERT_TRUE(ls.csr_write(R::QMAP_ADDR + q, prof << R::QMAP_PG_PROFILE_LSB | eq | uint32_t(ll) << R::QMAP_LOSSLESS_LSB));
    }
  }
  uint32_t a_hdrm = 0;
  for (int i = 0; i < 1000 && a_hdrm < 50; ++i) a_hdrm += ls.admit({0, 1, uint8_t(kLl), 1, 0}).verdict == Verdict::kAdmitHeadroom;
  ASSERT_EQ(a_hdrm, 50u);
  ASSERT_TRUE(ls.csr_write(R::IPROF_XOFF_ADDR + 0 * R::IPROF_STRIDE, 1));
  ASSERT_TRUE(ls.csr_write(R::IPROF_XOFF_ADDR + 1 * R::IPROF_STRIDE, 60));
  uint32_t b_hdrm = 0;
  admission::Result r{};
  for (int i = 0; i < 1000; ++i) {
    r = ls.admit({1, 2, uint8_t(kLl), 1, 0});
    if (r.verdict == Verdict::kDrop) break;
    b_hdrm += r.verdict == Verdict::kAdmitHeadroom;
  }
  EXPECT_EQ(b_hdrm, n0 + 10) << "n0 " << n0;
  EXPECT_EQ(r.reason, admission::DropReason::kHeadroom);
  expect_clean(ls);
}

TEST(DirectedWrites, SihHeadroomCapacityFollowsQueueMapWrites) {
  const uint64_t seed = suite_seed();
  std::printf("sih capacity: MMUSIM_SEED=%llu\n", (unsigned long long)seed);
  for (uint64_t k = 0; k < 3; ++k) {
    sih_capacity_after_map_writes<Vmmu_pmid>(kPipeMid, seed + k);
    sih_capacity_after_map_writes<Vmmu_mid>(kMid, seed + k);
  }
}

TEST(RandomLockstep, SmallUnit4x4Counters16) { random_suite<Vmmu_small>(kSmall, 30, 12000, "small"); }
TEST(RandomLockstep, MidUnit8x8Counters32) { random_suite<Vmmu_mid>(kMid, 30, 12000, "mid"); }
// The big unit costs ~10x the mid unit per request (808 s wall for 30 configurations on the
// loaded machine, near its 900 s timeout): 10 configurations, each policy twice; the soak
// (rtl_soak_sample) runs it too.
TEST(RandomLockstep, BigUnit32x8Counters32) { random_suite<Vmmu_big>(kBig, 10, 12000, "big"); }
// The pipelined units (PIPE 1), operations streamed in consecutive cycles: every forwarding
// path (the same queue, port, priority, pool in consecutive cycles; the soak's pairs).
TEST(RandomLockstep, PipelinedSmallUnit4x4Counters16) { random_suite<Vmmu_psmall>(kPipeSmall, 12, 12000, "psmall"); }
TEST(RandomLockstep, PipelinedMidUnit8x8Counters32) { random_suite<Vmmu_pmid>(kPipeMid, 12, 12000, "pmid"); }
// The four-stage unit (PIPE 3): its rules (a request's tests blind to the release of the
// cycle before, the request first in a cycle, ...) are the golden core's under pipe 3.
TEST(RandomLockstep, Pipe3MidUnit8x8Counters32) {
  random_suite<Vmmu_p3mid>(kPipe3Mid, 12, 12000, "p3mid", kPipe3Policies);
}

}  // namespace
