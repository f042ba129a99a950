#include "admission/admission_core.h"

#include <string>

namespace mmusim::admission {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::kAdmitShared: return "admit_shared";
    case Verdict::kAdmitHeadroom: return "admit_headroom";
    case Verdict::kDrop: return "drop";
  }
  return "?";
}

const char* to_string(PfcEvent e) {
  switch (e) {
    case PfcEvent::kNone: return "none";
    case PfcEvent::kXoff: return "xoff";
    case PfcEvent::kXon: return "xon";
  }
  return "?";
}

const char* to_string(DropReason r) {
  switch (r) {
    case DropReason::kNone: return "none";
    case DropReason::kIngress: return "ingress_threshold";
    case DropReason::kEgress: return "egress_threshold";
    case DropReason::kHeadroom: return "headroom_full";
    case DropReason::kBuffer: return "buffer_full";
  }
  return "?";
}

uint64_t CoreConfig::counter_max() const {
  return counter_bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << counter_bits) - 1;
}

void CoreConfig::validate() const {
  auto fail = [](const std::string& what) { throw std::invalid_argument(what); };
  if (ports == 0) fail("ports must be > 0");
  if (prios == 0 || prios > 8) fail("prios must be 1..8");
  if (counter_bits < 8 || counter_bits > 64) fail("counter_bits must be 8..64");
  if (buffer_cells == 0) fail("buffer_cells must be > 0");
  if (buffer_cells > counter_max()) fail("buffer_cells does not fit counter_bits");
  for (size_t i = 0; i < pool_cells.size(); ++i)
    if (pool_cells[i] > buffer_cells) fail("pool " + std::to_string(i) + " larger than the buffer");
  if (headroom_pool_cells > buffer_cells) fail("headroom pool larger than the buffer");
  const size_t n = size_t(ports) * prios;
  if (pg_profile.size() != n || queue_profile.size() != n || lossless.size() != n)
    fail("per-queue tables must have ports*prios entries");
  for (auto& p : ingress_profiles) {
    if (p.pool >= pool_cells.size()) fail("ingress profile names a missing pool");
    if (p.th.shift < -15 || p.th.shift > 15) fail("dynamic_th out of range");
  }
  for (auto& p : egress_profiles) {
    if (p.pool >= pool_cells.size()) fail("egress profile names a missing pool");
    if (p.th.shift < -15 || p.th.shift > 15) fail("dynamic_th out of range");
  }
  for (size_t i = 0; i < n; ++i) {
    if (pg_profile[i] >= ingress_profiles.size()) fail("pg_profile index out of range");
    if (queue_profile[i] >= egress_profiles.size()) fail("queue_profile index out of range");
  }
}

AdmissionCore::AdmissionCore(CoreConfig cfg) : m_cfg(std::move(cfg)) {
  m_cfg.validate();
  reset();
}

void AdmissionCore::reset() {
  const size_t n = size_t(m_cfg.ports) * m_cfg.prios;
  m_ing.assign(n, 0);
  m_hdrm.assign(n, 0);
  m_egr.assign(n, 0);
  m_paused.assign(n, 0);
  m_pool_used.assign(m_cfg.pool_cells.size(), 0);
  m_hdrm_pool_used = 0;
  m_total = 0;
}

uint64_t AdmissionCore::threshold_of(const Threshold& th, uint16_t pool) const {
  if (!th.dynamic) return th.static_cells;
  const uint64_t size = m_cfg.pool_cells[pool];
  const uint64_t used = m_pool_used[pool];
  // Occupancy above the pool size can only follow a run-time resize: no space left.
  const uint64_t free = used >= size ? 0 : size - used;
  if (th.shift < 0) return free >> -th.shift;
  const uint64_t max = m_cfg.counter_max();
  // Saturate like the RTL's shifter instead of wrapping.
  if (free > (max >> th.shift)) return max;
  return free << th.shift;
}

uint64_t AdmissionCore::ingress_threshold(uint32_t port, uint32_t prio) const {
  const auto& p = m_cfg.ingress_profiles[m_cfg.pg_profile[idx(port, prio)]];
  return threshold_of(p.th, p.pool);
}

uint64_t AdmissionCore::egress_threshold(uint32_t port, uint32_t q) const {
  const auto& p = m_cfg.egress_profiles[m_cfg.queue_profile[idx(port, q)]];
  return threshold_of(p.th, p.pool);
}

bool AdmissionCore::over_threshold(uint64_t q, uint32_t n, uint64_t reserved,
                                   const Threshold& th, uint16_t pool) const {
  if (q + n <= reserved) return false;  // fits in the queue's private buffer
  const uint64_t s = shared_part(q, reserved);
  const uint64_t grow = shared_part(q + n, reserved) - s;
  if (m_pool_used[pool] + grow > m_cfg.pool_cells[pool]) return true;
  return s >= threshold_of(th, pool);  // "equals or exceeds" (§2.2.1)
}

void AdmissionCore::add(uint64_t& c, uint64_t n, const char* what) {
  if (n > m_cfg.counter_max() - c)
    throw CounterError(std::string("counter overflow: ") + what);
  c += n;
}

