// `mmusim run --impl rtl --vcd` also writes the co-simulated unit's FST waveform, read back
// here through fstapi's reader: on the simulated time axis (each operation's rising edge at
// its MMU cycle x the clock period, or just after the previous operation when several fall
// in one cycle), clock-gated between operations, one request edge per admission and one
// release edge per departure of the summary, byte-identical for the same scenario and
// seed; one file per switch of a network; none for the C++ core; atomic like every
// output, and an error naming it when it cannot be written.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../common/fst_read.h"
#include "cli_harness.h"
#include "cosim/rtl_engine.h"
#include "cosim/rtl_wave.h"

namespace {

namespace fs = std::filesystem;
using cli_harness::expect_error;
using cli_harness::Result;
using cli_harness::run_mmusim;
using nlohmann::json;

// The default scenario cut to 100 us: ~19 000 admission requests and departures.
const std::vector<std::string> kShort = {"--set", "duration_us=100", "--set", "measure.start_us=0",
                                         "--set", "measure.end_us=100"};
constexpr uint64_t kPeriodPs = 1000;  // the default scenario's MMU clock

class RtlWave : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!mmusim::RtlEngine::available()) GTEST_SKIP() << "built without Verilator";
    char tmpl[] = "/tmp/mmusim_rtl_wave_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    m_dir = tmpl;
  }
  void TearDown() override {
    if (!m_dir.empty()) fs::remove_all(m_dir);
  }
  Result run(const std::string& out, std::vector<std::string> extra, long fsize_limit = -1) {
    std::vector<std::string> args = {"run", "--quiet", "--out", m_dir + "/" + out};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_mmusim(args, {false, fsize_limit});
  }
  std::set<std::string> files(const std::string& out) const {
    std::set<std::string> s;
    for (const auto& e : fs::directory_iterator(m_dir + "/" + out)) s.insert(e.path().filename().string());
    return s;
  }
  static std::vector<std::string> cat(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }
  static std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::string m_dir;
};

TEST_F(RtlWave, RunWritesTheUnitsFstOnTheSimulatedTimeAxis) {
  const Result r = run("a", cat({"--impl", "rtl", "--vcd"}, kShort));
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(files("a"), (std::set<std::string>{"summary.json", "timeseries.csv", "flows.csv", "counters.vcd",
                                               "rtl_unit.fst"}));
  const std::string path = m_dir + "/a/rtl_unit.fst";
  const test::FstFile f = test::read_fst(path, {"clk_i", "req_valid_i", "rel_valid_i", "now_i"});
  ASSERT_TRUE(f.ok) << "fstapi cannot read " << path;
  EXPECT_EQ(f.timescale, -12);  // ps
  EXPECT_EQ(f.date, mmusim::rtl::Wave::kDate);
  for (const char* s : {"clk_i", "rst_ni", "now_i", "cfg_valid_i", "cfg_addr_i", "cfg_wdata_i", "req_valid_i",
                        "req_ready_o", "req_in_port_i", "req_out_port_i", "req_prio_i", "req_queue_i", "req_cells_i",
                        "rsp_valid_o", "rsp_verdict_o", "rsp_pfc_o", "rsp_reason_o", "rel_valid_i", "rel_in_port_i",
                        "rel_out_port_i", "rel_prio_i", "rel_queue_i", "rel_cells_i", "rel_rsp_pfc_o", "stat_total_o"})
    EXPECT_EQ(f.top.count(s), 1u) << s;

  // Replay the changes: at each rising edge, which operation the inputs hold.
  std::map<std::string, std::string> v;
  uint64_t req = 0, rel = 0, rises = 0, gaps = 0, last_rise = 0, max_late = 0;
  for (const auto& c : f.changes) {
    const bool rise = c.signal == "clk_i" && c.bits == "1" && v["clk_i"] == "0";
    v[c.signal] = c.bits;
    if (!rise) continue;
    // Edges sit on whole cycles of the MMU clock.
    ASSERT_EQ(c.time % kPeriodPs, 0u) << c.time;
    if (rises++ && c.time - last_rise > kPeriodPs) ++gaps;
    last_rise = c.time;
    const bool op = v["req_valid_i"] == "1" || v["rel_valid_i"] == "1";
    req += v["req_valid_i"] == "1";
    rel += v["rel_valid_i"] == "1";
    if (!op) continue;
    // Never before the MMU cycle the operation was issued in (now_i), at most a few
    // cycles after it (operations of one cycle follow one another).
    const uint64_t cycle = c.time / kPeriodPs, issued = std::stoull(v["now_i"], nullptr, 2);
    ASSERT_GE(cycle, issued) << c.time;
    max_late = std::max(max_late, cycle - issued);
  }
  EXPECT_LE(max_late, 64u);
  EXPECT_GT(max_late, 0u) << "no two operations in one MMU cycle: the test would not see the rule";
  // One request edge per packet received (admitted or dropped), one release per departure.
  const json s = json::parse(slurp(m_dir + "/a/summary.json"));
  const json& pk = s["switches"][0]["packets"];
  EXPECT_EQ(req, pk["received"].get<uint64_t>());
  EXPECT_EQ(rel, pk["transmitted"].get<uint64_t>());
  EXPECT_GT(req, 10000u);
  // Clock-gated: the clock stops between operations, so there are idle gaps and far fewer
  // edges than cycles in the run; the waveform ends within the simulated time.
  EXPECT_GT(gaps, 100u);
  EXPECT_LT(rises, f.end_time / kPeriodPs / 2);
  EXPECT_LE(f.end_time, 100'000'000u);
  EXPECT_GT(f.end_time, 90'000'000u);

  // The same scenario and seed give the same bytes (the header's date is no wall clock),
  // whatever the time zone.
  ASSERT_EQ(setenv("TZ", "America/Los_Angeles", 1), 0);
  const Result again = run("b", cat({"--impl", "rtl", "--vcd"}, kShort));
  unsetenv("TZ");
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_TRUE(slurp(path) == slurp(m_dir + "/b/rtl_unit.fst")) << "not byte-identical";
}

