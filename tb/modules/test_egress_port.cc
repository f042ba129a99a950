// Module tests: EgressPort: DWRR, PFC frames first, pauses; the data queues (lists through
// Packet::next with their DWRR credit) over rounds, emptied and refilled, paused mid-list,
// and against a reference of one std::deque per queue on random streams.
// Expected numbers are hand-computed in the comments (figures: module_bench.h).
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <random>

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

// A data frame starting on the wire is the MMU's to see (dequeue: ECN marking, INT) when it
// wants to; a control frame never is.
TEST(EgressPort, DataFramesGoToTheMmusDequeueOnlyWhenItWantsThem) {
  for (const bool wants : {true, false}) {
    const json j = parse_ok(run_in_child([wants] {
      EgressBench b;
      b.mmu.wants = wants;
      b.src.at(0, [&] {
        b.enqueue(1000, 0, 10);
        b.enqueue(64, 1, 11);
        b.src.send(0, pfc_packet(b.pool, 0x08, 0xFFFF));
      });
      sc_core::sc_start(ps(10 * kUs));
      json r = b.result();
      r["dequeued"] = b.mmu.dequeued;
      return r.dump();
    }));
    EXPECT_EQ(j.at("dequeued"), wants ? 2 : 0) << wants;
    EXPECT_EQ(j.at("tx_data"), 2) << wants;
    EXPECT_EQ(j.at("departed").size(), 2u) << wants;
  }
}

// Flows in the order the wire saw them, with their start times.
std::vector<std::pair<uint32_t, uint64_t>> wire_order(const json& j) {
  std::vector<std::pair<uint32_t, uint64_t>> v;
  for (const auto& f : j.at("frames"))
    if (f.at("kind") == "data") v.emplace_back(f.at("flow").get<uint32_t>(), f.at("begin").get<uint64_t>());
  return v;
}

// A 64 B PFC frame (no class) holds the wire [0, 6,720) so that every data frame below is
// queued before the first DWRR pick.
void hold_wire(EgressBench& b) { b.src.send(0, pfc_packet(b.pool, 0x00, 0)); }

// The queue tests' run: the wire held and `at0` enqueueing at 0, then the steps `later`
// schedules, 10 us simulated; the result with each listed queue's frames sent ("tx") and
// length ("len").
using Fill = std::function<void(EgressBench&)>;
json run_queues(const Fill& at0, std::vector<uint8_t> queues, const Fill& later = {}) {
  return parse_ok(run_in_child([&] {
    EgressBench b;
    b.src.at(0, [&] {
      hold_wire(b);
      at0(b);
    });
    if (later) later(b);
    sc_core::sc_start(ps(10 * kUs));
    json r = b.result();
    for (uint8_t q : queues) {
      r["tx"].push_back(b.eg.queue_tx(q));
      r["len"].push_back(b.eg.queue_len(q));
    }
    return r.dump();
  }));
}

