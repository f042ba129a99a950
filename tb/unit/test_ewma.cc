// Reverie's low-pass filter (reverie-nsdi24 Eq. 5) in the integer arithmetic the RTL uses:
// q_hat <- q_hat + ((q << F) - q_hat) >>> k. Every expected value is computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "admission/admission_core.h"
#include "admission/ewma.h"

using namespace mmusim::admission;

namespace {

EwmaConfig cfg(EwmaConfig::Rule rule, uint8_t k, uint8_t frac, bool clamp = true, uint32_t period = 1000) {
  EwmaConfig c;
  c.rule = rule;
  c.k = k;
  c.frac_bits = frac;
  c.clamp = clamp;
  c.period_cycles = period;
  return c;
}

constexpr uint64_t kOne = 1;

}  // namespace

// ---------------------------------------------------------------- Ewma::step

TEST(EwmaStep, PositiveDifferenceTruncates) {
  EXPECT_EQ(Ewma::step(0, 5, 2, 0), 1u);      // 0 + (5 >> 2) = 0 + 1
  EXPECT_EQ(Ewma::step(0, 3, 2, 0), 0u);      // 0 + (3 >> 2) = 0: below 2^k no movement
  EXPECT_EQ(Ewma::step(2, 9, 3, 0), 2u);      // 2 + (7 >> 3) = 2
  EXPECT_EQ(Ewma::step(1, 9, 3, 0), 2u);      // 1 + (8 >> 3) = 2
  EXPECT_EQ(Ewma::step(0, 100, 3, 0), 12u);   // 0 + 100/8 = 12.5 -> 12
  EXPECT_EQ(Ewma::step(0, 1, 10, 16), 64u);   // 65536 >> 10 = 64
  EXPECT_EQ(Ewma::step(100, 1, 10, 16), 163u);  // 100 + (65436 >> 10 = 63) = 163
}

TEST(EwmaStep, NegativeDifferenceRoundsTowardMinusInfinity) {
  EXPECT_EQ(Ewma::step(5, 0, 2, 0), 3u);       // 5 + floor(-5/4) = 5 - 2 = 3
  EXPECT_EQ(Ewma::step(1, 0, 2, 0), 0u);       // 1 + floor(-1/4) = 1 - 1 = 0
  EXPECT_EQ(Ewma::step(4, 0, 2, 0), 3u);       // 4 + floor(-4/4) = 4 - 1 = 3 (exact, no rounding)
  EXPECT_EQ(Ewma::step(1000, 0, 3, 0), 875u);  // 1000 - 1000/8 = 875 exactly
  EXPECT_EQ(Ewma::step(1001, 0, 3, 0), 875u);  // 1001 + floor(-125.125) = 1001 - 126 = 875
  EXPECT_EQ(Ewma::step(7, 5, 1, 0), 6u);       // 7 + floor(-2/2) = 6
  EXPECT_EQ(Ewma::step(8, 5, 1, 0), 6u);       // 8 + floor(-3/2) = 8 - 2 = 6
  EXPECT_EQ(Ewma::step(65536, 0, 10, 16), 65472u);  // 65536 - 65536/1024 = 65536 - 64
  EXPECT_EQ(Ewma::step(65537, 0, 10, 16), 65472u);  // 65537 - ceil(65537/1024 = 64.001) = 65537 - 65
}

TEST(EwmaStep, EqualTargetDoesNotMove) {
  EXPECT_EQ(Ewma::step(5 << 16, 5, 10, 16), uint64_t(5) << 16);  // difference 0
  EXPECT_EQ(Ewma::step(0, 0, 0, 0), 0u);
}

