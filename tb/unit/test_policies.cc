// Every admission policy through AdmissionCore against hand-computed integer cases:
// static, sih, reverie (reverie-nsdi24 §3, Eq. 4-6), abm (§2.3), dsh (dsh-icdcs23 §IV-B,
// Eq. 2, 4-6). Each case departs everything it admitted and checks the counters return to 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "admission/admission_core.h"
#include "core_configs.h"
#include "admission/ewma.h"
#include "admission/policy.h"

using namespace mmusim::admission;
using namespace mmusim::admission::testcfg;

namespace {

constexpr uint32_t kLl2 = 4;  // second lossless priority (DSH N_q = 2)

// Reverie: b = 700, headroom pool b_h = 100, shared pool b* = b - b_h = 600 (pool 0, the
// lossless PG's ingress pool). The egress profiles name pool 1 on purpose: reverie must charge
// everything to pool 0 and leave pool 1 untouched. alpha = 1 for both classes.
CoreConfig reverie_config(uint8_t k, EwmaConfig::Rule rule, uint64_t congested_cells = 1) {
  CoreConfig c = small_config();
  c.policy = "reverie";
  c.buffer_cells = 700;
  c.pool_cells = {600, 600};
  c.headroom_pool_cells = 100;
  c.ingress_profiles = {
      {0, 0, {true, 0, 0}, 50, 0, 10},  // lossless: alpha 1, xoff 50, xon_offset 10
      {0, 0, {true, 0, 0}, 0, 0, 0},    // lossy PG (unused by reverie)
  };
  c.egress_profiles = {
      {1, 0, {true, 0, 0}},  // lossless egress (unused by reverie)
      {1, 0, {true, 0, 0}},  // lossy: alpha 1
  };
  c.congestion = {CongestionRule::Kind::kThreshold, congested_cells};
  c.ewma.rule = rule;
  c.ewma.k = k;
  c.ewma.frac_bits = 16;
  c.ewma.clamp = true;
  return c;
}

// DSH: B_s = 600 (pool 0), eta = xoff = 50 per port, insurance = N_p * eta = 100 (headroom
// pool), delta_q = xon_offset = 10, delta_p = 21. Lossless priorities 3 (and 4 if two_ll).
CoreConfig dsh_config(bool two_ll = true) {
  CoreConfig c = small_config();
  c.policy = "dsh";
  c.dsh.port_xon_offset_cells = 21;
  if (two_ll)
    for (uint32_t p = 0; p < c.ports; ++p) {
      c.pg_profile[p * 8 + kLl2] = 0;
      c.queue_profile[p * 8 + kLl2] = 0;
      c.lossless[p * 8 + kLl2] = 1;
    }
  return c;
}

// ABM on small_config: congestion = at least 1 cell, intervals of 1024 cycles (a power of
// two: the RTL's interval number is a bit slice of the cycle) in which a port can send 100 cells.
CoreConfig abm_config() {
  CoreConfig c = small_config();
  c.policy = "abm";
  c.congestion = {CongestionRule::Kind::kThreshold, 1};
  c.abm.interval_log2 = 10;
  c.abm.port_cells_per_interval = {100, 100};
  return c;
}

// An AdmissionCore that remembers what it admitted, to depart all of it at the end.
struct Harness {
  explicit Harness(CoreConfig c) : core(std::move(c)) {}

