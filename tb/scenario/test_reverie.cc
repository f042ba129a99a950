// Reverie (reverie-nsdi24 §3, Appendix B) at scenario level, through the mmusim binary:
// Theorem 1 (Eq. 13-15) and the single-class allocation alpha/(1+alpha)*b*, Theorem 2 (idle
// buffer), fewer PFC pauses than DT on an incast over lossy background (§4.2), and the gamma
// sweep of Fig. 10. Every measured number is printed for docs/validation.md.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "scenario_harness.h"

using nlohmann::json;
using namespace mmusim::test;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// SONiC tables (scenario_harness.h). Under reverie only these matter: the ingress pool is
// b* (the lossless PGs' pool), its xoff the headroom pool b_h, alpha of lossless =
// 2^dynamic_th of the lossless PG profile, alpha of lossy = 2^dynamic_th of the egress
// lossy queue profile. The egress pools and the other thresholds are for DT.
// Lossy traffic rides TC0 (dscp 0) so that the summary's egress_lossy threshold (reported
// for Ethernet0|0) is that of the loaded lossy priority: under reverie Gamma is per priority.
double rel(double measured, double expected) { return (measured - expected) / expected; }

// ---------------------------------------------------------------------------------------
// Steady state (Theorems 1 and 2)

// Buffer b = 24 MiB, shared headroom pool b_h = 4 MiB, shared pool b* = b - b_h = 20 MiB.
constexpr uint64_t kBuffer = 24 * 1024 * 1024, kHeadroom = 4 * 1024 * 1024, kBstar = kBuffer - kHeadroom;

struct Case {
  int th_ll, th_ly;  // dynamic_th of lossless PG and lossy queue profiles: alpha = 2^th
  int n_ll, n_ly;    // congested lossless ingress queues, congested lossy egress queues
};

std::string case_name(const Case& c) {
  auto th = [](int t) { return t < 0 ? "m" + std::to_string(-t) : std::to_string(t); };
  return "ll" + std::to_string(c.n_ll) + "_th" + th(c.th_ll) + "_ly" + std::to_string(c.n_ly) + "_th" + th(c.th_ly);
}

// Fig. 4-style load: n_ll lossless senders at 100 Gb/s into one 50 Gb/s port (n_ll
// congested ingress lossless queues); n_ly egress lossy queues, each fed 2:1 at 100 Gb/s.
// 4 ms run, measured over 2.5-4 ms (the EWMA with k = 10 settles by ~1.5 ms).
json reverie_scenario(const Case& c, const json& ewma = nullptr) {
  const int ports = 24;
  json s = base_scenario(ports, 4000);
  s["measure"] = {{"start_us", 2500}, {"end_us", 4000}};
  s["mmu"]["buffer_bytes"] = kBuffer;
  s["buffer"] = sonic_buffer(ports, kBuffer, kBstar, std::to_string(kHeadroom), kBstar, c.th_ll, c.th_ly, nullptr);
  s["topology"]["port_overrides"] = {{"Ethernet0", {{"rate_gbps", 50}}}};
  s["admission"] = {{"policy", "reverie"}};
  if (!ewma.is_null()) s["admission"]["ewma"] = ewma;
  int h = 1;
  for (int i = 0; i < c.n_ll; ++i) s["traffic"].push_back(constant("h" + std::to_string(h++), "h0", 24));
  for (int k = 0; k < c.n_ly; ++k) {
    const std::string dst = "h" + std::to_string(20 - k);
    s["traffic"].push_back(constant("h" + std::to_string(h++), dst, 0));
    s["traffic"].push_back(constant("h" + std::to_string(h++), dst, 0));
  }
  return s;
}

struct ClosedForm {
  double a_ll, a_ly;  // configured alphas
  double q_ll, q_ly;  // steady-state aggregate occupancy of each class
  double idle;        // b* - q* in that steady state
  double lower, upper;  // Theorem 2 bounds
};

// Eq. 13-15 with both classes congested; alpha/(1+alpha)*b* for a class alone (§3.4).
ClosedForm closed_form(const Case& c) {
  ClosedForm f;
  f.a_ll = std::ldexp(1.0, c.th_ll);
  f.a_ly = std::ldexp(1.0, c.th_ly);
  const double al = c.n_ll ? f.a_ll : 0, ay = c.n_ly ? f.a_ly : 0, b = double(kBstar);
  f.q_ll = al * b / (1 + al + ay);
  f.q_ly = ay * b / (1 + al + ay);
  f.idle = b - f.q_ll - f.q_ly;
  f.lower = b / (1 + f.a_ll + f.a_ly);
  f.upper = b / (1 + std::min(f.a_ll, f.a_ly));
  return f;
}

