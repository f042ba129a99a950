#pragma once
// Control frames a Packet can carry (common/packet.h): their contents only. The codecs and
// the blocks that send and obey them are in pfc/ and bfc/.
#include <array>
#include <cstddef>
#include <cstdint>

namespace mmusim {

// IEEE 802.1Qbb Priority-based Flow Control frame (a MAC Control frame).
struct PfcFrame {
  std::array<uint8_t, 6> src_mac{};  // the sending port's MAC
  uint8_t class_enable = 0;          // bit i = priority i
  std::array<uint16_t, 8> quanta{};  // pause time per priority, units of 512 bit times; 0 = resume
};

// Minimum Ethernet frame: PFC is always sent at minimum size, FCS included.
constexpr size_t kPfcFrameBytes = 64;

// Tofino2 has 128 queues per 400G port; a BFC frame's bitmap holds this many.
constexpr uint32_t kBfcMaxQueues = 128;

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
  // The first set bit at or after `from`; kBfcMaxQueues: none.
  uint32_t next(uint32_t from) const {
    for (uint32_t i = from / 64; i < w.size(); ++i) {
      uint64_t bits = w[i];
      if (i == from / 64) bits &= ~uint64_t(0) << (from % 64);
      if (bits) return i * 64 + uint32_t(__builtin_ctzll(bits));
    }
    return kBfcMaxQueues;
  }
  bool operator==(const QueueMask& o) const { return w == o.w; }
};

// First set bit of `bits` at or after `from` (< 64), cyclically; -1: none. A round robin
// over at most 64 queues in one word.
inline int first_from(uint64_t bits, int from) {
  if (const uint64_t hi = bits & (~uint64_t(0) << from)) return __builtin_ctzll(hi);
  return bits ? __builtin_ctzll(bits) : -1;
}

// BFC pause frame (bfc-nsdi22 §3.3.2): tells the upstream transmitter which of its queues
// are paused. Every frame carries the whole bitmap of the sender's view of that upstream
// port, so state is idempotent: a pause (counter 0->1), a resume (1->0) and the periodic
// refresh differ only in their opcode, and a lost frame is repaired by the next one.
struct BfcFrame {
  enum class Op : uint8_t { kPause = 1, kResume = 2, kRefresh = 3 };
  std::array<uint8_t, 6> src_mac{};
  Op op = Op::kRefresh;
  uint16_t queue = 0;  // the upstream queue whose state changed (kPause/kResume)
  QueueMask paused;    // the upstream port's paused queues after this frame
};

constexpr size_t kBfcFrameBytes = 64;  // minimum Ethernet frame, like PFC

}  // namespace mmusim
