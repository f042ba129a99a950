#pragma once
// Time-weighted statistics of quantities that change at the same instants (one MMU's
// class occupancies, pools and thresholds) on one clock: each stretch between changes is
// added to every series at once (a multiply-add and a histogram add each), with the window
// arithmetic done once. The results equal one TimeWeighted per quantity (time-weighted
// sums are additive in time, so stretches split differently give the same sums).
#include <cstdint>
#include <vector>

namespace mmusim {

class TimeWeightedGroup {
 public:
  // Read access to one series, with TimeWeighted's accessors.
  class Series {
   public:
    Series(const TimeWeightedGroup& g, size_t i) : m_g(&g), m_i(i) {}
    uint64_t value() const { return m_g->m_s[m_i].value; }
    uint64_t max() const { return m_g->m_s[m_i].max; }
    double mean() const { return m_g->mean(m_i); }
    uint64_t quantile(double q) const { return m_g->quantile(m_i, q); }

   private:
    const TimeWeightedGroup* m_g;
    size_t m_i;
  };

  TimeWeightedGroup(size_t n, uint64_t win_start, uint64_t win_end, uint64_t bucket)
      : m_start(win_start), m_end(win_end), m_bucket(bucket ? bucket : 1), m_s(n) {
    for (auto& s : m_s) s.hist.assign(1, 0);
    m_in_window = m_start == 0 && m_end > 0;
  }

  // The values held since the last change are held up to `t` (non-decreasing).
  void advance(uint64_t t) {
    if (t <= m_last) return;
    const uint64_t a = m_last > m_start ? m_last : m_start;
    const uint64_t b = t < m_end ? t : m_end;
    if (b > a) {
      const uint64_t dt = b - a;
      if (m_last <= m_start)  // the values held at the window's start
        for (S& s : m_s)
          if (s.value > s.max) s.max = s.value;
      for (S& s : m_s) {
        s.integral += (unsigned __int128)s.value * dt;
        s.hist[s.bin] += dt;
      }
      m_time += dt;
    }
    m_last = t;
    m_in_window = t >= m_start && t < m_end;
  }
  // Series i becomes v at the time of the last advance.
  void set(size_t i, uint64_t v) {
    S& s = m_s[i];
    if (v != s.value) {
      s.value = v;
      s.bin = size_t(v / m_bucket);
      if (s.bin >= s.hist.size()) s.hist.resize(s.bin + 1, 0);
    }
    if (m_in_window && v > s.max) s.max = v;
  }
  Series series(size_t i) const { return Series(*this, i); }

 private:
  struct S {
    uint64_t value = 0;
    size_t bin = 0;  // histogram bin of value
    uint64_t max = 0;
    unsigned __int128 integral = 0;
    std::vector<uint64_t> hist;
  };
  double mean(size_t i) const { return m_time ? double(m_s[i].integral) / double(m_time) : 0.0; }
  // Smallest bucket edge below which the quantity spent >= q of the window, capped at max.
  uint64_t quantile(size_t i, double q) const {
    const S& s = m_s[i];
    if (m_time == 0) return 0;
    const unsigned __int128 need = (unsigned __int128)(double(m_time) * q);
    unsigned __int128 acc = 0;
    for (size_t b = 0; b < s.hist.size(); ++b) {
      acc += s.hist[b];
      if (acc >= need && s.hist[b]) {
        const uint64_t edge = (b + 1) * m_bucket;
        return edge < s.max ? edge : s.max;
      }
    }
    return s.max;
  }

  uint64_t m_start, m_end, m_bucket;
  uint64_t m_last = 0;
  bool m_in_window = false;  // m_last is in the window
  uint64_t m_time = 0;
  std::vector<S> m_s;
};

}  // namespace mmusim
