// Module tests: PauseTimers (pure C++, no simulation).
// Expected numbers are hand-computed in the comments (figures: module_bench.h).
#include "module_bench.h"

namespace mmusim {
namespace {

using namespace modtest;

TEST(PauseTimers, FullQuantaAt100G) {
  PauseTimers t(k100G);
  t.apply(pfc_frame(0x08, 0xFFFF), 1000);
  // 65535 * 512 bit / 100 Gb/s = 335,539,200 ps from t = 1000.
  EXPECT_TRUE(t.paused(3, 1000));
  EXPECT_TRUE(t.paused(3, 1000 + 335'539'200 - 1));
  EXPECT_FALSE(t.paused(3, 1000 + 335'539'200));
  EXPECT_FALSE(t.paused(2, 1000));
  EXPECT_FALSE(t.paused(4, 1000));
  EXPECT_EQ(t.next_expiry(0x08, 1000), 1000u + 335'539'200u);
  EXPECT_EQ(t.next_expiry(0xFF, 1000), 1000u + 335'539'200u);
  EXPECT_EQ(t.next_expiry(0xF7, 1000), 0u);  // priority 3 not in the mask
  EXPECT_EQ(t.next_expiry(0x08, 1000 + 335'539'200), 0u);
  EXPECT_EQ(t.paused_ps(2000), 1000u);
  EXPECT_EQ(t.paused_ps(1'000'000'000), 335'539'200u);
}

TEST(PauseTimers, ZeroQuantaResumesImmediately) {
  PauseTimers t(k100G);
  t.apply(pfc_frame(0x08, 100), 0);  // 100 * 5120 ps = 512,000 ps
  EXPECT_TRUE(t.paused(3, 10'000));
  t.apply(pfc_frame(0x08, 0), 10'000);
  EXPECT_FALSE(t.paused(3, 10'000));
  EXPECT_EQ(t.next_expiry(0x08, 10'000), 0u);
  EXPECT_EQ(t.paused_ps(20'000), 10'000u);
  EXPECT_EQ(t.paused_ps(1'000'000), 10'000u);
}

TEST(PauseTimers, ReapplyExtends) {
  PauseTimers t(k100G);
  t.apply(pfc_frame(0x08, 100), 0);         // until 512,000
  t.apply(pfc_frame(0x08, 100), 400'000);   // until 400,000 + 512,000 = 912,000
  EXPECT_TRUE(t.paused(3, 600'000));
  EXPECT_TRUE(t.paused(3, 911'999));
  EXPECT_FALSE(t.paused(3, 912'000));
  EXPECT_EQ(t.next_expiry(0x08, 600'000), 912'000u);
  EXPECT_EQ(t.paused_ps(912'000), 912'000u);    // one continuous pause, not 512,000 + 512,000
  EXPECT_EQ(t.paused_ps(2'000'000), 912'000u);
}

TEST(PauseTimers, PausedTimeAccumulatesOverSeparatePauses) {
  PauseTimers t(k100G);
  t.apply(pfc_frame(0x08, 100), 0);  // [0, 512,000)
  EXPECT_EQ(t.paused_ps(1'000'000), 512'000u);
  // The first pause expired long ago; the second is 10 quanta = 51,200 ps.
  t.apply(pfc_frame(0x08, 10), 1'000'000);
  EXPECT_TRUE(t.paused(3, 1'020'000));
  EXPECT_EQ(t.paused_ps(1'020'000), 512'000u + 20'000u);
  EXPECT_EQ(t.paused_ps(5'000'000), 512'000u + 51'200u);
  // A third pause after the second expired, cut short by XON after 1,000 ps.
  t.apply(pfc_frame(0x08, 10), 6'000'000);
  t.apply(pfc_frame(0x08, 0), 6'001'000);
  EXPECT_EQ(t.paused_ps(9'000'000), 512'000u + 51'200u + 1'000u);
}

TEST(PauseTimers, PrioritiesCountSeparatelyAndNextExpiryIsEarliest) {
  PauseTimers t(k100G);
  PfcFrame f;
  f.class_enable = 0x18;
  f.quanta[3] = 100;  // until 512,000
  f.quanta[4] = 10;   // until 51,200
  f.quanta[5] = 50;   // not enabled: ignored
  t.apply(f, 0);
  EXPECT_FALSE(t.paused(5, 0));
  EXPECT_EQ(t.next_expiry(0x38, 0), 51'200u);
  EXPECT_EQ(t.next_expiry(0x38, 51'200), 512'000u);
  EXPECT_EQ(t.next_expiry(0x08, 0), 512'000u);
  // Priority-seconds: 512,000 + 51,200.
  EXPECT_EQ(t.paused_ps(1'000'000), 563'200u);
}

TEST(PauseTimers, QuantumScalesWithLinkRate) {
  PauseTimers t(25'000'000'000ull);
  t.apply(pfc_frame(0x01, 0xFFFF), 0);
  // 65535 * 512 / 25e9 = 1,342,156,800 ps.
  EXPECT_EQ(t.next_expiry(0x01, 0), 1'342'156'800u);
}

}  // namespace
}  // namespace mmusim
