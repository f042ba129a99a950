// WRED/ECN marker of the admission unit (admission/ecn_marker.*) and the "wred"/"int"
// configuration that feeds it (config/wred_config.*): the integer curve against its closed
// form, the marking probability over many draws against the binomial bound, the actions by
// packet and queue class, determinism per seed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "admission/ecn_marker.h"
#include "config/scenario.h"

namespace mmusim {
namespace {

using admission::EcnMarker;
using admission::WredAction;
using admission::WredCurve;
using admission::WredQueueConfig;
using nlohmann::json;

uint64_t fresh_seed() {
  if (const char* s = std::getenv("MMUSIM_SEED")) return std::strtoull(s, nullptr, 0);
  std::random_device rd;
  return (uint64_t(rd()) << 32 | rd()) & kMaxSeed;
}

// P(hit) of the integer rule: ceil(P_max_q16 (q - min) / (max - min)) / 2^16.
double closed_form(const WredCurve& c, uint64_t q) {
  if (q <= c.min_cells) return 0;
  if (q > c.max_cells) return 1;
  const uint64_t n = uint64_t(c.p_max_q16) * (q - c.min_cells), d = c.max_cells - c.min_cells;
  return double((n + d - 1) / d) / 65536.0;
}

// Every draw 0 ... 65535 at each queue length: the hit count is the closed form exactly,
// and within 2^-16 of RED's real-valued P_max (q - min) / (max - min).
TEST(WredCurve, IntegerRuleIsTheClosedFormForEveryDraw) {
  const WredCurve c{100, 300, 13107};  // 20 % (13107 / 65536 = 0.19999...)
  for (uint64_t q : {0ull, 99ull, 100ull, 101ull, 150ull, 200ull, 257ull, 299ull, 300ull, 301ull, 5000ull}) {
    uint32_t hits = 0;
    for (uint32_t r = 0; r < 65536; ++r) hits += admission::wred_hit(c, q, r);
    EXPECT_EQ(hits, uint32_t(std::lround(closed_form(c, q) * 65536))) << "q " << q;
    const double real = q <= 100 ? 0 : q > 300 ? 1 : 13107.0 / 65536 * double(q - 100) / 200;
    EXPECT_NEAR(hits / 65536.0, real, 1.0 / 65536) << "q " << q;
    EXPECT_EQ(admission::wred_needs_draw(c, q), q > 100 && q <= 300);
  }
  // min == max: a step at K (DCTCP-style), no draw ever.
  const WredCurve step{50, 50, 65536};
  EXPECT_FALSE(admission::wred_hit(step, 50, 0));
  EXPECT_TRUE(admission::wred_hit(step, 51, 65535));
  // 100 % at max: every draw hits at q = max.
  const WredCurve full{0, 10, 65536};
  for (uint32_t r : {0u, 30000u, 65535u}) EXPECT_TRUE(admission::wred_hit(full, 10, r));
}

WredQueueConfig queue_cfg(WredCurve c, bool mark, bool drop) { return {true, c, mark, drop}; }

// Many draws through the marker at several queue lengths: the mark count lies within five
// standard deviations of N p (fresh seed, printed). The hand case: at (min + max) / 2 a
// profile of P_max = 20 % marks 10 % of ECT packets.
TEST(EcnMarker, MarkingProbabilityFollowsTheCurve) {
  const uint64_t seed = fresh_seed();
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)seed);
  const WredCurve c{100, 300, 13107};
  EcnMarker m({queue_cfg(c, true, false)}, 1, 1, seed);
  constexpr int kN = 40000;
  for (uint64_t q : {101ull, 150ull, 200ull, 250ull, 300ull}) {
    int hits = 0;
    for (int i = 0; i < kN; ++i) hits += m.decide(0, 0, q, 2, true, true) == WredAction::kMark;
    const double p = closed_form(c, q), sd = std::sqrt(kN * p * (1 - p));
    EXPECT_NEAR(hits, kN * p, 5 * sd + 1) << "q " << q << " seed " << seed;
    if (q == 200) {
      EXPECT_NEAR(p, 0.10, 1.0 / 65536);  // hand-computed: 20 % x (200 - 100) / (300 - 100)
      EXPECT_NEAR(double(hits) / kN, 0.10, 5 * std::sqrt(0.1 * 0.9 / kN)) << "seed " << seed;
    }
  }
  EXPECT_EQ(m.draws(), 5u * kN);
  // Outside (min, max] nothing is drawn.
  for (uint64_t q : {0ull, 100ull, 301ull, 100000ull})
    EXPECT_EQ(m.decide(0, 0, q, 1, true, true), q > 300 ? WredAction::kMark : WredAction::kPass);
  EXPECT_EQ(m.draws(), 5u * kN);
}

