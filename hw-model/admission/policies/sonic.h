#pragma once
// The SONiC buffer model (reverie-nsdi24 §2.2): ingress and egress admission over pools,
// lossless PGs paused into headroom. Subclasses change only the thresholds.
#include "admission/policy.h"

namespace mmusim::admission {

class SonicPolicy : public Policy {
 public:
  using Policy::Policy;
  Result admit(Counters& c, const Request& r) override;
  PfcUpdate depart(Counters& c, const Departure& d) override;
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

 private:
  uint64_t ingress_th(const Counters& c, const IngressProfile& ip, uint32_t port, uint32_t prio) const {
    return m_dt_thresholds ? dt_threshold(c, ip.th, ip.pool) : ingress_threshold(c, port, prio);
  }
  uint64_t egress_th(const Counters& c, const EgressProfile& ep, uint32_t port, uint32_t q) const {
    return m_dt_thresholds ? dt_threshold(c, ep.th, ep.pool) : egress_threshold(c, port, q);
  }
};

}  // namespace mmusim::admission
