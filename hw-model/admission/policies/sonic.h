#pragma once
// The SONiC buffer model (reverie-nsdi24 §2.2): ingress and egress admission over pools,
// lossless PGs paused into headroom. Subclasses change only the thresholds.
#include "admission/policy.h"

namespace mmusim::admission {

class SonicPolicy : public Policy {
 public:
  using Policy::Policy;
  // Inline: the core calls them by name, not through the vtable, for a policy that keeps
  // them (plain()), and the compiler may then inline them into the MMU's operations.
  Result admit(Counters& c, const Request& r) override;
  PfcUpdate depart(Counters& c, const Departure& d) override;
  // Admits and departs as this class does (neither is overridden): dt, sih, static.
  bool plain() const { return m_plain; }
  uint64_t ingress_threshold(const Counters& c, uint32_t port, uint32_t prio) const override;
  uint64_t egress_threshold(const Counters& c, uint32_t port, uint32_t q) const override;

 protected:
  // Threshold of a profile; DT (Eq. 1) unless overridden.
  virtual uint64_t threshold(const Counters& c, const Threshold& th, uint16_t pool, bool ingress, size_t queue,
                             uint32_t prio) const;
  // The threshold_form of a policy whose thresholds are this class's DT ones.
  ThresholdForm dt_form(bool ingress, uint32_t port, uint32_t prio) const {
    if (ingress) return dt_threshold_form(pg(port, prio).th, pg(port, prio).pool);
    return dt_threshold_form(queue(port, prio).th, queue(port, prio).pool);
  }
  // Headroom the lossless PGs may use in total.
  virtual uint64_t headroom_capacity() const { return m_cfg.headroom_pool_cells; }
  // Set by a policy that overrides neither ingress_threshold, egress_threshold nor
  // threshold (dt, sih): admit and depart then evaluate DT directly, not through two
  // virtual calls per threshold.
  bool m_dt_thresholds = false;
  // Set by a policy that overrides neither admit nor depart.
  bool m_plain = false;

 private:
  uint64_t ingress_th(const Counters& c, const IngressProfile& ip, uint32_t port, uint32_t prio) const {
    return m_dt_thresholds ? dt_threshold(c, ip.th, ip.pool) : ingress_threshold(c, port, prio);
  }
  uint64_t egress_th(const Counters& c, const EgressProfile& ep, uint32_t port, uint32_t q) const {
    return m_dt_thresholds ? dt_threshold(c, ep.th, ep.pool) : egress_threshold(c, port, q);
  }
};

inline Result SonicPolicy::admit(Counters& c, const Request& r) {
  Result res;
  const uint8_t eq = r.egress_queue();
  const size_t ii = c.idx(r.in_port, r.prio), ei = c.idx(r.out_port, eq);
  const auto& ip = m_cfg.ingress_profiles[c.q[ii].pg_profile];
  const auto& ep = m_cfg.egress_profiles[c.q[ei].queue_profile];
  const bool over_in = over(c, c.q[ii].ing, r.cells, ip.reserved_cells, ingress_th(c, ip, r.in_port, r.prio),
                            m_cfg.pool_cells[ip.pool], c.pool_used[ip.pool]);
  bool to_headroom = false;
  if (c.q[ii].lossless) {
    if (c.q[ii].paused) {
      to_headroom = true;
    } else if (over_in) {
      c.q[ii].paused = 1;
      res.pfc = PfcEvent::kXoff;
      to_headroom = true;
    }
    if (to_headroom && (c.q[ii].hdrm + r.cells > ip.xoff_cells || c.hdrm_pool_used + r.cells > headroom_capacity())) {
      res.reason = DropReason::kHeadroom;
      return res;
    }
  } else if (over_in) {
    res.reason = DropReason::kIngress;
    return res;
  }
  if (over(c, c.q[ei].egr, r.cells, ep.reserved_cells, egress_th(c, ep, r.out_port, eq), m_cfg.pool_cells[ep.pool],
           c.pool_used[ep.pool])) {
    res.reason = DropReason::kEgress;
    return res;
  }
  if (c.total + r.cells > m_cfg.buffer_cells) {
    res.reason = DropReason::kBuffer;
    return res;
  }
  charge(c, ii, ei, ip, ep, r.cells, to_headroom);
  res.verdict = to_headroom ? Verdict::kAdmitHeadroom : Verdict::kAdmitShared;
  return res;
}

inline PfcUpdate SonicPolicy::depart(Counters& c, const Departure& d) {
  const size_t ii = c.idx(d.in_port, d.prio), ei = c.idx(d.out_port, d.egress_queue());
  const auto& ip = m_cfg.ingress_profiles[c.q[ii].pg_profile];
  refund(c, ii, ei, ip, m_cfg.egress_profiles[c.q[ei].queue_profile], d.cells);
  PfcUpdate u;
  if (c.q[ii].paused && may_resume(c, d.in_port, d.prio, ingress_th(c, ip, d.in_port, d.prio))) {
    c.q[ii].paused = 0;
    u.pfc = PfcEvent::kXon;
  }
  return u;
}

}  // namespace mmusim::admission
