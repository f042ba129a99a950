// Admission core against hand-computed Dynamic Thresholds cases (reverie-nsdi24 Eq. 1).
#include <gtest/gtest.h>

#include "admission/admission_core.h"
#include "core_configs.h"

using namespace mmusim::admission;
using namespace mmusim::admission::testcfg;

namespace {

Request req(uint32_t in, uint32_t prio, uint32_t cells = 1) { return {in, 1, uint8_t(prio), cells}; }
Departure dep(uint32_t in, uint32_t prio, uint32_t cells = 1) { return {in, 1, uint8_t(prio), cells}; }

// Admit single cells until the first non-shared verdict; returns cells admitted to shared.
uint64_t fill(AdmissionCore& core, uint32_t in, uint32_t prio, Result& stop) {
  uint64_t n = 0;
  for (;;) {
    stop = core.admit(req(in, prio));
    if (stop.verdict != Verdict::kAdmitShared) return n;
    ++n;
  }
}

}  // namespace

TEST(AdmissionCore, SingleLosslessQueueStopsAtAlphaOverOnePlusAlpha) {
  // q >= 1*(600 - q) first holds at q = 300 = 600 * 1/(1+1).
  AdmissionCore core(small_config());
  Result r;
  EXPECT_EQ(fill(core, 0, kLl, r), 300u);
  EXPECT_EQ(r.verdict, Verdict::kAdmitHeadroom);
  EXPECT_EQ(r.pfc, PfcEvent::kXoff);
  EXPECT_TRUE(core.paused(0, kLl));
  EXPECT_EQ(core.pool_used(0), 300u);
  EXPECT_EQ(core.headroom_cells(0, kLl), 1u);
}

TEST(AdmissionCore, AlphaShiftsGiveClosedForm) {
  // alpha = 4: q stops at 4/5*600 = 480; alpha = 1/2: at 1/3*600 = 200.
  for (auto [shift, expect] : {std::pair<int8_t, uint64_t>{2, 480}, {-1, 200}, {0, 300}}) {
    AdmissionCore core(small_config(shift));
    Result r;
    EXPECT_EQ(fill(core, 0, kLl, r), expect) << "shift " << int(shift);
  }
}

TEST(AdmissionCore, TwoQueuesShareEqually) {
  // Alternating arrivals: both stop at 600/(1+2) = 200.
  AdmissionCore core(small_config());
  uint64_t admitted[2] = {0, 0};
  bool paused[2] = {false, false};
  while (!(paused[0] && paused[1]))
    for (uint32_t p = 0; p < 2; ++p) {
      if (paused[p]) continue;
      Result r = core.admit(req(p, kLl));
      if (r.verdict == Verdict::kAdmitShared) ++admitted[p];
      else paused[p] = true;
    }
  EXPECT_EQ(admitted[0], 200u);
  EXPECT_EQ(admitted[1], 200u);
}

TEST(AdmissionCore, HeadroomAbsorbsUntilXoffThenDrops) {
  AdmissionCore core(small_config());
  Result r;
  fill(core, 0, kLl, r);  // 300 shared + 1 headroom
  for (int i = 1; i < 50; ++i) EXPECT_EQ(core.admit(req(0, kLl)).verdict, Verdict::kAdmitHeadroom);
  r = core.admit(req(0, kLl));
  EXPECT_EQ(r.verdict, Verdict::kDrop);
  EXPECT_EQ(r.reason, DropReason::kHeadroom);
  EXPECT_EQ(core.headroom_cells(0, kLl), 50u);
  EXPECT_EQ(core.headroom_pool_used(), 50u);
}

TEST(AdmissionCore, HeadroomPoolLimitsAllQueues) {
  // Two paused queues with xoff 50 each would need 100; the pool has 100, so a third
  // lossless queue on another PG cannot add more: shrink the pool to 60 to see it bind.
  CoreConfig c = small_config();
  c.headroom_pool_cells = 60;
  AdmissionCore core(c);
  Result r;
  fill(core, 0, kLl, r);
  for (int i = 1; i < 50; ++i) core.admit(req(0, kLl));
  fill(core, 1, kLl, r);  // port 1 pauses with 1 headroom cell: pool at 51
  uint64_t more = 0;
  while (core.admit(req(1, kLl)).verdict == Verdict::kAdmitHeadroom) ++more;
  EXPECT_EQ(more, 9u);  // 51 + 9 = 60
}

TEST(AdmissionCore, DrainHeadroomFirstThenXonWithOffset) {
  AdmissionCore core(small_config());
  Result r;
  fill(core, 0, kLl, r);
  for (int i = 1; i < 50; ++i) core.admit(req(0, kLl));
  // 50 departures empty the headroom; no XON while headroom is non-empty.
  for (int i = 0; i < 50; ++i) EXPECT_EQ(core.depart(dep(0, kLl)).pfc, PfcEvent::kNone);
  EXPECT_EQ(core.headroom_cells(0, kLl), 0u);
  EXPECT_EQ(core.ingress_cells(0, kLl), 300u);
  // XON when q + 10 <= 600 - q  <=>  q <= 295: the 5th ingress departure.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(core.depart(dep(0, kLl)).pfc, PfcEvent::kNone);
  EXPECT_EQ(core.depart(dep(0, kLl)).pfc, PfcEvent::kXon);
  EXPECT_EQ(core.ingress_cells(0, kLl), 295u);
  EXPECT_FALSE(core.paused(0, kLl));
}

