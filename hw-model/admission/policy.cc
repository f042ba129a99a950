#include "admission/policy.h"

#include "admission/recip.h"

namespace mmusim::admission {

uint64_t Policy::scale(uint64_t v, int8_t shift) const {
  if (shift < 0) return v >> -shift;
  const uint64_t max = m_cfg.counter_max();
  if (v > (max >> shift)) return max;  // saturate as the RTL's shifter does
  return v << shift;
}

uint64_t Policy::divide_np(uint64_t v, uint64_t n_fx, int frac) const {
  if (m_cfg.congestion.kind != CongestionRule::Kind::kThreshold || m_cfg.counter_bits > 32)
    return divide_fx(v, n_fx, frac);
  return recip::divide(v, n_fx >> frac, int(m_cfg.counter_bits), recip::index_bits(2 * uint64_t(m_cfg.ports)));
}

uint64_t Policy::dt_threshold(const Counters& c, const Threshold& th, uint16_t pool) const {
  if (!th.dynamic) return th.static_cells;
  const uint64_t size = m_cfg.pool_cells[pool], used = threshold_pool_used(c, pool);
  // Occupancy above the size can only follow a run-time resize: no space left.
  return scale(used >= size ? 0 : size - used, th.shift);
}

bool Policy::over(const Counters&, uint64_t q, uint32_t n, uint64_t reserved, uint64_t th_cells,
                  uint64_t pool_size, uint64_t pool_used) {
  if (q + n <= reserved) return false;  // fits in the queue's private buffer
  const uint64_t s = shared_part(q, reserved);
  const uint64_t grow = shared_part(q + n, reserved) - s;
  if (pool_used + grow > pool_size) return true;
  return s >= th_cells;  // "equals or exceeds" (reverie §2.2.1)
}

void Policy::charge(Counters& c, const Request& r, bool to_headroom) const {
  const size_t ii = c.idx(r.in_port, r.prio), ei = c.idx(r.out_port, r.egress_queue());
  const auto& ip = pg(r.in_port, r.prio);
  const auto& ep = queue(r.out_port, r.egress_queue());
  if (to_headroom) {
    c.add(c.hdrm[ii], r.cells, "ingress headroom");
    c.add(c.hdrm_pool_used, r.cells, "headroom pool");
  } else {
    const uint64_t grow = shared_part(c.ing[ii] + r.cells, ip.reserved_cells) - shared_part(c.ing[ii], ip.reserved_cells);
    c.add(c.ing[ii], r.cells, "ingress queue");
    c.add(c.pool_used[ip.pool], grow, "ingress pool");
  }
  const uint64_t egrow = shared_part(c.egr[ei] + r.cells, ep.reserved_cells) - shared_part(c.egr[ei], ep.reserved_cells);
  c.add(c.egr[ei], r.cells, "egress queue");
  c.add(c.pool_used[ep.pool], egrow, "egress pool");
  c.add(c.total, r.cells, "buffer");
}

uint64_t Policy::refund(Counters& c, const Departure& d) const {
  const size_t ii = c.idx(d.in_port, d.prio), ei = c.idx(d.out_port, d.egress_queue());
  const auto& ip = pg(d.in_port, d.prio);
  const auto& ep = queue(d.out_port, d.egress_queue());
  const uint64_t from_hdrm = d.cells < c.hdrm[ii] ? d.cells : c.hdrm[ii];
  const uint64_t from_ing = d.cells - from_hdrm;
  if (from_ing > c.ing[ii]) throw CounterError("counter underflow: ingress queue");
  const uint64_t shrink = shared_part(c.ing[ii], ip.reserved_cells) - shared_part(c.ing[ii] - from_ing, ip.reserved_cells);
  c.sub(c.hdrm[ii], from_hdrm, "ingress headroom");
  c.sub(c.hdrm_pool_used, from_hdrm, "headroom pool");
  c.sub(c.ing[ii], from_ing, "ingress queue");
  c.sub(c.pool_used[ip.pool], shrink, "ingress pool");
  if (d.cells > c.egr[ei]) throw CounterError("counter underflow: egress queue");
  const uint64_t eshrink = shared_part(c.egr[ei], ep.reserved_cells) - shared_part(c.egr[ei] - d.cells, ep.reserved_cells);
  c.sub(c.egr[ei], d.cells, "egress queue");
  c.sub(c.pool_used[ep.pool], eshrink, "egress pool");
  c.sub(c.total, d.cells, "buffer");
  return from_hdrm;
}

bool Policy::may_resume(const Counters& c, uint32_t port, uint32_t prio, uint64_t threshold) const {
  const size_t ii = c.idx(port, prio);
  if (c.hdrm[ii] != 0) return false;
  const auto& ip = pg(port, prio);
  const uint64_t s = shared_part(c.ing[ii], ip.reserved_cells);
  // An empty queue always resumes: nothing would dequeue to re-check it later.
  return c.ing[ii] == 0 || s < ip.xon_cells || s + ip.xon_offset_cells <= threshold;
}

}  // namespace mmusim::admission
