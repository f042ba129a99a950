#include "host/smart_pause.h"

#include <algorithm>
#include <stdexcept>

namespace mmusim {

uint64_t smart_pause_threshold_ps(const HostCfg& c, uint32_t switch_hops) {
  if (c.threshold_ps.empty() || switch_hops == 0)
    throw std::logic_error("smart-pause threshold needs a configured T and a path of at least one switch");
  return c.threshold_ps[std::min<size_t>(switch_hops, c.threshold_ps.size()) - 1];
}

uint64_t smart_pause_hold_ps(const HostCfg& c, bool has_owd, uint64_t owd_ps, uint32_t switch_hops) {
  if (!c.smart_pause || !has_owd) return 0;
  const uint64_t t = smart_pause_threshold_ps(c, switch_hops);
  if (owd_ps <= t) return 0;
  return c.dynamic_pause ? owd_ps - t : c.pause_ps;
}

}  // namespace mmusim