TEST_F(RtlWave, OnlyWithVcdAndTheRtl) {
  ASSERT_EQ(run("cpp", cat({"--vcd"}, kShort)).code, 0);
  EXPECT_EQ(files("cpp").count("rtl_unit.fst"), 0u);
  ASSERT_EQ(run("novcd", cat({"--impl", "rtl"}, kShort)).code, 0);
  EXPECT_EQ(files("novcd"), (std::set<std::string>{"summary.json", "timeseries.csv", "flows.csv"}));
  // A group list alone implies --vcd.
  ASSERT_EQ(run("groups", cat({"--impl", "rtl", "--vcd-signals", "pfc"}, kShort)).code, 0);
  EXPECT_EQ(files("groups").count("rtl_unit.fst"), 1u);
}

TEST_F(RtlWave, NetworkWritesOneFstPerSwitch) {
  const Result r = run_mmusim({"run", "--quiet", "--impl", "rtl", "--vcd", "--out", m_dir + "/net",
                               std::string(MMUSIM_SOURCE_DIR) + "/scenarios/incast_cascade.json"});
  ASSERT_EQ(r.code, 0) << r.out;
  const json s = json::parse(slurp(m_dir + "/net/summary.json"));
  ASSERT_GT(s["switches"].size(), 1u);
  std::set<std::string> fst;
  for (const auto& f : files("net"))
    if (f.size() > 4 && f.compare(f.size() - 4, 4, ".fst") == 0) fst.insert(f);
  std::set<std::string> want;
  for (const auto& sw : s["switches"]) {
    const std::string name = "rtl_unit_" + sw["name"].get<std::string>() + ".fst";
    want.insert(name);
    const test::FstFile f = test::read_fst(m_dir + "/net/" + name, {"req_valid_i"});
    ASSERT_TRUE(f.ok) << name;
    uint64_t req = 0;
    for (const auto& c : f.changes) req += c.bits == "1";
    // Each switch's unit decided that switch's packets.
    EXPECT_EQ(req, sw["packets"]["received"].get<uint64_t>()) << name;
  }
  EXPECT_EQ(fst, want);
}

TEST_F(RtlWave, FstThatCannotBeCreatedIsAnError) {
  // rtl_unit.fst is a directory with a file in it: neither removable nor replaceable.
  fs::create_directories(m_dir + "/bad/rtl_unit.fst");
  std::ofstream(m_dir + "/bad/rtl_unit.fst/x") << "x";
  const Result r = run("bad", cat({"--impl", "rtl", "--vcd"}, kShort));
  expect_error(r, 1, {"rtl_unit.fst"});
  EXPECT_FALSE(fs::exists(m_dir + "/bad/summary.json"));
}

TEST_F(RtlWave, FailedWriteNamesTheFstAndLeavesNothing) {
  // Room for every other output (counters.vcd ~0.7 MB), not for the unit's ~5 MB FST. The
  // FST's header is written last at its start, so a file cut anywhere can look whole there:
  // several cuts, one of which (2 MiB) once passed the read-back.
  for (long limit : {3L << 19, 2L << 20, 5L << 19, 3L << 20}) {
    ASSERT_EQ(run("full", kShort).code, 0);  // a previous complete run in the same directory
    const Result r = run("full", cat({"--impl", "rtl", "--vcd"}, kShort), limit);
    expect_error(r, 1, {"full/rtl_unit.fst", "write failed"});
    EXPECT_EQ(files("full"), std::set<std::string>{}) << "left behind after a failed write, limit " << limit;
  }
}

}  // namespace
