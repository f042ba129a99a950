#pragma once
// How a queue's threshold follows from the state, for a caller that reads it at every
// operation (the MMU's threshold statistics) and would otherwise ask the policy through
// two virtual calls: a constant of the configuration, Dynamic Thresholds over one pool's
// occupancy as the thresholds read it (Policy::dt_threshold, inline here), or only the
// policy knows (more state sets it). A form holds until the configuration changes.
#include <cstdint>

namespace mmusim::admission {

struct ThresholdForm {
  enum class Kind : uint8_t { kPolicy, kFixed, kDt };
  Kind kind = Kind::kPolicy;
  // kDt: alpha = 2^(left - right), one of them 0; the threshold saturates at `max` above
  // `limit` free cells (max >> left; never when alpha < 1).
  uint8_t left = 0, right = 0;
  uint16_t pool = 0;
  uint64_t cells = 0;  // kFixed: the threshold; kDt: the pool's size
  uint64_t limit = 0, max = 0;

  static ThresholdForm fixed(uint64_t cells) { return {Kind::kFixed, 0, 0, 0, cells, 0, 0}; }
  static ThresholdForm dt(uint16_t pool, uint64_t size, int8_t shift, uint64_t max) {
    if (shift < 0) return {Kind::kDt, 0, uint8_t(-shift), pool, size, ~uint64_t(0), max};
    return {Kind::kDt, uint8_t(shift), 0, pool, size, max >> shift, max};
  }
  // A kFixed or kDt threshold, from every pool's occupancy as the thresholds read it
  // (AdmissionCore::threshold_pools_used): Policy::dt_threshold's arithmetic.
  uint64_t eval(const uint64_t* pools) const {
    if (kind == Kind::kFixed) return cells;
    const uint64_t used = pools[pool];
    const uint64_t free = used >= cells ? 0 : cells - used;
    return free > limit ? max : free << left >> right;
  }
};

}  // namespace mmusim::admission