TEST(EwmaStep, UpwardFixedPointWhenDifferenceBelowTwoToK) {
  // F=0, k=3, q=100 from 0: 12, 23, 32, 40, 47, 53, 58, 63, 67, 71, 74, 77, 79, 81, 83, 85,
  // 86, 87, ..., 93, then 100 - 93 = 7 < 8 = 2^k: (7 >> 3) = 0, stuck 7 LSB short of target.
  const uint64_t expect[] = {12, 23, 32, 40, 47, 53, 58, 63, 67, 71, 74, 77, 79, 81, 83, 85,
                             86, 87, 88, 89, 90, 91, 92, 93, 93, 93};
  uint64_t a = 0;
  for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); ++i) {
    a = Ewma::step(a, 100, 3, 0);
    EXPECT_EQ(a, expect[i]) << "step " << i + 1;
  }
  for (int i = 0; i < 1000; ++i) a = Ewma::step(a, 100, 3, 0);
  EXPECT_EQ(a, 93u);
  // Every point with 0 <= target - avg < 2^k is a fixed point; target - avg = 2^k is not.
  for (uint64_t gap = 0; gap < 8; ++gap) EXPECT_EQ(Ewma::step(100 - gap, 100, 3, 0), 100 - gap);
  EXPECT_EQ(Ewma::step(92, 100, 3, 0), 93u);  // 92 + (8 >> 3)
  // F=16, k=10, q=1: stuck once 65536 - avg < 1024, i.e. at 64513 (65536 - 1023).
  EXPECT_EQ(Ewma::step(64513, 1, 10, 16), 64513u);  // 1023 >> 10 = 0
  EXPECT_EQ(Ewma::step(64512, 1, 10, 16), 64513u);  // 1024 >> 10 = 1
}

TEST(EwmaStep, DownwardConvergesExactlyToTarget) {
  // F=0, k=2, q=0 from 5: 5 - ceil(5/4) = 3, 3 - ceil(3/4) = 2, 1, 0: exactly 0 in 4 steps.
  uint64_t a = 5;
  const uint64_t expect[] = {3, 2, 1, 0, 0};
  for (uint64_t e : expect) EXPECT_EQ(a = Ewma::step(a, 0, 2, 0), e);
  // F=0, k=3 from 100: 100 - 13 = 87, 87 - 11 = 76, 76 - 10 = 66, ... to exactly 0.
  a = 100;
  EXPECT_EQ(a = Ewma::step(a, 0, 3, 0), 87u);
  EXPECT_EQ(a = Ewma::step(a, 0, 3, 0), 76u);
  EXPECT_EQ(a = Ewma::step(a, 0, 3, 0), 66u);
  int steps = 3;
  while (a != 0 && steps < 1000) {
    a = Ewma::step(a, 0, 3, 0);
    ++steps;
  }
  EXPECT_EQ(a, 0u);
  EXPECT_LT(steps, 1000);
  // F=16, k=4 from 5 cells down to 2 cells: moves at least 1 LSB per step while above and
  // never undershoots (ceil(d / 16) <= d), so it lands on 2 << 16 exactly and stays.
  a = uint64_t(5) << 16;
  for (int i = 0; i < 400; ++i) {
    const uint64_t b = Ewma::step(a, 2, 4, 16);
    ASSERT_GE(b, uint64_t(2) << 16);
    if (a > (uint64_t(2) << 16)) {
      ASSERT_LT(b, a);
    }
    a = b;
  }
  EXPECT_EQ(a, uint64_t(2) << 16);
  EXPECT_EQ(Ewma::step((uint64_t(2) << 16) + 1, 2, 4, 16), uint64_t(2) << 16);  // 1 above: -ceil(1/16) = -1
}

TEST(EwmaStep, KZeroJumpsToTarget) {
  EXPECT_EQ(Ewma::step(0, 7, 0, 4), 112u);          // 7 << 4
  EXPECT_EQ(Ewma::step(123, 7, 0, 4), 112u);        // 123 + (112 - 123) = 112
  EXPECT_EQ(Ewma::step(5, 0, 0, 16), 0u);
  EXPECT_EQ(Ewma::step(0, 600, 0, 16), 600u << 16);  // 39321600
}