// What a hit does: ECT marks where the profile marks; the rest drops only where the queue
// drops (wred_green_enable, lossy); a decision point that may not take the action passes
// the packet without drawing.
TEST(EcnMarker, ActionsByPacketAndQueue) {
  const WredCurve above{0, 0, 65536};  // any queued cell: always hit
  EcnMarker m({queue_cfg(above, true, true),    // lossy, ecn_all, wred_green_enable
               queue_cfg(above, true, false),   // lossless: marks, never drops
               queue_cfg(above, false, true),   // lossy, ecn_none: drops everything
               WredQueueConfig{}},              // no profile
              1, 4, 7);
  EXPECT_EQ(m.decide(0, 0, 5, 2, true, true), WredAction::kMark);  // ECT(0)
  EXPECT_EQ(m.decide(0, 0, 5, 1, true, true), WredAction::kMark);  // ECT(1)
  EXPECT_EQ(m.decide(0, 0, 5, 3, true, true), WredAction::kMark);  // CE stays CE
  EXPECT_EQ(m.decide(0, 0, 5, 0, true, true), WredAction::kDrop);  // Not-ECT
  EXPECT_EQ(m.decide(0, 1, 5, 0, true, true), WredAction::kPass);  // lossless: Not-ECT passes
  EXPECT_EQ(m.decide(0, 1, 5, 2, true, true), WredAction::kMark);
  EXPECT_EQ(m.decide(0, 2, 5, 2, true, true), WredAction::kDrop);  // ecn_none drops ECT too
  EXPECT_EQ(m.decide(0, 3, 5, 2, true, true), WredAction::kPass);
  EXPECT_EQ(m.decide(0, 0, 0, 0, true, true), WredAction::kPass);  // empty queue
  // Marking at dequeue: the enqueue decision only drops, the dequeue decision only marks.
  EXPECT_EQ(m.decide(0, 0, 5, 2, false, true), WredAction::kPass);
  EXPECT_EQ(m.decide(0, 0, 5, 0, true, false), WredAction::kPass);
  // A curve from min to max draws: an action the point may not take never draws.
  EcnMarker d({queue_cfg({0, 100, 32768}, true, true)}, 1, 1, 7);
  EXPECT_EQ(d.decide(0, 0, 50, 2, false, true), WredAction::kPass);
  EXPECT_EQ(d.draws(), 0u);
  d.decide(0, 0, 50, 2, true, false);
  EXPECT_EQ(d.draws(), 1u);
}

// Same seed, same decisions; each port has its own stream, so traffic on one port does not
// shift another's marks; another seed gives another sequence.
TEST(EcnMarker, DeterministicPerSeedAndIndependentPerPort) {
  const uint64_t seed = fresh_seed();
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)seed);
  const auto cfg = queue_cfg({0, 1000, 32768}, true, false);
  auto run = [&](uint64_t s, bool interleave) {
    EcnMarker m({cfg, cfg}, 2, 1, s);
    std::string out;
    for (int i = 0; i < 2000; ++i) {
      if (interleave) m.decide(1, 0, 500, 2, true, true);
      out += m.decide(0, 0, 1 + i % 999, 2, true, true) == WredAction::kMark ? '1' : '0';
    }
    return out;
  };
  const std::string a = run(seed, false);
  EXPECT_EQ(a, run(seed, false));
  EXPECT_EQ(a, run(seed, true)) << "port 1's draws changed port 0's marks";
  EXPECT_NE(a, run(seed ^ 1, false));
}

