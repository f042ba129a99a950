// Module tests: Host and TrafficManager: pacing, PFC, flow completion.
// Expected numbers are hand-computed in the comments (figures: module_bench.h).
#include "module_bench.h"

namespace mmusim {
namespace {

using namespace modtest;

// Script -> Host(100 Gb/s).rx; Host.tx -> Sink answering like a 100 Gb/s link.
struct HostBench {
  PacketPool pool;
  FlowTable flows;
  Script src{"src"};
  Host host{"h0", 0, k100G, flows, pool};
  Sink wire{"wire", k100G, 20};
  HostBench() {
    src.out.bind(host.rx);
    host.tx.bind(wire.in);
  }
  uint32_t flow(uint8_t prio, uint64_t bytes, uint32_t packet_bytes, uint64_t rate_bps, uint64_t start) {
    Flow f;
    f.id = uint32_t(flows.size());
    f.src = 0;
    f.dst = 1;
    f.tuple.src_ip = host_ip(0);
    f.tuple.dst_ip = host_ip(1);
    f.dscp = prio;
    f.prio = prio;
    f.bytes = bytes;
    f.packet_bytes = packet_bytes;
    f.rate_bps = rate_bps;
    f.start_ps = start;
    flows.push_back(f);
    const uint32_t id = f.id;
    src.at(start, [this, id] { host.start_flow(id); });
    return id;
  }
  json result() {
    json fl = json::array();
    for (const auto& f : flows)
      fl.push_back({{"sent", f.sent_bytes}, {"received", f.received_bytes}, {"finish", f.finish_ps},
                    {"packets", f.packets_sent}});
    return {{"frames", frames_json(wire)},
            {"flows", fl},
            {"injected", host.injected()},
            {"delivered", host.delivered()},
            {"pfc_rx", host.pfc_received()},
            {"paused_ps", host.paused_ps()},
            {"pending_rx", host.pending_rx_data()},
            {"pool_in_use", pool.in_use()}};
  }
};

TEST(Host, LineRateFlowIsSentAsBackToBackFrames) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    b.flow(3, 4030, 1000, 0, 1 * kUs);
    sc_core::sc_start(ps(20 * kUs));
    return b.result().dump();
  }));
  // ceil(4030 / 1000) = 5 frames: four of 1000 B, then 30 B padded to the 64 B minimum,
  // back to back every 1020 * 8 / 100e9 = 81.6 ns from 1 us.
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 5u);
  for (size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(fr[k].at("begin"), 1 * kUs + k * 81'600) << k;
    EXPECT_EQ(fr[k].at("bytes"), k < 4 ? 1000 : 64) << k;
    EXPECT_EQ(fr[k].at("flow"), 0) << k;
  }
  EXPECT_EQ(j.at("flows").at(0).at("sent"), 4030);
  EXPECT_EQ(j.at("flows").at(0).at("packets"), 5);
  EXPECT_EQ(j.at("injected"), 5);
}

TEST(Host, RateLimitedFlowIsPaced) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    b.flow(1, 5000, 1000, 10'000'000'000ull, 1 * kUs);  // 10 Gb/s
    sc_core::sc_start(ps(20 * kUs));
    return b.result().dump();
  }));
  // Packet k is eligible at start + k * 1000 B * 8 / 10 Gb/s = 1 us + k * 800 ns.
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 5u);
  for (size_t k = 0; k < 5; ++k) EXPECT_EQ(fr[k].at("begin"), 1 * kUs + k * 800 * kNs) << k;
}

TEST(Host, RateLimitedFlowCatchesUpAfterAPause) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    b.src.at(0, [&] { b.src.send(0, pfc_packet(b.pool, 0x02, 1000)); });  // prio 1 until 5.12 us
    b.flow(1, 10'000, 1000, 10'000'000'000ull, 1 * kUs);
    sc_core::sc_start(ps(20 * kUs));
    return b.result().dump();
  }));
  // Eligible times 1 + 0.8 k us. Held until 5.12 us, then sent back to back every 81.6 ns
  // while behind schedule: 5.12 + 0.0816 k us for k = 0..5 (k = 5 ends at 5.6096 us);
  // packet 6 is due at 5.8 us, and from then on on schedule: 1 + 0.8 k us.
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 10u);
  for (size_t k = 0; k < 6; ++k) EXPECT_EQ(fr[k].at("begin"), 5'120'000 + k * 81'600) << k;
  for (size_t k = 6; k < 10; ++k) EXPECT_EQ(fr[k].at("begin"), 1 * kUs + k * 800 * kNs) << k;
}

