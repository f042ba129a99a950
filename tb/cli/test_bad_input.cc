// Bad scenarios and bad command lines through the real mmusim binary: each must exit
// non-zero (1 = bad input, 2 = usage), name the offending field or key, and never crash.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.h"

namespace {

using nlohmann::json;

using cli_harness::Result;
using cli_harness::run_mmusim;
using cli_harness::expect_error;

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/mmusim_cli_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    m_dir = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }

  // scenarios/default.json with `mutate` applied, written to the temp dir; returns its path.
  std::string scenario(const std::function<void(json&)>& mutate = {}) {
    std::ifstream in(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/default.json");
    json j = json::parse(in);
    if (mutate) mutate(j);
    const std::string path = m_dir + "/scenario.json";
    std::ofstream(path) << j.dump(1);
    return path;
  }

  // `mmusim check` on a mutated default scenario.
  Result check(const std::function<void(json&)>& mutate) { return run_mmusim({"check", scenario(mutate)}); }

  std::string m_dir;
};

json& traffic(json& j, size_t i) { return j["traffic"][i]; }
json& profile(json& j, const char* name) { return j["buffer"]["BUFFER_PROFILE"][name]; }
json& pool(json& j, const char* name) { return j["buffer"]["BUFFER_POOL"][name]; }

// ---- positive control ----------------------------------------------------------------

TEST_F(BadInput, CheckValidDefaultScenarioPrintsOk) {
  const Result r = run_mmusim({"check", scenario()});
  SCOPED_TRACE(r.out);
  EXPECT_FALSE(r.signaled);
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("ok"), std::string::npos);
  EXPECT_EQ(r.out.find("error"), std::string::npos);
}

// ---- JSON syntax and unknown keys ----------------------------------------------------

TEST_F(BadInput, MalformedJsonTruncatedFile) {
  const std::string path = scenario();
  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::ofstream(path, std::ios::trunc) << text.substr(0, text.size() / 2);
  expect_error(run_mmusim({"check", path}), 1, {"malformed JSON", "scenario.json"});
}

TEST_F(BadInput, TopLevelNotAnObjectHasNoEmptyFieldPath) {
  const std::string path = m_dir + "/array.json";
  std::ofstream(path) << "[1, 2]";
  const Result r = run_mmusim({"check", path});
  expect_error(r, 1, {"array.json", "must be an object"});
  // Bug: today the message is "<file>: : must be an object" (empty field path).
  EXPECT_EQ(r.out.find(": : "), std::string::npos) << r.out;
}

TEST_F(BadInput, UnknownTopLevelKey) {
  expect_error(check([](json& j) { j["bogus_key"] = 1; }), 1, {"bogus_key", "unknown key"});
}

TEST_F(BadInput, UnknownNestedKeyTypoAlongside) {
  expect_error(check([](json& j) { j["mmu"]["bufer_bytes"] = 1024; }), 1,
               {"mmu.bufer_bytes", "unknown key"});
}

TEST_F(BadInput, UnknownNestedKeyTypoInsteadOfField) {
  expect_error(check([](json& j) {
                 j["mmu"]["bufer_bytes"] = j["mmu"]["buffer_bytes"];
                 j["mmu"].erase("buffer_bytes");
               }),
               1, {"mmu.bufer_bytes: unknown key"});  // buffer_bytes itself is inferred from the pools
}

TEST_F(BadInput, UnknownKeyInsideGenerator) {
  expect_error(check([](json& j) { traffic(j, 0)["burst_byte"] = 1; }), 1,
               {"traffic[0].burst_byte", "unknown key"});
}

// ---- missing required fields ---------------------------------------------------------

TEST_F(BadInput, MissingDuration) {
  expect_error(check([](json& j) { j.erase("duration_us"); }), 1, {"duration_us", "missing"});
}

TEST_F(BadInput, MissingTopology) {
  expect_error(check([](json& j) { j.erase("topology"); }), 1, {"topology", "missing"});
}

// Without buffer_bytes the pools give it (tb/config/test_configdb_cli.cc); without pools nothing does.
TEST_F(BadInput, MissingBufferBytes) {
  expect_error(check([](json& j) {
                 j["mmu"].erase("buffer_bytes");
                 j["buffer"].erase("BUFFER_POOL");
               }),
               1, {"mmu.buffer_bytes", "missing"});
}

TEST_F(BadInput, MissingBufferPoolTable) {
  expect_error(check([](json& j) { j["buffer"].erase("BUFFER_POOL"); }), 1,
               {"buffer.BUFFER_POOL", "missing"});
}

