#include "host/transport/cubic.h"

#include <algorithm>
#include <cmath>

namespace mmusim {

Cubic::Cubic(const TcpCfg& tcp, const CubicCfg& cfg, uint32_t mss)
    : Tcp(tcp, mss, cfg.ecn), m_cfg(cfg) {}

double Cubic::loss_ssthresh(uint64_t, uint64_t) {
  const double cwnd = m_cwnd / m_mss;
  // RFC 9438 §4.7 fast convergence, §4.6 multiplicative decrease.
  m_w_max = m_cfg.fast_convergence && cwnd < m_w_max ? cwnd * (1 + m_cfg.beta) / 2 : cwnd;
  m_epoch = false;
  return std::max(m_cwnd * m_cfg.beta, 2 * m_mss);
}

bool Cubic::on_ecn(const AckEvent& a, uint64_t now_ps) {
  if (!m_cfg.ecn || !a.ece || a.cum_ack < m_cwr_end) return false;
  m_ssthresh = loss_ssthresh(a.snd_nxt - a.cum_ack, now_ps);
  set_cwnd(m_ssthresh);
  m_cwr_end = a.snd_nxt;
  return true;
}

void Cubic::ca_increase(uint64_t acked, uint64_t now_ps) {
  const double cwnd = m_cwnd / m_mss, segs = double(acked) / m_mss, c = m_cfg.c;
  if (!m_epoch) {  // §4.2: the epoch starts with congestion avoidance
    m_epoch = true;
    m_epoch_ps = now_ps;
    if (cwnd < m_w_max) {
      m_k = std::cbrt((m_w_max - cwnd) / c);
      m_origin = m_w_max;
    } else {
      m_k = 0;
      m_origin = cwnd;
    }
    m_w_est = cwnd;
  }
  const double t = double(now_ps - m_epoch_ps) * 1e-12, rtt = double(srtt_ps()) * 1e-12;
  auto w = [&](double x) { return c * (x - m_k) * (x - m_k) * (x - m_k) + m_origin; };
  const double target = std::clamp(w(t + rtt), cwnd, 1.5 * cwnd);  // §4.4
  double next = cwnd + (target - cwnd) / cwnd * segs;
  if (m_cfg.reno_friendly) {  // §4.3
    const double a = m_w_est >= m_w_max ? 1 : 3 * (1 - m_cfg.beta) / (1 + m_cfg.beta);
    m_w_est += a * segs / cwnd;
    if (w(t) < m_w_est) next = m_w_est;
  }
  set_cwnd(next * m_mss);
}

}  // namespace mmusim
