#pragma once
// Time-weighted statistics of a piecewise-constant quantity over a measurement window:
// exact mean, maximum and a histogram-based 99th percentile. Updated on change only.
#include <cstdint>
#include <vector>

namespace mmusim {

class TimeWeighted {
 public:
  TimeWeighted(uint64_t win_start, uint64_t win_end, uint64_t bucket)
      : m_start(win_start), m_end(win_end), m_bucket(bucket ? bucket : 1) {}

  // The quantity becomes `v` at time `t` (non-decreasing t).
  void set(uint64_t t, uint64_t v) {
    // Same value, no new window maximum: the next change or finish() integrates this
    // stretch exactly as a split one (mean, max and histogram are additive in time).
    if (v == m_value && !(t >= m_start && t < m_end && v > m_max)) return;
    accumulate(t);
    m_value = v;
    if (t >= m_start && t < m_end && v > m_max) m_max = v;
  }
  void finish(uint64_t t) { accumulate(t); }
  uint64_t value() const { return m_value; }
  double mean() const { return m_time ? double(m_integral) / double(m_time) : 0.0; }
  uint64_t max() const { return m_max; }
  // Smallest bucket edge below which the quantity spent >= q of the window, capped at max.
  uint64_t quantile(double q) const {
    if (m_time == 0) return 0;
    const unsigned __int128 need = (unsigned __int128)(double(m_time) * q);
    unsigned __int128 acc = 0;
    for (size_t b = 0; b < m_hist.size(); ++b) {
      acc += m_hist[b];
      if (acc >= need && m_hist[b]) {
        const uint64_t edge = (b + 1) * m_bucket;
        return edge < m_max ? edge : m_max;
      }
    }
    return m_max;
  }

 private:
  void accumulate(uint64_t t) {
    const uint64_t a = m_last > m_start ? m_last : m_start;
    const uint64_t b = t < m_end ? t : m_end;
    if (b > a) {
      const uint64_t dt = b - a;
      if (m_last <= m_start && m_value > m_max) m_max = m_value;  // value held at window start
      m_integral += (unsigned __int128)m_value * dt;
      m_time += dt;
      const size_t k = size_t(m_value / m_bucket);
      if (k >= m_hist.size()) m_hist.resize(k + 1, 0);
      m_hist[k] += dt;
    }
    if (t > m_last) m_last = t;
  }

  uint64_t m_start, m_end, m_bucket;
  uint64_t m_last = 0;
  uint64_t m_value = 0;
  uint64_t m_max = 0;
  unsigned __int128 m_integral = 0;
  uint64_t m_time = 0;
  std::vector<uint64_t> m_hist;
};

}  // namespace mmusim
