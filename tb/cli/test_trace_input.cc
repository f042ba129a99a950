// The "trace" generator through the real mmusim binary (docs/traces.md): a good trace
// runs and its flows appear in flows.csv with their 5-tuples; every bad trace is exit 1
// with a message naming the file, the line and the column, never a crash.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.h"

namespace {

using cli_harness::expect_error;
using cli_harness::Result;
using cli_harness::run_mmusim;
using nlohmann::json;

constexpr const char* kHead = "# mmusim-trace 1\nstart_ns,src,dst,bytes,dscp,pcp,src_port,dst_port,proto\n";

class TraceInput : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/mmusim_trace_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    m_dir = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }

  // Writes `text` as trace.csv and a default scenario whose only generator reads it.
  std::string scenario(const std::string& text, const std::string& file = "") {
    m_trace = m_dir + "/trace.csv";
    std::ofstream(m_trace) << text;
    std::ifstream in(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/default.json");
    json j = json::parse(in);
    j["duration_us"] = 200;
    j["measure"] = {{"start_us", 0}, {"end_us", 200}};
    j["traffic"] = json::array({{{"type", "trace"}, {"name", "replay"}, {"file", file.empty() ? m_trace : file}}});
    const std::string path = m_dir + "/scenario.json";
    std::ofstream(path) << j.dump(1);
    return path;
  }
  Result check(const std::string& text) { return run_mmusim({"check", scenario(text)}); }

  std::string m_dir, m_trace;
};

TEST_F(TraceInput, GoodTraceRunsAndKeepsFiveTuples) {
  const std::string sc = scenario(std::string(kHead) +
                                  "# comment lines and blank lines are skipped\n\n"
                                  "1000.5,1,0,3000,3,-1,1234,4791,17\n"
                                  "2000,2,0,1500,0,-1,5555,80,6\n"
                                  "2000,3,4,64,24,5,7,9,17\n");
  const Result r = run_mmusim({"run", sc, "--quiet", "--out", m_dir + "/out"});
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream f(m_dir + "/out/flows.csv");
  std::string header, line;
  std::getline(f, header);
  std::vector<std::string> rows;
  while (std::getline(f, line)) rows.push_back(line);
  ASSERT_EQ(rows.size(), 3u);
  // id,generator,src,dst,src_ip,dst_ip,src_port,dst_port,proto,prio,bytes,start_ns,...
  EXPECT_EQ(rows[0].rfind("0,replay,h1,h0,10.0.0.2,10.0.0.1,1234,4791,17,3,3000,1000.500,", 0), 0u) << rows[0];
  EXPECT_EQ(rows[1].rfind("1,replay,h2,h0,10.0.0.3,10.0.0.1,5555,80,6,", 0), 0u) << rows[1];
  // PCP 5 through the default port's dot1p map (none: TC = PCP).
  EXPECT_EQ(rows[2].find("2,replay,h3,h4,10.0.0.4,10.0.0.5,7,9,17,"), 0u) << rows[2];
}

TEST_F(TraceInput, MissingFileIsAClearError) {
  expect_error(run_mmusim({"check", scenario("", m_dir + "/nope.csv")}), 1,
               {"traffic[0].file", "nope.csv", "cannot open trace file"});
}

TEST_F(TraceInput, WrongVersionLine) {
  expect_error(check("# mmusim-trace 2\n"), 1, {"trace.csv:1", "version line"});
}

TEST_F(TraceInput, WrongHeader) {
  expect_error(check("# mmusim-trace 1\nstart,src,dst\n"), 1, {"trace.csv:2", "expected the header"});
}

TEST_F(TraceInput, WrongFieldCountNamesTheLine) {
  expect_error(check(std::string(kHead) + "0,1,0,100,3,-1,1,2,17\n0,1,0,100\n"), 1,
               {"trace.csv:4", "4 fields, expected 9"});
}

