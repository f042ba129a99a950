#pragma once
// RoCEv2 DCQCN reaction point (Zhu et al., SIGCOMM'15 §3.1; DOMAIN.md): a rate-based sender.
// On a CNP: Rt = Rc, Rc = max(min_rate, Rc (1 - alpha/2)), alpha = (1 - g) alpha + g; the
// cut happens at most once per rate_decrease_interval (a CNP inside it defers the cut to the
// interval's end, where it uses alpha as it is then). alpha decays, alpha = (1 - g) alpha,
// once per alpha timer K that passes without a CNP. After a cut, rate-increase events come
// from the timer T and, when on, the byte counter B; each counts its stage (T, BC) and then
//   fast recovery while max(T, BC) <= F:      Rc = (Rt + Rc) / 2
//   additive increase (one stage past F):     Rt += R_AI,  then Rc = (Rt + Rc) / 2
//   hyper increase (both past F):             Rt += i R_HAI, i = min(T, BC) - F, then the same
// With the byte counter off (B = 0, the Mellanox NIC and the HPCC artifact) the timer alone:
// T <= F fast recovery, T = F + 1 additive, T > F + 1 hyper with i = 1. Rt never exceeds the
// line rate; once Rc and Rt are back at it the timer stops. Before the first CNP the flow
// sends at line rate and no timer runs.
#include "host/transport/transport.h"

namespace mmusim {

class Dcqcn : public Transport {
 public:
  Dcqcn(const DcqcnCfg& cfg, uint64_t line_rate_bps);

  void on_send(uint64_t bytes, uint64_t now_ps) override;
  bool on_ack(const AckEvent&, uint64_t) override { return false; }
  void on_cnp(uint64_t now_ps) override;
  void advance(uint64_t now_ps) override;
  uint64_t next_timer_ps() const;  // the next cut or increase event due; 0: none

  double current_rate() const { return m_rc; }  // Rc, bit/s
  double target_rate() const { return m_rt; }   // Rt, bit/s
  double alpha(uint64_t now_ps) const;
  uint32_t timer_stage() const { return m_t; }
  uint32_t byte_stage() const { return m_bc; }

 private:
  void cut(uint64_t t);
  void increase(bool from_timer);
  void set_rate();

  const DcqcnCfg& m_cfg;
  double m_line;
  double m_rc, m_rt;
  bool m_throttled = false;   // a CNP has arrived
  double m_alpha = 1;         // at m_alpha_ps
  uint64_t m_alpha_ps = 0;    // the last CNP: the alpha timer's start
  uint64_t m_last_cut_ps = 0;
  bool m_cut_pending = false;
  uint64_t m_next_inc_ps = 0;  // 0: increase timer off
  uint32_t m_t = 0, m_bc = 0;
  uint64_t m_bytes = 0;        // sent since the last byte-counter event
};

}  // namespace mmusim
