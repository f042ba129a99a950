// No policy drops a lossless packet when headroom is sized by its rule (eta per lossless
// PG for dt/static/abm/reverie/sih, eta of insurance per port for dsh), over randomised
// incast shapes: ports, rates, link delays, fan-in, burst sizes, repeats, two lossless
// priorities and lossy background.
#include <random>
#include <string>

#include "scenario_harness.h"

using nlohmann::json;
using namespace mmusim::test;

namespace {

constexpr int kShapesPerPolicy = 50;


uint64_t eta(double gbps, double delay_ns) {
  return uint64_t(2 * (gbps * 1e9 / 8 * delay_ns * 1e-9 + 1500) + 3840) + 1;
}

json random_scenario(const std::string& policy, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](auto lo, auto hi) { return lo + decltype(lo)(rng() % uint64_t(hi - lo + 1)); };
  const int ports = pick(6, 24);
  const double gbps = std::vector<double>{25, 40, 100}[rng() % 3];
  const double delay_ns = double(pick(200, 5000));
  const uint64_t buffer = uint64_t(pick(2, 16)) << 20;
  const uint64_t e = eta(gbps, delay_ns);
  // Headroom by each policy's rule: every lossless PG (priorities 3, 4) gets eta (SIH);
  // DSH reserves eta of insurance per port and shares the rest.
  const uint64_t lossless_pgs = uint64_t(ports) * 2;
  const bool dsh = policy == "dsh";
  const uint64_t headroom = dsh ? uint64_t(ports) * e : lossless_pgs * e;
  const uint64_t shared = buffer > headroom + (256 << 10) ? buffer - headroom : 0;
  if (shared == 0) return random_scenario(policy, seed * 31 + 7);  // buffer too small for this shape

  json pool_in = {{"size", std::to_string(shared)}, {"type", "ingress"}, {"mode", "dynamic"}};
  if (dsh) pool_in["xoff"] = std::to_string(headroom);
  const std::string all = port_list(ports);
  const int dyn_ll = pick(-4, 1), dyn_ly = pick(-2, 1);
  json s = load_default();
  s["name"] = policy + "-random-" + std::to_string(seed);
  s["seed"] = seed;
  s["duration_us"] = 400;
  s["measure"] = {{"start_us", 0}, {"end_us", 400}};
  s["topology"] = {{"ports", ports}, {"rate_gbps", gbps}, {"link_delay_ns", delay_ns}};
  s["mmu"] = {{"buffer_bytes", buffer}, {"cell_bytes", pick(1, 4) * 64}, {"clock_mhz", 1000}, {"pipelines", 1}};
  s["buffer"] = {
      {"BUFFER_POOL",
       {{"ingress_pool", pool_in},
        {"egress_lossless_pool", {{"size", std::to_string(buffer)}, {"type", "egress"}, {"mode", "static"}}},
        {"egress_lossy_pool", {{"size", std::to_string(shared)}, {"type", "egress"}}}}},
      {"BUFFER_PROFILE",
       {{"ingress_lossless_profile",
         {{"pool", "ingress_pool"}, {"size", "0"}, {"dynamic_th", dyn_ll}, {"xon_offset", "2496"}, {"xoff", std::to_string(e)}}},
        {"ingress_lossy_profile", {{"pool", "ingress_pool"}, {"static_th", std::to_string(buffer)}}},
        {"egress_lossless_profile", {{"pool", "egress_lossless_pool"}, {"static_th", std::to_string(buffer)}}},
        {"egress_lossy_profile", {{"pool", "egress_lossy_pool"}, {"dynamic_th", dyn_ly}}}}},
      {"PORT_QOS_MAP", {{all, {{"pfc_enable", "3,4"}}}}},
  };
  s["admission"] = {{"policy", policy}};
  s["output"] = {{"sample_interval_ns", 100000}};
  // Incasts: random fan-in onto a random receiver on priority 3 or 4 (dscp 24 / 32).
  s["traffic"] = json::array();
  const int incasts = pick(1, 3);
  for (int i = 0; i < incasts; ++i) {
    const int rx = pick(0, ports - 1);
    const int n = pick(2, ports - 1);
    json senders = json::array();
    for (int k = 1; k <= n; ++k) senders.push_back("h" + std::to_string((rx + k) % ports));
    s["traffic"].push_back({{"type", "incast"}, {"name", "incast" + std::to_string(i)}, {"senders", senders},
                            {"receiver", "h" + std::to_string(rx)}, {"dscp", pick(0, 1) ? 24 : 32},
                            {"burst_bytes", pick(16, 1024) << 10}, {"start_us", pick(0, 100)},
                            {"period_us", pick(50, 150)}, {"count", pick(1, 3)}});
  }
  // Lossy background from two hosts onto one more, at line rate.
  const int b = pick(0, ports - 3);
  s["traffic"].push_back({{"type", "constant"}, {"name", "background"},
                          {"src", json::array({"h" + std::to_string(b), "h" + std::to_string(b + 1)})},
                          {"dst", "h" + std::to_string(b + 2)}, {"dscp", 8}});
  return s;
}

class NoLosslessDrop : public ::testing::TestWithParam<std::string> {};

TEST_P(NoLosslessDrop, RandomIncastsWithHeadroomByRule) {
  const std::string policy = GetParam();
  uint64_t paused_runs = 0;
  for (int i = 0; i < kShapesPerPolicy; ++i) {
    const uint64_t seed = 1000 + uint64_t(i);
    const json sc = random_scenario(policy, seed);
    const json s = simulate(sc);
    ASSERT_FALSE(s.is_null()) << sc.dump();
    EXPECT_EQ(s["drops"]["lossless"].get<uint64_t>(), 0u)
        << policy << " seed " << seed << " drops " << s["drops"].dump() << "\n" << sc.dump();
    paused_runs += s["pfc"]["xoff_events"].get<uint64_t>() > 0;
  }
  // The shapes must actually exercise PFC, or the test proves nothing.
  EXPECT_GT(paused_runs, uint64_t(kShapesPerPolicy / 2)) << policy;
}

TEST(NoLosslessDropControl, UndersizedHeadroomDoesDrop) {
  // Negative control: the same shapes with an eighth of eta per PG must lose packets.
  uint64_t drops = 0;
  for (int i = 0; i < 10; ++i) {
    json sc = random_scenario("dt", 1000 + uint64_t(i));
    auto& prof = sc["buffer"]["BUFFER_PROFILE"]["ingress_lossless_profile"];
    prof["xoff"] = std::to_string(std::stoull(prof["xoff"].get<std::string>()) / 8);
    const json s = simulate(sc);
    ASSERT_FALSE(s.is_null());
    drops += s["drops"]["lossless"].get<uint64_t>();
  }
  EXPECT_GT(drops, 0u);
}

INSTANTIATE_TEST_SUITE_P(Policies, NoLosslessDrop,
                         ::testing::Values("dt", "static", "sih", "abm", "reverie", "dsh"),
                         [](const auto& info) { return info.param; });

}  // namespace
