// Module tests: IngressPipeline: decision timing, classification, PFC frames; the waiting
// frames of each pipeline in arrival order (a frame that overtakes, one calendar entry per
// decision edge) by hand and against a reference on random streams.
// Expected numbers are hand-computed in the comments (figures: module_bench.h).
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>

#include "module_bench.h"

namespace mmusim {
namespace {

using namespace modtest;

// Script (one socket per port) -> IngressPipeline -> 4 Sinks (per egress port), with
// PauseIf stubs per port and an AdmissionIf stub. Routes: host_ip(i) -> port i.
struct IngressBench {
  Scenario sc;
  PacketPool pool;
  Script src{"src"};
  IngressPipeline ing;
  AdmissionStub mmu{"mmu"};
  std::vector<std::unique_ptr<Sink>> out;
  std::vector<std::unique_ptr<PauseStub>> pause;

  explicit IngressBench(uint32_t pipelines) : sc(small_scenario(pipelines)), ing("ing", ingress_config(sc, 0), pool) {
    for (uint32_t i = 0; i < sc.ports(); ++i) {
      src.out.bind(ing.from_link);  // binding i = ingress port i
      out.push_back(std::make_unique<Sink>(("out" + std::to_string(i)).c_str()));
      ing.to_egress.bind(out.back()->in);
      pause.push_back(std::make_unique<PauseStub>(("pause" + std::to_string(i)).c_str()));
      ing.pause.bind(pause.back()->exp);
      ing.add_route(host_ip(i), uint16_t(i));
    }
    ing.mmu.bind(mmu.exp);
  }
  // A frame whose last bit arrives on `port` at absolute time `arrive` (sent at `at`).
  void frame(uint64_t at, uint64_t arrive, int port, uint32_t flow, uint32_t bytes, uint32_t dst_ip,
             uint8_t dscp = 0, int8_t pcp = -1) {
    src.at(at, [=] {
      Packet& p = data_packet(pool, bytes, 0, flow);
      p.tuple.dst_ip = dst_ip;
      p.dscp = dscp;
      p.pcp = pcp;
      src.send(port, p, arrive - at);
    });
  }
  json result() {
    json pauses = json::array();
    for (const auto& s : pause) {
      json a = json::array();
      for (const auto& r : s->got)
        a.push_back({{"t", r.t}, {"class_enable", r.f.class_enable}, {"quanta", r.f.quanta}});
      pauses.push_back(a);
    }
    json outs = json::array();
    for (const auto& s : out) outs.push_back(frames_json(*s));
    return {{"admitted", records_json(mmu.admitted)},
            {"out", outs},
            {"pause", pauses},
            {"rx_data", ing.received_data()},
            {"rx_pfc", ing.received_pfc()},
            {"no_route", ing.no_route_drops()},
            {"pending", ing.pending_data()},
            {"pool_in_use", pool.in_use()}};
  }
};

// Admission time of the frame of `flow`, or -1.
int64_t admit_time(const json& j, uint32_t flow) {
  for (const auto& a : j.at("admitted"))
    if (a.at("flow") == flow) return a.at("t").get<int64_t>();
  return -1;
}

TEST(IngressPipeline, DecisionAtFirstClockEdgePlusLatency) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);  // 1 GHz MMU clock (1000 ps), 4 cycles of latency
    b.frame(0, 10'500, 0, 1, 1500, host_ip(1));
    b.frame(0, 20'000, 1, 2, 1500, host_ip(2));
    b.frame(30'000, 30'001, 2, 3, 1500, host_ip(3));
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  // Arrival 10,500: next edge 11,000 + 4 * 1000 = 15,000.
  EXPECT_EQ(admit_time(j, 1), 15'000);
  // Arrival on an edge (20,000): 20,000 + 4,000 = 24,000.
  EXPECT_EQ(admit_time(j, 2), 24'000);
  // Arrival 30,001: edge 31,000 + 4,000 = 35,000.
  EXPECT_EQ(admit_time(j, 3), 35'000);
  // Forwarded to the routed egress port at the decision time.
  const json& o1 = j.at("out").at(1);
  ASSERT_EQ(o1.size(), 1u);
  EXPECT_EQ(o1[0].at("begin"), 15'000);
  EXPECT_EQ(o1[0].at("out_port"), 1);
  EXPECT_EQ(o1[0].at("in_port"), 0);
  EXPECT_EQ(j.at("out").at(3).at(0).at("begin"), 35'000);
}

// A pipelined admission unit (admission.pipeline 1: the MMU's verdict takes effect a clock
// period after the decision): the decisions keep their edges, an admitted frame reaches
// its egress port one period (1000 ps) later; a dropped one never does.
TEST(IngressPipeline, AnAdmittedFrameJoinsItsEgressPortWhenTheVerdictTakesEffect) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);
    b.mmu.delay_ps = 1000;
    b.mmu.verdict = [](const Packet& p) { return p.flow != 2; };
    b.frame(0, 10'500, 0, 1, 1500, host_ip(1));
    b.frame(0, 20'000, 1, 2, 1500, host_ip(2));
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  EXPECT_EQ(admit_time(j, 1), 15'000);
  EXPECT_EQ(admit_time(j, 2), 24'000);
  const json& o1 = j.at("out").at(1);
  ASSERT_EQ(o1.size(), 1u);
  EXPECT_EQ(o1[0].at("begin"), 16'000);
  EXPECT_EQ(j.at("out").at(2).size(), 0u);
  EXPECT_EQ(j.at("pool_in_use"), 1);  // the admitted frame, held by its sink's record
}

TEST(IngressPipeline, OneDecisionPerCyclePerPipeline) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);
    // Four ports, one pipeline, all last bits at 100,000 (an edge): cycles 104..107 ns.
    for (int port = 0; port < 4; ++port) b.frame(0, 100'000, port, uint32_t(port), 1500, host_ip(1));
    // Port 0 again at 100,500: its own edge would be 105,000, but the pipeline is busy
    // until 107,000, so 108,000.
    b.frame(0, 100'500, 0, 4, 1500, host_ip(1));
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  EXPECT_EQ(admit_time(j, 0), 104'000);
  EXPECT_EQ(admit_time(j, 1), 105'000);
  EXPECT_EQ(admit_time(j, 2), 106'000);
  EXPECT_EQ(admit_time(j, 3), 107'000);
  EXPECT_EQ(admit_time(j, 4), 108'000);
}

TEST(IngressPipeline, TwoPipelinesDecideInParallel) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(2);  // ports 0, 2 on pipeline 0; ports 1, 3 on pipeline 1
    for (int port = 0; port < 4; ++port) b.frame(0, 100'000, port, uint32_t(port), 1500, host_ip(1));
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  EXPECT_EQ(admit_time(j, 0), 104'000);
  EXPECT_EQ(admit_time(j, 1), 104'000);  // same cycle as port 0
  EXPECT_EQ(admit_time(j, 2), 105'000);
  EXPECT_EQ(admit_time(j, 3), 105'000);
}

TEST(IngressPipeline, ClassifiesByPortMapsAndCountsCells) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);
    const uint32_t d = host_ip(1);
    uint64_t t = 0;
    auto f = [&](int port, uint32_t flow, uint32_t bytes, uint8_t dscp, int8_t pcp) {
      t += 10 * kNs;
      b.frame(t, t, port, flow, bytes, d, dscp, pcp);
    };
    f(0, 0, 1500, 26, -1);  // AZURE: 26 -> 1;               ceil(1500/256) = 6 cells
    f(0, 1, 256, 46, -1);   // AZURE: 46 -> 5;               1 cell
    f(0, 2, 257, 26, 5);    // tagged, but port 0 has no DOT1P map: DSCP 26 -> 1; 2 cells
    f(2, 3, 64, 26, 5);     // port 2 DOT1P map P: pcp 5 -> 2; 1 cell
    f(2, 4, 512, 26, -1);   // port 2 untagged: class selector 26 >> 3 = 3; 2 cells
    f(3, 5, 1000, 46, -1);  // port 3 class selector: 46 >> 3 = 5; ceil(1000/256) = 4 cells
    f(0, 6, 1500, 3, -1);   // AZURE: 3 -> 3 (lossless)
    f(2, 7, 1500, 0, 3);    // DOT1P: pcp 3 -> 3
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  const json& a = j.at("admitted");
  ASSERT_EQ(a.size(), 8u);
  const int want_prio[] = {1, 5, 1, 2, 3, 5, 3, 3};
  const int want_cells[] = {6, 1, 2, 1, 2, 4, 6, 6};
  const int want_in[] = {0, 0, 0, 2, 2, 3, 0, 2};
  for (size_t i = 0; i < 8; ++i) {
    ASSERT_EQ(a[i].at("flow"), i);
    EXPECT_EQ(a[i].at("prio"), want_prio[i]) << "flow " << i;
    EXPECT_EQ(a[i].at("cells"), want_cells[i]) << "flow " << i;
    EXPECT_EQ(a[i].at("in_port"), want_in[i]) << "flow " << i;
    EXPECT_EQ(a[i].at("out_port"), 1) << "flow " << i;
  }
}

TEST(IngressPipeline, PfcFrameGoesToThatPortsTransmitterNotToAdmission) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);
    // Offered at 40,000 with its last bit 10,000 later, on port 2.
    b.src.at(40'000, [&] { b.src.send(2, pfc_packet(b.pool, 0x08, 0xFFFF), 10'000); });
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  // Acted on at the last bit (no pipeline latency), by port 2's PauseIf only.
  const json& p = j.at("pause");
  EXPECT_EQ(p.at(0).size(), 0u);
  EXPECT_EQ(p.at(1).size(), 0u);
  EXPECT_EQ(p.at(3).size(), 0u);
  ASSERT_EQ(p.at(2).size(), 1u);
  EXPECT_EQ(p.at(2).at(0).at("t"), 50'000);
  EXPECT_EQ(p.at(2).at(0).at("class_enable"), 0x08);
  EXPECT_EQ(p.at(2).at(0).at("quanta").at(3), 0xFFFF);
  EXPECT_EQ(j.at("admitted").size(), 0u);
  for (const auto& o : j.at("out")) EXPECT_EQ(o.size(), 0u);
  EXPECT_EQ(j.at("rx_pfc"), 1);
  EXPECT_EQ(j.at("rx_data"), 0);
  EXPECT_EQ(j.at("pool_in_use"), 0);  // the frame went back to the pool
}

TEST(IngressPipeline, UnknownDestinationIsANoRouteDropAndRejectedFramesAreFreed) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);
    b.mmu.verdict = [](const Packet& p) { return p.flow != 3; };  // the MMU drops flow 3
    b.frame(0, 10 * kNs, 0, 1, 1500, 0x0B000001u);  // 11.0.0.1: no route
    b.frame(0, 20 * kNs, 0, 2, 1500, host_ip(3));
    b.frame(0, 30 * kNs, 1, 3, 1500, host_ip(3));
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  EXPECT_EQ(j.at("no_route"), 1);
  EXPECT_EQ(j.at("rx_data"), 3);
  EXPECT_EQ(admit_time(j, 1), -1);  // never offered to the MMU
  EXPECT_EQ(j.at("admitted").size(), 2u);
  ASSERT_EQ(j.at("out").at(3).size(), 1u);  // only flow 2 forwarded
  EXPECT_EQ(j.at("out").at(3).at(0).at("flow"), 2);
  EXPECT_EQ(j.at("pending"), 0);
  EXPECT_EQ(j.at("pool_in_use"), 1);  // the no-route and rejected frames were freed
}

// The flat forwarding table: routes added below the lowest address, past the highest, over
// a gap and over an existing route; every address outside them is a no-route drop.
TEST(IngressPipeline, RoutesAddedInAnyOrderAndGapsHaveNoRoute) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);  // host_ip(0..3) -> ports 0..3
    const uint32_t below = host_ip(0) - 2;
    b.ing.add_route(host_ip(10), uint16_t(2));  // past the highest, leaving host_ip(4..9) unrouted
    b.ing.add_route(below, uint16_t(1));        // below the lowest
    b.ing.add_route(host_ip(1), uint16_t(3));   // replaces host_ip(1) -> 1
    uint32_t flow = 1;
    for (const uint32_t dst : {host_ip(10), below, host_ip(1), host_ip(5), below + 1, below - 1, host_ip(11)})
      b.frame(0, flow * 100 * kNs, 0, flow, 1000, dst), ++flow;
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  auto flows = [&](int port) {
    std::vector<uint32_t> v;
    for (const auto& f : j.at("out").at(port)) v.push_back(f.at("flow").get<uint32_t>());
    return v;
  };
  EXPECT_EQ(flows(0), std::vector<uint32_t>{});
  EXPECT_EQ(flows(1), std::vector<uint32_t>{2});
  EXPECT_EQ(flows(2), std::vector<uint32_t>{1});
  EXPECT_EQ(flows(3), std::vector<uint32_t>{3});
  EXPECT_EQ(j.at("no_route"), 4);  // host_ip(5), host_ip(0) - 1, host_ip(0) - 3, host_ip(11)
}

TEST(IngressPipeline, RouteDestinationsSpanningTooManyAddressesAreAnError) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);
    std::string what;
    try {
      b.ing.add_route(host_ip(0) + (1u << 20), uint16_t(0));
    } catch (const std::invalid_argument& e) {
      what = e.what();
    }
    return json{{"what", what}}.dump();
  }));
  EXPECT_NE(j.at("what").get<std::string>().find("route destinations span more than 1048576 addresses"), std::string::npos)
      << j.at("what");
}

// Flows in the order the MMU was asked, with the times.
std::vector<std::pair<uint32_t, uint64_t>> admit_order(const json& j) {
  std::vector<std::pair<uint32_t, uint64_t>> v;
  for (const auto& a : j.at("admitted")) v.emplace_back(a.at("flow").get<uint32_t>(), a.at("t").get<uint64_t>());
  return v;
}

TEST(IngressPipelineWaiting, AFrameThatOvertakesTakesTheEarlierSlot) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);  // one pipeline, 1 GHz, 4 cycles
    b.frame(0, 50'000, 0, 1, 1500, host_ip(1));       // A: a long way
    b.frame(10'000, 20'500, 1, 2, 64, host_ip(1));    // B: sent later, arrives first
    b.frame(30'000, 50'000, 2, 3, 1500, host_ip(1));  // C: A's arrival, sent after A
    b.frame(45'000, 49'999, 3, 4, 64, host_ip(1));    // D: one ps before A, new head
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  // B: edge after 20,500 + 4,000 = 25,000. D: 53,999 -> 54,000, the slot A's entry was
  // posted for. A (50,000 -> 54,000) one cycle later, C after A (same arrival, sent later).
  const std::vector<std::pair<uint32_t, uint64_t>> want = {{2, 25'000}, {4, 54'000}, {1, 55'000}, {3, 56'000}};
  EXPECT_EQ(admit_order(j), want);
  EXPECT_EQ(j.at("rx_data"), 4);
  EXPECT_EQ(j.at("pending"), 0);
}

TEST(IngressPipelineWaiting, OneEdgeOfTwoPipelinesDecidesInArrivalOrder) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(2);  // ports 0, 2 on pipeline 0; ports 1, 3 on pipeline 1
    b.frame(50'000, 100'200, 1, 1, 1500, host_ip(2));  // E, pipeline 1, sent first
    b.frame(60'000, 100'100, 0, 2, 1500, host_ip(2));  // F, pipeline 0, arrives first
    b.frame(60'000, 100'100, 2, 3, 1500, host_ip(2));  // G, pipeline 0 behind F
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  // E: 104,200 -> 105,000; F: 104,100 -> 105,000, decided first (earlier arrival); G on
  // F's pipeline: 106,000.
  const std::vector<std::pair<uint32_t, uint64_t>> want = {{2, 105'000}, {1, 105'000}, {3, 106'000}};
  EXPECT_EQ(admit_order(j), want);
}

uint64_t test_seed() {
  if (const char* s = std::getenv("MMUSIM_SEED")) return std::strtoull(s, nullptr, 0);
  return std::random_device{}();
}

TEST(IngressPipelineWaiting, MatchesASortedSlotReferenceOnRandomStreams) {
  const uint64_t seed = test_seed();
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  for (int run = 0; run < 6; ++run) {
    const uint32_t pipelines = 1 + uint32_t(rng() % 4);
    struct Frame {
      uint64_t sent, arrival;
      int port;
    };
    // Bursts on the four ports with last bits 0..120 ns after the send: frames overtake,
    // share arrival times and queue behind one decision per cycle per pipeline.
    std::vector<Frame> frames;
    uint64_t t = 0;
    for (int k = 0; k < 400; ++k) {
      if (rng() % 3 == 0) t += rng() % 30'000;
      frames.push_back({t, t + (rng() % 4 == 0 ? 0 : rng() % 120'000), int(rng() % 4)});
    }
    // Reference: per pipeline, frames in (arrival, send) order, each at the first edge at or
    // after arrival + 4 cycles that the previous frame of its pipeline left free.
    std::vector<size_t> order(frames.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return std::tie(frames[a].arrival, a) < std::tie(frames[b].arrival, b);
    });
    std::vector<uint64_t> slot(frames.size()), next_free(pipelines, 0);
    for (size_t i : order) {
      const uint64_t edge = (frames[i].arrival + 4'000 + 999) / 1000 * 1000;
      uint64_t& f = next_free[uint32_t(frames[i].port) % pipelines];
      slot[i] = std::max(edge, f);
      f = slot[i] + 1000;
    }
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return std::tie(slot[a], frames[a].arrival, a) < std::tie(slot[b], frames[b].arrival, b);
    });
    std::vector<std::pair<uint32_t, uint64_t>> want;
    for (size_t i : order) want.emplace_back(uint32_t(i), slot[i]);
    const json j = parse_ok(run_in_child([&] {
      IngressBench b(pipelines);
      for (size_t i = 0; i < frames.size(); ++i)
        b.frame(frames[i].sent, frames[i].arrival, frames[i].port, uint32_t(i), 1500, host_ip(1));
      sc_core::sc_start(ps(t + 1000 * kUs));
      return b.result().dump();
    }));
    ASSERT_FALSE(j.empty()) << "run " << run;
    const auto got = admit_order(j);
    ASSERT_EQ(got.size(), want.size()) << "run " << run;
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(got[i], want[i]) << "run " << run << " (" << pipelines << " pipelines), decision " << i
                                 << ": flow " << got[i].first << " at " << got[i].second << ", reference flow "
                                 << want[i].first << " at " << want[i].second;
    EXPECT_EQ(j.at("rx_data"), frames.size());
    EXPECT_EQ(j.at("pending"), 0);
  }
}

}  // namespace
}  // namespace mmusim