TEST(EgressPortQueues, DwrrOrderAndCreditsOverRoundsWithMixedSizes) {
  const json j = run_queues(
      [](EgressBench& b) {
        for (uint32_t k = 1; k <= 4; ++k) b.enqueue(1000, 0, 10 + k);  // A1..A4 in queue 0
        for (uint32_t k = 1; k <= 5; ++k) b.enqueue(600, 1, 20 + k);   // B1..B5 in queue 1
        b.enqueue(1500, 2, 31);                                        // C1, C2, C3 in queue 2
        b.enqueue(200, 2, 32);
        b.enqueue(1500, 2, 33);
      },
      {0, 1, 2});
  // Quantum 1600 B; credit (deficit) after each pick:
  //   q0 +1600: A1 -> 600, A2 > 600: turn ends.      q1 +1600: B1 -> 1000, B2 -> 400.
  //   q2 +1600: C1 -> 100, C2 (200) > 100.           q0 +1600 = 2200: A2 -> 1200, A3 -> 200.
  //   q1 +1600 = 2000: B3 1400, B4 800, B5 200, empty: credit cleared, turn to q2.
  //   q2 +1600 = 1700: C2 -> 1500, C3 -> 0, empty.   q0 +1600 = 1800: A4 -> 800, empty.
  // Wire times (B + 20) x 80 ps: 1000 B 81,600; 600 B 49,600; 1500 B 121,600; 200 B 17,600.
  const std::vector<std::pair<uint32_t, uint64_t>> want = {
      {11, 6'720},   {21, 88'320},  {22, 137'920}, {31, 187'520}, {12, 309'120}, {13, 390'720},
      {23, 472'320}, {24, 521'920}, {25, 571'520}, {32, 621'120}, {33, 638'720}, {14, 760'320}};
  EXPECT_EQ(wire_order(j), want);
  EXPECT_EQ(j.at("tx"), json({4, 5, 3}));
  EXPECT_EQ(j.at("queued"), 0);
  EXPECT_EQ(j.at("departed").size(), 12u);
}

