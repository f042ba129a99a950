// CheckedFile, PcapWriter and OutputDir against real failures: /dev/full fails every
// write with ENOSPC, as a full disk does.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "output/checked_file.h"
#include "output/output_dir.h"
#include "output/pcap_writer.h"

namespace {

namespace fs = std::filesystem;
using mmusim::CheckedFile;
using mmusim::OutputDir;
using mmusim::OutputError;
using mmusim::PcapWriter;

class OutputFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/mmusim_outfiles_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    m_dir = tmpl;
  }
  void TearDown() override { fs::remove_all(m_dir); }
  std::set<std::string> files() const {
    std::set<std::string> s;
    for (const auto& e : fs::directory_iterator(m_dir)) s.insert(e.path().filename().string());
    return s;
  }
  static std::string read(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  // The message of the OutputError `f` throws, or "" if it throws none.
  template <class F>
  static std::string error_of(F f) {
    try {
      f();
    } catch (const OutputError& e) {
      return e.what();
    }
    return "";
  }

  std::string m_dir;
};

TEST_F(OutputFiles, WritesAndClosesARegularFile) {
  const std::string path = m_dir + "/a.csv";
  CheckedFile f(path);
  for (int i = 0; i < 100000; ++i) f << i << '\n';  // past the 64 KiB buffer many times
  f.close();
  EXPECT_FALSE(f.failed());
  std::string expect;
  for (int i = 0; i < 100000; ++i) expect += std::to_string(i) + "\n";
  EXPECT_EQ(read(path), expect);
}

TEST_F(OutputFiles, FullDeviceFailsAtTheFirstFlushAndAtClose) {
  int calls = 0;
  CheckedFile f("/dev/full", "the-name");
  f.on_error([&] { ++calls; });
  f << "small";  // buffered: nothing has failed yet
  EXPECT_FALSE(f.failed());
  const std::string chunk(1 << 17, 'x');
  f << chunk << chunk;  // forces writes
  EXPECT_TRUE(f.failed());
  EXPECT_FALSE(f.good());  // later output is dropped, not retried
  EXPECT_EQ(calls, 1);
  const std::string e = error_of([&] { f.close(); });
  EXPECT_NE(e.find("the-name"), std::string::npos) << e;
  EXPECT_NE(e.find("No space left on device"), std::string::npos) << e;
  EXPECT_EQ(calls, 1);
}

TEST_F(OutputFiles, FullDeviceFailsAtCloseWhenEverythingWasBuffered) {
  CheckedFile f("/dev/full");
  f << "fits in the buffer\n";
  EXPECT_NE(error_of([&] { f.close(); }).find("/dev/full"), std::string::npos);
}

TEST_F(OutputFiles, UncreatableFileNamesIt) {
  const std::string e = error_of([&] { CheckedFile f(m_dir + "/no/such/dir.csv", "shown.csv"); });
  EXPECT_NE(e.find("shown.csv: cannot create"), std::string::npos) << e;
}

TEST_F(OutputFiles, PcapOnAFullDeviceFailsAtClose) {
  PcapWriter w("/dev/full");
  const uint8_t frame[64] = {};
  w.write(0, frame, sizeof frame);  // stdio-buffered
  const std::string e = error_of([&] { w.close(); });
  EXPECT_NE(e.find("/dev/full"), std::string::npos) << e;
  EXPECT_NE(e.find("No space left on device"), std::string::npos) << e;
}

TEST_F(OutputFiles, PcapFailsDuringTheRunOnceTheBufferSpills) {
  PcapWriter w("/dev/full");
  int calls = 0;
  w.on_error([&] { ++calls; });
  const uint8_t frame[64] = {};
  for (int i = 0; i < 1000 && !w.failed(); ++i) w.write(uint64_t(i), frame, sizeof frame);
  EXPECT_TRUE(w.failed());
  EXPECT_EQ(calls, 1);
  EXPECT_THROW(w.close(), OutputError);
}

