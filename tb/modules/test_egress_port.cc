// Module tests: EgressPort: DWRR, PFC frames first, pauses.
// Expected numbers are hand-computed in the comments (figures: module_bench.h).
#include "module_bench.h"

namespace mmusim {
namespace {

using namespace modtest;

// Script -> EgressPort(100 Gb/s, DWRR quantum 1600 B) -> Sink answering like a 100 Gb/s link.
struct EgressBench {
  PacketPool pool;
  Script src{"src"};
  EgressPort eg{"eg", 0, k100G, 1600};
  Sink wire{"wire", k100G, 20};
  AdmissionStub mmu{"mmu"};
  EgressBench() {
    src.out.bind(eg.in);
    src.pause.bind(eg.pause_export);
    eg.to_link.bind(wire.in);
    eg.mmu.bind(mmu.exp);
  }
  void enqueue(uint32_t bytes, uint8_t prio, uint32_t flow) { src.send(0, data_packet(pool, bytes, prio, flow)); }
  json result() {
    return {{"frames", frames_json(wire)},
            {"departed", records_json(mmu.departed)},
            {"tx_data", eg.tx_data_frames()},
            {"tx_pfc", eg.tx_pfc_frames()},
            {"queued", eg.queued_data()},
            {"paused_ps", eg.paused_ps()}};
  }
};

TEST(EgressPort, PfcFrameGoesRightAfterTheFrameOnTheWire) {
  const json j = parse_ok(run_in_child([] {
    EgressBench b;
    b.src.at(0, [&] {
      for (uint32_t f = 0; f < 3; ++f) b.enqueue(1500, 0, f);
    });
    b.src.at(50 * kNs, [&] { b.src.send(0, pfc_packet(b.pool, 0x08, 0xFFFF)); });
    sc_core::sc_start(ps(10 * kUs));
    return b.result().dump();
  }));
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 4u);
  // D0 starts at 0 and is not preempted; the PFC frame queued at 50 ns goes when D0 ends
  // (121.6 ns), ahead of the queued D1 and D2: D1 at 121.6 + 6.72, D2 121.6 ns later.
  EXPECT_EQ(fr[0].at("flow"), 0);
  EXPECT_EQ(fr[0].at("begin"), 0);
  EXPECT_EQ(fr[1].at("kind"), "pfc");
  EXPECT_EQ(fr[1].at("begin"), 121'600);
  EXPECT_EQ(fr[2].at("flow"), 1);
  EXPECT_EQ(fr[2].at("begin"), 128'320);
  EXPECT_EQ(fr[3].at("flow"), 2);
  EXPECT_EQ(fr[3].at("begin"), 249'920);
  EXPECT_EQ(j.at("tx_data"), 3);
  EXPECT_EQ(j.at("tx_pfc"), 1);
}

TEST(EgressPort, DwrrSharesBytesEvenlyBetweenUnequalPacketSizes) {
  const json j = parse_ok(run_in_child([] {
    EgressBench b;
    // Both queues hold 300,000 B: 200 x 1500 B in queue 1, 600 x 500 B in queue 2.
    b.src.at(0, [&] {
      for (uint32_t k = 0; k < 600; ++k) {
        if (k < 200) b.enqueue(1500, 1, 1);
        b.enqueue(500, 2, 2);
      }
    });
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 800u);
  // Per DWRR round each queue earns 1600 B: queue 1 sends floor(credit/1500) frames and
  // queue 2 floor(credit/500), so after R rounds both sent 1600 R minus < 1500 B. Over the
  // first 300,000 B (both still backlogged) that is 50/50 within 1500/150,000 = 1%.
  // Packet round robin would give 75/25.
  uint64_t b1 = 0, b2 = 0;
  for (const auto& f : fr) {
    if (b1 + b2 >= 300'000) break;
    (f.at("prio") == 1 ? b1 : b2) += f.at("bytes").get<uint64_t>();
  }
  const double share1 = double(b1) / double(b1 + b2);
  EXPECT_NEAR(share1, 0.5, 0.03) << "queue 1 " << b1 << " B, queue 2 " << b2 << " B";
  EXPECT_EQ(j.at("tx_data"), 800);
  EXPECT_EQ(j.at("departed").size(), 800u);
}

TEST(EgressPort, PausedPrioritySkippedAndResumedAtExpiry) {
  const json j = parse_ok(run_in_child([] {
    EgressBench b;
    // Priority 3 paused at 0 for 1000 quanta = 1000 * 5.12 ns = 5,120,000 ps.
    b.src.at(0, [&] { b.src.pause[0]->pfc_received(pfc_frame(0x08, 1000)); });
    b.src.at(1 * kNs, [&] {
      b.enqueue(1500, 3, 3);  // A: paused priority, queued first
      b.enqueue(1500, 5, 5);  // B: free priority
    });
    // PFC frames are never held by a pause: this one goes at once although A waits.
    b.src.at(1 * kUs, [&] { b.src.send(0, pfc_packet(b.pool, 0x01, 0xFFFF)); });
    sc_core::sc_start(ps(10 * kUs));
    return b.result().dump();
  }));
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 3u);
  // B goes at once; A waits for the expiry exactly (the port is idle from 122.6 ns on,
  // except for the PFC frame at 1 us).
  EXPECT_EQ(fr[0].at("flow"), 5);
  EXPECT_EQ(fr[0].at("begin"), 1'000);
  EXPECT_EQ(fr[1].at("kind"), "pfc");
  EXPECT_EQ(fr[1].at("begin"), 1 * kUs);
  EXPECT_EQ(fr[2].at("flow"), 3);
  EXPECT_EQ(fr[2].at("begin"), 5'120'000);
  EXPECT_EQ(j.at("paused_ps"), 5'120'000);
}

TEST(EgressPort, ZeroQuantaFrameResumesAtOnce) {
  const json j = parse_ok(run_in_child([] {
    EgressBench b;
    b.src.at(0, [&] { b.src.pause[0]->pfc_received(pfc_frame(0x08, 0xFFFF)); });  // 335.5 us
    b.src.at(1 * kNs, [&] { b.enqueue(1500, 3, 3); });
    b.src.at(10 * kNs, [&] { b.src.pause[0]->pfc_received(pfc_frame(0x08, 0)); });
    sc_core::sc_start(ps(10 * kUs));
    return b.result().dump();
  }));
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 1u);
  EXPECT_EQ(fr[0].at("begin"), 10'000);
  EXPECT_EQ(j.at("paused_ps"), 10'000);
}

TEST(EgressPort, EachDataFrameDepartsOnceWhenItsSerialisationEnds) {
  const json j = parse_ok(run_in_child([] {
    EgressBench b;
    b.src.at(0, [&] {
      b.enqueue(1000, 0, 10);
      b.enqueue(64, 1, 11);
      b.enqueue(1500, 0, 12);
      b.enqueue(300, 2, 13);
      b.src.send(0, pfc_packet(b.pool, 0x08, 0xFFFF));
    });
    sc_core::sc_start(ps(10 * kUs));
    return b.result().dump();
  }));
  // Wire:  flow 10 (1000 B, q0) [0, 81,600)  -> credit q0 = 1600 - 1000 = 600
  //        PFC                  [81,600, 88,320)  strict priority
  //        q0 head 1500 > 600: next queue. flow 11 (64 B, q1) [88,320, 95,040)
  //        flow 13 (300 B, q2)  [95,040, 120,640)   (320 * 8 / 100e9 = 25.6 ns)
  //        back to q0: 600 + 1600 >= 1500, flow 12 [120,640, 242,240)
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 5u);
  EXPECT_EQ(fr[1].at("kind"), "pfc");
  EXPECT_EQ(fr[1].at("begin"), 81'600);
  const json& d = j.at("departed");
  ASSERT_EQ(d.size(), 4u);  // data only, each once
  const std::vector<std::pair<uint32_t, uint64_t>> want = {
      {10, 81'600}, {11, 95'040}, {13, 120'640}, {12, 242'240}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(d[i].at("flow"), want[i].first) << i;
    EXPECT_EQ(d[i].at("t"), want[i].second) << i;
    EXPECT_EQ(d[i].at("kind"), "data") << i;
  }
  EXPECT_EQ(j.at("tx_data"), 4);
  EXPECT_EQ(j.at("tx_pfc"), 1);
  EXPECT_EQ(j.at("queued"), 0);
}

}  // namespace
}  // namespace mmusim
