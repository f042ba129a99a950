// BFC (bfc-nsdi22) whole scenarios through the mmusim binary: Appendix C's fraction of time
// a bottlenecked flow has no packets, the shape of Fig. 7 (queue near Th, utilisation vs
// Th), the deadlock check on runs that drain, Appendix B's suppression table, the Fig. 8
// assignment variants on one switch, determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "scenario_harness.h"

namespace mmusim::test {
namespace {

using nlohmann::json;

// Lossy traffic (dscp 8 -> TC1) in a buffer that never drops at these loads: BFC alone
// limits the queues.
json bfc_scenario(int ports, double duration_us, double link_delay_ns) {
  json s = base_scenario(ports, duration_us);
  s["buffer"] = sonic_buffer(ports, 16 * 1024 * 1024, 12 * 1024 * 1024, nullptr, 12 * 1024 * 1024, 0, 0, nullptr);
  s["topology"]["link_delay_ns"] = link_delay_ns;
  s["bfc"] = {{"enabled", true}};
  return s;
}

json flow(const std::string& src, const std::string& dst, int packet_bytes) {
  json f = constant(src, dst, 8);
  f["packet_bytes"] = packet_bytes;
  return f;
}

// The loop delay of one pause or resume on this model (App. C's HRTT): the BFC frame
// (64 + 20 B at 100 Gb/s = 6.72 ns) crosses the link, the NIC finishes or starts a data
// frame of `wire_bytes` at 100 Gb/s, it crosses the link back, the ingress pipeline takes
// 4 cycles of 1 ns.
double loop_hrtt_ns(double link_delay_ns, int wire_bytes) {
  return 2 * link_delay_ns + 84 * 8 / 100.0 + wire_bytes * 8 / 100.0 + 4;
}

// Appendix C Eq. 4.
double e_f(double x, double th_over_bdp) { return (x - 1) / (th_over_bdp * x + x * x - 1); }

// One long flow h0 -> h1; h1's port runs at 100/x Gb/s, so the flow enters at x * mu_f and
// drains at mu_f; Th = HRTT * mu_f (N_active = 1). 492 B frames are 2 cells of 256 B and
// 512 B on the wire, so queue cells and wire time agree.
json appendix_c(double x) {
  json s = bfc_scenario(2, 300, 1000);
  s["topology"]["port_overrides"] = {{"Ethernet4", {{"rate_gbps", 100.0 / x}}}};
  s["bfc"]["hrtt_ns"] = loop_hrtt_ns(1000, 512);
  s["measure"] = {{"start_us", 20}, {"end_us", 300}};
  s["traffic"] = json::array({flow("h0", "h1", 492)});
  return s;
}

TEST(BfcAppendixC, FractionOfTimeWithoutPacketsMatchesEf) {
  std::map<double, double> measured;
  for (double x : {1.1, 1.25, 2.0, 3.0, 4.0}) {
    const json s = simulate(appendix_c(x));
    ASSERT_FALSE(s.is_null());
    const json& port = s["bfc"]["ports"][1];
    const double e = port["empty_fraction"].get<double>(), paper = e_f(x, 1.0);
    measured[x] = e;
    std::printf("App. C x=%.2f: flow without packets %.4f of the time, paper E_f(x, HRTT*mu_f) = %.4f\n", x, e,
                paper);
    EXPECT_NEAR(e, paper, 0.01) << "x=" << x;
    EXPECT_GT(s["bfc"]["pause_frames"].get<uint64_t>(), 5u);
    EXPECT_EQ(s["drops"]["lossy"].get<uint64_t>(), 0u);
  }
  // The maximum, 0.2, is at x = 2 (Eq. 5 with Th = HRTT * mu_f).
  for (const auto& [x, e] : measured) EXPECT_LE(e, measured[2.0]) << "x=" << x;
  EXPECT_NEAR(measured[2.0], 0.2, 0.01);
}

// Fig. 7: two flows (h0, h1 -> h2) compete at a 100 Gb/s link, cells of 176 B; 1036 B
// frames are 6 cells and 1056 B on the wire. Th of t us = t us of drain at the link rate
// (25 KB at 2 us, the paper's 15 KB average queue fits that reading): with N_active = 2,
// hrtt_ns = 2t. Short links (100 ns) as on the loopback testbed.
TEST(BfcFig7, QueueHeldNearThAndFullUtilisation) {
  const double kDelay = 100, kHrtt = loop_hrtt_ns(kDelay, 1056);
  std::map<double, double> util;
  for (double t : {0.5, 1.0, 2.0, 4.0}) {
    json sc = bfc_scenario(3, 200, kDelay);
    sc["mmu"]["cell_bytes"] = 176;
    sc["bfc"]["hrtt_ns"] = 2 * t * 1000;
    sc["measure"] = {{"start_us", 20}, {"end_us", 200}};
    sc["traffic"] = json::array({flow("h0", "h2", 1036), flow("h1", "h2", 1036)});
    const json s = simulate(sc);
    ASSERT_FALSE(s.is_null());
    const json& port = s["bfc"]["ports"][2];
    const double th = t * 1e-6 * 100e9 / 8;  // bytes
    const double u = 1 - port["empty_fraction"].get<double>();
    const double meanq = port["mean_queue_bytes"].get<double>(), maxq = port["max_queue_bytes"].get<double>();
    // App. C phase 1: a queue tops out at Th + HRTT * (x - 1) * mu_f (x = 2, mu_f = 50 Gb/s),
    // plus the frame that crossed Th and two in the NIC's and switch's serialisers.
    const double bound = th + kHrtt * 1e-9 * 50e9 / 8 + 3 * 1056;
    util[t] = u;
    std::printf("Fig. 7 Th=%.1f us (%.0f B): utilisation %.4f, mean queue %.0f B, max %.0f B (bound %.0f B)%s\n", t,
                th, u, meanq, maxq, bound, t == 2.0 ? "; paper at 2 us: ~100 %, mean queue 15 KB" : "");
    EXPECT_GE(meanq, 0.4 * th);
    EXPECT_LE(meanq, th);
    EXPECT_LE(maxq, bound);
    if (t >= 2.0) {
      EXPECT_GE(u, 0.97) << "Th=" << t << " us";
    }
    EXPECT_EQ(s["drops"]["lossy"].get<uint64_t>(), 0u);
  }
  EXPECT_GT(util[2.0], util[0.5]) << "a larger Th loses less to resume delay";
}

// Traffic that ends: every pause is released, the model's deadlock check passes. A
// constant flow holds rate x (stop - start) bytes: 625 KB, sent at 50 Gb/s in 100 us.
TEST(BfcDeadlock, NoneWhenTrafficDrains) {
  json two = bfc_scenario(3, 150, 100);
  two["mmu"]["cell_bytes"] = 176;
  two["bfc"]["hrtt_ns"] = 4000;
  json a = flow("h0", "h2", 1036), b = flow("h1", "h2", 1036);
  a["stop_us"] = b["stop_us"] = 50;
  two["traffic"] = json::array({a, b});
  json one = appendix_c(2.0);
  one["duration_us"] = 150;
  one["measure"] = {{"start_us", 0}, {"end_us", 150}};
  one["traffic"][0]["stop_us"] = 50;
  for (const json& sc : {two, one}) {
    const json s = simulate(sc);
    ASSERT_FALSE(s.is_null());
    const json& b = s["bfc"];
    std::printf("drained run: %llu pauses, %llu resumes, unresolved %u, deadlock %u, longest pause %.0f ns\n",
                (unsigned long long)b["pause_frames"].get<uint64_t>(),
                (unsigned long long)b["resume_frames"].get<uint64_t>(), b["unresolved_pauses"].get<unsigned>(),
                b["deadlock"].get<unsigned>(), b["longest_pause_ns"].get<double>());
    EXPECT_GT(b["pause_frames"].get<uint64_t>(), 0u);
    EXPECT_EQ(b["pause_frames"], b["resume_frames"]);
    EXPECT_EQ(b["unresolved_pauses"].get<unsigned>(), 0u);
    EXPECT_EQ(b["deadlock"].get<unsigned>(), 0u);
    EXPECT_EQ(b["nic_queues_paused_at_end"].get<unsigned>(), 0u);
    // Every frame sent reached its NIC (nothing in flight once traffic has drained).
    const uint64_t sent = b["pause_frames"].get<uint64_t>() + b["resume_frames"].get<uint64_t>() +
                          b["refresh_frames"].get<uint64_t>();
    EXPECT_EQ(b["frames_transmitted"].get<uint64_t>(), sent);
    EXPECT_EQ(b["frames_received_by_hosts"].get<uint64_t>(), sent);
    EXPECT_EQ(b["frames_received"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["packets"]["buffered_at_end"].get<uint64_t>(), 0u);
  }
}

// Appendix B: backpressure elided for (Ethernet0 -> Ethernet4): no pause, the queue grows.
TEST(BfcSuppress, ElidedPairSendsNoPause) {
  json sc = appendix_c(2.0);
  sc["bfc"]["suppress"] = json::array({{{"ingress", "Ethernet0"}, {"egress", "Ethernet4"}}});
  const json s = simulate(sc);
  ASSERT_FALSE(s.is_null());
  EXPECT_EQ(s["bfc"]["pause_frames"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["bfc"]["counted_packets"].get<uint64_t>(), 0u);
  EXPECT_GT(s["bfc"]["suppressed_packets"].get<uint64_t>(), 1000u);
  EXPECT_LT(s["bfc"]["ports"][1]["empty_fraction"].get<double>(), 0.001);
}

// Fig. 8's variants at one switch: three flows into one port use one queue (single) or
// three (dynamic); mean bytes / mean bytes per busy queue = time-mean number of busy queues.
TEST(BfcAssignment, SingleSharesOneQueueDynamicSeparates) {
  for (const char* mode : {"single", "dynamic"}) {
    json sc = bfc_scenario(4, 100, 100);
    sc["bfc"]["assignment"] = mode;
    sc["traffic"] = json::array({flow("h0", "h3", 1000), flow("h1", "h3", 1000), flow("h2", "h3", 1000)});
    sc["measure"] = {{"start_us", 10}, {"end_us", 100}};
    const json s = simulate(sc);
    ASSERT_FALSE(s.is_null());
    const json& p = s["bfc"]["ports"][3];
    const double busy = p["mean_bytes"].get<double>() / p["mean_queue_bytes"].get<double>();
    std::printf("assignment %s: %.2f busy queues on average\n", mode, busy);
    if (std::string(mode) == "single") {
      EXPECT_LE(busy, 1.0);
    } else {
      EXPECT_GT(busy, 2.0);
    }
  }
}

TEST(BfcDeterminism, SameSeedSameSummary) {
  json a = simulate(appendix_c(2.0)), b = simulate(appendix_c(2.0));
  ASSERT_FALSE(a.is_null());
  a.erase("wall_time_s");
  b.erase("wall_time_s");
  EXPECT_EQ(a.dump(), b.dump());
}

}  // namespace
}  // namespace mmusim::test

#include "bfc_fig8.h"

namespace mmusim::test {
namespace {

// The Fig. 8 helper on one switch (a stand-in until multi-switch topologies exist): the
// generators load and complete, and the statistics are the hand-computed ones.
TEST(BfcFig8Helper, TrafficRunsAndStatisticsAreHandComputed) {
  json sc = bfc_scenario(6, 400, 100);
  sc["traffic"] = fig8_traffic({{"h0"}, {"h1", "h2"}, {"h3"}, "h4", "h5"}, 4);
  ASSERT_EQ(sc["traffic"].size(), 14u);
  EXPECT_EQ(sc["traffic"][3]["senders"], "h2");  // group 2 round robin: h1, h2, h1, h2
  const json s = simulate(sc);
  ASSERT_FALSE(s.is_null());
  const Fig8Fct one = fig8_group_fct({s}, 1);
  EXPECT_TRUE(one.all_completed);
  EXPECT_EQ(one.runs, 1);
  // Group 1 alone at receiver 1 from one NIC: 2 x 1000 frames of 1500 B (+20 B on the
  // wire) at 100 Gb/s interleave, 243.2 us, plus two 100 ns links, the last frame's
  // serialisation at the switch and the pipeline: both end within 244 us.
  std::printf("Fig. 8 helper, one switch: group 1 mean FCT %.1f us\n", one.mean_us);
  EXPECT_GE(one.mean_us, 243.2);
  EXPECT_LE(one.mean_us, 244.0);
  // Statistics over runs: means 10, 20, 30, 40 us -> 25 us, sample sd sqrt(500/3) us.
  std::vector<json> runs;
  for (double m : {10.0, 20.0, 30.0, 40.0})
    runs.push_back({{"generators", {{"group1_0", {{"flows", 1}, {"completed", 1}, {"fct_ns", {{"mean", m * 1000}}}}},
                                    {"group2_0", {{"flows", 1}, {"completed", 0}, {"fct_ns", {{"mean", 0}}}}}}}});
  const Fig8Fct f = fig8_group_fct(runs, 1);
  EXPECT_EQ(f.runs, 4);
  EXPECT_DOUBLE_EQ(f.mean_us, 25.0);
  EXPECT_NEAR(f.std_us, std::sqrt(500.0 / 3.0), 1e-9);
  EXPECT_TRUE(f.all_completed);
  EXPECT_FALSE(fig8_group_fct(runs, 2).all_completed);
}

}  // namespace
}  // namespace mmusim::test

namespace mmusim::test {
namespace {

// scenarios/bfc-two-flows.json is the Fig. 7 set-up at Th = 2 us: same numbers, and the
// report prints the BFC line.
TEST(BfcScenarioFile, TwoFlowsExampleMatchesFig7AndReports) {
  const std::string file = std::string(MMUSIM_SOURCE_DIR) + "/scenarios/bfc-two-flows.json";
  const json s = simulate(json::parse(slurp(file)));
  ASSERT_FALSE(s.is_null());
  const double u = 1 - s["bfc"]["ports"][2]["empty_fraction"].get<double>();
  std::printf("scenarios/bfc-two-flows.json: utilisation %.4f (paper: close to 100 %%)\n", u);
  EXPECT_GE(u, 0.97);
  EXPECT_EQ(s["bfc"]["deadlock"].get<unsigned>(), 0u);
  const std::string dir = temp_dir();
  const std::string cmd = std::string(MMUSIM_BIN) + " run " + file + " --out " + dir + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  EXPECT_EQ(pclose(p), 0) << out;
  EXPECT_NE(out.find("bfc       pause frames "), std::string::npos) << out;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mmusim::test

namespace mmusim::test {
namespace {

// Stickiness (§3.3.2) on the Appendix C flow at x = 2: every resume leaves the flow without
// packets at the switch for one HRTT (phase 3), less than the sticky time 2·HRTT, so its
// slot keeps its queue each time: one assignment, one sticky keep per resume. With a
// sticky factor of 0 the slot is reassigned after every gap instead.
TEST(BfcSticky, FlowKeepsItsQueueAcrossResumeGaps) {
  for (double factor : {2.0, 0.0}) {
    json sc = appendix_c(2.0);
    sc["bfc"]["sticky_factor"] = factor;
    const json s = simulate(sc);
    ASSERT_FALSE(s.is_null());
    const json& b = s["bfc"];
    const uint64_t resumes = b["resume_frames"].get<uint64_t>();
    std::printf("sticky factor %.0f: %llu resumes, %llu assignments, %llu sticky keeps\n", factor,
                (unsigned long long)resumes, (unsigned long long)b["assignments"].get<uint64_t>(),
                (unsigned long long)b["sticky_keeps"].get<uint64_t>());
    ASSERT_GT(resumes, 20u);
    if (factor > 0) {
      EXPECT_EQ(b["assignments"].get<uint64_t>(), 1u);
      EXPECT_EQ(b["sticky_keeps"].get<uint64_t>(), resumes);
    } else {
      EXPECT_EQ(b["assignments"].get<uint64_t>(), 1 + resumes);
      EXPECT_EQ(b["sticky_keeps"].get<uint64_t>(), 0u);
    }
  }
}

}  // namespace
}  // namespace mmusim::test

namespace mmusim::test {
namespace {

// output.bfc_queues on the Fig. 7 set-up (Th = 2 us): bfc_queues.csv sampled every 100 ns.
// Summed over the port and averaged over the measurement window it is summary.json's
// mean_bytes (to the sampling error); no sample exceeds max_queue_bytes; each of the two
// flows keeps one queue; both queues run dry after a resume; rows come in time order; a
// rerun writes the same bytes; without the key no file is written.
TEST(BfcQueueSeries, SamplesAgreeWithSummary) {
  json sc = json::parse(slurp(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/bfc-two-flows.json"));
  sc["output"]["sample_interval_ns"] = 100;
  sc["output"]["bfc_queues"] = true;
  RunResult r = run_mmusim(sc);
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string csv = slurp(r.dir + "/out/bfc_queues.csv");
  ASSERT_EQ(csv.substr(0, csv.find('\n')), "time_ns,port,queue,bytes");
  std::map<uint32_t, std::map<long, double>> q;  // queue -> sample (100 ns) -> bytes
  double last_t = -1, max_b = 0;
  size_t pos = csv.find('\n') + 1;
  while (pos < csv.size()) {
    const size_t end = csv.find('\n', pos);
    const std::string line = csv.substr(pos, end - pos);
    pos = end + 1;
    char port[32];
    double t, bytes;
    unsigned queue;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%31[^,],%u,%lf", &t, port, &queue, &bytes), 4) << line;
    EXPECT_EQ(std::string(port), "Ethernet8") << line;
    EXPECT_GE(t, last_t);
    EXPECT_GT(bytes, 0) << "empty queues have no row";
    last_t = t;
    q[queue][std::lround(t / 100)] = bytes;
    max_b = std::max(max_b, bytes);
  }
  ASSERT_EQ(q.size(), 2u) << "each flow keeps its queue";
  const json& port = r.summary["bfc"]["ports"][2];
  double sum = 0;
  int n = 0;
  for (long k = 200; k < 2000; ++k, ++n)  // 20-200 us
    for (auto& [queue, s] : q) sum += s.count(k) ? s[k] : 0;
  const double mean = sum / n, want = port["mean_bytes"].get<double>();
  int dry = 0;
  for (long k = 200; k < 2000; ++k) dry += !q.begin()->second.count(k) && !std::next(q.begin())->second.count(k);
  std::printf("bfc_queues.csv: port mean %.0f B from samples, summary mean_bytes %.0f B; max sample %.0f B, "
              "max_queue_bytes %.0f B; both queues empty in %d of %d samples\n",
              mean, want, max_b, port["max_queue_bytes"].get<double>(), dry, n);
  EXPECT_NEAR(mean, want, 0.02 * want);
  EXPECT_LE(max_b, port["max_queue_bytes"].get<double>());
  EXPECT_GT(dry, 0);
  RunResult again = run_mmusim(sc);
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_EQ(slurp(again.dir + "/out/bfc_queues.csv"), csv);
  sc["output"].erase("bfc_queues");
  RunResult off = run_mmusim(sc);
  ASSERT_EQ(off.status, 0) << off.output;
  EXPECT_FALSE(std::filesystem::exists(off.dir + "/out/bfc_queues.csv"));
  for (const auto* d : {&r, &again, &off}) std::filesystem::remove_all(d->dir);
}

}  // namespace
}  // namespace mmusim::test
