#pragma once
// Flow traces (docs/traces.md): a version line "# mmusim-trace 1", the column header
// "start_ns,src,dst,bytes,dscp,pcp,src_port,dst_port,proto", then one flow per line in
// non-decreasing start order. Read line by line, so a trace of any length costs O(1)
// memory. Every bad line is a ConfigError naming file:line and the column.
#include <cstdint>
#include <string>

#include "config/input_file.h"

namespace mmusim {

struct TraceRecord {
  uint64_t start_ps = 0;
  uint32_t src = 0, dst = 0;  // host indices
  uint64_t bytes = 0;
  uint8_t dscp = 0;
  int8_t pcp = -1;  // -1: untagged
  uint16_t src_port = 0, dst_port = 0;
  uint8_t proto = 17;
};

class TraceReader {
 public:
  static constexpr const char* kVersionLine = "# mmusim-trace 1";
  static constexpr const char* kHeader = "start_ns,src,dst,bytes,dscp,pcp,src_port,dst_port,proto";
  // Longest line accepted, comments included: a flow line is under 100 bytes.
  static constexpr size_t kMaxLineBytes = 4096;

  // Opens `path` and checks the version and header lines; `hosts` bounds src and dst.
  TraceReader(const std::string& path, uint32_t hosts);
  // Next flow; false at the end of the file.
  bool next(TraceRecord& rec);

 private:
  // Names the line last read, or `line`.
  [[noreturn]] void fail(const std::string& what, uint64_t line = 0) const;
  // The next line, '\r' stripped; NUL bytes are errors naming the column.
  bool read_line(std::string& l);
  LineReader m_in;
  std::string m_path;
  uint32_t m_hosts;
  uint64_t m_last_start = 0;
};

// Reads the whole trace once (scenario validation); returns its number of flows.
uint64_t check_trace(const std::string& path, uint32_t hosts);

}  // namespace mmusim
