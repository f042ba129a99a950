// The closed loop through the real switch: two long flows h1 -> h0 and h2 -> h0 (25 Gb/s
// everywhere, 1 us links), the second starting 1 ms after the first, share h0's port. The
// switch closes each transport's loop with its own machinery: WRED/ECN marking of the
// egress queue (DCQCN on the lossless class, DCTCP on a lossy one), INT records (PowerTCP
// on the lossless class), the lossy pool's dynamic threshold as drop-tail (Cubic). Checked
// over the second half of the run, from the frames leaving h0's port (its tx hook): each
// flow within 10 % of the fair share (half the port) and together at least 90 % of it; for
// DCQCN and DCTCP the queue they leave behind (the WRED curve's q) averages near the
// marking threshold K; no lossless drop anywhere. One forked simulation per transport.
// Cubic is checked for fairness on a WRED-drop (RED) queue, not on drop-tail: two
// identical ACK-clocked flows on a drop-tail queue pinned at its threshold lock out
// (RFC 7567 sec. 2.1): whichever flow's frame follows a departure takes the freed cells,
// and a link delay of 1.1 instead of 1 us on one flow's link gives it a share of 0 or 1
// with the zero-latency core and the timed threshold calculator alike.
// (tb/modules/test_transport_convergence.cc runs the same two flows through a test stub
// with an exact step marker at 10 Gb/s; this file is the model's own answer.)
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "../modules/sc_fork.h"
#include "config/scenario.h"
#include "scenario_harness.h"
#include "sim/network.h"