  Result admit(uint32_t in, uint32_t out, uint32_t prio, uint64_t cycle = 0) {
    const Result r = core.admit({in, out, uint8_t(prio), 1, cycle});
    if (r.verdict != Verdict::kDrop) held.push_back({in, out, uint8_t(prio), 1, cycle});
    return r;
  }
  PfcUpdate depart(uint32_t in, uint32_t out, uint32_t prio, uint64_t cycle = 0) {
    auto it = std::find_if(held.begin(), held.end(), [&](const Departure& d) {
      return d.in_port == in && d.out_port == out && d.prio == prio;
    });
    EXPECT_NE(it, held.end()) << "departing a packet that was never admitted";
    if (it != held.end()) held.erase(it);
    return core.depart({in, out, uint8_t(prio), 1, cycle});
  }
  // Admit single cells until the first verdict other than admit_shared; returns the count.
  uint64_t fill(uint32_t in, uint32_t out, uint32_t prio, Result& stop, uint64_t cycle = 0) {
    uint64_t n = 0;
    for (;;) {
      stop = admit(in, out, prio, cycle);
      if (stop.verdict != Verdict::kAdmitShared) return n;
      ++n;
    }
  }
  // Depart everything still held; every counter must come back to exactly 0.
  void drain_all(uint64_t cycle = 0) {
    while (!held.empty()) {
      const Departure d = held.back();
      held.pop_back();
      core.depart({d.in_port, d.out_port, d.prio, d.cells, cycle});
    }
    const CoreConfig& c = core.config();
    EXPECT_EQ(core.total_used(), 0u);
    EXPECT_EQ(core.headroom_pool_used(), 0u);
    for (uint16_t p = 0; p < c.pool_cells.size(); ++p) EXPECT_EQ(core.pool_used(p), 0u) << "pool " << p;
    for (uint32_t port = 0; port < c.ports; ++port)
      for (uint32_t q = 0; q < c.prios; ++q) {
        EXPECT_EQ(core.ingress_cells(port, q), 0u);
        EXPECT_EQ(core.headroom_cells(port, q), 0u);
        EXPECT_EQ(core.egress_cells(port, q), 0u);
      }
  }

  AdmissionCore core;
  std::vector<Departure> held;
};

}  // namespace

// ---------------------------------------------------------------- registry

TEST(PolicyRegistry, ListsTheSixPoliciesAndRejectsUnknownNames) {
  std::vector<std::string> names;
  for (const auto& p : policies()) {
    names.push_back(p.name);
    EXPECT_NE(std::string(p.summary), "");
  }
  EXPECT_EQ(names, (std::vector<std::string>{"dt", "static", "sih", "abm", "reverie", "dsh"}));
  for (const auto& name : names) {
    CoreConfig c = abm_config();  // abm needs port_cells_per_interval; others ignore it
    c.policy = name;
    EXPECT_NE(make_policy(c), nullptr) << name;
    EXPECT_NO_THROW(AdmissionCore{c}) << name;
  }
  CoreConfig c = small_config();
  for (const char* bad : {"bogus", "DT", "", "reverie "}) {
    c.policy = bad;
    EXPECT_THROW(make_policy(c), std::invalid_argument) << bad;
    EXPECT_THROW(AdmissionCore{c}, std::invalid_argument) << bad;
  }
}

// ---------------------------------------------------------------- static

TEST(PolicyStatic, QueueStopsAtAlphaTimesPoolSizeRegardlessOfOthers) {
  // dynamic_th -1: limit = 600 >> 1 = 300 cells, whatever the pool's occupancy.
  CoreConfig c = small_config(-1);
  c.policy = "static";
  Harness run(c);
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 300u);
  Result r;
  for (int i = 0; i < 200; ++i) ASSERT_EQ(run.admit(1, 1, kLl).verdict, Verdict::kAdmitShared);
  EXPECT_EQ(run.core.pool_used(0), 200u);
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 300u);  // DT would say (600 - 200) >> 1 = 200
  EXPECT_EQ(run.fill(0, 1, kLl, r), 300u);                // s >= 300 first holds at s = 300
  EXPECT_EQ(r.verdict, Verdict::kAdmitHeadroom);
  EXPECT_EQ(r.pfc, PfcEvent::kXoff);
  EXPECT_EQ(run.core.ingress_cells(0, kLl), 300u);
  EXPECT_EQ(run.core.pool_used(0), 500u);
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 300u);
  run.drain_all();

  // Contrast, same sequence under dt: x >= (400 - x) >> 1 first at x = 133 (267 >> 1 = 133).
  c.policy = "dt";
  Harness dt(c);
  for (int i = 0; i < 200; ++i) dt.admit(1, 1, kLl);
  EXPECT_EQ(dt.fill(0, 1, kLl, r), 133u);
  dt.drain_all();
}

// ---------------------------------------------------------------- sih

