// BFC building blocks (bfc-nsdi22 §3.3): flow table, pause counters, Th lookup table, frame
// codec and the deadlock check, on hand-computed cases.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <stdexcept>
#include <vector>

#include "bfc/bfc_frame.h"
#include "bfc/deadlock.h"
#include "bfc/flow_table.h"
#include "bfc/pause_counters.h"
#include "bfc/threshold_table.h"

namespace mmusim {
namespace {

using A = BfcCfg::Assignment;
constexpr uint64_t kUs = 1'000'000;  // ps

TEST(BfcFlowTable, SizeIsHundredTimesTheQueues) {
  BfcFlowTable t(4, 32, 100, A::kDynamic, 2 * kUs, 1);
  std::printf("flow table: %u entries per port for 32 queues (paper: 100x the queues)\n", t.slots_per_port());
  EXPECT_EQ(t.slots_per_port(), 3200u);
  EXPECT_EQ(t.size(), 4u * 3200u);
  BfcFlowTable tofino(32, 128, 100, A::kDynamic, 0, 1);  // 4096 queues in the switch
  EXPECT_EQ(tofino.size(), 409600u) << "paper §3.3.1: 409,600 entries for Tofino2's 4096 queues";
}

TEST(BfcFlowTable, DynamicTakesEmptyQueuesFromTheBitmap) {
  BfcFlowTable t(2, 4, 100, A::kDynamic, 0, 7);
  uint32_t slot = 0;
  // All queues empty: the search starts at queue 0 and rotates.
  EXPECT_EQ(t.enqueue(0, 10, 0, &slot), 0);
  EXPECT_EQ(slot, 10u);
  t.set_empty(0, 0, false);
  EXPECT_EQ(t.enqueue(0, 11, 0, &slot), 1);
  t.set_empty(0, 1, false);
  // A flow with packets queued keeps its queue.
  EXPECT_EQ(t.enqueue(0, 10, 5, &slot), 0);
  EXPECT_EQ(t.entry(10).size, 2u);
  // Same slot (hash 10 + 400 entries): an index collision shares the queue.
  EXPECT_EQ(t.enqueue(0, 410, 6, &slot), 0);
  EXPECT_EQ(slot, 10u);
  // Port 1 has its own slots and bitmap.
  EXPECT_EQ(t.enqueue(1, 10, 0, &slot), 0);
  EXPECT_EQ(slot, 400u + 10u);
  // Queue 0 drains (bitmap bit set again); pointer is at 2: queues 2, 3, then 0.
  t.set_empty(0, 0, true);
  EXPECT_EQ(t.enqueue(0, 12, 7, &slot), 2);
  t.set_empty(0, 2, false);
  EXPECT_EQ(t.enqueue(0, 13, 7, &slot), 3);
  t.set_empty(0, 3, false);
  EXPECT_EQ(t.enqueue(0, 14, 7, &slot), 0);
  EXPECT_EQ(t.stats().assignments, 6u);
  EXPECT_EQ(t.stats().random, 0u);
}

TEST(BfcFlowTable, RandomQueueWhenNoneIsEmptySeeded) {
  auto fill = [](uint64_t seed) {
    BfcFlowTable t(1, 4, 100, A::kDynamic, 0, seed);
    uint32_t slot = 0;
    for (uint32_t h = 0; h < 4; ++h) t.set_empty(0, t.enqueue(0, h, 0, &slot), false);
    std::vector<int> picks;
    for (uint32_t h = 4; h < 40; ++h) picks.push_back(t.enqueue(0, h, 0, &slot));
    EXPECT_EQ(t.stats().random, 36u);
    return picks;
  };
  const auto a = fill(1), b = fill(1);
  EXPECT_EQ(a, b) << "same seed, same choices";
  std::set<int> seen(a.begin(), a.end());
  for (int q : seen) EXPECT_TRUE(q >= 0 && q < 4);
  EXPECT_GT(seen.size(), 1u) << "random, not a fixed queue";
}

TEST(BfcFlowTable, StickyForTwoHrttAfterTheLastPacket) {
  const uint64_t hrtt = 2 * kUs, sticky = 2 * hrtt;
  BfcFlowTable t(1, 4, 100, A::kDynamic, sticky, 1);
  uint32_t slot = 0;
  EXPECT_EQ(t.enqueue(0, 5, 0, &slot), 0);
  t.set_empty(0, 0, false);
  t.dequeue(slot, 1 * kUs);  // slot empty at 1 us
  t.set_empty(0, 0, true);
  t.set_empty(0, 0, false);  // another flow now uses queue 0
  // Within 4 us of the last dequeue the slot keeps queue 0 even though it is busy.
  EXPECT_EQ(t.enqueue(0, 5, 1 * kUs + sticky - 1, &slot), 0);
  EXPECT_EQ(t.stats().sticky, 1u);
  t.dequeue(slot, 6 * kUs);
  // At exactly the sticky time it is reassigned: queue 0 is busy, so the next empty, 1.
  EXPECT_EQ(t.enqueue(0, 5, 6 * kUs + sticky, &slot), 1);
  EXPECT_EQ(t.stats().assignments, 2u);
}

// `hash`: a static queue per flow, from a hash seeded by the table's seed: the same seed
// places every flow the same way, another seed places them differently; 3 200 flows reach
// every one of 32 queues. `single`: queue 0.
TEST(BfcFlowTable, HashAndSingleVariantsOfFig8) {
  BfcFlowTable h(1, 32, 100, A::kHash, 0, 1), same(1, 32, 100, A::kHash, 0, 1), other(1, 32, 100, A::kHash, 0, 2);
  BfcFlowTable s(1, 32, 100, A::kSingle, 0, 1);
  uint32_t slot = 0;
  std::vector<int> used(32, 0);
  int moved = 0;
  for (uint32_t hash = 0; hash < 3200; ++hash) {
    const uint16_t q = h.enqueue(0, hash, 0, &slot);
    ASSERT_LT(q, 32);
    ++used[q];
    EXPECT_EQ(same.enqueue(0, hash, 0, &slot), q);
    moved += other.enqueue(0, hash, 0, &slot) != q;
    EXPECT_EQ(s.enqueue(0, hash, 0, &slot), 0);
  }
  for (int q = 0; q < 32; ++q) EXPECT_GT(used[q], 50) << "queue " << q;  // 100 expected
  EXPECT_GT(moved, 2800);  // 31/32 of 3 200 = 3 100 expected
}

TEST(BfcFlowTable, DequeueOfEmptySlotThrows) {
  BfcFlowTable t(1, 4, 100, A::kDynamic, 0, 1);
  EXPECT_THROW(t.dequeue(3, 0), std::logic_error);
}

TEST(BfcFlowHash, DependsOnEveryTupleField) {
  const FiveTuple base{0x0A000001, 0x0A000002, 49152, 4791, 17};
  const uint32_t h = bfc_flow_hash(base);
  EXPECT_EQ(h, bfc_flow_hash(base));
  FiveTuple t = base;
  t.src_ip ^= 1;
  EXPECT_NE(bfc_flow_hash(t), h);
  t = base;
  t.dst_port ^= 1;
  EXPECT_NE(bfc_flow_hash(t), h);
  t = base;
  t.proto = 6;
  EXPECT_NE(bfc_flow_hash(t), h);
}

TEST(BfcPauseCounters, PauseOnZeroToOneResumeOnOneToZero) {
  BfcPauseCounters c(2, 32);
  // Hand sequence at (ingress 1, upstreamQ 5): packets A, B arrive over Th, C under Th
  // (not counted), then A, C, B leave. Pause at A's arrival, resume at B's departure.
  EXPECT_TRUE(c.increment(1, 5));  // A: 0 -> 1, send pause
  EXPECT_TRUE(c.paused(1).test(5));
  EXPECT_FALSE(c.increment(1, 5));  // B: 1 -> 2
  EXPECT_EQ(c.value(1, 5), 2u);
  EXPECT_FALSE(c.decrement(1, 5));  // A leaves: 2 -> 1, still paused
  EXPECT_TRUE(c.paused(1).test(5));
  EXPECT_TRUE(c.decrement(1, 5));  // B leaves: 1 -> 0, send resume
  EXPECT_FALSE(c.paused(1).test(5));
  EXPECT_EQ(c.nonzero(), 0u);
  // Other keys are independent.
  EXPECT_TRUE(c.increment(0, 5));
  EXPECT_TRUE(c.increment(1, 31));
  EXPECT_EQ(c.nonzero(), 2u);
  EXPECT_FALSE(c.paused(1).test(5));
}

TEST(BfcPauseCounters, UnderflowAndBadIndexThrow) {
  BfcPauseCounters c(2, 4);
  EXPECT_THROW(c.decrement(0, 0), std::logic_error);
  EXPECT_THROW(c.increment(2, 0), std::out_of_range);
  EXPECT_THROW(c.increment(0, 4), std::out_of_range);
}

TEST(BfcThresholdTable, HrttTimesRateOverActiveQueues) {
  // HRTT 2 us: 100 Gb/s -> 25,000 B; 50 Gb/s -> 12,500 B; cells of 176 B (Fig. 7).
  BfcThresholdTable t({100'000'000'000ull, 50'000'000'000ull}, 2 * kUs, 32, 176);
  std::printf("Th(100G, HRTT 2us): N=1 %llu B, N=2 %llu B, N=32 %llu B\n", (unsigned long long)t.bytes(0, 1),
              (unsigned long long)t.bytes(0, 2), (unsigned long long)t.bytes(0, 32));
  EXPECT_EQ(t.bytes(0, 1), 25000u);
  EXPECT_EQ(t.bytes(0, 2), 12500u);
  EXPECT_EQ(t.bytes(0, 3), 8333u);
  EXPECT_EQ(t.bytes(0, 32), 781u);
  EXPECT_EQ(t.cells(0, 1), 142u);  // 25000 / 176 = 142.04
  EXPECT_EQ(t.cells(0, 2), 71u);
  EXPECT_EQ(t.cells(0, 32), 4u);
  EXPECT_EQ(t.bytes(1, 1), 12500u);
  EXPECT_EQ(t.bytes(1, 4), 3125u);
  EXPECT_THROW(t.bytes(0, 0), std::out_of_range);
  EXPECT_THROW(t.bytes(0, 33), std::out_of_range);
}

TEST(BfcFrame, RoundTripAndLayout) {
  BfcFrame f;
  f.src_mac = {0x02, 0, 0, 0, 0, 4};
  f.op = BfcFrame::Op::kPause;
  f.queue = 127;
  f.paused.set(0, true);
  f.paused.set(9, true);
  f.paused.set(127, true);
  const auto b = encode_bfc(f);
  EXPECT_EQ(b[12], 0x88);
  EXPECT_EQ(b[13], 0xB5);
  EXPECT_EQ(b[14], 1);
  EXPECT_EQ(b[16], 0);
  EXPECT_EQ(b[17], 127);
  EXPECT_EQ(b[18], 0x01);  // queue 0
  EXPECT_EQ(b[19], 0x02);  // queue 9
  EXPECT_EQ(b[33], 0x80);  // queue 127
  const auto d = decode_bfc(b.data(), b.size());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->op, BfcFrame::Op::kPause);
  EXPECT_EQ(d->queue, 127);
  EXPECT_TRUE(d->paused == f.paused);
  EXPECT_EQ(d->paused.count(), 3u);
  EXPECT_EQ(d->src_mac, f.src_mac);
}

TEST(BfcFrame, RejectsCorruptFrames) {
  BfcFrame f;
  auto b = encode_bfc(f);
  auto bad = b;
  bad[20] ^= 1;  // bitmap bit flipped: FCS fails
  EXPECT_FALSE(decode_bfc(bad.data(), bad.size()).has_value());
  bad = b;
  bad[14] = 9;  // unknown opcode
  EXPECT_FALSE(decode_bfc(bad.data(), bad.size()).has_value());
  EXPECT_FALSE(decode_bfc(b.data(), b.size() - 1).has_value());
  EXPECT_FALSE(decode_bfc(nullptr, b.size()).has_value());
}

TEST(BfcDeadlockCheck, DrainingVersusDeadlocked) {
  BfcPauseCounters c(2, 8);
  c.increment(0, 3);
  c.increment(0, 3);
  c.increment(1, 7);
  std::vector<uint8_t> can_drain(16, 0);
  can_drain[0 * 8 + 3] = 1;  // a counted packet of (0, 3) sits in an unpaused queue
  const BfcDeadlockReport r = bfc_deadlock_check(c, can_drain);
  EXPECT_EQ(r.unresolved, 2u);
  EXPECT_EQ(r.draining, 1u);
  EXPECT_EQ(r.deadlocked, 1u);
  ASSERT_EQ(r.stuck.size(), 1u);
  EXPECT_EQ(r.stuck[0], std::make_pair(1u, 7u));
}

}  // namespace
}  // namespace mmusim