TEST_F(TraceInput, HostOutOfRange) {
  expect_error(check(std::string(kHead) + "0,1,32,100,3,-1,1,2,17\n"), 1,
               {"trace.csv:3", "dst", "out of range [0, 31]"});
}

TEST_F(TraceInput, SelfSend) {
  expect_error(check(std::string(kHead) + "0,5,5,100,3,-1,1,2,17\n"), 1, {"trace.csv:3", "would send to itself"});
}

TEST_F(TraceInput, BadNumbersNameTheColumn) {
  struct Case {
    const char* line;
    const char* needle;
  };
  for (const Case& c : {Case{"x,1,0,100,3,-1,1,2,17", "start_ns: 'x'"}, Case{"-5,1,0,100,3,-1,1,2,17", "start_ns: '-5'"},
                        Case{"0,1,0,0,3,-1,1,2,17", "bytes: 0 out of range"},
                        Case{"0,1,0,1.5,3,-1,1,2,17", "bytes: '1.5' is not an integer"},
                        Case{"0,1,0,100,64,-1,1,2,17", "dscp: 64 out of range [0, 63]"},
                        Case{"0,1,0,100,3,8,1,2,17", "pcp: 8 out of range [-1, 7]"},
                        Case{"0,1,0,100,3,-1,65536,2,17", "src_port: 65536"},
                        Case{"0,1,0,100,3,-1,1,2,256", "proto: 256"},
                        Case{"0,1,0,100,3,-1,1, 2,17", "dst_port: ' 2'"}}) {
    SCOPED_TRACE(c.line);
    expect_error(check(std::string(kHead) + c.line + "\n"), 1, {"trace.csv:3", c.needle});
  }
}

TEST_F(TraceInput, OutOfOrderStart) {
  expect_error(check(std::string(kHead) + "500,1,0,100,3,-1,1,2,17\n400,2,0,100,3,-1,1,2,17\n"), 1,
               {"trace.csv:4", "start_ns", "before the previous flow"});
}

TEST_F(TraceInput, UnknownGeneratorKey) {
  const std::string sc = scenario(kHead);
  std::ifstream in(sc);
  json j = json::parse(in);
  j["traffic"][0]["bogus"] = 1;
  std::ofstream(sc) << j.dump();
  expect_error(run_mmusim({"check", sc}), 1, {"traffic[0].bogus", "unknown key"});
}

TEST_F(TraceInput, NulByteInAFieldNamesLineAndColumn) {
  // strtoll stopped at the NUL: "15\0 00" was read as 15 bytes.
  expect_error(check(std::string(kHead) + "0,1,0,15" + std::string(1, '\0') + " 00,3,-1,1,2,17\n"), 1,
               {"trace.csv:3:9: NUL byte"});
}

TEST_F(TraceInput, LineLongerThanTheLimit) {
  // A comment line counts too: a file without newlines must not be read as one endless line.
  expect_error(check(std::string(kHead) + "0,1,0,100,3,-1,1,2,17\n#" + std::string(4096, 'x') + "\n"), 1,
               {"trace.csv:4: line longer than 4096 bytes"});
  const Result ok = check(std::string(kHead) + "#" + std::string(4095, 'x') + "\n0,1,0,100,3,-1,1,2,17\n");
  EXPECT_EQ(ok.code, 0) << ok.out;
}

TEST_F(TraceInput, TraceMustBeARegularFile) {
  const std::string fifo = m_dir + "/fifo.csv";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // Neither blocks: a FIFO without a writer, a device without an end.
  expect_error(run_mmusim({"check", scenario("", fifo)}), 1,
               {"traffic[0].file", "fifo.csv: trace file must be a regular file, this is a FIFO"});
  expect_error(run_mmusim({"check", scenario("", "/dev/zero")}), 1,
               {"/dev/zero: trace file must be a regular file, this is a character device"});
  expect_error(run_mmusim({"check", scenario("", m_dir)}), 1, {"trace file must be a regular file, this is a directory"});
}

}  // namespace
