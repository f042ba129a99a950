// Module tests: the calendar runs its entries in (time, phase, component, posting order),
// whatever order a wheel slot's entries were posted in: a slot is reversed when the wheel
// reaches it, then sorted by insertion, or by std::sort when that takes more than 4 moves
// an entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/calendar.h"
#include "sc_fork.h"

namespace mmusim {
namespace {

using test::ChildResult;
using test::run_in_child;

struct Recorder {
  std::vector<std::pair<uint64_t, uint64_t>> got;  // (time, tag) in the order run
  void hit(uint64_t tag) { got.emplace_back(Calendar::now(), tag); }
};

struct Post {
  uint64_t t;
  Phase ph;
  int client;
};

// Posts `posts` (tag = index) from two blocks, runs them, and returns "ok" or the first
// entry run out of (time, phase, component, posting order).
std::string run_posts(const std::vector<Post>& posts) {
  Recorder rec;
  const Calendar::Client a, b;
  const Calendar::Client* c[2] = {&a, &b};
  std::vector<std::tuple<uint64_t, Phase, uint32_t, size_t>> want;
  for (size_t i = 0; i < posts.size(); ++i) {
    const Post& p = posts[i];
    c[p.client]->at<&Recorder::hit>(p.t, p.ph, &rec, uint64_t(i));
    want.emplace_back(p.t, p.ph, c[p.client]->id(), i);  // posting order: i
  }
  std::sort(want.begin(), want.end());
  sc_core::sc_start();
  if (rec.got.size() != want.size())
    return "ran " + std::to_string(rec.got.size()) + " of " + std::to_string(want.size());
  for (size_t k = 0; k < want.size(); ++k) {
    const size_t i = std::get<3>(want[k]);
    if (rec.got[k].second != i || rec.got[k].first != posts[i].t)
      return "entry " + std::to_string(k) + ": ran post " + std::to_string(rec.got[k].second) + " at " +
             std::to_string(rec.got[k].first) + " ps, expected post " + std::to_string(i) + " at " +
             std::to_string(posts[i].t) + " ps";
  }
  return "ok";
}

// Slots are 4 096 ps wide; the first is current when the posts are made.
TEST(Calendar, SlotsPostedInOrderReversedOrOutOfOrderRunInKeyOrder) {
  const ChildResult r = run_in_child([] {
    return run_posts({
        // slot 2, in order: times, then phases at one time, then the two blocks
        {8200, Phase::kArrival, 0},
        {8300, Phase::kArrival, 0},
        {8300, Phase::kDecision, 0},
        {8300, Phase::kDecision, 1},
        {9000, Phase::kFlowStart, 1},
        // slot 4, in reverse: every pair out of order
        {20000, Phase::kRetry, 1},
        {19000, Phase::kDeparture, 0},
        {18000, Phase::kArrival, 1},
        {17000, Phase::kArrival, 0},
        // slot 6, in order but for its last entry (same time and block as the first, an
        // earlier phase)
        {25000, Phase::kDecision, 0},
        {25100, Phase::kArrival, 0},
        {25200, Phase::kArrival, 1},
        {25000, Phase::kArrival, 0},
        // one entry alone, and two with the same time, phase and block (posting order)
        {30000, Phase::kRefresh, 0},
        // slot 8, twelve entries latest first: 66 moves by insertion, so std::sort
        {34100, Phase::kArrival, 1},
        {34000, Phase::kArrival, 1},
        {33900, Phase::kArrival, 0},
        {33800, Phase::kRetry, 0},
        {33700, Phase::kArrival, 0},
        {33600, Phase::kArrival, 1},
        {33500, Phase::kDecision, 0},
        {33400, Phase::kArrival, 0},
        {33300, Phase::kArrival, 1},
        {33200, Phase::kArrival, 0},
        {33100, Phase::kDeparture, 1},
        {33000, Phase::kArrival, 0},
        {40000, Phase::kArrival, 1},
        {40000, Phase::kArrival, 1},
    });
  });
  ASSERT_TRUE(r.ok) << r.text;
  EXPECT_EQ(r.text, "ok");
}

TEST(Calendar, RandomPostsRunInKeyOrder) {
  uint64_t seed = (uint64_t(std::random_device{}()) << 32) | std::random_device{}();
  if (const char* e = std::getenv("MMUSIM_SEED")) seed = std::strtoull(e, nullptr, 0);
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  std::vector<Post> posts;
  // Mostly increasing times (slots posted in order), some runs reversed or shuffled, a
  // few past the wheel's span (the overflow), times clustered so that slots hold several.
  uint64_t t = 4096;
  for (int run = 0; run < 40; ++run) {
    std::vector<Post> batch;
    const int n = 1 + int(rng() % 12);
    for (int k = 0; k < n; ++k) {
      t += rng() % 3 == 0 ? 0 : rng() % 3000;
      batch.push_back({t, Phase(rng() % 6), int(rng() % 2)});
    }
    if (rng() % 4 == 0) std::reverse(batch.begin(), batch.end());
    else if (rng() % 4 == 0) std::shuffle(batch.begin(), batch.end(), rng);
    if (rng() % 10 == 0) t += 10'000'000;  // beyond the span
    posts.insert(posts.end(), batch.begin(), batch.end());
  }
  const ChildResult r = run_in_child([&] { return run_posts(posts); });
  ASSERT_TRUE(r.ok) << r.text;
  EXPECT_EQ(r.text, "ok") << "MMUSIM_SEED=" << seed;
}

}  // namespace
}  // namespace mmusim
