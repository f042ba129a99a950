// Time-weighted statistics: TimeWeightedGroup (one clock, a series added only when it
// changes) against a case computed by hand and against one
// TimeWeighted per series on random change streams (same mean, maximum, value and
// quantiles), small and at magnitudes where value x time products pass 2^64; with shared
// statistics, on streams whose series are often equal and part at any instant.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <utility>
#include <vector>

#include "stats/time_weighted.h"
#include "stats/time_weighted_group.h"

using mmusim::TimeWeighted;
using mmusim::TimeWeightedGroup;

namespace {

uint64_t seed() {
  if (const char* s = std::getenv("MMUSIM_SEED")) return std::strtoull(s, nullptr, 0);
  return std::random_device{}();
}

}  // namespace

TEST(TimeWeightedGroup, HandComputedWindow) {
  // Window [10, 50), buckets of 10. Series 0: 0 until 20, 30 until 40, then 5 (to the end,
  // 60). Series 1: 7 from 0 on, never changed (held at the window's start).
  TimeWeightedGroup g(2, 10, 50, 10);
  g.advance(0);
  g.set(1, 7);
  g.advance(20);
  g.set(0, 30);
  g.advance(40);
  g.set(0, 5);
  g.finish(60);
  const auto s0 = g.series(0), s1 = g.series(1);
  // In the window: 0 for 10, 30 for 20, 5 for 10 -> 650 / 40.
  EXPECT_DOUBLE_EQ(s0.mean(), 650.0 / 40.0);
  EXPECT_EQ(s0.max(), 30u);
  EXPECT_EQ(s0.value(), 5u);
  // Bin 0 (values 0 and 5) holds 20 of 40, bin 3 (30) the other 20.
  EXPECT_EQ(s0.quantile(0.5), 10u);
  EXPECT_EQ(s0.quantile(0.99), 30u);  // edge 40 capped at the maximum
  EXPECT_DOUBLE_EQ(s1.mean(), 7.0);
  EXPECT_EQ(s1.max(), 7u);
  EXPECT_EQ(s1.quantile(0.99), 7u);  // edge 10 capped at the maximum
}

// The common path (Instant::set<true>) grows the histogram only for a new maximum: the
// bins already cover every value set, also one set before the window (500, held into it,
// which is the maximum once the window starts), and a new maximum (700) past them grows
// them. Window [100, 1000), buckets of 8: 500 for 100, 20 for 100, 700 for 100, 650 for 600.
TEST(TimeWeightedGroup, CommonPathGrowsTheHistogramForANewMaximum) {
  TimeWeightedGroup g(1, 100, 1000, 8);
  g.at(0).set(0, 500);  // before the window: bins to 62, no maximum yet
  const std::pair<uint64_t, uint64_t> changes[] = {{200, 20}, {300, 700}, {400, 650}};
  for (const auto& [t, v] : changes) {
    TimeWeightedGroup::Instant at = g.at(t);
    ASSERT_TRUE(at.common()) << t;
    at.set<true>(0, v);
  }
  g.finish(1000);
  const auto s = g.series(0);
  EXPECT_EQ(s.max(), 700u);
  EXPECT_DOUBLE_EQ(s.mean(), (500.0 * 100 + 20.0 * 100 + 700.0 * 100 + 650.0 * 600) / 900.0);
  // Bins 2 (20): 100, 62 (500): 100, 81 (650): 600, 87 (700): 100.
  EXPECT_EQ(s.quantile(0.1), 24u);
  EXPECT_EQ(s.quantile(0.2), 504u);
  EXPECT_EQ(s.quantile(0.5), 656u);
  EXPECT_EQ(s.quantile(0.99), 700u);  // edge 704 capped at the maximum
}

