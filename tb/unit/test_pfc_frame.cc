#include "pfc/pfc_frame.h"

#include <gtest/gtest.h>
#include <pcap/pcap.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "output/pcap_writer.h"

namespace mmusim {
namespace {

using Bytes = std::array<uint8_t, kPfcFrameBytes>;

// Rewrites the FCS so a test can corrupt one header field and have decode_pfc
// reject the frame for that field alone, not for the now-stale checksum.
void refresh_fcs(Bytes& b) {
  const uint32_t fcs = crc32_ieee(b.data(), 60);
  for (size_t i = 0; i < 4; ++i) b[60 + i] = static_cast<uint8_t>(fcs >> (8 * i));
}

PfcFrame example_frame() {
  PfcFrame f;
  f.src_mac = {0x02, 0x00, 0x00, 0x01, 0x00, 0x03};
  f.class_enable = 0x08;
  f.quanta[3] = 0xFFFF;
  return f;
}

TEST(Crc32Ieee, StandardCheckValue) {
  const std::string s = "123456789";
  EXPECT_EQ(crc32_ieee(reinterpret_cast<const uint8_t*>(s.data()), s.size()), 0xCBF43926u);
  EXPECT_EQ(crc32_ieee(nullptr, 0), 0u);
}

TEST(PfcFrame, EncodeMatchesHandWrittenFrame) {
  // 802.1Qbb layout, written out field by field.
  const Bytes expected = {
      0x01, 0x80, 0xC2, 0x00, 0x00, 0x01,  // dst: MAC Control multicast
      0x02, 0x00, 0x00, 0x01, 0x00, 0x03,  // src
      0x88, 0x08,                          // EtherType: MAC Control
      0x01, 0x01,                          // opcode: PFC
      0x00, 0x08,                          // class-enable vector: priority 3
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // time[0..2]
      0xFF, 0xFF,                          // time[3]
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // time[4..7]
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // padding
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // to 60 bytes
      // FCS from Python's zlib.crc32 over bytes 0..59 (0xCCD61944), an
      // implementation independent of ours, in wire (LSB-first) order.
      0x44, 0x19, 0xD6, 0xCC};
  const Bytes actual = encode_pfc(example_frame());
  EXPECT_EQ(actual, expected);

  const uint32_t crc = crc32_ieee(actual.data(), 60);
  EXPECT_EQ(actual[60], static_cast<uint8_t>(crc));
  EXPECT_EQ(actual[61], static_cast<uint8_t>(crc >> 8));
  EXPECT_EQ(actual[62], static_cast<uint8_t>(crc >> 16));
  EXPECT_EQ(actual[63], static_cast<uint8_t>(crc >> 24));
}

TEST(PfcFrame, RoundTrip) {
  std::vector<PfcFrame> vectors;
  vectors.push_back(example_frame());
  vectors.push_back(PfcFrame{});  // all-resume
  PfcFrame all{{0x02, 0xAB, 0xCD, 0xEF, 0x12, 0x34}, 0xFF, {1, 2, 0x00FF, 0x0100, 0x1234, 0x8000, 0xFFFE, 0xFFFF}};
  vectors.push_back(all);
  for (size_t p = 0; p < 8; ++p) {
    PfcFrame f;
    f.src_mac = port_mac(7, static_cast<uint32_t>(p));
    f.class_enable = static_cast<uint8_t>(1u << p);
    f.quanta[p] = static_cast<uint16_t>(0x1111 * (p + 1));
    vectors.push_back(f);
  }
  for (const PfcFrame& in : vectors) {
    const Bytes b = encode_pfc(in);
    const std::optional<PfcFrame> out = decode_pfc(b.data(), b.size());
    ASSERT_TRUE(out.has_value());
    EXPECT_EQ(out->src_mac, in.src_mac);
    EXPECT_EQ(out->class_enable, in.class_enable);
    EXPECT_EQ(out->quanta, in.quanta);
  }
}

TEST(PfcFrame, DecodeRejectsAnyFlippedByte) {
  const Bytes good = encode_pfc(example_frame());
  for (size_t i = 0; i < good.size(); ++i) {
    Bytes bad = good;
    bad[i] ^= 0x01;
    EXPECT_FALSE(decode_pfc(bad.data(), bad.size()).has_value()) << "flipped byte " << i;
  }
}

TEST(PfcFrame, DecodeRejectsWrongHeaderFieldsEvenWithValidFcs) {
  const Bytes good = encode_pfc(example_frame());

  Bytes ethertype = good;
  ethertype[12] = 0x08;  // 0x0800, IPv4
  ethertype[13] = 0x00;
  refresh_fcs(ethertype);
  EXPECT_FALSE(decode_pfc(ethertype.data(), ethertype.size()).has_value());

  Bytes opcode = good;
  opcode[15] = 0x01;  // 0x0001, 802.3x PAUSE
  opcode[14] = 0x00;
  refresh_fcs(opcode);
  EXPECT_FALSE(decode_pfc(opcode.data(), opcode.size()).has_value());

  Bytes dst = good;
  dst[5] = 0x02;
  refresh_fcs(dst);
  EXPECT_FALSE(decode_pfc(dst.data(), dst.size()).has_value());
}

TEST(PfcFrame, DecodeRejectsWrongLength) {
  const Bytes good = encode_pfc(example_frame());
  EXPECT_FALSE(decode_pfc(good.data(), 63).has_value());
  EXPECT_FALSE(decode_pfc(good.data(), 60).has_value());
  EXPECT_FALSE(decode_pfc(good.data(), 0).has_value());
  EXPECT_FALSE(decode_pfc(nullptr, kPfcFrameBytes).has_value());
  std::array<uint8_t, kPfcFrameBytes + 1> longer{};
  std::copy(good.begin(), good.end(), longer.begin());
  EXPECT_FALSE(decode_pfc(longer.data(), longer.size()).has_value());
}

TEST(PfcFrame, DecodeIgnoresReservedEnableByte) {
  Bytes b = encode_pfc(example_frame());
  b[16] = 0xA5;
  refresh_fcs(b);
  const std::optional<PfcFrame> out = decode_pfc(b.data(), b.size());
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->class_enable, 0x08);
}

TEST(PauseQuanta, ToPicoseconds) {
  EXPECT_EQ(pause_quanta_to_ps(0xFFFF, 100'000'000'000ull), 335'539'200ull);
  EXPECT_EQ(pause_quanta_to_ps(1, 40'000'000'000ull), 12'800ull);
  EXPECT_EQ(pause_quanta_to_ps(1, 25'000'000'000ull), 20'480ull);
  EXPECT_EQ(pause_quanta_to_ps(0, 100'000'000'000ull), 0ull);
  // 512 bits at 3 Gb/s = 170666.67 ps: rounds up.
  EXPECT_EQ(pause_quanta_to_ps(1, 3'000'000'000ull), 170'667ull);
  // Intermediate exceeds 64 bits but the result fits.
  EXPECT_EQ(pause_quanta_to_ps(0xFFFF, 2), 16'776'960'000'000'000'000ull);
}

TEST(PauseQuanta, InvalidRates) {
  EXPECT_THROW(pause_quanta_to_ps(1, 0), std::invalid_argument);
  EXPECT_THROW(pause_quanta_to_ps(0xFFFF, 1), std::overflow_error);
}

TEST(PortMac, DeterministicLocallyAdministered) {
  using Mac = std::array<uint8_t, 6>;
  EXPECT_EQ(port_mac(1, 3), (Mac{0x02, 0x00, 0x00, 0x01, 0x00, 0x03}));
  EXPECT_EQ(port_mac(0x123456, 0xABCD), (Mac{0x02, 0x12, 0x34, 0x56, 0xAB, 0xCD}));
  EXPECT_EQ(port_mac(5, 9), port_mac(5, 9));
  EXPECT_NE(port_mac(5, 9), port_mac(5, 10));
  EXPECT_NE(port_mac(5, 9), port_mac(6, 9));
  EXPECT_THROW(port_mac(0x1000000, 0), std::out_of_range);
  EXPECT_THROW(port_mac(0, 0x10000), std::out_of_range);
}

class PcapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = (std::filesystem::path(::testing::TempDir()) /
             ("test_pfc_frame_" + std::to_string(getpid()) + "_" + info->name() + ".pcap"))
                .string();
  }
  void TearDown() override { std::filesystem::remove(path_); }

  std::string path_;
};

TEST_F(PcapTest, WritesNanosecondTimestampsAndBytes) {
  struct Rec {
    uint64_t time_ps;
    long sec;
    long nsec;
    Bytes bytes;
  };
  PfcFrame f = example_frame();
  std::vector<Rec> recs;
  recs.push_back({0, 0, 0, encode_pfc(f)});
  f.quanta[3] = 0;  // resume
  recs.push_back({1'234'567'890, 0, 1'234'567, encode_pfc(f)});  // sub-ns part truncated
  f.class_enable = 0x81;
  f.quanta = {10, 0, 0, 0, 0, 0, 0, 20};
  recs.push_back({5'000'000'000'123'456, 5'000, 123, encode_pfc(f)});

  {
    PcapWriter w(path_);
    for (const Rec& r : recs) w.write(r.time_ps, r.bytes.data(), r.bytes.size());
  }

  char errbuf[PCAP_ERRBUF_SIZE];
  pcap_t* p = pcap_open_offline_with_tstamp_precision(path_.c_str(), PCAP_TSTAMP_PRECISION_NANO, errbuf);
  ASSERT_NE(p, nullptr) << errbuf;
  // Read back by libpcap, which mmusim no longer uses to write: its header as libpcap's.
  EXPECT_EQ(pcap_datalink(p), DLT_EN10MB);
  EXPECT_EQ(pcap_major_version(p), 2);
  EXPECT_EQ(pcap_minor_version(p), 4);
  EXPECT_EQ(pcap_snapshot(p), PcapWriter::kSnapLen);
  EXPECT_FALSE(pcap_is_swapped(p));
  size_t bytes = 24;
  for (const Rec& r : recs) bytes += 16 + r.bytes.size();
  EXPECT_EQ(std::filesystem::file_size(path_), bytes);
  for (const Rec& r : recs) {
    pcap_pkthdr* hdr = nullptr;
    const u_char* data = nullptr;
    ASSERT_EQ(pcap_next_ex(p, &hdr, &data), 1);
    EXPECT_EQ(hdr->ts.tv_sec, r.sec);
    EXPECT_EQ(hdr->ts.tv_usec, r.nsec);  // nanoseconds at NANO precision
    ASSERT_EQ(hdr->caplen, kPfcFrameBytes);
    EXPECT_EQ(hdr->len, kPfcFrameBytes);
    EXPECT_TRUE(std::equal(r.bytes.begin(), r.bytes.end(), data));
  }
  pcap_pkthdr* hdr = nullptr;
  const u_char* data = nullptr;
  EXPECT_EQ(pcap_next_ex(p, &hdr, &data), PCAP_ERROR_BREAK);  // end of file
  pcap_close(p);
}

TEST_F(PcapTest, OpenFailureNamesPath) {
  const std::string bad = "/nonexistent-dir/sub/out.pcap";
  try {
    PcapWriter w(bad);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
}

TEST_F(PcapTest, RejectsFrameLongerThanSnaplen) {
  PcapWriter w(path_);
  std::vector<uint8_t> big(PcapWriter::kSnapLen + 1);
  EXPECT_THROW(w.write(0, big.data(), big.size()), std::invalid_argument);
}

// Cross-checks the encoding with Wireshark's MAC Control dissector, which
// names 802.1Qbb PFC "CBFC" (fields macc.cbfc.*), and its Ethernet FCS check.
TEST_F(PcapTest, TsharkDecodesPfc) {
  const char* tshark = "/usr/bin/tshark";
  if (!std::filesystem::exists(tshark)) GTEST_SKIP() << tshark << " not installed; skipping Wireshark cross-check";

  {
    PcapWriter w(path_);
    const Bytes b = encode_pfc(example_frame());
    w.write(0, b.data(), b.size());
  }

  // eth.fcs:Always + check_fcs make tshark verify the FCS rather than guess
  // whether the last 4 bytes are one; fcs.status 1 = Good.
  const std::string cmd = std::string(tshark) + " -n -o eth.fcs:Always -o eth.check_fcs:TRUE -r '" + path_ +
                          "' -T fields -E separator=, -e eth.type -e macc.opcode -e macc.cbfc.enbv"
                          " -e macc.cbfc.pause_time.c3 -e eth.fcs.status 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[256];
  while (fgets(buf, sizeof buf, pipe) != nullptr) out += buf;
  ASSERT_EQ(pclose(pipe), 0) << cmd;
  EXPECT_EQ(out, "0x8808,0x0101,0x0008,65535,1\n");
}

}  // namespace
}  // namespace mmusim
