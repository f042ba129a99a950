#pragma once
// TCP Cubic sender (RFC 9438; RFC 8312) on Tcp's slow start, fast retransmit and RTO, in
// segments of the flow's packet size for the window formulas. A congestion event (dup-ACK
// threshold, timeout, or with `ecn` an ECE at most once per window) sets
// W_max = cwnd (fast convergence: cwnd (1 + beta) / 2 when below the previous W_max) and
// ssthresh = cwnd beta (at least 2 segments). Congestion avoidance: the epoch starts at its
// first ACK with K = cbrt((W_max - cwnd) / C) (0 when cwnd >= W_max, the origin then cwnd);
// per ACK target = W(t + SRTT), W(t) = C (t - K)^3 + W_max (t in seconds), clamped to
// [cwnd, 1.5 cwnd], cwnd += (target - cwnd) / cwnd per acknowledged segment; the
// Reno-friendly estimate W_est += alpha_cubic segments / cwnd (alpha_cubic =
// 3 (1 - beta) / (1 + beta), 1 once W_est >= W_max) and cwnd = W_est when W(t) < W_est.
#include "host/transport/tcp.h"

namespace mmusim {

class Cubic : public Tcp {
 public:
  Cubic(const TcpCfg& tcp, const CubicCfg& cfg, uint32_t mss);
  double w_max() const { return m_w_max; }  // segments
  double k_s() const { return m_k; }        // seconds
  double w_est() const { return m_w_est; }  // segments

 protected:
  void ca_increase(uint64_t acked, uint64_t now_ps) override;
  double loss_ssthresh(uint64_t flight, uint64_t now_ps) override;
  bool on_ecn(const AckEvent& a, uint64_t now_ps) override;

 private:
  const CubicCfg& m_cfg;
  double m_w_max = 0;      // segments
  double m_k = 0;          // s
  double m_origin = 0;     // segments
  double m_w_est = 0;      // segments
  bool m_epoch = false;
  uint64_t m_epoch_ps = 0;
  uint64_t m_cwr_end = 0;  // ECN: no second cut until SND.UNA reaches it
};

}  // namespace mmusim
