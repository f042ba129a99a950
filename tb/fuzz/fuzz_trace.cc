// Fuzz harness: the bytes as a trace file (docs/traces.md), read by check_trace as
// `mmusim check` does for a 32-port switch. The reader takes a path, so each input is
// written to a file of this process's own first.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "config/scenario.h"  // ConfigError
#include "config/trace_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/mmusim_fuzz_trace_" + std::to_string(getpid()) + ".csv";
  }();
  static const int cleanup = std::atexit([] { std::remove(path.c_str()); });
  (void)cleanup;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0) std::abort();
  try {
    mmusim::check_trace(path, 32);
  } catch (const mmusim::ConfigError&) {
    // bad input, reported: the expected outcome
  }
  return 0;
}
