#pragma once
// Reverie's low-pass filter (Eq. 5) as hardware computes it: per queue, q_hat in fixed point
// with F fraction bits, q_hat <- q_hat + ((q << F) - q_hat) >>> k (arithmetic shift, so a
// negative difference rounds towards minus infinity), gamma = 1 - 2^-k. The block reads its
// configuration live, as the RTL's filter reads CTRL: a run-time write of k, the rule or the
// clamp applies from the next update on.
#include <cstdint>
#include <vector>

#include "admission/types.h"

namespace mmusim::admission {

class Ewma {
 public:
  // `cfg` must outlive the filter (the core's configuration, rewritten in place).
  explicit Ewma(const EwmaConfig& cfg) : m_cfg(&cfg) {}
  void reset(size_t queues);
  // One filter step of a fixed-point average towards q cells: the exact RTL arithmetic.
  static uint64_t step(uint64_t avg_fx, uint64_t q, uint8_t k, uint8_t frac_bits);
  // Before an arrival decision on a queue of q cells at `cycle`.
  void on_arrival(size_t i, uint64_t q, uint64_t cycle);
  // A departure took the queue from q_before to q_after cells at `cycle`.
  void on_departure(size_t i, uint64_t q_before, uint64_t q_after, uint64_t cycle);
  // Catch up periodic updates (length constant at q since the last change).
  void advance(size_t i, uint64_t q, uint64_t cycle);
  uint64_t avg_fx(size_t i) const { return m_avg[i]; }
  // q_hat in whole cells, rounded up so the comparison never under-reports.
  uint64_t avg_cells(size_t i) const {
    return (m_avg[i] + (uint64_t(1) << m_cfg->frac_bits) - 1) >> m_cfg->frac_bits;
  }
  // Every queue's q_hat in fixed point (architectural state, admission/arch_state.h).
  const std::vector<uint64_t>& avg() const { return m_avg; }
  // Loads q_hat of every queue (the periodic rule's catch-up position is kept).
  void load(const std::vector<uint64_t>& avg);
  const EwmaConfig& config() const { return *m_cfg; }

 private:
  void update(size_t i, uint64_t q);
  const EwmaConfig* m_cfg;
  std::vector<uint64_t> m_avg;
  std::vector<uint64_t> m_period;  // periodic rule: last period applied
};

}  // namespace mmusim::admission
