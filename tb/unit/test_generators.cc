// Built-in traffic generators: flow counts, sizes, start times and Poisson load against
// hand calculations.
#include <gtest/gtest.h>

#include <cmath>

#include "config/scenario.h"
#include "host/generators.h"

using nlohmann::json;
using namespace mmusim;

namespace {

Scenario with_traffic(const json& gen, double duration_us = 1000) {
  json j = default_scenario_json();
  j["duration_us"] = duration_us;
  j["measure"] = {{"start_us", 0}, {"end_us", duration_us}};
  j["traffic"] = json::array({gen});
  return load_scenario(j, "test");
}

std::vector<Flow> drain(const Scenario& sc) {
  auto g = make_generator(traffic_config(sc), 0);
  std::vector<Flow> out;
  Flow f;
  while (g->next(f)) out.push_back(f);
  return out;
}

}  // namespace

TEST(Generators, IncastRepeatsPerSenderAtPeriod) {
  const Scenario sc = with_traffic({{"type", "incast"}, {"senders", "h1-h4"}, {"receiver", "h0"}, {"dscp", 3},
                                    {"burst_bytes", 10000}, {"start_us", 10}, {"period_us", 100}, {"count", 3}});
  const auto flows = drain(sc);
  ASSERT_EQ(flows.size(), 12u);
  for (size_t i = 0; i < flows.size(); ++i) {
    EXPECT_EQ(flows[i].start_ps, 10'000'000u + (i / 4) * 100'000'000u);
    EXPECT_EQ(flows[i].src, 1 + i % 4);
    EXPECT_EQ(flows[i].dst, 0u);
    EXPECT_EQ(flows[i].bytes, 10000u);
  }
}

TEST(Generators, ConstantRateCarriesRateTimesDuration) {
  // 40 Gb/s from 100 us to 600 us: 40e9 * 500e-6 / 8 = 2.5 MB.
  const Scenario sc = with_traffic({{"type", "constant"}, {"src", "h1"}, {"dst", "h2"}, {"dscp", 0},
                                    {"rate_gbps", 40}, {"start_us", 100}, {"stop_us", 600}});
  const auto flows = drain(sc);
  ASSERT_EQ(flows.size(), 1u);
  EXPECT_EQ(flows[0].bytes, 2'500'000u);
  EXPECT_EQ(flows[0].rate_bps, 40'000'000'000u);
}

TEST(Generators, OnOffEmitsOneFlowPerOnPeriod) {
  // on 20 us / off 30 us over 0..200 us: starts at 0, 50, 100, 150; 10 Gb/s * 20 us = 25 kB.
  const Scenario sc = with_traffic({{"type", "onoff"}, {"src", "h1"}, {"dst", "h2"}, {"dscp", 0},
                                    {"rate_gbps", 10}, {"on_us", 20}, {"off_us", 30}, {"stop_us", 200}});
  const auto flows = drain(sc);
  ASSERT_EQ(flows.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(flows[i].start_ps, i * 50'000'000u);
    EXPECT_EQ(flows[i].bytes, 25'000u);
  }
}

TEST(Generators, PoissonMeetsTargetLoad) {
  // Load 0.3 of 100 Gb/s with fixed 100 kB flows over 20 ms: expected 0.3*100e9*0.02/8/1e5
  // = 750 flows per source; Poisson count sd = sqrt(750) ~ 27, so +-10 % is > 3 sd.
  const Scenario sc = with_traffic({{"type", "poisson"}, {"srcs", "h1-h4"}, {"dsts", "h1-h4"}, {"dscp", 0},
                                    {"load", 0.3}, {"size", {{"dist", "fixed"}, {"bytes", 100000}}}},
                                   20000);
  const auto flows = drain(sc);
  std::vector<int> per_src(5, 0);
  uint64_t prev = 0;
  for (const auto& f : flows) {
    EXPECT_NE(f.src, f.dst);
    EXPECT_GE(f.start_ps, prev);  // start order
    prev = f.start_ps;
    ++per_src[f.src];
  }
  for (int s = 1; s <= 4; ++s) EXPECT_NEAR(per_src[size_t(s)], 750, 75) << "h" << s;
}

TEST(Generators, CdfSamplingFollowsThePoints) {
  // Two-step CDF: half the flows 1000..2000 B, half 10000..20000 B (linear in between).
  SizeDist d;
  d.kind = SizeDist::Kind::kCdf;
  d.cdf = {{1000, 0.0}, {2000, 0.5}, {10000, 0.5}, {20000, 1.0}};
  Rng rng(42);
  int small = 0;
  double sum = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    const uint64_t s = sample_size(d, rng);
    ASSERT_GE(s, 1000u);
    ASSERT_LE(s, 20000u);
    small += s <= 2000;
    sum += double(s);
  }
  EXPECT_NEAR(small / double(n), 0.5, 0.02);
  EXPECT_NEAR(sum / n, 0.5 * 1500 + 0.5 * 15000, 200);  // mean of the two uniform halves
}

TEST(Generators, ExponentialMean) {
  SizeDist d;
  d.kind = SizeDist::Kind::kExponential;
  d.mean = 50000;
  Rng rng(7);
  double sum = 0;
  const int n = 40000;
  for (int i = 0; i < n; ++i) sum += double(sample_size(d, rng));
  EXPECT_NEAR(sum / n, 50000, 50000 * 0.02);  // sd of the mean = 50000/200 = 1 %
}