TEST(Host, PfcPausesOnlyThatPriority) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    b.src.at(0, [&] { b.src.send(0, pfc_packet(b.pool, 0x08, 1000)); });  // prio 3 until 5.12 us
    b.flow(3, 10'000, 1000, 0, 1 * kNs);   // A, paused
    b.flow(1, 100'000, 1000, 0, 1 * kNs);  // B
    sc_core::sc_start(ps(30 * kUs));
    return b.result().dump();
  }));
  // B runs back to back from 1 ns: frame k at 1,000 + 81,600 k. A is released at 5.12 us;
  // the frame in flight then ends at 1,000 + 63 * 81,600 = 5,141,800, where A goes first
  // (round robin over priorities), then B, alternating.
  const json& fr = j.at("frames");
  ASSERT_GE(fr.size(), 66u);
  for (size_t k = 0; k < 63; ++k) {
    ASSERT_EQ(fr[k].at("flow"), 1) << k;
    ASSERT_EQ(fr[k].at("begin"), 1'000 + k * 81'600) << k;
  }
  EXPECT_EQ(fr[63].at("flow"), 0);
  EXPECT_EQ(fr[63].at("begin"), 5'141'800);
  EXPECT_EQ(fr[64].at("flow"), 1);
  EXPECT_EQ(fr[65].at("flow"), 0);
  EXPECT_EQ(j.at("pfc_rx"), 1);
  EXPECT_EQ(j.at("paused_ps"), 5'120'000);
  EXPECT_EQ(j.at("flows").at(0).at("sent"), 10'000);
  EXPECT_EQ(j.at("flows").at(1).at("sent"), 100'000);
}

TEST(Host, PausedPriorityResumesAtExpiry) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    b.src.at(0, [&] { b.src.send(0, pfc_packet(b.pool, 0x08, 1000)); });
    b.flow(3, 2000, 1000, 0, 1 * kNs);
    sc_core::sc_start(ps(30 * kUs));
    return b.result().dump();
  }));
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 2u);
  EXPECT_EQ(fr[0].at("begin"), 5'120'000);
  EXPECT_EQ(fr[1].at("begin"), 5'120'000 + 81'600);
}

// A data frame of `bytes` offered to the bench's host at `at` (last bit 1 us later).
void offer_data(HostBench& b, uint64_t at, uint32_t bytes) {
  b.src.at(at, [&b, bytes] {
    Packet& p = data_packet(b.pool, bytes, 0, 0);
    b.src.send(0, p, 1 * kUs);
  });
}
// A flow from elsewhere to this host: 2030 B = 1000 + 1000 + 30 (sent as 64 B), its frames
// offered at 9, 19 and 29 us (so received at 10, 20 and 30 us).
void offer_incoming_flow(HostBench& b) {
  Flow f;
  f.bytes = 2030;
  b.flows.push_back(f);
  offer_data(b, 9 * kUs, 1000);
  offer_data(b, 19 * kUs, 1000);
  offer_data(b, 29 * kUs, 64);
}

TEST(Host, ReceivingAllBytesSetsFinishTime) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    offer_incoming_flow(b);
    json mid;
    b.src.at(25 * kUs, [&] {
      mid = {{"finish", b.flows[0].finish_ps}, {"received", b.flows[0].received_bytes}};
    });
    sc_core::sc_start(ps(50 * kUs));
    json r = b.result();
    r["mid"] = mid;
    return r.dump();
  }));
  EXPECT_EQ(j.at("mid").at("finish"), 0);
  EXPECT_EQ(j.at("mid").at("received"), 2000);
  EXPECT_EQ(j.at("flows").at(0).at("received"), 2030);  // padding not counted
  EXPECT_EQ(j.at("flows").at(0).at("finish"), 30 * kUs);
  EXPECT_EQ(j.at("delivered"), 3);
  EXPECT_EQ(j.at("pending_rx"), 0);
  EXPECT_EQ(j.at("pool_in_use"), 0);
  EXPECT_EQ(j.at("frames").size(), 0u);
}

// With the run's end known (Network::run sets it), a data frame without ACKs that arrives
// before it is received at once, with its arrival time; one arriving later stays pending.
TEST(Host, PlainDataArrivingWithinTheRunIsReceivedAtOnce) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    Calendar::get().set_run_end(50 * kUs);
    offer_incoming_flow(b);
    offer_data(b, 49'500 * kNs, 64);  // arrives at 50.5 us, after the run
    json mid;
    b.src.at(29'500 * kNs, [&] {  // before the third frame's arrival
      mid = {{"finish", b.flows[0].finish_ps}, {"received", b.flows[0].received_bytes},
             {"pool_in_use", b.pool.in_use()}};
    });
    sc_core::sc_start(ps(50 * kUs));
    json r = b.result();
    r["mid"] = mid;
    return r.dump();
  }));
  EXPECT_EQ(j.at("mid").at("finish"), 30 * kUs);
  EXPECT_EQ(j.at("mid").at("received"), 2030);
  EXPECT_EQ(j.at("mid").at("pool_in_use"), 0);
  EXPECT_EQ(j.at("flows").at(0).at("received"), 2030);
  EXPECT_EQ(j.at("flows").at(0).at("finish"), 30 * kUs);
  EXPECT_EQ(j.at("delivered"), 3);
  EXPECT_EQ(j.at("pending_rx"), 1);
  EXPECT_EQ(j.at("pool_in_use"), 1);
}

