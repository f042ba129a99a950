#pragma once
// What the host transports did, per transport (host.transport): counted at the NIC that
// did it (a sender's CNPs and ECE-marked ACKs received, fast retransmits, timeouts, window-
// limited picks; a receiver's CNPs sent and out-of-order data kept), saturating at 2^64 - 1
// rather than wrapping. summary.json `transport` (docs/outputs.md).
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/transport_config.h"

namespace mmusim {

inline void sat_inc(uint64_t& c) {
  if (c != std::numeric_limits<uint64_t>::max()) ++c;
}

struct TransportCounters {
  uint64_t flows = 0;             // flows started with this transport (sender)
  uint64_t cnps_sent = 0;         // DCQCN NP (receiver)
  uint64_t cnps_received = 0;     // DCQCN RP (sender)
  uint64_t ece_acks = 0;          // ACKs with ECE received (sender)
  uint64_t fast_retransmits = 0;  // TCP: dup-ACK threshold or partial ACK (sender)
  uint64_t timeouts = 0;          // RTO expiries with data outstanding (sender)
  uint64_t out_of_order_kept = 0; // TCP receivers: data past the next expected byte, kept
  uint64_t window_blocked = 0;    // picks refused because the window was full (sender)
};

// Indexed by TransportKind; kNone's entry stays unused.
using TransportCounterSet = std::array<TransportCounters, 5>;

class Host;

// summary.json `transport`: one object per transport that had a flow or a count, the
// hosts' counters added (saturating).
nlohmann::json transport_summary(const std::vector<std::unique_ptr<Host>>& hosts);

}  // namespace mmusim