TEST(EgressPortQueues, AnEmptiedQueueLosesItsCreditAndARefillStartsFromAQuantum) {
  const json j = run_queues(
      [](EgressBench& b) {
        b.enqueue(1000, 0, 1);                                         // X1
        for (uint32_t k = 1; k <= 6; ++k) b.enqueue(1000, 1, 10 + k);  // Y1..Y6
      },
      {0, 1}, [](EgressBench& b) {
        b.src.at(100 * kNs, [&b] {  // queue 0 refilled while Y1 is on the wire
          b.enqueue(1000, 0, 2);    // X2
          b.enqueue(1000, 0, 3);    // X3
        });
      });
  // X1 takes 1000 of q0's 1600 and empties it: the 600 left are cleared. Y1 (q1: 1600 -> 600)
  // [88,320, 169,920). Then q1 cannot send Y2; q0 starts again from one quantum: X2 -> 600,
  // X3 > 600 ends its turn; q1 2200: Y2, Y3 (-> 200); q0 2200: X3 (empty again); q1 1800:
  // Y4 (-> 800), alone now it takes another quantum (2400): Y5, Y6. Had q0 kept its 600,
  // X2 and X3 would have gone back to back.
  const std::vector<std::pair<uint32_t, uint64_t>> want = {{1, 6'720},    {11, 88'320},  {2, 169'920},
                                                           {12, 251'520}, {13, 333'120}, {3, 414'720},
                                                           {14, 496'320}, {15, 577'920}, {16, 659'520}};
  EXPECT_EQ(wire_order(j), want);
  EXPECT_EQ(j.at("len"), json({0, 0}));
  EXPECT_EQ(j.at("tx_data"), 9);
}

TEST(EgressPortQueues, PfcPauseMidListHoldsTheRestOfTheQueueWithItsCredit) {
  const json j = run_queues(
      [](EgressBench& b) {
        for (uint32_t k = 1; k <= 4; ++k) b.enqueue(1000, 3, 30 + k);  // Z1..Z4, priority 3
        for (uint32_t k = 1; k <= 3; ++k) b.enqueue(1000, 0, k);       // W1..W3
      },
      {0, 1, 3}, [](EgressBench& b) {
        // Priority 3 paused at 150 ns (Z1 on the wire) for 100 quanta = 512 ns: to 662 ns.
        b.src.at(150 * kNs, [&b] { b.src.pause[0]->pfc_received(pfc_frame(0x08, 100)); });
        b.src.at(600 * kNs, [&b] {  // the port is idle: V1 goes at once
          b.enqueue(1000, 1, 11);
          b.enqueue(1000, 1, 12);
        });
      });
  // q0 W1 (-> 600); q3 Z1 (-> 600) [88,320, 169,920), paused meanwhile; q0 2200: W2, W3
  // (empty at 333,120); idle, Z2..Z4 held. V1 at 600 ns (q1 1600 -> 600). At 681,600 the
  // pause is over: V2 > 600, q3's turn with its 600 kept + 1600 = 2200: Z2 (-> 1200), Z3
  // (-> 200); q1 2200: V2 (empty); q3 1800: Z4. Credit cleared at the pause would put V2
  // before Z3.
  const std::vector<std::pair<uint32_t, uint64_t>> want = {
      {1, 6'720},     {31, 88'320},  {2, 169'920},  {3, 251'520}, {11, 600'000},
      {32, 681'600},  {33, 763'200}, {12, 844'800}, {34, 926'400}};
  EXPECT_EQ(wire_order(j), want);
  EXPECT_EQ(j.at("tx"), json({3, 2, 4}));
  EXPECT_EQ(j.at("paused_ps"), 512'000);
}

// The DWRR of a port without BFC queues restated over one std::deque per queue, with the
// time of each frame's start: quantum 1600 B, 100 Gb/s, 20 B per frame on the wire,
// identity class maps (PFC priority q pauses queue q).
class DwrrReference {
 public:
  struct Sent {
    uint32_t flow;
    uint64_t begin;
    bool operator==(const Sent& o) const { return flow == o.flow && begin == o.begin; }
  };
  std::vector<Sent> sent;
  std::array<uint64_t, 8> tx{};

  // Whether something the port does by itself (an end of transmission, a pause expiry)
  // falls at t: a script step there would race it.
  bool busy_instant(uint64_t t) const {
    if (m_busy && m_free_at == t) return true;
    for (uint64_t u : m_until)
      if (u == t) return true;
    return false;
  }
  // Runs what happens by itself before t.
  void run_until(uint64_t t) {
    for (;;) {
      uint64_t e = t;
      if (m_busy && m_free_at < e) e = m_free_at;
      for (uint64_t u : m_until)
        if (u > m_now && u < e) e = u;
      if (e >= t) break;
      m_now = e;
      if (m_busy && m_free_at == e) m_busy = false;
      try_send();
    }
    m_now = t;
  }
  void enqueue(uint32_t q, uint32_t bytes, uint32_t flow) {
    m_q[q].push_back({flow, bytes});
    try_send();
  }
  void pause(uint8_t prios, uint16_t quanta) {
    for (int p = 0; p < 8; ++p)
      if (prios >> p & 1) m_until[size_t(p)] = m_now + uint64_t(quanta) * 5'120;
    try_send();
  }

 private:
  bool sendable(int q) const { return !m_q[size_t(q)].empty() && m_until[size_t(q)] <= m_now; }
  int next(int from) const {
    for (int k = 0; k < 8; ++k)
      if (sendable((from + k) % 8)) return (from + k) % 8;
    return -1;
  }
  void try_send() {
    if (m_busy) return;
    int q = next(m_rr);
    if (q < 0) return;
    for (;;) {  // a turn: one quantum; it ends at a head the credit cannot pay
      if (q != m_rr) {
        m_rr = q;
        m_given = false;
      }
      if (!m_given) {
        m_deficit[size_t(q)] += 1600;
        m_given = true;
      }
      if (m_deficit[size_t(q)] >= m_q[size_t(q)].front().second) break;
      m_given = false;
      q = next((q + 1) % 8);
    }
    const auto [flow, bytes] = m_q[size_t(q)].front();
    m_q[size_t(q)].pop_front();
    m_deficit[size_t(q)] -= bytes;
    if (m_q[size_t(q)].empty()) {  // an emptied queue loses its credit and its turn
      m_deficit[size_t(q)] = 0;
      m_rr = (q + 1) % 8;
      m_given = false;
    }
    ++tx[size_t(q)];
    sent.push_back({flow, m_now});
    m_busy = true;
    m_free_at = m_now + uint64_t(bytes + 20) * 80;
  }

  std::array<std::deque<std::pair<uint32_t, uint32_t>>, 8> m_q;
  std::array<uint64_t, 8> m_deficit{}, m_until{};
  int m_rr = 0;
  bool m_given = false;
  bool m_busy = false;
  uint64_t m_free_at = 0, m_now = 0;
};

uint64_t test_seed() {
  if (const char* s = std::getenv("MMUSIM_SEED")) return std::strtoull(s, nullptr, 0);
  return std::random_device{}();
}

TEST(EgressPortQueues, MatchesADequePerQueueReferenceOnRandomStreams) {
  const uint64_t seed = test_seed();
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  for (int run = 0; run < 8; ++run) {
    // A script of steps: bursts of frames into random queues (sizes 64..1500 B, some
    // repeated), and PFC frames pausing (1..300 quanta) or resuming random priorities.
    struct Step {
      uint64_t t;
      std::vector<std::array<uint32_t, 3>> frames;  // queue, bytes, flow
      uint8_t prios = 0;
      uint16_t quanta = 0;
    };
    std::vector<Step> steps;
    DwrrReference ref;
    uint64_t t = 0;
    uint32_t flow = 0;
    const int nq = 1 + int(rng() % 8);  // queues in use
    for (int k = 0; k < 150; ++k) {
      t += rng() % 4 == 0 ? 0 : 1 + rng() % 400'000;
      // Clear of what the port does by itself at t, judged on the reference run up to t (a
      // frame that starts after the last step may end at t).
      for (;; ++t) {
        if (!steps.empty() && steps.back().t == t) continue;
        DwrrReference probe = ref;
        probe.run_until(t);
        if (!probe.busy_instant(t)) break;
      }
      ref.run_until(t);
      Step s{t, {}, 0, 0};
      if (rng() % 5 == 0) {
        s.prios = uint8_t(1u << (rng() % nq)) | uint8_t(rng() % 4 == 0 ? 1u << (rng() % 8) : 0);
        s.quanta = rng() % 3 == 0 ? 0 : uint16_t(1 + rng() % 300);
        ref.pause(s.prios, s.quanta);
      } else {
        for (int n = 1 + int(rng() % 6); n > 0; --n) {
          const uint32_t q = uint32_t(rng() % nq);
          const uint32_t bytes = rng() % 3 == 0 ? 1500 : 64 + uint32_t(rng() % 1437);
          s.frames.push_back({q, bytes, ++flow});
          ref.enqueue(q, bytes, flow);
        }
      }
      steps.push_back(std::move(s));
    }
    ref.run_until(~uint64_t(0) >> 1);
    const ChildResult r = run_in_child([&] {
      EgressBench b;
      for (const Step& s : steps)
        b.src.at(s.t, [&b, &s] {
          if (s.prios) b.src.pause[0]->pfc_received(pfc_frame(s.prios, s.quanta));
          for (const auto& f : s.frames) b.enqueue(f[1], uint8_t(f[0]), f[2]);
        });
      sc_core::sc_start(ps(steps.back().t + 1000 * kUs));
      json out = b.result();
      for (uint32_t q = 0; q < 8; ++q) out["tx"].push_back(b.eg.queue_tx(q));
      return out.dump();
    });
    const json j = parse_ok(r);
    ASSERT_FALSE(j.empty()) << "run " << run;
    std::vector<DwrrReference::Sent> got;
    for (const auto& [f, begin] : wire_order(j)) got.push_back({f, begin});
    ASSERT_EQ(got.size(), ref.sent.size()) << "run " << run;
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(got[i], ref.sent[i]) << "run " << run << " frame " << i << ": flow " << got[i].flow << " at "
                                     << got[i].begin << ", reference flow " << ref.sent[i].flow << " at "
                                     << ref.sent[i].begin;
    EXPECT_EQ(j.at("tx"), json(ref.tx)) << "run " << run;
    EXPECT_EQ(j.at("queued"), 0) << "run " << run;
  }
}

}  // namespace
}  // namespace mmusim
