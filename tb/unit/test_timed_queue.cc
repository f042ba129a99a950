// The NIC's containers: TimedQueue (a FIFO for items pushed in time order, a heap for the
// rest, its size a count) and QueueMask::next (the NIC's ready queues as bits), by hand
// and against simple references on random streams.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <utility>

#include "common/frames.h"
#include "common/timed_queue.h"

using mmusim::kBfcMaxQueues;
using mmusim::QueueMask;
using mmusim::TimedQueue;

namespace {

uint64_t seed() {
  if (const char* s = std::getenv("MMUSIM_SEED")) return std::strtoull(s, nullptr, 0);
  return std::random_device{}();
}

}  // namespace

TEST(TimedQueue, HandComputedOrder) {
  TimedQueue<int> q;
  EXPECT_TRUE(q.empty());
  q.push(10, 1);
  q.push(20, 2);
  q.push(5, 3);   // out of order: the heap
  q.push(20, 4);  // equal time: after 2 (insertion order)
  q.push(5, 5);
  EXPECT_EQ(q.size(), 5u);
  const std::pair<uint64_t, int> want[] = {{5, 3}, {5, 5}, {10, 1}, {20, 2}, {20, 4}};
  for (const auto& [t, v] : want) {
    ASSERT_FALSE(q.empty());
    EXPECT_EQ(q.next_time(), t);
    EXPECT_EQ(q.top(), v);
    q.pop();
  }
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.size(), 0u);
}

TEST(TimedQueue, EqualsAnOrderedMapOnRandomStreams) {
  const uint64_t s = seed();
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)s);
  std::mt19937_64 rng(s);
  for (int run = 0; run < 50; ++run) {
    TimedQueue<uint32_t> q;
    std::map<std::pair<uint64_t, uint64_t>, uint32_t> ref;  // (time, insertion order) -> value
    uint64_t seq = 0, now = 0;
    for (int op = 0; op < 2000; ++op) {
      if (rng() % 3 && !ref.empty()) {
        ASSERT_EQ(q.next_time(), ref.begin()->first.first);
        ASSERT_EQ(q.top(), ref.begin()->second);
        now = ref.begin()->first.first;
        q.pop();
        ref.erase(ref.begin());
      } else {
        // Mostly in time order (the FIFO), now and then earlier than the last (the heap).
        const uint64_t t = now + (rng() % 4 ? rng() % 1000 : 0);
        const uint32_t v = uint32_t(rng());
        q.push(t, v);
        ref[{t, seq++}] = v;
      }
      ASSERT_EQ(q.empty(), ref.empty());
      ASSERT_EQ(q.size(), ref.size());
    }
  }
}

TEST(QueueMask, NextByHand) {
  QueueMask m;
  EXPECT_EQ(m.next(0), kBfcMaxQueues);
  m.set(3, true);
  m.set(64, true);
  m.set(kBfcMaxQueues - 1, true);
  EXPECT_EQ(m.next(0), 3u);
  EXPECT_EQ(m.next(3), 3u);
  EXPECT_EQ(m.next(4), 64u);  // across a word
  EXPECT_EQ(m.next(65), kBfcMaxQueues - 1);
  m.set(kBfcMaxQueues - 1, false);
  EXPECT_EQ(m.next(65), kBfcMaxQueues);
}

TEST(QueueMask, NextEqualsALinearScanOnRandomMasks) {
  const uint64_t s = seed();
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)s);
  std::mt19937_64 rng(s);
  for (int run = 0; run < 200; ++run) {
    QueueMask m;
    const uint32_t density = 1 + uint32_t(rng() % 40);
    for (uint32_t q = 0; q < kBfcMaxQueues; ++q) m.set(q, rng() % density == 0);
    for (uint32_t from = 0; from <= kBfcMaxQueues; ++from) {
      uint32_t want = from;
      while (want < kBfcMaxQueues && !m.test(want)) ++want;
      ASSERT_EQ(m.next(from), want) << "from " << from;
    }
  }
}
