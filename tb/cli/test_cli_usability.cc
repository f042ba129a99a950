// What a new user reads first: the summary table and summary.json's identification.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_harness.h"

namespace {

std::string temp_dir() {
  char tmpl[] = "/tmp/mmusim-cli-XXXXXX";
  return mkdtemp(tmpl);
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// The default scenario's background flows (14, ~MBs each) cannot finish in 1.5 ms: the
// table shows no FCT for them instead of 0.00 and says how many flows did not finish.
TEST(Report, UnfinishedFlowsShowNoFctAndAreCounted) {
  const std::string dir = temp_dir();
  const auto r = cli_harness::run_mmusim({"run", "--out", dir});
  ASSERT_EQ(r.code, 0) << r.out;
  const auto s = read_json(dir + "/summary.json");
  uint64_t unfinished = 0;
  for (const auto& [name, g] : s["generators"].items()) {
    const uint64_t flows = g["flows"], done = g["completed"];
    unfinished += flows - done;
    const std::string row_start = "  " + name;
    const size_t at = r.out.find(row_start);
    ASSERT_NE(at, std::string::npos) << name;
    const std::string row = r.out.substr(at, r.out.find('\n', at) - at);
    if (done == 0) {
      EXPECT_NE(row.find("–"), std::string::npos) << row;
      EXPECT_EQ(row.find("0.00"), std::string::npos) << row;
    } else {
      EXPECT_EQ(row.find("–"), std::string::npos) << row;
    }
  }
  ASSERT_GT(unfinished, 0u) << "the default scenario's background should not finish";
  EXPECT_NE(r.out.find(std::to_string(unfinished) + " flows unfinished"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(Summary, NamesTheImplementation) {
  const std::string dir = temp_dir();
  const auto r = cli_harness::run_mmusim({"run", "--quiet", "--out", dir, "--set", "duration_us=200",
                                          "--set", "measure.end_us=200"});
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(read_json(dir + "/summary.json")["impl"], "cpp");
  std::filesystem::remove_all(dir);
}

TEST(Cli, VersionPrintsTheProjectVersion) {
  const auto r = cli_harness::run_mmusim({"--version"});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, std::string("mmusim ") + MMUSIM_VERSION + "\n");
}

TEST(Cli, UnknownCommandIsNamed) {
  const auto r = cli_harness::run_mmusim({"bogus"});
  cli_harness::expect_error(r, 2, {"unknown command 'bogus'", "run, check, compare"});
  EXPECT_EQ(r.out.find("A subcommand is required"), std::string::npos) << r.out;
}

// Every registered policy is listed in --policy's help and accepted; others are refused.
TEST(Cli, PolicyHelpListsTheChoices) {
  const auto h = cli_harness::run_mmusim({"run", "--help"});
  ASSERT_EQ(h.code, 0) << h.out;
  for (const char* p : {"dt", "static", "sih", "abm", "reverie", "dsh"})
    EXPECT_NE(h.out.find(std::string(p) + (std::string(p) == "dsh" ? "" : ",")), std::string::npos) << p << h.out;
  cli_harness::expect_error(cli_harness::run_mmusim({"run", "--policy", "fifo", "--out", "/tmp/x"}), 2,
                            {"--policy", "fifo"});
}

TEST(Cli, CompareHelpShowsNoPlotWithoutADefault) {
  const auto h = cli_harness::run_mmusim({"compare", "--help"});
  ASSERT_EQ(h.code, 0) << h.out;
  EXPECT_NE(h.out.find("--no-plot"), std::string::npos) << h.out;
  EXPECT_EQ(h.out.find("{false}"), std::string::npos) << h.out;
}

}  // namespace