struct Measured {
  double q_ll, q_ly, headroom, pool, idle, th_ll, th_ly;
  int pauses;
  uint64_t ll_drops;
};

Measured measure(const json& s) {
  Measured m;
  m.q_ll = s["occupancy_bytes"]["lossless"]["mean"];  // shared lossless, headroom excluded
  m.q_ly = s["occupancy_bytes"]["lossy"]["mean"];
  m.headroom = s["occupancy_bytes"]["headroom"]["mean"];
  m.pool = s["pools_bytes"]["ingress_pool"]["mean"];  // q* of the one shared pool
  m.idle = double(kBstar) - m.pool;
  m.th_ll = s["thresholds_bytes"]["ingress_lossless"]["mean"];  // Gamma of Ethernet0|3
  m.th_ly = s["thresholds_bytes"]["egress_lossy"]["mean"];      // Gamma of Ethernet0|0
  m.pauses = s["pfc"]["pause_frames"];
  m.ll_drops = s["drops"]["lossless"];
  return m;
}

constexpr double kTol = 0.05;

class ReverieSteadyState : public ::testing::TestWithParam<Case> {};

TEST_P(ReverieSteadyState, Theorem1OccupancyMatchesEq13To15) {
  const Case c = GetParam();
  const json s = simulate(reverie_scenario(c));
  ASSERT_FALSE(s.is_null());
  const ClosedForm f = closed_form(c);
  const Measured m = measure(s);
  std::printf("reverie T1 a_ll=%g a_ly=%g n_ll=%d n_ly=%d | lossless %.0f (Eq.14 %.0f, %+.2f%%) "
              "lossy %.0f (Eq.15 %.0f, %+.2f%%) | ratio %.3f (alpha ratio %.3f) | headroom %.0f pauses %d\n",
              f.a_ll, f.a_ly, c.n_ll, c.n_ly, m.q_ll, f.q_ll, c.n_ll ? 100 * rel(m.q_ll, f.q_ll) : 0.0, m.q_ly,
              f.q_ly, c.n_ly ? 100 * rel(m.q_ly, f.q_ly) : 0.0, c.n_ll && c.n_ly ? m.q_ll / m.q_ly : 0.0,
              c.n_ll && c.n_ly ? f.a_ll / f.a_ly : 0.0, m.headroom, m.pauses);
  if (c.n_ll) {
    EXPECT_LT(std::fabs(rel(m.q_ll, f.q_ll)), kTol) << "lossless " << m.q_ll << " vs " << f.q_ll;
  } else {
    EXPECT_EQ(m.q_ll, 0);
  }
  if (c.n_ly) {
    EXPECT_LT(std::fabs(rel(m.q_ly, f.q_ly)), kTol) << "lossy " << m.q_ly << " vs " << f.q_ly;
  } else {
    EXPECT_EQ(m.q_ly, 0);
  }
  // Theorem 1's statement proper: the classes share the buffer in the ratio of their alphas.
  if (c.n_ll && c.n_ly) {
    EXPECT_LT(std::fabs(rel(m.q_ll / m.q_ly, f.a_ll / f.a_ly)), 2 * kTol);
  }
  // Eq. 6 per queue: Gamma = alpha/n_p * (b* - q*), against the measured pool and against
  // the steady state (n_p >= 1 for a priority without congested queues).
  const double free_m = double(kBstar) - m.pool;
  const double g_ll = f.a_ll / std::max(1, c.n_ll), g_ly = f.a_ly / std::max(1, c.n_ly);
  std::printf("reverie T1 thresholds | lossless %.0f (Eq.6 on measured pool %.0f, steady state %.0f) "
              "lossy %.0f (%.0f, %.0f)\n",
              m.th_ll, g_ll * free_m, g_ll * f.idle, m.th_ly, g_ly * free_m, g_ly * f.idle);
  EXPECT_LT(std::fabs(rel(m.th_ll, g_ll * free_m)), 0.01);
  EXPECT_LT(std::fabs(rel(m.th_ly, g_ly * free_m)), 0.01);
  EXPECT_LT(std::fabs(rel(m.th_ll, g_ll * f.idle)), kTol);
  EXPECT_LT(std::fabs(rel(m.th_ly, g_ly * f.idle)), kTol);
  // One shared pool: it holds exactly the two classes (no reserved cells configured).
  EXPECT_LT(std::fabs(m.pool - (m.q_ll + m.q_ly)), 1e-3 * double(kBstar));
  EXPECT_EQ(m.ll_drops, 0u);
  if (c.n_ll) {
    EXPECT_GT(m.pauses, 0);
  }
}

