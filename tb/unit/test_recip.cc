// The RTL's divider-free floor(v / n) (admission/recip.h, rtl/mmu_adm_recip_div.sv) against
// division: every divisor the table holds at each unit width, the boundary dividends around
// every multiple's edge, and a random sweep (MMUSIM_SEED, else fresh; printed).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>

#include "admission/recip.h"

namespace r = mmusim::admission::recip;

namespace {

uint64_t seed() {
  if (const char* e = std::getenv("MMUSIM_SEED")) return std::strtoull(e, nullptr, 0);
  return std::random_device{}();
}

}  // namespace

TEST(Recip, IndexBitsMatchTheRtlClog2) {
  // $clog2(NMAX + 1) of rtl/mmu_adm_recip_div.sv.
  EXPECT_EQ(r::index_bits(2), 2);    // 1 port
  EXPECT_EQ(r::index_bits(8), 4);    // 4 ports
  EXPECT_EQ(r::index_bits(64), 7);   // 32 ports
  EXPECT_EQ(r::index_bits(128), 8);  // 64 ports
  EXPECT_EQ(r::index_bits(127), 7);
}

TEST(Recip, ExactForEveryDivisorAndEdgeDividend) {
  for (int vbits : {8, 16, 24, 32}) {
    for (uint64_t nmax : {2, 8, 16, 64, 128}) {
      const int nbits = r::index_bits(nmax);
      const uint64_t vmax = (uint64_t(1) << vbits) - 1;
      for (uint64_t n = 0; n <= nmax; ++n) {
        const uint64_t d = n < 1 ? 1 : n;
        auto check = [&](uint64_t v) {
          if (v > vmax) return;
          ASSERT_EQ(r::divide(v, n, vbits, nbits), v / d) << "v " << v << " n " << n << " vbits " << vbits;
        };
        for (uint64_t v : {uint64_t(0), uint64_t(1), vmax, vmax - 1, vmax / 2}) check(v);
        // Just below, at and above the largest multiples of n (where a short reciprocal fails).
        for (uint64_t k = vmax / d; k + 8 > vmax / d && k > 0; --k)
          for (int e = -1; e <= 1; ++e) check(k * d + uint64_t(int64_t(e)));
        for (uint64_t k = 1; k < 8; ++k) check(k * d - 1), check(k * d);
      }
    }
  }
}

TEST(Recip, RandomSweep) {
  const uint64_t s = seed();
  std::printf("Recip.RandomSweep: MMUSIM_SEED=%llu\n", (unsigned long long)s);
  std::mt19937_64 rng(s);
  for (int i = 0; i < 2000000; ++i) {
    const int vbits = 8 + int(rng() % 25);
    const uint64_t nmax = 2 + rng() % 127;
    const uint64_t n = 1 + rng() % nmax;
    const uint64_t v = rng() & ((uint64_t(1) << vbits) - 1);
    ASSERT_EQ(r::divide(v, n, vbits, r::index_bits(nmax)), v / n) << "v " << v << " n " << n << " vbits " << vbits;
  }
}

// The table (Divider) gives divide()'s quotient for every divisor up to its nmax and past
// it (the rule itself), and so the exact quotient: random widths, tables and dividends.
TEST(Recip, DividerTableEqualsTheRule) {
  const uint64_t s = seed();
  std::printf("Recip.DividerTableEqualsTheRule: MMUSIM_SEED=%llu\n", (unsigned long long)s);
  std::mt19937_64 rng(s);
  for (int t = 0; t < 200; ++t) {
    const int vbits = 8 + int(rng() % 25);
    const uint64_t nmax = 2 + rng() % 255;
    const r::Divider div(vbits, nmax);
    const int nbits = r::index_bits(nmax);
    for (int i = 0; i < 5000; ++i) {
      const uint64_t n = rng() % (nmax + 3);  // 0, 1 and two past the table included
      const uint64_t v = rng() & ((uint64_t(1) << vbits) - 1);
      ASSERT_EQ(div(v, n), r::divide(v, n, vbits, nbits)) << "v " << v << " n " << n << " vbits " << vbits;
      ASSERT_EQ(div(v, n), v / (n < 1 ? 1 : n)) << "v " << v << " n " << n << " vbits " << vbits;
    }
  }
  // The drain ratio through its table: hand-computed (sent 100 of cap 1000: sh 2, 25 / 250
  // of 256 = 25.6, floored) and the two full-rate cases.
  EXPECT_EQ(r::drain_ratio(100, 1000), 25u);
  EXPECT_EQ(r::drain_ratio(0, 1000), 256u);
  EXPECT_EQ(r::drain_ratio(1000, 1000), 256u);
}

// m(n) fits vbits + 1 bits (the RTL's MW); at 16-bit dividends (CW 16) s(n) is the
// smallest exact shift: one bit less fails for some dividend of every divisor with s > 16
// (the bound is sufficient, not necessary: at 8 bits some divisors are exact one bit lower).
TEST(Recip, ShiftIsTheSmallestExactAndFitsOneBitMore) {
  for (int vbits : {8, 16}) {
    for (uint64_t nmax : {16, 255}) {
      const int nbits = r::index_bits(nmax);
      const uint64_t vmax = (uint64_t(1) << vbits) - 1;
      for (uint64_t n = 2; n <= nmax; ++n) {
        const int s = r::shift(n, vbits, nbits);
        EXPECT_LT(r::reciprocal(n, s), uint64_t(1) << (vbits + 1)) << "n " << n;
        if (vbits != 16 || s == vbits) continue;
        const uint64_t m = r::reciprocal(n, s - 1);
        bool failed = false;
        for (uint64_t v = 0; v <= vmax && !failed; ++v) failed = (v * m) >> (s - 1) != v / n;
        EXPECT_TRUE(failed) << "n " << n << " vbits " << vbits << " s " << s;
      }
    }
  }
  // 16-bit dividends by 2..16 (8 ports): the 17-bit product the RTL builds.
  EXPECT_EQ(r::shift(3, 16, 5), 17);
  EXPECT_EQ(r::shift(7, 16, 5), 19);
  EXPECT_EQ(r::reciprocal(7, 19), 74899u);
  EXPECT_EQ(r::shift(16, 16, 5), 16);
}
