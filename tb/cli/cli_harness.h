#pragma once
// Runs the real mmusim binary (MMUSIM_BIN) and checks bad-input failures: shared by the
// CLI tests.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <initializer_list>
#include <string>
#include <vector>

namespace cli_harness {

struct Result {
  bool signaled = false;  // killed by a signal (crash, abort, or the hang guard)
  int code = -1;          // exit status when not signaled
  std::string out;        // stdout and stderr, interleaved (split: stdout only)
  std::string err;        // split: stderr alone
};

struct Options {
  // Keep stderr apart (through a temporary file), for checks that errors go to stderr.
  bool split = false;
  // >= 0: files mmusim writes cannot grow past this many bytes (RLIMIT_FSIZE, with
  // SIGXFSZ ignored): the write fails with EFBIG, as on a full disk, without root.
  long fsize_limit = -1;
};

// Runs mmusim with `args` (no shell, so keys with '|' and ',' need no quoting).
inline Result run_mmusim(const std::vector<std::string>& args, Options o = {}) {
  const bool split = o.split;
  int fds[2];
  if (pipe(fds) != 0) return {};
  char tmpl[] = "/tmp/mmusim_stderr_XXXXXX";
  const int efd = split ? mkstemp(tmpl) : -1;
  if (split && efd < 0) return {};
  if (split) unlink(tmpl);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(split ? efd : fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    alarm(60);  // survives exec: a hung binary dies by SIGALRM and the test fails
    if (o.fsize_limit >= 0) {
      signal(SIGXFSZ, SIG_IGN);  // an ignored signal stays ignored across exec
      const rlimit lim{rlim_t(o.fsize_limit), rlim_t(o.fsize_limit)};
      setrlimit(RLIMIT_FSIZE, &lim);
    }
    std::vector<char*> argv{const_cast<char*>(MMUSIM_BIN)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(MMUSIM_BIN, argv.data());
    _exit(127);
  }
  close(fds[1]);
  Result r;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;)
    if (n > 0) r.out.append(buf, size_t(n));
    else if (errno != EINTR) break;
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.signaled = WIFSIGNALED(status);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (split) {
    lseek(efd, 0, SEEK_SET);
    for (ssize_t n; (n = read(efd, buf, sizeof buf)) > 0;) r.err.append(buf, size_t(n));
    close(efd);
  }
  return r;
}

// Exit `code` without crashing, and every needle appears in the output.
inline void expect_error(const Result& r, int code, std::initializer_list<std::string> needles) {
  SCOPED_TRACE("output:\n" + r.out);
  EXPECT_FALSE(r.signaled) << "mmusim died by a signal";
  EXPECT_EQ(r.code, code);
  for (const char* crash : {"terminate called", "Segmentation", "Aborted", "core dumped"})
    EXPECT_EQ(r.out.find(crash), std::string::npos) << "crash text: " << crash;
  for (const auto& n : needles) EXPECT_NE(r.out.find(n), std::string::npos) << "missing: " << n;
}

}  // namespace cli_harness
