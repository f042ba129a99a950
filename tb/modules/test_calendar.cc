// Module tests: the calendar runs its entries in (time, phase, component, posting order),
// whatever order a wheel slot's entries were posted in (a slot is sorted by insertion when
// the wheel reaches it, or by std::sort when that takes more than 4 moves an entry), and
// whether they were posted before the run or by running entries (those for the current
// slot take the place of the entries already run). An entry posted for the current time
// with a key the calendar has passed runs next: the calendar always runs the least key
// pending.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
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

// Entries that post entries while they run: for the current time (a later phase, or any
// phase: a key the calendar has passed), the current slot, later slots and past the
// wheel's span, from two blocks, interleaved.
struct Poster {
  using Key = std::tuple<uint64_t, Phase, uint32_t, uint64_t>;  // (time, phase, component, tag)
  std::mt19937_64 rng;
  const Calendar::Client* c[2];
  std::vector<Key> posted;
  std::vector<size_t> posted_at;  // entries run when each was posted
  std::vector<uint64_t> ran;      // tags in the order run
  int left = 3000;

  void post(uint64_t t, Phase ph) {
    const int k = int(rng() % 2);
    posted.emplace_back(t, ph, c[k]->id(), posted.size());
    posted_at.push_back(ran.size());
    c[k]->at<&Poster::hit>(t, ph, this, uint64_t(posted.size() - 1));
  }
  void hit(uint64_t tag) {
    ran.push_back(tag);
    const uint64_t now = Calendar::now();
    const auto ph = int(std::get<1>(posted[tag]));
    for (int n = int(rng() % 4); n > 0 && left > 0; --n, --left) {
      switch (rng() % 6) {
        case 0:  // now, a later phase
          if (ph < 5) post(now, Phase(ph + 1 + int(rng() % uint64_t(5 - ph))));
          break;
        case 1: post(now + 1 + rng() % 4000, Phase(rng() % 6)); break;  // mostly this slot
        case 2: post(now + rng() % 50'000, Phase(rng() % 6)); break;    // later slots
        case 3: post(now + 10'000'000 + rng() % 50'000, Phase(rng() % 6)); break;  // the overflow
        case 4:  // now, any phase: rarely, as zero-delay paths in the model do
          if (rng() % 8 == 0) post(now, Phase(rng() % 6));
          break;
        default: post(now + 4096 * (1 + rng() % 3), Phase(rng() % 6)); break;  // a slot's start
      }
    }
  }
  // "ok", or the first entry that was not the least key pending when it ran. Entries posted
  // for the current time with a key already passed can only run next, so the reference is
  // the pending set, not the sorted list of all posts.
  std::string check() const {
    std::set<Key> pending;
    size_t next = 0;
    for (size_t k = 0; k < ran.size(); ++k) {
      for (; next < posted.size() && posted_at[next] <= k; ++next) pending.insert(posted[next]);
      if (pending.empty()) return "entry " + std::to_string(k) + ": ran post " + describe(ran[k]) + ", none pending";
      if (std::get<3>(*pending.begin()) != ran[k])
        return "entry " + std::to_string(k) + ": ran post " + describe(ran[k]) + ", expected post " +
               describe(std::get<3>(*pending.begin()));
      pending.erase(pending.begin());
    }
    if (ran.size() != posted.size())
      return "ran " + std::to_string(ran.size()) + " of " + std::to_string(posted.size());
    return ran.size() > 1000 ? "ok" : "too few posts";
  }
  std::string describe(uint64_t tag) const {
    const Key& p = posted[tag];
    return std::to_string(tag) + " (t " + std::to_string(std::get<0>(p)) + ", phase " +
           std::to_string(int(std::get<1>(p))) + ", component " + std::to_string(std::get<2>(p)) + ")";
  }
};

TEST(Calendar, EntriesPostedWhileRunningRunInKeyOrder) {
  uint64_t seed = (uint64_t(std::random_device{}()) << 32) | std::random_device{}();
  if (const char* e = std::getenv("MMUSIM_SEED")) seed = std::strtoull(e, nullptr, 0);
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)seed);
  const ChildResult r = run_in_child([&] {
    const Calendar::Client a, b;
    Poster p{std::mt19937_64(seed), {&a, &b}, {}, {}, {}};
    for (int i = 0; i < 20; ++i) p.post(uint64_t(p.rng() % 20'000), Phase(p.rng() % 6));
    sc_core::sc_start();
    return p.check();
  });
  ASSERT_TRUE(r.ok) << r.text;
  EXPECT_EQ(r.text, "ok") << "MMUSIM_SEED=" << seed;
}

// A late post (the current time, a key the calendar has passed) runs next, before the
// pending entries of the current time, and late posts among themselves in key order.
TEST(Calendar, APostForTheCurrentTimeWithAPassedKeyRunsNext) {
  const ChildResult r = run_in_child([] {
    const Calendar::Client a, b;  // components 0 and 1
    struct Late {
      const Calendar::Client* a;
      const Calendar::Client* b;
      std::vector<int> order;
      void first(uint64_t) {
        order.push_back(0);
        b->at<&Late::hit>(Calendar::now(), Phase::kArrival, this, uint64_t(3));  // passed (phase)
        a->at<&Late::hit>(Calendar::now(), Phase::kArrival, this, uint64_t(2));  // passed, lower component
        a->at<&Late::hit>(Calendar::now(), Phase::kRefresh, this, uint64_t(5));  // ahead
      }
      void hit(uint64_t tag) { order.push_back(int(tag)); }
    } l{&a, &b, {}};
    a.at<&Late::hit>(7000, Phase::kRetry, &l, uint64_t(4));
    b.at<&Late::first>(7000, Phase::kDecision, &l, uint64_t(0));
    a.at<&Late::hit>(7000, Phase::kFlowStart, &l, uint64_t(1));  // runs first, keyed by phase
    sc_core::sc_start();
    std::string s;
    for (const int k : l.order) s += std::to_string(k);
    return s;
  });
  ASSERT_TRUE(r.ok) << r.text;
  EXPECT_EQ(r.text, "102345");
}

// A wake-up before the model's time is a model error, whether posted by a running entry
// (checked against the calendar's time) or between activations (the kernel's).
struct PastPoster {
  const Calendar::Client* c;
  void hit(uint64_t t) { c->at<&PastPoster::hit>(t, Phase::kArrival, this, uint64_t(0)); }
};

TEST(Calendar, AWakeUpPostedInThePastStopsTheModel) {
  const ChildResult running = run_in_child([] {
    const Calendar::Client a;
    PastPoster p{&a};
    a.at<&PastPoster::hit>(5000, Phase::kArrival, &p, uint64_t(4999));  // runs at 5000, posts for 4999
    sc_core::sc_start();
    return std::string("ran");
  });
  EXPECT_FALSE(running.ok);
  EXPECT_NE(running.text.find("posted in the past"), std::string::npos) << running.text;
  const ChildResult idle = run_in_child([] {
    const Calendar::Client a;
    PastPoster p{&a};
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_NS));
    p.hit(9999);
    return std::string("posted");
  });
  EXPECT_FALSE(idle.ok);
  EXPECT_NE(idle.text.find("posted in the past"), std::string::npos) << idle.text;
}

}  // namespace
}  // namespace mmusim
