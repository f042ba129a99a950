// The JSON reader's limits and the input-file checks through the real mmusim binary
// (docs/configuration.md, "Limits"): numbers beyond a double, nesting deeper than 64
// levels (in a file and through --set), the seed's range, empty or malformed SONiC
// priority lists, and scenario files that are not regular files or are too large. Each is
// exit 1 (2 for a bad command-line option) with one message on stderr naming the field
// or the argument, nothing on stdout, never a crash or a hang.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.h"

namespace {

using cli_harness::expect_error;
using cli_harness::Result;
using cli_harness::run_mmusim;
using nlohmann::json;

class ParserLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/mmusim_limits_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    m_dir = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }

  json base() const {
    std::ifstream in(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/default.json");
    return json::parse(in);
  }
  // Writes `text` verbatim as the scenario file.
  std::string write(const std::string& text) const {
    const std::string path = m_dir + "/scenario.json";
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  // The default scenario with `key` (top level) holding the raw JSON `value` text.
  std::string with_raw(const std::string& key, const std::string& value) const {
    json j = base();
    j[key] = "@@";
    std::string text = j.dump(1);
    text.replace(text.find("\"@@\""), 4, value);
    return write(text);
  }
  // A bad-input failure: exit `code`, every needle on stderr, nothing on stdout.
  static void expect_stderr(const Result& r, int code, std::initializer_list<std::string> needles) {
    expect_error(r, code, {});
    SCOPED_TRACE("stderr:\n" + r.err + "\nstdout:\n" + r.out);
    EXPECT_EQ(r.out, "");
    EXPECT_LT(r.err.size(), 1000u) << "the message must not grow with the input";
    for (const auto& n : needles) EXPECT_NE(r.err.find(n), std::string::npos) << "missing on stderr: " << n;
  }
  Result check(const std::string& path, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"check", path};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_mmusim(args, {true});
  }

  std::string m_dir;
};

// ---- numbers beyond a double -----------------------------------------------------------

TEST_F(ParserLimits, NumberOverflowInFileNamesFieldAndPosition) {
  for (const char* v : {"1e400", "-1e400", "1E+999"}) {
    SCOPED_TRACE(v);
    const std::string path = with_raw("duration_us", v);
    expect_stderr(check(path), 1, {"scenario.json:", "duration_us: number", v, "out of range"});
    // `run` reads the same way: no SystemC "uncaught exception" on stdout.
    expect_stderr(run_mmusim({"run", path, "--out", m_dir + "/out"}, {true}), 1, {"duration_us", "out of range"});
  }
}

TEST_F(ParserLimits, NumberOverflowNestedNamesThePath) {
  json j = base();
  j["traffic"][1]["rate_gbps"] = "@@";
  std::string text = j.dump(1);
  text.replace(text.find("\"@@\""), 4, "1e999");
  expect_stderr(check(write(text)), 1, {"traffic[1].rate_gbps: number 1e999 is out of range"});
}

TEST_F(ParserLimits, HugeIntegerIsARangeErrorNotAWrap) {
  expect_stderr(check(with_raw("seed", "123456789012345678901234567890")), 1, {"seed: must be in [0, 2305843009213693951]"});
}

TEST_F(ParserLimits, NumberOverflowThroughSetNamesTheArgument) {
  expect_stderr(check(write(base().dump()), {"--set", "duration_us=1e400"}), 1,
                {"--set 'duration_us=1e400'", "duration_us: number 1e400 is out of range"});
  expect_stderr(check(write(base().dump()), {"--set", "traffic.0.burst_bytes=[1, -1e400]"}), 1,
                {"traffic.0.burst_bytes[1]: number -1e400"});
}

// ---- nesting ---------------------------------------------------------------------------

std::string nested(int depth) { return std::string(size_t(depth), '[') + std::string(size_t(depth), ']'); }

TEST_F(ParserLimits, NestingDeeperThan64LevelsInFile) {
  // The top-level object is level 1: 63 arrays under a key reach 64 and pass the scan (the
  // loader then rejects the unknown key); 64 arrays are one too many.
  expect_stderr(check(with_raw("deep", nested(63))), 1, {"deep: unknown key"});
  expect_stderr(check(with_raw("deep", nested(64))), 1, {"scenario.json:", "deep", "nested deeper than 64 levels"});
  expect_stderr(check(with_raw("deep", nested(100000))), 1, {"nested deeper than 64 levels"});
}

