#include "admission/ecn_marker.h"

#include <stdexcept>
#include <string>

namespace mmusim::admission {

bool wred_needs_draw(const WredCurve& c, uint64_t q_cells) { return q_cells > c.min_cells && q_cells <= c.max_cells; }

bool wred_hit(const WredCurve& c, uint64_t q_cells, uint32_t r16) {
  if (q_cells <= c.min_cells) return false;
  if (q_cells > c.max_cells) return true;
  // min < q <= max, so max > min; 128-bit products never overflow.
  const unsigned __int128 lhs = (unsigned __int128)r16 * (c.max_cells - c.min_cells);
  const unsigned __int128 rhs = (unsigned __int128)c.p_max_q16 * (q_cells - c.min_cells);
  return lhs < rhs;
}

uint64_t SplitMix64::next() {
  uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

EcnMarker::EcnMarker(std::vector<WredQueueConfig> queues, uint32_t ports, uint32_t prios, uint64_t seed)
    : m_q(std::move(queues)), m_prios(prios) {
  if (m_q.size() != size_t(ports) * prios)
    throw std::invalid_argument("EcnMarker: " + std::to_string(m_q.size()) + " queue configurations for " +
                                std::to_string(ports) + " ports x " + std::to_string(prios) + " queues");
  for (const auto& q : m_q)
    if (q.active && (q.green.min_cells > q.green.max_cells || q.green.p_max_q16 > kWredProbOne))
      throw std::invalid_argument("EcnMarker: a curve with min > max or a probability above 1");
  // Each port's stream starts at a state drawn from the seed's own stream.
  SplitMix64 base(seed);
  for (uint32_t p = 0; p < ports; ++p) m_rng.emplace_back(base.next());
}

WredAction EcnMarker::decide(uint32_t port, uint32_t queue, uint64_t q_cells, uint8_t ecn, bool allow_mark,
                             bool allow_drop) {
  const WredQueueConfig& c = m_q[size_t(port) * m_prios + queue];
  if (!c.active) return WredAction::kPass;
  const WredAction action = c.mark && ecn != 0 ? WredAction::kMark : c.drop ? WredAction::kDrop : WredAction::kPass;
  if (action == WredAction::kPass || (action == WredAction::kMark && !allow_mark) ||
      (action == WredAction::kDrop && !allow_drop))
    return WredAction::kPass;
  uint32_t r = 0;
  if (wred_needs_draw(c.green, q_cells)) {
    r = m_rng[port].next16();
    ++m_draws;
  }
  return wred_hit(c.green, q_cells, r) ? action : WredAction::kPass;
}

}  // namespace mmusim::admission
