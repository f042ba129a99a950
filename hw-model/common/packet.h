#pragma once
// A frame on the wire or in the buffer. Pooled: the hot path never allocates.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/frames.h"

namespace mmusim {

struct FiveTuple {
  uint32_t src_ip = 0;
  uint32_t dst_ip = 0;
  uint16_t src_port = 0;
  uint16_t dst_port = 0;
  uint8_t proto = 17;  // UDP, as RoCEv2
};

// One switch's INT record (PowerTCP/HPCC), appended at egress to INT-enabled data packets.
struct IntHop {
  uint64_t ts_ps = 0;       // egress timestamp
  uint64_t tx_bytes = 0;    // bytes the egress port has transmitted so far
  uint64_t rate_bps = 0;    // egress link rate
  uint32_t qlen_bytes = 0;  // egress queue length at dequeue
};

// A frame's fields but its INT records: what the pool resets when it hands a frame out
// again. The fields the switch reads per hop come first (one cache line); the records are
// read only below their counts (int_hops, int_echo_hops), so a reused frame leaves them.
struct PacketHead {
  enum class Kind : uint8_t { kData, kPfc, kBfc };
  Kind kind = Kind::kData;
  uint8_t dscp = 0;
  uint8_t ecn = 0;      // IP ECN field (RFC 3168): 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE
  int8_t pcp = -1;      // >= 0: 802.1Q tagged
  // Filled by the switch ingress pipeline: the traffic class (also the PFC priority) and the
  // priority group it maps to at the ingress port, the admission core's priority index.
  uint8_t tc = 0;
  uint8_t prio = 0;
  bool headroom = false;  // admitted into PFC headroom
  // Host transport (host.acks): data carry their byte offset and send time; an ACK (a data
  // frame to the switch) echoes them with the arrival time and the receiver's cumulative ack.
  bool ack = false;
  uint32_t bytes = 0;   // frame bytes (headers + payload + FCS), without preamble/IFG
  uint32_t flow = 0;    // index into the flow table
  uint32_t cells = 0;
  uint16_t in_port = 0;
  uint16_t out_port = 0;
  // BFC (hw-model/bfc/): the sender's queue, stamped by the transmitting NIC or egress port;
  // then this switch's egress queue, flow-table slot, and whether a pause counter counts it.
  uint16_t upstream_q = 0;
  uint16_t queue = 0;
  FiveTuple tuple;
  uint32_t bfc_slot = 0;
  bool bfc_counted = false;
  // Host transports (hw-model/host/transport/): ECE on an ACK echoes the acknowledged
  // packet's CE mark (DCTCP, Cubic); a CNP (DCQCN's NP -> RP, a data frame of the ACK
  // class to the switch) tells the sender its packets were CE-marked.
  bool ece = false;
  bool cnp = false;
  // INT records held (hw-model/host transports that use it, e.g. PowerTCP): one per hop;
  // on an ACK, those of the acknowledged data packet, echoed to the sender.
  static constexpr size_t kMaxIntHops = 5;
  uint8_t int_hops = 0;
  uint8_t int_echo_hops = 0;
  // The next frame of the egress queue holding this one (hw-model/egress/): a queue is a
  // list through its frames, so queueing touches no memory but theirs and the queue's.
  struct Packet* next = nullptr;
  uint64_t seq = 0;
  uint64_t tx_ps = 0;
  uint64_t rx_ps = 0;        // ACK: arrival of the acknowledged packet at the receiver
  uint64_t cum_ack = 0;      // ACK: bytes the receiver holds in order
  PfcFrame pfc;  // kind == kPfc
  BfcFrame bfc;  // kind == kBfc
};

struct Packet : PacketHead {
  std::array<IntHop, kMaxIntHops> int_stack{};
  std::array<IntHop, kMaxIntHops> int_echo{};
};

// Free-list pool; packets live until the simulation ends, so references stay valid.
class PacketPool {
 public:
  Packet* get() {
    if (m_free.empty()) {
      m_store.push_back(std::make_unique<Packet>());
      return m_store.back().get();
    }
    Packet* p = m_free.back();
    m_free.pop_back();
    static_cast<PacketHead&>(*p) = PacketHead{};
    return p;
  }
  void put(Packet* p) { m_free.push_back(p); }
  size_t in_use() const { return m_store.size() - m_free.size(); }

 private:
  std::vector<std::unique_ptr<Packet>> m_store;
  std::vector<Packet*> m_free;
};

}  // namespace mmusim
