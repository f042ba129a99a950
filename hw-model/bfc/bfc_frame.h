#pragma once
// BFC frame codec (bfc-nsdi22 §3.3.2); the frame itself is in common/frames.h.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "common/frames.h"

namespace mmusim {

// IEEE 802 local experimental EtherType: BFC has no assigned one.
constexpr uint16_t kBfcEtherType = 0x88B5;

// Layout: dst 01:80:C2:00:00:01 (link-local, not forwarded), src, EtherType 0x88B5,
// opcode (1 byte), reserved (1), queue (2, BE), bitmap (16, queue 0 = bit 0 of byte 0),
// zero padding to 60 bytes, FCS in wire order.
std::array<uint8_t, kBfcFrameBytes> encode_bfc(const BfcFrame& f);
// nullopt unless length, dst, EtherType, opcode and FCS are right.
std::optional<BfcFrame> decode_bfc(const uint8_t* data, size_t len);

}  // namespace mmusim