TEST(EcnMarker, RejectsInconsistentCurves) {
  EXPECT_THROW(EcnMarker({queue_cfg({10, 5, 100}, true, false)}, 1, 1, 1), std::invalid_argument);
  EXPECT_THROW(EcnMarker({queue_cfg({0, 5, 65537}, true, false)}, 1, 1, 1), std::invalid_argument);
  EXPECT_THROW(EcnMarker({WredQueueConfig{}}, 2, 1, 1), std::invalid_argument);
}

json scenario_with(const json& wred) {
  json j = default_scenario_json();  // 32 ports, TC3 lossless
  j["traffic"] = json::array();
  j["wred"] = wred;
  return j;
}

// SONiC's AZURE_LOSSLESS (qos_config.j2: green 1048576 ... 2097152 B, 5 %) on the lossless
// queue 3 and a dropping profile on lossy queues: cells round down, 5 % is 3277 / 65536,
// a lossless queue never drops.
TEST(WredConfig, ProfilesBecomeQueueCurvesInCells) {
  const json azure = {{"wred_green_enable", "true"},      {"wred_yellow_enable", "true"},
                      {"wred_red_enable", "true"},        {"ecn", "ecn_all"},
                      {"green_max_threshold", "2097152"}, {"green_min_threshold", "1048576"},
                      {"yellow_max_threshold", "2097152"}, {"yellow_min_threshold", "1048576"},
                      {"red_max_threshold", "2097152"},   {"red_min_threshold", "1048576"},
                      {"green_drop_probability", "5"},    {"yellow_drop_probability", "5"},
                      {"red_drop_probability", "5"}};
  const json lossy = {{"wred_green_enable", true}, {"green_min_threshold", 1000}, {"green_max_threshold", 3000}};
  const Scenario sc = load_scenario(
      scenario_with({{"mark_at", "enqueue"},
                     {"WRED_PROFILE", {{"AZURE_LOSSLESS", azure}, {"LOSSY", lossy}}},
                     {"QUEUE", {{"Ethernet0,Ethernet4|3", {{"wred_profile", "[WRED_PROFILE|AZURE_LOSSLESS]"}}},
                                {"Ethernet8|0-1", {{"wred_profile", "LOSSY"}}}}}}),
      "test");
  EXPECT_EQ(sc.wred.mark_at, WredCfg::MarkAt::kEnqueue);
  const auto q = wred_queue_configs(sc);
  ASSERT_EQ(q.size(), 32u * 8);
  for (uint32_t port : {0u, 1u}) {
    const auto& c = q[port * 8 + 3];
    EXPECT_TRUE(sc.lossless(port, 3));
    EXPECT_TRUE(c.active && c.mark);
    EXPECT_FALSE(c.drop);
    EXPECT_EQ(c.green.min_cells, 4096u);  // 1048576 / 256
    EXPECT_EQ(c.green.max_cells, 8192u);
    EXPECT_EQ(c.green.p_max_q16, 3277u);  // 5 % of 65536 = 3276.8
  }
  for (uint32_t qi : {0u, 1u}) {
    const auto& c = q[2 * 8 + qi];
    EXPECT_TRUE(c.active && c.drop);
    EXPECT_FALSE(c.mark);
    EXPECT_EQ(c.green.min_cells, 3u);  // 1000 / 256, down
    EXPECT_EQ(c.green.max_cells, 11u);
    EXPECT_EQ(c.green.p_max_q16, 65536u);  // SAI's default drop probability: 100 %
  }
  EXPECT_FALSE(q[3 * 8 + 3].active);
  EXPECT_FALSE(q[2 * 8 + 2].active);
}

TEST(IntConfig, ClassesAndHeaderBytes) {
  json j = scenario_with({});
  j.erase("wred");
  j["int"] = {{"enabled_classes", {3, 5}}};
  const Scenario sc = load_scenario(j, "test");
  EXPECT_EQ(sc.int_telemetry.classes, (1u << 3) | (1u << 5));
  EXPECT_EQ(sc.int_telemetry.header_bytes, 42u);
  EXPECT_FALSE(sc.wred.configured());
}

}  // namespace
}  // namespace mmusim
