#pragma once
// PFC frame codec (802.1Qbb) and pause arithmetic; the frame itself is in common/frames.h.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "common/frames.h"

namespace mmusim {

// Ethernet CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, init and final
// XOR 0xFFFFFFFF). Exported so tests can check it against the standard vector.
uint32_t crc32_ieee(const uint8_t* data, size_t len);

// Layout: dst 01:80:C2:00:00:01, src, EtherType 0x8808, opcode 0x0101,
// class-enable vector (2 bytes BE, high byte reserved = 0), eight 2-byte BE
// pause times, zero padding to 60 bytes, FCS in wire (little-endian) order.
std::array<uint8_t, kPfcFrameBytes> encode_pfc(const PfcFrame& frame);

// nullopt unless len == kPfcFrameBytes and dst, EtherType, opcode and FCS are
// right. The reserved high byte of the class-enable vector and the padding are
// ignored, as 802.1Qbb requires of a receiver.
std::optional<PfcFrame> decode_pfc(const uint8_t* data, size_t len);

// Pause duration of `quanta` (x 512 bit times) on a link of `link_bps`, in
// picoseconds, rounded up so a pause is never shortened. Throws
// std::invalid_argument if link_bps == 0, std::overflow_error if the result
// does not fit in 64 bits (only below 2 b/s).
uint64_t pause_quanta_to_ps(uint16_t quanta, uint64_t link_bps);

// Deterministic locally-administered unicast MAC 02:SS:SS:SS:PP:PP (so
// 02:00:00:SS:PP:PP for switch ids below 256). Throws std::out_of_range if
// switch_id > 0xFFFFFF or port > 0xFFFF, since truncating would alias MACs.
std::array<uint8_t, 6> port_mac(uint32_t switch_id, uint32_t port);

}  // namespace mmusim
