#include "admission/ewma.h"

#include <stdexcept>

namespace mmusim::admission {

void Ewma::reset(size_t queues) {
  m_avg.assign(queues, 0);
  m_period.assign(queues, 0);
}

void Ewma::load(const std::vector<uint64_t>& avg) {
  if (avg.size() != m_avg.size()) throw std::invalid_argument("filter state: wrong number of queues");
  m_avg = avg;
}

uint64_t Ewma::step(uint64_t avg_fx, uint64_t q, uint8_t k, uint8_t frac_bits) {
  const uint64_t target = q << frac_bits;
  if (target >= avg_fx) return avg_fx + ((target - avg_fx) >> k);
  // (target - avg) >>> k for a negative difference: -ceil(|d| / 2^k).
  const uint64_t d = avg_fx - target;
  return avg_fx - (d >> k) - ((d & ((uint64_t(1) << k) - 1)) != 0);
}

void Ewma::update(size_t i, uint64_t q) {
  uint64_t a = step(m_avg[i], q, m_cfg->k, m_cfg->frac_bits);
  if (m_cfg->clamp && a > (q << m_cfg->frac_bits)) a = q << m_cfg->frac_bits;
  m_avg[i] = a;
}

void Ewma::advance(size_t i, uint64_t q, uint64_t cycle) {
  if (m_cfg->rule != EwmaConfig::Rule::kPeriodic) return;
  const uint64_t now = cycle / m_cfg->period_cycles;
  // Converged filters stop changing, so the catch-up loop ends early on idle queues.
  for (; m_period[i] < now; ++m_period[i]) {
    const uint64_t before = m_avg[i];
    update(i, q);
    if (m_avg[i] == before) {
      m_period[i] = now;
      break;
    }
  }
}

void Ewma::on_arrival(size_t i, uint64_t q, uint64_t cycle) {
  if (m_cfg->rule == EwmaConfig::Rule::kPeriodic) advance(i, q, cycle);
  else if (m_cfg->rule == EwmaConfig::Rule::kEnqueueDequeue) update(i, q);
}

void Ewma::on_departure(size_t i, uint64_t q_before, uint64_t q_after, uint64_t cycle) {
  if (m_cfg->rule == EwmaConfig::Rule::kPeriodic) advance(i, q_before, cycle);
  else update(i, q_after);
}

}  // namespace mmusim::admission
