#pragma once
// A flow (5-tuple) from a generator, and what happened to it.
#include <cstdint>
#include <vector>

#include "common/packet.h"

namespace mmusim {

struct Flow {
  uint32_t id = 0;
  uint32_t generator = 0;
  uint32_t src = 0, dst = 0;  // host indices
  FiveTuple tuple;
  bool has_ports = false;  // ports and protocol come from the generator (traces)
  uint8_t dscp = 0;
  int8_t pcp = -1;
  uint64_t bytes = 0;
  uint64_t rate_bps = 0;  // 0 = line rate
  uint32_t packet_bytes = 0;
  uint64_t start_ps = 0;
  uint8_t prio = 0;  // traffic class on the first link (the NIC uses the switch port's map)
  // Outcome.
  uint64_t sent_bytes = 0;
  uint64_t received_bytes = 0;
  uint64_t finish_ps = 0;  // 0 = not completed
  uint32_t packets_sent = 0;
};

using FlowTable = std::vector<Flow>;

inline uint32_t host_ip(uint32_t host) { return 0x0A000000u | (host + 1); }  // 10.0.x.y

}  // namespace mmusim
