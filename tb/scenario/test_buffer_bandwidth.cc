// buffer-bandwidth-tradeoff-lossless (DOMAIN.md §8) on the model: N synchronised sources
// send one burst of T/N at C = 40 Gb/s into one output, per-input buffer B, round-robin
// service (the egress FIFO interleaves the inputs' frames, so each input drains at the
// output rate / N).
//
// Units: the paper's B = "1 Mb = 128 KB" with T = 100 us (Example 1) holds for B = 10^6 bit
// = 125 000 B; we use that, so its 128 KB / 76.8 KB are our 125 000 B / 75 000 B (same
// ratio beta = 0.6). The per-input buffer is a static ingress threshold (BUFFER_PROFILE
// static_th) with XOFF; links carry no preamble/IFG (the paper's fluid model has none);
// 500 B frames of 2 x 250 B cells keep the discretisation under 1 %; 10 ns links.
// Peak occupancy per input is summary.json's ingress_peak_bytes (output.ingress_peaks).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "scenario_harness.h"

using nlohmann::json;
using namespace mmusim::test;

namespace {

constexpr double kC = 40e9;        // bit/s
constexpr double kB = 125000;      // bytes per input (1 Mb)
constexpr int kFrame = 500;
constexpr double kTol = 0.03;      // the brief's 3 %

// Proposition 1: T = B N^2 / (C (N - 1)), seconds (B in bits).
double period_s(int n) { return kB * 8 * n * n / (kC * (n - 1)); }

double rel(double measured, double expected) { return std::fabs(measured - expected) / expected; }

json buffer_tables(int ports, double per_input_bytes) {
  std::string names;
  for (int i = 0; i < ports; ++i) names += (i ? ",Ethernet" : "Ethernet") + std::to_string(4 * i);
  const std::string big = std::to_string(8ull << 20);
  return {
      {"BUFFER_POOL",
       {{"ingress_pool", {{"size", big}, {"type", "ingress"}, {"xoff", std::to_string(4ull << 20)}}},
        {"egress_pool", {{"size", big}, {"type", "egress"}, {"mode", "static"}}}}},
      {"BUFFER_PROFILE",
       {{"ingress_lossless_profile",
         {{"pool", "ingress_pool"}, {"size", "0"}, {"static_th", std::to_string(uint64_t(std::llround(per_input_bytes)))}}},
        {"ingress_lossy_profile", {{"pool", "ingress_pool"}, {"size", "0"}, {"static_th", big}}},
        {"egress_lossless_profile", {{"pool", "egress_pool"}, {"static_th", big}}},
        {"egress_lossy_profile", {{"pool", "egress_pool"}, {"static_th", big}}}}},
      {"PORT_QOS_MAP", {{names, {{"pfc_enable", "3"}}}}},
  };
}

json common(const std::string& name, double duration_us, double per_input_bytes, int largest) {
  json s = load_default();
  s["name"] = name;
  s["duration_us"] = duration_us;
  s["measure"] = {{"start_us", 0}, {"end_us", duration_us}};
  s["mmu"] = {{"buffer_bytes", 16ull << 20}, {"cell_bytes", 250}, {"clock_mhz", 1000},
              {"pipeline_latency_cycles", 4}, {"pipelines", 1}};
  s["buffer"] = buffer_tables(largest, per_input_bytes);
  s["output"] = {{"sample_interval_ns", 1000}, {"ingress_peaks", true}};
  return s;
}

// One switch, sources h1..hN -> h0, links at alpha * C, sources paced at C; `periods`
// bursts T apart.
json single_switch(int n, double alpha, double per_input_bytes, int periods = 1) {
  const double t = period_s(n);
  json s = common("bb-N" + std::to_string(n), t * 1e6 * (periods + 0.5), per_input_bytes, n + 1);
  s["topology"] = {{"ports", n + 1}, {"rate_gbps", 40 * alpha}, {"link_delay_ns", 10}, {"mtu_bytes", 1500},
                   {"wire_overhead_bytes", 0}};
  s["traffic"] = {{{"type", "incast"}, {"name", "bursts"}, {"senders", "h1-h" + std::to_string(n)}, {"receiver", "h0"},
                   {"dscp", 24}, {"rate_gbps", 40}, {"packet_bytes", kFrame},
                   {"burst_bytes", std::llround(kC * t / n / 8)}, {"count", periods}, {"period_us", t * 1e6}}};
  return s;
}

struct Outcome {
  double peak = 0;            // highest per-input peak, bytes
  double t3_us = 0;           // last byte delivered (max FCT; every burst starts at 0)
  double first_pause_us = -1;
  uint64_t pauses = 0;
  json summary;
};

Outcome run(const json& s) {
  Outcome o;
  RunResult r = run_mmusim(s, "--pcap");
  EXPECT_EQ(r.status, 0) << r.output;
  if (r.status != 0) return o;
  expect_conservation(r.summary);
  EXPECT_EQ(r.summary["drops"]["lossless"], 0);
  EXPECT_EQ(r.summary["flows"]["completed"], r.summary["flows"]["started"]);
  o.summary = r.summary;
  for (const auto& sw : r.summary["switches"])
    for (const auto& [port, bytes] : sw["ingress_peak_bytes"].items()) o.peak = std::max(o.peak, bytes.get<double>());
  o.t3_us = r.summary["flows"]["fct_ns"]["max"].get<double>() / 1e3;
  o.pauses = r.summary["pfc"]["pause_frames"];
  for (const auto& f : read_pfc_pcap(r.dir + "/out/pfc.pcap"))
    if (f.pause) {
      o.first_pause_us = f.t_ns / 1e3;
      break;
    }
  std::filesystem::remove_all(r.dir);
  return o;
}

}  // namespace

