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

// One run: drained, no deadlock, every frame accounted for, BFC active across the
// switch 2 -> switch 1 link.
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
  // Switch 2 paused switch 1's egress queues toward it (BFC frames over a switch link).
  const json& sw = s["switches"];
  EXPECT_EQ(sw[1]["name"], "sw2");
  EXPECT_GT(sw[1]["bfc"]["pause_frames"].get<uint64_t>(), 0u);
  EXPECT_GT(sw[0]["bfc"]["frames_received"].get<uint64_t>(), 0u);
  return s;
}

TEST(BfcFig8, Group1FctDynamicLowestSingleHighest) {
  std::printf("bfc-nsdi22 Fig. 8: group-1 mean FCT (us) over %d seeds, mean +- sd; 16 queues per port\n", kSeeds);
  std::printf("%8s %10s %18s %18s %18s\n", "group2", "no-HoL", "single", "hash", "dynamic");
  for (int group2 : {4, 8, 12, 16, 20}) {
    std::map<std::string, Variant> v;
    for (const char* mode : {"single", "hash", "dynamic"}) {
      std::vector<json> runs;
      for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
        const json s = run_checked(fig8_scenario(mode, group2, seed));
        ASSERT_FALSE(s.is_null()) << mode << " group2=" << group2 << " seed=" << seed;
        runs.push_back(s);
        v[mode].per_run_us.push_back(fig8_group_fct({s}, 1).mean_us);
      }
      v[mode].fct = fig8_group_fct(runs, 1);
      EXPECT_TRUE(v[mode].fct.all_completed);
      EXPECT_EQ(v[mode].fct.runs, kSeeds);
    }
    const double ideal = ideal_fct_us(group2);
    std::printf("%8d %10.1f %10.1f +- %5.1f %10.1f +- %5.1f %10.1f +- %5.1f\n", group2, ideal,
                v["single"].fct.mean_us, v["single"].fct.std_us, v["hash"].fct.mean_us, v["hash"].fct.std_us,
                v["dynamic"].fct.mean_us, v["dynamic"].fct.std_us);
    for (const char* mode : {"single", "hash", "dynamic"}) {
      std::printf("    %-8s runs:", mode);
      for (double x : v[mode].per_run_us) std::printf(" %.1f", x);
      std::printf("\n");
    }
  }
}

}  // namespace
}  // namespace mmusim::test
