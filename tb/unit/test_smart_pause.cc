// Smart-Pause hold rule (smart-pause-2019-slides, "The Smart-Pause Rule"): hand-computed
// sequences of (OWD, T, P) -> hold or not, fixed and dynamic P; and the host.* loader.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "config/scenario.h"
#include "host/smart_pause.h"

namespace mmusim {
namespace {

constexpr uint64_t kUs = 1'000'000;  // ps

HostCfg fixed_cfg() {  // the slides' fixed rule: T = 50 us, P = 20 us
  HostCfg c;
  c.acks = c.smart_pause = true;
  c.threshold_ps = {50 * kUs};
  c.pause_ps = 20 * kUs;
  return c;
}

HostCfg dynamic_cfg() {  // the slides' dynamic rule: T = 12/14/16 us for 1/3/5 hops, P = OWD - T
  HostCfg c;
  c.acks = c.smart_pause = true;
  c.dynamic_pause = true;
  c.threshold_ps = {12 * kUs, 13 * kUs, 14 * kUs, 15 * kUs, 16 * kUs};
  return c;
}

struct Step {
  bool has_owd;
  uint64_t owd_ps;
  uint32_t hops;
  uint64_t hold_ps;  // hand-computed
};

void expect_sequence(const HostCfg& c, std::initializer_list<Step> steps) {
  for (const Step& s : steps) {
    const uint64_t got = smart_pause_hold_ps(c, s.has_owd, s.owd_ps, s.hops);
    std::printf("  OWD %9.6f us, %u hops, T %6.3f us -> hold %9.6f us (expected %9.6f)\n", double(s.owd_ps) / kUs,
                s.hops, double(smart_pause_threshold_ps(c, s.hops)) / kUs, double(got) / kUs,
                double(s.hold_ps) / kUs);
    EXPECT_EQ(got, s.hold_ps) << "OWD " << s.owd_ps << " ps, " << s.hops << " hops";
  }
}

TEST(SmartPauseRule, ThresholdByHopsFromTheSlides) {
  const HostCfg c = dynamic_cfg();
  EXPECT_EQ(smart_pause_threshold_ps(c, 1), 12 * kUs);
  EXPECT_EQ(smart_pause_threshold_ps(c, 3), 14 * kUs);
  EXPECT_EQ(smart_pause_threshold_ps(c, 5), 16 * kUs);
  EXPECT_EQ(smart_pause_threshold_ps(c, 9), 16 * kUs);  // longer paths: the last entry
  EXPECT_THROW(smart_pause_threshold_ps(c, 0), std::logic_error);
}

TEST(SmartPauseRule, FixedPauseSequence) {
  // T = 50 us, P = 20 us: hold only when OWD > T (strictly), always for P.
  expect_sequence(fixed_cfg(), {{false, 0, 1, 0},                 // no ACK yet: send
                                {true, 3 * kUs, 1, 0},            // empty path
                                {true, 50 * kUs - 1, 1, 0},       // just under T
                                {true, 50 * kUs, 1, 0},           // at T: not greater
                                {true, 50 * kUs + 1, 1, 20 * kUs},
                                {true, 120 * kUs, 1, 20 * kUs},   // P does not grow with OWD
                                {true, 120 * kUs, 5, 20 * kUs},   // one T for every path
                                {true, 49 * kUs, 1, 0}});         // delay back under T: send
}

TEST(SmartPauseRule, DynamicPauseSequence) {
  // P = OWD - T with T by hops.
  expect_sequence(dynamic_cfg(), {{false, 40 * kUs, 1, 0},         // no sample: send
                                  {true, 12 * kUs, 1, 0},          // at T(1 hop)
                                  {true, 12 * kUs + 1, 1, 1},      // 1 ps over: hold 1 ps
                                  {true, 20 * kUs, 1, 8 * kUs},    // 20 - 12
                                  {true, 20 * kUs, 3, 6 * kUs},    // 20 - 14
                                  {true, 20 * kUs, 5, 4 * kUs},    // 20 - 16
                                  {true, 15 * kUs, 5, 0},          // under T(5 hops)
                                  {true, 15 * kUs, 2, 2 * kUs},    // 15 - 13
                                  {true, 100 * kUs, 1, 88 * kUs}});
}

TEST(SmartPauseRule, DisabledNeverHolds) {
  HostCfg c = dynamic_cfg();
  c.smart_pause = false;
  EXPECT_EQ(smart_pause_hold_ps(c, true, 100 * kUs, 1), 0u);
}

nlohmann::json default_with_host(const nlohmann::json& host) {
  std::ifstream in(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/default.json");
  nlohmann::json j = nlohmann::json::parse(in);
  j["host"] = host;
  return j;
}

TEST(SmartPauseConfig, DefaultsAndUnits) {
  const Scenario none = load_scenario(default_with_host(nlohmann::json::object()), "t");
  EXPECT_FALSE(none.host.acks);
  EXPECT_FALSE(none.host.smart_pause);

  const Scenario d = load_scenario(
      default_with_host({{"smart_pause", {{"enabled", true}, {"threshold_ns_by_hops", {12000, 14000.5}}, {"pause", "dynamic"}}}}),
      "t");
  EXPECT_TRUE(d.host.acks);  // Smart-Pause measures delay through ACKs
  EXPECT_TRUE(d.host.smart_pause);
  EXPECT_TRUE(d.host.dynamic_pause);
  EXPECT_EQ(d.host.threshold_ps, (std::vector<uint64_t>{12'000'000, 14'000'500}));
  EXPECT_EQ(d.host.ack_bytes, 64u);
  EXPECT_EQ(d.host.ack_dscp, 48u);
  EXPECT_EQ(d.host.rto_ps, 100 * kUs);

  const Scenario f = load_scenario(
      default_with_host({{"acks", {{"enabled", true}, {"bytes", 128}, {"dscp", 46}, {"rto_us", 250}}},
                         {"smart_pause", {{"enabled", true}, {"threshold_ns", 50000}, {"pause_ns", 20000}}}}),
      "t");
  EXPECT_FALSE(f.host.dynamic_pause);  // fixed is the default
  EXPECT_EQ(f.host.threshold_ps, std::vector<uint64_t>{50 * kUs});
  EXPECT_EQ(f.host.pause_ps, 20 * kUs);
  EXPECT_EQ(f.host.ack_bytes, 128u);
  EXPECT_EQ(f.host.ack_dscp, 46u);
  EXPECT_EQ(f.host.rto_ps, 250 * kUs);
}

}  // namespace
}  // namespace mmusim
