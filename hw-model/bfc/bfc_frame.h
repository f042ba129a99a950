#pragma once
// BFC pause frame (bfc-nsdi22 §3.3.2): tells the upstream transmitter which of its queues
// are paused. Every frame carries the whole bitmap of the sender's view of that upstream
// port, so state is idempotent: a pause (counter 0->1), a resume (1->0) and the periodic
// refresh differ only in their opcode, and a lost frame is repaired by the next one.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "config/bfc_config.h"

namespace mmusim {

// One bit per queue, queues 0..kBfcMaxQueues-1.
struct QueueMask {
  std::array<uint64_t, kBfcMaxQueues / 64> w{};
  bool test(uint32_t q) const { return w[q / 64] >> (q % 64) & 1; }
  void set(uint32_t q, bool v) {
    if (v) w[q / 64] |= uint64_t(1) << (q % 64);
    else w[q / 64] &= ~(uint64_t(1) << (q % 64));
  }
  bool any() const {
    for (uint64_t x : w)
      if (x) return true;
    return false;
  }
  uint32_t count() const {
    uint32_t n = 0;
    for (uint64_t x : w) n += uint32_t(__builtin_popcountll(x));
    return n;
  }
  bool operator==(const QueueMask& o) const { return w == o.w; }
};

struct BfcFrame {
  enum class Op : uint8_t { kPause = 1, kResume = 2, kRefresh = 3 };
  std::array<uint8_t, 6> src_mac{};
  Op op = Op::kRefresh;
  uint16_t queue = 0;  // the upstream queue whose state changed (kPause/kResume)
  QueueMask paused;    // the upstream port's paused queues after this frame
};

constexpr size_t kBfcFrameBytes = 64;  // minimum Ethernet frame, like PFC
// IEEE 802 local experimental EtherType: BFC has no assigned one.
constexpr uint16_t kBfcEtherType = 0x88B5;

// Layout: dst 01:80:C2:00:00:01 (link-local, not forwarded), src, EtherType 0x88B5,
// opcode (1 byte), reserved (1), queue (2, BE), bitmap (16, queue 0 = bit 0 of byte 0),
// zero padding to 60 bytes, FCS in wire order.
std::array<uint8_t, kBfcFrameBytes> encode_bfc(const BfcFrame& f);
// nullopt unless length, dst, EtherType, opcode and FCS are right.
std::optional<BfcFrame> decode_bfc(const uint8_t* data, size_t len);

}  // namespace mmusim