TEST_F(ParserLimits, NestingThroughSetValueAndPath) {
  const std::string sc = write(base().dump());
  // 60 000 levels overflowed the stack in nlohmann's recursive copy.
  expect_stderr(check(sc, {"--set", "x=" + nested(60000)}), 1, {"--set 'x=[[[", "nested deeper than 63 levels"});
  std::string path = "a";
  for (int i = 0; i < 100; ++i) path += ".a";
  expect_stderr(check(sc, {"--set", path + "=1"}), 1, {"key path deeper than 63 levels"});
  // The path's levels count: 2 in the path leave 62 for the value.
  expect_stderr(check(sc, {"--set", "a.b=" + nested(63)}), 1, {"a.b", "nested deeper than 62 levels"});
  expect_stderr(check(sc, {"--set", "a.b=" + nested(62)}), 1, {"a: unknown key"});
}

// ---- seed ------------------------------------------------------------------------------

TEST_F(ParserLimits, SeedRangeIsExactInFileSetAndCommandLine) {
  // 2^61 - 1 is the largest seed; 2^61 rounds to it in a double and used to pass.
  json j = base();
  j["seed"] = 2305843009213693951ull;
  const Result ok = check(write(j.dump()));
  EXPECT_EQ(ok.code, 0) << ok.err;
  j["seed"] = 2305843009213693952ull;
  expect_stderr(check(write(j.dump())), 1, {"seed: must be in [0, 2305843009213693951], got 2305843009213693952"});
  j["seed"] = "2305843009213693952";  // SONiC-style string
  expect_stderr(check(write(j.dump())), 1, {"seed: must be in [0, 2305843009213693951], got 2305843009213693952"});
  const std::string sc = write(base().dump());
  expect_stderr(check(sc, {"--set", "seed=2305843009213693952"}), 1, {"seed: must be in"});
  expect_stderr(run_mmusim({"run", sc, "--seed", "2305843009213693952", "--out", m_dir + "/out"}, {true}), 2,
                {"--seed", "2305843009213693951"});
  EXPECT_FALSE(std::filesystem::exists(m_dir + "/out"));
}

// ---- SONiC priority lists ----------------------------------------------------------------

TEST_F(ParserLimits, EmptyOrMalformedPriorityListsNameTheKey) {
  struct Case {
    const char* table;
    const char* key;
    const char* needle;
  };
  for (const Case& c : {Case{"BUFFER_PG", "Ethernet0|", "empty priority list"},
                        Case{"BUFFER_QUEUE", "Ethernet0|", "empty priority list"},
                        Case{"BUFFER_PG", "Ethernet0|3,", "not a priority list"},
                        Case{"BUFFER_PG", "Ethernet0|3-", "not a priority list"},
                        Case{"BUFFER_PG", "Ethernet0|,3", "not a priority list"},
                        Case{"BUFFER_QUEUE", "Ethernet0|0--2", "not a priority list"},
                        Case{"BUFFER_PG", "Ethernet0,|3", "unknown port ''"}}) {
    SCOPED_TRACE(c.key);
    json j = base();
    j["buffer"][c.table][c.key] = {{"profile", c.table == std::string("BUFFER_PG") ? "ingress_lossy_profile"
                                                                                    : "egress_lossy_profile"}};
    expect_stderr(check(write(j.dump())), 1, {std::string("buffer.") + c.table + "." + c.key + ": ", c.needle});
  }
}

// ---- the scenario file itself -----------------------------------------------------------

TEST_F(ParserLimits, ScenarioMustBeARegularFile) {
  const std::string fifo = m_dir + "/fifo.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // No writer ever opens the FIFO: reading it would block until the harness's alarm.
  expect_stderr(check(fifo), 1, {"fifo.json: scenario file must be a regular file, this is a FIFO"});
  expect_stderr(check("/dev/zero"), 1, {"/dev/zero: scenario file must be a regular file, this is a character device"});
  expect_stderr(run_mmusim({"check", m_dir}, {true}), 2, {"directory"});
}

TEST_F(ParserLimits, ScenarioLargerThan16MiB) {
  std::string text = base().dump();
  text.insert(text.size() - 1, ",\"pad\":\"" + std::string(16u << 20, 'x') + "\"");
  expect_stderr(check(write(text)), 1, {"scenario.json: scenario file larger than 16777216 bytes"});
}

TEST_F(ParserLimits, LongMalformedTokenIsClippedInTheMessage) {
  expect_stderr(check(write("{\"name\": \"" + std::string(1 << 20, 'y') + "\x01\"}")), 1, {"malformed JSON"});
}

}  // namespace