// TrafficManager + generators: flows start at their times, at their sources, numbered in
// start order, classified with the source port's map.
TEST(TrafficManager, StartsGeneratedFlowsAtTheirTimes) {
  const json j = parse_ok(run_in_child([] {
    json sj = small_scenario_json(1);
    sj["traffic"] = R"([
      {"type": "incast", "senders": "h1-h2", "receiver": "h0", "dscp": 3, "burst_bytes": 3000,
       "start_us": 10, "period_us": 300, "count": 2},
      {"type": "constant", "src": "h3", "dst": "h0", "dscp": 0, "rate_gbps": 10, "stop_us": 10}
    ])"_json;
    const Scenario sc = load_scenario(sj, "module-test");
    PacketPool pool;
    FlowTable flows;
    Script src("src");
    std::vector<std::unique_ptr<Host>> hosts;
    std::vector<std::unique_ptr<Sink>> wires;
    std::vector<Host*> ptrs;
    for (uint32_t i = 0; i < sc.ports(); ++i) {
      hosts.push_back(std::make_unique<Host>(("h" + std::to_string(i)).c_str(), i, k100G, flows, pool));
      wires.push_back(std::make_unique<Sink>(("wire" + std::to_string(i)).c_str(), k100G, 20));
      hosts[i]->tx.bind(wires[i]->in);
      src.out.bind(hosts[i]->rx);
      ptrs.push_back(hosts[i].get());
    }
    TrafficConfig tc = traffic_config(sc);
    std::vector<std::unique_ptr<Generator>> gens;
    for (uint32_t g = 0; g < tc.generators.size(); ++g) gens.push_back(make_generator(tc, g));
    TrafficManager tm("traffic", std::move(tc), std::move(gens), flows, ptrs);
    sc_core::sc_start(ps(1000 * kUs));
    json r;
    for (const auto& f : flows)
      r["flows"].push_back({{"id", f.id}, {"src", f.src}, {"dst", f.dst}, {"start", f.start_ps},
                            {"bytes", f.bytes}, {"prio", f.prio}, {"sport", f.tuple.src_port},
                            {"dst_ip", f.tuple.dst_ip}, {"sent", f.sent_bytes}});
    for (const auto& w : wires) r["frames"].push_back(frames_json(*w));
    return r.dump();
  }));
  // t = 0: constant h3 -> h0 (id 0), 10 Gb/s for 10 us = 12,500 B; t = 10 us: incast h1, h2
  // (ids 1, 2); t = 310 us: ids 3, 4.
  const json& fl = j.at("flows");
  ASSERT_EQ(fl.size(), 5u) << fl.dump();
  const std::vector<std::array<uint64_t, 4>> want = {  // src, start, bytes, prio
      {3, 0, 12'500, 0},           // Ethernet12: class selector, dscp 0 -> 0
      {1, 10 * kUs, 3000, 3},      // Ethernet4: AZURE, dscp 3 -> 3
      {2, 10 * kUs, 3000, 0},      // Ethernet8: class selector, dscp 3 -> 0
      {1, 310 * kUs, 3000, 3},
      {2, 310 * kUs, 3000, 0}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(fl[i].at("id"), i);
    EXPECT_EQ(fl[i].at("src"), want[i][0]) << i;
    EXPECT_EQ(fl[i].at("start"), want[i][1]) << i;
    EXPECT_EQ(fl[i].at("bytes"), want[i][2]) << i;
    EXPECT_EQ(fl[i].at("prio"), want[i][3]) << i;
    EXPECT_EQ(fl[i].at("dst"), 0) << i;
    EXPECT_EQ(fl[i].at("dst_ip"), host_ip(0)) << i;
    EXPECT_EQ(fl[i].at("sport"), 49152 + i) << i;
    EXPECT_EQ(fl[i].at("sent"), want[i][2]) << i;
  }
  // h1: 3000 B = 2 MTU frames back to back at 10 us and 310 us.
  const json& h1 = j.at("frames").at(1);
  ASSERT_EQ(h1.size(), 4u);
  EXPECT_EQ(h1[0].at("begin"), 10 * kUs);
  EXPECT_EQ(h1[1].at("begin"), 10 * kUs + 121'600);
  EXPECT_EQ(h1[2].at("begin"), 310 * kUs);
  // h3: 12,500 B paced at 10 Gb/s: 1500 B every 1.2 us, 8 full frames and one of 500 B.
  const json& h3 = j.at("frames").at(3);
  ASSERT_EQ(h3.size(), 9u);
  for (size_t k = 0; k < 9; ++k) EXPECT_EQ(h3[k].at("begin"), k * 1200 * kNs) << k;
  EXPECT_EQ(h3[8].at("bytes"), 500);
}

}  // namespace
}  // namespace mmusim