TEST(BufferBandwidth, Example1And2PeakOccupancyAndCompletion) {
  // Example 1: N = 2, C = 40G, T = 100 us: the input buffer fills to B after T/N.
  EXPECT_NEAR(period_s(2), 100e-6, 1e-12);
  const Outcome ref = run(single_switch(2, 1.0, 2 * kB));
  // Example 2 / Fig. 7: links at 56G (alpha = 1.4): peak beta B = 0.6 B, done in T/alpha.
  const Outcome fast = run(single_switch(2, 1.4, 2 * kB));
  std::printf("Example 1 (N=2, 40G, T=100us): peak per input %.0f B, paper B = 125000 B (\"128 KB\"); "
              "done at %.2f us, paper T = 100 us\n",
              ref.peak, ref.t3_us);
  std::printf("Example 2 (56G, alpha=1.4): peak per input %.0f B, paper 0.6 B = 75000 B (\"76.8 KB\"); "
              "done at %.2f us, paper T/alpha = 71.43 us (\"0.071 ms\")\n",
              fast.peak, fast.t3_us);
  EXPECT_LT(rel(ref.peak, kB), kTol);
  EXPECT_LT(rel(ref.t3_us, 100.0), kTol);
  EXPECT_LT(rel(fast.peak, 0.6 * kB), kTol);
  EXPECT_LT(rel(fast.t3_us, 100.0 / 1.4), kTol);
  EXPECT_EQ(ref.pauses, 0u);
  EXPECT_EQ(fast.pauses, 0u);
  // Periodic workload (Fig. 2): with T from Prop. 1 the buffer is empty again at each period's
  // end, so three periods peak no higher than one and every burst still completes in T.
  const Outcome three = run(single_switch(2, 1.0, 2 * kB, 3));
  std::printf("Three periods: peak per input %.0f B (one period: %.0f B), slowest burst done %.2f us after its start\n",
              three.peak, ref.peak, three.t3_us);
  EXPECT_EQ(three.peak, ref.peak);
  EXPECT_EQ(three.summary["flows"]["completed"], 6);
  EXPECT_LT(rel(three.t3_us, 100.0), kTol);
  EXPECT_EQ(three.pauses, 0u);
}

// Proposition 4: with links x alpha, a per-input buffer of beta B, beta = (N - alpha)/(N - 1),
// carries the traffic without pausing: the peak is beta B, and a buffer 3 % smaller pauses.
TEST(BufferBandwidth, Proposition4NoPauseBufferAtOtherNAlpha) {
  struct Case {
    int n;
    double alpha;
  };
  for (const Case c : {Case{2, 1.4}, Case{4, 1.5}, Case{3, 1.2}, Case{10, 1.4}}) {
    const double beta = (c.n - c.alpha) / (c.n - 1);
    const Outcome peak = run(single_switch(c.n, c.alpha, 2 * kB));
    const Outcome above = run(single_switch(c.n, c.alpha, (1 + kTol) * beta * kB));
    const Outcome below = run(single_switch(c.n, c.alpha, (1 - kTol) * beta * kB));
    std::printf("Prop. 4 N=%d alpha=%.1f: beta = %.4f, measured peak/B = %.4f; PAUSE frames with 1.03 beta B: %llu, "
                "with 0.97 beta B: %llu; done at %.2f us, T/alpha = %.2f us\n",
                c.n, c.alpha, beta, peak.peak / kB, (unsigned long long)above.pauses, (unsigned long long)below.pauses,
                peak.t3_us, period_s(c.n) * 1e6 / c.alpha);
    EXPECT_LT(rel(peak.peak, beta * kB), kTol) << "N=" << c.n << " alpha=" << c.alpha;
    EXPECT_EQ(above.pauses, 0u) << "N=" << c.n << " alpha=" << c.alpha;
    EXPECT_GT(below.pauses, 0u) << "N=" << c.n << " alpha=" << c.alpha;
    EXPECT_LT(rel(peak.t3_us, period_s(c.n) * 1e6 / c.alpha), kTol);
  }
}

