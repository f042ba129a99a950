// bfc-nsdi22 Fig. 8 (§6.1) on the Fig. 6 testbed: three switches, group 1 and 2 senders on
// switch 1, group 3 on switch 3, receivers on switch 2; group-1 flows' mean FCT under the
// three queue assignments (single queue, stochastic hashing, dynamic) over four seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bfc_fig8.h"
#include "scenario_harness.h"

namespace mmusim::test {
namespace {

using nlohmann::json;

constexpr int kQueues = 16;             // Tofino2 ports in loopback mode (§6.1, footnote 5)
constexpr double kFlowBytes = 1.5e6;    // every flow, as in the paper
constexpr double kRateGbps = 100;       // every port
constexpr double kWireFraction = 1500.0 / 1520.0;  // 1500 B frames + 20 B preamble/IFG
constexpr int kSeeds = 4;               // "across four runs"

// One host per flow (n = max(group 2, group 3 flows) senders per group): the testbed's
// on-chip packet generator injects every flow on its own, so no NIC serialises a group.
int senders_per_group(int group2) { return std::max(group2, 8); }

Fig8Hosts hosts(int group2) {
  const int n = senders_per_group(group2);
  Fig8Hosts h;
  auto name = [](int i) { return "h" + std::to_string(i); };
  for (int i = 0; i < 2; ++i) h.group1.push_back(name(i));
  for (int i = 0; i < group2; ++i) h.group2.push_back(name(n + i));
  for (int i = 0; i < 8; ++i) h.group3.push_back(name(2 * n + i));
  h.receiver1 = name(3 * n);
  h.receiver2 = name(3 * n + 1);
  return h;
}

// Lossy traffic in a buffer that never drops at this load (BFC alone limits the queues);
// 176 B cells (Tofino2, Fig. 7); Th table at HRTT 2 us (Fig. 7b's threshold); 100 ns
// links (the testbed loops ports back into one switch). The run lasts until every flow
// has drained through receiver 2's link, the bottleneck of groups 2 and 3.
json fig8_scenario(const std::string& assignment, int group2, uint64_t seed) {
  const int n = senders_per_group(group2), largest = 2 * n + 1;  // switch 1's ports
  const double drain_us = (group2 + 8) * kFlowBytes * 8 / (kRateGbps * 1e3 * kWireFraction);
  json s = base_scenario(largest, 1.3 * drain_us + 100);
  s["seed"] = seed;
  s["topology"] = {{"generator",
                    {{"type", "bfc_testbed"}, {"senders_per_group", n}, {"rate_gbps", kRateGbps},
                     {"link_delay_ns", 100}}}};
  s["buffer"] = sonic_buffer(largest, 16 * 1024 * 1024, 12 * 1024 * 1024, nullptr, 12 * 1024 * 1024, 0, 0, nullptr);
  s["mmu"]["cell_bytes"] = 176;
  s["bfc"] = {{"enabled", true}, {"queues_per_port", kQueues}, {"assignment", assignment}, {"hrtt_ns", 2000}};
  s["traffic"] = fig8_traffic(hosts(group2), group2);
  return s;
}

// Group-1 flow FCT when no group-2 flow shares its queue at switch 1: receiver 2's link
// is shared fairly by the group 2 + 3 flows, so group 2 takes group2/(group2 + 8) of the
// switch 1 -> switch 2 link and the two group-1 flows split the rest.
double ideal_fct_us(int group2) {
  const double per_flow_gbps = kRateGbps * kWireFraction * 8.0 / (group2 + 8) / 2;
  return kFlowBytes * 8 / (per_flow_gbps * 1e3);
}

struct Variant {
  Fig8Fct fct;
  std::vector<double> per_run_us;
};

// One run: drained, no deadlock, every frame accounted for.
json run_checked(const json& sc) {
  const json s = simulate(sc);  // exit 0 (a deadlock fails the run) and conservation
  if (s.is_null()) return s;
  const json& b = s["bfc"];
  EXPECT_EQ(b["deadlock"].get<unsigned>(), 0u);
  EXPECT_EQ(b["unresolved_pauses"].get<unsigned>(), 0u);
  EXPECT_EQ(b["pause_frames"], b["resume_frames"]);
  EXPECT_EQ(b["nic_queues_paused_at_end"].get<unsigned>(), 0u);
  EXPECT_EQ(s["packets"]["delivered"], s["packets"]["injected"]);
  EXPECT_EQ(s["packets"]["buffered_at_end"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["drops"]["lossy"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["flows"]["completed"], s["flows"]["started"]);
  return s;
}

// Fig. 8: group 1 (2 flows) shares the switch 1 -> switch 2 link with group 2 (4 ... 20
// flows), which switch 2 backpressures (its bottleneck is receiver 2's link, shared with
// group 3's 8 flows). Asserted for every group-2 count: dynamic < hash < single (the paper:
// single worst as group 1 always shares group 2's queue, stochastic substantially lower,
// dynamic lowest); single at least 2x dynamic; hash's sd above dynamic's; while group 1 +
// group 2 flows fit in the 16 queues dynamic has no collision: sd 0 and, while group 2 +
// group 3 also fit at switch 2, the FCT of the fair-share closed form (within 6 %).
TEST(BfcFig8, Group1FctDynamicLowestSingleHighest) {
  std::printf("bfc-nsdi22 Fig. 8 on the Fig. 6 testbed: group-1 mean FCT (us) over %d seeds, mean +- sd, %d queues/port\n",
              kSeeds, kQueues);
  std::printf("paper (text of §6.1; the bars are not in the text): single worst; stochastic substantially lower, high sd;\n"
              "dynamic lowest, sd close to 0 while group 1 + group 2 flows < queues, growing beyond\n");
  std::printf("%6s %9s %10s %18s %18s %18s\n", "group2", "no-HoL", "spreading", "single", "hash", "dynamic");
  for (int group2 : {4, 8, 12, 16, 20}) {
    std::map<std::string, Variant> v;
    for (const char* mode : {"single", "hash", "dynamic"}) {
      std::vector<json> runs;
      for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
        const json s = run_checked(fig8_scenario(mode, group2, seed));
        ASSERT_FALSE(s.is_null()) << mode << " group2=" << group2 << " seed=" << seed;
        // Switch 2 paused switch 1's egress queues toward it (BFC frames over a switch link).
        EXPECT_EQ(s["switches"][1]["name"], "sw2");
        EXPECT_GT(s["switches"][1]["bfc"]["pause_frames"].get<uint64_t>(), 0u);
        EXPECT_GT(s["switches"][0]["bfc"]["frames_received"].get<uint64_t>(), 0u);
        runs.push_back(s);
        v[mode].per_run_us.push_back(fig8_group_fct({s}, 1).mean_us);
      }
      v[mode].fct = fig8_group_fct(runs, 1);
      EXPECT_TRUE(v[mode].fct.all_completed);
      ASSERT_EQ(v[mode].fct.runs, kSeeds);
    }
    // Congestion spreading: group 1 drained at every flow's share of receiver 2's link.
    const double ideal = ideal_fct_us(group2), spreading = ideal * 4;
    const Fig8Fct &single = v["single"].fct, &hash = v["hash"].fct, &dyn = v["dynamic"].fct;
    std::printf("%6d %9.1f %10.1f %10.1f +- %5.1f %10.1f +- %6.1f %10.1f +- %5.1f\n", group2, ideal, spreading,
                single.mean_us, single.std_us, hash.mean_us, hash.std_us, dyn.mean_us, dyn.std_us);
    for (const char* mode : {"single", "hash", "dynamic"}) {
      std::printf("         %-8s runs:", mode);
      for (double x : v[mode].per_run_us) std::printf(" %7.1f", x);
      std::printf("\n");
    }
    EXPECT_LT(dyn.mean_us, hash.mean_us) << "group2=" << group2;
    EXPECT_LT(hash.mean_us, single.mean_us) << "group2=" << group2;
    EXPECT_GE(single.mean_us, 2 * dyn.mean_us) << "group2=" << group2;
    EXPECT_GT(hash.std_us, dyn.std_us) << "group2=" << group2;
    if (group2 + 2 < kQueues) {
      EXPECT_LT(dyn.std_us, 0.01 * dyn.mean_us) << "group2=" << group2;
    }
    if (group2 + 8 <= kQueues) {
      EXPECT_GE(dyn.mean_us, ideal) << "group2=" << group2;
      EXPECT_LE(dyn.mean_us, 1.06 * ideal) << "group2=" << group2;
    }
  }
}

// Every switch of a multi-switch topology runs BFC, and a suppressed pair applies where
// the switch has both ports. Fig. 6 with one sender per group: h1 (group 2, switch 1) and
// h2 (group 3, switch 3) send 300 KB each to h4 at 100 Gb/s, so switch 2's port to h4
// (Ethernet12) backpressures both upstream switches. With (Ethernet0 -> Ethernet12), the
// link from switch 1, suppressed, switch 2 pauses switch 3 only; switches 1 and 3 have no
// Ethernet12 and keep their full tables.
TEST(BfcTopology, EverySwitchRunsBfcAndSuppressionIsPerSwitch) {
  for (bool suppress : {false, true}) {
    json sc = base_scenario(4, 200);
    sc["topology"] = {{"generator",
                       {{"type", "bfc_testbed"}, {"senders_per_group", 1}, {"rate_gbps", 100}, {"link_delay_ns", 100}}}};
    sc["buffer"] = sonic_buffer(4, 16 * 1024 * 1024, 12 * 1024 * 1024, nullptr, 12 * 1024 * 1024, 0, 0, nullptr);
    sc["bfc"] = {{"enabled", true}, {"hrtt_ns", 2000}};
    if (suppress) sc["bfc"]["suppress"] = json::array({{{"ingress", "Ethernet0"}, {"egress", "Ethernet12"}}});
    for (const char* src : {"h1", "h2"})
      sc["traffic"].push_back({{"type", "incast"}, {"name", std::string("from_") + src}, {"senders", src},
                               {"receiver", "h4"}, {"burst_bytes", 300000}, {"start_us", 1}, {"dscp", 8}});
    const json s = run_checked(sc);
    ASSERT_FALSE(s.is_null());
    const json& sw = s["switches"];
    ASSERT_EQ(sw.size(), 3u);
    for (const auto& x : sw) EXPECT_TRUE(x.contains("bfc")) << x["name"];
    const uint64_t to_sw1 = sw[0]["bfc"]["frames_received"], to_sw3 = sw[2]["bfc"]["frames_received"];
    const uint64_t elided = sw[1]["bfc"]["suppressed_packets"];
    std::printf("suppress %d: BFC frames received by switch 1 %llu, by switch 3 %llu; packets elided at switch 2 %llu\n",
                suppress, (unsigned long long)to_sw1, (unsigned long long)to_sw3, (unsigned long long)elided);
    EXPECT_GT(to_sw3, 0u);
    if (suppress) {
      EXPECT_EQ(to_sw1, 0u);
      EXPECT_GT(elided, 100u);
    } else {
      EXPECT_GT(to_sw1, 0u);
      EXPECT_EQ(elided, 0u);
    }
    for (int k : {0, 2}) EXPECT_EQ(sw[k]["bfc"]["suppressed_packets"].get<uint64_t>(), 0u);
  }
}

// Two switches under BFC: sw0 (h0, h1, sw1) at 100 Gb/s, sw1 (sw0, h2) with a 10 Gb/s link
// to h2; links 100 ns.
json two_switch_slow_receiver() {
  json sc = base_scenario(3, 60);
  sc["topology"] = {{"switches", {{{"name", "sw0"}, {"ports", 3}}, {{"name", "sw1"}, {"ports", 2}}}},
                    {"hosts", {{{"name", "h0"}}, {{"name", "h1"}}, {{"name", "h2"}}}},
                    {"links",
                     {{{"a", "sw0:0"}, {"b", "h0"}, {"rate_gbps", 100}, {"delay_ns", 100}},
                      {{"a", "sw0:1"}, {"b", "h1"}, {"rate_gbps", 100}, {"delay_ns", 100}},
                      {{"a", "sw0:2"}, {"b", "sw1:0"}, {"rate_gbps", 100}, {"delay_ns", 100}},
                      {{"a", "sw1:1"}, {"b", "h2"}, {"rate_gbps", 10}, {"delay_ns", 100}}}}};
  sc["buffer"] = sonic_buffer(3, 16 * 1024 * 1024, 12 * 1024 * 1024, nullptr, 12 * 1024 * 1024, 0, 0, nullptr);
  sc["bfc"] = {{"enabled", true}};
  return sc;
}

// The default HRTT (2 x (longest link delay + one MTU frame at the slowest rate)) covers
// every switch's ports, not only the largest switch's: sw0 (h0, h1, sw1) at 100 Gb/s, sw1
// (sw0, h2) with a 10 Gb/s link to h2; links 100 ns. HRTT = 2 x (100 + 1520 x 8 / 10) =
// 2 632 ns, so Th(N = 1) at a 100 Gb/s port is 2 632 ns x 100 Gb/s = 32 900 B (the largest
// switch alone would give 2 x (100 + 121.6) ns: 5 540 B).
TEST(BfcTopology, DefaultHrttCoversEverySwitch) {
  json sc = two_switch_slow_receiver();
  sc["traffic"].push_back({{"type", "incast"}, {"name", "slow"}, {"senders", "h0"}, {"receiver", "h2"},
                           {"burst_bytes", 30000}, {"start_us", 1}, {"dscp", 8}});
  const json s = run_checked(sc);
  ASSERT_FALSE(s.is_null());
  for (int k : {0, 1}) {
    const json& port0 = s["switches"][k]["bfc"]["ports"][0];
    std::printf("%s %s: Th(1) %llu B (HRTT 2632 ns x 100 Gb/s = 32900 B)\n", s["switches"][k]["name"].get<std::string>().c_str(),
                port0["port"].get<std::string>().c_str(), (unsigned long long)port0["th1_bytes"].get<uint64_t>());
    EXPECT_EQ(port0["th1_bytes"].get<uint64_t>(), 32900u);
  }
  EXPECT_EQ(s["switches"][1]["bfc"]["ports"][1]["th1_bytes"].get<uint64_t>(), 3290u);  // the 10 Gb/s port
}

// The end-of-run deadlock check across a switch link: a run that ends while sw1 (its 10
// Gb/s port to h2 the bottleneck) still pauses sw0, and sw0 still pauses h0, has pauses
// open at both switches; sw0's counted packets wait in a queue sw1 paused, which drains
// because sw1's own pause drains. Both are "draining", none deadlocked, the run succeeds
// (the check once looked at one switch only and failed this run with exit 3).
TEST(BfcTopology, NoFalseDeadlockWhenRunEndsUnderBackpressure) {
  json sc = two_switch_slow_receiver();
  sc["traffic"].push_back(constant("h0", "h2", 8));
  const json s = simulate(sc);  // exit 0: no deadlock reported
  ASSERT_FALSE(s.is_null());
  for (int k : {0, 1}) {
    const json& b = s["switches"][k]["bfc"];
    std::printf("%s at the end: %u pauses open, %u draining, %u deadlocked\n",
                s["switches"][k]["name"].get<std::string>().c_str(), b["unresolved_pauses"].get<unsigned>(),
                b["draining_pauses"].get<unsigned>(), b["deadlock"].get<unsigned>());
    EXPECT_GT(b["unresolved_pauses"].get<unsigned>(), 0u);
    EXPECT_EQ(b["draining_pauses"], b["unresolved_pauses"]);
    EXPECT_EQ(b["deadlock"].get<unsigned>(), 0u);
  }
  EXPECT_GT(s["switches"][0]["bfc"]["frames_received"].get<uint64_t>(), 0u);  // sw1 paused sw0
}

}  // namespace
}  // namespace mmusim::test
