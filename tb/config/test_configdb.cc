// SONiC CONFIG_DB import (docs/configuration.md, "Switch configuration from SONiC CONFIG_DB"):
// the real files under tb/data/configdb/ load as they are, and the pools, profiles and
// lossless PGs the model programs are checked against numbers worked out by hand from the
// files and from SONiC's buffer manager (buffermgr.cpp, buffer_headroom_mellanox.lua,
// buffer_pool_mellanox.lua).
#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <random>

#include "cli_harness.h"
#include "config/config_load.h"
#include "config/configdb.h"

namespace mmusim {
namespace {

using nlohmann::json;

const std::string kData = std::string(MMUSIM_SOURCE_DIR) + "/tb/data/configdb/";

json base(uint32_t ports, double gbps, uint32_t stride = 4) {
  return {{"duration_us", 100},
          {"topology", {{"ports", ports}, {"rate_gbps", gbps}, {"link_delay_ns", 500}, {"port_name_stride", stride}}},
          {"mmu", {{"clock_mhz", 1000}}},
          {"traffic", json::array()}};
}

struct Loaded {
  Scenario sc;
  admission::CoreConfig core;
  LoadReport report;
};

Loaded load(const json& j) {
  Loaded l;
  l.sc = load_configured_scenario(j, "test", l.report);
  l.core = l.sc.core_config();
  return l;
}

const admission::IngressProfile& pg(const Loaded& l, uint32_t port, uint32_t prio) {
  return l.core.ingress_profiles[l.core.pg_profile[size_t(port) * 8 + prio]];
}
const admission::EgressProfile& queue(const Loaded& l, uint32_t port, uint32_t prio) {
  return l.core.egress_profiles[l.core.queue_profile[size_t(port) * 8 + prio]];
}
const BufferCfg::Pool& pool(const Loaded& l, const std::string& name) {
  for (const auto& p : l.sc.buffer.pools)
    if (p.name == name) return p;
  throw std::runtime_error("no pool " + name);
}
bool has(const std::vector<std::string>& v, const std::string& needle) {
  for (const auto& s : v)
    if (s.find(needle) != std::string::npos) return true;
  return false;
}

// sonic-mgmt's vlab-t2-01: traditional model, old "[TABLE|name]" references, no lossless
// PG in BUFFER_PG (buffermgrd adds them from the Force10-S6000 pg_profile_lookup.ini).
TEST(ConfigDb, VlabTraditionalWithLookup) {
  json j = base(4, 100);
  j["switch_config"] = kData + "vlab-t2-01_config_db.json";
  j["platform"] = {{"pg_profile_lookup", kData + "pg_profile_lookup-Force10-S6000.ini"}};
  const Loaded l = load(j);
  // mmu.buffer_bytes inferred: the one ingress pool, 12766208 B (= the egress lossless pool).
  EXPECT_EQ(l.sc.mmu.buffer_bytes, 12766208u);
  EXPECT_TRUE(has(l.report.notes, "12766208 B, inferred"));
  EXPECT_EQ(l.core.buffer_cells, 12766208u / 256);  // 49868 cells
  EXPECT_EQ(pool(l, "ingress_lossless_pool").size_bytes, 12766208u);
  EXPECT_EQ(pool(l, "egress_lossy_pool").size_bytes, 7326924u);
  // PORT: 40000 Mb/s, mtu 9100; CABLE_LENGTH 300m -> 1500 ns.
  for (uint32_t p = 0; p < 4; ++p) {
    EXPECT_EQ(l.sc.topo.ports[p].rate_bps, 40'000'000'000u);
    EXPECT_EQ(l.sc.topo.ports[p].delay_ps, 1'500'000u);
  }
  EXPECT_EQ(l.sc.topo.mtu_bytes, 9100u);
  // Ethernet4 (port 1): PFC 3,4; PG 3 and 4 get pg_lossless_40000_300m_profile from the
  // lookup row "40000 300m 55120 18432 56368 -3 2496": size 55120 B -> 216 cells, xoff
  // 56368 B -> 221, xon 18432 B -> 72, xon_offset 2496 B -> 10, alpha 2^-3.
  for (uint32_t prio : {3u, 4u}) {
    EXPECT_TRUE(l.sc.lossless(1, prio));
    const auto& ip = pg(l, 1, prio);
    EXPECT_EQ(ip.reserved_cells, 216u);
    EXPECT_EQ(ip.xoff_cells, 221u);
    EXPECT_EQ(ip.xon_cells, 72u);
    EXPECT_EQ(ip.xon_offset_cells, 10u);
    EXPECT_TRUE(ip.th.dynamic);
    EXPECT_EQ(ip.th.shift, -3);
  }
  EXPECT_EQ(l.sc.buffer.profiles[size_t(l.sc.buffer.pg_profile[1 * 8 + 3])].name, "pg_lossless_40000_300m_profile");
  // PG 0: ingress_lossy_profile, dynamic_th 3; queue 3: egress_lossless_profile, static
  // 12766208 B = 49868 cells; queue 0: egress_lossy_profile, 1518 B -> 6 cells reserved.
  EXPECT_EQ(pg(l, 1, 0).th.shift, 3);
  EXPECT_FALSE(queue(l, 1, 3).th.dynamic);
  EXPECT_EQ(queue(l, 1, 3).th.static_cells, 49868u);
  EXPECT_EQ(queue(l, 1, 0).reserved_cells, 6u);
  // Ethernet12 (port 3): in no PORT_QOS_MAP entry: all lossy, DSCP by class selector.
  for (uint32_t prio = 0; prio < 8; ++prio) EXPECT_FALSE(l.sc.lossless(3, prio));
  EXPECT_EQ(l.sc.buffer.dscp_to_tc[3][3], 0u);
  EXPECT_EQ(l.sc.buffer.dscp_to_tc[1][3], 3u);   // AZURE: DSCP 3 -> TC 3
  EXPECT_EQ(l.sc.buffer.dscp_to_tc[1][46], 5u);  // DSCP 46 -> TC 5
  // One block names every table not modelled.
  EXPECT_TRUE(has(l.report.ignored, "SCHEDULER (2 entries)"));
  // WRED_PROFILE AZURE_LOSSLESS (green 1048576 ... 2097152 B, 5 %, ecn_all) on Ethernet0|3
  // and |4 through QUEUE's old-style reference; QUEUE's scheduler is not modelled.
  ASSERT_EQ(l.sc.wred.profiles.size(), 1u);
  const auto& azure = l.sc.wred.profiles[0];
  EXPECT_EQ(azure.name, "AZURE_LOSSLESS");
  EXPECT_EQ(azure.curve[WredProfileCfg::kGreen].min_bytes, 1048576u);
  EXPECT_EQ(azure.curve[WredProfileCfg::kGreen].max_bytes, 2097152u);
  EXPECT_EQ(azure.curve[WredProfileCfg::kGreen].probability_pct, 5u);
  EXPECT_TRUE(azure.marks_green());
  EXPECT_EQ(l.sc.wred.queue_profile[0 * 8 + 3], 0);
  EXPECT_EQ(l.sc.wred.queue_profile[0 * 8 + 4], 0);
  EXPECT_EQ(l.sc.wred.queue_profile[0 * 8 + 0], -1);
  EXPECT_EQ(l.sc.wred.queue_profile[1 * 8 + 3], -1);
  EXPECT_FALSE(has(l.report.ignored, "WRED_PROFILE"));
  EXPECT_TRUE(has(l.report.ignored, "QUEUE fields (scheduler)"));
  EXPECT_TRUE(has(l.report.ignored, "PORT: ports not in the topology (Ethernet120)"));
  // TC_TO_PRIORITY_GROUP_MAP AZURE is followed: TCs 0, 1, 2, 5, 6 share PG 0, 3 and 4 keep
  // their own, 7 -> 7; TC_TO_QUEUE_MAP AZURE is the identity. Ethernet12 has no map.
  const std::array<uint8_t, 8> azure_pg{0, 0, 0, 3, 4, 0, 0, 7}, identity{0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(l.sc.buffer.tc_to_pg[1], azure_pg);
  EXPECT_EQ(l.sc.buffer.tc_to_queue[1], identity);
  EXPECT_EQ(l.sc.buffer.tc_to_pg[3], identity);
  EXPECT_EQ(l.sc.pg_priorities(1, 3), 0x08);
  EXPECT_FALSE(has(l.sc.warnings, "TC_TO_PRIORITY_GROUP_MAP"));
  EXPECT_FALSE(has(l.sc.warnings, "BUFFER_QUEUE profiles"));  // PG 0's queues 0, 1, 2, 5, 6 are all lossy
}

// Without a pg_profile_lookup the generated profiles carry no xoff: each lossless PG gets
// the model's safe headroom, and the note says so.
TEST(ConfigDb, VlabTraditionalWithoutLookupTakesSafeHeadroom) {
  json j = base(4, 100);
  j["switch_config"] = kData + "vlab-t2-01_config_db.json";
  const Loaded l = load(j);
  EXPECT_TRUE(has(l.report.notes, "safe headroom"));
  const auto safe = safe_headroom_cells(l.sc);
  EXPECT_EQ(pg(l, 0, 3).xoff_cells, safe[0]);
  EXPECT_EQ(pg(l, 0, 3).reserved_cells, 0u);
}

// sonic-buildimage's rendered Arista 7260CX3 T1 buffers + qos (two files, merged), new-style
// references, PORT_QOS_MAP.global, a pool with a shared headroom (xoff).
TEST(ConfigDb, AristaBuffersAndQos) {
  json j = base(6, 100);
  j["switch_config"] = {kData + "buffer-arista7260-t1.json", kData + "qos-arista7260-t1.json"};
  j["platform"] = {{"pg_profile_lookup", kData + "pg_profile_lookup-Arista-7260CX3-C64.ini"}};
  const Loaded l = load(j);
  // Inferred buffer: max(33262528 + 8965632, 43481152) = 43481152 B -> 169848 cells.
  EXPECT_EQ(l.sc.mmu.buffer_bytes, 43481152u);
  EXPECT_EQ(l.core.buffer_cells, 169848u);
  EXPECT_EQ(pool(l, "ingress_lossless_pool").size_bytes, 33262528u);  // 129931 cells
  EXPECT_EQ(pool(l, "ingress_lossless_pool").xoff_bytes, 8965632u);
  EXPECT_EQ(l.core.headroom_pool_cells, 8965632u / 256);  // 35022
  // Ethernet0 (port 0) and Ethernet16 (port 4): PFC 3,4, 300m, speed from the topology
  // (100000): row "100000 300m 1248 1248 101088 -3 2496" -> 5 / 395 / 5 / 10 cells.
  for (uint32_t port : {0u, 4u})
    for (uint32_t prio : {3u, 4u}) {
      const auto& ip = pg(l, port, prio);
      EXPECT_TRUE(l.sc.lossless(port, prio));
      EXPECT_EQ(ip.reserved_cells, 5u);
      EXPECT_EQ(ip.xoff_cells, 395u);
      EXPECT_EQ(ip.xon_cells, 5u);
      EXPECT_EQ(ip.xon_offset_cells, 10u);
      EXPECT_EQ(ip.th.shift, -3);
    }
  // PG 0: ingress_lossy_profile static 44302336 B = 173056 cells (above the inferred buffer:
  // a warning, not an error, for an imported CONFIG_DB).
  EXPECT_FALSE(pg(l, 0, 0).th.dynamic);
  EXPECT_EQ(pg(l, 0, 0).th.static_cells, 173056u);
  EXPECT_TRUE(has(l.sc.warnings, "ingress_lossy_profile.static_th: 44302336 B above mmu.buffer_bytes"));
  // Queues: 3 egress_lossless_profile static 43481152 B = 169848 cells; 0 egress_lossy_profile
  // 1664 B -> 7 cells, alpha 2^-1.
  EXPECT_EQ(queue(l, 0, 3).th.static_cells, 169848u);
  EXPECT_EQ(queue(l, 0, 0).reserved_cells, 7u);
  EXPECT_EQ(queue(l, 0, 0).th.shift, -1);
  // Ethernet8 (port 2) has no PORT_QOS_MAP entry: lossy, classified by the global map.
  EXPECT_FALSE(l.sc.lossless(2, 3));
  EXPECT_EQ(l.sc.buffer.dscp_to_tc[2][48], 7u);  // AZURE (Arista): DSCP 48 -> TC 7
  EXPECT_TRUE(has(l.report.notes, "PORT_QOS_MAP.global"));
  // pfcwd_sw_enable is read (the PFC watchdog's priorities), though no PFC_WD starts it here.
  EXPECT_FALSE(has(l.report.ignored, "pfcwd_sw_enable"));
  EXPECT_EQ(l.sc.buffer.pfcwd_sw_enable[0], 0x18);
  EXPECT_FALSE(l.sc.pfc_wd.enabled());
}

// buffers-mellanox2410-dynamic: pools without a size, lossless PGs with profile NULL. The
// PFC map is not in that file (SONiC renders it into qos.json): a two-line file gives it.
TEST(ConfigDb, MellanoxDynamicModel) {
  const std::string qos = testing::TempDir() + "mlnx_pfc.json";
  std::ofstream(qos) << R"({"PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": "3,4"}, "Ethernet64": {"pfc_enable": "3,4"},
    "Ethernet128": {"pfc_enable": "3,4"}, "Ethernet192": {"pfc_enable": "3,4"}}})";
  json j = base(4, 100, 64);  // Ethernet0, 64, 128, 192: cables 300m, 40m, 5m, 5m
  j["switch_config"] = {kData + "buffers-mellanox2410-dynamic.json", qos};
  const Loaded l = load(j);
  // buffer_headroom_mellanox.lua at 100000 Mb/s, SPECTRUM (cell 96, pipeline 18 KiB, mac/phy
  // 0.8 KiB), lossless mtu 1024, 100% small packets, port mtu 9100, no shared headroom:
  //   cell occupancy 192/97; peer response 394 * 512 / 8 = 25216 B;
  //   300m: cable 2*300*1e5*1e9/1.98e8/8192 = 36991.0 B, xoff ceil1K(1024 + 72126.2 * 1.9794) = 144384
  //   40m: xoff 80896; 5m: xoff 72704; xon 18432; size = xoff + xon.
  // The model reserves size - xoff = xon beside the xoff headroom.
  const std::pair<uint32_t, uint64_t> xoff[] = {{0, 144384}, {1, 80896}, {2, 72704}, {3, 72704}};
  for (auto [port, bytes] : xoff) {
    const auto& ip = pg(l, port, 3);
    EXPECT_TRUE(l.sc.lossless(port, 3));
    EXPECT_EQ(ip.xoff_cells, (bytes + 255) / 256) << "port " << port;
    EXPECT_EQ(ip.reserved_cells, 18432u / 256);
    EXPECT_EQ(ip.th.shift, 0);  // DEFAULT_LOSSLESS_BUFFER_PARAMETER default_dynamic_th 0
  }
  EXPECT_EQ(l.sc.buffer.profiles[size_t(l.sc.buffer.pg_profile[1 * 8 + 4])].name, "pg_lossless_100000_40m_profile");
  // buffer_pool_mellanox.lua: MMU = egress_lossless_pool 13945824 B; reserved: 4 lossy PG 0
  // x 18432, 2 x (162816 + 99328 + 91136 + 91136) lossless PGs, 4 x 9216 egress profile
  // list, 256 KiB management pool = 1261568 B; two size-less ingress pools: (13945824 -
  // 1261568) / 2 = 6342128 B each, and the egress lossy pool the same.
  for (const char* name : {"ingress_lossless_pool", "ingress_lossy_pool", "egress_lossy_pool"})
    EXPECT_EQ(pool(l, name).size_bytes, 6342128u) << name;
  EXPECT_EQ(l.sc.mmu.buffer_bytes, 13945824u);
  EXPECT_TRUE(has(l.report.ignored, "DEVICE_METADATA") == false);
}

TEST(ConfigDb, DynamicHeadroomEightLanesAndSharedHeadroom) {
  // 8 lanes: pipeline latency 2 * 18 KiB - 1 KiB = 35840 B (xon), plus port mtu in size.
  const DynamicHeadroom h = dynamic_headroom(AsicTable{}, 400000, 5, 9100, 1024, 100, false, true);
  EXPECT_EQ(h.xon, 35840u);
  EXPECT_EQ(h.size, (h.xoff + h.xon + 9100 + 1023) / 1024 * 1024);
  // Shared headroom: the PG's size is xon alone.
  EXPECT_EQ(dynamic_headroom(AsicTable{}, 100000, 5, 9100, 1024, 100, true, false).size, 18432u);
}

TEST(ConfigDb, BadReferencesNameTheField) {
  json j = base(4, 100);
  json db = json::parse(R"({"BUFFER_POOL": {"p": {"type": "ingress", "size": "1000000"}},
    "BUFFER_PROFILE": {"x": {"pool": "[BUFFER_PROFILE|p]", "size": "0", "dynamic_th": "0"}}})");
  j["switch_config"] = db;
  try {
    load(j);
    FAIL() << "accepted a reference to the wrong table";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("BUFFER_PROFILE.x.pool: '[BUFFER_PROFILE|p]' refers to table BUFFER_PROFILE"),
              std::string::npos)
        << e.what();
  }
}