void AdmissionCore::sub(uint64_t& c, uint64_t n, const char* what) {
  if (n > c) throw CounterError(std::string("counter underflow: ") + what);
  c -= n;
}

Result AdmissionCore::admit(const Request& r) {
  if (r.in_port >= m_cfg.ports || r.out_port >= m_cfg.ports || r.prio >= m_cfg.prios)
    throw std::out_of_range("admission request names a port or priority out of range");
  Result res;
  const size_t ii = idx(r.in_port, r.prio);
  const size_t ei = idx(r.out_port, r.prio);
  const auto& ip = m_cfg.ingress_profiles[m_cfg.pg_profile[ii]];
  const auto& ep = m_cfg.egress_profiles[m_cfg.queue_profile[ei]];
  const bool lossless = m_cfg.lossless[ii] != 0;

  bool to_headroom = false;
  if (lossless) {
    if (m_paused[ii]) {
      to_headroom = true;
    } else if (over_threshold(m_ing[ii], r.cells, ip.reserved_cells, ip.th, ip.pool)) {
      m_paused[ii] = 1;
      res.pfc = PfcEvent::kXoff;
      to_headroom = true;
    }
    if (to_headroom && (m_hdrm[ii] + r.cells > ip.xoff_cells ||
                        m_hdrm_pool_used + r.cells > m_cfg.headroom_pool_cells)) {
      res.reason = DropReason::kHeadroom;
      return res;
    }
  } else if (over_threshold(m_ing[ii], r.cells, ip.reserved_cells, ip.th, ip.pool)) {
    res.reason = DropReason::kIngress;
    return res;
  }
  if (over_threshold(m_egr[ei], r.cells, ep.reserved_cells, ep.th, ep.pool)) {
    res.reason = DropReason::kEgress;
    return res;
  }
  if (m_total + r.cells > m_cfg.buffer_cells) {
    res.reason = DropReason::kBuffer;
    return res;
  }

  if (to_headroom) {
    add(m_hdrm[ii], r.cells, "ingress headroom");
    add(m_hdrm_pool_used, r.cells, "headroom pool");
    res.verdict = Verdict::kAdmitHeadroom;
  } else {
    const uint64_t grow = shared_part(m_ing[ii] + r.cells, ip.reserved_cells) -
                          shared_part(m_ing[ii], ip.reserved_cells);
    add(m_ing[ii], r.cells, "ingress queue");
    add(m_pool_used[ip.pool], grow, "ingress pool");
    res.verdict = Verdict::kAdmitShared;
  }
  const uint64_t egrow = shared_part(m_egr[ei] + r.cells, ep.reserved_cells) -
                         shared_part(m_egr[ei], ep.reserved_cells);
  add(m_egr[ei], r.cells, "egress queue");
  add(m_pool_used[ep.pool], egrow, "egress pool");
  add(m_total, r.cells, "buffer");
  return res;
}

PfcEvent AdmissionCore::depart(const Departure& d) {
  if (d.in_port >= m_cfg.ports || d.out_port >= m_cfg.ports || d.prio >= m_cfg.prios)
    throw std::out_of_range("departure names a port or priority out of range");
  const size_t ii = idx(d.in_port, d.prio);
  const size_t ei = idx(d.out_port, d.prio);
  const auto& ip = m_cfg.ingress_profiles[m_cfg.pg_profile[ii]];
  const auto& ep = m_cfg.egress_profiles[m_cfg.queue_profile[ei]];

  const uint64_t from_hdrm = d.cells < m_hdrm[ii] ? d.cells : m_hdrm[ii];
  const uint64_t from_ing = d.cells - from_hdrm;
  if (from_ing > m_ing[ii]) throw CounterError("counter underflow: ingress queue");
  const uint64_t shrink = shared_part(m_ing[ii], ip.reserved_cells) -
                          shared_part(m_ing[ii] - from_ing, ip.reserved_cells);
  sub(m_hdrm[ii], from_hdrm, "ingress headroom");
  sub(m_hdrm_pool_used, from_hdrm, "headroom pool");
  sub(m_ing[ii], from_ing, "ingress queue");
  sub(m_pool_used[ip.pool], shrink, "ingress pool");

  if (d.cells > m_egr[ei]) throw CounterError("counter underflow: egress queue");
  const uint64_t eshrink = shared_part(m_egr[ei], ep.reserved_cells) -
                           shared_part(m_egr[ei] - d.cells, ep.reserved_cells);
  sub(m_egr[ei], d.cells, "egress queue");
  sub(m_pool_used[ep.pool], eshrink, "egress pool");
  sub(m_total, d.cells, "buffer");

  if (!m_paused[ii] || m_hdrm[ii] != 0) return PfcEvent::kNone;
  const uint64_t s = shared_part(m_ing[ii], ip.reserved_cells);
  // An empty queue always resumes: nothing would dequeue to re-check it later.
  const bool resume = m_ing[ii] == 0 || s < ip.xon_cells ||
                      s + ip.xon_offset_cells <= threshold_of(ip.th, ip.pool);
  if (!resume) return PfcEvent::kNone;
  m_paused[ii] = 0;
  return PfcEvent::kXon;
}

}  // namespace mmusim::admission
