#pragma once
// n_p of Reverie Eq. 6 and ABM: the number of congested queues of each priority, kept
// incrementally in fixed point (8 fraction bits) as queue lengths change.
#include <cstdint>
#include <vector>

#include "admission/types.h"

namespace mmusim::admission {

class CongestionCount {
 public:
  static constexpr int kFrac = 8;

  void reset(const CongestionRule& rule, uint32_t prios) {
    m_rule = rule;
    m_n.assign(prios, 0);
  }
  // A queue of priority `prio` went from `before` to `after` cells.
  void update(uint32_t prio, uint64_t before, uint64_t after) {
    m_n[prio] += contribution(after);
    m_n[prio] -= contribution(before);
  }
  // n_p in fixed point, at least 1.0 so a lone queue is not divided by zero.
  uint64_t n_fx(uint32_t prio) const {
    return m_n[prio] < (uint64_t(1) << kFrac) ? uint64_t(1) << kFrac : m_n[prio];
  }
  uint64_t contribution(uint64_t q) const {
    const uint64_t one = uint64_t(1) << kFrac;
    if (m_rule.kind == CongestionRule::Kind::kThreshold) return q >= m_rule.cells ? one : 0;
    if (q >= m_rule.cells) return one;
    return (q << kFrac) / m_rule.cells;  // min(1, q / cells), floored
  }

 private:
  CongestionRule m_rule;
  std::vector<uint64_t> m_n;
};

}  // namespace mmusim::admission
