#pragma once
// PowerTCP sender (Addanki et al., NSDI'22, Algorithm 1), window and pacing rate from the
// INT stack its ACKs echo. Per ACK, for each hop i against the previous ACK's record:
//   dt = ts - ts_prev, qdot = (qlen - qlen_prev) / dt, mu = (tx_bytes - tx_bytes_prev) / dt,
//   current lambda = qdot + mu, voltage = qlen + b tau (b the hop's link rate, bytes/s),
//   normalised power P_i = lambda voltage / (b^2 tau);
// the largest P_i and its dt give Gamma_smooth = (Gamma_smooth (tau - dt) + P dt) / tau
// with dt = min(dt, tau) (the first sample sets it). Once per RTT (the first ACK at or
// past the SND.NXT of the previous update):
//   cwnd = gamma (cwnd_old / Gamma_smooth + beta) + (1 - gamma) cwnd,  rate = cwnd / tau,
// cwnd_old being the window the acknowledged data was sent under, which with one update
// per RTT is the current window. cwnd is kept within [1 MSS, host BDP] (host BDP = line
// rate x tau, the flow's start window), as powertcp-linux does; beta = host BDP /
// expected_flows. A change in hop count restarts the comparison (no power that ACK).
#include <array>

#include "host/transport/transport.h"

namespace mmusim {

class PowerTcp : public Transport {
 public:
  PowerTcp(const PowertcpCfg& cfg, uint64_t line_rate_bps, uint32_t mss, uint64_t base_rtt_ps);
  bool on_ack(const AckEvent& a, uint64_t now_ps) override;

  double cwnd() const { return m_cwnd; }       // bytes
  double power() const { return m_smooth; }    // Gamma_smooth (0 before the first sample)
  double beta() const { return m_beta; }       // bytes
  uint64_t tau_ps() const { return m_tau; }

 private:
  void set(double cwnd);

  const PowertcpCfg& m_cfg;
  double m_line;       // bit/s
  double m_mss;
  uint64_t m_tau;      // ps
  double m_bdp;        // bytes
  double m_beta;       // bytes
  double m_cwnd;       // bytes
  double m_smooth = 0;
  bool m_has_power = false;
  uint64_t m_last_update = 0;  // SND.NXT at the last window update
  uint8_t m_prev_n = 0;
  std::array<IntHop, Packet::kMaxIntHops> m_prev{};
};

}  // namespace mmusim
