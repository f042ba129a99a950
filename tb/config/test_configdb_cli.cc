// The CONFIG_DB import and the buffer semantic checks through the real binary.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_harness.h"

namespace {

using cli_harness::expect_error;
using cli_harness::run_mmusim;
using nlohmann::json;

// Scenario paths are relative to the working directory, as the docs' commands run them.
class ConfigDbCli : public testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(chdir(MMUSIM_SOURCE_DIR), 0); }
};

// The documented import: a 3-to-1 incast at DSCP 3 into the vlab CONFIG_DB's lossless PG 3
// pauses the senders and drops nothing lossless.
TEST_F(ConfigDbCli, VlabIncastPauses) {
  const std::string out = testing::TempDir() + "configdb_vlab";
  const auto r = run_mmusim({"run", "scenarios/configdb_vlab_incast.json", "--out", out, "--quiet"}, {true});
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = json::parse(std::ifstream(out + "/summary.json"));
  EXPECT_GT(s["pfc"]["xoff_events"].get<uint64_t>(), 0u);
  EXPECT_GT(s["pfc"]["pause_frames"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["drops"]["lossless"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["packets"]["delivered"], s["packets"]["injected"]);
  bool listed = false;  // summary.json lists the warning too
  for (const auto& w : s["warnings"]) listed |= w.get<std::string>().find("into Ethernet12") != std::string::npos;
  EXPECT_TRUE(listed) << s["warnings"].dump();
  // One block on stderr lists what is not modelled; h3's port has no QoS map.
  EXPECT_EQ(r.err.find("not modelled"), r.err.rfind("not modelled"));
  EXPECT_NE(r.err.find("CONFIG_DB tables and fields not modelled (ignored):\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("  SCHEDULER (2 entries)\n"), std::string::npos);
  EXPECT_NE(r.err.find("h3 sends DSCP 3, lossless on Ethernet0, Ethernet4, Ethernet8, into Ethernet12"),
            std::string::npos);
  EXPECT_EQ(r.out.find("mmusim:"), std::string::npos) << "messages belong on stderr";
}

TEST_F(ConfigDbCli, SwitchConfigFlagReplacesTheScenarioTables) {
  const auto r = run_mmusim({"check", "--switch-config", "tb/data/configdb/buffer-arista7260-t1.json",
                             "--switch-config", "tb/data/configdb/qos-arista7260-t1.json", "--set",
                             "platform.pg_profile_lookup=tb/data/configdb/pg_profile_lookup-Arista-7260CX3-C64.ini",
                             "--set", "topology.ports=6", "--set", "traffic=[]", "--set", "mmu.buffer_bytes=44302336"},
                            {true});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("generated profiles: pg_lossless_100000_300m_profile"), std::string::npos) << r.err;
}

TEST_F(ConfigDbCli, ImportErrorsNameFileAndField) {
  expect_error(run_mmusim({"check", "--switch-config", "tb/data/configdb/no-such.json"}), 1, {"no-such.json"});
  const std::string ini = testing::TempDir() + "lookup_100g_5m.ini";
  std::ofstream(ini) << "# speed cable size xon xoff threshold xon_offset\n 100000 5m 1248 1248 54080 -3 2496\n";
  expect_error(run_mmusim({"check", "scenarios/configdb_vlab_incast.json", "--set", "platform.pg_profile_lookup=" + ini}),
               1, {"PORT_QOS_MAP.Ethernet0.pfc_enable", "no entry for speed 40000 and cable 300m"});
  std::ofstream(ini) << "100000 5m 1248 1248\n";
  expect_error(run_mmusim({"check", "scenarios/configdb_vlab_incast.json", "--set", "platform.pg_profile_lookup=" + ini}),
               1, {"lookup_100g_5m.ini:1: expected speed cable size xon xoff threshold"});
  expect_error(run_mmusim({"check", "scenarios/configdb_vlab_incast.json", "--set", "buffer.BUFFER_POOL={}"}), 1,
               {"give either buffer or switch_config"});
  expect_error(run_mmusim({"check", "scenarios/default.json", "--set", "platform.x=1"}), 1,
               {"platform: only with switch_config"});
}

// Semantic checks on the scenario's own tables: each an error naming the field, exit 1.
TEST_F(ConfigDbCli, SemanticChecks) {
  const std::string d = "scenarios/default.json";
  expect_error(run_mmusim({"check", d, "--set", "buffer.BUFFER_PROFILE.ingress_lossy_profile.static_th=16777217"}), 1,
               {"buffer.BUFFER_PROFILE.ingress_lossy_profile.static_th: 16777217 B above mmu.buffer_bytes"});
  expect_error(run_mmusim({"check", d, "--set", "buffer.BUFFER_PROFILE.egress_lossy_profile.size=15000000"}), 1,
               {"buffer.BUFFER_PROFILE.egress_lossy_profile.size: reserved 15000000 B above its pool 'egress_lossy_pool'"});
  // Reserved buffer is outside the pool: many queues' reserved sizes may add up past it.
  EXPECT_EQ(run_mmusim({"check", d, "--set", "buffer.BUFFER_PROFILE.egress_lossy_profile.size=300000"}).code, 0);
  expect_error(run_mmusim({"check", d, "--set", "buffer.BUFFER_PROFILE.pg_lossless_100000_2m_profile.xoff=16777217"}), 1,
               {"pg_lossless_100000_2m_profile.xoff: headroom 16777217 B above mmu.buffer_bytes"});
  expect_error(run_mmusim({"check", d, "--set", "buffer.BUFFER_POOL.ingress_lossless_pool.size=15728640"}), 1,
               {"buffer.BUFFER_POOL: the ingress pools' sizes and xoff add up to 17825792 B, above mmu.buffer_bytes (16777216 B)"});
  // Static headroom per PG (no pool xoff) summing past the buffer: the loader's warning,
  // which counts it per policy (docs/configuration.md, Headroom), not an error.
  json j = json::parse(std::ifstream(d));
  j["buffer"]["BUFFER_POOL"]["ingress_lossless_pool"].erase("xoff");
  j["buffer"]["BUFFER_PROFILE"]["pg_lossless_100000_2m_profile"]["xoff"] = "600000";
  const std::string f = testing::TempDir() + "sih_overflow.json";
  std::ofstream(f) << j.dump();
  // 32 ports x 1 lossless PG x 2344 cells = 75008 cells > 65536.
  const auto r = run_mmusim({"check", f}, {true});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("xoff total 75008 cells exceeds the buffer (65536 cells)"), std::string::npos) << r.err;
}

TEST_F(ConfigDbCli, BufferBytesInferredFromPools) {
  json j = json::parse(std::ifstream("scenarios/default.json"));
  j["mmu"].erase("buffer_bytes");
  const std::string f = testing::TempDir() + "no_buffer_bytes.json";
  std::ofstream(f) << j.dump();
  const auto r = run_mmusim({"check", f}, {true});
  EXPECT_EQ(r.code, 0) << r.err;
  // Ingress 14680064 + 2097152 = 16777216 = the egress lossless pool.
  EXPECT_NE(r.err.find("mmusim: note: mmu.buffer_bytes not given: 16777216 B, inferred from the pools"),
            std::string::npos)
      << r.err;
}

}  // namespace

namespace {

// `config show`: the effective configuration, after the import and the loader's defaults.
TEST_F(ConfigDbCli, ConfigShowVlab) {
  const auto r = run_mmusim({"config", "show", "scenarios/configdb_vlab_incast.json", "--json"}, {true});
  ASSERT_EQ(r.code, 0) << r.err;
  const json e = json::parse(r.out);
  const json& sw = e["switches"][0];
  EXPECT_EQ(sw["buffer_cells"], 49868);  // 12766208 B / 256
  bool found = false;
  for (const auto& p : sw["pools"])
    if (p["name"] == "egress_lossy_pool") {
      found = true;
      EXPECT_EQ(p["size_cells"], 28620);  // 7326924 / 256
    }
  EXPECT_TRUE(found);
  // Ethernet4: PG 3 lossless with the lookup's 216 / 221 / 72 / 10 cells, alpha 2^-3;
  // queue 3 static 49868 cells; 40 Gb/s, 300 m = 1500 ns.
  const json& e4 = sw["ports"][1];
  EXPECT_EQ(e4["name"], "Ethernet4");
  EXPECT_EQ(e4["rate_gbps"], 40.0);
  EXPECT_EQ(e4["delay_ns"], 1500.0);
  EXPECT_EQ(e4["pfc_enable"], json({3, 4}));
  const json& pg3 = e4["pgs"][3];
  EXPECT_EQ(pg3["profile"], "pg_lossless_40000_300m_profile");
  EXPECT_EQ(pg3["lossless"], true);
  EXPECT_EQ(pg3["reserved_cells"], 216);
  EXPECT_EQ(pg3["xoff_cells"], 221);
  EXPECT_EQ(pg3["xoff_derived"], false);
  EXPECT_EQ(pg3["xon_cells"], 72);
  EXPECT_EQ(pg3["xon_offset_cells"], 10);
  EXPECT_EQ(pg3["threshold"]["alpha"], 0.125);
  EXPECT_EQ(e4["queues"][3]["threshold"]["static_cells"], 49868);
  // Ethernet12: no QoS map, every PG lossy.
  EXPECT_EQ(sw["ports"][3]["pfc_enable"], json::array());
  EXPECT_EQ(sw["ports"][3]["pgs"][3]["lossless"], false);
  // The table carries the same numbers.
  const auto t = run_mmusim({"config", "show", "scenarios/configdb_vlab_incast.json"}, {true});
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("PG3   3        3        pg_lossless_40000_300m_profile    lossless  216    alpha 2^-3     221     72     10"),
            std::string::npos)
      << t.out;
}

// A CONFIG_DB file alone: the switch is built from the ports it names.
TEST_F(ConfigDbCli, ConfigShowConfigDbAlone) {
  const auto r =
      run_mmusim({"config", "show", "tb/data/configdb/buffers-mellanox2410-dynamic.json", "--json"}, {true});
  ASSERT_EQ(r.code, 0) << r.err;
  const json e = json::parse(r.out);
  const json& sw = e["switches"][0];
  ASSERT_EQ(sw["ports"].size(), 4u);  // Ethernet0, 64, 128, 192: stride 64
  EXPECT_EQ(sw["ports"][3]["name"], "Ethernet192");
  // No PFC in this file: the size-less pools are (13945824 - 4 x 18432 lossy PG0 - 4 x 9216
  // egress profile list - 262144 management pool) / 2 = 6786544 B.
  for (const auto& p : sw["pools"]) {
    if (p["name"] != "egress_lossless_pool") {
      EXPECT_EQ(p["size_bytes"], 6786544) << p["name"];
    }
  }
  EXPECT_NE(r.err.find("profile NULL (a dynamically sized lossless PG) where PORT_QOS_MAP enables no PFC"),
            std::string::npos);
}

// `config diff`: the lookup's headroom against mmusim's safe headroom.
TEST_F(ConfigDbCli, ConfigDiff) {
  json j = json::parse(std::ifstream("scenarios/configdb_vlab_incast.json"));
  j.erase("platform");
  const std::string b = testing::TempDir() + "vlab_no_lookup.json";
  std::ofstream(b) << j.dump();
  const auto r = run_mmusim({"config", "diff", "scenarios/configdb_vlab_incast.json", b}, {true});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("switches[sw0].ports[Ethernet4].pgs[3].xoff_cells: 221 -> 552\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("switches[sw0].ports[Ethernet4].pgs[3].reserved_cells: 216 -> 0\n"), std::string::npos);
  EXPECT_EQ(r.out.find("Ethernet12"), std::string::npos);  // lossy port: unchanged
  // PGs 3 and 4 of three ports, 7 fields each (reserved, dynamic_th, alpha, xoff,
  // xoff_derived, xon, xon_offset), and the switch's total of static headroom.
  EXPECT_NE(r.out.find("43 differences"), std::string::npos) << r.out;
  const auto same = run_mmusim({"config", "diff", b, b}, {true});
  EXPECT_NE(same.out.find("0 differences"), std::string::npos);
}

// The vlab maps put TCs 0-2 in PG 0 but in queues 0-2: the RTL unit indexes egress by the
// queue (issue 14), so `admission.impl: rtl` runs it and gives the C++ run's summary.
TEST_F(ConfigDbCli, RtlTakesQueuesOtherThanThePg) {
  const std::string cpp = testing::TempDir() + "configdb_vlab_cpp", rtl = testing::TempDir() + "configdb_vlab_rtl";
  const auto c = run_mmusim({"run", "scenarios/configdb_vlab_incast.json", "--out", cpp, "--quiet"}, {true});
  const auto r = run_mmusim(
      {"run", "scenarios/configdb_vlab_incast.json", "--set", "admission.impl=rtl", "--out", rtl, "--quiet"}, {true});
  ASSERT_EQ(c.code, 0) << c.err;
  if (r.err.find("built without Verilator") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.code, 0) << r.err;
  json a = json::parse(std::ifstream(cpp + "/summary.json")), b = json::parse(std::ifstream(rtl + "/summary.json"));
  for (const char* k : {"wall_time_s", "impl"}) {
    a.erase(k);
    b.erase(k);
  }
  EXPECT_EQ(a.dump(), b.dump());
}

TEST_F(ConfigDbCli, ConfigBadInput) {
  expect_error(run_mmusim({"config"}), 2, {"subcommand"});
  expect_error(run_mmusim({"config", "diff", "scenarios/default.json"}), 2, {"files"});
  const std::string bad = testing::TempDir() + "bad_configdb.json";
  std::ofstream(bad) << R"({"BUFFER_POOL": {"p": {"type": "ingress", "size": "12x"}}, "PORT": {"Ethernet0": {"speed": "100000"}}})";
  expect_error(run_mmusim({"config", "show", bad}), 1, {"BUFFER_POOL.p.size: '12x' is not a non-negative integer"});
}

}  // namespace