// A generated topology (leaf_spine: leaf0, leaf1 with hosts on ports 0-1 and the spine on
// port 2; spine0 with the leaves on ports 0-1): switch_config keyed by switch name or
// "prefix*" gives each switch its CONFIG_DB; a plain file is shared by all.
TEST(ConfigDb, GeneratedTopologyConfigPerSwitch) {
  auto scenario = [](const json& switch_config) {
    return json{{"duration_us", 100},
                {"topology",
                 {{"generator",
                   {{"type", "leaf_spine"}, {"leaves", 2}, {"spines", 1}, {"hosts_per_leaf", 2},
                    {"host_rate_gbps", 100}, {"link_delay_ns", 1000}}}}},
                {"mmu", {{"clock_mhz", 1000}}},
                {"platform", {{"pg_profile_lookup", kData + "pg_profile_lookup-Force10-S6000.ini"}}},
                {"switch_config", switch_config},
                {"traffic", json::array()}};
  };
  const json vlab = kData + "vlab-t2-01_config_db.json";
  const json arista = {kData + "buffer-arista7260-t1.json", kData + "qos-arista7260-t1.json"};
  auto pool_size = [](const SwitchConfig& v, const std::string& name) -> uint64_t {
    for (const auto& p : v.buffer.pools)
      if (p.name == name) return p.size_bytes;
    return 0;
  };
  LoadReport report;
  const Scenario sc = load_configured_scenario(scenario({{"leaf*", vlab}, {"spine0", arista}}), "gen", report);
  ASSERT_EQ(sc.net.switches.size(), 3u);
  EXPECT_EQ(sc.net.switches[0].name, "leaf0");
  EXPECT_EQ(sc.net.switches[2].name, "spine0");
  for (uint32_t s : {0u, 1u}) {
    EXPECT_EQ(pool_size(sc.switch_view(s), "egress_lossy_pool"), 7326924u);  // the vlab's
    EXPECT_TRUE(sc.switch_view(s).lossless(2, 3));  // Ethernet8 (the uplink): PFC 3,4
  }
  EXPECT_EQ(pool_size(sc.switch_view(2), "egress_lossless_pool"), 43481152u);  // the Arista's
  EXPECT_EQ(pool_size(sc.switch_view(2), "egress_lossy_pool"), 26610688u);
  EXPECT_EQ(sc.mmu.buffer_bytes, 43481152u);  // inferred from the larger
  // A file alone: every switch.
  const Scenario shared = load_configured_scenario(scenario(vlab), "gen", report);
  for (uint32_t s = 0; s < 3; ++s) EXPECT_EQ(pool_size(shared.switch_view(s), "egress_lossy_pool"), 7326924u);
  // Errors name the key or the switch left without a configuration.
  auto error = [&](const json& spec) {
    try {
      load_configured_scenario(scenario(spec), "gen", report);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error({{"leaf*", vlab}}).find("gen: switch_config: no entry for switch 'spine0' (leaf*) and no top-level buffer"),
            std::string::npos);
  EXPECT_NE(error({{"leaf*", vlab}, {"spine*", vlab}, {"core*", vlab}}).find("gen: switch_config.core*: names no switch"),
            std::string::npos);
}

// A graph topology with a CONFIG_DB per switch: each switch programs its own; the MMU size
// is inferred from the larger (Arista's 43481152 B).
TEST(ConfigDb, PerSwitchConfigInAGraph) {
  json j = {{"duration_us", 100},
            {"topology",
             {{"switches",
               {{{"name", "sw0"}, {"ports", 3}, {"switch_config", kData + "vlab-t2-01_config_db.json"}},
                {{"name", "sw1"},
                 {"ports", 3},
                 {"switch_config", {kData + "buffer-arista7260-t1.json", kData + "qos-arista7260-t1.json"}}}}},
              {"hosts", {{{"name", "h0"}}, {{"name", "h1"}}, {{"name", "h2"}}, {{"name", "h3"}}}},
              {"links",
               {{{"a", "sw0:0"}, {"b", "h0"}},
                {{"a", "sw0:1"}, {"b", "h1"}},
                {{"a", "sw0:2"}, {"b", "sw1:0"}},
                {{"a", "sw1:1"}, {"b", "h2"}},
                {{"a", "sw1:2"}, {"b", "h3"}}}},
              {"rate_gbps", 100},
              {"link_delay_ns", 1000}}},
            {"mmu", {{"clock_mhz", 1000}}},
            {"platform", {{"pg_profile_lookup", kData + "pg_profile_lookup-Force10-S6000.ini"}}},
            {"traffic", json::array()}};
  LoadReport report;
  const Scenario sc = load_configured_scenario(j, "graph", report);
  EXPECT_TRUE(report.imported);
  EXPECT_EQ(sc.mmu.buffer_bytes, 43481152u);
  const SwitchConfig& s0 = sc.switch_view(0);
  const SwitchConfig& s1 = sc.switch_view(1);
  // sw0 (vlab): PORT speed 40000 names the profile; sw1 (Arista): the graph's 100 Gb/s.
  EXPECT_EQ(s0.buffer.profiles[size_t(s0.buffer.pg_profile[1 * 8 + 3])].name, "pg_lossless_40000_300m_profile");
  EXPECT_EQ(s1.buffer.profiles[size_t(s1.buffer.pg_profile[1 * 8 + 3])].name, "pg_lossless_100000_300m_profile");
  EXPECT_TRUE(s0.lossless(2, 4));   // Ethernet8: PFC 3,4 in the vlab
  EXPECT_FALSE(s1.lossless(2, 3));  // Ethernet8: no PORT_QOS_MAP entry in the Arista files
  EXPECT_EQ(s1.buffer.pools[0].name, "egress_lossless_pool");
  EXPECT_EQ(s1.buffer.pools[0].size_bytes, 43481152u);
  EXPECT_FALSE(has(report.ignored, "pfcwd_sw_enable"));
  // The links, not PORT or CABLE_LENGTH, set the rates and delays.
  EXPECT_EQ(s0.topo.ports[1].rate_bps, 100'000'000'000u);
  j["topology"]["switches"][0]["buffer"] = json::object();
  EXPECT_THROW(load_configured_scenario(j, "graph", report), ConfigError);
}

void leaves(json& j, std::vector<json*>& out) {
  out.push_back(&j);
  if (j.is_object())
    for (auto& v : j) leaves(v, out);
}

json read(const std::string& f) { return json::parse(std::ifstream(kData + f)); }

// Random damage to the real files (a value replaced by junk, a key dropped): the import and
// the loader reject it with a ConfigError, or accept it, but never fail otherwise. Seed:
// MMUSIM_SEED, else fresh; printed.
TEST(ConfigDb, DamagedFilesFailCleanly) {
  const char* env = std::getenv("MMUSIM_SEED");
  const uint64_t seed = env ? std::strtoull(env, nullptr, 10) : std::random_device{}();
  std::printf("MMUSIM_SEED=%llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  json arista = read("buffer-arista7260-t1.json");
  arista.update(read("qos-arista7260-t1.json"));
  const json mlnx = read("buffers-mellanox2410-dynamic.json");
  const std::vector<std::pair<json, json>> sets = {
      {read("vlab-t2-01_config_db.json"), base(4, 100)},
      {arista, base(6, 100)},
      {mlnx, base(4, 100, 64)}};
  const json junk[] = {"", "-", "--3", "abc", "1e9", "-1", "300", "0", "99999999999999999999999", "[BUFFER_POOL|",
                       "[BUFFER_PROFILE|nope]", "NULL", "3,4,", "0m", "9m", nullptr, -1, 1.5, json::object(),
                       json::array(), true, json::parse(R"({"profile": "NULL"})")};
  int accepted = 0, rejected = 0;
  for (int i = 0; i < 400; ++i) {
    const size_t which = rng() % sets.size();
    json db = sets[which].first;
    for (int k = 0, n = 1 + int(rng() % 3); k < n; ++k) {
      std::vector<json*> all;
      leaves(db, all);
      json* victim = all[rng() % all.size()];
      if (victim->is_object() && !victim->empty() && rng() % 3 == 0) victim->erase(victim->begin());
      else *victim = junk[rng() % std::size(junk)];
    }
    json j = sets[which].second;
    j["switch_config"] = db;
    if (which == 1) j["platform"] = {{"pg_profile_lookup", kData + "pg_profile_lookup-Arista-7260CX3-C64.ini"}};
    try {
      load(j);
      ++accepted;
    } catch (const ConfigError&) {
      ++rejected;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "seed " << seed << " iteration " << i << ": " << e.what() << "\n" << db.dump();
      return;
    }
  }
  std::printf("accepted %d, rejected %d\n", accepted, rejected);
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace mmusim