TEST(EwmaStep, LargeValuesNearTwoToFortyEightDoNotOverflow) {
  // 32-bit counter, F = 16: target = (2^32 - 1) << 16 = 2^48 - 2^16.
  const uint64_t q32 = (kOne << 32) - 1, t32 = (kOne << 48) - (kOne << 16);
  EXPECT_EQ(Ewma::step(0, q32, 10, 16), (kOne << 38) - (kOne << 6));  // t32 >> 10 = 2^38 - 2^6
  EXPECT_EQ(Ewma::step(t32, 0, 10, 16), t32 - ((kOne << 38) - (kOne << 6)));  // t32 / 1024 exact
  EXPECT_EQ(Ewma::step(t32, q32, 10, 16), t32);
  EXPECT_EQ(Ewma::step(0, q32, 0, 16), t32);
  // 48-bit queue lengths, the largest q with q << 16 in 64 bits: target = 2^64 - 2^16.
  const uint64_t q48 = (kOne << 48) - 1, t48 = ~uint64_t(0) - 0xFFFF;
  EXPECT_EQ(Ewma::step(0, q48, 10, 16), (kOne << 54) - (kOne << 6));     // t48 >> 10
  EXPECT_EQ(Ewma::step(t48, 0, 10, 16), t48 - ((kOne << 54) - (kOne << 6)));  // exact division
  EXPECT_EQ(Ewma::step(t48, 0, 0, 16), 0u);
  EXPECT_EQ(Ewma::step(t48 - 1, q48, 10, 16), t48 - 1);  // difference 1 < 2^10
}

TEST(EwmaStep, NegativeStepNearTopOfRangeDoesNotWrap) {
  // k = 30 (the largest validate() allows), F = 16, avg = (2^48 - 1) << 16 = 2^64 - 2^16,
  // q = 0: avg - ceil((2^64 - 2^16) / 2^30) = avg - 2^34 (2^64/2^30 = 2^34, the -2^16 rounds
  // back up). The rounding term d + 2^k - 1 = 2^64 + 2^30 - 2^16 - 1 must not wrap to a
  // step of 0.
  const uint64_t t48 = ~uint64_t(0) - 0xFFFF;
  EXPECT_EQ(Ewma::step(t48, 0, 30, 16), t48 - (kOne << 34));
  // F = 0, counter_bits = 64: avg = 2^64 - 1 towards 0, k = 30: minus ceil((2^64-1)/2^30) = 2^34.
  EXPECT_EQ(Ewma::step(~uint64_t(0), 0, 30, 0), ~uint64_t(0) - (kOne << 34));
}

TEST(EwmaStep, ValidateRejectsQueueLengthsWhoseFixedPointOverflows) {
  // The filter computes q << F in 64 bits and q can reach buffer_cells. 64-bit counters with a
  // 2^48-cell buffer and F = 16: (2^48) << 16 = 2^64 wraps to 0, so a full queue would pull
  // q_hat towards 0. validate() must refuse buffer_cells > (2^64 - 1) >> F.
  CoreConfig c;
  c.ports = 1;
  c.prios = 1;
  c.counter_bits = 64;
  c.buffer_cells = kOne << 48;
  c.pool_cells = {kOne << 48, kOne << 48};  // one pool per side
  c.ingress_profiles = {{0, 0, {true, 0, 0}, 0, 0, 0}};
  c.egress_profiles = {{1, 0, {true, 0, 0}}};
  c.pg_profile = {0};
  c.queue_profile = {0};
  c.lossless = {0};
  c.policy = "reverie";
  c.ewma.frac_bits = 16;
  EXPECT_EQ((c.buffer_cells << 16), 0u);  // the wrap itself
  EXPECT_THROW(c.validate(), std::invalid_argument);
  c.buffer_cells = c.pool_cells[0] = c.pool_cells[1] = (kOne << 48) - 1;  // (2^48 - 1) << 16 fits
  EXPECT_NO_THROW(c.validate());
}

TEST(EwmaStep, StepResponseMatchesClosedFormWithinOneLsbPerStep) {
  // Exact: q_hat(n) = (1 - (1 - 2^-k)^n) * (q << F). Each step truncates < 1 LSB and the
  // accumulated error decays by (1 - 2^-k) per step, so real - n < int <= real.
  for (uint8_t k : {1, 4, 10}) {
    for (uint64_t q : {uint64_t(1), uint64_t(1000), uint64_t(123457)}) {
      const uint8_t F = 16;
      const long double target = (long double)(q << F);
      uint64_t a = 0;
      for (int n = 1; n <= 3000; ++n) {
        a = Ewma::step(a, q, k, F);
        const long double real = (1.0L - std::pow(1.0L - std::ldexp(1.0L, -k), n)) * target;
        ASSERT_LE((long double)a, real + 1e-6L) << "k " << int(k) << " q " << q << " n " << n;
        ASSERT_GT((long double)a, real - n) << "k " << int(k) << " q " << q << " n " << n;
      }
    }
  }
  // One pinned point: k=1, F=0, q=1000: 500, 750, 875, 937 (937.5 truncated) after 4 steps.
  uint64_t a = 0;
  for (int n = 0; n < 4; ++n) a = Ewma::step(a, 1000, 1, 0);
  EXPECT_EQ(a, 937u);  // closed form 1000 * (1 - 1/16) = 937.5, within 4 LSB (0.5 off)
}

