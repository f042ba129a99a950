#pragma once
// An output file that reports every failed write, sync and close: a full disk must fail
// the run, not leave a truncated file behind a zero exit status.
#include <functional>
#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <string>

namespace mmusim {

// Writing, syncing, renaming or closing an output file failed; what() names the file.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `name: what: strerror(err)`.
[[noreturn]] void throw_output_error(const std::string& name, const std::string& what, int err);

// Buffered std::ostream over a file descriptor. The first failed write is kept (errno),
// the stream goes bad and later output is dropped; close() flushes, fsyncs and closes,
// and throws OutputError naming the file if any of it failed.
class CheckedFile : public std::ostream {
 public:
  // Creates or truncates `path`; `name` is what errors call it (the final name of a file
  // written under a temporary one). Throws OutputError if the file cannot be created.
  CheckedFile(const std::string& path, std::string name);
  explicit CheckedFile(const std::string& path) : CheckedFile(path, path) {}
  ~CheckedFile() override;  // an abandoned file: closed without checks

  CheckedFile(const CheckedFile&) = delete;
  CheckedFile& operator=(const CheckedFile&) = delete;

  void close();
  bool failed() const { return m_buf.error() != 0; }
  const std::string& name() const { return m_name; }
  // Runs once, at the first failed write (the simulation can stop there).
  void on_error(std::function<void()> f) { m_buf.on_error(std::move(f)); }

 private:
  class Buf : public std::streambuf {
   public:
    explicit Buf(int fd);
    int fd() const { return m_fd; }
    int error() const { return m_err; }
    void fail(int err);
    void on_error(std::function<void()> f) { m_on_error = std::move(f); }
    void release() { m_fd = -1; }

   protected:
    int_type overflow(int_type c) override;
    int sync() override;

   private:
    bool drain();
    int m_fd;
    int m_err = 0;
    std::function<void()> m_on_error;
    char m_data[1 << 16];
  };

  std::string m_name;
  Buf m_buf;
};

// Writes `text` to `path` through a temporary name in the same directory, renamed into
// place once written, synced and closed; throws OutputError naming `path`.
void write_file_atomic(const std::string& path, const std::string& text);

}  // namespace mmusim
