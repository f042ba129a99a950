#include "output/checked_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace mmusim {

void throw_output_error(const std::string& name, const std::string& what, int err) {
  throw OutputError(name + ": " + what + ": " + std::strerror(err));
}

CheckedFile::Buf::Buf(int fd) : m_fd(fd) { setp(m_data, m_data + sizeof m_data); }

void CheckedFile::Buf::fail(int err) {
  if (m_err) return;
  m_err = err;
  if (m_on_error) m_on_error();
}

// Writes the buffer out; after a failure the data is dropped (the file is lost anyway).
bool CheckedFile::Buf::drain() {
  const char* p = pbase();
  size_t left = size_t(pptr() - pbase());
  while (left && !m_err) {
    const ssize_t n = ::write(m_fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(n < 0 ? errno : EIO);
    else {
      p += n;
      left -= size_t(n);
    }
  }
  setp(m_data, m_data + sizeof m_data);
  return !m_err;
}

CheckedFile::Buf::int_type CheckedFile::Buf::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int CheckedFile::Buf::sync() { return drain() ? 0 : -1; }

namespace {

int create(const std::string& path, const std::string& name) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw_output_error(name, "cannot create", errno);
  return fd;
}

}  // namespace

CheckedFile::CheckedFile(const std::string& path, std::string name)
    : std::ostream(nullptr), m_name(std::move(name)), m_buf(create(path, m_name)) {
  rdbuf(&m_buf);
}

CheckedFile::~CheckedFile() {
  if (m_buf.fd() >= 0) ::close(m_buf.fd());
}

void CheckedFile::close() {
  const int fd = m_buf.fd();
  if (fd < 0) return;
  m_buf.pubsync();
  // fsync: a delayed-allocation file system may report a full disk only here. Devices
  // such as /dev/full cannot be synced (EINVAL); their writes were checked already.
  if (!m_buf.error() && ::fsync(fd) != 0 && errno != EINVAL) m_buf.fail(errno);
  m_buf.release();
  if (::close(fd) != 0 && errno != EINTR) m_buf.fail(errno);
  if (m_buf.error()) throw_output_error(m_name, "write failed", m_buf.error());
}

void write_file_atomic(const std::string& path, const std::string& text) {
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  const std::string tmp = dir + ".partial-" + std::to_string(getpid()) + "." + path.substr(dir.size());
  try {
    CheckedFile f(tmp, path);
    f << text;
    f.close();
  } catch (const OutputError&) {
    ::unlink(tmp.c_str());
    throw;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw_output_error(path, "cannot rename into place", err);
  }
}

}  // namespace mmusim
