#include "config/trace_format.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "config/scenario.h"  // ConfigError

namespace mmusim {
namespace {

constexpr const char* kColumns[] = {"start_ns", "src", "dst", "bytes", "dscp", "pcp", "src_port", "dst_port", "proto"};
constexpr size_t kNumColumns = sizeof kColumns / sizeof kColumns[0];

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == ',') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

}  // namespace

TraceReader::TraceReader(const std::string& path, uint32_t hosts)
    : m_in(path, kMaxLineBytes, "trace file"), m_path(path), m_hosts(hosts) {
  std::string l;
  if (!read_line(l) || l != kVersionLine) fail(std::string("expected the version line '") + kVersionLine + "'", 1);
  if (!read_line(l) || l != kHeader) fail(std::string("expected the header '") + kHeader + "'", 2);
}

void TraceReader::fail(const std::string& what, uint64_t line) const {
  throw ConfigError(m_path + ":" + std::to_string(line ? line : m_in.line()) + ": " + what);
}

bool TraceReader::read_line(std::string& l) {
  if (!m_in.next(l)) return false;
  if (!l.empty() && l.back() == '\r') l.pop_back();
  if (const size_t nul = l.find('\0'); nul != std::string::npos)
    throw ConfigError(m_path + ":" + std::to_string(m_in.line()) + ":" + std::to_string(nul + 1) +
                      ": NUL byte in the line");
  return true;
}

bool TraceReader::next(TraceRecord& rec) {
  std::string l;
  while (read_line(l)) {
    if (l.empty() || l[0] == '#') continue;
    const std::vector<std::string> f = split_commas(l);
    if (f.size() != kNumColumns)
      fail(std::to_string(f.size()) + " fields, expected " + std::to_string(kNumColumns) + " (" + kHeader + ")");
    // An integer column within [lo, hi]: digits only (and a leading '-' where lo < 0).
    auto integer = [&](size_t k, long long lo, long long hi) {
      const std::string& s = f[k];
      errno = 0;
      char* end = nullptr;
      const long long v = s.empty() ? 0 : std::strtoll(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0' || errno == ERANGE || s.find_first_of(" +\t") != std::string::npos)
        fail(std::string(kColumns[k]) + ": '" + s + "' is not an integer");
      if (v < lo || v > hi)
        fail(std::string(kColumns[k]) + ": " + s + " out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
      return v;
    };
    const std::string& t = f[0];
    char* end = nullptr;
    const double ns = t.empty() ? -1 : std::strtod(t.c_str(), &end);
    const bool plain = !t.empty() && t.find_first_not_of("0123456789.") == std::string::npos;
    if (!plain || *end != '\0' || !std::isfinite(ns))
      fail(std::string("start_ns: '") + t + "' is not a non-negative decimal number");
    if (ns * 1e3 > 4611686018427387904.0) fail("start_ns: too large (at most 2^62 ps)");
    rec.start_ps = uint64_t(std::llround(ns * 1e3));
    if (rec.start_ps < m_last_start) fail("start_ns: " + t + " is before the previous flow's start (flows must be in start order)");
    m_last_start = rec.start_ps;
    const long long last_host = (long long)m_hosts - 1;
    rec.src = uint32_t(integer(1, 0, last_host));
    rec.dst = uint32_t(integer(2, 0, last_host));
    if (rec.src == rec.dst) fail("dst: host " + f[2] + " would send to itself");
    rec.bytes = uint64_t(integer(3, 1, (1ll << 62)));
    rec.dscp = uint8_t(integer(4, 0, 63));
    rec.pcp = int8_t(integer(5, -1, 7));
    rec.src_port = uint16_t(integer(6, 0, 65535));
    rec.dst_port = uint16_t(integer(7, 0, 65535));
    rec.proto = uint8_t(integer(8, 0, 255));
    return true;
  }
  return false;
}

uint64_t check_trace(const std::string& path, uint32_t hosts) {
  TraceReader r(path, hosts);
  TraceRecord rec;
  uint64_t n = 0;
  while (r.next(rec)) ++n;
  return n;
}

}  // namespace mmusim
