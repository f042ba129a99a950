#pragma once
// n_p of Reverie Eq. 6 and ABM: the number of congested queues of each priority, kept
// incrementally in fixed point (8 fraction bits) as queue lengths change. The rule is read
// live (CONGESTED_CELLS); the RTL refuses a change while the buffer holds cells, so the
// count never mixes two rules.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "admission/types.h"

namespace mmusim::admission {

class CongestionCount {
 public:
  static constexpr int kFrac = 8;

  // `rule` must outlive the count (the core's configuration, rewritten in place).
  explicit CongestionCount(const CongestionRule& rule) : m_rule(&rule) {}

  void reset(uint32_t prios) { m_n.assign(prios, 0); }
  // A queue of priority `prio` went from `before` to `after` cells.
  void update(uint32_t prio, uint64_t before, uint64_t after) {
    m_n[prio] += contribution(after);
    m_n[prio] -= contribution(before);
  }
  // n_p in fixed point, at least 1.0 so a lone queue is not divided by zero.
  uint64_t n_fx(uint32_t prio) const { return at_least_one(m_n[prio]); }
  static uint64_t at_least_one(uint64_t n) { return n < (uint64_t(1) << kFrac) ? uint64_t(1) << kFrac : n; }
  uint64_t contribution(uint64_t q) const {
    const uint64_t one = uint64_t(1) << kFrac;
    if (m_rule->kind == CongestionRule::Kind::kThreshold) return q >= m_rule->cells ? one : 0;
    if (q >= m_rule->cells) return one;
    return (q << kFrac) / m_rule->cells;  // min(1, q / cells), floored
  }
  // The raw count per priority, kFrac fraction bits (architectural state).
  const std::vector<uint64_t>& counts() const { return m_n; }
  void load(const std::vector<uint64_t>& n) {
    if (n.size() != m_n.size()) throw std::invalid_argument("n_p state: wrong number of priorities");
    m_n = n;
  }

 private:
  const CongestionRule* m_rule;
  std::vector<uint64_t> m_n;
};

}  // namespace mmusim::admission
