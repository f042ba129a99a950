#include "config/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "config/scenario.h"

namespace mmusim {
namespace {

const char* file_kind(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "a special file";
}

// O_NONBLOCK keeps open() of a FIFO from waiting for a writer; fstat on the opened file
// (not stat before it) leaves no window for the path to change in between.
int open_regular(const std::string& path, const std::string& what, struct stat& st) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw ConfigError(path + ": cannot open " + what + ": " + std::strerror(errno));
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw ConfigError(path + ": cannot stat " + what + ": " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw ConfigError(path + ": " + what + " must be a regular file, this is " + file_kind(st.st_mode));
  }
  const int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

}  // namespace

std::string read_regular_file(const std::string& path, uint64_t max_bytes, const std::string& what) {
  struct stat st {};
  const int fd = open_regular(path, what, st);
  std::string out;
  auto too_large = [&] {
    ::close(fd);
    throw ConfigError(path + ": " + what + " larger than " + std::to_string(max_bytes) + " bytes");
  };
  if (uint64_t(st.st_size) > max_bytes) too_large();
  out.reserve(size_t(st.st_size));
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      throw ConfigError(path + ": read error: " + std::strerror(err));
    }
    out.append(buf, size_t(n));
    if (out.size() > max_bytes) too_large();  // the file grew while being read
  }
  ::close(fd);
  return out;
}

LineReader::LineReader(const std::string& path, size_t max_line, const std::string& what)
    : m_path(path), m_max_line(max_line), m_buf(65536) {
  struct stat st {};
  m_fd = open_regular(path, what, st);
}

LineReader::~LineReader() {
  if (m_fd >= 0) ::close(m_fd);
}

bool LineReader::next(std::string& line) {
  line.clear();
  bool any = false;
  for (;;) {
    if (m_pos == m_end) {
      if (m_eof) break;
      const ssize_t n = ::read(m_fd, m_buf.data(), m_buf.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        throw ConfigError(m_path + ":" + std::to_string(m_line + 1) + ": read error: " + std::strerror(errno));
      }
      if (n == 0) {
        m_eof = true;
        break;
      }
      m_pos = 0;
      m_end = size_t(n);
    }
    any = true;
    const char* begin = m_buf.data() + m_pos;
    const char* nl = static_cast<const char*>(std::memchr(begin, '\n', m_end - m_pos));
    const size_t take = nl ? size_t(nl - begin) : m_end - m_pos;
    if (line.size() + take > m_max_line)
      throw ConfigError(m_path + ":" + std::to_string(m_line + 1) + ": line longer than " +
                        std::to_string(m_max_line) + " bytes");
    line.append(begin, take);
    m_pos += take;
    if (nl) {
      ++m_pos;
      break;
    }
  }
  if (!any) return false;
  ++m_line;
  return true;
}

}  // namespace mmusim