TEST(PolicySih, EachPausedPgAbsorbsItsOwnXoffEvenIfHeadroomPoolIsSmaller) {
  // Headroom pool 60 < 2 PGs x xoff 50: SIH still gives each PG its own 50.
  CoreConfig c = small_config();
  c.policy = "sih";
  c.headroom_pool_cells = 60;
  Harness run(c);
  Result r;
  // Port 0: q >= 600 - q at q = 300; then 50 headroom cells (the XOFF packet is the first).
  EXPECT_EQ(run.fill(0, 1, kLl, r), 300u);
  EXPECT_EQ(r.pfc, PfcEvent::kXoff);
  for (int i = 1; i < 50; ++i) ASSERT_EQ(run.admit(0, 1, kLl).verdict, Verdict::kAdmitHeadroom);
  r = run.admit(0, 1, kLl);
  EXPECT_EQ(r.verdict, Verdict::kDrop);
  EXPECT_EQ(r.reason, DropReason::kHeadroom);
  // Port 1: q >= (600 - 300) - q at q = 150; then again exactly 50 headroom cells.
  EXPECT_EQ(run.fill(1, 1, kLl, r), 150u);
  EXPECT_EQ(r.pfc, PfcEvent::kXoff);
  uint64_t more = 0;
  while ((r = run.admit(1, 1, kLl)).verdict == Verdict::kAdmitHeadroom) ++more;
  EXPECT_EQ(more + 1, 50u);
  EXPECT_EQ(r.reason, DropReason::kHeadroom);
  EXPECT_EQ(run.core.headroom_cells(0, kLl), 50u);
  EXPECT_EQ(run.core.headroom_cells(1, kLl), 50u);
  EXPECT_EQ(run.core.headroom_pool_used(), 100u);  // above the configured 60
  run.drain_all();

  // Contrast, dt shares the 60-cell pool: port 1 gets only 60 - 50 = 10.
  c.policy = "dt";
  Harness dt(c);
  dt.fill(0, 1, kLl, r);
  for (int i = 1; i < 50; ++i) dt.admit(0, 1, kLl);
  dt.fill(1, 1, kLl, r);
  more = 0;
  while (dt.admit(1, 1, kLl).verdict == Verdict::kAdmitHeadroom) ++more;
  EXPECT_EQ(more + 1, 10u);
  dt.drain_all();
}

// ---------------------------------------------------------------- reverie

TEST(PolicyReverie, KZeroSingleLosslessQueueStopsAtAlphaOverOnePlusAlpha) {
  // k = 0, enqueue_dequeue: q_hat = q (before the decision). Gamma = 600 - q (n_p = 1).
  // Eq. 4 admits when q <= 600 - q, i.e. q <= 300: the arrival seeing q = 300 is admitted
  // (300 <= 300), the one seeing 301 fails (301 > 299). So 301 cells = b*/2 + 1 packet.
  Harness run(reverie_config(0, EwmaConfig::Rule::kEnqueueDequeue));
  Result r;
  EXPECT_EQ(run.fill(0, 1, kLl, r), 301u);
  EXPECT_EQ(r.verdict, Verdict::kAdmitHeadroom);
  EXPECT_EQ(r.pfc, PfcEvent::kXoff);
  EXPECT_TRUE(run.core.paused(0, kLl));
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 299u);  // 600 - 301
  // Accounted once, in the ingress queue and pool 0: no egress counter, pool 1 untouched.
  EXPECT_EQ(run.core.ingress_cells(0, kLl), 301u);
  EXPECT_EQ(run.core.egress_cells(1, kLl), 0u);
  EXPECT_EQ(run.core.pool_used(0), 301u);
  EXPECT_EQ(run.core.pool_used(1), 0u);
  // Headroom: 50 cells (xoff) in all, then headroom_full.
  for (int i = 1; i < 50; ++i) ASSERT_EQ(run.admit(0, 1, kLl).verdict, Verdict::kAdmitHeadroom);
  r = run.admit(0, 1, kLl);
  EXPECT_EQ(r.verdict, Verdict::kDrop);
  EXPECT_EQ(r.reason, DropReason::kHeadroom);
  EXPECT_EQ(run.core.headroom_pool_used(), 50u);
  EXPECT_EQ(run.core.total_used(), 351u);
  // XON: 50 departures drain headroom (q stays 301, no XON); then q_hat = q after each
  // departure and XON when q + 10 <= 600 - q, i.e. q <= 295: the 6th shared departure.
  for (int i = 0; i < 50; ++i) ASSERT_EQ(run.depart(0, 1, kLl).pfc, PfcEvent::kNone) << i;
  EXPECT_EQ(run.core.headroom_cells(0, kLl), 0u);
  for (int i = 0; i < 5; ++i) ASSERT_EQ(run.depart(0, 1, kLl).pfc, PfcEvent::kNone) << i;
  EXPECT_EQ(run.depart(0, 1, kLl).pfc, PfcEvent::kXon);
  EXPECT_EQ(run.core.ingress_cells(0, kLl), 295u);
  EXPECT_FALSE(run.core.paused(0, kLl));
  run.drain_all();
}

