// Smart-Pause at the host NIC (smart-pause-2019-slides; DOMAIN.md §7) through the real
// binary: the OWD an ACK reports on an empty path equals the hand-computed path delay,
// every delivered data packet is acknowledged exactly once, ACKs off changes nothing, and
// in a lossy incast Smart-Pause takes the drop ratio to ~0 and lowers the mean slowdown.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario_harness.h"

namespace mmusim::test {
namespace {

using nlohmann::json;

// flows.csv as rows of named columns.
std::vector<std::map<std::string, std::string>> read_flows(const std::string& path) {
  std::stringstream in(slurp(path));
  std::string line;
  std::getline(in, line);
  std::vector<std::string> cols;
  {
    std::stringstream h(line);
    for (std::string c; std::getline(h, c, ',');) cols.push_back(c);
  }
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::map<std::string, std::string> r;
    std::stringstream l(line);
    std::string v;
    for (size_t i = 0; i < cols.size(); ++i) {
      if (!std::getline(l, v, ',')) v.clear();
      r[cols[i]] = v;
    }
    rows.push_back(r);
  }
  return rows;
}

// RTO above the largest queueing delay (2 MB at 40 Gb/s = 420 us): no spurious timeouts.
const json kAcks = {{"enabled", true}, {"bytes", 64}, {"dscp", 48}, {"rto_us", 500}};
// The slides' dynamic rule: T = 12/14/16 us for 1/3/5 hops, P = OWD - T.
const json kDynamic = {{"enabled", true}, {"threshold_ns_by_hops", {12000, 13000, 14000, 15000, 16000}},
                       {"pause", "dynamic"}};
// The slides' fixed rule: T = 50 us, P = 20 us.
const json kFixed = {{"enabled", true}, {"threshold_ns", 50000}, {"pause", "fixed"}, {"pause_ns", 20000}};

// One 15000-byte flow h1 -> h0 on an idle switch: each of its ten 1500-byte frames takes
// 1520 B x 8 / 40 Gb/s = 304 ns per link, 1 us propagation per link, and the admission
// decision 4 cycles (4 ns, already on a clock edge) after arrival: OWD = 304 + 1000 + 4 +
// 304 + 1000 = 2612 ns; FCT = 9 x 304 + 2612 = 5348 ns = the ideal FCT (slowdown 1).
TEST(SmartPause, EmptyPathOwdEqualsHandComputedDelay) {
  for (const bool sp : {false, true}) {
    json s = lossy_scenario(3, 1 << 20, 100);
    s["traffic"] = json::array(
        {{{"type", "incast"}, {"name", "one"}, {"senders", "h1"}, {"receiver", "h0"}, {"burst_bytes", 15000}, {"start_us", 1}, {"dscp", 8}}});
    s["host"] = {{"acks", kAcks}};
    if (sp) s["host"]["smart_pause"] = kDynamic;
    RunResult r = run_mmusim(s);
    ASSERT_EQ(r.status, 0) << r.output;
    expect_conservation(r.summary);
    const auto rows = read_flows(r.dir + "/out/flows.csv");
    ASSERT_EQ(rows.size(), 1u);
    const auto& f = rows[0];
    std::printf("smart_pause=%d: last OWD %s ns (hand 2612.000), FCT %s ns, ideal %s ns (hand 5348.000), slowdown %s\n",
                int(sp), f.at("last_owd_ns").c_str(), f.at("fct_ns").c_str(), f.at("ideal_fct_ns").c_str(),
                f.at("slowdown").c_str());
    EXPECT_EQ(f.at("last_owd_ns"), "2612.000");
    EXPECT_EQ(f.at("acks"), "10");
    EXPECT_EQ(f.at("fct_ns"), "5348.000");
    EXPECT_EQ(f.at("ideal_fct_ns"), "5348.000");
    EXPECT_EQ(f.at("slowdown"), "1.0000");
    const json& a = r.summary["acks"];
    EXPECT_EQ(a["sent"], 10);
    EXPECT_EQ(a["received"], 10);
    EXPECT_EQ(a["data_injected"], 10);
    EXPECT_EQ(a["data_delivered"], 10);
    // ACKs are frames: 10 data + 10 ACKs, each over two links and through the switch.
    EXPECT_EQ(r.summary["packets"]["hops"], 40);
    EXPECT_EQ(r.summary["switches"][0]["packets"]["received"], 20);
    if (sp) {
      EXPECT_EQ(r.summary["smart_pause"]["holds"], 0);  // 2.6 us < T = 12 us
    }
    std::filesystem::remove_all(r.dir);
  }
}

// Holds on an otherwise empty path, by hand. One 30000-byte flow (20 frames of 1500 B,
// 304 ns each at 40 Gb/s) h1 -> h0 from t0 = 1 us; every OWD is 2612 ns (test above). The
// first ACK (84 wire bytes: 16.8 ns per link) leaves h0 at t0 + 2612, reaches the switch at
// + 3628.8, is decided at the clock edge 3633 and reaches h1 at t0 + 4649.8 ns, while frame 15
// (sent at 15 x 304 = 4560) is on the wire until 4864. Frames 0-15 go unheld; from 4864
// every frame is held once for P and then takes 304 ns, so frames 16..19 leave at
// 4864 + P + k (P + 304), k = 0..3, and the last arrives 2612 ns later.
//   fixed P = 10 us (T = 1 ns):     FCT = 4864 + 10000 + 3 x 10304 + 2612 = 48388 ns
//   dynamic, T = 1 us (P = 1612):   FCT = 4864 + 1612 + 3 x 1916 + 2612 = 14836 ns
TEST(SmartPause, HoldSpacingOnEmptyPathByHand) {
  struct Case {
    json sp;
    const char* fct;
    double held_ns;
  };
  const Case cases[] = {
      {{{"enabled", true}, {"threshold_ns", 1}, {"pause", "fixed"}, {"pause_ns", 10000}}, "48388.000", 40000},
      {{{"enabled", true}, {"threshold_ns", 1000}, {"pause", "dynamic"}}, "14836.000", 4 * 1612}};
  for (const Case& c : cases) {
    json s = lossy_scenario(3, 1 << 20, 200);
    s["traffic"] = json::array(
        {{{"type", "incast"}, {"name", "one"}, {"senders", "h1"}, {"receiver", "h0"}, {"burst_bytes", 30000}, {"start_us", 1}, {"dscp", 8}}});
    s["host"] = {{"acks", kAcks}, {"smart_pause", c.sp}};
    RunResult r = run_mmusim(s);
    ASSERT_EQ(r.status, 0) << r.output;
    const auto rows = read_flows(r.dir + "/out/flows.csv");
    ASSERT_EQ(rows.size(), 1u);
    const json& sp = r.summary["smart_pause"];
    std::printf("%s: FCT %s ns (hand %s), holds %d (hand 4), held %.3f ns (hand %.3f)\n", c.sp["pause"].get<std::string>().c_str(),
                rows[0].at("fct_ns").c_str(), c.fct, sp["holds"].get<int>(), sp["held_time_ns"].get<double>(), c.held_ns);
    EXPECT_EQ(rows[0].at("fct_ns"), c.fct);
    EXPECT_EQ(sp["holds"], 4);
    EXPECT_DOUBLE_EQ(sp["held_time_ns"].get<double>(), c.held_ns);
    EXPECT_EQ(rows[0].at("last_owd_ns"), "2612.000");
    std::filesystem::remove_all(r.dir);
  }
}

// The lossy incast of the validation: 4 senders -> h0, 500 kB bursts every 1 ms, three
// times (2 MB per burst into a 2 MB buffer), plus Poisson background (30 % load,
// exponential 20 kB) among h1..h9 -> h0..h9; everything lossy (DSCP 8 -> TC1, no PFC).
json lossy_incast(const json& host, uint64_t seed) {
  json s = lossy_scenario(10, 2 << 20, 4000);
  s["seed"] = seed;
  s["traffic"] = json::array(
      {{{"type", "incast"}, {"name", "incast"}, {"senders", "h1-h4"}, {"receiver", "h0"}, {"burst_bytes", 500000},
        {"period_us", 1000}, {"count", 3}, {"start_us", 10}, {"dscp", 8}},
       {{"type", "poisson"}, {"name", "background"}, {"srcs", "h1-h9"}, {"dsts", "h0-h9"}, {"load", 0.3}, {"dscp", 8},
        {"size", {{"dist", "exponential"}, {"mean_bytes", 20000}}}, {"stop_us", 3000}}});
  if (!host.is_null()) s["host"] = host;
  return s;
}

struct IncastRun {
  json sum;
  double drop_ratio = 0;  // data frames dropped / data frames sent
  double mean_sd = 0, p99_sd = 0;
};

IncastRun run_incast(const json& host, uint64_t seed = 1) {
  IncastRun r;
  RunResult run = run_mmusim(lossy_incast(host, seed));
  EXPECT_EQ(run.status, 0) << run.output;
  if (run.status != 0) return r;
  r.sum = run.summary;
  expect_conservation(r.sum);
  const json& p = r.sum["packets"];
  uint64_t data_sent = p["injected"];
  uint64_t data_dropped = p["dropped"];
  if (r.sum.contains("acks")) {
    const json& a = r.sum["acks"];
    data_sent = a["data_injected"];
    // Every data frame that reached a receiver was acknowledged once, and no ACK was lost.
    EXPECT_EQ(a["sent"], a["data_delivered"]);
    EXPECT_EQ(a["received"], a["sent"]);
    EXPECT_EQ(p["buffered_at_end"], 0);
    // With nothing left in flight, every data frame sent was delivered or dropped.
    EXPECT_EQ(a["data_injected"].get<uint64_t>(), a["data_delivered"].get<uint64_t>() + data_dropped);
    // Go-back-N recovered every loss: all flows completed.
    EXPECT_EQ(r.sum["flows"]["completed"], r.sum["flows"]["started"]);
  }
  r.drop_ratio = double(data_dropped) / double(data_sent);
  r.mean_sd = r.sum["flows"]["slowdown"]["mean"];
  r.p99_sd = r.sum["flows"]["slowdown"]["p99"];
  std::filesystem::remove_all(run.dir);
  return r;
}

TEST(SmartPause, LossyIncastDropsVanishAndSlowdownFalls) {
  auto line = [](const std::string& name, const IncastRun& r) {
    std::printf("  %-40s drop ratio %.4f  slowdown mean %5.2f  p99 %6.2f  flows %d/%d  holds %d\n", name.c_str(),
                r.drop_ratio, r.mean_sd, r.p99_sd, r.sum["flows"]["completed"].get<int>(),
                r.sum["flows"]["started"].get<int>(),
                r.sum.contains("smart_pause") ? r.sum["smart_pause"]["holds"].get<int>() : 0);
  };
  std::printf("lossy incast (4 -> 1, 500 kB bursts, 2 MB DT buffer, 40 Gb/s, 1 us links) + 30 %% Poisson:\n");
  const IncastRun none = run_incast(json());
  const IncastRun fix = run_incast({{"acks", kAcks}, {"smart_pause", kFixed}});
  line("seed 1, no ACKs (open loop, losses final)", none);
  line("seed 1, Smart-Pause fixed (T=50us, P=20us)", fix);
  EXPECT_GT(none.drop_ratio, 0.02);  // the incast overruns the buffer
  for (uint64_t seed : {1, 2, 3}) {
    const IncastRun base = run_incast({{"acks", kAcks}}, seed);  // ACKs + go-back-N, no pausing
    const IncastRun dyn = run_incast({{"acks", kAcks}, {"smart_pause", kDynamic}}, seed);
    line("seed " + std::to_string(seed) + ", ACKs + go-back-N, no Smart-Pause", base);
    line("seed " + std::to_string(seed) + ", Smart-Pause dynamic (T=12us, P=OWD-T)", dyn);
    const double mean_factor = base.mean_sd / dyn.mean_sd, p99_factor = base.p99_sd / dyn.p99_sd;
    std::printf("seed %llu: drop ratio %.4f -> %.4f (paper: -> ~0); mean slowdown %.2fx lower (paper: 3-5x), "
                "p99 %.2fx lower (paper: 3-17x)\n",
                (unsigned long long)seed, base.drop_ratio, dyn.drop_ratio, mean_factor, p99_factor);
    EXPECT_GT(base.drop_ratio, 0.02);
    EXPECT_LE(dyn.drop_ratio, 0.001);
    EXPECT_GT(dyn.sum["smart_pause"]["holds"].get<int>(), 0);
    EXPECT_GE(mean_factor, 1.8);
    EXPECT_GE(p99_factor, 3.0);
    if (seed == 1) {
      // The slides' fixed rule (T = 50 us, P = 20 us) helps here too, less than the dynamic one.
      std::printf("seed 1, fixed rule: drop ratio %.4f, mean slowdown %.2fx lower, p99 %.2fx lower\n",
                  fix.drop_ratio, base.mean_sd / fix.mean_sd, base.p99_sd / fix.p99_sd);
      EXPECT_LE(fix.drop_ratio, 0.001);
      EXPECT_GE(base.mean_sd / fix.mean_sd, 1.3);
      EXPECT_GE(base.p99_sd / fix.p99_sd, 1.5);
      // scenarios/smart_pause_incast.json is this run, for the command line.
      std::ifstream in(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/smart_pause_incast.json");
      const json file = simulate(json::parse(in));
      EXPECT_EQ(file["flows"]["slowdown"], dyn.sum["flows"]["slowdown"]);
      EXPECT_EQ(file["acks"], dyn.sum["acks"]);
    }
  }
}

// Every data packet is acknowledged exactly once per flow (no drops here: a big buffer),
// with a long RTO (no retransmission) and with a short one (spurious timeouts resend data
// the receiver already has; those copies are acknowledged too and the flows still complete).
TEST(SmartPause, EveryDeliveredPacketAckedOnce) {
  for (const int rto_us : {10000, 50}) {
    json acks = kAcks;
    acks["rto_us"] = rto_us;
    json s = lossy_incast({{"acks", acks}, {"smart_pause", kDynamic}}, 1);
    s["mmu"]["buffer_bytes"] = 16 << 20;
    for (const char* p : {"ingress_pool", "egress_lossy_pool"})
      s["buffer"]["BUFFER_POOL"][p]["size"] = std::to_string(16 << 20);
    s["buffer"]["BUFFER_PROFILE"]["ingress_lossy_profile"]["static_th"] = std::to_string(16 << 20);
    RunResult r = run_mmusim(s);
    ASSERT_EQ(r.status, 0) << r.output;
    expect_conservation(r.summary);
    EXPECT_EQ(r.summary["packets"]["dropped"], 0);
    const json& a = r.summary["acks"];
    if (rto_us == 10000) {
      EXPECT_EQ(a["retransmitted"], 0);
      EXPECT_EQ(a["timeouts"], 0);
    } else {
      EXPECT_GT(a["timeouts"].get<uint64_t>(), 0u);
      EXPECT_GT(a["retransmitted"].get<uint64_t>(), 0u);
    }
    EXPECT_EQ(a["sent"], a["data_injected"]);
    EXPECT_EQ(a["received"], a["data_injected"]);
    EXPECT_EQ(r.summary["flows"]["completed"], r.summary["flows"]["started"]);
    // Every frame, data or ACK, crosses two links.
    EXPECT_EQ(r.summary["packets"]["hops"], 2 * r.summary["packets"]["injected"].get<uint64_t>());
    const auto rows = read_flows(r.dir + "/out/flows.csv");
    uint64_t acked = 0;
    for (const auto& f : rows) {
      EXPECT_EQ(f.at("acks"), f.at("packets")) << "flow " << f.at("id");
      EXPECT_EQ(f.at("received_bytes"), f.at("bytes")) << "flow " << f.at("id");
      acked += std::stoull(f.at("acks"));
    }
    std::printf("RTO %d us: %zu flows, %llu data packets (%llu retransmitted, %llu timeouts), %llu ACKs received, "
                "%llu sent\n",
                rto_us, rows.size(), (unsigned long long)a["data_injected"].get<uint64_t>(),
                (unsigned long long)a["retransmitted"].get<uint64_t>(), (unsigned long long)a["timeouts"].get<uint64_t>(),
                (unsigned long long)acked, (unsigned long long)a["sent"].get<uint64_t>());
    EXPECT_EQ(acked, a["received"].get<uint64_t>());
    std::filesystem::remove_all(r.dir);
  }
}

// With ACKs and Smart-Pause off (explicitly), the default scenario's outputs are unchanged.
TEST(SmartPause, DisabledKeysChangeNothing) {
  json plain = load_default();
  plain["duration_us"] = 300;
  plain["measure"] = {{"start_us", 0}, {"end_us", 300}};
  json off = plain;
  off["host"] = {{"acks", {{"enabled", false}}}, {"smart_pause", {{"enabled", false}, {"threshold_ns", 12000}}}};
  RunResult a = run_mmusim(plain), b = run_mmusim(off);
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  for (const char* f : {"flows.csv", "timeseries.csv"})
    EXPECT_EQ(slurp(a.dir + "/out/" + f), slurp(b.dir + "/out/" + f)) << f;
  a.summary.erase("wall_time_s");
  b.summary.erase("wall_time_s");
  EXPECT_EQ(a.summary, b.summary);
  EXPECT_FALSE(b.summary.contains("acks"));
  std::filesystem::remove_all(a.dir);
  std::filesystem::remove_all(b.dir);
}

// Same scenario and seed, byte-identical outputs with ACKs, go-back-N and holds at work.
TEST(SmartPause, SameSeedSameOutputs) {
  const json s = lossy_incast({{"acks", kAcks}, {"smart_pause", kDynamic}}, 2);
  RunResult a = run_mmusim(s), b = run_mmusim(s);
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  for (const char* f : {"flows.csv", "timeseries.csv"})
    EXPECT_EQ(slurp(a.dir + "/out/" + f), slurp(b.dir + "/out/" + f)) << f;
  a.summary.erase("wall_time_s");
  b.summary.erase("wall_time_s");
  EXPECT_EQ(a.summary, b.summary);
  EXPECT_GT(a.summary["smart_pause"]["holds"].get<int>(), 0);
  std::filesystem::remove_all(a.dir);
  std::filesystem::remove_all(b.dir);
}

}  // namespace
}  // namespace mmusim::test