TEST_F(OutputFiles, AtomicWriteLeavesNoTemporaryOnFailure) {
  mmusim::write_file_atomic(m_dir + "/x.csv", "a,b\n");
  EXPECT_EQ(read(m_dir + "/x.csv"), "a,b\n");
  fs::create_directories(m_dir + "/dir.csv/inside");  // rename onto a non-empty directory fails
  EXPECT_NE(error_of([&] { mmusim::write_file_atomic(m_dir + "/dir.csv", "z"); }).find("dir.csv"), std::string::npos);
  EXPECT_EQ(files(), (std::set<std::string>{"x.csv", "dir.csv"}));
}

TEST_F(OutputFiles, CommitRenamesEverythingIntoPlace) {
  {
    OutputDir out(m_dir, "--out");
    out.open("summary.json") << "{}\n";
    out.open("flows.csv") << "id\n";
    std::ofstream(out.external("pfc.pcap")) << "pcap";
    for (const auto& f : files()) EXPECT_EQ(f.rfind(".partial-", 0), 0u) << f;
    out.commit();
  }
  EXPECT_EQ(files(), (std::set<std::string>{"summary.json", "flows.csv", "pfc.pcap"}));
  EXPECT_EQ(read(m_dir + "/flows.csv"), "id\n");
  EXPECT_EQ(read(m_dir + "/pfc.pcap"), "pcap");
}

TEST_F(OutputFiles, WithoutCommitNothingIsLeft) {
  {
    OutputDir out(m_dir, "--out");
    out.open("timeseries.csv") << "t\n";
    std::ofstream(out.external("counters.vcd")) << "vcd";
  }
  EXPECT_EQ(files(), std::set<std::string>{});
}

TEST_F(OutputFiles, FailedCloseRenamesNothing) {
  OutputDir out(m_dir, "--out");
  out.open("flows.csv") << "id\n";
  std::ofstream(out.external("pfc.pcap")) << "pcap";
  fs::remove(out.external_path("pfc.pcap"));  // the external file went missing: cannot sync
  EXPECT_NE(error_of([&] { out.commit(); }).find("pfc.pcap"), std::string::npos);
  for (const auto& f : files()) EXPECT_EQ(f.rfind(".partial-", 0), 0u) << f;
}

TEST_F(OutputFiles, StartRemovesThePreviousRunAndDeadTemporaries) {
  for (const char* f : {"summary.json", "flows.csv", "timeseries.csv", "timeseries_leaf0.csv", "bfc_queues.csv",
                        "pfc.pcap", "counters.vcd", "rtl_mismatch.fst", "notes.txt", "plot.png"})
    std::ofstream(m_dir + "/" + f) << "old";
  // pid 1 never dies and 999999999 is above any Linux pid_max (2^22): a live and a dead writer.
  const std::string live = ".partial-1.timeseries.csv", dead = ".partial-999999999.timeseries.csv";
  std::ofstream(m_dir + "/" + live) << "x";
  std::ofstream(m_dir + "/" + dead) << "x";
  OutputDir out(m_dir, "--out");
  EXPECT_EQ(files(), (std::set<std::string>{"notes.txt", "plot.png", live}));
}

TEST_F(OutputFiles, BadDirectoriesAreRefusedBeforeAnythingIsWritten) {
  EXPECT_NE(error_of([] { OutputDir("", "--out"); }).find("--out: must name a directory"), std::string::npos);
  std::ofstream(m_dir + "/file") << "x";
  EXPECT_NE(error_of([&] { OutputDir(m_dir + "/file", "--out"); }).find("--out '" + m_dir + "/file'"),
            std::string::npos);
  EXPECT_NE(error_of([] { OutputDir("/proc/self", "--out"); }).find("cannot create files"), std::string::npos);
  OutputDir created(m_dir + "/new/sub", "--out");
  EXPECT_TRUE(fs::is_directory(m_dir + "/new/sub"));
}

}  // namespace