TEST(PolicyReverie, LosslessAndLossyEachGetAThirdTheorem1) {
  // Eq. 13-15 with alpha = 1 each, n = 1 each: q = alpha b* / (1 + 1 + 1) = 200 each.
  // Alternating (lossless first), both see Gamma = 600 - q_ll - q_ly. At 200/200 the lossless
  // arrival passes (200 <= 200) -> 201; the lossy one then fails (200 > 600 - 401 = 199),
  // and the next lossless one too (201 > 199).
  Harness run(reverie_config(0, EwmaConfig::Rule::kEnqueueDequeue));
  uint64_t ll = 0, ly = 0;
  bool ll_done = false, ly_done = false;
  Result r_ll, r_ly;
  while (!ll_done || !ly_done) {
    if (!ll_done) {
      r_ll = run.admit(0, 1, kLl);
      if (r_ll.verdict == Verdict::kAdmitShared) ++ll;
      else ll_done = true;
    }
    if (!ly_done) {
      r_ly = run.admit(0, 1, kLy);
      if (r_ly.verdict == Verdict::kAdmitShared) ++ly;
      else ly_done = true;
    }
  }
  EXPECT_EQ(ll, 201u);
  EXPECT_EQ(ly, 200u);
  EXPECT_EQ(r_ll.pfc, PfcEvent::kXoff);
  EXPECT_EQ(r_ly.verdict, Verdict::kDrop);
  EXPECT_EQ(r_ly.reason, DropReason::kEgress);
  EXPECT_EQ(r_ly.pfc, PfcEvent::kNone);
  // Lossy is accounted only in its egress queue (1, kLy) and pool 0; never at ingress.
  EXPECT_EQ(run.core.egress_cells(1, kLy), 200u);
  EXPECT_EQ(run.core.ingress_cells(0, kLy), 0u);
  EXPECT_EQ(run.core.egress_cells(1, kLl), 0u);
  EXPECT_EQ(run.core.ingress_cells(0, kLl), 201u);
  EXPECT_EQ(run.core.pool_used(0), 401u);
  EXPECT_EQ(run.core.pool_used(1), 0u);
  EXPECT_EQ(run.core.egress_threshold(1, kLy), 199u);  // 600 - 401
  run.drain_all();
}

