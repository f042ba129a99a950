// Host transports through the real binary: a lone flow of each transport on an idle path
// (PowerTCP's start window of one unloaded-RTT BDP and DCQCN's unthrottled line rate both
// give the ideal FCT; TCP's initial window does not), a lossy incast that Cubic and DCTCP
// finish by fast retransmit and RTO with every byte delivered, and determinism per seed.
// The ECN/INT-driven checks (CNPs, ECE, two-flow convergence) need the switch's WRED
// marking and INT and come with them.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../modules/sc_fork.h"
#include "config/scenario.h"
#include "scenario_harness.h"
#include "sim/network.h"

namespace mmusim::test {
namespace {

using nlohmann::json;

// lossy_scenario (scenario_harness.h) with the class set-up the transports' load checks want.
json lossy_transport_scenario(int ports, uint64_t buffer, double duration_us) {
  json s = lossy_scenario(ports, buffer, duration_us);
  const std::string b = std::to_string(buffer);
  // The load checks want ECN marking (DCQCN, DCTCP) and INT (PowerTCP) on the flows' class
  // (DSCP 8, TC 1, queue 1); thresholds at the whole buffer never mark, so the runs are the
  // unmarked ones these tests are about.
  s["wred"] = {{"WRED_PROFILE",
                {{"ECN_OFF_SCALE",
                  {{"ecn", "ecn_green"}, {"green_min_threshold", b}, {"green_max_threshold", b}}}}},
               {"QUEUE", {{port_list(ports) + "|1", {{"wred_profile", "ECN_OFF_SCALE"}}}}}};
  s["int"] = {{"enabled_classes", {1}}};
  return s;
}

json incast(const std::string& senders, uint64_t bytes) {
  return {{"type", "incast"}, {"senders", senders}, {"receiver", "h0"}, {"dscp", 8}, {"burst_bytes", bytes},
          {"start_us", 1}};
}

// flows.csv column `col` of every row.
std::vector<std::string> column(const std::string& path, const std::string& col) {
  std::stringstream in(slurp(path));
  std::string line;
  std::getline(in, line);
  size_t k = 0;
  {
    std::stringstream h(line);
    size_t i = 0;
    for (std::string c; std::getline(h, c, ','); ++i)
      if (c == col) k = i;
  }
  std::vector<std::string> out;
  while (std::getline(in, line)) {
    std::stringstream l(line);
    std::string v;
    for (size_t i = 0; i <= k; ++i) std::getline(l, v, ',');
    out.push_back(v);
  }
  return out;
}

TEST(Transport, LoneFlowOnIdlePath) {
  // 150 KB h1 -> h0 alone: the ideal FCT (slowdown 1) needs line rate from the first packet.
  for (const std::string t : {"none", "dcqcn", "powertcp", "dctcp", "cubic"}) {
    json s = lossy_transport_scenario(2, 1 << 20, 400);
    s["host"] = {{"transport", {{"default", t}}}};
    s["traffic"] = json::array({incast("h1", 150'000)});
    RunResult r = run_mmusim(s);
    ASSERT_EQ(r.status, 0) << t << ": " << r.output;
    expect_conservation(r.summary);
    const auto sd = column(r.dir + "/out/flows.csv", "slowdown");
    ASSERT_EQ(sd.size(), 1u);
    const double slowdown = std::stod(sd[0]);
    // INT is on the flows' class: each 1500 B frame carries the 42 B header (1562 B on the
    // wire, 312.4 ns at 40 Gb/s), which the ideal FCT (32.7 us) leaves out. At line rate
    // the 100 frames' headers and one more on the second link cost 101 x 8.4 ns = 848.4 ns:
    // slowdown 1 + 0.8484 / 32.7 = 1.026.
    if (t == "dctcp" || t == "cubic") {
      // Initial window 10 packets (3124 ns of sending), then idle until the first ACK, one
      // unloaded RTT (4674.4 ns, the header's 8.4 ns on each of the two data links
      // included) after the start: 1550.4 ns lost; from then on each ACK releases two
      // packets and the window passes the BDP: line rate.
      // Slowdown 1.026 + 1.5504 / 32.7 = 1.073.
      EXPECT_GT(slowdown, 1.069) << t;
      EXPECT_LT(slowdown, 1.077) << t;
    } else {
      // PowerTCP: window = one unloaded-RTT BDP = 40 Gb/s x 4674.4 ns = 23372 B: 15 whole
      // 1500 B packets, whose frames take 15 x 312.4 ns = 4686 ns to send, longer than the
      // RTT, so the first ACK opens the window before it closes: line rate from the start,
      // as without a transport; an RTT estimate short by a frame time would show as more.
      EXPECT_GT(slowdown, 1.025) << t;
      EXPECT_LT(slowdown, 1.027) << t;
    }
    std::filesystem::remove_all(r.dir);
  }
}

TEST(Transport, TcpLossyIncastDeliversEverything) {
  // 8 x 200 KB into one 40 Gb/s port with 100 KB of buffer: open loop keeps colliding;
  // Cubic and DCTCP (Reno on loss) cut their windows, deliver everything, drop less.
  std::map<std::string, uint64_t> dropped;
  for (const std::string t : {"none", "cubic", "dctcp"}) {
    json s = lossy_transport_scenario(9, 100'000, 3000);
    s["host"] = {{"acks", {{"enabled", true}, {"rto_us", 1000}}}, {"transport", {{"default", t}}}};
    s["traffic"] = json::array({incast("h1-h8", 200'000)});
    RunResult r = run_mmusim(s);
    ASSERT_EQ(r.status, 0) << t << ": " << r.output;
    expect_conservation(r.summary);
    const auto rx = column(r.dir + "/out/flows.csv", "received_bytes");
    ASSERT_EQ(rx.size(), 8u);
    // Open loop at line rate, go-back-N resends collide again: not every flow finishes.
    if (t != "none") {
      for (const auto& v : rx) EXPECT_EQ(v, "200000") << t;
    }
    dropped[t] = r.summary["packets"]["dropped"].get<uint64_t>();
    std::filesystem::remove_all(r.dir);
  }
  EXPECT_GT(dropped["none"], 0u);
  EXPECT_LT(dropped["cubic"], dropped["none"]);
  EXPECT_LT(dropped["dctcp"], dropped["none"]);
}

TEST(Transport, SummaryCountsPerTransport) {
  // Lossless TC3 with step marking above 1500 B, h1-h4 (DCQCN) then h5-h8 (DCTCP) 200 KB
  // each into h0: four line-rate senders fill the queue past K at once, so every flow sees
  // marks, and with one CNP per flow per 10 s (longer than the run) each DCQCN flow's NP
  // sends exactly one. Every marked packet is delivered (lossless) and acknowledged with
  // ECE: the senders' ECE count is the switch's mark count. Nothing is lost: no timeout,
  // no fast retransmission, nothing out of order.
  json s = base_scenario(9, 2000);
  s["topology"]["rate_gbps"] = 25;
  s["buffer"] = sonic_buffer(9, 16 << 20, 14 << 20, std::to_string(2 << 20), 14 << 20, 0, 0, nullptr);
  s["wred"] = {{"WRED_PROFILE",
                {{"STEP", {{"ecn", "ecn_green"}, {"green_min_threshold", 1500}, {"green_max_threshold", 1500}}}}},
               {"QUEUE", {{"Ethernet0|3", {{"wred_profile", "STEP"}}}}}};
  s["host"] = {{"transport", {{"default", "dcqcn"}, {"dcqcn", {{"cnp_interval_us", 1e7}}}}}};
  json a = incast("h1-h4", 200'000), b = incast("h5-h8", 200'000);
  a["dscp"] = b["dscp"] = 24;
  a["name"] = "roce";
  b["name"] = "tcp";
  b["transport"] = "dctcp";
  b["start_us"] = 500;
  s["traffic"] = json::array({a, b});
  const json sum = simulate(s);
  ASSERT_TRUE(sum.contains("transport")) << sum.dump();
  EXPECT_EQ(sum["flows"]["completed"], 8);
  EXPECT_EQ(sum["drops"]["lossless"], 0);
  const json& q = sum["transport"]["dcqcn"];
  const json& t = sum["transport"]["dctcp"];
  std::printf("transport: %s; wred marked %llu\n", sum["transport"].dump().c_str(),
              (unsigned long long)sum["wred"]["marked"].get<uint64_t>());
  EXPECT_EQ(q["flows"], 4);
  EXPECT_EQ(q["cnps_sent"], 4);
  EXPECT_EQ(q["cnps_received"], 4);
  EXPECT_EQ(t["flows"], 4);
  EXPECT_EQ(t["cnps_sent"], 0);
  EXPECT_GT(q["ece_acks_received"].get<uint64_t>(), 0u);
  EXPECT_GT(t["ece_acks_received"].get<uint64_t>(), 0u);
  EXPECT_EQ(q["ece_acks_received"].get<uint64_t>() + t["ece_acks_received"].get<uint64_t>(),
            sum["wred"]["marked"].get<uint64_t>());
  for (const json* c : {&q, &t})
    for (const char* k : {"fast_retransmits", "timeouts", "out_of_order_kept"}) EXPECT_EQ((*c)[k], 0) << k;
  EXPECT_EQ(q["window_blocked"], 0);  // DCQCN is rate-based: no window
  EXPECT_FALSE(sum["transport"].contains("cubic"));
}

// scenarios/artifact_incast.json (16 x 4 MB from leaf1's hosts to h0 across a spine, 100
// Gb/s, 8.7 MB buffers, PFC) with DCQCN and a WRED profile that never marks: DCQCN runs at
// line rate and PFC alone holds the incast, queues of ~7 MB per switch, ~0.6 ms each.
json artifact_dcqcn() {
  std::ifstream in(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/artifact_incast.json");
  json s = json::parse(in);
  std::string ports;
  for (const auto& [k, v] : s["buffer"]["BUFFER_QUEUE"].items())
    if (k.size() > 2 && k.substr(k.size() - 2) == "|3") ports = k.substr(0, k.size() - 2);
  s["wred"] = {{"WRED_PROFILE",
                {{"OFF", {{"ecn", "ecn_green"}, {"green_min_threshold", 1e8}, {"green_max_threshold", 1e8}}}}},
               {"QUEUE", {{ports + "|3", {{"wred_profile", "OFF"}}}}}};
  s["host"] = {{"transport", {{"default", "dcqcn"}}}};
  return s;
}

TEST(Transport, RoceTimeoutAboveDeepPfcQueues) {
  // The RTO of a RoCE flow comes from its path (traffic_manager.cc roce_rto_ps): L = half
  // the unloaded RTT + each switch's buffer draining at the path's egress rate. By hand for
  // h16 -> leaf1 -> spine -> leaf0 -> h0: four 100 Gb/s links of 2 us, each 2 x 2 us +
  // 1520 B (121.6 ns) + 84 B (6.72 ns) = 4128.32 ns, plus 4 cycles of 1 ns per switch both
  // ways (24 ns): RTT 16537.28 ns, half 8268.64 ns; three 8.7 MB buffers at 100 Gb/s, 696 us
  // each: L = 2096268.64 ns, 2L = 4192.54 us, so RTO = 4.096 us x 2^10 = 4194.304 us.
  const json s = artifact_dcqcn();
  const auto r = run_in_child([&] {
    const Scenario sc = load_scenario(s, "artifact");
    Network net(sc, {});
    const json sum = net.run();
    json rto = json::array();
    for (const Flow& f : net.flows()) rto.push_back(f.rto_ps);
    return json{{"summary", sum}, {"rto", rto}}.dump();
  }, 120);
  ASSERT_TRUE(r.ok) << r.text;
  const json out = json::parse(r.text);
  ASSERT_EQ(out["rto"].size(), 16u);
  for (const auto& v : out["rto"]) EXPECT_EQ(v.get<uint64_t>(), 4'194'304'000u);
  // The run: every flow finishes with no loss and nothing resent. With host.acks.rto_us'
  // 100 us (the RTO before this fix) 0 of 16 finished: timeouts fired on flows that were
  // only queued and go-back-N filled the fabric with copies.
  const json& sum = out["summary"];
  expect_conservation(sum);
  EXPECT_EQ(sum["flows"]["completed"], 16);
  EXPECT_EQ(sum["packets"]["dropped"], 0);
  EXPECT_EQ(sum["acks"]["timeouts"], 0);
  EXPECT_EQ(sum["acks"]["retransmitted"], 0);
  // The cause, shown: the same run with a 100 us RoCE RTO.
  json short_rto = s;
  short_rto["host"]["transport"]["roce_rto_us"] = 100;
  const json bad = simulate(short_rto);
  ASSERT_FALSE(bad.is_null());
  std::printf("RoCE RTO 100 us: %llu of 16 flows done, %llu timeouts, %llu frames resent\n",
              (unsigned long long)bad["flows"]["completed"].get<uint64_t>(),
              (unsigned long long)bad["acks"]["timeouts"].get<uint64_t>(),
              (unsigned long long)bad["acks"]["retransmitted"].get<uint64_t>());
  EXPECT_GT(bad["transport"]["dcqcn"]["timeouts"].get<uint64_t>(), 0u);
  EXPECT_LT(bad["flows"]["completed"].get<uint64_t>(), 16u);
}

TEST(Transport, ReveriePaperScaleRunsConservatively) {
  // scenarios/reverie_paper.json (Reverie §4.1: 256 hosts, 16 leaves x 4 spines, DCQCN on
  // the lossless incast, Cubic on the websearch background), its first 1000 us: the traces
  // name hosts past the largest switch's 20 ports, every frame is accounted for, nothing
  // lossless is dropped, and both transports ran.
  std::ifstream in(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/reverie_paper.json");
  json s = json::parse(in);
  s["duration_us"] = 1000;
  s["measure"] = {{"start_us", 0}, {"end_us", 1000}};
  for (auto& g : s["traffic"]) g["file"] = std::string(MMUSIM_SOURCE_DIR) + "/" + g["file"].get<std::string>();
  const json sum = simulate(s);
  ASSERT_FALSE(sum.is_null());
  EXPECT_EQ(sum["switches"].size(), 20u);
  EXPECT_EQ(sum["drops"]["lossless"], 0);
  EXPECT_GT(sum["generators"]["background"]["flows"].get<uint64_t>(), 50u);
  EXPECT_GT(sum["transport"]["cubic"]["flows"].get<uint64_t>(), 50u);
  EXPECT_GT(sum["transport"]["dcqcn"]["flows"].get<uint64_t>(), 0u);
  EXPECT_GT(sum["wred"]["marked"].get<uint64_t>(), 0u);
}

TEST(Transport, BadConfigurationNamesTheField) {
  json s = lossy_transport_scenario(2, 1 << 20, 100);
  s["host"] = {{"transport", {{"dcqcn", {{"g", 2}}}}}};
  s["traffic"] = json::array({incast("h1", 1500)});
  RunResult r = run_mmusim(s);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("host.transport.dcqcn.g: must be in (0.0, 1.0]"), std::string::npos) << r.output;
  s["host"] = {{"transport", {{"classes", {{"1", "quic"}}}}}};
  RunResult q = run_mmusim(s);
  EXPECT_EQ(q.status, 1) << q.output;
  EXPECT_NE(q.output.find("host.transport.classes.1: unknown transport 'quic'"), std::string::npos) << q.output;
  s["host"] = {{"transport", {{"default", "dcqcn"}, {"roce_rto_us", 0}}}};
  RunResult z = run_mmusim(s);
  EXPECT_EQ(z.status, 1) << z.output;
  EXPECT_NE(z.output.find("host.transport.roce_rto_us: "), std::string::npos) << z.output;
  std::filesystem::remove_all(r.dir);
  std::filesystem::remove_all(q.dir);
  std::filesystem::remove_all(z.dir);
}

TEST(Transport, DeterministicPerSeed) {
  json s = lossy_transport_scenario(9, 100'000, 2000);
  s["host"] = {{"transport", {{"default", "cubic"}, {"classes", {{"1", "dctcp"}}}}}};
  s["traffic"] = json::array({incast("h1-h4", 150'000), incast("h5-h8", 150'000)});
  s["traffic"][1]["transport"] = "dcqcn";
  RunResult a = run_mmusim(s), b = run_mmusim(s);
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  EXPECT_EQ(slurp(a.dir + "/out/flows.csv"), slurp(b.dir + "/out/flows.csv"));
  std::filesystem::remove_all(a.dir);
  std::filesystem::remove_all(b.dir);
}

}  // namespace
}  // namespace mmusim::test
