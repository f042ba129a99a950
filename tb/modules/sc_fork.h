#pragma once
// Runs one SystemC simulation in a forked child process. A SystemC kernel elaborates and
// runs only once per process, so every module test builds its modules and calls
// sc_core::sc_start() inside `body`, which returns a result string (JSON in our tests).
//
// The child routes SystemC errors and fatals (SC_REPORT_ERROR, sc_assert) to exceptions;
// any exception becomes a failure message. The parent gets {ok, text}: ok is true only if
// the body returned normally, and text is either the body's result or the failure message.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include <systemc>

namespace mmusim::test {

// The banner would otherwise be printed by the first simulation context of every child.
inline const bool kSystemcBannerOff = (setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0), true);

struct ChildResult {
  bool ok = false;   // the body returned normally and the child exited 0
  std::string text;  // the body's result, or why the child failed
};

namespace detail {

inline void write_all(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    const ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    off += size_t(n);
  }
}

}  // namespace detail

// `body` runs in the child and returns std::string. A child still running after
// `timeout_s` seconds is killed by SIGALRM and reported as a failure.
template <class F>
ChildResult run_in_child(F body, unsigned timeout_s = 60) {
  std::fflush(nullptr);  // nothing buffered may be written twice
  int fds[2];
  if (::pipe(fds) != 0) return {false, std::string("pipe: ") + std::strerror(errno)};
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return {false, std::string("fork: ") + std::strerror(errno)};
  }
  if (pid == 0) {
    ::close(fds[0]);
    ::alarm(timeout_s);
    std::string out;
    int rc = 0;
    try {
      sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
      sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_THROW);
      out = body();
    } catch (const sc_core::sc_report& r) {
      out = std::string("SystemC error: ") + r.what();
      rc = 1;
    } catch (const std::exception& e) {
      out = std::string("exception: ") + e.what();
      rc = 1;
    } catch (...) {
      out = "unknown exception";
      rc = 1;
    }
    detail::write_all(fds[1], out);
    ::close(fds[1]);
    std::fflush(nullptr);
    ::_exit(rc);  // no static destructors, no second gtest report
  }
  ::close(fds[1]);
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) text.append(buf, size_t(n));
    else if (n < 0 && errno == EINTR) continue;
    else break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ChildResult r;
  if (WIFEXITED(status)) {
    r.ok = WEXITSTATUS(status) == 0;
    r.text = text;
    if (!r.ok && text.empty()) r.text = "child exited with status " + std::to_string(WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    r.text = std::string("child killed by signal ") + std::to_string(sig) + " (" + ::strsignal(sig) +
             (sig == SIGALRM ? ", timeout" : "") + ")" + (text.empty() ? "" : ": " + text);
  } else {
    r.text = "child ended abnormally";
  }
  return r;
}

}  // namespace mmusim::test
