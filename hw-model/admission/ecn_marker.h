#pragma once
// WRED/ECN decision on an egress queue (SONiC WRED_PROFILE attached through QUEUE), in
// integers so the RTL admission unit can carry it: the RED-ECN rule of DCQCN (K_min,
// K_max, P_max) as the HPCC ns-3 switch applies it (SwitchMmu::ShouldSendCN):
//   q <= min          never
//   min < q <= max    with probability P_max * (q - min) / (max - min)
//   q > max           always
// q is the queue's egress counter in cells without the packet decided on. The probability
// is a Q16 fraction and the draw a 16-bit number r from a SplitMix64 stream per egress
// port: the packet is hit iff r * (max - min) < P_max_q16 * (q - min), so
// P(hit) = ceil(P_max_q16 * (q - min) / (max - min)) / 2^16 exactly. A draw is taken only
// when min < q <= max, so marking is deterministic per seed and touches no other randomness.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mmusim::admission {

constexpr uint32_t kWredProbOne = 1u << 16;  // probability 1 in Q16

// One colour's curve in cells.
struct WredCurve {
  uint64_t min_cells = 0;
  uint64_t max_cells = 0;
  uint32_t p_max_q16 = 0;  // 0 ... kWredProbOne
};

// An egress queue's WRED set-up for green packets (mmusim colours every packet green).
struct WredQueueConfig {
  bool active = false;  // a profile with a green curve is attached
  WredCurve green;
  bool mark = false;  // the profile's ecn mode marks green: ECT packets become CE
  bool drop = false;  // wred_green_enable on a lossy queue: packets not marked are dropped
};

enum class WredAction : uint8_t { kPass = 0, kMark = 1, kDrop = 2 };

// True iff a packet meeting queue length q and draw r16 (0 ... 65535) is hit by the curve.
// `needs_draw` says whether r16 matters at all (min < q <= max).
bool wred_needs_draw(const WredCurve& c, uint64_t q_cells);
bool wred_hit(const WredCurve& c, uint64_t q_cells, uint32_t r16);

// SplitMix64 (Steele, Lea, Flood, OOPSLA 2014): state += 0x9E3779B97F4A7C15, output the
// state through the SplitMix64 finaliser; 16-bit draws are the output's top bits.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : m_state(seed) {}
  uint64_t next();
  uint32_t next16() { return uint32_t(next() >> 48); }

 private:
  uint64_t m_state;
};

// The WRED/ECN block of one switch: per (port, queue) configuration, one random stream per
// egress port seeded from `seed` (the scenario seed mixed with the switch), and the
// decision. What a decision may do depends on where it is taken (wred.mark_at): marking at
// dequeue leaves only drops to the enqueue decision.
class EcnMarker {
 public:
  // queues[port * prios + queue]; `ports` streams.
  EcnMarker(std::vector<WredQueueConfig> queues, uint32_t ports, uint32_t prios, uint64_t seed);

  // ecn: the packet's IP ECN field (0 Not-ECT, 1/2 ECT, 3 CE). allow_mark / allow_drop:
  // the actions this decision point takes; a packet whose action is the other one passes
  // without a draw.
  WredAction decide(uint32_t port, uint32_t queue, uint64_t q_cells, uint8_t ecn, bool allow_mark, bool allow_drop);

  const WredQueueConfig& queue(uint32_t port, uint32_t q) const { return m_q[size_t(port) * m_prios + q]; }
  uint64_t draws() const { return m_draws; }

 private:
  std::vector<WredQueueConfig> m_q;
  uint32_t m_prios;
  std::vector<SplitMix64> m_rng;  // per egress port
  uint64_t m_draws = 0;
};

}  // namespace mmusim::admission