TEST_F(BadInput, MissingGeneratorType) {
  expect_error(check([](json& j) { traffic(j, 0).erase("type"); }), 1, {"traffic[0].type", "missing"});
}

TEST_F(BadInput, MissingProfilePool) {
  expect_error(check([](json& j) { profile(j, "egress_lossy_profile").erase("pool"); }), 1,
               {"buffer.BUFFER_PROFILE.egress_lossy_profile.pool", "missing"});
}

// ---- zero, negative and oversized values ---------------------------------------------

TEST_F(BadInput, BufferBytesZero) {
  expect_error(check([](json& j) { j["mmu"]["buffer_bytes"] = 0; }), 1, {"mmu.buffer_bytes"});
}

TEST_F(BadInput, BufferBytesNegative) {
  expect_error(check([](json& j) { j["mmu"]["buffer_bytes"] = -5; }), 1, {"mmu.buffer_bytes"});
}

TEST_F(BadInput, PoolSizeZero) {
  expect_error(check([](json& j) { pool(j, "egress_lossy_pool")["size"] = "0"; }), 1,
               {"buffer.BUFFER_POOL.egress_lossy_pool.size"});
}

TEST_F(BadInput, PoolSizeNegative) {
  expect_error(check([](json& j) { pool(j, "egress_lossy_pool")["size"] = "-1"; }), 1,
               {"buffer.BUFFER_POOL.egress_lossy_pool.size"});
}

TEST_F(BadInput, PoolLargerThanBuffer) {
  expect_error(check([](json& j) {
                 const uint64_t buf = j["mmu"]["buffer_bytes"].get<uint64_t>();
                 pool(j, "egress_lossy_pool")["size"] = std::to_string(buf + 1);
               }),
               1, {"buffer.BUFFER_POOL.egress_lossy_pool.size", "larger than the buffer"});
}

TEST_F(BadInput, HeadroomPoolsSumLargerThanBuffer) {
  // Each xoff alone fits; together they exceed the buffer. Bug: today the message is
  // "headroom pool larger than the buffer" with no field path.
  expect_error(check([](json& j) {
                 const std::string buf = std::to_string(j["mmu"]["buffer_bytes"].get<uint64_t>());
                 pool(j, "ingress_lossless_pool")["xoff"] = buf;
                 pool(j, "ingress_extra_pool") = {{"type", "ingress"}, {"size", "1024"}, {"xoff", buf}};
               }),
               1, {"buffer.BUFFER_POOL", "xoff"});
}

TEST_F(BadInput, BurstBytesZero) {
  expect_error(check([](json& j) { traffic(j, 0)["burst_bytes"] = 0; }), 1, {"traffic[0].burst_bytes"});
}

TEST_F(BadInput, CellBytesZero) {
  expect_error(check([](json& j) { j["mmu"]["cell_bytes"] = 0; }), 1, {"mmu.cell_bytes"});
}

TEST_F(BadInput, CounterBitsTooSmallForBuffer) {
  // Bug: today "buffer_cells does not fit counter_bits", without the field path.
  expect_error(check([](json& j) { j["mmu"]["counter_bits"] = 8; }), 1, {"mmu.counter_bits"});
}

TEST_F(BadInput, TopologyRateZero) {
  expect_error(check([](json& j) { j["topology"]["rate_gbps"] = 0; }), 1, {"topology.rate_gbps"});
}

TEST_F(BadInput, TopologyRateNegative) {
  expect_error(check([](json& j) { j["topology"]["rate_gbps"] = -100; }), 1, {"topology.rate_gbps"});
}

TEST_F(BadInput, GeneratorRateZero) {
  expect_error(check([](json& j) { traffic(j, 1)["rate_gbps"] = 0; }), 1, {"traffic[1].rate_gbps"});
}

TEST_F(BadInput, GeneratorRateNegative) {
  expect_error(check([](json& j) { traffic(j, 1)["rate_gbps"] = -1; }), 1, {"traffic[1].rate_gbps"});
}

TEST_F(BadInput, DurationZero) {
  expect_error(check([](json& j) { j["duration_us"] = 0; }), 1, {"duration_us"});
}

TEST_F(BadInput, DurationTooLargeForPicoseconds) {
  // 1e13 us = 1e19 ps overflows the 64-bit picosecond clock. Bug: accepted today.
  expect_error(check([](json& j) {
                 j["duration_us"] = 1e13;
                 j.erase("measure");
               }),
               1, {"duration_us"});
}

