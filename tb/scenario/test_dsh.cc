// DSH and SIH (dsh-icdcs23) against the paper: Theorem 1 (Eq. 7) and Theorem 2 (Eq. 20)
// on the N-congested + M-burst scenario of §IV-C, the §V-A microbenchmark (Fig. 11, PFC
// avoidance: DSH absorbs ~40 % of the buffer without PAUSE, > 4x SIH), and no lossless
// drop with eta headroom when bursts are far larger than that or when every priority of
// every port is congested at once (DSH's port-level PAUSE and insurance headroom).
//
// Finding: the branch bound printed with Eq. 7 / Eq. 20, R <= (1 - alpha N)/(alpha M) + 1,
// contradicts the proof; the model follows (1 + alpha N)/(alpha M) + 1 (see branch_r).
//
// PAUSE frames are attributed to ports by reading pfc.pcap (source MAC = port index), so
// the long-lived congested queues, which are paused all the time, do not hide the burst
// queues' first PAUSE.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "config/scenario.h"
#include "scenario_harness.h"

using nlohmann::json;
using namespace mmusim::test;

namespace {

constexpr uint64_t kCell = 256;
uint64_t cells_up(uint64_t b) { return (b + kCell - 1) / kCell; }

std::string host(int i) { return "h" + std::to_string(i); }

// Runs with --pcap; returns the summary and the PFC frames.
struct PcapRun {
  json summary;
  std::vector<PcapPfc> frames;
  // First PAUSE toward ports [lo, hi], or -1.
  double first_pause_ns(int lo, int hi) const {
    for (const auto& f : frames)
      if (f.pause && int(f.port) >= lo && int(f.port) <= hi) return f.t_ns;
    return -1;
  }
  int pauses(int lo, int hi) const {
    int n = 0;
    for (const auto& f : frames) n += f.pause && int(f.port) >= lo && int(f.port) <= hi;
    return n;
  }
};

PcapRun simulate_pcap(const json& sc) {
  PcapRun p;
  RunResult r = run_mmusim(sc, "--pcap");
  EXPECT_EQ(r.status, 0) << r.output;
  if (r.status != 0) return p;
  expect_conservation(r.summary);
  p.summary = r.summary;
  p.frames = read_pfc_pcap(r.dir + "/out/pfc.pcap");
  std::filesystem::remove_all(r.dir);
  return p;
}

// SONiC tables for DSH or SIH on one lossless ingress pool.
//   DSH: pool = B - private - N_p*eta (B_s), pool xoff = N_p*eta (insurance headroom).
//   SIH: pool = B - private - N_p*N_q*eta, no pool xoff: every lossless PG owns eta.
// `pg_xoff` empty: eta derived by the loader (DSH Eq. 1).
json dsh_buffer(int ports, const std::string& pfc_enable, uint64_t buffer, uint64_t pool, const json& pool_xoff,
                int dynamic_th, uint64_t private_bytes, const json& pg_xoff) {
  json pool_in = {{"size", std::to_string(pool)}, {"type", "ingress"}, {"mode", "dynamic"}};
  if (!pool_xoff.is_null()) pool_in["xoff"] = pool_xoff;
  json pg = {{"pool", "ingress_pool"}, {"size", std::to_string(private_bytes)}, {"dynamic_th", dynamic_th},
             {"xon", "0"}, {"xon_offset", "0"}};
  if (!pg_xoff.is_null()) pg["xoff"] = pg_xoff;
  return {
      {"BUFFER_POOL",
       {{"ingress_pool", pool_in},
        {"egress_lossless_pool", {{"size", std::to_string(buffer)}, {"type", "egress"}, {"mode", "static"}}},
        {"egress_lossy_pool", {{"size", std::to_string(pool)}, {"type", "egress"}}}}},
      {"BUFFER_PROFILE",
       {{"ingress_lossless_profile", pg},
        {"ingress_lossy_profile", {{"pool", "ingress_pool"}, {"size", "0"}, {"static_th", std::to_string(buffer)}}},
        {"egress_lossless_profile", {{"pool", "egress_lossless_pool"}, {"static_th", std::to_string(buffer)}}},
        {"egress_lossy_profile", {{"pool", "egress_lossy_pool"}, {"size", "0"}, {"dynamic_th", 0}}}}},
      {"PORT_QOS_MAP", {{port_list(ports), {{"pfc_enable", pfc_enable}}}}},
  };
}

json base(const std::string& policy, int ports, double duration_us) {
  json s = load_default();
  s["name"] = "dsh-" + policy;
  s["duration_us"] = duration_us;
  s["measure"] = {{"start_us", 0}, {"end_us", duration_us}};
  s["topology"]["ports"] = ports;
  s["mmu"]["pipelines"] = 1;
  s["output"]["sample_interval_ns"] = 100000;
  s["admission"] = {{"policy", policy}, {"dsh", {{"port_xon_offset_bytes", 0}}}};
  s["traffic"] = json::array();
  return s;
}

// ---------------------------------------------------------------------------------------
// Theorems 1 and 2 (§IV-C).
//
// N congested queues (hosts 0..N-1 -> N+M..2N+M-1) from t = 0, then M bursts (hosts
// N..N+M-1 -> 2N+M..2N+2M-1) from t0. Senders at 100 Gb/s, every receiver port at 100/R
// Gb/s: offered load R normalised to the departure rate. Frames of 6 cells, no wire
// overhead, so the fluid rates are exact in buffer bytes. 100 ns links: PAUSE takes effect
// within ~0.3 us (the theorem assumes 0). No private buffer, X_on = X_off.

struct TheoremCase {
  int n, m;
  double r;
  int dynamic_th;
};

constexpr int kNq = 8;              // lossless priorities per port (SIH reserves eta for each)
constexpr uint64_t kFrame = 1536;   // 6 cells
constexpr double kLinkNs = 100;
constexpr uint64_t kBuffer = 16ull << 20;

struct TheoremSetup {
  TheoremCase c;
  bool dsh;
  int ports;
  uint64_t eta;   // bytes, whole cells
  uint64_t b_s;   // shared segment (pool size)
  double alpha;
  double egress_Bps;
};

TheoremSetup theorem_setup(const TheoremCase& c, bool dsh) {
  TheoremSetup t{c, dsh, 2 * (c.n + c.m), 0, 0, std::ldexp(1.0, c.dynamic_th), 100e9 / c.r / 8};
  t.eta = cells_up(mmusim::headroom_eta_bytes(100'000'000'000ull, uint64_t(kLinkNs * 1000), kFrame)) * kCell;
  t.b_s = kBuffer - uint64_t(t.ports) * (dsh ? 1 : kNq) * t.eta;
  return t;
}

// Branch point of Eq. 7 / Eq. 20. The paper prints R <= (1 - alpha N)/(alpha M) + 1, but its
// own proof (Eq. 12-13) puts the N queues on the threshold (case 1) iff T'(0+) >= -1, i.e.
// alpha M (R - 1) <= 1 + alpha N: R <= (1 + alpha N)/(alpha M) + 1, where the two branches
// of Eq. 7 meet (with the printed bound Eq. 7 is discontinuous). `printed` selects the paper's.
double branch_r(const TheoremSetup& t, bool printed) {
  const double a = t.alpha, n = t.c.n, m = t.c.m;
  return ((printed ? 1 - a * n : 1 + a * n) / (a * m)) + 1;
}

// Eq. 7 (DSH, eta > 0) and Eq. 20 (SIH, eta = 0), written with B_s; bytes at rate 1.
double theorem_d(const TheoremSetup& t, bool printed_branch = false) {
  const double a = t.alpha, n = t.c.n, m = t.c.m, r = t.c.r;
  const double num = a * double(t.b_s) - (t.dsh ? double(t.eta) : 0.0);
  if (r <= branch_r(t, printed_branch)) return num / ((1 + a * (n + m)) * (r - 1));
  return num / ((1 + a * n) * ((1 + a * m) * (r - 1) - a * n));
}

// Queue length of the N congested queues at t = 0 (Eq. 10), bytes.
double theorem_q0(const TheoremSetup& t) {
  return (t.alpha * double(t.b_s) - (t.dsh ? double(t.eta) : 0.0)) / (1 + t.alpha * t.c.n);
}

// burst_us <= 0: the bursts last to the end of the run.
json theorem_scenario(const TheoremSetup& t, double t0_us, double burst_us, double duration_us) {
  const auto& c = t.c;
  json s = base(t.dsh ? "dsh" : "sih", t.ports, duration_us);
  s["topology"]["link_delay_ns"] = kLinkNs;
  s["topology"]["mtu_bytes"] = kFrame;
  s["topology"]["wire_overhead_bytes"] = 0;
  s["mmu"]["buffer_bytes"] = kBuffer;
  const std::string pfc = "0-" + std::to_string(kNq - 1);
  const json pool_xoff = t.dsh ? json(std::to_string(uint64_t(t.ports) * t.eta)) : json(nullptr);
  s["buffer"] = dsh_buffer(t.ports, pfc, kBuffer, t.b_s, pool_xoff, c.dynamic_th, 0, std::to_string(t.eta));
  json ov = json::object();
  for (int i = c.n + c.m; i < t.ports; ++i) ov["Ethernet" + std::to_string(4 * i)] = {{"rate_gbps", 100.0 / c.r}};
  s["topology"]["port_overrides"] = ov;
  json src = json::array(), dst = json::array();
  for (int i = 0; i < c.n; ++i) src.push_back(host(i)), dst.push_back(host(c.n + c.m + i));
  s["traffic"].push_back({{"type", "constant"}, {"name", "congested"}, {"src", src}, {"dst", dst}, {"dscp", 24}});
  src = json::array(), dst = json::array();
  for (int i = 0; i < c.m; ++i) src.push_back(host(c.n + i)), dst.push_back(host(2 * c.n + c.m + i));
  json b = {{"type", "constant"}, {"name", "burst"}, {"src", src}, {"dst", dst}, {"dscp", 24}, {"start_us", t0_us}};
  if (burst_us > 0) b["stop_us"] = t0_us + burst_us;
  s["traffic"].push_back(b);
  return s;
}

class Theorem : public ::testing::TestWithParam<std::tuple<TheoremCase, bool>> {};

TEST_P(Theorem, BurstDurationWithoutPauseMatchesClosedForm) {
  const auto [c, dsh] = GetParam();
  const TheoremSetup t = theorem_setup(c, dsh);
  const double d_bytes = theorem_d(t);
  const double d_us = d_bytes / t.egress_Bps * 1e6;
  // The congested queues reach X_qoff at x rate; start the bursts well after.
  const double fill_us = theorem_q0(t) / ((c.r - 1) * t.egress_Bps) * 1e6;
  const double t0 = std::ceil(1.5 * fill_us + 20);
  // The burst's first bit reaches admission one link delay + 4 cycles after it starts.
  const double arrive_ns = t0 * 1000 + kLinkNs + 4;

  // 1. Bursts without end: the first PAUSE toward a burst sender is the longest d.
  json sc = theorem_scenario(t, t0, 0, t0 + 2 * d_us + 20);
  sc["measure"] = {{"start_us", t0 - 10}, {"end_us", t0}};  // the state at t = 0 of the proof
  const PcapRun run = simulate_pcap(sc);
  ASSERT_FALSE(run.summary.is_null());
  // Eq. 10: the N queues sit at q_i(0) = X_qoff(0) = T(0) - eta (SIH: T(0)).
  const double q0 = theorem_q0(t);
  const double xqoff0 = run.summary["thresholds_bytes"]["ingress_lossless"]["mean"];
  const double q_mean = run.summary["occupancy_bytes"]["lossless"]["mean"].get<double>() / c.n;
  EXPECT_LT(std::fabs(xqoff0 / q0 - 1), 0.02) << "X_qoff(0) " << xqoff0 << " vs Eq. 10 " << q0;
  EXPECT_LT(std::fabs(q_mean / q0 - 1), 0.02) << "q_i(0) " << q_mean << " vs Eq. 10 " << q0;
  const int lo = c.n, hi = c.n + c.m - 1;
  // The congested queues are at X_qoff when the bursts start, the burst queues are not.
  const double first_cong = run.first_pause_ns(0, c.n - 1);
  ASSERT_GT(first_cong, 0);
  EXPECT_LT(first_cong, t0 * 1000);
  const double first = run.first_pause_ns(lo, hi);
  ASSERT_GT(first, arrive_ns) << "no PAUSE toward the burst senders";
  const double meas_us = (first - arrive_ns) / 1000;
  const double meas_bytes = meas_us * 1e-6 * t.egress_Bps;
  const double printed = theorem_d(t, true);
  std::printf("%s N=%d M=%d R=%.2f alpha=1/%.0f B_s=%llu eta=%llu: case %d (R* %.3f; printed bound %.3f -> case %d): "
              "q_i(0) %.0f, X_qoff(0) %.0f, Eq. 10 %.0f; d measured %.2f us = %.0f B at rate 1; "
              "Eq. %s %.0f B (%+.2f %%); with the printed bound %.0f B (%+.2f %%)\n",
              dsh ? "DSH" : "SIH", c.n, c.m, c.r, 1 / t.alpha, (unsigned long long)t.b_s,
              (unsigned long long)t.eta, c.r <= branch_r(t, false) ? 1 : 2, branch_r(t, false), branch_r(t, true),
              c.r <= branch_r(t, true) ? 1 : 2, q_mean, xqoff0, q0, meas_us, meas_bytes, dsh ? "7" : "20", d_bytes,
              100 * (meas_bytes / d_bytes - 1), printed, 100 * (meas_bytes / printed - 1));
  EXPECT_LT(std::fabs(meas_bytes / d_bytes - 1), 0.10) << meas_bytes << " vs " << d_bytes;
  // Where the printed bound picks the other branch, the corrected branch is the one that holds.
  if ((c.r <= branch_r(t, false)) != (c.r <= branch_r(t, true))) {
    EXPECT_LT(std::fabs(meas_bytes / d_bytes - 1), std::fabs(meas_bytes / printed - 1));
  }
  EXPECT_EQ(run.summary["drops"]["lossless"], 0);

  // 2. Bursts of finite duration around it: none paused at 0.95 d, paused at 1.05 d.
  for (const double f : {0.95, 1.05}) {
    const double d = f * meas_us;
    const PcapRun r = simulate_pcap(theorem_scenario(t, t0, d, t0 + 1.2 * d + 10));
    ASSERT_FALSE(r.summary.is_null());
    if (f < 1) {
      EXPECT_EQ(r.pauses(lo, hi), 0) << "burst of " << d << " us paused";
    } else {
      EXPECT_GT(r.pauses(lo, hi), 0) << "burst of " << d << " us not paused";
    }
    EXPECT_EQ(r.summary["drops"]["lossless"], 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    DshSih, Theorem,
    ::testing::Combine(::testing::Values(TheoremCase{2, 2, 1.5, -2},   // R* = 4: case 1
                                         TheoremCase{2, 2, 8, -2},     // R* = 4: case 2
                                         TheoremCase{4, 4, 2, -4},     // R* = 6: case 1
                                         TheoremCase{1, 8, 8, -4},     // R* = 3.125: case 2
                                         TheoremCase{3, 1, 5, -3},     // R* = 12: case 1
                                         TheoremCase{1, 1, 3, -1},     // R* = 4: case 1 (printed bound: 2)
                                         TheoremCase{1, 1, 6, -1}),    // R* = 4: case 2
                       ::testing::Bool()),
    [](const auto& info) {
      const TheoremCase& c = std::get<0>(info.param);
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s_N%d_M%d_R%d_alpha_2e%d", std::get<1>(info.param) ? "dsh" : "sih", c.n,
                    c.m, int(c.r * 10), -c.dynamic_th);
      return std::string(buf);
    });

// ---------------------------------------------------------------------------------------
// §V-A microbenchmark (DOMAIN.md §5): 32 x 100G, "16MB", 7 lossless DWRR priorities per port
// (0-6; PFC frames are strict priority in the model, priority 7 unused), 2 us links ->
// eta = 56840 B (derived by the loader), private "3KB" per lossless PG, alpha = 1/16,
// X_on = X_off. Background: h0, h1 -> h31 from t = 0; fan-in: h2-h17 -> h30 at t0.
//
// The paper's units are ambiguous: "56840B x 32 x 7 = 12MB" reads as binary (12.14 MiB),
// "16MB shared memory" of the Tomahawk may be either. Both readings are run.
struct MbUnits {
  const char* name;
  uint64_t buffer;         // bytes
  uint64_t private_bytes;  // per lossless PG
};
constexpr MbUnits kMbBinary{"binary (16 MiB, 3 KiB)", 16ull << 20, 3072};
constexpr MbUnits kMbSi{"SI (16e6 B, 3000 B)", 16'000'000, 3000};

constexpr int kMbPorts = 32, kMbNq = 7;
constexpr double kMbT0 = 200;  // us: the background queues have reached X_qoff

uint64_t mb_eta() { return cells_up(mmusim::headroom_eta_bytes(100'000'000'000ull, 2'000'000ull, 1500)) * kCell; }

json microbench(const MbUnits& u, bool dsh, uint64_t burst_total, double duration_us) {
  const uint64_t priv = uint64_t(kMbPorts) * kMbNq * cells_up(u.private_bytes) * kCell;
  const uint64_t eta = mb_eta();
  const uint64_t headroom = uint64_t(kMbPorts) * (dsh ? 1 : kMbNq) * eta;
  json s = base(dsh ? "dsh" : "sih", kMbPorts, duration_us);
  s["mmu"]["buffer_bytes"] = u.buffer;
  const json pool_xoff = dsh ? json(std::to_string(headroom)) : json(nullptr);
  // The paper's eta (Eq. 1), not the model's safe headroom (config/headroom.h).
  s["buffer"] = dsh_buffer(kMbPorts, "0-6", u.buffer, u.buffer - priv - headroom, pool_xoff, -4, u.private_bytes,
                           std::to_string(eta));
  s["traffic"].push_back(
      {{"type", "constant"}, {"name", "background"}, {"src", {"h0", "h1"}}, {"dst", "h31"}, {"dscp", 24}});
  s["traffic"].push_back({{"type", "incast"}, {"name", "fanin"}, {"senders", "h2-h17"}, {"receiver", "h30"},
                          {"dscp", 24}, {"burst_bytes", std::max<uint64_t>(1, burst_total / 16)},
                          {"start_us", kMbT0}});
  return s;
}

// Time for one sender to put `bytes` on a 100 Gb/s wire (1500 B frames + 20 B overhead), us.
double send_us(uint64_t bytes) { return double(bytes) * 1520.0 / 1500.0 * 8 / 100e9 * 1e6; }

// PAUSE frames toward the fan-in senders for a burst of `total` bytes (all 16 together).
int fanin_pauses(const MbUnits& u, bool dsh, uint64_t total) {
  // The fan-in queues peak when the last frame arrives; no PAUSE can start later.
  const PcapRun r = simulate_pcap(microbench(u, dsh, total, kMbT0 + send_us(total / 16) + 20));
  EXPECT_FALSE(r.summary.is_null());
  EXPECT_EQ(r.summary["drops"]["lossless"], 0);
  return r.pauses(2, 17);
}

// Largest total burst (bytes, 1/1024 of the buffer resolution) with no PAUSE toward the
// fan-in senders; bisection.
uint64_t largest_pause_free_burst(const MbUnits& u, bool dsh) {
  uint64_t lo = 0, hi = u.buffer;  // lo: no PAUSE; hi: PAUSE
  EXPECT_GT(fanin_pauses(u, dsh, hi), 0);
  while (hi - lo > u.buffer / 1024) {
    const uint64_t mid = (lo + hi) / 2;
    (fanin_pauses(u, dsh, mid) == 0 ? lo : hi) = mid;
  }
  return lo;
}

// Fluid model of the microbenchmark, by the method of Theorem 1's proof: the background
// queues start at X_qoff (Eq. 10) and, paused, drain at half the port rate each; each fan-in
// queue grows at 15/16 of the sender's rate after its private buffer, until its shared part
// reaches X_qoff = T - eta (DSH) or T (SIH). Returns the total burst (frame bytes).
double microbench_fluid(const MbUnits& u, bool dsh) {
  const double eta = double(mb_eta()), a = 1.0 / 16, p = double(cells_up(u.private_bytes) * kCell);
  const double b_s = double(u.buffer) - kMbPorts * kMbNq * p - kMbPorts * (dsh ? 1 : kMbNq) * eta;
  const double e = dsh ? eta : 0;
  const double frames_per_us = 100e3 / 8 / 1520;       // 1500 B frames + 20 B on the wire
  const double in = frames_per_us * 1536;              // buffer bytes per us per sender (6 cells)
  const double s_n0 = (a * b_s - e) / (1 + 2 * a);
  const double t = (a * b_s - e - 2 * a * s_n0 + (1 + 16 * a) * p) / ((1 + 16 * a) * in * 15 / 16 - a * in);
  return 16 * t * frames_per_us * 1500;
}

// Measured DSH/SIH PAUSE-free fractions of the buffer; checks them against the fluid model.
std::pair<double, double> pause_free_fractions(const MbUnits& u) {
  const uint64_t sih = largest_pause_free_burst(u, false);
  const uint64_t dsh = largest_pause_free_burst(u, true);
  const double fs = double(sih) / u.buffer, fd = double(dsh) / u.buffer;
  const double ffs = microbench_fluid(u, false) / u.buffer, ffd = microbench_fluid(u, true) / u.buffer;
  std::printf("Fig. 11 PAUSE-free burst, %s units (16 senders total, %% of buffer): DSH %.2f %% (%llu B; fluid "
              "%.2f %%), SIH %.2f %% (%llu B; fluid %.2f %%), ratio %.2f (fluid %.2f); paper: DSH ~40 %%, over 4x "
              "SIH\n",
              u.name, 100 * fd, (unsigned long long)dsh, 100 * ffd, 100 * fs, (unsigned long long)sih, 100 * ffs,
              fd / fs, ffd / ffs);
  EXPECT_LT(std::fabs(fd / ffd - 1), 0.05);
  EXPECT_LT(std::fabs(fs / ffs - 1), 0.05);
  EXPECT_GT(fd, 0.35);
  EXPECT_LT(fd, 0.45);
  return {fd, fs};
}

TEST(Microbenchmark, DshAbsorbsOverFourTimesSihWithoutPause) {
  // "16MB" as 16e6 B, the unit's SI meaning: the paper's "over 4x" holds.
  const auto [fd, fs] = pause_free_fractions(kMbSi);
  EXPECT_GE(fd, 4 * fs);
}

TEST(Microbenchmark, BinaryUnitsGiveJustUnderFourTimes) {
  // 16 MiB leaves SIH ~56 KiB more shared buffer: the fluid model gives 3.94x, so the
  // paper's "over 4x" is not reached here; the measured ratio must still be within 5 %.
  const auto [fd, fs] = pause_free_fractions(kMbBinary);
  EXPECT_GE(fd, 0.95 * 4 * fs);
}

class NoLosslessDrop : public ::testing::TestWithParam<std::tuple<bool, double>> {};

TEST_P(NoLosslessDrop, FarAbovePauseFreeBurst) {
  const auto [dsh, fraction] = GetParam();
  const uint64_t total = uint64_t(fraction * kMbSi.buffer);
  // Until the fan-in has drained through the one 100 Gb/s port (plus the background's share).
  const double drain_us = send_us(total) * 1.6 + 50;
  const PcapRun r = simulate_pcap(microbench(kMbSi, dsh, total, kMbT0 + drain_us));
  ASSERT_FALSE(r.summary.is_null());
  const json& s = r.summary;
  std::printf("%s burst %.0f %% of buffer: lossless drops %d, fan-in PAUSE frames %d, headroom max %.0f B, "
              "fan-in completed %d/16\n",
              dsh ? "DSH" : "SIH", 100 * fraction, s["drops"]["lossless"].get<int>(), r.pauses(2, 17),
              s["occupancy_bytes"]["headroom"]["max"].get<double>(), s["generators"]["fanin"]["completed"].get<int>());
  EXPECT_EQ(s["drops"]["lossless"], 0);
  EXPECT_EQ(s["packets"]["dropped"], 0);
  EXPECT_GT(r.pauses(2, 17), 0);
  EXPECT_EQ(s["generators"]["fanin"]["completed"], 16);
}

INSTANTIATE_TEST_SUITE_P(Microbenchmark, NoLosslessDrop,
                         ::testing::Combine(::testing::Bool(), ::testing::Values(0.8, 1.5)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param) ? "dsh" : "sih") + "_burst" +
                                  std::to_string(int(std::get<1>(info.param) * 100)) + "pct";
                         });

// Stress: 31 senders x 7 lossless priorities at line rate into one port, for DSH and SIH.
// Every ingress port has all its priorities congested at once, so DSH's shared headroom
// runs short and port-level PAUSE with insurance headroom must catch the rest.
class AllPrioritiesIncast : public ::testing::TestWithParam<bool> {};

TEST_P(AllPrioritiesIncast, NoLosslessDrop) {
  const bool dsh = GetParam();
  json s = microbench(kMbSi, dsh, 1, 600);
  s["traffic"] = json::array();
  for (int p = 0; p < kMbNq; ++p)
    s["traffic"].push_back({{"type", "constant"}, {"name", "p" + std::to_string(p)}, {"src", "h1-h31"},
                            {"dst", "h0"}, {"dscp", 8 * p}});
  const PcapRun r = simulate_pcap(s);
  ASSERT_FALSE(r.summary.is_null());
  const json& sum = r.summary;
  std::printf("%s 31x7-to-1: lossless drops %d, PAUSE frames %d, headroom max %.0f B, admitted into headroom %d, "
              "delivered %d\n",
              dsh ? "DSH" : "SIH", sum["drops"]["lossless"].get<int>(), sum["pfc"]["pause_frames"].get<int>(),
              sum["occupancy_bytes"]["headroom"]["max"].get<double>(),
              sum["switches"][0]["packets"]["admitted_headroom"].get<int>(), sum["packets"]["delivered"].get<int>());
  EXPECT_EQ(sum["drops"]["lossless"], 0);
  EXPECT_EQ(sum["packets"]["dropped"], 0);
  // DSH: the shared segment ran out, so port-level PAUSE and insurance headroom were used.
  if (dsh) {
    EXPECT_GT(sum["switches"][0]["packets"]["admitted_headroom"].get<int>(), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Stress, AllPrioritiesIncast, ::testing::Bool(),
                         [](const auto& info) { return std::string(info.param ? "dsh" : "sih"); });

}  // namespace