namespace {

// `runs` random groups against one TimeWeighted per series; times and values scaled by
// 2^time_shift and 2^value_shift (the buckets too, so the histograms stay small). Shared:
// the group shares equal series' statistics, every instant sets every series in order,
// and a value is often another series' (equal series, parting at any instant: before,
// at and inside the window, two or more at once to the same value, the one shared
// from keeping or changing its value and maximum).
void random_streams(int runs, int time_shift, int value_shift, bool shared = false) {
  const uint64_t s = seed();
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)s);
  std::mt19937_64 rng(s);
  for (int run = 0; run < runs; ++run) {
    const size_t n = 1 + rng() % (shared ? 9 : 6);
    const uint64_t start = (rng() % 3 == 0 ? 0 : rng() % 5000) << time_shift;
    const uint64_t end = start + ((rng() % 10000) << time_shift);  // an empty window now and then
    // Powers of two (a shift) half the time, other sizes (a division) else.
    const uint64_t bucket = (rng() % 2 ? uint64_t(1) << (rng() % 7) : 1 + rng() % 64) << value_shift;
    TimeWeightedGroup g(n, start, end, bucket, shared);
    std::vector<TimeWeighted> ref(n, TimeWeighted(start, end, bucket));
    uint64_t t = 0;
    // Every other run sets through an Instant as the MMU does: its common path when common().
    const bool by_instant = shared || run % 2;
    std::vector<uint64_t> vals(n, 0);
    // With sharing: a fresh value about once in `fresh` sets (series stay equal for long
    // in some runs, part at once in others), else another series' value (its new one
    // below i) or its own; now and then every series takes series 0's (new) value.
    const uint64_t fresh = shared ? 1 + rng() % 64 : 1;
    for (int op = 0; op < 300; ++op) {
      if (rng() % 4) t += (rng() % 200) << time_shift | rng() % 3;  // several changes at one instant too
      if (t < start && rng() % 8 == 0) t = start;  // changes at the window's first instant
      TimeWeightedGroup::Instant at = g.at(t);
      const bool step = shared && rng() % 4 == 0;
      for (size_t i = 0; i < n; ++i) {
        if (!shared && rng() % 3) continue;
        const bool take_fresh = !shared || ((i == 0 || !step) && rng() % fresh == 0);
        uint64_t v;
        if (take_fresh) {
          // Kept values now and then: a kept value still counts at the window's first
          // instant; changes within a bin and across bins.
          v = rng() % 4 == 0   ? 0
              : rng() % 4 == 0 ? ref[i].value()
              : rng() % 4 == 0 ? ref[i].value() + rng() % 3
                               : (rng() % 2000) << value_shift | rng() % 1000;
        } else {
          v = step ? vals[0] : rng() % 2 ? vals[rng() % n] : vals[i];
        }
        // With sharing, as the MMU does: the lookup-free sets once no series shares.
        if (!by_instant) g.set(i, v);
        else if (!at.common()) at.set(i, v);
        else if (shared && !at.sharing()) at.set<true, false>(i, v);
        else at.set<true>(i, v);
        ref[i].set(t, v);
        vals[i] = v;
      }
    }
    const uint64_t t_end = t + ((rng() % 500) << time_shift);
    g.finish(t_end);
    for (size_t i = 0; i < n; ++i) {
      ref[i].finish(t_end);
      const auto si = g.series(i);
      SCOPED_TRACE("run " + std::to_string(run) + " series " + std::to_string(i));
      EXPECT_EQ(si.value(), ref[i].value());
      EXPECT_EQ(si.max(), ref[i].max());
      EXPECT_EQ(si.mean(), ref[i].mean());
      for (double q : {0.0, 0.25, 0.5, 0.9, 0.99, 1.0}) EXPECT_EQ(si.quantile(q), ref[i].quantile(q));
    }
  }
}

}  // namespace

TEST(TimeWeightedGroup, EqualsOneTimeWeightedPerSeriesOnRandomStreams) { random_streams(200, 0, 0); }

// Times to 2^44 ps and values to 2^41: value x time products of 2^85, past 64 bits.
TEST(TimeWeightedGroup, EqualsOneTimeWeightedPerSeriesAtLargeMagnitudes) { random_streams(100, 30, 30); }

TEST(TimeWeightedGroup, SharedStatisticsEqualOneTimeWeightedPerSeries) { random_streams(400, 0, 0, true); }
