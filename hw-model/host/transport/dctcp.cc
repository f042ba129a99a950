#include "host/transport/dctcp.h"

#include <algorithm>

namespace mmusim {

Dctcp::Dctcp(const TcpCfg& tcp, const DctcpCfg& cfg, uint32_t mss)
    : Tcp(tcp, mss, true), m_cfg(cfg), m_alpha(cfg.initial_alpha) {}

bool Dctcp::on_ecn(const AckEvent& a, uint64_t) {
  m_acked += a.newly_acked;  // RFC 8257 §3.3 steps 3-4
  if (a.ece) m_marked += a.newly_acked;
  if (a.newly_acked && a.cum_ack > m_window_end) {  // step 5: the window ended
    const double f = m_acked ? double(m_marked) / double(m_acked) : 0;
    m_alpha = (1 - m_cfg.g) * m_alpha + m_cfg.g * f;  // step 7
    m_window_end = a.snd_nxt;                          // step 8
    m_acked = m_marked = 0;                            // step 9
  }
  if (!a.ece || a.cum_ack < m_cwr_end) return false;
  m_ssthresh = std::max(m_cwnd * (1 - m_alpha / 2), 2 * m_mss);  // step 11
  set_cwnd(m_ssthresh);
  m_cwr_end = a.snd_nxt;
  return true;
}

}  // namespace mmusim
