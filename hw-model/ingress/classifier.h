#pragma once
// Traffic class of a frame at a port: PCP through DOT1P_TO_TC_MAP when tagged and the port
// has one, else DSCP through DSCP_TO_TC_MAP (class selector dscp>>3 by default).
#include <cstdint>

#include "config/scenario.h"

namespace mmusim {

inline uint8_t classify(const BufferCfg& b, uint32_t port, uint8_t dscp, int pcp) {
  if (pcp >= 0 && b.has_dot1p_map[port]) return b.dot1p_to_tc[port][size_t(pcp) & 7];
  return b.dscp_to_tc[port][dscp & 63];
}

}  // namespace mmusim