// ---------------------------------------------------------------- Ewma update rules

TEST(EwmaRules, ClampKeepsAverageAtOrBelowLength) {
  // k=1, F=0, dequeue rule. Departure to 10: 0 + (10 >> 1) = 5. Departure to 2: step gives
  // 5 + floor(-3/2) = 3 > 2, clamped to 2. Without clamp it stays 3.
  const EwmaConfig on_cfg = cfg(EwmaConfig::Rule::kDequeue, 1, 0, true);
  const EwmaConfig off_cfg = cfg(EwmaConfig::Rule::kDequeue, 1, 0, false);
  Ewma on(on_cfg), off(off_cfg);
  on.reset(1);
  off.reset(1);
  for (Ewma* e : {&on, &off}) {
    e->on_departure(0, 11, 10, 0);
    EXPECT_EQ(e->avg_fx(0), 5u);
  }
  on.on_departure(0, 10, 2, 0);
  off.on_departure(0, 10, 2, 0);
  EXPECT_EQ(on.avg_fx(0), 2u);
  EXPECT_EQ(off.avg_fx(0), 3u);
  // An emptied queue: clamp sends the average straight to 0 (3 - ceil(3/2) = 1 unclamped).
  on.on_departure(0, 2, 0, 0);
  off.on_departure(0, 2, 0, 0);
  EXPECT_EQ(on.avg_fx(0), 0u);
  EXPECT_EQ(off.avg_fx(0), 1u);
  // Clamp with fraction bits: F=16, k=1, after departure to 10: 10<<15 = 327680; to 1: clamp 65536.
  const EwmaConfig f_cfg = cfg(EwmaConfig::Rule::kDequeue, 1, 16, true);
  Ewma f(f_cfg);
  f.reset(1);
  f.on_departure(0, 11, 10, 0);
  EXPECT_EQ(f.avg_fx(0), 327680u);
  f.on_departure(0, 10, 1, 0);
  EXPECT_EQ(f.avg_fx(0), 65536u);  // 327680 - ceil(262144/2) = 196608 > 65536 -> 65536
}

TEST(EwmaRules, DequeueRuleUpdatesOnlyOnDepartureWithLengthAfter) {
  // k=1, F=0. Arrivals never move it; departure 101 -> 100: 0 + (100 >> 1) = 50; 100 -> 99:
  // 50 + (49 >> 1) = 74 (uses q_after, not q_before = 100 which would give 75).
  const EwmaConfig e_cfg = cfg(EwmaConfig::Rule::kDequeue, 1, 0);
  Ewma e(e_cfg);
  e.reset(2);
  for (int i = 0; i < 10; ++i) e.on_arrival(0, 100, 1000 * i);
  EXPECT_EQ(e.avg_fx(0), 0u);
  e.advance(0, 100, 1000000);  // advance is the periodic rule only
  EXPECT_EQ(e.avg_fx(0), 0u);
  e.on_departure(0, 101, 100, 0);
  EXPECT_EQ(e.avg_fx(0), 50u);
  e.on_departure(0, 100, 99, 0);
  EXPECT_EQ(e.avg_fx(0), 74u);
  EXPECT_EQ(e.avg_fx(1), 0u);  // queues are independent
}

