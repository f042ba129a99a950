#pragma once
// floor(v / n) without a divider, as the RTL computes n_p's division (Reverie Eq. 6):
// v * m(n) >> s with m(n) = ceil(2^s / n), s = vbits + nbits, from a constant table of m
// (rtl/mmu_adm_recip_div.sv). Exact for every v < 2^vbits and 1 <= n < 2^nbits:
// m(n) = (2^s + e) / n with 0 <= e < n, so v m(n) / 2^s = v/n + v e / (n 2^s), and
// v e < 2^vbits 2^nbits = 2^s keeps the error below 1/n, which the fraction of v/n (at most
// (n-1)/n) cannot cross. tb/unit/test_recip.cc checks it against division for every n and
// a sweep of v; the RTL lockstep checks the table against this code.
#include <cstdint>

namespace mmusim::admission::recip {

// Index bits of the table for divisors up to nmax (the RTL's $clog2(NMAX + 1)).
constexpr int index_bits(uint64_t nmax) {
  int b = 0;
  for (; nmax != 0; nmax >>= 1) ++b;
  return b;
}

// m(n) = ceil(2^s / n), n >= 2, s <= 64 (at most 2^(s-1): it fits s bits).
constexpr uint64_t reciprocal(uint64_t n, int s) {
  return uint64_t((((unsigned __int128)1 << s) + n - 1) / n);
}

// floor(v / n) for v < 2^vbits, n < 2^nbits, vbits <= 32, nbits <= 32; n 0 and 1 give v.
constexpr uint64_t divide(uint64_t v, uint64_t n, int vbits, int nbits) {
  if (n <= 1) return v;
  const int s = vbits + nbits;
  return uint64_t(((unsigned __int128)v * reciprocal(n, s)) >> s);
}

}  // namespace mmusim::admission::recip
