// The threshold calculator's timing in the golden core (admission/threshold_block.h): the
// idle cycles between operations, counted from their cycles, against hand-computed cases
// and against clocking the same cycles one by one.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
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

// PIPE 3, "the decide stage selects" (admission_core.h, "Pipe 3"; docs/ppa.md "v2, step
// 17"): in a pair the request before the release (rule 1); a request's tests do not see the
// previous decide cycle's release (rule 2) and count its admitted request at its full cells
// in each pool it charged (rule 3); every threshold is the decide cycle before's (rule 4).
// Hand-computed on small_config: ingress pool 0 (600 cells), egress pools 1 (lossless, 1000)
// and 2 (lossy, 600), headroom pool 100; the lossless PG: dt alpha 1, xoff 50, xon_offset 10.
namespace {

constexpr size_t qi(uint32_t port, uint32_t prio) { return size_t(port) * 8 + prio; }
const Threshold kNoTh{false, 0, 1000};  // static 1000 cells: never the binding test here

// A state of `core`'s shape with nothing in it, for the cases to fill.
ArchState empty_state(const AdmissionCore& core) {
  ArchState s = core.state();
  for (auto* v : {&s.ing, &s.hdrm, &s.egr, &s.pool_used}) std::fill(v->begin(), v->end(), 0);
  std::fill(s.paused.begin(), s.paused.end(), 0);
  s.hdrm_pool_used = s.total = 0;
  return s;
}

// The paused lossless PG (0, 3) with 100 cells in its shared part and `hdrm` in headroom,
// all of them to egress queue (1, 3) (pool 1).
ArchState paused_pg(const AdmissionCore& core, uint64_t hdrm) {
  ArchState s = empty_state(core);
  s.ing[qi(0, kLl)] = 100;
  s.hdrm[qi(0, kLl)] = hdrm;
  s.paused[qi(0, kLl)] = 1;
  s.egr[qi(1, kLl)] = 100 + hdrm;
  s.pool_used = {100, 100 + hdrm, 0};
  s.hdrm_pool_used = hdrm;
  s.total = 100 + hdrm;
  return s;
}

std::string refusal(const CoreConfig& c) {
  try {
    AdmissionCore core(c);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(PipeSelect, OnlyPipes01And3AndPipe3OnlyForDtStaticSihAndDsh) {
  CoreConfig two = timed(1, "dt", 2);
  EXPECT_EQ(refusal(two), "pipeline depth (pipe) must be 0, 1 or 3");
  for (const char* pol : {"reverie", "abm"})
    EXPECT_EQ(refusal(timed(1, pol, 3)), std::string("pipe 3 supports dt, static, sih and dsh, not ") + pol);
  for (const char* pol : {"dt", "static", "sih", "dsh"}) {
    AdmissionCore core(timed(1, pol, 3));
    EXPECT_EQ(core.latency(), 4u) << pol;
    EXPECT_EQ(core.due(10), 14u) << pol;
  }
  // A CSR write may not bring a policy pipe 3 lacks, nor change the depth.
  AdmissionCore core(timed(1, "dt", 3));
  EXPECT_THROW(core.reconfigure(timed(1, "reverie", 3)), std::invalid_argument);
  EXPECT_EQ(core.config().policy, "dt");
  EXPECT_THROW(core.reconfigure(timed(1, "dt", 1)), std::invalid_argument);
  core.reconfigure(timed(1, "sih", 3));
  EXPECT_EQ(core.admit({0, 1, uint8_t(kLy), 1, 100}).verdict, Verdict::kAdmitShared);
}

TEST(PipeSelect, Rule1TheRequestBeforeTheSameCyclesRelease) {
  // The paused PG (0, 3) (paused_pg: shared 100, threshold 600 - 100 = 500) takes a release
  // of 10 of its cells and a 10-cell request in one cycle, after an idle one.
  //  - headroom 50. Pipe 1, release first: headroom 40, then the request (paused) into
  //    headroom, 40 + 10 <= 50: admitted. Pipe 3, request first: 50 + 10 > 50, dropped
  //    (headroom); then the release: 40.
  //  - headroom 10. Pipe 1: the release empties the headroom and resumes (XON: 100 + 10 <=
  //    500), so the request goes to the shared part (100 < 500). Pipe 3: the request (the PG
  //    still paused) goes to headroom, 10 + 10 <= 50, and the release leaves 10 there: no XON.
  struct Case {
    uint64_t hdrm;
    Verdict v3, v1;
    DropReason why3;
    PfcEvent xon3, xon1;
    uint64_t hdrm3, hdrm1, ing3, ing1;
  };
  const Case cases[] = {
      {50, Verdict::kDrop, Verdict::kAdmitHeadroom, DropReason::kHeadroom, PfcEvent::kNone, PfcEvent::kNone, 40, 50,
       100, 100},
      {10, Verdict::kAdmitHeadroom, Verdict::kAdmitShared, DropReason::kNone, PfcEvent::kNone, PfcEvent::kXon, 10, 0,
       100, 110},
  };
  for (const Case& k : cases) {
    for (uint32_t pipe : {3u, 1u}) {
      AdmissionCore core(timed(1, "dt", pipe));
      core.load_state(paused_pg(core, k.hdrm));
      const auto [u, res] = core.depart_and_admit({0, 1, uint8_t(kLl), 10, 5}, {0, 1, uint8_t(kLl), 10, 5});
      const std::string at = "headroom " + std::to_string(k.hdrm) + " pipe " + std::to_string(pipe);
      EXPECT_EQ(res.verdict, pipe == 3 ? k.v3 : k.v1) << at;
      if (pipe == 3) EXPECT_EQ(res.reason, k.why3) << at;
      EXPECT_EQ(res.pfc, PfcEvent::kNone) << at;
      EXPECT_EQ(u.pfc, pipe == 3 ? k.xon3 : k.xon1) << at;
      EXPECT_EQ(core.headroom_cells(0, kLl), pipe == 3 ? k.hdrm3 : k.hdrm1) << at;
      EXPECT_EQ(core.ingress_cells(0, kLl), pipe == 3 ? k.ing3 : k.ing1) << at;
      EXPECT_EQ(core.paused(0, kLl), pipe == 3 || k.hdrm == 50) << at;
    }
  }
}

TEST(PipeSelect, Rule2ARequestDoesNotSeeThePreviousCyclesRelease) {
  // A release at cycle 10, then a request at 11 whose test passes only if it sees the
  // release: pipe 3's view still counts the released cells, and drops it; after an idle
  // cycle (the request at 12), or with pipe 1, it is admitted. One case per counter of the
  // view; lossy thresholds static (1000) unless a case sets one.
  struct Case {
    const char* name;
    std::function<void(CoreConfig&)> cfg;
    std::function<void(ArchState&)> state;
    Departure d;
    Request r;
    DropReason why;
    Verdict ok;
  };
  const auto lossy_static = [](CoreConfig& c) { c.egress_profiles[1] = {2, 0, kNoTh}; };
  const auto lossy_cells = [](uint64_t n) {  // PG (0, 1) -> queue (1, 1)
    return [n](ArchState& s) {
      s.ing[qi(0, kLy)] = s.egr[qi(1, kLy)] = s.total = n;
      s.pool_used = {n, 0, n};
    };
  };
  const Case cases[] = {
      // Ingress pool 0 and egress pool 2 full (600); a request (1, 1) -> (0, 1): 600 + 10 > 600.
      {"pools", lossy_static, lossy_cells(600), {0, 1, uint8_t(kLy), 10, 10}, {1, 0, uint8_t(kLy), 10, 0},
       DropReason::kIngress, Verdict::kAdmitShared},
      // The paused PG (0, 3) with its xoff (50) in headroom: 50 + 10 > 50.
      {"headroom", [](CoreConfig&) {}, [](ArchState& s) {
         s.ing[qi(0, kLl)] = 100; s.hdrm[qi(0, kLl)] = 50; s.paused[qi(0, kLl)] = 1;
         s.egr[qi(1, kLl)] = 150; s.pool_used = {100, 150, 0}; s.hdrm_pool_used = 50; s.total = 150;
       }, {0, 1, uint8_t(kLl), 10, 10}, {0, 1, uint8_t(kLl), 10, 0}, DropReason::kHeadroom, Verdict::kAdmitHeadroom},
      // Headroom pool 60, full: 30 cells from each of the paused PGs (0, 3) and (1, 3); the
      // release from the first, the request of the second: 60 + 10 > 60.
      {"headroom pool", [](CoreConfig& c) { c.headroom_pool_cells = 60; }, [](ArchState& s) {
         for (uint32_t p : {0u, 1u}) {
           s.ing[qi(p, kLl)] = 100; s.hdrm[qi(p, kLl)] = 30; s.paused[qi(p, kLl)] = 1; s.egr[qi(1 - p, kLl)] = 130;
         }
         s.pool_used = {200, 260, 0}; s.hdrm_pool_used = 60; s.total = 260;
       }, {0, 1, uint8_t(kLl), 10, 10}, {1, 0, uint8_t(kLl), 10, 0}, DropReason::kHeadroom, Verdict::kAdmitHeadroom},
      // The PG (0, 1) at 101 cells, its threshold static 100: the view's 101 >= 100.
      {"ingress queue", [&](CoreConfig& c) { lossy_static(c); c.ingress_profiles[1].th = {false, 0, 100}; },
       lossy_cells(101), {0, 1, uint8_t(kLy), 10, 10}, {0, 0, uint8_t(kLy), 1, 0}, DropReason::kIngress,
       Verdict::kAdmitShared},
      // The queue (1, 1) at 101 cells, its threshold static 100.
      {"egress queue", [](CoreConfig& c) { c.egress_profiles[1] = {2, 0, {false, 0, 100}}; }, lossy_cells(101),
       {0, 1, uint8_t(kLy), 10, 10}, {1, 1, uint8_t(kLy), 1, 0}, DropReason::kEgress, Verdict::kAdmitShared},
      // The buffer (1000) full, all of it in the reserves of PG (0, 1) and queue (1, 1).
      {"buffer", [](CoreConfig& c) {
         c.ingress_profiles.push_back({0, 1000, kNoTh, 0, 0, 0}); c.pg_profile[qi(0, kLy)] = 2;
         c.egress_profiles.push_back({2, 1000, kNoTh}); c.queue_profile[qi(1, kLy)] = 2;
       }, [](ArchState& s) { s.ing[qi(0, kLy)] = s.egr[qi(1, kLy)] = s.total = 1000; },
       {0, 1, uint8_t(kLy), 10, 10}, {0, 1, uint8_t(kLy), 10, 0}, DropReason::kBuffer, Verdict::kAdmitShared},
  };
  for (const Case& k : cases) {
    for (uint64_t at : {11u, 12u}) {
      for (uint32_t pipe : {3u, 1u}) {
        CoreConfig c = timed(1, "dt", pipe);
        k.cfg(c);
        AdmissionCore core(c);
        ArchState s = empty_state(core);
        k.state(s);
        core.load_state(s);
        EXPECT_EQ(core.depart(k.d).pfc, PfcEvent::kNone) << k.name;
        Request r = k.r;
        r.cycle = at;
        const Result got = core.admit(r);
        const bool drop = pipe == 3 && at == 11;
        const std::string where = std::string(k.name) + " pipe " + std::to_string(pipe) + " cycle " +
                                  std::to_string(at);
        EXPECT_EQ(got.verdict, drop ? Verdict::kDrop : k.ok) << where;
        EXPECT_EQ(got.reason, drop ? k.why : DropReason::kNone) << where;
      }
    }
  }
}

TEST(PipeSelect, Rule2DshsInsuranceTestDoesNotSeeThePreviousCyclesRelease) {
  // dsh: port 0 paused, its insurance headroom (eta = the lossless PG's xoff, 50) full:
  // PG (0, 3) holds 100 shared cells and 50 in headroom. A 10-cell release at cycle 10
  // drains 10 of the insurance cells (40 left), then a 10-cell request on the PG at 11
  // goes to insurance (the port is paused): 40 + 10 <= 50 admits it, but pipe 3's view
  // still counts 50 + 10 > 50 and drops it (headroom); after an idle cycle (the request at
  // 12), or with pipe 1, it is admitted. The headroom pool (100) has room in every view.
  for (uint64_t at : {11u, 12u}) {
    for (uint32_t pipe : {3u, 1u}) {
      AdmissionCore core(timed(1, "dsh", pipe));
      ArchState s = empty_state(core);
      s.ing[qi(0, kLl)] = 100;
      s.hdrm[qi(0, kLl)] = 50;
      s.paused[qi(0, kLl)] = 1;
      s.port_paused[0] = 1;
      s.port_shared[0] = 100;
      s.port_ins[0] = 50;
      s.egr[qi(1, kLl)] = 150;
      s.pool_used = {100, 150, 0};
      s.hdrm_pool_used = 50;
      s.total = 150;
      core.load_state(s);
      core.depart({0, 1, uint8_t(kLl), 10, 10});
      const std::string where = "pipe " + std::to_string(pipe) + " cycle " + std::to_string(at);
      EXPECT_EQ(core.state().port_ins[0], 40u) << where;
      const Result got = core.admit({0, 1, uint8_t(kLl), 10, at});
      const bool drop = pipe == 3 && at == 11;
      EXPECT_EQ(got.verdict, drop ? Verdict::kDrop : Verdict::kAdmitHeadroom) << where;
      EXPECT_EQ(got.reason, drop ? DropReason::kHeadroom : DropReason::kNone) << where;
      EXPECT_EQ(core.state().port_ins[0], drop ? 40u : 50u) << where;
    }
  }
}

TEST(PipeSelect, DshsSharedSegmentTestCountsThePreviousRequestAtItsFullCells) {
  // dsh, lossless PGs with a 20-cell reserve at alpha 2^6: the shared segment (ingress pool
  // 0, 600 cells) holds 590 lossy cells of PG (0, 1). Q: a 10-cell request on PG (1, 3),
  // 15 cells (all reserved), at cycle 10, grows the pool by 15 + 10 - 20 = 5 (595). X: a
  // 5-cell request on PG (0, 3), its reserve full, at 11: 595 + 5 <= 600 admits it to the
  // shared segment, but pipe 3 counts Q at its 10 cells (600 + 5 > 600): the segment is
  // full, X goes to the insurance headroom and pauses the port. After an idle cycle (X at
  // 12), or with pipe 1: shared, no pause (the port's 5 shared cells are under
  // X_poff = 2^6 (600 - 595)).
  for (uint64_t at : {11u, 12u}) {
    for (uint32_t pipe : {3u, 1u}) {
      CoreConfig c = small_config(6, 20);
      c.policy = "dsh";
      c.thresholds.zero_latency = false;
      c.pipe = pipe;
      AdmissionCore core(c);
      ArchState s = empty_state(core);
      s.ing[qi(0, kLy)] = s.egr[qi(1, kLy)] = 590;
      s.ing[qi(0, kLl)] = s.egr[qi(1, kLl)] = 20;
      s.ing[qi(1, kLl)] = s.egr[qi(0, kLl)] = 15;
      s.pool_used = {590, 35, 590};
      s.total = 625;
      core.load_state(s);
      const std::string where = "pipe " + std::to_string(pipe) + " cycle " + std::to_string(at);
      ASSERT_EQ(core.admit({1, 0, uint8_t(kLl), 10, 10}).verdict, Verdict::kAdmitShared) << where;
      EXPECT_EQ(core.state().pool_used[0], 595u) << where;
      const Result got = core.admit({0, 1, uint8_t(kLl), 5, at});
      const bool ins = pipe == 3 && at == 11;
      EXPECT_EQ(got.verdict, ins ? Verdict::kAdmitHeadroom : Verdict::kAdmitShared) << where;
      EXPECT_EQ(got.port_pfc, ins ? PfcEvent::kXoff : PfcEvent::kNone) << where;
      EXPECT_EQ(core.state().port_ins[0], ins ? 5u : 0u) << where;
      EXPECT_EQ(core.state().port_shared[0], ins ? 0u : 5u) << where;
    }
  }
}

TEST(PipeSelect, Rule3ThePreviousRequestCountsAtItsFullCellsInItsPools) {
  // A request Q at cycle 10 whose queue is below its reserve, so its exact charge of a
  // pool is 0, then a request X at 11 that fits that pool (590 + 10 <= 600) only with the
  // exact charge: pipe 3 counts Q's 10 cells there (600 + 10 > 600) and drops X. With an
  // idle cycle between (X at 12), or with pipe 1, X is admitted. Thresholds static (1000).
  // The control: Q's exact charge is its cells (no reserve), ingress pool 0 at 580 + 10:
  // X fits exactly, under every pipe.
  enum Kind { kIngressPool, kEgressPool, kHeadroomQ, kFullCharge };
  for (Kind kind : {kIngressPool, kEgressPool, kHeadroomQ, kFullCharge}) {
    for (uint64_t at : {11u, 12u}) {
      for (uint32_t pipe : {3u, 1u}) {
        CoreConfig c = timed(1, "dt", pipe);
        c.egress_profiles[1] = {2, 0, kNoTh};
        Request q, x, x_ing{};
        if (kind == kIngressPool || kind == kFullCharge) {
          // Q (1, 1) -> (0, 1) into its PG's 20-cell reserve (ingress pool 0 charge 0,
          // egress pool 2 charge 10); X (0, 1) -> (1, 1) against ingress pool 0 at 590.
          c.ingress_profiles.push_back({0, kind == kFullCharge ? 0u : 20u, kNoTh, 0, 0, 0});
          c.pg_profile[qi(1, kLy)] = 2;
          q = {1, 0, uint8_t(kLy), 10, 10};
          x = {0, 1, uint8_t(kLy), 10, at};
        } else if (kind == kEgressPool) {
          // Q (1, 1) -> (0, 1) into its queue's 20-cell reserve (egress pool 2 charge 0);
          // X (0, 1) -> (1, 1) against egress pool 2 at 590 (its PG all reserve).
          c.egress_profiles.push_back({2, 20, kNoTh});
          c.queue_profile[qi(0, kLy)] = 2;
          c.ingress_profiles.push_back({0, 600, kNoTh, 0, 0, 0});
          c.pg_profile[qi(0, kLy)] = 2;
          q = {1, 0, uint8_t(kLy), 10, 10};
          x = {0, 1, uint8_t(kLy), 10, at};
        } else {
          // Q: the paused PG (0, 3) -> (1, 3), admitted to headroom, into its egress
          // queue's 20-cell reserve (pool 1, now 600 cells): it bounds egress pool 1 only.
          // X (1, 1) -> (0, 1) against pool 1 at 590 (queue (0, 1) moved there) is dropped;
          // X' (1, 1) -> (1, 1) against ingress pool 0 at 590 is admitted under every pipe
          // (a headroom Q counts nothing in its ingress pool).
          c.pool_cells[1] = 600;
          c.egress_profiles[0].reserved_cells = 20;
          c.egress_profiles.push_back({1, 0, kNoTh});
          c.queue_profile[qi(0, kLy)] = 2;
          q = {0, 1, uint8_t(kLl), 10, 10};
          x = {1, 0, uint8_t(kLy), 10, at};
          x_ing = {1, 1, uint8_t(kLy), 10, at};
        }
        const std::string where = "case " + std::to_string(kind) + " pipe " + std::to_string(pipe) + " cycle " +
                                  std::to_string(at);
        for (bool second : {false, true}) {
          if (second && kind != kHeadroomQ) break;
          AdmissionCore core(c);
          ArchState s = empty_state(core);
          if (kind == kIngressPool || kind == kFullCharge) {
            const uint64_t n = kind == kFullCharge ? 580 : 590;
            s.ing[qi(0, kLy)] = n;
            s.egr[qi(1, kLl)] = n;  // (pool 1)
            s.pool_used = {n, n, 0};
          } else if (kind == kEgressPool) {
            s.ing[qi(0, kLy)] = 590;  // all in its reserve
            s.egr[qi(1, kLy)] = 590;
            s.pool_used = {0, 0, 590};
          } else {
            s.ing[qi(0, kLl)] = 590;
            s.paused[qi(0, kLl)] = 1;
            s.egr[qi(0, kLy)] = 590;  // (pool 1)
            s.pool_used = {590, 590, 0};
          }
          s.total = s.ing[qi(0, kLy)] + s.ing[qi(0, kLl)];
          core.load_state(s);
          const Result rq = core.admit(q);
          ASSERT_EQ(rq.verdict, kind == kHeadroomQ ? Verdict::kAdmitHeadroom : Verdict::kAdmitShared) << where;
          if (second) {
            EXPECT_EQ(core.admit(x_ing).verdict, Verdict::kAdmitShared) << where;
            continue;
          }
          const Result rx = core.admit(x);
          const bool drop = pipe == 3 && at == 11 && kind != kFullCharge;
          EXPECT_EQ(rx.verdict, drop ? Verdict::kDrop : Verdict::kAdmitShared) << where;
          const DropReason why = kind == kIngressPool ? DropReason::kIngress : DropReason::kEgress;
          EXPECT_EQ(rx.reason, drop ? why : DropReason::kNone) << where;
        }
      }
    }
  }
}

TEST(PipeSelect, Rule4TheThresholdsOfTheDecideCycleBefore) {
  // THRESH_PERIOD 1. PG (0, 1) -> queue (1, 1) holds 290 cells (egress pool 2: dt alpha 1,
  // threshold 600 - registered pool 2). Requests of 20 cells at cycle 10 and 5 at 11 to
  // queue (0, 1) (pool 2: 315), then a cell for queue (1, 1) at 12, s = 290:
  //  - pipe 1 misses cycle 11's cells only: 600 - 310 = 290, 290 >= 290: dropped (egress);
  //  - pipe 3 misses cycles 10 and 11: 600 - 290 = 310: admitted.
  // Across an idle run (no request at 11): with one idle cycle (the cell at 12) pipe 3
  // reads the bank visible during it, loaded before cycle 10: 310, admitted; with two (at
  // 13) the idle cycle at 11 loaded 310: 290, dropped. Pipe 1 reads 290 in both.
  struct Case {
    bool second;
    uint64_t at;
    uint64_t th3, th1;
  };
  for (const Case& k : {Case{true, 12, 310, 290}, Case{false, 12, 310, 290}, Case{false, 13, 290, 290}}) {
    for (uint32_t pipe : {3u, 1u}) {
      AdmissionCore core(timed(1, "dt", pipe));
      ArchState s = empty_state(core);
      s.ing[qi(0, kLy)] = 290;
      s.egr[qi(1, kLy)] = 290;
      s.pool_used = {290, 0, 290};
      s.total = 290;
      core.load_state(s);
      const std::string where = std::string(k.second ? "back to back" : "idle run") + " at " +
                                std::to_string(k.at) + " pipe " + std::to_string(pipe);
      ASSERT_EQ(core.admit({1, 0, uint8_t(kLy), 20, 10}).verdict, Verdict::kAdmitShared) << where;
      if (k.second) {
        ASSERT_EQ(core.admit({1, 0, uint8_t(kLy), 5, 11}).verdict, Verdict::kAdmitShared) << where;
        // What the next back-to-back operation reads.
        EXPECT_EQ(core.egress_threshold(1, kLy), pipe == 3 ? k.th3 : k.th1) << where;
      }
      const Result r = core.admit({0, 1, uint8_t(kLy), 1, k.at});
      const bool admit = (pipe == 3 ? k.th3 : k.th1) > 290;
      EXPECT_EQ(r.verdict, admit ? Verdict::kAdmitShared : Verdict::kDrop) << where;
      EXPECT_EQ(r.reason, admit ? DropReason::kNone : DropReason::kEgress) << where;
    }
  }
  // The release's XON test too: the paused PG (0, 3) with 290 shared cells and 10 in
  // headroom; lossy requests of 20 cells at 10 and 5 at 11 into ingress pool 0 (315), then
  // the release of the 10 at 12 empties the headroom: XON if 290 + 10 (xon_offset) <= the
  // threshold: pipe 3's 600 - 290 = 310 resumes; pipe 1's 600 - 310 = 290 does not.
  for (uint32_t pipe : {3u, 1u}) {
    AdmissionCore core(timed(1, "dt", pipe));
    ArchState s = empty_state(core);
    s.ing[qi(0, kLl)] = 290;
    s.hdrm[qi(0, kLl)] = 10;
    s.paused[qi(0, kLl)] = 1;
    s.egr[qi(1, kLl)] = 300;
    s.pool_used = {290, 300, 0};
    s.hdrm_pool_used = 10;
    s.total = 300;
    core.load_state(s);
    ASSERT_EQ(core.admit({1, 0, uint8_t(kLy), 20, 10}).verdict, Verdict::kAdmitShared);
    ASSERT_EQ(core.admit({1, 0, uint8_t(kLy), 5, 11}).verdict, Verdict::kAdmitShared);
    EXPECT_EQ(core.ingress_threshold(0, kLl), pipe == 3 ? 310u : 290u);
    EXPECT_EQ(core.depart({0, 1, uint8_t(kLl), 10, 12}).pfc, pipe == 3 ? PfcEvent::kXon : PfcEvent::kNone)
        << "pipe " << pipe;
    EXPECT_EQ(core.paused(0, kLl), pipe != 3);
  }
}

TEST(PipeSelect, TheLagBankIsTheBankVisibleInThePreviousUnitCycle) {
  // ThresholdBlock's lag mode against its definition: a plain block clocked cycle by cycle
  // beside it; during each operation the lag block reads what the plain one showed during
  // the unit cycle before (an operation's or the last idle cycle's), whether the lag block
  // ran an idle run at once or cycle by cycle.
  const uint64_t seed = test_seed();
  std::printf("PipeSelect: MMUSIM_SEED=%llu\n", (unsigned long long)seed);
  RecordProperty("MMUSIM_SEED", std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (uint32_t period : {1u, 2u, 3u, 4u, 7u}) {
    std::vector<uint64_t> live = {5, 7}, none;
    ThresholdBlock plain, lag, lag_step;
    for (ThresholdBlock* b : {&plain, &lag, &lag_step}) b->bind(&live, &none);
    lag.set_lag(true);
    lag_step.set_lag(true);
    for (ThresholdBlock* b : {&plain, &lag, &lag_step}) b->sync(period);
    std::vector<uint64_t> before = {plain.pool_used(0), plain.pool_used(1)};  // shown the cycle before
    auto shown = [&] { return std::vector<uint64_t>{plain.pool_used(0), plain.pool_used(1)}; };
    for (int op = 0; op < 600; ++op) {
      const std::string at = "period " + std::to_string(period) + " op " + std::to_string(op) +
                             ", MMUSIM_SEED=" + std::to_string(seed);
      const uint64_t gap = rng() % 2 ? 0 : rng() % (2 * period + 3);
      for (uint64_t k = 0; k < gap; ++k) {  // the plain block one idle cycle at a time
        before = shown();
        plain.idle(1, period);
        lag_step.begin_lagged();
        lag_step.end_lagged(false, period);
      }
      lag.idle_lagged(gap, period);
      const bool csr = rng() % 20 == 0;  // a CSR write's cycle instead of an operation
      plain.begin();
      lag.begin_lagged();
      lag_step.begin_lagged();
      if (!csr) {
        for (uint16_t p = 0; p < 2; ++p) {
          ASSERT_EQ(lag.pool_used(p), before[p]) << at;
          ASSERT_EQ(lag_step.pool_used(p), before[p]) << at;
        }
        live[rng() % 2] += rng() % 5;
      }
      before = shown();
      plain.end(csr, period);
      lag.end_lagged(csr, period);
      lag_step.end_lagged(csr, period);
    }
  }
}

TEST(PipeSelect, IdleClocksBeforeLeaveTheCalculatorWhereTheCoreWillBe) {
  // Pipe 3 leaves up to 3 idle cycles pending after a CSR write, more than the fewest
  // equivalent to a gap can be (THRESH_PERIOD 1 after a write, no gap: 2 would do, 3 are
  // owed). idle_clocks_before must stay in [0, gap] and leave a unit clocked that many
  // cycles where the core is (a core clocked through every idle cycle): the same
  // thresholds (the lag bank included) and verdicts, for every gap of a few periods, after
  // operations and after CSR writes. Queue (1, 1) starts at 299 cells, its threshold's
  // equilibrium (600 - 299 = 301): each one-to-three-cell request to it then tests the
  // registers it reads.
  for (uint32_t period : {1u, 2u, 3u, 4u, 7u}) {
    AdmissionCore counted(timed(period, "dt", 3)), stepped(timed(period, "dt", 3)), fewest(timed(period, "dt", 3));
    stepped.set_idle_from_cycles(false);
    fewest.set_idle_from_cycles(false);
    ArchState s = empty_state(counted);
    s.ing[qi(0, kLy)] = 299;
    s.egr[qi(1, kLy)] = 299;
    s.pool_used = {299, 0, 299};
    s.total = 299;
    for (AdmissionCore* k : {&counted, &stepped, &fewest}) k->load_state(s);
    uint64_t drops = 0;
    uint64_t cycle = 0, fewer = 0, n = 0;
    std::vector<Departure> held;
    for (uint64_t gap = 0; gap <= 2 * period + 3; ++gap) {
      for (int write = 0; write < 2; ++write) {
        for (int rep = 0; rep < 3; ++rep) {
          if (write && rep == 0) {
            counted.refused_write();
            stepped.refused_write();
            fewest.refused_write();
          }
          cycle += 1 + (rep == 1 ? gap : 0);
          const uint64_t g = n ? (rep == 1 ? gap : 0) : 0;
          const std::string at = "period " + std::to_string(period) + " gap " + std::to_string(gap) + " write " +
                                 std::to_string(write) + " rep " + std::to_string(rep);
          const uint64_t clocks = counted.idle_clocks_before(cycle);
          ASSERT_LE(clocks, g) << at;  // (a negative count would wrap far past it)
          fewer += clocks < g;
          for (uint64_t k = 0; k < g; ++k) stepped.idle(1);
          fewest.idle(clocks);
          ++n;
          if (held.empty() || n % 3) {
            const Request r{uint32_t(n % 2), 1, uint8_t(kLy), uint32_t(1 + n % 3), cycle};
            const Result a = counted.admit(r), b = stepped.admit(r), c = fewest.admit(r);
            ASSERT_EQ(int(a.verdict), int(b.verdict)) << at;
            ASSERT_EQ(int(a.verdict), int(c.verdict)) << at;
            if (a.verdict != Verdict::kDrop) held.push_back({r.in_port, r.out_port, r.prio, r.cells, 0});
            drops += a.verdict == Verdict::kDrop;
          } else {
            const Departure d = held.front();
            held.erase(held.begin());
            counted.depart({d.in_port, d.out_port, d.prio, d.cells, cycle});
            stepped.depart(d);
            fewest.depart(d);
          }
          ASSERT_EQ(counted.egress_threshold(1, kLy), stepped.egress_threshold(1, kLy)) << at;
          ASSERT_EQ(counted.egress_threshold(1, kLy), fewest.egress_threshold(1, kLy)) << at;
        }
      }
    }
    EXPECT_EQ(first_difference(counted.state(), stepped.state()), "") << period;
    EXPECT_EQ(first_difference(counted.state(), fewest.state()), "") << period;
    EXPECT_GT(fewer, 0u) << period;
    EXPECT_GT(drops, 0u) << period;
  }
  // The case above by hand: THRESH_PERIOD 1, a CSR write, then an operation at once.
  AdmissionCore core(timed(1, "dt", 3));
  core.admit({0, 1, uint8_t(kLy), 1, 0});
  core.refused_write();
  EXPECT_EQ(core.idle_clocks_before(1), 0u);
  EXPECT_EQ(core.idle_clocks_before(5), 0u);  // 3 pending + 3 idle: any 2 or more past a load
  core.idle(2);
  EXPECT_EQ(core.idle_clocks_before(1), 0u);
}

TEST(PipeSelect, WithIdleCyclesBetweenOperationsAsPipe1) {
  // No two operations back to back: no previous cycle, so pipe 3's tests are exact, and
  // its thresholds are pipe 1's where the calculator cannot tell a cycle apart: zero
  // latency, static thresholds, or THRESH_PERIOD 1 with two idle cycles between operations
  // (the bank visible in the last idle cycle then holds every earlier operation, as the one
  // pipe 1 reads). Verdicts, PFC events and state must be pipe 1's.
  const uint64_t seed = test_seed();
  std::printf("PipeSelect: MMUSIM_SEED=%llu\n", (unsigned long long)seed);
  RecordProperty("MMUSIM_SEED", std::to_string(seed));
  std::mt19937_64 rng(seed);
  struct Mode {
    const char* pol;
    bool live;
    uint32_t period;
    uint64_t idle;  // the fewest idle cycles between two operations
  };
  const Mode modes[] = {{"dt", true, 1, 1},  {"sih", true, 1, 1},  {"static", false, uint32_t(1 + rng() % 8), 1},
                        {"dt", false, 1, 2}, {"sih", false, 1, 2}, {"static", true, 1, 1}};
  uint64_t xoff = 0, xon = 0, drops = 0;
  for (const Mode& m : modes) {
    CoreConfig c3 = timed(m.period, m.pol, 3), c1 = timed(m.period, m.pol, 1);
    c3.thresholds.zero_latency = c1.thresholds.zero_latency = m.live;
    AdmissionCore a(c3), b(c1);
    std::vector<Departure> held;
    uint64_t cycle = 0;
    for (int op = 0; op < 4000; ++op) {
      cycle += 1 + m.idle + (rng() % 4 ? 0 : rng() % 5);
      const std::string at = std::string(m.pol) + (m.live ? " live" : " timed") + " period " +
                             std::to_string(m.period) + " op " + std::to_string(op) + ", MMUSIM_SEED=" +
                             std::to_string(seed);
      const bool filling = op % 1000 < 600;
      if (held.empty() || rng() % 10 < (filling ? 7u : 3u)) {
        const Request r{uint32_t(rng() % 2), uint32_t(rng() % 2), uint8_t(rng() % 2 ? kLl : kLy),
                        uint32_t(1 + rng() % 16), cycle};
        const Result x = a.admit(r), y = b.admit(r);
        ASSERT_EQ(int(x.verdict), int(y.verdict)) << at;
        ASSERT_EQ(int(x.reason), int(y.reason)) << at;
        ASSERT_EQ(int(x.pfc), int(y.pfc)) << at;
        if (x.verdict != Verdict::kDrop) held.push_back({r.in_port, r.out_port, r.prio, r.cells, 0});
        drops += x.verdict == Verdict::kDrop;
        xoff += x.pfc == PfcEvent::kXoff;
      } else {
        const Departure d = take_any(held, rng, cycle);
        const PfcUpdate x = a.depart(d), y = b.depart(d);
        ASSERT_EQ(int(x.pfc), int(y.pfc)) << at;
        xon += x.pfc == PfcEvent::kXon;
      }
    }
    EXPECT_EQ(first_difference(b.state(), a.state()), "") << m.pol;
  }
  EXPECT_GT(xoff, 0u);
  EXPECT_GT(xon, 0u);
  EXPECT_GT(drops, 0u);
}