TEST_F(BadInput, SampleIntervalRoundsToZeroPicoseconds) {
  // 1e-6 ns rounds to 0 ps; `run` would then loop forever. Bug: accepted today.
  expect_error(check([](json& j) { j["output"]["sample_interval_ns"] = 1e-6; }), 1,
               {"output.sample_interval_ns"});
}

// ---- thresholds ----------------------------------------------------------------------

TEST_F(BadInput, DynamicThAboveRange) {
  expect_error(check([](json& j) { profile(j, "egress_lossy_profile")["dynamic_th"] = "9"; }), 1,
               {"buffer.BUFFER_PROFILE.egress_lossy_profile.dynamic_th"});
}

TEST_F(BadInput, DynamicThBelowRange) {
  expect_error(check([](json& j) { profile(j, "egress_lossy_profile")["dynamic_th"] = "-9"; }), 1,
               {"buffer.BUFFER_PROFILE.egress_lossy_profile.dynamic_th"});
}

TEST_F(BadInput, DynamicThFractional) {
  expect_error(check([](json& j) { profile(j, "egress_lossy_profile")["dynamic_th"] = "1.5"; }), 1,
               {"buffer.BUFFER_PROFILE.egress_lossy_profile.dynamic_th", "integer"});
}

TEST_F(BadInput, StaticAndDynamicThBoth) {
  expect_error(check([](json& j) { profile(j, "egress_lossy_profile")["static_th"] = "4096"; }), 1,
               {"buffer.BUFFER_PROFILE.egress_lossy_profile", "dynamic_th", "static_th"});
}

// ---- SONiC table keys and references -------------------------------------------------

TEST_F(BadInput, BufferPgUnknownPort) {
  expect_error(check([](json& j) {
                 j["buffer"]["BUFFER_PG"]["Ethernet999|3"] = {{"profile", "pg_lossless_100000_2m_profile"}};
               }),
               1, {"BUFFER_PG.Ethernet999|3", "Ethernet999"});
}

TEST_F(BadInput, BufferQueueUnknownPortOffStride) {
  // Ports are Ethernet0, Ethernet4, ... (stride 4): Ethernet1 does not exist.
  expect_error(check([](json& j) {
                 j["buffer"]["BUFFER_QUEUE"]["Ethernet1|3"] = {{"profile", "egress_lossless_profile"}};
               }),
               1, {"BUFFER_QUEUE.Ethernet1|3", "unknown port"});
}

TEST_F(BadInput, PortQosMapUnknownPort) {
  expect_error(check([](json& j) { j["buffer"]["PORT_QOS_MAP"]["Ethernet999"] = {{"pfc_enable", "3"}}; }), 1,
               {"PORT_QOS_MAP.Ethernet999", "unknown port"});
}

TEST_F(BadInput, PriorityAboveSeven) {
  expect_error(check([](json& j) {
                 j["buffer"]["BUFFER_PG"]["Ethernet0|9"] = {{"profile", "ingress_lossy_profile"}};
               }),
               1, {"BUFFER_PG.Ethernet0|9"});
}

TEST_F(BadInput, PriorityRangeReversed) {
  expect_error(check([](json& j) {
                 j["buffer"]["BUFFER_PG"]["Ethernet0|4-2"] = {{"profile", "ingress_lossy_profile"}};
               }),
               1, {"BUFFER_PG.Ethernet0|4-2"});
}

TEST_F(BadInput, PgKeyWithoutPriorities) {
  expect_error(check([](json& j) {
                 j["buffer"]["BUFFER_PG"]["Ethernet0"] = {{"profile", "ingress_lossy_profile"}};
               }),
               1, {"BUFFER_PG.Ethernet0", "PORT|PRIORITIES"});
}

TEST_F(BadInput, BufferPgUnknownProfile) {
  expect_error(check([](json& j) {
                 j["buffer"]["BUFFER_PG"]["Ethernet0|3"] = {{"profile", "no_such_profile"}};
               }),
               1, {"BUFFER_PG.Ethernet0|3.profile", "no_such_profile"});
}

TEST_F(BadInput, ProfileUnknownPool) {
  expect_error(check([](json& j) { profile(j, "egress_lossy_profile")["pool"] = "no_such_pool"; }), 1,
               {"buffer.BUFFER_PROFILE.egress_lossy_profile.pool", "no_such_pool"});
}

TEST_F(BadInput, UnknownDscpToTcMap) {
  expect_error(check([](json& j) {
                 for (auto& e : j["buffer"]["PORT_QOS_MAP"]) e["dscp_to_tc_map"] = "NO_SUCH_MAP";
               }),
               1, {"dscp_to_tc_map: unknown map 'NO_SUCH_MAP'"});
}