namespace mmusim {
namespace {

using nlohmann::json;

constexpr uint64_t kMiB = 1ull << 20;
constexpr double kDurationUs = 1'000'000, kSecondStartUs = 1'000;

struct Loop {
  std::string transport;
  int dscp = 24;              // 24: TC3 lossless; 8: TC1 lossy
  uint64_t mark_bytes = 0;    // step marking at K (0: no WRED profile)
  bool int_on = false;
  uint64_t lossy_pool = 14 * kMiB;
  uint32_t red_percent = 0;   // WRED drops (no ECN) between 10 and 40 KB, up to this %
};

json scenario(const Loop& l) {
  json s = test::base_scenario(3, kDurationUs);
  s["topology"]["rate_gbps"] = 25;
  s["topology"]["link_delay_ns"] = 1000;
  s["buffer"] = test::sonic_buffer(3, 16 * kMiB, 14 * kMiB, std::to_string(2 * kMiB), l.lossy_pool, 0, 0, nullptr);
  const int tc = l.dscp / 8;
  if (l.mark_bytes)
    s["wred"] = {{"WRED_PROFILE",
                  {{"STEP",
                    {{"ecn", "ecn_green"},
                     {"green_min_threshold", l.mark_bytes},
                     {"green_max_threshold", l.mark_bytes},
                     {"green_drop_probability", 100}}}}},
                 {"QUEUE", {{"Ethernet0|" + std::to_string(tc), {{"wred_profile", "STEP"}}}}}};
  if (l.red_percent) {
    // A fresh seed per run (the WRED draws are seeded from it); MMUSIM_SEED replays one.
    const char* env = std::getenv("MMUSIM_SEED");
    const uint64_t seed = env ? std::strtoull(env, nullptr, 10) : std::random_device{}() % (1ull << 61);
    std::printf("MMUSIM_SEED=%llu\n", static_cast<unsigned long long>(seed));
    s["seed"] = seed;
    s["wred"] = {{"WRED_PROFILE",
                  {{"RED",
                    {{"ecn", "ecn_none"},
                     {"wred_green_enable", true},
                     {"green_min_threshold", 10'000},
                     {"green_max_threshold", 40'000},
                     {"green_drop_probability", l.red_percent}}}}},
                 {"QUEUE", {{"Ethernet0|" + std::to_string(tc), {{"wred_profile", "RED"}}}}}};
  }
  if (l.int_on) s["int"] = {{"enabled_classes", {tc}}};
  s["host"] = {{"transport", {{"default", l.transport}}}};
  json a = test::constant("h1", "h0", l.dscp), b = test::constant("h2", "h0", l.dscp);
  a["name"] = "first";
  b["name"] = "second";
  b["start_us"] = kSecondStartUs;
  s["traffic"] = json::array({a, b});
  return s;
}

json converge(const Loop& l, bool fair = true) {
  const auto r = test::run_in_child(
      [&] {
        const Scenario sc = load_scenario(scenario(l), "loop");
        Network net(sc, {});
        const uint64_t from = uint64_t(kDurationUs / 2 * 1e6);
        uint64_t bytes[2] = {0, 0}, samples = 0;
        double queue_sum = 0;
        const Mmu& mmu = net.sw().mmu;
        net.sw().egress[0]->set_tx_hook([&](const Packet& p, uint64_t now) {
          if (p.kind != Packet::Kind::kData || now < from) return;
          bytes[p.flow] += p.bytes;
          // The queue the packet leaves behind, as the WRED curve reads it.
          queue_sum += double((mmu.core().egress_cells(0, p.prio) - p.cells) * mmu.cell_bytes());
          ++samples;
        });
        const json s = net.run();
        const double cap = 25e9 / 8 * (kDurationUs / 2) * 1e-6;
        return json{{"share1", double(bytes[0]) / double(bytes[0] + bytes[1])},
                    {"util", double(bytes[0] + bytes[1]) / cap},
                    {"mean_queue", samples ? queue_sum / double(samples) : 0.0},
                    {"summary", s}}
            .dump();
      },
      240);
  EXPECT_TRUE(r.ok) << r.text;
  if (!r.ok) return json::object();
  json j = json::parse(r.text);
  const json& s = j["summary"];
  const json& t = s["transport"][l.transport];  // the hosts' counters
  j["cnps_sent"] = t["cnps_sent"];
  j["cnps_received"] = t["cnps_received"];
  j["ece"] = t["ece_acks_received"];
  std::printf("%s: share %.3f, util %.3f, mean queue %.0f B, marked %s, dropped %llu, CNPs %llu, ECE %llu\n",
              l.transport.c_str(), j["share1"].get<double>(), j["util"].get<double>(),
              j["mean_queue"].get<double>(), s.contains("wred") ? s["wred"]["marked"].dump().c_str() : "-",
              (unsigned long long)s["packets"]["dropped"].get<uint64_t>(),
              (unsigned long long)j["cnps_sent"].get<uint64_t>(), (unsigned long long)j["ece"].get<uint64_t>());
  test::expect_conservation(s);
  EXPECT_EQ(s["drops"]["lossless"].get<uint64_t>(), 0u) << l.transport;
  if (fair) {
    EXPECT_NEAR(j["share1"].get<double>(), 0.5, 0.05) << l.transport;  // each within 10 % of 1/2
  }
  EXPECT_GE(j["util"].get<double>(), 0.9) << l.transport;
  return j;
}

TEST(TransportLoop, DcqcnOnWredMarking) {
  const uint64_t k = 40'000;
  const json j = converge({"dcqcn", 24, k, false});
  ASSERT_TRUE(j.contains("summary"));
  // NP: CNPs only for CE-marked packets, at most one per flow per 50 us; each reaches its
  // sender (the ACK class, TC6, is lossy, but its queues stay short).
  const uint64_t cnps = j["cnps_sent"], marked = j["summary"]["wred"]["marked"];
  EXPECT_GT(cnps, 0u);
  EXPECT_LE(cnps, marked);
  EXPECT_LE(cnps, uint64_t(2 * kDurationUs / 50));
  EXPECT_EQ(j["cnps_received"].get<uint64_t>(), cnps);
  EXPECT_GT(j["mean_queue"].get<double>(), 0.15 * double(k));
  EXPECT_LT(j["mean_queue"].get<double>(), 3.0 * double(k));
}

TEST(TransportLoop, DctcpOnWredMarking) {
  const uint64_t k = 30'000;
  const json j = converge({"dctcp", 8, k, false});
  ASSERT_TRUE(j.contains("summary"));
  EXPECT_GT(j["ece"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["summary"]["packets"]["dropped"].get<uint64_t>(), 0u);
  EXPECT_GT(j["mean_queue"].get<double>(), 0.5 * double(k));
  EXPECT_LT(j["mean_queue"].get<double>(), 2.0 * double(k));
}

TEST(TransportLoop, PowerTcpOnInt) {
  const json j = converge({"powertcp", 24, 0, true});
  ASSERT_TRUE(j.contains("summary"));
  EXPECT_GT(j["summary"]["int"]["hops_recorded"].get<uint64_t>(), 0u);
}

TEST(TransportLoop, CubicOnWredDrops) {
  // RED on the lossy queue (drop probability up to 5 % at 40 KB), below the lossy pool's
  // drop-tail threshold (100 KB at alpha 1: one busy queue may hold half of it).
  Loop l{"cubic", 8, 0, false, 100'000, 5};
  const json j = converge(l);
  ASSERT_TRUE(j.contains("summary"));
  EXPECT_GT(j["summary"]["packets"]["dropped"].get<uint64_t>(), 0u);
  EXPECT_GT(j["mean_queue"].get<double>(), 5'000.0);   // RED holds the queue inside its curve
  EXPECT_LT(j["mean_queue"].get<double>(), 40'000.0);
}

TEST(TransportLoop, CubicOnDropTailKeepsTheLinkBusy) {
  // Drop-tail alone: no fairness (above), but the loop keeps the port busy and loses only
  // lossy frames.
  Loop l{"cubic", 8, 0, false, 100'000};
  const json j = converge(l, false);
  ASSERT_TRUE(j.contains("summary"));
  EXPECT_GT(j["summary"]["packets"]["dropped"].get<uint64_t>(), 0u);
}

}  // namespace
}  // namespace mmusim
