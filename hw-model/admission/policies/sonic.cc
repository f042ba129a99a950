#include "admission/policies/sonic.h"

namespace mmusim::admission {

uint64_t SonicPolicy::threshold(const Counters& c, const Threshold& th, uint16_t pool, bool, size_t,
                                uint32_t) const {
  return dt_threshold(c, th, pool);
}

uint64_t SonicPolicy::ingress_threshold(const Counters& c, uint32_t port, uint32_t prio) const {
  const auto& p = pg(port, prio);
  return threshold(c, p.th, p.pool, true, c.idx(port, prio), prio);
}

uint64_t SonicPolicy::egress_threshold(const Counters& c, uint32_t port, uint32_t q) const {
  const auto& p = queue(port, q);
  return threshold(c, p.th, p.pool, false, c.idx(port, q), q);
}

Result SonicPolicy::admit(Counters& c, const Request& r) {
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

PfcUpdate SonicPolicy::depart(Counters& c, const Departure& d) {
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