TEST(AdmissionCore, ReservedCellsBypassThePool) {
  AdmissionCore core(small_config(0, 10));
  for (int i = 0; i < 10; ++i) core.admit(req(0, kLl));
  EXPECT_EQ(core.pool_used(0), 0u);
  core.admit(req(0, kLl));
  EXPECT_EQ(core.pool_used(0), 1u);
  // Shared part stops at 300 as before; the queue holds 10 more.
  Result r;
  EXPECT_EQ(fill(core, 0, kLl, r) + 11, 310u);
}

TEST(AdmissionCore, LossyDropsAtEgressThreshold) {
  // Egress lossy pool 600, alpha 1: the egress queue stops at 300; ingress never binds.
  AdmissionCore core(small_config());
  Result r;
  EXPECT_EQ(fill(core, 0, kLy, r), 300u);
  EXPECT_EQ(r.verdict, Verdict::kDrop);
  EXPECT_EQ(r.reason, DropReason::kEgress);
  EXPECT_EQ(r.pfc, PfcEvent::kNone);
}

TEST(AdmissionCore, LossyOccupancyRaisesOnlyTheLosslessThreshold) {
  // Issue 2 of reverie §2.1 in miniature: lossy cells count in the ingress pool, so the
  // PFC threshold falls by them, while the lossy threshold ignores lossless cells.
  AdmissionCore core(small_config());
  const uint64_t th_ll = core.ingress_threshold(0, kLl), th_ly = core.egress_threshold(1, kLy);
  for (int i = 0; i < 100; ++i) core.admit(req(0, kLy));
  EXPECT_EQ(core.ingress_threshold(0, kLl), th_ll - 100);
  for (int i = 0; i < 50; ++i) core.admit(req(1, kLl));
  EXPECT_EQ(core.egress_threshold(1, kLy), th_ly - 100);  // only the 100 lossy cells
}

TEST(AdmissionCore, BufferIsTheLastCheck) {
  // Two ingress pools of 100 over a 150-cell buffer: the physical limit drops the 151st.
  CoreConfig c = small_config();
  c.buffer_cells = 150;
  c.pool_cells = {100, 100, 150, 150};
  c.ingress_profiles[1] = {0, 0, {false, 0, 1000}, 0, 0, 0};
  c.ingress_profiles.push_back({3, 0, {false, 0, 1000}, 0, 0, 0});
  // Egress reservation covers everything, so only the buffer can refuse.
  c.egress_profiles = {{2, 150, {false, 0, 1000}}, {2, 150, {false, 0, 1000}}};
  c.pg_profile[1 * 8 + kLy] = 2;
  AdmissionCore core(c);
  Result r;
  EXPECT_EQ(fill(core, 0, kLy, r), 100u);
  EXPECT_EQ(r.reason, DropReason::kIngress);
  EXPECT_EQ(fill(core, 1, kLy, r), 50u);
  EXPECT_EQ(r.reason, DropReason::kBuffer);
  EXPECT_EQ(core.total_used(), 150u);
}

TEST(AdmissionCore, MultiCellPacketsUseCeilAccounting) {
  AdmissionCore core(small_config());
  core.admit(req(0, kLl, 6));
  EXPECT_EQ(core.ingress_cells(0, kLl), 6u);
  EXPECT_EQ(core.egress_cells(1, kLl), 6u);
  EXPECT_EQ(core.total_used(), 6u);
  core.depart(dep(0, kLl, 6));
  EXPECT_EQ(core.total_used(), 0u);
  EXPECT_EQ(core.pool_used(0), 0u);
}

TEST(AdmissionCore, DepartureOfUnknownPacketIsAnError) {
  AdmissionCore core(small_config());
  EXPECT_THROW(core.depart(dep(0, kLl)), CounterError);
  core.admit(req(0, kLy, 2));
  EXPECT_THROW(core.depart(dep(0, kLy, 3)), CounterError);
}

TEST(AdmissionCore, ThresholdSaturatesInsteadOfWrapping) {
  CoreConfig c = small_config(15);
  c.counter_bits = 16;
  AdmissionCore core(c);
  EXPECT_EQ(core.ingress_threshold(0, kLl), 65535u);  // 600 << 15 would wrap 16 bits
}

TEST(AdmissionCore, ResetClearsEverything) {
  AdmissionCore core(small_config());
  Result r;
  fill(core, 0, kLl, r);
  core.reset();
  EXPECT_EQ(core.total_used(), 0u);
  EXPECT_FALSE(core.paused(0, kLl));
  EXPECT_EQ(core.pool_used(0), 0u);
}

TEST(AdmissionCore, InvalidConfigurationsAreRejected) {
  CoreConfig c = small_config();
  c.pool_cells[0] = 2000;
  EXPECT_THROW(AdmissionCore{c}, std::invalid_argument);
  c = small_config();
  c.buffer_cells = uint64_t(1) << 40;
  EXPECT_THROW(AdmissionCore{c}, std::invalid_argument);  // does not fit 32-bit counters
  c = small_config();
  c.pg_profile[0] = 7;
  EXPECT_THROW(AdmissionCore{c}, std::invalid_argument);
  c = small_config();
  EXPECT_THROW(AdmissionCore(c).admit({5, 0, 0, 1}), std::out_of_range);
}