TEST(PolicyReverie, BurstIntoEmptyQueueIsAbsorbedByTheFilter) {
  // k = 10 (gamma = 1 - 2^-10 ~ 0.999), dequeue rule: without departures q_hat stays 0, and
  // 0 <= Gamma always, so the burst is admitted until the shared pool b* = b - b_h = 600 is
  // full (the k = 0 queue above stopped at 301). The 601st fails the pool check -> XOFF.
  Harness run(reverie_config(10, EwmaConfig::Rule::kDequeue));
  Result r;
  EXPECT_EQ(run.fill(0, 1, kLl, r), 600u);
  EXPECT_EQ(r.verdict, Verdict::kAdmitHeadroom);
  EXPECT_EQ(r.pfc, PfcEvent::kXoff);
  EXPECT_EQ(run.core.pool_used(0), 600u);
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 0u);  // 600 - 600
  for (int i = 1; i < 50; ++i) ASSERT_EQ(run.admit(0, 1, kLl).verdict, Verdict::kAdmitHeadroom);
  r = run.admit(0, 1, kLl);
  EXPECT_EQ(r.reason, DropReason::kHeadroom);
  EXPECT_EQ(run.core.total_used(), 650u);
  // XON: headroom first (50 departures, q = 600), then shared. After departure m the filter
  // steps once towards the length after it; XON when headroom = 0 and
  // ceil(q_hat) + 10 <= Gamma = 600 - q. Reference: the same recurrence with Ewma::step
  // (pinned in test_ewma.cc): first true at departure 128, q = 522, q_hat = 4430140/2^16
  // -> 68 cells, 68 + 10 <= 78.
  uint64_t avg = 0, q = 600, h = 50, expect_xon = 0;
  for (uint64_t m = 1; expect_xon == 0 && m <= 650; ++m) {
    if (h) --h;
    else --q;
    avg = std::min(Ewma::step(avg, q, 10, 16), q << 16);
    if (h == 0 && (q == 0 || ((avg + 0xFFFF) >> 16) + 10 <= 600 - q)) expect_xon = m;
  }
  EXPECT_EQ(expect_xon, 128u);
  for (int m = 1; m <= 650; ++m) {
    const PfcUpdate u = run.depart(0, 1, kLl);
    if (m < 128) {
      ASSERT_EQ(u.pfc, PfcEvent::kNone) << m;
    }
    if (m == 128) {
      EXPECT_EQ(u.pfc, PfcEvent::kXon);
      EXPECT_EQ(run.core.ingress_cells(0, kLl), 522u);
      EXPECT_EQ(run.core.ingress_threshold(0, kLl), 78u);
      break;
    }
  }
  EXPECT_FALSE(run.core.paused(0, kLl));
  run.drain_all();
}

TEST(PolicyReverie, TwoCongestedQueuesOfOnePriorityHalveTheThreshold) {
  // n_p = 2 (threshold rule, congested = at least 1 cell): Gamma = floor((600 - used) / 2).
  Harness run(reverie_config(0, EwmaConfig::Rule::kEnqueueDequeue));
  run.admit(0, 1, kLl);
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 599u);  // n_p = 1: 600 - 1
  run.admit(1, 1, kLl);
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 299u);  // n_p = 2: (600 - 2) / 2
  EXPECT_EQ(run.core.ingress_threshold(1, kLl), 299u);
  // Alternating: port 0 at x = 150 passes (150 <= (600 - 300) / 2) -> 151; port 1 at 150
  // fails (150 > floor(299 / 2) = 149), port 0 at 151 too. vs 301 for a lone queue.
  uint64_t n[2] = {1, 1};
  bool done[2] = {false, false};
  while (!done[0] || !done[1])
    for (uint32_t p = 0; p < 2; ++p) {
      if (done[p]) continue;
      const Result r = run.admit(p, 1, kLl);
      if (r.verdict == Verdict::kAdmitShared) ++n[p];
      else done[p] = true;
    }
  EXPECT_EQ(n[0], 151u);
  EXPECT_EQ(n[1], 150u);
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 149u);  // (600 - 301) / 2
  run.drain_all();
}

TEST(PolicyReverie, SaturationRuleCountsFractionalQueues) {
  // Saturation rule, 80 cells: n_p = min(1, 160/80) + min(1, 40/80) = 1.5 = 384/256.
  // Gamma = (600 - 200) * 256 / 384 = 266.67 -> 266.
  CoreConfig c = reverie_config(0, EwmaConfig::Rule::kEnqueueDequeue, 80);
  c.congestion.kind = CongestionRule::Kind::kSaturation;
  Harness run(c);
  for (int i = 0; i < 160; ++i) ASSERT_EQ(run.admit(0, 1, kLl).verdict, Verdict::kAdmitShared);
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 440u);  // n_p = 1.0: 600 - 160
  for (int i = 0; i < 40; ++i) ASSERT_EQ(run.admit(1, 1, kLl).verdict, Verdict::kAdmitShared);
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 266u);
  run.drain_all();
}

