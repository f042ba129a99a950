#pragma once
// DCTCP sender (RFC 8257 §3.3) on the Reno window of Tcp: per observation window (ends when
// SND.UNA passes the SND.NXT recorded at its start) F = marked bytes / acknowledged bytes
// and alpha = (1 - g) alpha + g F; on an ACK with ECE, at most once per window of data,
// cwnd = cwnd (1 - alpha / 2) (at least 2 MSS, RFC 5681's smallest ssthresh) and
// ssthresh = cwnd. Losses are handled as Reno.
#include "host/transport/tcp.h"

namespace mmusim {

class Dctcp : public Tcp {
 public:
  Dctcp(const TcpCfg& tcp, const DctcpCfg& cfg, uint32_t mss);
  double alpha() const { return m_alpha; }

 protected:
  bool on_ecn(const AckEvent& a, uint64_t now_ps) override;

 private:
  const DctcpCfg& m_cfg;
  double m_alpha;
  uint64_t m_window_end = 0;  // DCTCP.WindowEnd (RFC 8257: SND.NXT at the start, 0)
  uint64_t m_acked = 0, m_marked = 0;  // DCTCP.BytesAcked, DCTCP.BytesMarked
  uint64_t m_cwr_end = 0;     // no second cut until SND.UNA reaches it
};

}  // namespace mmusim
