#pragma once
// A flow (5-tuple) from a generator, and what happened to it.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/packet.h"
#include "config/transport_config.h"

namespace mmusim {

// The fields the source NIC reads for every packet it sends come first, in one aligned
// cache line and the start of the next (a large network visits each NIC's flows rarely,
// so each line a send touches is a miss).
struct alignas(64) Flow {
  // Sender, per packet.
  uint64_t bytes = 0;
  uint64_t sent_bytes = 0;
  uint64_t highest_sent = 0;  // bytes sent at least once; a packet below is a retransmission
  FiveTuple tuple;
  uint32_t packet_bytes = 0;
  uint32_t packets_sent = 0;
  // Transport (host.transport): which one, the sender's per-flow state (a slot of the
  // source NIC's, kNoTransport when none or released).
  static constexpr uint32_t kNoTransport = ~0u;
  uint32_t cc = kNoTransport;
  uint8_t dscp = 0;
  uint8_t ecn = 0;  // IP ECN field of its data packets (GeneratorCfg::ecn)
  int8_t pcp = -1;
  uint8_t prio = 0;  // traffic class on the first link (the NIC uses the switch port's map)
  bool queued = false;        // in the NIC's ready or waiting list
  bool retx_pending = false;  // TCP: the sender's fast retransmission of the segment at acked_bytes is pending
  bool hold_served = false;   // the next packet has had its Smart-Pause hold
  TransportKind transport = TransportKind::kNone;
  // INT class (int.header_bytes): each data frame is this much larger than the flow bytes it carries.
  uint16_t int_header_bytes = 0;
  uint64_t rate_bps = 0;  // 0 = line rate
  uint64_t start_ps = 0;
  // ACK transport (host.acks): sender side of go-back-N and Smart-Pause.
  uint64_t acked_bytes = 0;      // cumulative: the receiver has every byte below
  uint64_t rto_deadline_ps = 0;  // 0 = timer off
  uint64_t last_owd_ps = 0;      // OWD of the last acknowledged packet (valid when acks > 0)
  uint64_t rewind_ps = 0;        // time of the last go-back-N rewind: older packets' ACKs cannot rewind again
  uint64_t acks = 0;             // ACKs the sender received
  uint32_t switch_hops = 1;      // switches on the flow's routed path; Smart-Pause's T depends on it

  uint32_t id = 0;
  uint32_t generator = 0;
  uint32_t src = 0, dst = 0;  // host indices
  bool has_ports = false;  // ports and protocol come from the generator (traces)
  // Outcome.
  uint64_t received_bytes = 0;
  uint64_t finish_ps = 0;  // 0 = not completed
  // The unloaded RTT of the routed path (PowerTCP's tau), a RoCE flow's RTO; at the
  // receiver, DCQCN's NP: the last CNP sent.
  uint64_t base_rtt_ps = 0;
  uint64_t rto_ps = 0;  // RoCE: the path's retransmission timeout; 0: host.acks.rto_us
  bool cnp_sent = false;
  uint64_t last_cnp_ps = 0;
  // TCP (DCTCP, Cubic): the receiver keeps out-of-order data, [begin, end) byte ranges past
  // received_bytes, sorted and disjoint.
  std::vector<std::pair<uint64_t, uint64_t>> ooo;
};
static_assert(offsetof(Flow, int_header_bytes) < 64, "a send's fields in the first line");

using FlowTable = std::vector<Flow>;

inline uint32_t host_ip(uint32_t host) { return 0x0A000000u | (host + 1); }  // 10.0.x.y

}  // namespace mmusim