// ---------------------------------------------------------------- abm

TEST(PolicyAbm, TwoQueuesOfOnePriorityGetHalfTheFreeSpace) {
  // No departures: drain ratio 1. n_p = 2 once both hold a cell: th = floor((600 - used)/2).
  // Alternating at x each: over when x >= (600 - 2x) / 2 = 300 - x, first at x = 150, for
  // both (port 0's XOFF packet goes to headroom, the pool stays at 300): 150 = alpha*300/2.
  Harness run(abm_config());
  run.admit(0, 1, kLl);
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 599u);  // n_p = 1
  run.admit(1, 1, kLl);
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 299u);  // n_p = 2: 598 / 2
  uint64_t n[2] = {1, 1};
  Result last[2];
  bool done[2] = {false, false};
  while (!done[0] || !done[1])
    for (uint32_t p = 0; p < 2; ++p) {
      if (done[p]) continue;
      last[p] = run.admit(p, 1, kLl);
      if (last[p].verdict == Verdict::kAdmitShared) ++n[p];
      else done[p] = true;
    }
  EXPECT_EQ(n[0], 150u);
  EXPECT_EQ(n[1], 150u);
  for (uint32_t p = 0; p < 2; ++p) {
    EXPECT_EQ(last[p].pfc, PfcEvent::kXoff);
    EXPECT_EQ(run.core.ingress_threshold(p, kLl), 150u);  // (600 - 300) / 2
  }
  run.drain_all();
}

TEST(PolicyAbm, HalfRateQueueGetsHalfTheThreshold) {
  Harness run(abm_config());
  // Interval 0: 140 cells each (never over: x < 300 - x), then port 0's queue sends 50
  // (half of its port's 100 per interval), port 1's sends 100 (full rate).
  for (int i = 0; i < 140; ++i) {
    ASSERT_EQ(run.admit(0, 1, kLl, 0).verdict, Verdict::kAdmitShared);
    ASSERT_EQ(run.admit(1, 1, kLl, 0).verdict, Verdict::kAdmitShared);
  }
  for (int i = 0; i < 50; ++i) run.depart(0, 1, kLl, 500);
  for (int i = 0; i < 100; ++i) run.depart(1, 1, kLl, 500);
  // Interval 1 (cycle 1024): port 0 at 90 sees th = floor(floor(470/2) * 128/256) = 117 and
  // is admitted (91); port 1 at 40 sees floor(469/2) * 256/256 = 234 (41).
  EXPECT_EQ(run.admit(0, 1, kLl, 1024).verdict, Verdict::kAdmitShared);
  EXPECT_EQ(run.admit(1, 1, kLl, 1024).verdict, Verdict::kAdmitShared);
  // used = 132: per-queue floor(468/2) = 234; drain ratio 50/100 = 128/256 vs 256/256.
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 117u);
  EXPECT_EQ(run.core.ingress_threshold(1, kLl), 234u);
  // Port 0 fills (b = 41): th = floor(floor((559 - a)/2)/2); a = 111 -> 112 passes (111 < 112),
  // a = 112 -> 111 stops: 112. Then port 1 (a = 112): th = floor((488 - b)/2); b = 162 ->
  // 163 passes, b = 163 -> 162 stops: 163.
  Result r;
  EXPECT_EQ(run.fill(0, 1, kLl, r, 1024) + 91, 112u);
  EXPECT_EQ(r.pfc, PfcEvent::kXoff);
  EXPECT_EQ(run.fill(1, 1, kLl, r, 1024) + 41, 163u);
  EXPECT_EQ(r.pfc, PfcEvent::kXoff);
  run.drain_all(1536);
}

