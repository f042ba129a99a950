#include "host/transport/powertcp.h"

#include <algorithm>

namespace mmusim {

PowerTcp::PowerTcp(const PowertcpCfg& cfg, uint64_t line_rate_bps, uint32_t mss, uint64_t base_rtt_ps)
    : Transport(0, line_rate_bps, false, false), m_cfg(cfg),
      m_line(double(line_rate_bps)), m_mss(double(mss)),
      m_tau(std::max<uint64_t>(1, cfg.base_rtt_ps ? cfg.base_rtt_ps : base_rtt_ps)),
      m_bdp(std::max(double(uint64_t((unsigned __int128)line_rate_bps * m_tau / 8'000'000'000'000ull)), double(mss))),
      m_beta(m_bdp / cfg.expected_flows),
      m_cwnd(m_bdp) {
  set(m_bdp);
}

void PowerTcp::set(double cwnd) {
  m_cwnd = std::clamp(cwnd, m_mss, m_bdp);
  m_window = uint64_t(m_cwnd);
  m_rate = std::max<uint64_t>(1, uint64_t(std::min(m_line, m_cwnd * 8e12 / double(m_tau))));
}

bool PowerTcp::on_ack(const AckEvent& a, uint64_t) {
  if (a.int_n == 0) return false;
  const double tau_s = double(m_tau) * 1e-12;
  double p = -1;
  uint64_t dt_p = 0;
  if (a.int_n == m_prev_n) {
    for (uint8_t i = 0; i < a.int_n; ++i) {
      const IntHop& h = a.int_hops[i];
      const IntHop& o = m_prev[i];
      const uint64_t dt = std::max<uint64_t>(1, h.ts_ps > o.ts_ps ? h.ts_ps - o.ts_ps : 0);
      const double dts = double(dt) * 1e-12;
      const double dq = double(h.qlen_bytes) - double(o.qlen_bytes);
      const double dtx = double(h.tx_bytes) - double(o.tx_bytes);
      const double lambda = std::max(0.0, dq + dtx) / dts;  // bytes/s
      const double b = double(h.rate_bps) / 8;                // bytes/s
      const double pi = lambda * (double(h.qlen_bytes) + b * tau_s) / (b * b * tau_s);
      if (pi > p) {
        p = pi;
        dt_p = dt;
      }
    }
  }
  m_prev_n = a.int_n;
  std::copy(a.int_hops, a.int_hops + a.int_n, m_prev.begin());
  if (p < 0) return false;
  const double dt = double(std::min(dt_p, m_tau));
  m_smooth = m_has_power ? (m_smooth * (double(m_tau) - dt) + p * dt) / double(m_tau) : p;
  m_has_power = true;
  if (a.cum_ack >= m_last_update) {
    // An idle path (power 0) asks for an unbounded window: the host BDP caps it.
    const double w = m_smooth > 0 ? m_cwnd / m_smooth : m_bdp;
    set(m_cfg.gamma * (w + m_beta) + (1 - m_cfg.gamma) * m_cwnd);
    m_last_update = a.snd_nxt;
  }
  return false;
}

}  // namespace mmusim
