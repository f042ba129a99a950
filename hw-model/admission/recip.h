#pragma once
// floor(v / n) without a divider, as the RTL computes n_p's division (Reverie Eq. 6):
// v * m(n) >> s(n) with m(n) = ceil(2^s(n) / n), from a constant table of m and s
// (rtl/mmu_adm_recip_div.sv). m(n) = (2^s + e) / n with 0 <= e < n, so
// v m(n) / 2^s = v/n + v e / (n 2^s), and v e < 2^s keeps the error below 1/n, which the
// fraction of v/n (at most (n-1)/n) cannot cross: exact for every v < 2^vbits once
// e (2^vbits - 1) < 2^s. s(n) is the smallest such s from vbits up (s = vbits + nbits
// always qualifies for n < 2^nbits, e < n); it keeps m(n) below 2^(vbits+1), so the RTL's
// product is vbits x (vbits + 1) bits whatever the largest divisor. tb/unit/test_recip.cc
// checks it against division for every n and a sweep of v; the RTL lockstep checks the
// table against this code.
#include <cstdint>
#include <vector>

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

// s(n): the smallest s in vbits..vbits + nbits with e (2^vbits - 1) < 2^s, e = n m(n) - 2^s
// (the RTL's s_of). n >= 2, n < 2^nbits, vbits + nbits <= 64.
constexpr int shift(uint64_t n, int vbits, int nbits) {
  int best = vbits + nbits;
  for (int s = vbits + nbits; s >= vbits; --s) {
    const unsigned __int128 e = (unsigned __int128)reciprocal(n, s) * n - ((unsigned __int128)1 << s);
    if (e * ((uint64_t(1) << vbits) - 1) < ((unsigned __int128)1 << s)) best = s;
  }
  return best;
}

// floor(v / n) for v < 2^vbits, n < 2^nbits, vbits <= 32, nbits <= 32; n 0 and 1 give v.
constexpr uint64_t divide(uint64_t v, uint64_t n, int vbits, int nbits) {
  if (n <= 1) return v;
  const int s = shift(n, vbits, nbits);
  return uint64_t(((unsigned __int128)v * reciprocal(n, s)) >> s);
}

// The table one divider of the RTL holds: m(n) and s(n) for n = 2..nmax, computed once,
// so that a division is one product and one shift as in hardware (divide() searches s(n)
// with a 128-bit division per candidate on every call).
class Divider {
 public:
  Divider(int vbits, uint64_t nmax) : m_vbits(vbits), m_nbits(index_bits(nmax)), m_m(nmax + 1), m_s(nmax + 1) {
    for (uint64_t n = 2; n <= nmax; ++n) {
      m_s[n] = uint8_t(shift(n, vbits, m_nbits));
      m_m[n] = reciprocal(n, m_s[n]);
    }
  }
  // divide(v, n, vbits, index_bits(nmax)), for v < 2^vbits.
  uint64_t operator()(uint64_t v, uint64_t n) const {
    if (n <= 1) return v;
    if (n >= m_m.size()) return divide(v, n, m_vbits, m_nbits);  // beyond the table: the rule itself
    return uint64_t(((unsigned __int128)v * m_m[n]) >> m_s[n]);
  }

 private:
  int m_vbits, m_nbits;
  std::vector<uint64_t> m_m;
  std::vector<uint8_t> m_s;
};

// ABM's drain ratio mu_q / mu_port in 1/256ths (rtl/mmu_adm_rate.sv, the same rule): the
// cells a queue sent in the last interval over the cells its port can send in one, full
// rate (256) when it sent nothing or at least the capacity. Otherwise
// floor(256 (sent >> sh) / (cap >> sh)) with sh = max(0, bit length of cap - 8): the
// capacity keeps its top 8 significant bits (a relative error below 2^-7) so the division
// is by an 8-bit divisor through its reciprocal, a 16 x 17-bit product, at any counter width.
constexpr int kRateFrac = 8;
constexpr int kRateCapBits = 8;
inline uint64_t drain_ratio(uint64_t sent, uint64_t cap) {
  static const Divider kDiv(kRateCapBits + kRateFrac, (uint64_t(1) << kRateCapBits) - 1);
  const uint64_t one = uint64_t(1) << kRateFrac;
  if (sent == 0 || sent >= cap) return one;
  const int len = index_bits(cap);
  const int sh = len > kRateCapBits ? len - kRateCapBits : 0;
  // sent < cap: sent >> sh <= cap >> sh < 2^8, the dividend below 2^16.
  return kDiv((sent >> sh) << kRateFrac, cap >> sh);
}

}  // namespace mmusim::admission::recip
