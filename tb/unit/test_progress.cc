// The progress line of long runs (sim/progress.h): at most one report per wall second, each
// with the simulated time, packet-hops per wall second and the ETA computed by hand below;
// nothing when disabled or once the run is done. A temporary file stands in for stderr (not
// a terminal: one line per report).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "sim/progress.h"

namespace mmusim {
namespace {

std::string contents(std::FILE* f) {
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s += char(c);
  return s;
}

TEST(Progress, AtMostOneLinePerSecondWithRateAndEta) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  Progress p("run", 10'000'000, true, f);  // 10 us
  EXPECT_EQ(p.chunks(), 1000u);
  p.update(1'000'000, 1'000, 0.5);       // before the first second: nothing
  p.update(2'000'000, 2'000'000, 1.0);   // 2 M hops in 1 s; 20 % in 1 s leaves 4 s
  p.update(3'000'000, 3'000'000, 1.5);   // within a second of the last line
  p.update(5'000'000, 5'000'000, 2.0);   // 2.5 M hops/s; 50 % in 2 s leaves 2 s
  p.update(10'000'000, 9'000'000, 3.0);  // done: the summary follows, no line
  p.finish();
  EXPECT_EQ(contents(f),
            "run: 2.0 of 10.0 us simulated (20.0 %), 2.00 M packet-hops/s, 1 s wall, ETA 4 s\n"
            "run: 5.0 of 10.0 us simulated (50.0 %), 2.50 M packet-hops/s, 2 s wall, ETA 2 s\n");
  std::fclose(f);
}

TEST(Progress, DisabledWritesNothingAndRunsInOneSlice) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  Progress p("run", 10'000'000, false, f);
  EXPECT_EQ(p.chunks(), 1u);
  p.update(5'000'000, 5'000'000, 2.0);
  p.finish();
  EXPECT_EQ(contents(f), "");
  std::fclose(f);
}

}  // namespace
}  // namespace mmusim
