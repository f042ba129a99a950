// The threshold calculator's timing in the golden core (admission/threshold_block.h): the
// idle cycles between operations, counted from their cycles, against hand-computed cases
// and against clocking the same cycles one by one.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "admission/admission_core.h"
#include "core_configs.h"

using namespace mmusim::admission;
using namespace mmusim::admission::testcfg;

namespace {

CoreConfig timed(uint32_t period, const std::string& policy = "dt", uint32_t pipe = 0) {
  CoreConfig c = small_config();
  c.policy = policy;
  c.thresholds.zero_latency = false;
  c.thresholds.period_cycles = period;
  c.pipe = pipe;
  return c;
}

// A lossy cell 0 -> 1: egress pool 600 at alpha 1, so the threshold is 600 - registered pool.
Request lossy(uint64_t cycle) { return {0, 1, uint8_t(kLy), 1, cycle}; }

// Cells admitted to the lossy queue, one per operation, the k-th at cycle k x stride.
uint64_t fill_every(AdmissionCore& core, uint64_t stride) {
  for (uint64_t n = 0;; ++n)
    if (core.admit(lossy(n * stride)).verdict != Verdict::kAdmitShared) return n;
}

uint64_t test_seed() {
  if (const char* e = std::getenv("MMUSIM_SEED")) return std::strtoull(e, nullptr, 0);
  return (uint64_t(std::random_device{}()) << 32) | std::random_device{}();
}

// A random one of the packets held, removed, departing at `cycle`.
Departure take_any(std::vector<Departure>& held, std::mt19937_64& rng, uint64_t cycle) {
  const size_t i = size_t(rng() % held.size());
  Departure d = held[i];
  held[i] = held.back();
  held.pop_back();
  d.cycle = cycle;
  return d;
}
}  // namespace

TEST(ThresholdTiming, AnIdleCycleBetweenOperationsFreshensTheThresholds) {
  // Back to back (THRESH_PERIOD 1) a request misses the previous cycle's cell: q >= 600 -
  // (q - 1) first at q = 301. With an idle cycle (or a thousand) before each, the registers
  // hold every earlier cell: q >= 600 - q at 300, the zero-latency answer.
  AdmissionCore b2b(timed(1)), gap1(timed(1)), gap1000(timed(1)), live(small_config());
  EXPECT_EQ(fill_every(b2b, 1), 301u);
  EXPECT_EQ(fill_every(gap1, 2), 300u);
  EXPECT_EQ(fill_every(gap1000, 1001), 300u);
  EXPECT_EQ(fill_every(live, 1), 300u);
  // Operations in one cycle follow each other on the unit's clock: as back to back.
  AdmissionCore same(timed(1));
  EXPECT_EQ(fill_every(same, 0), 301u);
  // A caller that clocks the unit itself (a lockstep): cycles are not idle time.
  AdmissionCore explicit_idle(timed(1));
  explicit_idle.set_idle_from_cycles(false);
  EXPECT_EQ(fill_every(explicit_idle, 2), 301u);
}

TEST(ThresholdTiming, AGapKeepsThePeriodsPhase) {
  // THRESH_PERIOD 4; the counter stands at 1 after programming (the registers hold the
  // empty pool). The egress threshold after each one-cell admission, 600 - registered:
  //   cycle 0: first operation, counter 1 -> 2, no load                         600
  //   cycle 2: 1 idle cycle (counter 2 -> 3), then 3 -> 0, no load               600
  //   cycle 3: counter 0: loads 2 cells, visible after it                        598
  //   cycle 9: 5 idle cycles, the 3rd loads (3 cells); counter ends at 2         597
  //   cycle 10: counter 3 -> 0, no load                                          597
  //   cycle 11: counter 0: loads 5                                               595
  //   cycle 15: 3 idle cycles end on the counter at 0: the operation loads 6     594
  //   cycle 1015: 999 idle cycles load 7; the counter ends at 0: loads 7         593
  const uint64_t cycles[] = {0, 2, 3, 9, 10, 11, 15, 1015};
  const uint64_t want[] = {600, 600, 598, 597, 597, 595, 594, 593};
  AdmissionCore core(timed(4)), stepped(timed(4));
  stepped.set_idle_from_cycles(false);
  for (size_t i = 0; i < std::size(cycles); ++i) {
    core.admit(lossy(cycles[i]));
    if (i) stepped.idle(cycles[i] - cycles[i - 1] - 1);
    stepped.admit(lossy(0));
    EXPECT_EQ(core.egress_threshold(1, kLy), want[i]) << "cycle " << cycles[i];
    EXPECT_EQ(stepped.egress_threshold(1, kLy), want[i]) << "cycle " << cycles[i];
  }
}

