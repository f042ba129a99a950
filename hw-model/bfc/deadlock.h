#pragma once
// End-of-run deadlock check of a BFC switch (bfc-nsdi22 Appendix B): an upstream queue
// paused by this switch (pause counter > 0) is released only when every packet it counted
// has left. It is *draining* while at least one of those packets can still leave (it sits
// in an egress queue its peer does not pause, or is on the wire); otherwise it is
// *deadlocked*: nothing this switch can do will resume it.
#include <cstdint>
#include <string>
#include <vector>

#include "bfc/pause_counters.h"

namespace mmusim {

struct BfcDeadlockReport {
  uint32_t unresolved = 0;  // pause counters still non-zero
  uint32_t draining = 0;
  uint32_t deadlocked = 0;
  std::vector<std::pair<uint32_t, uint32_t>> stuck;  // deadlocked (ingress port, upstreamQ)
};

// can_drain[port * queues + q]: a counted packet of (port, q) can still leave.
inline BfcDeadlockReport bfc_deadlock_check(const BfcPauseCounters& c, const std::vector<uint8_t>& can_drain) {
  BfcDeadlockReport r;
  for (uint32_t port = 0; port < c.ports(); ++port)
    for (uint32_t q = 0; q < c.queues(); ++q) {
      if (c.value(port, q) == 0) continue;
      ++r.unresolved;
      if (can_drain.at(size_t(port) * c.queues() + q)) {
        ++r.draining;
      } else {
        ++r.deadlocked;
        r.stuck.emplace_back(port, q);
      }
    }
  return r;
}

}  // namespace mmusim