// Proposition 5 via Proposition 2: with the smaller buffer beta5 B the input is paused from
// t1 (buffer full, first PAUSE) until injection ends at t2 = t3 - N beta B / (alpha C) (the
// buffers then drain without injection); the paused fraction p = (t2 - t1)/T reaches the
// bound (alpha - 1)/(alpha - alpha/N) that keeps the sources' effective bandwidth at C.
TEST(BufferBandwidth, Proposition5PausedFractionAtItsBound) {
  struct Case {
    int n;
    double alpha;
  };
  for (const Case c : {Case{2, 1.4}, Case{10, 1.4}, Case{4, 1.5}}) {
    const double n = c.n, a = c.alpha, t = period_s(c.n);
    const double beta5 = (n - a) * (2 * n - a * n - 1) / ((n - 1) * (n - 1));
    const Outcome o = run(single_switch(c.n, c.alpha, beta5 * kB));
    const double t1_paper = beta5 * kB * 8 * n / (kC * (n - a)) * 1e6;
    const double t3_paper = t * 1e6 / a;
    const double drain_us = n * beta5 * kB * 8 / (a * kC) * 1e6;
    const double p = (o.t3_us - drain_us - o.first_pause_us) / (t * 1e6);
    const double bound = (a - 1) / (a - a / n);
    std::printf("Prop. 5 N=%d alpha=%.1f: beta5 = %.4f (paper Example 3: N=2 0.12, N=10 0.531); first PAUSE at "
                "%.2f us (Prop. 2 t1 = %.2f us); done at %.2f us (t3 = T/alpha = %.2f us); paused fraction p = %.4f, "
                "bound (alpha-1)/(alpha-alpha/N) = %.4f\n",
                c.n, c.alpha, beta5, o.first_pause_us, t1_paper, o.t3_us, t3_paper, p, bound);
    ASSERT_GT(o.first_pause_us, 0) << "no PAUSE with the Prop. 5 buffer";
    EXPECT_LT(std::fabs(o.first_pause_us - t1_paper) / t3_paper, kTol);
    EXPECT_LT(rel(o.t3_us, t3_paper), kTol);
    EXPECT_LT(std::fabs(p - bound), kTol);
  }
}

// Propositions 7 and 8 on the Fig. 5 cascade (incast_cascade generator): stage i turns k_i
// bursts of length T_i into one of k_i T_i; the per-input peak at stage i is
// C (k_i - 1)/k_i * T_1 prod_{j<i} k_j, largest at the last stage, which T_1 sets to B.
TEST(BufferBandwidth, Proposition8CascadePeakAtLastStage) {
  for (const std::vector<int>& k : {std::vector<int>{2, 2}, std::vector<int>{3, 2}, std::vector<int>{2, 2, 2}}) {
    const size_t n = k.size();
    double prod = 1;
    for (size_t i = 0; i + 1 < n; ++i) prod *= k[i];
    const double kn = k[n - 1];
    const double t1 = kB * 8 * kn / (kC * (kn - 1)) / prod;  // seconds
    int sources = 1, largest = 0;
    for (int x : k) sources *= x, largest = std::max(largest, x + 1);
    json s = common("cascade", t1 * prod * kn * 1e6 * 1.5, 2 * kB, largest);
    s["topology"] = {{"generator", {{"type", "incast_cascade"}, {"stages", k}, {"rate_gbps", 40}, {"link_delay_ns", 10}}},
                     {"wire_overhead_bytes", 0}};
    s["traffic"] = {{{"type", "incast"}, {"name", "bursts"}, {"senders", "h0-h" + std::to_string(sources - 1)},
                     {"receiver", "h" + std::to_string(sources)}, {"dscp", 24}, {"packet_bytes", kFrame},
                     {"burst_bytes", std::llround(kC * t1 / 8)}}};
    const Outcome o = run(s);
    ASSERT_FALSE(o.summary.is_null());
    // Per stage: the highest input peak over its switches (names st<i>_<j>).
    std::vector<double> stage_peak(n, 0);
    for (const auto& sw : o.summary["switches"]) {
      const std::string name = sw["name"];
      const size_t stage = size_t(std::stoi(name.substr(2, name.find('_') - 2))) - 1;
      ASSERT_LT(stage, n);
      const int inputs = k[stage];
      for (int p = 0; p < inputs; ++p)
        stage_peak[stage] = std::max(stage_peak[stage], sw["ingress_peak_bytes"]["Ethernet" + std::to_string(4 * p)].get<double>());
    }
    double before = 1;
    std::string line;
    for (size_t i = 0; i < n; ++i) {
      const double q = kC * (k[i] - 1) / k[i] * t1 * before / 8;  // Prop. 7, bytes
      before *= k[i];
      char buf[160];
      std::snprintf(buf, sizeof buf, " stage %zu: %.0f B (Prop. 7: %.0f B)", i + 1, stage_peak[i], q);
      line += buf;
      EXPECT_LT(rel(stage_peak[i], q), kTol) << "stage " << i + 1;
      if (i > 0) {
        EXPECT_GE(stage_peak[i], stage_peak[i - 1]) << "Prop. 8: occupancy must not fall along the cascade";
      }
    }
    std::printf("Prop. 8 cascade k = [%s]:%s; last stage = B = %.0f B\n",
                [&] {
                  std::string ks;
                  for (int x : k) ks += (ks.empty() ? "" : ",") + std::to_string(x);
                  return ks;
                }().c_str(),
                line.c_str(), kB);
    EXPECT_LT(rel(stage_peak[n - 1], kB), kTol);
    EXPECT_EQ(o.pauses, 0u);
  }
}
