#include "pfc/pfc_frame.h"

#include <algorithm>
#include <stdexcept>

namespace mmusim {

namespace {

constexpr std::array<uint8_t, 6> kPfcDstMac{0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
constexpr uint16_t kMacControlEtherType = 0x8808;
constexpr uint16_t kPfcOpcode = 0x0101;
constexpr size_t kFcsOffset = kPfcFrameBytes - 4;

// Byte offsets within the frame.
constexpr size_t kSrcOff = 6;
constexpr size_t kEtherTypeOff = 12;
constexpr size_t kOpcodeOff = 14;
constexpr size_t kEnableOff = 16;
constexpr size_t kTimesOff = 18;

// Hand-rolled rather than zlib's crc32(): zlib would be an extra link
// dependency for 30 lines of code. The table is built at compile time.
constexpr std::array<uint32_t, 256> make_crc_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int bit = 0; bit < 8; ++bit) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    table[i] = c;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kCrcTable = make_crc_table();

void put_be16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}

uint16_t get_be16(const uint8_t* p) { return static_cast<uint16_t>((p[0] << 8) | p[1]); }

}  // namespace

uint32_t crc32_ieee(const uint8_t* data, size_t len) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < len; ++i) crc = kCrcTable[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

std::array<uint8_t, kPfcFrameBytes> encode_pfc(const PfcFrame& frame) {
  std::array<uint8_t, kPfcFrameBytes> out{};  // zero-initialised: padding is already 0
  std::copy(kPfcDstMac.begin(), kPfcDstMac.end(), out.begin());
  std::copy(frame.src_mac.begin(), frame.src_mac.end(), out.begin() + kSrcOff);
  put_be16(&out[kEtherTypeOff], kMacControlEtherType);
  put_be16(&out[kOpcodeOff], kPfcOpcode);
  put_be16(&out[kEnableOff], frame.class_enable);
  for (size_t i = 0; i < frame.quanta.size(); ++i) put_be16(&out[kTimesOff + 2 * i], frame.quanta[i]);
  // The FCS goes on the wire least-significant byte first.
  const uint32_t fcs = crc32_ieee(out.data(), kFcsOffset);
  for (size_t i = 0; i < 4; ++i) out[kFcsOffset + i] = static_cast<uint8_t>(fcs >> (8 * i));
  return out;
}

std::optional<PfcFrame> decode_pfc(const uint8_t* data, size_t len) {
  if (data == nullptr || len != kPfcFrameBytes) return std::nullopt;
  if (!std::equal(kPfcDstMac.begin(), kPfcDstMac.end(), data)) return std::nullopt;
  if (get_be16(data + kEtherTypeOff) != kMacControlEtherType) return std::nullopt;
  if (get_be16(data + kOpcodeOff) != kPfcOpcode) return std::nullopt;
  const uint32_t fcs = static_cast<uint32_t>(data[kFcsOffset]) | (static_cast<uint32_t>(data[kFcsOffset + 1]) << 8) |
                       (static_cast<uint32_t>(data[kFcsOffset + 2]) << 16) |
                       (static_cast<uint32_t>(data[kFcsOffset + 3]) << 24);
  if (crc32_ieee(data, kFcsOffset) != fcs) return std::nullopt;

  PfcFrame frame;
  std::copy(data + kSrcOff, data + kSrcOff + frame.src_mac.size(), frame.src_mac.begin());
  frame.class_enable = data[kEnableOff + 1];  // high byte is reserved
  for (size_t i = 0; i < frame.quanta.size(); ++i) frame.quanta[i] = get_be16(data + kTimesOff + 2 * i);
  return frame;
}

uint64_t pause_quanta_to_ps(uint16_t quanta, uint64_t link_bps) {
  if (link_bps == 0) throw std::invalid_argument("pause_quanta_to_ps: link_bps must be non-zero");
  // quanta * 512 * 1e12 reaches ~3.4e19, past 2^64, so compute in 128 bits
  // (a GCC/Clang extension; __extension__ keeps -Wpedantic quiet).
  __extension__ typedef unsigned __int128 u128;
  const u128 bit_ps = static_cast<u128>(quanta) * 512u * 1'000'000'000'000u;
  const u128 ps = (bit_ps + link_bps - 1) / link_bps;
  if (ps > UINT64_MAX) throw std::overflow_error("pause_quanta_to_ps: result exceeds 64 bits");
  return static_cast<uint64_t>(ps);
}

std::array<uint8_t, 6> port_mac(uint32_t switch_id, uint32_t port) {
  if (switch_id > 0xFFFFFFu) throw std::out_of_range("port_mac: switch_id exceeds 24 bits");
  if (port > 0xFFFFu) throw std::out_of_range("port_mac: port exceeds 16 bits");
  // 0x02: locally administered (bit 1) and unicast (bit 0 clear).
  return {0x02,
          static_cast<uint8_t>(switch_id >> 16),
          static_cast<uint8_t>(switch_id >> 8),
          static_cast<uint8_t>(switch_id),
          static_cast<uint8_t>(port >> 8),
          static_cast<uint8_t>(port)};
}

}  // namespace mmusim