TEST_P(ReverieSteadyState, Theorem2IdleBufferWithinBounds) {
  const Case c = GetParam();
  const json s = simulate(reverie_scenario(c));
  ASSERT_FALSE(s.is_null());
  const ClosedForm f = closed_form(c);
  const Measured m = measure(s);
  const double idle_classes = double(kBstar) - (m.q_ll + m.q_ly);
  std::printf("reverie T2 a_ll=%g a_ly=%g n_ll=%d n_ly=%d | idle b*-q* %.0f (from classes %.0f) | "
              "bounds [%.0f, %.0f] | steady state %.0f (%+.2f%%) | idle/lower %.3f idle/upper %.3f\n",
              f.a_ll, f.a_ly, c.n_ll, c.n_ly, m.idle, idle_classes, f.lower, f.upper, f.idle,
              100 * rel(m.idle, f.idle), m.idle / f.lower, m.idle / f.upper);
  // The bounds, with the 5 % of Theorem 1: the lower bound is the exact steady state with
  // both classes congested, and the filtered PFC loop overfills lossless slightly.
  EXPECT_GE(m.idle, (1 - kTol) * f.lower);
  EXPECT_LE(m.idle, (1 + kTol) * f.upper);
  EXPECT_LT(std::fabs(rel(m.idle, f.idle)), kTol);
  EXPECT_LT(std::fabs(m.idle - idle_classes), 1e-3 * double(kBstar));
}

// (alpha_ll, alpha_ly) = (1,1), (2,1), (1,1/2), (4,1) with (n_ll, n_ly) = (1,2), (3,1),
// (2,3), (1,1); each class alone with several alphas and queue counts (the other class's
// alpha still sets Theorem 2's bounds).
INSTANTIATE_TEST_SUITE_P(Reverie, ReverieSteadyState,
                         ::testing::Values(Case{0, 0, 1, 2}, Case{1, 0, 3, 1}, Case{0, -1, 2, 3}, Case{2, 0, 1, 1},
                                           Case{0, 0, 1, 0}, Case{1, 0, 3, 0}, Case{0, -1, 1, 0},
                                           Case{0, 0, 0, 1}, Case{1, 0, 0, 1}, Case{0, -1, 0, 2}),
                         [](const auto& info) { return case_name(info.param); });

// The same steady state under every EWMA update rule and the artifact's n_p rule.
TEST(ReverieSteadyStateRules, Theorem1HoldsForEveryEwmaRuleAndCongestionRule) {
  const Case c{1, 0, 3, 1};
  const ClosedForm f = closed_form(c);
  const std::vector<std::pair<std::string, json>> variants = {
      {"dequeue k=10", {{"update", "dequeue"}}},
      {"enqueue_dequeue k=10", {{"update", "enqueue_dequeue"}}},
      {"periodic 100 cycles k=10", {{"update", "periodic"}, {"period_cycles", 100}}},
      {"dequeue k=10 no clamp", {{"update", "dequeue"}, {"clamp", false}}},
      {"dequeue k=0 (no filter)", {{"k", 0}}},
  };
  for (const auto& [name, ewma] : variants) {
    const json s = simulate(reverie_scenario(c, ewma));
    ASSERT_FALSE(s.is_null()) << name;
    const Measured m = measure(s);
    std::printf("reverie T1 rule %-26s lossless %.0f (%+.2f%%) lossy %.0f (%+.2f%%) idle %.0f (%+.2f%%)\n",
                name.c_str(), m.q_ll, 100 * rel(m.q_ll, f.q_ll), m.q_ly, 100 * rel(m.q_ly, f.q_ly), m.idle,
                100 * rel(m.idle, f.idle));
    EXPECT_LT(std::fabs(rel(m.q_ll, f.q_ll)), kTol) << name;
    EXPECT_LT(std::fabs(rel(m.q_ly, f.q_ly)), kTol) << name;
  }
  json sc = reverie_scenario(c);
  sc["admission"]["congestion_rule"] = "saturation";
  const json s = simulate(sc);
  ASSERT_FALSE(s.is_null());
  const Measured m = measure(s);
  std::printf("reverie T1 rule %-26s lossless %.0f (%+.2f%%) lossy %.0f (%+.2f%%)\n", "saturation n_p",
              m.q_ll, 100 * rel(m.q_ll, f.q_ll), m.q_ly, 100 * rel(m.q_ly, f.q_ly));
  EXPECT_LT(std::fabs(rel(m.q_ll, f.q_ll)), kTol);
  EXPECT_LT(std::fabs(rel(m.q_ly, f.q_ly)), kTol);
}

