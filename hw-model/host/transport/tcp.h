#pragma once
// Window-based TCP sender shared by DCTCP and Cubic, in bytes: slow start and congestion
// avoidance (RFC 5681; Reno's cwnd += MSS^2 / cwnd per ACK unless a subclass overrides it),
// fast retransmit of the first unacknowledged segment on the dup-ACK threshold and a
// recovery episode until everything sent before it is acknowledged, each partial ACK
// resending the next hole (NewReno, RFC 6582, without window inflation; the receiver keeps
// out-of-order data, no SACK), after a timeout go-back-N from SND.UNA, RTO from RFC 6298 (SRTT, RTTVAR, RTO = max(min_rto, SRTT + 4 RTTVAR),
// doubled per expiry up to max_rto) with a configurable minimum. Every ACK carries its
// data packet's send time (a timestamp echo), so every ACK that acknowledges new data is
// an RTT sample. Delayed ACKs: none (the receiver acknowledges every packet).
#include "host/transport/transport.h"

namespace mmusim {

class Tcp : public Transport {
 public:
  bool on_ack(const AckEvent& a, uint64_t now_ps) override;
  void on_timeout(uint64_t flight, uint64_t now_ps) override;
  uint64_t rto_ps(uint64_t) const override;

  double cwnd() const { return m_cwnd; }           // bytes
  double ssthresh() const { return m_ssthresh; }   // bytes
  bool in_recovery() const { return m_in_recovery; }
  uint64_t srtt_ps() const { return m_srtt; }
  uint64_t rttvar_ps() const { return m_rttvar; }

 protected:
  Tcp(const TcpCfg& cfg, uint32_t mss, bool ect);
  // Congestion avoidance for one ACK of `acked` new bytes (cwnd >= ssthresh).
  virtual void ca_increase(uint64_t acked, uint64_t now_ps);
  // ssthresh after a loss (dup-ACK threshold or timeout) with `flight` bytes outstanding.
  virtual double loss_ssthresh(uint64_t flight, uint64_t now_ps);
  // Every ACK, before the window grows: ECN reaction; true if it cut the window (this ACK
  // then does not grow it).
  virtual bool on_ecn(const AckEvent&, uint64_t) { return false; }
  void set_cwnd(double bytes);

  const TcpCfg& m_tcp;
  double m_mss;
  double m_cwnd;
  double m_ssthresh;

 private:
  void rtt_sample(uint64_t r);

  bool m_in_recovery = false;
  uint64_t m_recover = 0;
  uint32_t m_dupacks = 0;
  uint64_t m_srtt = 0, m_rttvar = 0;  // 0: no sample yet
  uint64_t m_rto;
  uint32_t m_backoff = 0;
};

}  // namespace mmusim