// ---- traffic generators --------------------------------------------------------------

TEST_F(BadInput, UnknownGeneratorType) {
  expect_error(check([](json& j) { traffic(j, 0)["type"] = "teleport"; }), 1,
               {"traffic[0].type", "teleport"});
}

TEST_F(BadInput, HostDoesNotExist) {
  expect_error(check([](json& j) { traffic(j, 0)["senders"] = "h1-h99"; }), 1, {"traffic[0].senders", "h99"});
}

TEST_F(BadInput, HostSendsToItself) {
  expect_error(check([](json& j) { traffic(j, 0)["receiver"] = "h1"; }), 1, {"traffic[0]", "h1", "itself"});
}

TEST_F(BadInput, RateAboveLineRate) {
  expect_error(check([](json& j) {
                 traffic(j, 1)["rate_gbps"] = j["topology"]["rate_gbps"].get<double>() * 2;
               }),
               1, {"traffic[1].rate_gbps", "line rate"});
}

TEST_F(BadInput, StopBeyondDuration) {
  expect_error(check([](json& j) { traffic(j, 1)["stop_us"] = 99999; }), 1, {"traffic[1].stop_us", "duration_us"});
}

TEST_F(BadInput, DuplicateGeneratorName) {
  expect_error(check([](json& j) { traffic(j, 1)["name"] = "incast"; }), 1,
               {"traffic[1].name", "already names traffic[0]"});
}

TEST_F(BadInput, OutputDirectoryCannotBeCreated) {
  const Result r = run_mmusim({"run", "--quiet", "--out", "/proc/mmusim-cannot-write"});
  expect_error(r, 1, {"--out '/proc/mmusim-cannot-write'"});
}

TEST_F(BadInput, StopBeforeStart) {
  expect_error(check([](json& j) {
                 traffic(j, 0)["start_us"] = 200;
                 traffic(j, 0)["stop_us"] = 100;
               }),
               1, {"traffic[0].stop_us"});
}

TEST_F(BadInput, TinyStopBeforeStart) {
  // 1e-9 us rounds to 0 ps, which means "no stop". Bug: accepted today.
  expect_error(check([](json& j) { traffic(j, 0)["stop_us"] = 1e-9; }), 1, {"traffic[0].stop_us"});
}

TEST_F(BadInput, BothDscpAndPcp) {
  expect_error(check([](json& j) { traffic(j, 0)["pcp"] = 3; }), 1, {"traffic[0]", "dscp", "pcp"});
}

TEST_F(BadInput, NeitherDscpNorPcp) {
  expect_error(check([](json& j) { traffic(j, 0).erase("dscp"); }), 1, {"traffic[0]", "dscp", "pcp"});
}

TEST_F(BadInput, MeasureEndBeyondDuration) {
  expect_error(check([](json& j) { j["measure"]["end_us"] = j["duration_us"].get<double>() + 1; }), 1,
               {"measure.end_us", "duration_us"});
}

// ---- --set overrides -----------------------------------------------------------------

TEST_F(BadInput, SetWithoutEquals) {
  expect_error(run_mmusim({"check", scenario(), "--set", "mmu.buffer_bytes"}), 1, {"--set", "mmu.buffer_bytes"});
}

TEST_F(BadInput, SetThroughNonObject) {
  expect_error(run_mmusim({"check", scenario(), "--set", "name.x=1"}), 1, {"name.x", "non-object"});
}

TEST_F(BadInput, SetBufferBytesZero) {
  expect_error(run_mmusim({"check", scenario(), "--set", "mmu.buffer_bytes=0"}), 1, {"mmu.buffer_bytes"});
}

TEST_F(BadInput, RunSetBufferBytesZero) {
  expect_error(run_mmusim({"run", scenario(), "--out", m_dir + "/out", "--quiet", "--set", "mmu.buffer_bytes=0"}),
               1, {"mmu.buffer_bytes"});
}

// ---- command line --------------------------------------------------------------------

TEST_F(BadInput, RunMissingScenarioFile) {
  const std::string path = m_dir + "/no_such_scenario.json";
  const Result r = run_mmusim({"run", path, "--out", m_dir + "/out"});
  SCOPED_TRACE(r.out);
  EXPECT_FALSE(r.signaled);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("no_such_scenario.json"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(m_dir + "/out"));
}

TEST_F(BadInput, UnknownFlag) {
  expect_error(run_mmusim({"run", "--no-such-flag"}), 2, {"--no-such-flag"});
}

TEST_F(BadInput, NoSubcommand) { expect_error(run_mmusim({}), 2, {"subcommand"}); }

}  // namespace
