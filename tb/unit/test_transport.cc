// Host transports against their published equations, with hand-computed traces: DCQCN
// (SIGCOMM'15 RP: cut, alpha, fast recovery / additive / hyper increase by timer and byte
// counter), the TCP base (RFC 5681 slow start, fast retransmit; RFC 6298 RTO), DCTCP
// (RFC 8257 alpha per window, cut once per window), Cubic (RFC 9438 K, Reno-friendly
// region, fast convergence), PowerTCP (NSDI'22 Algorithm 1 on hand-made INT stacks); and
// the host.transport loader's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "config/scenario.h"
#include "host/transport/cubic.h"
#include "host/transport/dcqcn.h"
#include "host/transport/dctcp.h"
#include "host/transport/powertcp.h"

namespace mmusim {
namespace {

constexpr uint64_t kUs = 1'000'000;  // ps

// Floating-point results computed in another order than the hand formula: equal to 1e-12.
#define EXPECT_REL(a, b) EXPECT_NEAR((a), (b), 1e-12 * std::fabs(double(b)))

// ---------------------------------------------------------------- DCQCN

TEST(Dcqcn, OneCnpThenTimerOnlyRecovery) {
  // Reverie's setting (the defaults): F = 1, T = 900 us, no byte counter, g = 1/256.
  const DcqcnCfg c;
  Dcqcn d(c, 25'000'000'000);
  EXPECT_EQ(d.rate_bps(), 25'000'000'000u);
  EXPECT_EQ(d.window_bytes(), Transport::kNoWindow);
  EXPECT_TRUE(d.ect());
  EXPECT_EQ(d.next_timer_ps(), 0u);  // no timer before the first CNP
  d.on_cnp(10 * kUs);
  // Rt = Rc = 25G; Rc = 25G (1 - 1/2) with the initial alpha of 1; alpha = (1-g) 1 + g = 1.
  EXPECT_DOUBLE_EQ(d.target_rate(), 25e9);
  EXPECT_DOUBLE_EQ(d.current_rate(), 12.5e9);
  EXPECT_EQ(d.rate_bps(), 12'500'000'000u);
  EXPECT_DOUBLE_EQ(d.alpha(10 * kUs), 1.0);
  EXPECT_EQ(d.next_timer_ps(), 910 * kUs);
  d.advance(910 * kUs - 1);
  EXPECT_DOUBLE_EQ(d.current_rate(), 12.5e9);
  // Timer 1 (T = 1 <= F): fast recovery, Rc = (25 + 12.5) / 2.
  d.advance(910 * kUs);
  EXPECT_DOUBLE_EQ(d.current_rate(), 18.75e9);
  EXPECT_EQ(d.timer_stage(), 1u);
  // Timer 2 (T = F + 1): additive, Rt = min(25G, 25G + 50M) = 25G, Rc = (25 + 18.75) / 2.
  d.advance(1810 * kUs);
  EXPECT_DOUBLE_EQ(d.target_rate(), 25e9);
  EXPECT_DOUBLE_EQ(d.current_rate(), 21.875e9);
  // Timers 3 and 4 in one late call: hyper, each halving the gap to 25G.
  d.advance(3610 * kUs + 5);
  EXPECT_DOUBLE_EQ(d.current_rate(), 24.21875e9);
  EXPECT_EQ(d.timer_stage(), 4u);
  EXPECT_EQ(d.next_timer_ps(), 4510 * kUs);
  // alpha decayed once per K = 1 us since the CNP.
  EXPECT_DOUBLE_EQ(d.alpha(13 * kUs + 999'999), std::pow(255.0 / 256.0, 3));
}

TEST(Dcqcn, SecondCnpUsesDecayedAlpha) {
  const DcqcnCfg c;  // K = 1 us, g = 1/256, rate-decrease interval 4 us
  Dcqcn d(c, 25'000'000'000);
  d.on_cnp(10 * kUs);
  // 5.5 us later: five decays; the cut uses alpha before this CNP's own update.
  double a = 1;
  for (int i = 0; i < 5; ++i) a *= 1 - 1.0 / 256;
  d.on_cnp(15 * kUs + 500'000);
  EXPECT_DOUBLE_EQ(d.target_rate(), 12.5e9);
  EXPECT_DOUBLE_EQ(d.current_rate(), 12.5e9 * (1 - a / 2));
  EXPECT_DOUBLE_EQ(d.alpha(15 * kUs + 500'000), (1 - 1.0 / 256) * a + 1.0 / 256);
  EXPECT_EQ(d.timer_stage(), 0u);
  EXPECT_EQ(d.next_timer_ps(), 915 * kUs + 500'000);  // the increase timer restarts at the cut
}

TEST(Dcqcn, CnpInsideDecreaseIntervalDefersTheCut) {
  const DcqcnCfg c;
  Dcqcn d(c, 25'000'000'000);
  d.on_cnp(10 * kUs);
  d.on_cnp(12 * kUs);  // 2 us after the cut: no cut now, one at 14 us
  EXPECT_DOUBLE_EQ(d.current_rate(), 12.5e9);
  EXPECT_EQ(d.next_timer_ps(), 14 * kUs);
  const double g = 1.0 / 256;
  const double a12 = (1 - g) * std::pow(1 - g, 2) + g;  // two decays, then this CNP's update
  d.advance(14 * kUs);
  const double a14 = a12 * (1 - g) * (1 - g);  // two more decays by the deferred cut
  EXPECT_DOUBLE_EQ(d.target_rate(), 12.5e9);
  EXPECT_DOUBLE_EQ(d.current_rate(), 12.5e9 * (1 - a14 / 2));
  EXPECT_EQ(d.next_timer_ps(), 914 * kUs);
}

TEST(Dcqcn, ByteCounterAdditiveAndHyperStages) {
  DcqcnCfg c;
  c.alpha_timer_ps = 1'000'000 * kUs;  // alpha stays 1
  c.increase_timer_ps = 10 * kUs;
  c.byte_counter_bytes = 150'000;
  c.fast_recovery_steps = 2;
  c.rate_ai_bps = 1'000'000'000;
  c.rate_hai_bps = 10'000'000'000;
  c.rate_decrease_interval_ps = 0;
  Dcqcn d(c, 100'000'000'000);
  d.on_cnp(0);        // Rt 100G, Rc 50G
  d.on_cnp(1 * kUs);  // Rt 50G, Rc 25G, T = BC = 0, timer at 11 us
  EXPECT_DOUBLE_EQ(d.target_rate(), 50e9);
  EXPECT_DOUBLE_EQ(d.current_rate(), 25e9);
  d.advance(31 * kUs);  // timers at 11, 21, 31 us: T = 1, 2 fast recovery; T = 3 > F, BC = 0: additive
  EXPECT_EQ(d.timer_stage(), 3u);
  EXPECT_DOUBLE_EQ(d.target_rate(), 51e9);
  EXPECT_DOUBLE_EQ(d.current_rate(), 47.375e9);  // 25 -> 37.5 -> 43.75 -> (51 + 43.75) / 2
  d.on_send(100'000, 31 * kUs);  // below B: no event
  EXPECT_EQ(d.byte_stage(), 0u);
  d.on_send(50'000, 31 * kUs);  // BC = 1: additive
  EXPECT_DOUBLE_EQ(d.target_rate(), 52e9);
  EXPECT_DOUBLE_EQ(d.current_rate(), 49.6875e9);
  d.on_send(300'000, 31 * kUs);  // BC = 2: additive; BC = 3 = T: hyper, i = min - F = 1
  EXPECT_EQ(d.byte_stage(), 3u);
  EXPECT_DOUBLE_EQ(d.target_rate(), 63e9);
  EXPECT_DOUBLE_EQ(d.current_rate(), 57.171875e9);  // (53 + 49.6875) / 2 = 51.34375, then (63 + 51.34375) / 2
  d.advance(41 * kUs);  // T = 4, BC = 3: hyper, i = 1
  EXPECT_DOUBLE_EQ(d.target_rate(), 73e9);
  EXPECT_DOUBLE_EQ(d.current_rate(), 65.0859375e9);
  d.on_send(300'000, 41 * kUs);  // BC = 4, 5: hyper with i = min(T, BC) - F = 2 twice: Rt 93G, then 100G (line)
  EXPECT_DOUBLE_EQ(d.target_rate(), 100e9);
  EXPECT_DOUBLE_EQ(d.current_rate(), ((93e9 + 65.0859375e9) / 2 + 100e9) / 2);
}

TEST(Dcqcn, MinimumRateAndTimerStopsAtLineRate) {
  DcqcnCfg c;
  c.min_rate_bps = 10'000'000'000;
  c.rate_decrease_interval_ps = 0;
  c.alpha_timer_ps = 1'000'000 * kUs;
  Dcqcn d(c, 25'000'000'000);
  d.on_cnp(0);
  d.on_cnp(1);  // 12.5G / 2 = 6.25G < 10G
  EXPECT_DOUBLE_EQ(d.current_rate(), 10e9);
  // Back to line rate after enough hyper steps; then no more timer.
  d.advance(1'000'000 * kUs);
  EXPECT_DOUBLE_EQ(d.current_rate(), 25e9);
  EXPECT_EQ(d.rate_bps(), 25'000'000'000u);
  EXPECT_EQ(d.next_timer_ps(), 0u);
}

// ---------------------------------------------------------------- TCP (via DCTCP without marks)

AckEvent ack(uint64_t cum, uint64_t newly, uint64_t snd_nxt, bool ece = false, uint64_t rtt = 100 * kUs) {
  AckEvent a;
  a.cum_ack = cum;
  a.newly_acked = newly;
  a.snd_nxt = snd_nxt;
  a.ece = ece;
  a.rtt_ps = rtt;
  return a;
}

AckEvent dup(uint64_t cum, uint64_t snd_nxt) {
  AckEvent a = ack(cum, 0, snd_nxt);
  a.dup = true;
  return a;
}

TEST(Tcp, SlowStartFastRetransmitRecoveryThenAvoidance) {
  const TcpCfg tc;
  const DctcpCfg dc;
  Dctcp t(tc, dc, 1000);
  EXPECT_EQ(t.window_bytes(), 10'000u);  // IW 10 segments (RFC 6928)
  EXPECT_TRUE(t.own_loss_detection());
  for (uint64_t k = 1; k <= 5; ++k) EXPECT_FALSE(t.on_ack(ack(k * 1000, 1000, 25'000), 0));
  EXPECT_DOUBLE_EQ(t.cwnd(), 15'000);  // +1 MSS per ACK in slow start
  EXPECT_FALSE(t.on_ack(dup(5000, 25'000), 0));
  EXPECT_FALSE(t.on_ack(dup(5000, 25'000), 0));
  EXPECT_TRUE(t.on_ack(dup(5000, 25'000), 0));  // third: fast retransmit
  // ssthresh = max(FlightSize / 2, 2 MSS) = 20000 / 2; cwnd = ssthresh (go-back-N, no inflation).
  EXPECT_DOUBLE_EQ(t.ssthresh(), 10'000);
  EXPECT_DOUBLE_EQ(t.cwnd(), 10'000);
  EXPECT_TRUE(t.in_recovery());
  EXPECT_FALSE(t.on_ack(dup(5000, 25'000), 0));  // no second cut in recovery
  EXPECT_TRUE(t.on_ack(ack(6000, 1000, 25'000), 0));  // partial: resend the next hole, no growth
  EXPECT_DOUBLE_EQ(t.cwnd(), 10'000);
  EXPECT_FALSE(t.on_ack(ack(25'000, 19'000, 25'000), 0));  // full ACK ends recovery
  EXPECT_FALSE(t.in_recovery());
  EXPECT_DOUBLE_EQ(t.cwnd(), 10'000);
  t.on_ack(ack(26'000, 1000, 30'000), 0);  // avoidance: + MSS^2 / cwnd
  EXPECT_DOUBLE_EQ(t.cwnd(), 10'100);
  t.on_ack(ack(27'000, 1000, 30'000), 0);
  EXPECT_DOUBLE_EQ(t.cwnd(), 10'100 + 1e6 / 10'100);
}

TEST(Tcp, Rfc6298RtoWithMinimumAndBackoff) {
  TcpCfg tc;
  tc.min_rto_ps = 10 * kUs;
  tc.initial_rto_ps = 10 * kUs;
  const DctcpCfg dc;
  Dctcp t(tc, dc, 1000);
  EXPECT_EQ(t.rto_ps(0), 10 * kUs);  // before a sample
  t.on_ack(ack(1000, 1000, 10'000, false, 100 * kUs), 0);
  EXPECT_EQ(t.srtt_ps(), 100 * kUs);
  EXPECT_EQ(t.rttvar_ps(), 50 * kUs);
  EXPECT_EQ(t.rto_ps(0), 300 * kUs);  // SRTT + 4 RTTVAR
  t.on_ack(ack(2000, 1000, 10'000, false, 200 * kUs), 0);
  EXPECT_EQ(t.rttvar_ps(), 62'500'000u);  // (3 x 50 + |100 - 200|) / 4
  EXPECT_EQ(t.srtt_ps(), 112'500'000u);   // (7 x 100 + 200) / 8
  EXPECT_EQ(t.rto_ps(0), 362'500'000u);
  t.on_timeout(8000, 0);
  EXPECT_EQ(t.rto_ps(0), 725'000'000u);  // doubled
  EXPECT_DOUBLE_EQ(t.cwnd(), 1000);      // loss window
  EXPECT_DOUBLE_EQ(t.ssthresh(), 4000);  // FlightSize / 2
  t.on_timeout(8000, 0);
  EXPECT_EQ(t.rto_ps(0), 1'450'000'000u);
  // Reverie's minimum: 1 ms wins over a small SRTT.
  const TcpCfg reverie;
  Dctcp r(reverie, dc, 1000);
  r.on_ack(ack(1000, 1000, 10'000, false, 10 * kUs), 0);
  EXPECT_EQ(r.rto_ps(0), 1000 * kUs);
}

// ---------------------------------------------------------------- DCTCP

TEST(Dctcp, AlphaPerWindowAndOneCutPerWindow) {
  const TcpCfg tc;
  const DctcpCfg dc;  // g = 1/16, alpha starts at 1
  Dctcp t(tc, dc, 1000);
  EXPECT_TRUE(t.ect());
  // First ACK ends the initial window (WindowEnd = 0): F = 1, alpha = 1; ECE: cwnd 10000 (1 - 1/2).
  t.on_ack(ack(1000, 1000, 10'000, true), 0);
  EXPECT_DOUBLE_EQ(t.alpha(), 1.0);
  EXPECT_DOUBLE_EQ(t.cwnd(), 5000);
  EXPECT_DOUBLE_EQ(t.ssthresh(), 5000);
  // Next window: ACKs up to cum 11000 (the first past WindowEnd 10000), ECE on 2 of 10.
  double w = 5000;
  for (uint64_t cum = 2000; cum <= 11'000; cum += 1000) {
    const bool ece = cum == 5000 || cum == 6000;  // inside the reduced window: no second cut
    t.on_ack(ack(cum, 1000, 12'000, ece), 0);
    w += 1e6 / w;  // Reno avoidance (an ECE that does not cut does not stop it)
  }
  EXPECT_DOUBLE_EQ(t.alpha(), 15.0 / 16 + 0.2 / 16);  // F = 2000 / 10000
  EXPECT_DOUBLE_EQ(t.cwnd(), w);
  // ECE at cum 12000 >= the cut's SND.NXT (10000): cut with alpha 0.95.
  const double before = t.cwnd();
  t.on_ack(ack(12'000, 1000, 20'000, true), 0);
  EXPECT_DOUBLE_EQ(t.cwnd(), before * (1 - 0.95 / 2));
  EXPECT_DOUBLE_EQ(t.ssthresh(), before * (1 - 0.95 / 2));
}

// ---------------------------------------------------------------- Cubic

TEST(Cubic, LossKRenoFriendlyAndFastConvergence) {
  const TcpCfg tc;
  const CubicCfg cc;  // C = 0.4, beta = 0.7
  Cubic t(tc, cc, 1000);
  EXPECT_FALSE(t.ect());
  t.on_ack(ack(1000, 1000, 11'000), 0);  // slow start: 11 segments, SRTT 100 us
  EXPECT_DOUBLE_EQ(t.cwnd(), 11'000);
  t.on_ack(dup(1000, 11'000), 0);
  t.on_ack(dup(1000, 11'000), 0);
  EXPECT_TRUE(t.on_ack(dup(1000, 11'000), 0));
  EXPECT_DOUBLE_EQ(t.w_max(), 11);            // W_max = cwnd (segments)
  EXPECT_DOUBLE_EQ(t.ssthresh(), 11'000 * 0.7);
  EXPECT_DOUBLE_EQ(t.cwnd(), 7700);
  t.on_ack(ack(11'000, 10'000, 11'000), 0);  // full ACK: recovery ends, no growth
  // First avoidance ACK at 1 ms starts the epoch: K = cbrt((11 - 7.7) / 0.4); W(0) = 7.7 <
  // W_est = 7.7 + (3 x 0.3 / 1.7) x 1 / 7.7, so cwnd = W_est (Reno-friendly region).
  t.on_ack(ack(12'000, 1000, 20'000), 1000 * kUs);
  EXPECT_DOUBLE_EQ(t.k_s(), std::cbrt((11 - 7.7) / 0.4));
  const double a = 3 * (1 - 0.7) / (1 + 0.7);
  EXPECT_DOUBLE_EQ(t.w_est(), 7.7 + a * 1 / 7.7);
  EXPECT_DOUBLE_EQ(t.cwnd(), (7.7 + a * 1 / 7.7) * 1000);
  // A second loss below W_max: fast convergence, W_max = cwnd (1 + beta) / 2.
  const double w = t.cwnd() / 1000;
  t.on_ack(dup(12'000, 20'000), 0);
  t.on_ack(dup(12'000, 20'000), 0);
  EXPECT_TRUE(t.on_ack(dup(12'000, 20'000), 0));
  EXPECT_DOUBLE_EQ(t.w_max(), w * 1.7 / 2);
  EXPECT_DOUBLE_EQ(t.cwnd(), w * 1000 * 0.7);
}

TEST(Cubic, ConcaveGrowthTowardsWmax) {
  const TcpCfg tc;
  CubicCfg cc;
  cc.reno_friendly = false;
  Cubic t(tc, cc, 1000);
  t.on_ack(ack(1000, 1000, 11'000), 0);
  for (int i = 0; i < 3; ++i) t.on_ack(dup(1000, 11'000), 0);
  t.on_ack(ack(11'000, 10'000, 11'000), 0);
  t.on_ack(ack(12'000, 1000, 20'000), 0);  // epoch starts at t = 0
  const double k = std::cbrt((11 - 7.7) / 0.4);
  const double w0 = t.cwnd() / 1000;
  // t = K / 2 s: target W(K/2 + SRTT) = 0.4 (K/2 + 1e-4 - K)^3 + 11, above cwnd and below 1.5 cwnd.
  const uint64_t at = uint64_t(k / 2 * 1e12);
  t.on_ack(ack(13'000, 1000, 20'000), at);
  const double tt = double(at) * 1e-12 + 1e-4;
  const double target = 0.4 * (tt - k) * (tt - k) * (tt - k) + 11;
  EXPECT_REL(t.cwnd(), (w0 + (target - w0) / w0 * 1) * 1000);
  EXPECT_GT(target, w0);
  EXPECT_LT(target, 11);
}

// ---------------------------------------------------------------- PowerTCP

AckEvent int_ack(uint64_t cum, uint64_t snd_nxt, const std::vector<IntHop>& hops) {
  static std::array<IntHop, Packet::kMaxIntHops> stack;
  std::copy(hops.begin(), hops.end(), stack.begin());
  AckEvent a = ack(cum, 1000, snd_nxt);
  a.int_hops = stack.data();
  a.int_n = uint8_t(hops.size());
  return a;
}

TEST(PowerTcp, NormalisedPowerSmoothingAndPerRttWindow) {
  PowertcpCfg c;  // gamma 0.9, expected flows 10
  c.base_rtt_ps = 10 * kUs;
  PowerTcp p(c, 100'000'000'000, 1000, 0);
  // b = 12.5e9 B/s, tau = 10 us: host BDP 125000 B, beta 12500 B; start at line rate.
  EXPECT_EQ(p.window_bytes(), 125'000u);
  EXPECT_EQ(p.rate_bps(), 100'000'000'000u);
  EXPECT_DOUBLE_EQ(p.beta(), 12'500);
  const uint64_t r = 100'000'000'000;
  p.on_ack(int_ack(1000, 50'000, {{0, 0, r, 0}}), 0);  // first record: nothing to compare
  EXPECT_DOUBLE_EQ(p.power(), 0);
  // 1 us later the queue grew by 12500 B while the port sent 12500 B: lambda = 2b,
  // voltage = 12500 + b tau = 137500, P = 2b x 137500 / (b^2 tau) = 2.2.
  p.on_ack(int_ack(2000, 50'000, {{1 * kUs, 12'500, r, 12'500}}), 0);
  EXPECT_REL(p.power(), 2.2);
  const double w1 = 0.9 * (125'000 / 2.2 + 12'500) + 0.1 * 125'000;
  EXPECT_REL(p.cwnd(), w1);
  EXPECT_NEAR(double(p.rate_bps()), w1 * 8 / 1e-5, 1.0);  // rate = cwnd / tau
  // Same RTT (cum 20000 < 50000): power smooths, window holds. P = 2 x 150000 / 125000 = 2.4,
  // Gamma = (2.2 (10 - 1) + 2.4 x 1) / 10.
  p.on_ack(int_ack(20'000, 60'000, {{2 * kUs, 25'000, r, 25'000}}), 0);
  EXPECT_REL(p.power(), (2.2 * 9 + 2.4) / 10);
  EXPECT_REL(p.cwnd(), w1);
  // Next RTT: queue steady (lambda = b), P = 150000 / 125000 = 1.2.
  p.on_ack(int_ack(50'000, 90'000, {{3 * kUs, 37'500, r, 25'000}}), 0);
  const double g2 = ((2.2 * 9 + 2.4) / 10 * 9 + 1.2) / 10;
  EXPECT_REL(p.power(), g2);
  EXPECT_REL(p.cwnd(), 0.9 * (w1 / g2 + 12'500) + 0.1 * w1);
}

TEST(PowerTcp, MostCongestedHopAndHopCountChange) {
  PowertcpCfg c;
  c.base_rtt_ps = 10 * kUs;
  PowerTcp p(c, 100'000'000'000, 1000, 0);
  const uint64_t r = 100'000'000'000;
  p.on_ack(int_ack(1000, 50'000, {{0, 0, r, 0}, {0, 0, r, 0}}), 0);
  // Hop 0 idle at half rate (P = 0.5), hop 1 with a growing queue (P = 2.2): hop 1 counts,
  // with its dt of 2 us.
  p.on_ack(int_ack(2000, 50'000, {{2 * kUs, 12'500, r, 0}, {2 * kUs, 25'000, r, 25'000}}), 0);
  // hop 1: lambda = 50000 B / 2 us = 2b, voltage = 25000 + 125000: P = 2 x 150000 / 125000
  EXPECT_REL(p.power(), 2.4);
  // A path with another hop count: no comparison for that ACK.
  const double g = p.power();
  p.on_ack(int_ack(3000, 50'000, {{3 * kUs, 40'000, r, 0}}), 0);
  EXPECT_DOUBLE_EQ(p.power(), g);
  // An ACK without INT changes nothing.
  p.on_ack(ack(4000, 1000, 50'000), 0);
  EXPECT_DOUBLE_EQ(p.power(), g);
}

TEST(PowerTcp, BaseRttFromPathWhenNotConfigured) {
  const PowertcpCfg c;  // base_rtt 0: the flow's unloaded RTT
  PowerTcp p(c, 25'000'000'000, 1000, 8 * kUs);
  EXPECT_EQ(p.tau_ps(), 8 * kUs);
  EXPECT_EQ(p.window_bytes(), 25'000u);  // 25 Gb/s x 8 us
}

// ---------------------------------------------------------------- host.transport loader

nlohmann::json default_with(const nlohmann::json& host) {
  std::ifstream in(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/default.json");
  nlohmann::json j = nlohmann::json::parse(in);
  j["host"] = host;
  return j;
}

void expect_error(const nlohmann::json& j, const std::string& what) {
  try {
    load_scenario(j, "t");
    ADD_FAILURE() << "no error, expected: " << what;
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(TransportConfig, DefaultsClassesAndGenerator) {
  const Scenario none = load_scenario(default_with(nlohmann::json::object()), "t");
  EXPECT_FALSE(none.host.acks);
  EXPECT_EQ(none.host.transport.for_class(3), TransportKind::kNone);

  nlohmann::json j = default_with({{"transport",
                                    {{"classes", {{"3", "dcqcn"}}},
                                     {"dcqcn", {{"g", 0.0625}, {"increase_timer_us", 55}, {"rate_ai_gbps", 0.04}}},
                                     {"tcp", {{"min_rto_us", 200}}}}}});
  j["traffic"][0]["transport"] = "cubic";
  const Scenario s = load_scenario(j, "t");
  EXPECT_TRUE(s.host.acks);  // every transport is ACK-clocked
  EXPECT_EQ(s.host.transport.for_class(3), TransportKind::kDcqcn);
  EXPECT_EQ(s.host.transport.for_class(0), TransportKind::kNone);
  EXPECT_DOUBLE_EQ(s.host.transport.dcqcn.g, 0.0625);
  EXPECT_EQ(s.host.transport.dcqcn.increase_timer_ps, 55 * kUs);
  EXPECT_EQ(s.host.transport.dcqcn.rate_ai_bps, 40'000'000u);
  EXPECT_EQ(s.host.transport.dcqcn.alpha_timer_ps, 1 * kUs);  // default kept
  EXPECT_EQ(s.host.transport.tcp.min_rto_ps, 200 * kUs);
  EXPECT_EQ(s.traffic[0].transport, int8_t(TransportKind::kCubic));
}

TEST(TransportConfig, BadValuesNameTheField) {
  expect_error(default_with({{"transport", {{"default", "reno"}}}}), "host.transport.default: unknown transport 'reno'");
  expect_error(default_with({{"transport", {{"classes", {{"9", "dcqcn"}}}}}}), "host.transport.classes.9: unknown key");
  expect_error(default_with({{"transport", {{"dcqcn", {{"g", 0}}}}}}), "host.transport.dcqcn.g: must be in (0.0, 1.0]");
  expect_error(default_with({{"transport", {{"dcqcn", {{"g", 1.5}}}}}}), "host.transport.dcqcn.g");
  expect_error(default_with({{"transport", {{"dcqcn", {{"rate_ai_gbps", -1}}}}}}), "host.transport.dcqcn.rate_ai_gbps");
  expect_error(default_with({{"transport", {{"dcqcn", {{"min_rate_gbps", 0}}}}}}), "host.transport.dcqcn.min_rate_gbps");
  expect_error(default_with({{"transport", {{"dcqcn", {{"alpha_timer_us", 0}}}}}}), "host.transport.dcqcn.alpha_timer_us");
  expect_error(default_with({{"transport", {{"dctcp", {{"g", -0.1}}}}}}), "host.transport.dctcp.g");
  expect_error(default_with({{"transport", {{"cubic", {{"beta", 1}}}}}}), "host.transport.cubic.beta");
  expect_error(default_with({{"transport", {{"powertcp", {{"gamma", 0}}}}}}), "host.transport.powertcp.gamma");
  expect_error(default_with({{"transport", {{"tcp", {{"min_rto_us", 0.5}}}}}}), "host.transport.tcp.min_rto_us");
  expect_error(default_with({{"transport", {{"vegas", nlohmann::json::object()}}}}), "host.transport.vegas: unknown key");
  expect_error(default_with({{"acks", {{"enabled", false}}}, {"transport", {{"default", "dctcp"}}}}),
               "host.acks.enabled: false, but a transport");
  nlohmann::json j = default_with(nlohmann::json::object());
  j["traffic"][0]["transport"] = "bbr";
  expect_error(j, "traffic[0].transport: unknown transport 'bbr'");
  j["traffic"][0]["transport"] = 3;
  expect_error(j, "traffic[0].transport: must be a transport name");
}

}  // namespace
}  // namespace mmusim
