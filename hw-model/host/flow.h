#pragma once
// A flow (5-tuple) from a generator, and what happened to it.
#include <cstdint>
#include <utility>
#include <vector>

#include "common/packet.h"
#include "config/transport_config.h"

namespace mmusim {

struct Flow {
  uint32_t id = 0;
  uint32_t generator = 0;
  uint32_t src = 0, dst = 0;  // host indices
  FiveTuple tuple;
  bool has_ports = false;  // ports and protocol come from the generator (traces)
  uint8_t dscp = 0;
  uint8_t ecn = 0;  // IP ECN field of its data packets (GeneratorCfg::ecn)
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
  uint32_t switch_hops = 1;  // switches on the flow's routed path; Smart-Pause's T depends on it
  // ACK transport (host.acks): sender side of go-back-N and Smart-Pause.
  uint64_t acked_bytes = 0;    // cumulative: the receiver has every byte below
  uint64_t highest_sent = 0;   // bytes sent at least once; a packet below is a retransmission
  uint64_t last_owd_ps = 0;    // OWD of the last acknowledged packet (valid when acks > 0)
  uint64_t rewind_ps = 0;      // time of the last go-back-N rewind: older packets' ACKs cannot rewind again
  uint64_t rto_deadline_ps = 0;  // 0 = timer off
  uint64_t acks = 0;           // ACKs the sender received
  bool hold_served = false;    // the next packet has had its Smart-Pause hold
  bool queued = false;         // in the NIC's ready or waiting list
  // Transport (host.transport): which one, the sender's per-flow state (a slot of the
  // source NIC's, kNoTransport when none or released), the unloaded RTT of the routed path
  // (PowerTCP's tau); at the receiver, DCQCN's NP: the last CNP sent.
  static constexpr uint32_t kNoTransport = ~0u;
  TransportKind transport = TransportKind::kNone;
  uint32_t cc = kNoTransport;
  uint64_t base_rtt_ps = 0;
  bool cnp_sent = false;
  uint64_t last_cnp_ps = 0;
  // TCP (DCTCP, Cubic): the receiver keeps out-of-order data, [begin, end) byte ranges past
  // received_bytes, sorted and disjoint; the sender's fast retransmission of the segment at
  // acked_bytes is pending.
  std::vector<std::pair<uint64_t, uint64_t>> ooo;
  bool retx_pending = false;
};

using FlowTable = std::vector<Flow>;

inline uint32_t host_ip(uint32_t host) { return 0x0A000000u | (host + 1); }  // 10.0.x.y

}  // namespace mmusim
