#pragma once
// Input files (scenarios, traces): regular files only, so a FIFO, a device or a directory
// is a clear error instead of a read that blocks or never ends; sizes and lines are bounded.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mmusim {

// The whole of a regular file of at most `max_bytes`; ConfigError naming `path` otherwise.
// `what` names the file's role in messages ("scenario file", "trace file").
std::string read_regular_file(const std::string& path, uint64_t max_bytes, const std::string& what);

// Lines of a regular file (without '\n'), at most `max_line` bytes each, read in blocks.
class LineReader {
 public:
  LineReader(const std::string& path, size_t max_line, const std::string& what);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Next line; false at the end of the file. ConfigError "path:N: ..." on a line longer
  // than max_line or a read error.
  bool next(std::string& line);
  uint64_t line() const { return m_line; }  // number of the line last returned (1-based)

 private:
  int m_fd = -1;
  std::string m_path;
  size_t m_max_line;
  uint64_t m_line = 0;
  std::vector<char> m_buf;
  size_t m_pos = 0, m_end = 0;
  bool m_eof = false;
};

}  // namespace mmusim
