// Outputs are complete or absent: through the real binary, a failed write (a file size
// limit, which fails writes with EFBIG as a full disk fails them with ENOSPC), a killed
// run, a bad --out and an uncreatable VCD each leave no summary.json and no half set.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli_harness.h"

namespace {

namespace fs = std::filesystem;
using cli_harness::expect_error;
using cli_harness::Result;
using cli_harness::run_mmusim;

// The default scenario cut to 300 us: ~45 kB of timeseries.csv, no PFC frame yet.
const std::vector<std::string> kShort = {"--set", "duration_us=300", "--set", "measure.start_us=0",
                                         "--set", "measure.end_us=300"};
// The whole default scenario (128 PFC frames) with one timeseries row per ms.
const std::vector<std::string> kFewRows = {"--set", "output.sample_interval_ns=1000000"};

class RunOutputs : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/mmusim_outputs_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    m_dir = tmpl;
    m_out = m_dir + "/out";
  }
  void TearDown() override { fs::remove_all(m_dir); }

  Result run(std::vector<std::string> extra, long fsize_limit = -1) {
    std::vector<std::string> args = {"run", "--quiet", "--out", m_out};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_mmusim(args, {false, fsize_limit});
  }
  std::set<std::string> files() const {
    std::set<std::string> s;
    if (fs::exists(m_out))
      for (const auto& e : fs::directory_iterator(m_out)) s.insert(e.path().filename().string());
    return s;
  }
  static std::vector<std::string> cat(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }

  std::string m_dir, m_out;
};

TEST_F(RunOutputs, CompleteRunLeavesExactlyItsFiles) {
  const Result r = run(cat({"--pcap", "--vcd"}, kShort));
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(files(), (std::set<std::string>{"summary.json", "timeseries.csv", "flows.csv", "pfc.pcap",
                                            "counters.vcd"}));
  // A run without --pcap/--vcd removes the earlier run's: the directory holds one run.
  ASSERT_EQ(run(kShort).code, 0);
  EXPECT_EQ(files(), (std::set<std::string>{"summary.json", "timeseries.csv", "flows.csv"}));
}

// Each case fails a different file: streamed during the run (timeseries, pcap), written
// by SystemC (VCD) or written at the end (flows.csv). The run must name the file, exit 1
// and leave nothing: no summary.json, no temporary file.
struct FullDiskCase {
  const char* file;
  const char* why;  // SystemC's VCD writer keeps errno to itself
  long limit;
  std::vector<std::string> args;
};

TEST_F(RunOutputs, FailedWriteNamesFileAndLeavesNothing) {
  const std::vector<FullDiskCase> cases = {
      {"timeseries.csv", "File too large", 4096, kShort},
      {"pfc.pcap", "File too large", 8192, cat({"--pcap"}, kFewRows)},
      {"counters.vcd", "lost the end of the file", 65536, cat({"--vcd"}, kShort)},
      {"flows.csv", "File too large", 6000, kFewRows},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    ASSERT_EQ(run(kShort).code, 0);  // a previous complete run in the same directory
    const Result r = run(c.args, c.limit);
    expect_error(r, 1, {std::string("out/") + c.file, c.why});
    EXPECT_EQ(r.out.find("model error"), std::string::npos);
    EXPECT_EQ(files(), std::set<std::string>{}) << "left behind after a failed write";
  }
}

TEST_F(RunOutputs, KilledRunLeavesNoHalfSet) {
  ASSERT_EQ(run(kShort).code, 0);
  ASSERT_TRUE(fs::exists(m_out + "/summary.json"));
  // ~50 s of wall time: killed long before it ends.
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    alarm(120);
    execl(MMUSIM_BIN, MMUSIM_BIN, "run", "--quiet", "--out", m_out.c_str(), "--set", "duration_us=100000",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  bool writing = false;
  for (int i = 0; i < 600 && !writing; ++i) {
    for (const auto& f : files()) writing |= f.rfind(".partial-", 0) == 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(writing) << "the run never started writing";
  ASSERT_TRUE(WIFSIGNALED(status)) << "the run ended before it was killed";
  // Only the killed run's temporary files: the previous set went when it started, and
  // none of its own files was renamed into place.
  for (const auto& f : files()) EXPECT_EQ(f.rfind(".partial-", 0), 0u) << f;
  EXPECT_FALSE(fs::exists(m_out + "/summary.json"));
  // The next run clears the dead run's temporary files.
  ASSERT_EQ(run(kShort).code, 0);
  EXPECT_EQ(files(), (std::set<std::string>{"summary.json", "timeseries.csv", "flows.csv"}));
}

TEST_F(RunOutputs, EmptyOutIsAnError) {
  const Result r = run_mmusim({"run", "--quiet", "--out", ""});
  expect_error(r, 1, {"--out", "must name a directory"});
}

TEST_F(RunOutputs, OutNamingAFileIsAnError) {
  std::ofstream(m_dir + "/file") << "keep me\n";
  const Result r = run_mmusim({"run", "--quiet", "--out", m_dir + "/file"});
  expect_error(r, 1, {"--out '" + m_dir + "/file'"});
  std::ifstream in(m_dir + "/file");
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "keep me");
}

TEST_F(RunOutputs, OutNotWritableIsAnError) {
  // An existing directory no one can create files in, root included.
  expect_error(run_mmusim({"run", "--quiet", "--out", "/proc/self"}), 1, {"--out '/proc/self'", "cannot create files"});
}

TEST_F(RunOutputs, CompareChecksItsOutTooBeforeRunning) {
  // It used to die by an uncaught std::filesystem exception.
  expect_error(run_mmusim({"compare", "--out", ""}), 1, {"--out", "must name a directory"});
  expect_error(run_mmusim({"compare", "--out", "/proc/self/no/such"}), 1, {"--out '/proc/self/no/such'"});
}

TEST_F(RunOutputs, VcdThatCannotBeCreatedIsAnErrorNotASignal) {
  // counters.vcd is a directory with a file in it: neither removable nor replaceable.
  fs::create_directories(m_out + "/counters.vcd");
  std::ofstream(m_out + "/counters.vcd/x") << "x";
  const Result r = run(cat({"--vcd"}, kShort));
  expect_error(r, 1, {"counters.vcd"});
  EXPECT_FALSE(fs::exists(m_out + "/summary.json"));
  EXPECT_FALSE(fs::exists(m_out + "/timeseries.csv"));
}

}  // namespace