TEST(ThresholdTiming, RandomGapsMatchCycleByCycleAndTheFewestClocks) {
  // Three cores take the same operations: one counts the gaps from the cycles (O(1)), one
  // is clocked through every idle cycle one at a time, one only the idle_clocks_before()
  // cycles a clock-gated RTL unit gets. Decisions, thresholds and state must agree.
  const uint64_t seed = test_seed();
  std::printf("ThresholdTiming: MMUSIM_SEED=%llu\n", (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  auto pick = [&](uint64_t lo, uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  uint64_t gated_clocks = 0;
  for (const char* pol : {"dt", "reverie", "dsh", "abm"}) {
    for (int run = 0; run < 6; ++run) {
      const uint32_t period = uint32_t(rng() % 3 ? pick(1, 8) : pick(9, 255)), pipe = uint32_t(run % 2);
      AdmissionCore counted(timed(period, pol, pipe)), stepped(timed(period, pol, pipe)),
          fewest(timed(period, pol, pipe));
      stepped.set_idle_from_cycles(false);
      fewest.set_idle_from_cycles(false);
      std::vector<Departure> held;
      uint64_t cycle = 0;
      for (int op = 0; op < 2000; ++op) {
        const uint64_t last = cycle, r = rng() % 100;
        cycle += r < 40 ? 0 : r < 70 ? 1 : r < 90 ? pick(2, 2 * period + 2) : pick(0, 3000);
        const std::string at = std::string(pol) + " period " + std::to_string(period) + " pipe " +
                               std::to_string(pipe) + " op " +
                               std::to_string(op) + " cycle " + std::to_string(cycle) + ", MMUSIM_SEED=" +
                               std::to_string(seed);
        const uint64_t clocks = counted.idle_clocks_before(cycle);
        const uint64_t gap = op && cycle > last + 1 ? cycle - last - 1 : 0;
        ASSERT_LE(clocks, gap) << at;
        ASSERT_LT(clocks, 2 * uint64_t(period)) << at;
        gated_clocks += clocks > 0;
        for (uint64_t k = 0; k < gap; ++k) stepped.idle(1);
        fewest.idle(clocks);
        if (held.empty() || rng() % 2) {
          const Request q{uint32_t(pick(0, 1)), uint32_t(pick(0, 1)), uint8_t(rng() % 2 ? kLl : kLy),
                          uint32_t(pick(1, 8)), cycle};
          const Result a = counted.admit(q), b = stepped.admit(q), c = fewest.admit(q);
          ASSERT_EQ(int(a.verdict), int(b.verdict)) << at;
          ASSERT_EQ(int(a.verdict), int(c.verdict)) << at;
          ASSERT_EQ(int(a.pfc), int(b.pfc)) << at;
          ASSERT_EQ(int(a.pfc), int(c.pfc)) << at;
          ASSERT_EQ(int(a.port_pfc), int(c.port_pfc)) << at;
          if (a.verdict != Verdict::kDrop) held.push_back({q.in_port, q.out_port, q.prio, q.cells, 0});
        } else {
          const Departure d = take_any(held, rng, cycle);
          const PfcUpdate a = counted.depart(d), b = stepped.depart(d), c = fewest.depart(d);
          ASSERT_EQ(int(a.pfc), int(b.pfc)) << at;
          ASSERT_EQ(int(a.pfc), int(c.pfc)) << at;
          ASSERT_EQ(int(a.port_pfc), int(c.port_pfc)) << at;
        }
        if (rng() % 200 == 0) {  // a CSR write: the decide stage idles pipe cycles after it
          counted.refused_write();
          stepped.refused_write();
          fewest.refused_write();
        }
        for (uint32_t port = 0; port < 2; ++port)
          for (uint32_t prio : {kLl, kLy}) {
            ASSERT_EQ(counted.ingress_threshold(port, prio), stepped.ingress_threshold(port, prio)) << at;
            ASSERT_EQ(counted.ingress_threshold(port, prio), fewest.ingress_threshold(port, prio)) << at;
            ASSERT_EQ(counted.egress_threshold(port, prio), stepped.egress_threshold(port, prio)) << at;
            ASSERT_EQ(counted.egress_threshold(port, prio), fewest.egress_threshold(port, prio)) << at;
          }
      }
      EXPECT_EQ(first_difference(counted.state(), stepped.state()), "") << pol;
    }
  }
  EXPECT_GT(gated_clocks, 0u);
}

TEST(ThresholdTiming, NpRegistersFollowAPolicySwitch) {
  // The registers load n_p only while a policy keeps it: a core switched from dt (none) to
  // reverie by a CSR write must load it from then on as one that ran reverie throughout
  // (both take the same write, so their calculators keep the same phase).
  const uint64_t seed = test_seed();
  std::printf("ThresholdTiming: MMUSIM_SEED=%llu\n", (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  AdmissionCore switched(timed(1, "dt")), throughout(timed(1, "reverie"));
  switched.reconfigure(timed(1, "reverie"));
  throughout.reconfigure(timed(1, "reverie"));
  std::vector<Departure> held;
  uint64_t cycle = 0, np_above_one = 0;
  for (int op = 0; op < 4000; ++op) {
    cycle += rng() % 3 == 0;
    const std::string at = "op " + std::to_string(op) + ", MMUSIM_SEED=" + std::to_string(seed);
    if (held.empty() || rng() % 3) {
      const Request q{uint32_t(rng() % 2), uint32_t(rng() % 2), uint8_t(kLl), uint32_t(1 + rng() % 8), cycle};
      const Result a = switched.admit(q), b = throughout.admit(q);
      ASSERT_EQ(int(a.verdict), int(b.verdict)) << at;
      ASSERT_EQ(int(a.pfc), int(b.pfc)) << at;
      if (a.verdict != Verdict::kDrop) held.push_back({q.in_port, q.out_port, q.prio, q.cells, 0});
    } else {
      const Departure d = take_any(held, rng, cycle);
      ASSERT_EQ(int(switched.depart(d).pfc), int(throughout.depart(d).pfc)) << at;
    }
    for (uint32_t port = 0; port < 2; ++port)
      ASSERT_EQ(switched.ingress_threshold(port, kLl), throughout.ingress_threshold(port, kLl)) << at;
    np_above_one += throughout.state().n_p[kLl] > 256;
  }
  EXPECT_GT(np_above_one, 0u);  // the traffic congests both lossless queues at once
}

TEST(ThresholdTiming, AbmDividesByTheRegisteredNp) {
  // abm's n_p is the calculator's register, as reverie's: with THRESH_PERIOD 1 the threshold
  // after the operations of cycles 0 and 1 (a lossless cell on port 0, then on port 1:
  // both PGs congested at one cell) divides the registered pool, 1 cell, by the registered
  // n_p, 1 (the state before cycle 1's operation): 599, where the live n_p (2) would give
  // floor(599 / 2) = 299. An operation at cycle 2 loads both: floor((600 - 2) / 2) = 299.
  // No departures, so each drain ratio is 1.
  CoreConfig c = timed(1, "abm");
  c.congestion = {CongestionRule::Kind::kThreshold, 1};
  c.abm.interval_log2 = 10;
  c.abm.port_cells_per_interval = {100, 100};
  AdmissionCore core(c);
  CoreConfig live_cfg = c;
  live_cfg.thresholds.zero_latency = true;
  AdmissionCore live(live_cfg);
  for (AdmissionCore* k : {&core, &live}) {
    ASSERT_EQ(k->admit({0, 0, uint8_t(kLl), 1, 0}).verdict, Verdict::kAdmitShared);
    ASSERT_EQ(k->admit({1, 1, uint8_t(kLl), 1, 1}).verdict, Verdict::kAdmitShared);
  }
  EXPECT_EQ(core.state().abm_n_in[kLl], 2u << 8);
  EXPECT_EQ(core.ingress_threshold(0, kLl), 599u);
  EXPECT_EQ(live.ingress_threshold(0, kLl), 299u);
  ASSERT_EQ(core.admit({0, 0, uint8_t(kLl), 1, 2}).verdict, Verdict::kAdmitShared);
  EXPECT_EQ(core.ingress_threshold(0, kLl), 299u);
}

TEST(ThresholdTiming, EveryPoolAsTheThresholdsReadIt) {
  // threshold_pools_used (what the MMU's kept threshold statistics read) is the policy's
  // threshold_pool_used for every pool: the registers when timed, the counters with zero
  // latency, and the registers again after a CSR write turns zero latency off.
  CoreConfig live_cfg = timed(1);
  live_cfg.thresholds.zero_latency = true;
  AdmissionCore timed_core(timed(1)), live(live_cfg);
  auto check = [](const AdmissionCore& c, const std::string& at) {
    for (uint16_t k = 0; k < c.config().pool_cells.size(); ++k)
      ASSERT_EQ(c.threshold_pools_used()[k], c.threshold_pool_used(k)) << at << " pool " << k;
  };
  for (uint64_t n = 0; n < 40; ++n) {
    const Request q{uint32_t(n % 2), uint32_t(n / 2 % 2), uint8_t(n % 3 ? kLy : kLl), 3, n / 2};
    timed_core.admit(q);
    live.admit(q);
    check(timed_core, "timed op " + std::to_string(n));
    check(live, "zero latency op " + std::to_string(n));
  }
  // The last operation, lossless, charged pool 0: the registers do not hold it yet.
  EXPECT_NE(timed_core.threshold_pools_used()[0], timed_core.pool_used(0));
  EXPECT_EQ(live.threshold_pools_used()[0], live.pool_used(0));
  live.reconfigure(timed(1));
  check(live, "after the write");
  live.admit({0, 1, uint8_t(kLy), 3, 100});
  check(live, "after the write and an operation");
}

// The pipelined unit's timing (PIPE 1): an operation taken at cycle t is decided at t + 1
// and its response registered at the edge of t + 2; forwarding keeps the decisions those
// of the one-cycle unit given the same operations in the same cycles.
TEST(PipelineTiming, AResponseIsDueTwoCyclesAfterTheOperation) {
  AdmissionCore p0(timed(1)), p1(timed(1, "dt", 1));
  EXPECT_EQ(p0.latency(), 1u);
  EXPECT_EQ(p1.latency(), 2u);
  EXPECT_EQ(p0.due(10), 11u);
  EXPECT_EQ(p1.due(10), 12u);
  CoreConfig bad = timed(1);
  bad.pipe = 2;
  EXPECT_THROW(AdmissionCore{bad}, std::invalid_argument);
  CoreConfig other = p0.config();
  other.pipe = 1;
  EXPECT_THROW(p0.reconfigure(other), std::invalid_argument);  // PIPE is fixed at elaboration
}

TEST(PipelineTiming, BackToBackAndAfterAGapAsTheOneCycleUnit) {
  // The same queue in consecutive cycles: each decide stage misses the previous one's cell
  // (THRESH_PERIOD 1): q >= 600 - (q - 1) first at q = 301; with an idle cycle between the
  // operations the thresholds hold every earlier cell: 300.
  AdmissionCore b2b(timed(1, "dt", 1)), gap1(timed(1, "dt", 1)), same(timed(1, "dt", 1));
  EXPECT_EQ(fill_every(b2b, 1), 301u);
  EXPECT_EQ(fill_every(gap1, 2), 300u);
  EXPECT_EQ(fill_every(same, 0), 301u);
}

TEST(PipelineTiming, AReleaseAndARequestOnOneQueueInOneCycle) {
  // 400 two-cell lossless requests on one queue in consecutive cycles (dt: XOFF at the
  // 152nd, where the cells before it, q = 302, first reach 600 - (q - 2)), then a release and a request of that queue in each of
  // 300 cycles: the pipelined core's verdicts, PFC events and state are the one-cycle
  // core's at every step.
  for (const char* pol : {"dt", "reverie", "dsh", "abm"}) {
    AdmissionCore p0(timed(1, pol)), p1(timed(1, pol, 1));
    uint64_t c = 0;
    int xoff_at = 0;
    for (int i = 1; i <= 400; ++i, ++c) {
      const Request r{0, 1, uint8_t(kLl), 2, c};
      const Result a = p0.admit(r), b = p1.admit(r);
      ASSERT_EQ(int(a.verdict), int(b.verdict)) << pol << " request " << i;
      ASSERT_EQ(int(a.pfc), int(b.pfc)) << pol << " request " << i;
      if (b.pfc == PfcEvent::kXoff && !xoff_at) xoff_at = i;
    }
    if (std::string(pol) == "dt") EXPECT_EQ(xoff_at, 152);
    for (int i = 0; i < 300; ++i, ++c) {
      const Departure d{0, 1, uint8_t(kLl), 2, c};
      const Request r{0, 1, uint8_t(kLl), 2, c};
      const auto [ua, ra] = p0.depart_and_admit(d, r);
      const auto [ub, rb] = p1.depart_and_admit(d, r);
      ASSERT_EQ(int(ua.pfc), int(ub.pfc)) << pol << " pair " << i;
      ASSERT_EQ(int(ra.verdict), int(rb.verdict)) << pol << " pair " << i;
      ASSERT_EQ(int(ra.pfc), int(rb.pfc)) << pol << " pair " << i;
    }
    EXPECT_EQ(first_difference(p0.state(), p1.state()), "") << pol;
  }
}

TEST(PipelineTiming, TheSameCycleReleasesPoolRefundReachesTheRequestsPoolTestACycleLater) {
  // Lossy profiles with static thresholds of 1000, so the pools alone decide: 60 requests of
  // 10 cells (port 0 -> 1) fill ingress pool 0 and egress pool 2 to their 600 cells. A
  // release of 10 of them and a 10-cell request (port 1 -> 0) in one cycle: the request's
  // pool test sees 600 + 10 > 600 (the refund lags), so it is dropped at ingress, and the
  // pools end at 590; told one after the other, the same request is admitted. The next
  // request sees the refund: 590 + 10 = 600 fits.
  for (uint32_t pipe : {0u, 1u}) {
    CoreConfig c = timed(1, "dt", pipe);
    c.egress_profiles[1] = {2, 0, {false, 0, 1000}};
    AdmissionCore pair(c), seq(c);
    uint64_t cyc = 0;
    for (int i = 0; i < 60; ++i, ++cyc) {
      ASSERT_EQ(pair.admit({0, 1, uint8_t(kLy), 10, cyc}).verdict, Verdict::kAdmitShared);
      ASSERT_EQ(seq.admit({0, 1, uint8_t(kLy), 10, cyc}).verdict, Verdict::kAdmitShared);
    }
    ASSERT_EQ(pair.pool_used(0), 600u);
    ASSERT_EQ(pair.pool_used(2), 600u);
    const Departure d{0, 1, uint8_t(kLy), 10, cyc};
    const Request r{1, 0, uint8_t(kLy), 10, cyc};
    const Result got = pair.depart_and_admit(d, r).second;
    EXPECT_EQ(got.verdict, Verdict::kDrop) << pipe;
    EXPECT_EQ(got.reason, DropReason::kIngress) << pipe;
    EXPECT_EQ(pair.pool_used(0), 590u);
    EXPECT_EQ(pair.pool_used(2), 590u);
    EXPECT_EQ(pair.total_used(), 590u);
    seq.depart(d);
    EXPECT_EQ(seq.admit(r).verdict, Verdict::kAdmitShared) << pipe;
    ++cyc;
    EXPECT_EQ(pair.admit({1, 0, uint8_t(kLy), 10, cyc}).verdict, Verdict::kAdmitShared) << pipe;
    EXPECT_EQ(pair.pool_used(0), 600u);
    EXPECT_EQ(pair.pool_used(2), 600u);
  }
}

TEST(PipelineTiming, AGapKeepsThePeriodsPhaseOneCycleLater) {
  // THRESH_PERIOD 4, as AGapKeepsThePeriodsPhase, on the pipelined core: the decide stage
  // is idle for one cycle after the programming before the first operation taken (at cycle
  // 0) is decided, so the period's phase is one cycle later. Counter 1 after programming:
  //   cycle 0: the owed idle cycle (1 -> 2), then 2 -> 3, no load                600
  //   cycle 2: 1 idle cycle, 3 -> 0; the operation's edge loads 1 cell            599
  //   cycle 3: counter 1 -> 2, no load                                           599
  //   cycle 9: 5 idle cycles, the 3rd loads (3 cells); the counter ends at 3     597
  //   cycle 10: counter 0: loads 4                                               596
  //   cycle 11: counter 1 -> 2                                                   596
  //   cycle 15: 3 idle cycles, the 3rd loads 6; counter 1                        594
  //   cycle 1015: 999 idle cycles load 7; counter 1                              593
  // A co-simulated unit is clocked idle_clocks_before() cycles for each gap: fewer, the
  // same registers.
  const uint64_t cycles[] = {0, 2, 3, 9, 10, 11, 15, 1015};
  const uint64_t want[] = {600, 599, 599, 597, 596, 596, 594, 593};
  AdmissionCore core(timed(4, "dt", 1)), fewest(timed(4, "dt", 1));
  fewest.set_idle_from_cycles(false);
  for (size_t i = 0; i < std::size(cycles); ++i) {
    fewest.idle(core.idle_clocks_before(cycles[i]));
    core.admit(lossy(cycles[i]));
    fewest.admit(lossy(0));
    EXPECT_EQ(core.egress_threshold(1, kLy), want[i]) << "cycle " << cycles[i];
    EXPECT_EQ(fewest.egress_threshold(1, kLy), want[i]) << "cycle " << cycles[i];
  }
}

TEST(PipelineTiming, AThresholdWriteUnderTrafficReachesTheNextOperationTaken) {
  // 200 lossless cells on one queue, then POOL_SIZE[0] 600 -> 300 (a CSR write, not a
  // quiesce field): the first request taken after the write's cycle compares against the
  // new threshold, 300 - 200 = 100 (dt's alpha 1; reverie's room b* - q* with n_p 1), and
  // goes into headroom with XOFF, on the one-cycle and the pipelined core alike. The
  // pipelined unit's threshold registers load from the stored fields, a cycle after the
  // write: only a request taken in the write's own cycle sees the old threshold there, and
  // the core takes none (its decide stage is idle in the cycle after a write; the RTL case
  // is tb/rtl/test_rtl_lockstep.cc, AThresholdWriteUnderTrafficReachesTheRequestsTakenAfterItsCycle).
  for (const char* pol : {"dt", "reverie"}) {
    for (uint32_t pipe : {0u, 1u}) {
      CoreConfig c = timed(1, pol, pipe);
      c.ewma.k = 0;  // reverie: q_hat = q
      c.ewma.rule = EwmaConfig::Rule::kEnqueueDequeue;
      AdmissionCore core(c);
      uint64_t cycle = 0;
      for (; cycle < 200; ++cycle)
        ASSERT_EQ(int(core.admit({0, 1, uint8_t(kLl), 1, cycle}).verdict), int(Verdict::kAdmitShared)) << pol;
      core.idle(2);
      c.pool_cells[0] = 300;
      core.reconfigure(c);
      const Result r = core.admit({0, 1, uint8_t(kLl), 1, cycle + 3});
      EXPECT_EQ(int(r.verdict), int(Verdict::kAdmitHeadroom)) << pol << " pipe " << pipe;
      EXPECT_EQ(int(r.pfc), int(PfcEvent::kXoff)) << pol << " pipe " << pipe;
      if (std::string(pol) == "dt") EXPECT_EQ(core.ingress_threshold(0, kLl), 100u) << "pipe " << pipe;
    }
  }
}
