#include "admission/policy.h"

#include "admission/recip.h"

namespace mmusim::admission {

uint64_t Policy::divide_np(uint64_t v, uint64_t n_fx, int frac) const {
  if (m_cfg.congestion.kind != CongestionRule::Kind::kThreshold || !rtl_width(m_cfg))
    return divide_fx(v, n_fx, frac);
  return m_np_div(v, n_fx >> frac);
}

bool Policy::may_resume(const Counters& c, uint32_t port, uint32_t prio, uint64_t threshold) const {
  const size_t ii = c.idx(port, prio);
  if (c.q[ii].hdrm != 0) return false;
  const auto& ip = pg(port, prio);
  const uint64_t s = shared_part(c.q[ii].ing, ip.reserved_cells);
  // An empty queue always resumes: nothing would dequeue to re-check it later.
  return c.q[ii].ing == 0 || s < ip.xon_cells || s + ip.xon_offset_cells <= threshold;
}

}  // namespace mmusim::admission