TEST(EwmaRules, EnqueueDequeueRuleUpdatesOnBoth) {
  // k=1, F=0. Arrival seeing 100 (length before the decision): 50. Arrival seeing 101: 50 +
  // (51 >> 1) = 75. Departure 102 -> 101: 75 + (26 >> 1) = 88.
  const EwmaConfig e_cfg = cfg(EwmaConfig::Rule::kEnqueueDequeue, 1, 0);
  Ewma e(e_cfg);
  e.reset(1);
  e.on_arrival(0, 100, 0);
  EXPECT_EQ(e.avg_fx(0), 50u);
  e.on_arrival(0, 101, 0);
  EXPECT_EQ(e.avg_fx(0), 75u);
  e.on_departure(0, 102, 101, 0);
  EXPECT_EQ(e.avg_fx(0), 88u);
  e.advance(0, 101, 1000000);  // no periodic updates under this rule
  EXPECT_EQ(e.avg_fx(0), 88u);
}

TEST(EwmaRules, PeriodicAppliesFloorCycleOverPeriodUpdates) {
  // period 100, k=2, F=0, q=40. By cycle 350: floor(350/100) = 3 updates: 0 -> 10 -> 17 -> 22
  // (10 + 30>>2 = 17, 17 + 23>>2 = 22). Cycle 399: still 3. Cycle 400: 4th: 22 + 18>>2 = 26.
  const EwmaConfig e_cfg = cfg(EwmaConfig::Rule::kPeriodic, 2, 0, true, 100);
  Ewma e(e_cfg);
  e.reset(1);
  e.advance(0, 40, 99);
  EXPECT_EQ(e.avg_fx(0), 0u);  // floor(99/100) = 0
  e.advance(0, 40, 350);
  EXPECT_EQ(e.avg_fx(0), 22u);
  e.advance(0, 40, 399);
  EXPECT_EQ(e.avg_fx(0), 22u);
  e.on_arrival(0, 40, 400);
  EXPECT_EQ(e.avg_fx(0), 26u);
  e.on_arrival(0, 40, 450);  // same period: nothing
  EXPECT_EQ(e.avg_fx(0), 26u);
  // Departure at 500 catches up with the length held before it (40): 26 + 14>>2 = 29.
  e.on_departure(0, 40, 39, 500);
  EXPECT_EQ(e.avg_fx(0), 29u);
}

TEST(EwmaRules, PeriodicCatchUpAfterLongIdleGapMatchesStepLoop) {
  // Reference: a loop of step() + clamp, one call per elapsed period, length constant between calls.
  for (bool clamp : {true, false}) {
    const EwmaConfig c = cfg(EwmaConfig::Rule::kPeriodic, 3, 8, clamp, 64);
    Ewma e(c);
    e.reset(1);
    uint64_t ref = 0, applied = 0;
    auto ref_to = [&](uint64_t q, uint64_t cycle) {
      for (; applied < cycle / 64; ++applied) {
        ref = Ewma::step(ref, q, 3, 8);
        if (clamp && ref > (q << 8)) ref = q << 8;
      }
    };
    struct Ev { uint64_t q, cycle; };
    // Busy stretch, then a long idle gap at a lower length, a jump up, another gap at 0.
    const Ev evs[] = {{50, 10},  {50, 200},  {51, 260},   {52, 300},     {52, 1000},
                      {7, 1100}, {7, 500000}, {300, 500001}, {300, 520000}, {0, 520100},
                      {0, 9000000}, {5, 9000064}, {5, 9000127}, {5, 9000128}};
    for (const Ev& ev : evs) {
      e.advance(0, ev.q, ev.cycle);
      ref_to(ev.q, ev.cycle);
      ASSERT_EQ(e.avg_fx(0), ref) << "clamp " << clamp << " cycle " << ev.cycle;
    }
    EXPECT_EQ(applied, 9000128u / 64);
  }
  // Hand-pinned: k=1, F=0, period 10, q=8 held for 5 periods: 4, 6, 7, 7 (1 >> 1 = 0), 7.
  const EwmaConfig h_cfg = cfg(EwmaConfig::Rule::kPeriodic, 1, 0, true, 10);
  Ewma h(h_cfg);
  h.reset(1);
  h.advance(0, 8, 59);
  EXPECT_EQ(h.avg_fx(0), 7u);
  // Then q=0 for 1,000,000 periods: 7 - ceil(7/2) = 3 > 0, clamped to 0, and stays 0.
  h.advance(0, 0, 10000059);
  EXPECT_EQ(h.avg_fx(0), 0u);
  h.advance(0, 2, 10000060);  // one more period at q=2: 0 + (2 >> 1) = 1
  EXPECT_EQ(h.avg_fx(0), 1u);
}

