// TC, PG and queue as separate indices (docs/configuration.md, "TC, PG and queue"):
// PORT_QOS_MAP's tc_to_pg_map, tc_to_queue_map and pfc_to_queue_map, through the real binary.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.h"

namespace {

using cli_harness::run_mmusim;
using nlohmann::json;

struct PfcOnWire {
  double t_ns;
  uint32_t enable;  // class-enable vector
  uint32_t paused;  // classes with non-zero quanta
};

// PFC frames of a run's pfc.pcap (little-endian, nanosecond timestamps).
std::vector<PfcOnWire> pfc_frames(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string d = ss.str();
  auto u8 = [&](size_t o) { return uint32_t(uint8_t(d[o])); };
  auto le32 = [&](size_t o) { return u8(o) | u8(o + 1) << 8 | u8(o + 2) << 16 | u8(o + 3) << 24; };
  std::vector<PfcOnWire> out;
  if (d.size() < 24 || le32(0) != 0xa1b23c4du) {
    ADD_FAILURE() << path << ": not a nanosecond pcap";
    return out;
  }
  for (size_t o = 24; o + 16 <= d.size();) {
    const size_t len = le32(o + 8), f = o + 16;
    if (f + len > d.size() || len < 34) break;
    PfcOnWire p{double(le32(o)) * 1e9 + double(le32(o + 4)), u8(f + 16) << 8 | u8(f + 17), 0};
    for (uint32_t i = 0; i < 8; ++i)
      if ((p.enable >> i & 1) && (u8(f + 18 + 2 * i) << 8 | u8(f + 19 + 2 * i)) != 0) p.paused |= 1u << i;
    out.push_back(p);
    o = f + len;
  }
  return out;
}

json profiles() {
  return {{"ingress_lossless_profile", {{"pool", "ingress_pool"}, {"size", 0}, {"static_th", 6144}}},
          {"ingress_lossy_profile", {{"pool", "ingress_pool"}, {"size", 0}, {"dynamic_th", 0}}},
          {"egress_lossless_profile", {{"pool", "egress_pool"}, {"size", 0}, {"static_th", 1048576}}},
          {"egress_lossy_profile", {{"pool", "egress_pool"}, {"size", 0}, {"dynamic_th", 0}}}};
}

json pools() {
  return {{"ingress_pool", {{"type", "ingress"}, {"size", 786432}, {"xoff", 262144}}},
          {"egress_pool", {{"type", "egress"}, {"size", 1048576}}}};
}

// h1 sends TC 3 (DSCP 24) and TC 4 (DSCP 32) to h0, both lossless, both into Ethernet4;
// h0's link runs at 1 Gb/s, so nothing leaves Ethernet0 within the first 12 us.
json two_class_sender(bool shared_pg) {
  json qos = {{"pfc_enable", "3,4"}};
  if (shared_pg) qos["tc_to_pg_map"] = "SHARED";
  json j = {{"duration_us", 5},
            {"topology",
             {{"ports", 2}, {"rate_gbps", 100}, {"link_delay_ns", 0},
              {"port_overrides", {{"Ethernet0", {{"rate_gbps", 1}}}}}}},
            {"mmu", {{"buffer_bytes", 1048576}, {"clock_mhz", 1000}}},
            {"buffer",
             {{"BUFFER_POOL", pools()},
              {"BUFFER_PROFILE", profiles()},
              {"PORT_QOS_MAP", {{"Ethernet0,Ethernet4", qos}}},
              {"TC_TO_PRIORITY_GROUP_MAP", {{"SHARED", {{"4", 3}}}}}}},
            {"traffic",
             {{{"type", "constant"}, {"name", "tc3"}, {"src", "h1"}, {"dst", "h0"}, {"dscp", 24}, {"start_us", 1}},
              {{"type", "constant"}, {"name", "tc4"}, {"src", "h1"}, {"dst", "h0"}, {"dscp", 32}, {"start_us", 1}}}}};
  return j;
}

struct RunOut {
  json summary;
  std::vector<PfcOnWire> pfc;
};

RunOut run(const json& scenario, const std::string& name) {
  const std::string dir = testing::TempDir() + "class_maps_" + name;
  const std::string file = dir + ".json";
  std::ofstream(file) << scenario.dump(1);
  const auto r = run_mmusim({"run", file, "--out", dir, "--quiet", "--pcap"}, {true});
  EXPECT_EQ(r.code, 0) << r.err;
  RunOut out;
  if (r.code != 0) return out;
  out.summary = json::parse(std::ifstream(dir + "/summary.json"));
  out.pfc = pfc_frames(dir + "/pfc.pcap");
  return out;
}

// Hand-computed. 1500 B frames of 6 cells (256 B) every 1520 x 8 / 100 Gb/s = 121.6 ns from
// 1 us, alternating TC 3 and TC 4 (the NIC serves its priorities round robin); PG static
// threshold 6144 B = 24 cells, checked before a frame is added ("shared part >= threshold"),
// decision at the first 1 GHz edge after arrival + 4 cycles.
// - TCs 3 and 4 sharing PG 3: the PG holds 4 x 6 = 24 cells after frame 4, so frame 5
//   (arriving at 1000 + 5 x 121.6 = 1608 ns) triggers the one XOFF at 1612 ns, and the
//   PFC frame pauses the PG's priority vector {3, 4}.
// - PG = TC (no map): PG 3 reaches 24 cells with its 4th frame (frame 7), XOFF on frame 9
//   at the edge after 1000 + 9 x 121.6 + 4 = 2098.4 ns, pausing priority 3 alone; PG 4
//   likewise on frame 10 at 2220 ns (the frame carries every paused class: {3, 4}).
TEST(ClassMaps, TcsSharingAPgFillItTogether) {
  const RunOut shared = run(two_class_sender(true), "shared");
  ASSERT_EQ(shared.pfc.size(), 1u);
  EXPECT_EQ(shared.pfc[0].t_ns, 1612.0);
  EXPECT_EQ(shared.pfc[0].enable, 0x18u);
  EXPECT_EQ(shared.pfc[0].paused, 0x18u);
  const json& s = shared.summary["switches"][0]["pfc"];
  EXPECT_EQ(s["xoff_events"], 1);
  EXPECT_EQ(s["paused_queues_at_end"], 2);  // priorities 3 and 4 of Ethernet4
  // Paused from 1612 ns to the end (5000 ns), two priorities.
  EXPECT_EQ(s["paused_time_ns"], 2 * (5000.0 - 1612.0));

  const RunOut own = run(two_class_sender(false), "own");
  ASSERT_EQ(own.pfc.size(), 2u);
  EXPECT_EQ(own.pfc[0].t_ns, 2099.0);
  EXPECT_EQ(own.pfc[0].paused, 0x08u);
  EXPECT_EQ(own.pfc[1].t_ns, 2220.0);
  EXPECT_EQ(own.pfc[1].paused, 0x18u);
  EXPECT_EQ(own.summary["switches"][0]["pfc"]["xoff_events"], 2);
}

// A received pause for priority p stops queue pfc_to_queue_map[p]. sw0 forwards h0's TC 3
// (DSCP 24) to sw1, which sends it to h1 at 1 Gb/s and pauses sw0 at its PG 3. With the
// identity map sw0's queue 3 stops and sw0 in turn pauses h0: nothing lossless is lost.
// With pfc_to_queue_map 3 -> 5 on sw0's port towards sw1 the pause stops queue 5, queue 3
// keeps sending, and sw1's PG 3 headroom overflows.
TEST(ClassMaps, PfcPriorityPausesTheMappedQueue) {
  auto scenario = [](bool moved) {
    json qos = {{"pfc_enable", "3"}};
    json sw0 = {{"name", "sw0"}, {"ports", 2}};
    if (moved) {
      json own = {{"BUFFER_POOL", pools()},
                  {"BUFFER_PROFILE", profiles()},
                  {"PORT_QOS_MAP", {{"Ethernet0", qos}, {"Ethernet4", {{"pfc_enable", "3"}, {"pfc_to_queue_map", "MOVED"}}}}},
                  {"MAP_PFC_PRIORITY_TO_QUEUE", {{"MOVED", {{"3", "5"}}}}}};
      sw0["buffer"] = own;
    }
    return json{{"duration_us", 30},
                {"topology",
                 {{"switches", {sw0, {{"name", "sw1"}, {"ports", 2}}}},
                  {"hosts", {{{"name", "h0"}}, {{"name", "h1"}}}},
                  {"links",
                   {{{"a", "sw0:0"}, {"b", "h0"}},
                    {{"a", "sw0:1"}, {"b", "sw1:0"}},
                    {{"a", "sw1:1"}, {"b", "h1"}, {"rate_gbps", 1}}}},
                  {"rate_gbps", 100},
                  {"link_delay_ns", 100}}},
                {"mmu", {{"buffer_bytes", 1048576}, {"clock_mhz", 1000}}},
                {"buffer",
                 {{"BUFFER_POOL", pools()},
                  {"BUFFER_PROFILE", profiles()},
                  {"PORT_QOS_MAP", {{"Ethernet0,Ethernet4", qos}}}}},
                {"traffic",
                 {{{"type", "constant"}, {"src", "h0"}, {"dst", "h1"}, {"dscp", 24}, {"start_us", 1}, {"stop_us", 30}}}}};
  };
  auto lossless_drops = [](const json& s, size_t sw) { return s["switches"][sw]["drops"]["lossless"].get<uint64_t>(); };
  const RunOut same = run(scenario(false), "pfc_identity");
  ASSERT_FALSE(same.summary.is_null());
  EXPECT_EQ(lossless_drops(same.summary, 0), 0u);
  EXPECT_EQ(lossless_drops(same.summary, 1), 0u);
  EXPECT_GT(same.summary["switches"][0]["pfc"]["xoff_events"].get<uint64_t>(), 0u);  // sw0 pauses h0

  const RunOut moved = run(scenario(true), "pfc_moved");
  ASSERT_FALSE(moved.summary.is_null());
  EXPECT_GT(lossless_drops(moved.summary, 1), 0u);
  EXPECT_EQ(moved.summary["switches"][0]["pfc"]["xoff_events"], 0);  // sw0's queue 3 never stops
}

// A CONFIG_DB with non-identity maps: `config show` lists each PG's TCs and PFC priorities
// and each queue's TCs and the priorities that pause it, and nothing warns that the maps
// are not modelled.
TEST(ClassMaps, ConfigShowListsTheMaps) {
  const std::string file = testing::TempDir() + "class_maps_config_db.json";
  json db = {{"BUFFER_POOL", pools()},
             {"BUFFER_PROFILE", profiles()},
             {"PORT_QOS_MAP",
              {{"Ethernet0,Ethernet4",
                {{"pfc_enable", "3,4"},
                 {"tc_to_pg_map", "[TC_TO_PRIORITY_GROUP_MAP|AZURE]"},
                 {"tc_to_queue_map", "[TC_TO_QUEUE_MAP|AZURE]"},
                 {"pfc_to_queue_map", "[MAP_PFC_PRIORITY_TO_QUEUE|AZURE]"}}}}},
             {"TC_TO_PRIORITY_GROUP_MAP",
              {{"AZURE", {{"0", "0"}, {"1", "0"}, {"2", "0"}, {"3", "3"}, {"4", "3"}, {"5", "0"}, {"6", "0"}, {"7", "7"}}}}},
             {"TC_TO_QUEUE_MAP", {{"AZURE", {{"1", "0"}, {"6", "5"}}}}},
             {"MAP_PFC_PRIORITY_TO_QUEUE", {{"AZURE", {{"4", "3"}}}}}};
  std::ofstream(file) << db.dump(1);
  const auto r = run_mmusim({"config", "show", file, "--json"}, {true});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("not modelled"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("TC_TO"), std::string::npos) << r.err;
  const json e4 = json::parse(r.out)["switches"][0]["ports"][1];
  ASSERT_EQ(e4["name"], "Ethernet4");
  EXPECT_EQ(e4["pfc_enable"], json({3, 4}));
  EXPECT_EQ(e4["pgs"][0]["tcs"], json({0, 1, 2, 5, 6}));
  EXPECT_EQ(e4["pgs"][0]["lossless"], false);
  EXPECT_EQ(e4["pgs"][3]["tcs"], json({3, 4}));
  EXPECT_EQ(e4["pgs"][3]["lossless"], true);
  EXPECT_EQ(e4["pgs"][3]["pfc_priorities"], json({3, 4}));
  EXPECT_EQ(e4["pgs"][3]["profile"], "ingress_lossless_profile");
  EXPECT_EQ(e4["pgs"][4]["tcs"], json::array());
  EXPECT_EQ(e4["pgs"][4]["lossless"], false);  // no TC maps to it
  EXPECT_EQ(e4["pgs"][4]["profile"], "ingress_lossy_profile");
  EXPECT_EQ(e4["queues"][0]["tcs"], json({0, 1}));
  EXPECT_EQ(e4["queues"][1]["tcs"], json::array());
  EXPECT_EQ(e4["queues"][5]["tcs"], json({5, 6}));
  EXPECT_EQ(e4["queues"][3]["paused_by"], json({3, 4}));
  EXPECT_EQ(e4["queues"][4]["paused_by"], json::array());
  EXPECT_EQ(e4["queues"][4]["profile"], "egress_lossless_profile");  // TC 4 (PFC) goes there
  const auto t = run_mmusim({"config", "show", file}, {true});
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("PG3   3,4      3,4      ingress_lossless_profile"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("Q3    3        3,4      egress_lossless_profile"), std::string::npos) << t.out;
}

// output.threshold_queues: "lossless" names a PG (the ingress threshold), "lossy" an egress
// queue. With TC 3 (PFC) moved to queue 5, PG 3 is lossless, queue 3 lossy and queue 5
// lossless, so "Ethernet0|3" is a valid lossy key and "Ethernet0|5" is not.
TEST(ClassMaps, ThresholdQueuesLossyKeyNamesAQueue) {
  auto scenario = [](const std::string& lossy) {
    return json{{"duration_us", 5},
                {"topology", {{"ports", 2}, {"rate_gbps", 100}, {"link_delay_ns", 0}}},
                {"mmu", {{"buffer_bytes", 1048576}, {"clock_mhz", 1000}}},
                {"buffer",
                 {{"BUFFER_POOL", pools()},
                  {"BUFFER_PROFILE", profiles()},
                  {"PORT_QOS_MAP", {{"Ethernet0,Ethernet4", {{"pfc_enable", "3"}, {"tc_to_queue_map", "MOVED"}}}}},
                  {"TC_TO_QUEUE_MAP", {{"MOVED", {{"3", "5"}}}}}}},
                {"traffic", {{{"type", "constant"}, {"src", "h1"}, {"dst", "h0"}, {"dscp", 24}}}},
                {"output", {{"threshold_queues", {{"lossless", "Ethernet0|3"}, {"lossy", lossy}}}}}};
  };
  auto check = [&](const std::string& lossy, const std::string& name) {
    const std::string file = testing::TempDir() + "class_maps_thq_" + name + ".json";
    std::ofstream(file) << scenario(lossy).dump(1);
    return run_mmusim({"check", file}, {true});
  };
  const auto ok = check("Ethernet0|3", "q3");
  EXPECT_EQ(ok.code, 0) << ok.err;
  const auto bad = check("Ethernet0|5", "q5");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("output.threshold_queues.lossy"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("is not a lossy queue"), std::string::npos) << bad.err;
}

}  // namespace