// Known limit of the closed form (not a model error): with small per-queue lossless
// thresholds (alpha_ll/n_ll <= 1/4) the PFC on/off cycle of a queue compared through a
// lagging filter overfills it by a roughly constant amount, so the relative excess grows
// as the threshold shrinks. Without the filter (k = 0) Eq. 14 holds within 5 %; at k = 10
// the excess stays bounded (asserted < 20 %) and lossy keeps within 5 % of Eq. 15.
TEST(ReverieFilterLag, SmallLosslessThresholdsOvershootEq14OnlyThroughTheFilter) {
  for (const Case& c : {Case{-1, 1, 2, 2}, Case{0, 0, 4, 2}}) {
    const ClosedForm f = closed_form(c);
    for (int k : {0, 10}) {
      const json s = simulate(reverie_scenario(c, json{{"k", k}}));
      ASSERT_FALSE(s.is_null());
      const Measured m = measure(s);
      std::printf("reverie filter lag a_ll=%g a_ly=%g n_ll=%d n_ly=%d k=%d | lossless %.0f (Eq.14 %.0f, %+.2f%%) "
                  "lossy %.0f (Eq.15 %.0f, %+.2f%%)\n",
                  f.a_ll, f.a_ly, c.n_ll, c.n_ly, k, m.q_ll, f.q_ll, 100 * rel(m.q_ll, f.q_ll), m.q_ly, f.q_ly,
                  100 * rel(m.q_ly, f.q_ly));
      EXPECT_LT(std::fabs(rel(m.q_ll, f.q_ll)), k == 0 ? kTol : 0.20) << case_name(c) << " k=" << k;
      EXPECT_LT(std::fabs(rel(m.q_ly, f.q_ly)), kTol) << case_name(c) << " k=" << k;
    }
  }
}

// ---------------------------------------------------------------------------------------
// PFC pauses: Reverie vs DT (§4.2), gamma sweep (Fig. 10)

// The default scenario (16 MiB buffer, 2 MiB shared headroom, 14 MiB ingress pool = b*,
// alpha = 1) is valid for both policies: 16 senders x `burst` into h0 (lossless), 4 times,
// over 14 lossy senders fed 2:1 into 7 ports from t = 0.
json incast_over_lossy(uint64_t burst) {
  json s = load_default();
  s["traffic"][0]["burst_bytes"] = burst;
  return s;
}

class ReverieVsDt : public ::testing::TestWithParam<uint64_t> {};

TEST_P(ReverieVsDt, FewerPfcPausesOnIncastOverLossyBackground) {
  const uint64_t burst = GetParam();
  const json dt = simulate(incast_over_lossy(burst), "--policy dt");
  const json rv = simulate(incast_over_lossy(burst), "--policy reverie");
  ASSERT_FALSE(dt.is_null() || rv.is_null());
  for (const auto* p : {&dt, &rv}) {
    const json& s = *p;
    std::printf("incast 16x%llu B over lossy, %-7s: pause frames %d xoff %d paused %.0f ns | lossless mean %.0f "
                "lossy mean %.0f | lossless drops %d lossy drops %d | incast FCT mean %.0f ns\n",
                (unsigned long long)burst, s["policy"].get<std::string>().c_str(), s["pfc"]["pause_frames"].get<int>(),
                s["pfc"]["xoff_events"].get<int>(), s["pfc"]["paused_time_ns"].get<double>(),
                s["occupancy_bytes"]["lossless"]["mean"].get<double>(),
                s["occupancy_bytes"]["lossy"]["mean"].get<double>(), s["drops"]["lossless"].get<int>(),
                s["drops"]["lossy"].get<int>(), s["generators"]["incast"]["fct_ns"]["mean"].get<double>());
    EXPECT_EQ(s["drops"]["lossless"], 0);
  }
  EXPECT_EQ(rv["policy"], "reverie");
  EXPECT_GT(dt["pfc"]["pause_frames"].get<int>(), 0);
  EXPECT_LT(rv["pfc"]["pause_frames"].get<int>(), dt["pfc"]["pause_frames"].get<int>());
  EXPECT_LT(rv["pfc"]["xoff_events"].get<int>(), dt["pfc"]["xoff_events"].get<int>());
  // Isolation: DT lets the lossy background crowd lossless out of the ingress pool.
  EXPECT_LE(rv["generators"]["incast"]["fct_ns"]["mean"].get<double>(),
            dt["generators"]["incast"]["fct_ns"]["mean"].get<double>());
}