TEST(PolicyAbm, XonTestUsesNpAfterTheDeparture) {
  // Congested = at least 100 cells, xon_offset 200. B (port 1) holds 100 (n_p = 1). A (port 0)
  // fills: below 100 th = 500 - x; from 100 on n_p = 2, th = floor((500 - x) / 2), over first
  // at x = 167 (167 >= 333/2 = 166; 166 < 334/2 = 167). XOFF, one headroom cell.
  CoreConfig c = abm_config();
  c.congestion.cells = 100;
  c.ingress_profiles[0].xon_offset_cells = 200;
  Harness run(c);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(run.admit(1, 1, kLl).verdict, Verdict::kAdmitShared);
  Result r;
  EXPECT_EQ(run.fill(0, 1, kLl, r), 167u);
  EXPECT_EQ(r.pfc, PfcEvent::kXoff);
  // Departures: the headroom cell, then shared ones to s = 167 - j. While A >= 100 after the
  // departure n_p = 2 and s + 200 <= (500 - s) / 2 never holds. The departure to s = 99 makes A
  // uncongested: n_p = 1, th = 500 - 99 = 401, 99 + 200 = 299 <= 401: XON at j = 68.
  EXPECT_EQ(run.depart(0, 1, kLl).pfc, PfcEvent::kNone);
  for (int j = 1; j <= 67; ++j) ASSERT_EQ(run.depart(0, 1, kLl).pfc, PfcEvent::kNone) << j;
  const PfcUpdate u = run.depart(0, 1, kLl);  // j = 68: A 100 -> 99
  EXPECT_EQ(run.core.ingress_cells(0, kLl), 99u);
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 401u);  // what the core itself reports now
  EXPECT_EQ(u.pfc, PfcEvent::kXon) << "XON test read n_p from before the departure (th 200)";
  EXPECT_FALSE(run.core.paused(0, kLl));
  run.drain_all();
}

// ---------------------------------------------------------------- dsh

TEST(PolicyDsh, QueueXoffAtTMinusEtaPortXoffAtNqTInsuranceThenDrop) {
  Harness run(dsh_config());
  // Queue level (Eq. 5), after each packet: s > X_qoff = (600 - s) - 50 <=> 2s > 550: first
  // at s = 276 (275 > 275 is false). The queue keeps being admitted to the shared segment.
  for (int i = 1; i <= 400; ++i) {
    const Result r = run.admit(0, 1, kLl);
    ASSERT_EQ(r.verdict, Verdict::kAdmitShared) << i;
    ASSERT_EQ(r.pfc, i == 276 ? PfcEvent::kXoff : PfcEvent::kNone) << i;
    ASSERT_EQ(r.port_pfc, PfcEvent::kNone) << i;
  }
  EXPECT_TRUE(run.core.paused(0, kLl));
  EXPECT_EQ(run.core.ingress_threshold(0, kLl), 150u);  // X_qoff = 600 - 400 - 50
  // Port level (Eq. 6, N_q = 2): port shared > 2 * (600 - s) <=> 3s > 1200: s = 401 (400 > 400
  // is false). That packet itself is in the shared segment.
  Result r = run.admit(0, 1, kLl);
  EXPECT_EQ(r.verdict, Verdict::kAdmitShared);
  EXPECT_EQ(r.port_pfc, PfcEvent::kXoff);
  EXPECT_EQ(r.pfc, PfcEvent::kNone);  // already paused
  EXPECT_TRUE(run.core.port_paused(0));
  // Now every lossless arrival on port 0 (either priority) goes to the port's insurance
  // headroom, eta = 50 in all, then headroom_full.
  for (int i = 0; i < 50; ++i) {
    r = run.admit(0, 1, i % 2 ? kLl2 : kLl);
    ASSERT_EQ(r.verdict, Verdict::kAdmitHeadroom) << i;
    ASSERT_EQ(r.port_pfc, PfcEvent::kNone) << i;
  }
  EXPECT_EQ(run.core.headroom_cells(0, kLl), 25u);
  EXPECT_EQ(run.core.headroom_cells(0, kLl2), 25u);
  EXPECT_EQ(run.core.headroom_pool_used(), 50u);
  for (uint32_t prio : {kLl, kLl2}) {
    r = run.admit(0, 1, prio);
    EXPECT_EQ(r.verdict, Verdict::kDrop);
    EXPECT_EQ(r.reason, DropReason::kHeadroom);
  }
  EXPECT_EQ(run.core.pool_used(0), 401u);
  // Departures: 25 of prio 4 and 25 of prio 3 empty the insurance (no XON while it holds
  // anything; at the 50th the port total 401 + 21 < 2 * 199 = 398 is false).
  for (int i = 0; i < 25; ++i) {
    const PfcUpdate u = run.depart(0, 1, kLl2);
    ASSERT_EQ(u.pfc, PfcEvent::kNone);
    ASSERT_EQ(u.port_pfc, PfcEvent::kNone);
  }
  for (int i = 0; i < 25; ++i) {
    const PfcUpdate u = run.depart(0, 1, kLl);
    ASSERT_EQ(u.pfc, PfcEvent::kNone);
    ASSERT_EQ(u.port_pfc, PfcEvent::kNone);
  }
  EXPECT_EQ(run.core.headroom_pool_used(), 0u);
  // Shared departures j = 1.. leave s = 401 - j. Port XON when s + 21 < 2 (600 - s) <=>
  // 3s < 1179 <=> s <= 392: j = 9 (at s = 393, 414 < 414 is false). Queue XON when
  // s + 10 < 600 - s - 50 <=> 2s < 540 <=> s <= 269: j = 132 (at 270, 280 < 280 is false).
  for (int j = 1; j <= 132; ++j) {
    const PfcUpdate u = run.depart(0, 1, kLl);
    ASSERT_EQ(u.port_pfc, j == 9 ? PfcEvent::kXon : PfcEvent::kNone) << j;
    ASSERT_EQ(u.pfc, j == 132 ? PfcEvent::kXon : PfcEvent::kNone) << j;
  }
  EXPECT_FALSE(run.core.port_paused(0));
  EXPECT_FALSE(run.core.paused(0, kLl));
  EXPECT_EQ(run.core.ingress_cells(0, kLl), 269u);
  run.drain_all();
}

