#include "host/transport/tcp.h"

#include <algorithm>

namespace mmusim {

Tcp::Tcp(const TcpCfg& cfg, uint32_t mss, bool ect)
    : Transport(0, kUnpaced, ect, true), m_tcp(cfg), m_mss(double(mss)),
      m_cwnd(double(cfg.initial_window_packets) * mss), m_ssthresh(1e300), m_rto(cfg.initial_rto_ps) {
  set_cwnd(m_cwnd);
}

void Tcp::set_cwnd(double bytes) {
  m_cwnd = std::max(bytes, m_mss);
  m_window = uint64_t(m_cwnd);
}

void Tcp::rtt_sample(uint64_t r) {
  if (m_srtt == 0) {  // RFC 6298 (2.2)
    m_srtt = std::max<uint64_t>(r, 1);
    m_rttvar = r / 2;
  } else {  // (2.3): beta = 1/4, alpha = 1/8
    const uint64_t d = m_srtt > r ? m_srtt - r : r - m_srtt;
    m_rttvar = (3 * m_rttvar + d) / 4;
    m_srtt = std::max<uint64_t>((7 * m_srtt + r) / 8, 1);
  }
  m_rto = std::clamp(m_srtt + 4 * m_rttvar, m_tcp.min_rto_ps, m_tcp.max_rto_ps);
  m_backoff = 0;
}

uint64_t Tcp::rto_ps(uint64_t) const {
  uint64_t r = m_rto;
  for (uint32_t i = 0; i < m_backoff && r < m_tcp.max_rto_ps; ++i) r *= 2;  // (5.5)
  return std::min(r, m_tcp.max_rto_ps);
}

bool Tcp::on_ack(const AckEvent& a, uint64_t now_ps) {
  if (a.newly_acked) {
    rtt_sample(a.rtt_ps);
    m_dupacks = 0;
  }
  const bool cut = on_ecn(a, now_ps);
  if (a.newly_acked) {
    if (m_in_recovery) {
      if (a.cum_ack < m_recover) return true;  // partial ACK: resend the next hole (RFC 6582 3.2 5)
      m_in_recovery = false;                   // full ACK: cwnd is ssthresh already
    } else if (!cut) {
      if (m_cwnd < m_ssthresh) set_cwnd(m_cwnd + std::min<double>(double(a.newly_acked), m_mss));  // (3.1)
      else ca_increase(a.newly_acked, now_ps);
    }
    return false;
  }
  if (!a.dup || m_in_recovery) return false;
  if (++m_dupacks < m_tcp.dupack_threshold) return false;
  m_dupacks = 0;
  m_ssthresh = loss_ssthresh(a.snd_nxt - a.cum_ack, now_ps);  // (3.2) step 2
  set_cwnd(m_ssthresh);
  m_in_recovery = true;
  m_recover = a.snd_nxt;
  return true;
}

void Tcp::on_timeout(uint64_t flight, uint64_t now_ps) {
  m_ssthresh = loss_ssthresh(flight, now_ps);  // RFC 5681 (4)
  set_cwnd(m_mss);                             // loss window: one segment
  m_in_recovery = false;
  m_dupacks = 0;
  ++m_backoff;
}

void Tcp::ca_increase(uint64_t, uint64_t) { set_cwnd(m_cwnd + m_mss * m_mss / m_cwnd); }  // (3.1) eq. 3

double Tcp::loss_ssthresh(uint64_t flight, uint64_t) { return std::max(double(flight) / 2, 2 * m_mss); }  // eq. 4

}  // namespace mmusim