TEST(EwmaRules, AvgCellsRoundsUp) {
  // F=2, k=2, dequeue rule. Departure to 1: 0 + (4 >> 2) = 1 -> ceil(1/4) = 1 cell.
  const EwmaConfig e_cfg = cfg(EwmaConfig::Rule::kDequeue, 2, 2);
  Ewma e(e_cfg);
  e.reset(1);
  EXPECT_EQ(e.avg_cells(0), 0u);
  e.on_departure(0, 2, 1, 0);
  EXPECT_EQ(e.avg_fx(0), 1u);
  EXPECT_EQ(e.avg_cells(0), 1u);
  e.on_departure(0, 4, 3, 0);  // 1 + (11 >> 2) = 3 -> ceil(3/4) = 1
  EXPECT_EQ(e.avg_fx(0), 3u);
  EXPECT_EQ(e.avg_cells(0), 1u);
  e.on_departure(0, 4, 3, 0);  // 3 + (9 >> 2) = 5 -> ceil(5/4) = 2
  EXPECT_EQ(e.avg_fx(0), 5u);
  EXPECT_EQ(e.avg_cells(0), 2u);
  e.on_departure(0, 3, 2, 0);  // 5 + (3 >> 2) = 5 -> 2
  EXPECT_EQ(e.avg_cells(0), 2u);
  // Exact multiples are not rounded: k=0, F=16, departure to 3 -> 196608 = 3 cells.
  const EwmaConfig x_cfg = cfg(EwmaConfig::Rule::kDequeue, 0, 16);
  Ewma x(x_cfg);
  x.reset(1);
  x.on_departure(0, 4, 3, 0);
  EXPECT_EQ(x.avg_cells(0), 3u);
  // Near the top of the range: (2^48 - 1) << 16 has (2^48 - 1) whole cells.
  x.on_departure(0, kOne << 48, (kOne << 48) - 1, 0);
  EXPECT_EQ(x.avg_cells(0), (kOne << 48) - 1);
}

TEST(EwmaRules, ResetZeroesEveryQueue) {
  EwmaConfig c = cfg(EwmaConfig::Rule::kEnqueueDequeue, 0, 4);
  Ewma e(c);
  e.reset(3);
  e.on_arrival(2, 9, 0);
  EXPECT_EQ(e.avg_fx(2), 144u);  // 9 << 4
  c = cfg(EwmaConfig::Rule::kPeriodic, 1, 4, true, 10);
  e.reset(3);
  EXPECT_EQ(e.avg_fx(2), 0u);
  EXPECT_EQ(e.config().rule, EwmaConfig::Rule::kPeriodic);
  e.advance(2, 9, 10);  // the period counter restarted too: 1 update, 144 >> 1 = 72
  EXPECT_EQ(e.avg_fx(2), 72u);
}

TEST(EwmaRules, ReadsItsConfigurationLive) {
  // CTRL.ewma_k written at run time: the next update uses the new k, as the RTL's filter
  // does. k=1, F=0, enqueue_dequeue: arrival at 100 -> 50. k becomes 3: arrival at 100 ->
  // 50 + (50 >> 3) = 56. Clamp switched off, then a departure to 0: 56 - ceil(56/8) = 49.
  EwmaConfig c = cfg(EwmaConfig::Rule::kEnqueueDequeue, 1, 0, true);
  Ewma e(c);
  e.reset(1);
  e.on_arrival(0, 100, 0);
  EXPECT_EQ(e.avg_fx(0), 50u);
  c.k = 3;
  e.on_arrival(0, 100, 0);
  EXPECT_EQ(e.avg_fx(0), 56u);
  c.clamp = false;
  e.on_departure(0, 1, 0, 0);
  EXPECT_EQ(e.avg_fx(0), 49u);
  c.rule = EwmaConfig::Rule::kDequeue;  // arrivals no longer move it
  e.on_arrival(0, 100, 0);
  EXPECT_EQ(e.avg_fx(0), 49u);
}
