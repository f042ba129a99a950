#include "output/output_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>

namespace mmusim {
namespace {

constexpr const char* kTempPrefix = ".partial-";

bool starts_with(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }
bool ends_with(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

// The pid in ".partial-<pid>.<name>", 0 if `name` is not such a file.
pid_t temp_owner(const std::string& name) {
  if (!starts_with(name, kTempPrefix)) return 0;
  const size_t b = std::char_traits<char>::length(kTempPrefix), dot = name.find('.', b);
  if (dot == std::string::npos || dot == b || dot - b > 9) return 0;
  const std::string digits = name.substr(b, dot - b);
  if (!std::all_of(digits.begin(), digits.end(), ::isdigit)) return 0;
  return pid_t(std::stol(digits));
}

void fsync_path(const std::string& path, const std::string& name, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) throw_output_error(name, "cannot open to sync", errno);
  const int rc = ::fsync(fd) == 0 || errno == EINVAL ? 0 : errno;
  ::close(fd);
  if (rc) throw_output_error(name, "sync failed", rc);
}

}  // namespace

bool OutputDir::is_output(const std::string& n) {
  for (const char* f : {"summary.json", "flows.csv", "timeseries.csv", "bfc_queues.csv", "pfc.pcap", "counters.vcd",
                        "rtl_mismatch.fst", "rtl_unit.fst"})
    if (n == f) return true;
  return (starts_with(n, "timeseries_") && ends_with(n, ".csv")) ||
         (starts_with(n, "bfc_queues_") && ends_with(n, ".csv")) ||
         (starts_with(n, "rtl_mismatch_") && ends_with(n, ".fst")) ||
         (starts_with(n, "rtl_unit_") && ends_with(n, ".fst"));
}

void OutputDir::prepare(const std::string& dir, const std::string& option) {
  const std::string what = option + " '" + dir + "'";
  if (dir.empty()) throw OutputError(option + ": must name a directory, got ''");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw OutputError(what + ": cannot create: " + ec.message());
  if (!std::filesystem::is_directory(dir, ec)) throw OutputError(what + ": not a directory");
  // Writable: create (and remove) a file the way every output will be created.
  const std::string probe = dir + "/" + kTempPrefix + std::to_string(getpid()) + ".probe";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw_output_error(what, "cannot create files in it", errno);
  ::close(fd);
  ::unlink(probe.c_str());
}

OutputDir::OutputDir(std::string dir, const std::string& option) : m_dir(std::move(dir)) {
  prepare(m_dir, option);
  remove_stale(option + " '" + m_dir + "'");
}

void OutputDir::remove_stale(const std::string& what) {
  std::vector<std::string> outputs, temps;
  DIR* d = ::opendir(m_dir.c_str());
  if (!d) throw_output_error(what, "cannot list", errno);
  while (const dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    const pid_t owner = temp_owner(n);
    // A temporary file whose writer has gone (killed or crashed).
    if (owner && owner != getpid() && ::kill(owner, 0) != 0 && errno == ESRCH) temps.push_back(n);
    else if (is_output(n)) outputs.push_back(n);
  }
  ::closedir(d);
  // The completion marker goes first: a set without it is visibly incomplete.
  std::stable_partition(outputs.begin(), outputs.end(), [](const std::string& n) { return n == kMarker; });
  for (const auto& n : outputs) {
    std::error_code ec;
    std::filesystem::remove(m_dir + "/" + n, ec);
    if (ec) throw OutputError(what + ": cannot remove the previous run's " + n + ": " + ec.message());
  }
  for (const auto& n : temps) ::unlink((m_dir + "/" + n).c_str());
}

OutputDir::~OutputDir() {
  if (m_committed) return;
  for (auto& f : m_files) {
    f.file.reset();
    ::unlink(f.temp.c_str());
  }
}

std::string OutputDir::temp_path(const std::string& name) const {
  return m_dir + "/" + kTempPrefix + std::to_string(getpid()) + "." + name;
}

CheckedFile& OutputDir::open(const std::string& name) {
  const std::string temp = temp_path(name);
  auto f = std::make_unique<CheckedFile>(temp, m_dir + "/" + name);
  m_files.push_back({name, temp, std::move(f)});
  return *m_files.back().file;
}

std::string OutputDir::external(const std::string& name) {
  m_files.push_back({name, temp_path(name), nullptr});
  return m_files.back().temp;
}

void OutputDir::close() {
  for (auto& f : m_files)
    if (f.file) f.file->close();
}

void OutputDir::commit() {
  close();
  for (auto& f : m_files)
    if (!f.file) fsync_path(f.temp, m_dir + "/" + f.name, O_RDONLY);
  std::stable_partition(m_files.begin(), m_files.end(), [](const File& f) { return f.name != kMarker; });
  for (auto& f : m_files) {
    if (std::rename(f.temp.c_str(), (m_dir + "/" + f.name).c_str()) != 0)
      throw_output_error(m_dir + "/" + f.name, "cannot rename into place", errno);
    f.temp.clear();  // nothing left to remove for this one
  }
  m_committed = true;
  fsync_path(m_dir, m_dir, O_RDONLY | O_DIRECTORY);
}

}  // namespace mmusim
