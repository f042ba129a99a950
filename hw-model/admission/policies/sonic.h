#pragma once
// The SONiC buffer model (reverie-nsdi24 §2.2): ingress and egress admission over pools,
// lossless PGs paused into headroom. Subclasses change only the thresholds.
#include "admission/policy.h"

namespace mmusim::admission {

// Pipe 3's records of the previous decide cycle (admission_core.h, "Pipe 3"): what its
// request's and release's tests need of them. An absent operation is zeros, no queue.
struct PrevCycle {
  static constexpr size_t kNoQueue = ~size_t(0);
  // Q: the request admitted in it (not one dropped).
  struct Admitted {
    size_t ii = kNoQueue, ei = kNoQueue;  // ingress and egress queue indices
    uint32_t cells = 0;
    Verdict verdict = Verdict::kDrop;
    std::vector<uint64_t> charge;  // per pool: its exact charge (growth past the reserve)
    std::vector<uint64_t> bound;   // per pool: its cells in each pool it charges (rule 3)
  } q;
  // R: the release decided in it.
  struct Released {
    size_t ii = kNoQueue, ei = kNoQueue;
    uint32_t in_port = ~uint32_t(0);  // its ingress port (dsh's port counters), none when absent
    uint64_t cells = 0, from_hdrm = 0, from_ing = 0;
    std::vector<uint64_t> refund;  // per pool: its exact refund
  } r;

  void size(size_t pools) {
    q.charge.assign(pools, 0);
    q.bound.assign(pools, 0);
    r.refund.assign(pools, 0);
  }
  void clear_q() {
    q.ii = q.ei = kNoQueue;
    q.cells = 0;
    q.verdict = Verdict::kDrop;
    std::fill(q.charge.begin(), q.charge.end(), 0);
    std::fill(q.bound.begin(), q.bound.end(), 0);
  }
  void clear_r() {
    r.ii = r.ei = kNoQueue;
    r.in_port = ~uint32_t(0);
    r.cells = r.from_hdrm = r.from_ing = 0;
    std::fill(r.refund.begin(), r.refund.end(), 0);
  }
  void clear() {
    clear_q();
    clear_r();
  }
};

class SonicPolicy : public Policy {
 public:
  using Policy::Policy;
  // Inline: the core calls them by name, not through the vtable, for a policy that keeps
  // them (plain()), and the compiler may then inline them into the MMU's operations.
  Result admit(Counters& c, const Request& r) override { return admit_as(c, r, Exact{}); }
  PfcUpdate depart(Counters& c, const Departure& d) override;
  // Pipe 3's request (rules 2 and 3): its five tests read View{prev}; the lossless and
  // pause bits, the XOFF and the charges are exact. dsh overrides it for its lossless PGs.
  virtual Result admit_after(Counters& c, const Request& r, const PrevCycle& prev);
  // Admits and departs as this class does (neither is overridden): dt, sih, static.
  bool plain() const { return m_plain; }
  uint64_t ingress_threshold(const Counters& c, uint32_t port, uint32_t prio) const override;
  uint64_t egress_threshold(const Counters& c, uint32_t port, uint32_t q) const override;

 protected:
  // What a request's five tests read of the counters: the counters themselves (pipe 0 and
  // 1), or pipe 3's view: the previous decide cycle's release R not yet refunded, its
  // admitted request Q's pool charges counted at Q's full cells. A template parameter,
  // and admit_as always inlined: pipe 0 and 1's admit keeps the instructions it had.
  struct Exact {
    static uint64_t ing(const Counters& c, size_t ii) { return c.q[ii].ing; }
    static uint64_t hdrm(const Counters& c, size_t ii) { return c.q[ii].hdrm; }
    static uint64_t egr(const Counters& c, size_t ei) { return c.q[ei].egr; }
    static uint64_t pool(const Counters& c, uint16_t p) { return c.pool_used[p]; }
    static uint64_t hdrm_pool(const Counters& c) { return c.hdrm_pool_used; }
    static uint64_t total(const Counters& c) { return c.total; }
  };
  struct View {
    const PrevCycle& p;
    uint64_t ing(const Counters& c, size_t ii) const { return c.q[ii].ing + (p.r.ii == ii ? p.r.from_ing : 0); }
    uint64_t hdrm(const Counters& c, size_t ii) const { return c.q[ii].hdrm + (p.r.ii == ii ? p.r.from_hdrm : 0); }
    uint64_t egr(const Counters& c, size_t ei) const { return c.q[ei].egr + (p.r.ei == ei ? p.r.cells : 0); }
    // pool_used + refund >= Q's charge: the pool before P's operations.
    uint64_t pool(const Counters& c, uint16_t k) const {
      return c.pool_used[k] + p.r.refund[k] - p.q.charge[k] + p.q.bound[k];
    }
    uint64_t hdrm_pool(const Counters& c) const { return c.hdrm_pool_used + p.r.from_hdrm; }
    uint64_t total(const Counters& c) const { return c.total + p.r.cells; }
  };
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

  template <class V>
  [[gnu::always_inline]] Result admit_as(Counters& c, const Request& r, const V& v);
};

template <class V>
inline Result SonicPolicy::admit_as(Counters& c, const Request& r, const V& v) {
  Result res;
  const uint8_t eq = r.egress_queue();
  const size_t ii = c.idx(r.in_port, r.prio), ei = c.idx(r.out_port, eq);
  const auto& ip = m_cfg.ingress_profiles[c.q[ii].pg_profile];
  const auto& ep = m_cfg.egress_profiles[c.q[ei].queue_profile];
  const bool over_in = over(c, v.ing(c, ii), r.cells, ip.reserved_cells, ingress_th(c, ip, r.in_port, r.prio),
                            m_cfg.pool_cells[ip.pool], v.pool(c, ip.pool));
  bool to_headroom = false;
  if (c.q[ii].lossless) {
    if (c.q[ii].paused) {
      to_headroom = true;
    } else if (over_in) {
      c.q[ii].paused = 1;
      res.pfc = PfcEvent::kXoff;
      to_headroom = true;
    }
    if (to_headroom && (v.hdrm(c, ii) + r.cells > ip.xoff_cells || v.hdrm_pool(c) + r.cells > headroom_capacity())) {
      res.reason = DropReason::kHeadroom;
      return res;
    }
  } else if (over_in) {
    res.reason = DropReason::kIngress;
    return res;
  }
  if (over(c, v.egr(c, ei), r.cells, ep.reserved_cells, egress_th(c, ep, r.out_port, eq), m_cfg.pool_cells[ep.pool],
           v.pool(c, ep.pool))) {
    res.reason = DropReason::kEgress;
    return res;
  }
  if (v.total(c) + r.cells > m_cfg.buffer_cells) {
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