TEST(PolicyDsh, PortXoffThresholdScalesWithLosslessPrioritiesOnThePort) {
  // N_q = 1 (only priority 3 lossless): port XOFF when s > 600 - s, at s = 301 (vs 401 above).
  Harness one(dsh_config(false));
  for (int i = 1; i <= 301; ++i) {
    const Result r = one.admit(0, 1, kLl);
    ASSERT_EQ(r.verdict, Verdict::kAdmitShared) << i;
    ASSERT_EQ(r.pfc, i == 276 ? PfcEvent::kXoff : PfcEvent::kNone) << i;
    ASSERT_EQ(r.port_pfc, i == 301 ? PfcEvent::kXoff : PfcEvent::kNone) << i;
  }
  one.drain_all();

  // N_q = 2, both priorities filling alternately (3 first), x each before a round:
  // queue 3 after reaching x+1 with total 2x+1: x+1 > 600 - (2x+1) - 50 <=> 3x > 548: x = 183,
  // i.e. packet 367 (s3 = 184 > 183); queue 4 at packet 368 (184 > 600 - 368 - 50 = 182).
  // Port: total > 2 (600 - total) <=> total > 400: packet 401 (priority 3's 201st).
  Harness two(dsh_config(true));
  for (int i = 1; i <= 401; ++i) {
    const uint32_t prio = i % 2 ? kLl : kLl2;
    const Result r = two.admit(0, 1, prio);
    ASSERT_EQ(r.verdict, Verdict::kAdmitShared) << i;
    ASSERT_EQ(r.pfc, i == 367 || i == 368 ? PfcEvent::kXoff : PfcEvent::kNone) << i;
    ASSERT_EQ(r.port_pfc, i == 401 ? PfcEvent::kXoff : PfcEvent::kNone) << i;
  }
  EXPECT_EQ(two.core.ingress_cells(0, kLl), 201u);
  EXPECT_EQ(two.core.ingress_cells(0, kLl2), 200u);
  // Port 1 is not paused: its lossless arrival still goes to the shared segment.
  const Result r = two.admit(1, 1, kLl);
  EXPECT_EQ(r.verdict, Verdict::kAdmitShared);
  EXPECT_EQ(r.port_pfc, PfcEvent::kNone);
  EXPECT_EQ(two.admit(0, 1, kLl2).verdict, Verdict::kAdmitHeadroom);
  two.drain_all();
}