INSTANTIATE_TEST_SUITE_P(Reverie, ReverieVsDt, ::testing::Values(uint64_t(131072), uint64_t(524288)),
                         [](const auto& info) { return "burst" + std::to_string(info.param); });

// Fig. 10 setting: lossless (RDMA) background at 80 % load plus a lossless incast, no
// lossy traffic. 15 hosts (h17-h31) send Poisson flows (exponential, mean 100 kB) to each
// other at 80 % of line rate; 16 senders x 256 KiB into h0 every 400 us, 7 times; 3 ms.
json gamma_sweep_scenario(int k) {
  json s = load_default();
  s["duration_us"] = 3000;
  s["measure"] = {{"start_us", 100}, {"end_us", 3000}};
  s["traffic"][0]["burst_bytes"] = 262144;
  s["traffic"][0]["period_us"] = 400;
  s["traffic"][0]["count"] = 7;
  s["traffic"][1] = {{"type", "poisson"},
                     {"name", "background"},
                     {"srcs", "h17-h31"},
                     {"dsts", "h17-h31"},
                     {"dscp", 3},
                     {"load", 0.8},
                     {"size", {{"dist", "exponential"}, {"mean_bytes", 100000}}}};
  s["admission"] = {{"policy", "reverie"}, {"ewma", {{"k", k}}}};
  return s;
}

TEST(ReverieGammaSweep, PfcPausesFallAsGammaRisesLikeFig10) {
  const std::vector<int> ks = {1, 2, 4, 6, 8, 10, 12, 16, 20};
  std::vector<int> pauses;
  {
    json s = gamma_sweep_scenario(10);
    s["admission"]["policy"] = "dt";
    const json r = simulate(s);
    ASSERT_FALSE(r.is_null());
    std::printf("fig10 dt (same traffic): pause frames %d xoff %d\n", r["pfc"]["pause_frames"].get<int>(),
                r["pfc"]["xoff_events"].get<int>());
  }
  for (int k : ks) {
    const json r = simulate(gamma_sweep_scenario(k));
    ASSERT_FALSE(r.is_null()) << "k=" << k;
    pauses.push_back(r["pfc"]["pause_frames"]);
    std::printf("fig10 k=%2d gamma=%.7f: pause frames %4d xoff %4d paused %.0f ns | lossless mean %.0f p99 %.0f | "
                "incast FCT mean %.0f ns | background FCT mean %.0f ns\n",
                k, 1 - std::ldexp(1.0, -k), pauses.back(), r["pfc"]["xoff_events"].get<int>(),
                r["pfc"]["paused_time_ns"].get<double>(), r["occupancy_bytes"]["lossless"]["mean"].get<double>(),
                r["occupancy_bytes"]["lossless"]["p99"].get<double>(),
                r["generators"]["incast"]["fct_ns"]["mean"].get<double>(),
                r["generators"]["background"]["fct_ns"]["mean"].get<double>());
    EXPECT_EQ(r["drops"]["lossless"], 0) << "k=" << k;
  }
  auto at = [&](int k) { return pauses[size_t(std::find(ks.begin(), ks.end(), k) - ks.begin())]; };
  EXPECT_GT(at(1), at(10));
  EXPECT_GE(at(10), at(20));
  // "PFC pauses dramatically reduce as gamma increases": at least halved from k=1 to k=10.
  EXPECT_LE(2 * at(10), at(1));
  // Non-increasing up to noise: no step up by more than max(3, 10 %).
  for (size_t i = 1; i < pauses.size(); ++i)
    EXPECT_LE(pauses[i], pauses[i - 1] + std::max(3, pauses[i - 1] / 10))
        << "k=" << ks[i - 1] << " -> " << ks[i];
}

}  // namespace
