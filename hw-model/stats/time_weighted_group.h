#pragma once
// Time-weighted statistics of quantities that change at the same instants (one MMU's
// class occupancies, pools and thresholds) on one clock. The clock clips each instant to
// the measurement window once; a series then costs nothing at an instant where it keeps
// its value, and a change adds the stretch it held its old value (a subtraction of clipped
// times, a multiply-add and a histogram add). The results equal one TimeWeighted per
// quantity (time-weighted sums are additive in time, so stretches split differently give
// the same sums). mean() and quantile() are complete after finish().
//
// Shared statistics (the `shared` constructor flag): series that have held equal values
// at every instant so far have equal statistics, so one of them, the lowest, keeps value
// and statistics for all (an MMU's pools often equal its class occupancies: on a lossless
// incast the ingress pool is the lossless occupancy, the egress pool the total). A series
// leaves at the first instant its value differs, with a copy of the statistics up to
// then. This needs every instant to set every series, in index order (Mmu::update_stats
// does).
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace mmusim {

class TimeWeightedGroup {
 public:
  // Read access to one series, with TimeWeighted's accessors.
  class Series {
   public:
    Series(const TimeWeightedGroup& g, size_t i) : m_g(&g), m_i(i) {}
    uint64_t value() const { return m_g->m_v[m_g->root(m_i)]; }
    uint64_t max() const { return m_g->m_s[m_g->root(m_i)].max; }
    double mean() const { return m_g->mean(m_g->root(m_i)); }
    uint64_t quantile(double q) const { return m_g->quantile(m_g->root(m_i), q); }

   private:
    const TimeWeightedGroup* m_g;
    size_t m_i;
  };

  TimeWeightedGroup(size_t n, uint64_t win_start, uint64_t win_end, uint64_t bucket, bool shared = false)
      : m_start(win_start), m_end(win_end > win_start ? win_end : win_start), m_bucket(bucket ? bucket : 1),
        m_clipped(m_start), m_v(n, 0), m_s(n), m_max_before(n, 0), m_hist(n, std::vector<uint64_t>(1, 0)) {
    for (size_t i = 0; i < n; ++i) m_s[i] = {0, 0, m_clipped, 0, m_hist[i].data(), 1};
    // All start at 0: with sharing, series 1..63 share series 0's value and statistics.
    for (size_t i = 0; i < kShareable; ++i) m_root[i] = uint8_t(shared ? 0 : i);
    if (shared && n > 1) m_members = uint32_t(std::min(n, kShareable) - 1);
    m_in_window = m_start == 0 && m_end > 0;
    m_at_start = m_in_window;
    if ((m_bucket & (m_bucket - 1)) == 0) m_shift = __builtin_ctzll(m_bucket);
  }

 private:
  struct S;

 public:
  // One instant's changes: the clock, the window flags and the arrays held in locals (in
  // registers) across the sets, instead of reloaded from the group after every store
  // into a histogram (which may alias them).
  class Instant {
   public:
    // Series i becomes v. Inside the window past its first instant every maximum already
    // covers its value, so a kept value costs one compare, in the values' own line(s).
    // Always inlined: its callers set several series in a row and keep the clock in
    // registers across them; GCC's inlining heuristics alone dropped it once a caller's
    // file grew (Mmu::update_stats: 265 -> 390 instructions a call).
    // kCommon: the caller checked common(), so the flags and the bucket's kind need no
    // test per series (some 25 instructions an MMU update fewer).
    // A series sharing another's value (its root's, set before it at this instant) keeps
    // sharing when it equals that: one compare either way. kShared false: the caller
    // checked that none shares (sharing() false), and a series is looked up directly.
    template <bool kCommon = false, bool kShared = true>
    [[gnu::always_inline]] void set(size_t i, uint64_t v) {
      const size_t r = kShared && i < kShareable ? m_root[i] : i;
      uint64_t old = m_v[r];
      if (v == old) {
        if (!kCommon && m_at_start && v > m_s[r].max) raise(r, v);
        return;
      }
      if (kShared && r != i) {
        if (m_g.leave(i, v)) return;
        old = m_v[i];
      }
      S& s = m_s[i];
      // Add the stretch the old value was held.
      const uint64_t dt = m_clipped - s.since;
      s.integral += (unsigned __int128)old * dt;
      s.hist[s.bin] += dt;
      s.since = m_clipped;
      m_v[i] = v;
      s.bin = kCommon || m_shift >= 0 ? size_t(v >> m_shift) : size_t(v / m_bucket);
      if constexpr (kCommon) {
        // The bins cover every value set so far, the maximum's too: only a new maximum
        // can need more.
        if (v > s.max) {
          raise(i, v);
          if (s.bin >= s.bins) m_g.grow(i);
        }
      } else {
        if (s.bin >= s.bins) m_g.grow(i);
        if (m_in_window && v > s.max) raise(i, v);
      }
    }
    // Mostly: inside the window past its first instant, with a bucket of a power of two.
    bool common() const { return m_common; }
    // Some series shares another's (once none does, sets need no lookup).
    bool sharing() const { return m_g.m_members != 0; }

   private:
    friend class TimeWeightedGroup;
    explicit Instant(TimeWeightedGroup& g)
        : m_g(g), m_v(g.m_v.data()), m_s(g.m_s.data()), m_clipped(g.m_clipped), m_bucket(g.m_bucket),
          m_shift(g.m_shift), m_in_window(g.m_in_window), m_at_start(g.m_at_start), m_common(g.m_common),
          m_root(g.m_root.data()) {}
    // A new maximum (rare): the one before it is kept for a series leaving i at this instant.
    void raise(size_t i, uint64_t v) {
      if (i < kShareable) {
        m_g.m_max_before[i] = m_s[i].max;
        m_g.m_raised |= uint64_t(1) << i;
      }
      m_s[i].max = v;
    }
    TimeWeightedGroup& m_g;
    uint64_t* const m_v;
    S* const m_s;
    const uint64_t m_clipped, m_bucket;
    const int m_shift;
    const bool m_in_window, m_at_start, m_common;
    const uint8_t* const m_root;
  };

  // The values held since the last change are held up to `t` (non-decreasing).
  void advance(uint64_t t) {
    if (t <= m_last) return;
    if (m_last <= m_start && t > m_start && m_end > m_start)  // the values held at the window's start
      for (size_t i = 0; i < m_s.size(); ++i)
        if (m_v[i] > m_s[i].max) m_s[i].max = m_v[i];
    m_last = t;
    m_clipped = t < m_start ? m_start : t < m_end ? t : m_end;
    m_in_window = t >= m_start && t < m_end;
    m_at_start = m_in_window && t == m_start;
    m_common = m_in_window && !m_at_start && m_shift >= 0;
  }
  // The changes at `t` (non-decreasing).
  Instant at(uint64_t t) {
    // Mostly a later time inside the window with the last past its start: the flags hold.
    if (t > m_last && m_last > m_start && t < m_end) m_last = m_clipped = t;
    else advance(t);
    m_left = m_raised = 0;
    return Instant(*this);
  }
  // Series i becomes v at the time of the last advance (not with sharing: an instant sets
  // every series there).
  void set(size_t i, uint64_t v) { Instant(*this).set(i, v); }
  // The values are held up to `t`, the end of the run: every stretch is added.
  void finish(uint64_t t) {
    advance(t);
    for (size_t i = 0; i < m_s.size(); ++i)
      if (root(i) == i) close(i);
  }
  Series series(size_t i) const { return Series(*this, i); }

 private:
  // A series' running sums in one cache line: a change reads and writes no other (the
  // values' and its histogram bin's apart).
  struct alignas(64) S {
    uint64_t max;
    unsigned __int128 integral;
    uint64_t since;  // clipped time since which value is held and not yet added
    size_t bin;      // histogram bin of value
    uint64_t* hist;  // m_hist's data and size
    size_t bins;
  };
  static_assert(sizeof(S) == 64);
  // Sharing covers the first 64 series (one bit each in a mask).
  static constexpr size_t kShareable = 64;
  size_t root(size_t i) const { return i < kShareable ? m_root[i] : i; }
  // Series i, sharing root r's value and statistics, takes v, not r's new value, at this
  // instant (r is set). It follows a series that left r at this instant for the same
  // value, or it takes r's statistics up to this instant as its own (with r's maximum
  // before the instant). Returns whether the change is done; if not, i holds r's value
  // and the stretch since r's last change is for the caller to add. Out of line: once
  // per series and divergence.
  [[gnu::noinline, gnu::cold]] bool leave(size_t i, uint64_t v) {
    const size_t r = m_root[i];
    m_left |= uint64_t(1) << i;
    m_left_from[i] = uint8_t(r);
    for (size_t j = r + 1; j < i; ++j)
      if ((m_left >> j & 1) && m_left_from[j] == r && m_v[m_root[j]] == v) {
        m_root[i] = m_root[j];
        return true;
      }
    m_root[i] = uint8_t(i);
    --m_members;
    m_hist[i] = m_hist[r];
    S& s = m_s[i];
    s = m_s[r];
    s.hist = m_hist[i].data();
    if (m_raised >> r & 1) s.max = m_max_before[r];
    if (s.since < m_clipped) {  // r kept its value since before the instant: i's too
      m_v[i] = m_v[r];
      return false;
    }
    // Every stretch is added up to now (r changed at this time, or before the window): i
    // takes v, whatever it held, and a maximum as any value set in the window.
    m_v[i] = v;
    s.bin = m_shift >= 0 ? size_t(v >> m_shift) : size_t(v / m_bucket);
    if (m_in_window && v > s.max) {
      m_max_before[i] = s.max;
      m_raised |= uint64_t(1) << i;
      s.max = v;
    }
    if (s.bin >= s.bins) grow(i);
    return true;
  }
  // Out of line: rare, and a call inside the hot path would cost every change its
  // registers. Takes the vector's whole capacity, so a rising series comes here once per
  // reallocation, not once per bin (bins past the highest value stay zero, which
  // quantile() passes over).
  [[gnu::noinline, gnu::cold]] void grow(size_t i) {
    S& a = m_s[i];
    m_hist[i].resize(std::max(a.bin + 1, m_hist[i].capacity()), 0);
    a.hist = m_hist[i].data();
    a.bins = m_hist[i].size();
  }
  // Adds series i's stretch up to the clock.
  void close(size_t i) {
    S& a = m_s[i];
    const uint64_t dt = m_clipped - a.since;
    a.integral += (unsigned __int128)m_v[i] * dt;
    a.hist[a.bin] += dt;
    a.since = m_clipped;
  }
  uint64_t time() const { return m_clipped - m_start; }
  double mean(size_t i) const { return time() ? double(m_s[i].integral) / double(time()) : 0.0; }
  // Smallest bucket edge below which the quantity spent >= q of the window, capped at max.
  uint64_t quantile(size_t i, double q) const {
    const std::vector<uint64_t>& hist = m_hist[i];
    const uint64_t max = m_s[i].max;
    if (time() == 0) return 0;
    const unsigned __int128 need = (unsigned __int128)(double(time()) * q);
    unsigned __int128 acc = 0;
    for (size_t b = 0; b < hist.size(); ++b) {
      acc += hist[b];
      if (acc >= need && hist[b]) {
        const uint64_t edge = (b + 1) * m_bucket;
        return edge < max ? edge : max;
      }
    }
    return max;
  }

  uint64_t m_start, m_end, m_bucket;
  int m_shift = -1;  // log2 of the bucket when a power of two
  uint64_t m_last = 0;
  uint64_t m_clipped;        // m_last clipped to the window
  bool m_in_window = false;  // m_last is in the window
  bool m_at_start = false;   // m_last is the window's first instant
  bool m_common = false;     // in the window past its first instant, a bucket of a power of two
  uint32_t m_members = 0;    // series sharing another's
  // What every instant reads: the above and, below, the values' and records' pointers,
  // the instant's masks and the first series' roots (130 bytes for ten series).
  std::vector<uint64_t> m_v;  // every series' value, side by side: most sets keep theirs
  std::vector<S> m_s;
  // At the current instant (kept here, not in the Instant, so that an Instant holds only
  // copies, which stay in registers): series that left their root, series whose maximum
  // rose.
  uint64_t m_left = 0, m_raised = 0;
  std::array<uint8_t, kShareable> m_root{};       // the series keeping i's value and statistics (i: its own)
  std::vector<uint64_t> m_max_before;  // a series' maximum before its last rise
  std::vector<std::vector<uint64_t>> m_hist;
  std::array<uint8_t, kShareable> m_left_from{};  // the root i last left
};

}  // namespace mmusim
