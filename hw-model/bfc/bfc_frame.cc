#include "bfc/bfc_frame.h"

#include <algorithm>

#include "pfc/pfc_frame.h"

namespace mmusim {

namespace {

constexpr std::array<uint8_t, 6> kDstMac{0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
constexpr size_t kSrcOff = 6, kTypeOff = 12, kOpOff = 14, kQueueOff = 16, kMapOff = 18;
constexpr size_t kMapBytes = kBfcMaxQueues / 8;
constexpr size_t kFcsOff = kBfcFrameBytes - 4;

}  // namespace

std::array<uint8_t, kBfcFrameBytes> encode_bfc(const BfcFrame& f) {
  std::array<uint8_t, kBfcFrameBytes> out{};
  std::copy(kDstMac.begin(), kDstMac.end(), out.begin());
  std::copy(f.src_mac.begin(), f.src_mac.end(), out.begin() + kSrcOff);
  out[kTypeOff] = uint8_t(kBfcEtherType >> 8);
  out[kTypeOff + 1] = uint8_t(kBfcEtherType);
  out[kOpOff] = uint8_t(f.op);
  out[kQueueOff] = uint8_t(f.queue >> 8);
  out[kQueueOff + 1] = uint8_t(f.queue);
  for (size_t i = 0; i < kMapBytes; ++i) out[kMapOff + i] = uint8_t(f.paused.w[i / 8] >> (8 * (i % 8)));
  const uint32_t fcs = crc32_ieee(out.data(), kFcsOff);
  for (size_t i = 0; i < 4; ++i) out[kFcsOff + i] = uint8_t(fcs >> (8 * i));
  return out;
}

std::optional<BfcFrame> decode_bfc(const uint8_t* data, size_t len) {
  if (data == nullptr || len != kBfcFrameBytes) return std::nullopt;
  if (!std::equal(kDstMac.begin(), kDstMac.end(), data)) return std::nullopt;
  if ((uint16_t(data[kTypeOff] << 8) | data[kTypeOff + 1]) != kBfcEtherType) return std::nullopt;
  if (data[kOpOff] < 1 || data[kOpOff] > 3) return std::nullopt;
  uint32_t fcs = 0;
  for (size_t i = 0; i < 4; ++i) fcs |= uint32_t(data[kFcsOff + i]) << (8 * i);
  if (crc32_ieee(data, kFcsOff) != fcs) return std::nullopt;
  BfcFrame f;
  std::copy(data + kSrcOff, data + kSrcOff + 6, f.src_mac.begin());
  f.op = BfcFrame::Op(data[kOpOff]);
  f.queue = uint16_t((data[kQueueOff] << 8) | data[kQueueOff + 1]);
  for (size_t i = 0; i < kMapBytes; ++i) f.paused.w[i / 8] |= uint64_t(data[kMapOff + i]) << (8 * (i % 8));
  return f;
}

}  // namespace mmusim
