// reverie (reverie-nsdi24 §3): one shared pool b* (the lossless PGs' ingress pool; size it
// b - b_h) plus the headroom pool. Lossless packets are accounted once, in their ingress
// (s, p) queue; lossy ones once, in their egress (d, p) queue. Threshold (Eq. 6):
// Gamma_p = alpha_p / n_p * (b* - q*). Admission (Eq. 4) compares the low-pass-filtered
// length q_hat (Eq. 5, block Ewma) with Gamma: a lossy packet failing it is dropped, a
// lossless one pauses its queue and goes to headroom; XON once headroom is empty and
// q_hat + xon_offset <= Gamma again.
#include "admission/congestion.h"
#include "admission/ewma.h"
#include "admission/policy.h"

namespace mmusim::admission {
namespace {

class ReveriePolicy : public Policy {
 public:
  explicit ReveriePolicy(const CoreConfig& cfg)
      : Policy(cfg), m_ewma_in(cfg.ewma), m_ewma_eg(cfg.ewma), m_n(cfg.congestion) {
    config_changed();
    reset();
  }

  void config_changed() override {
    // The one shared pool: that of the first lossless PG (or of PG 0 without lossless).
    m_pool = -1;
    for (size_t i = 0; i < m_cfg.lossless.size() && m_pool < 0; ++i)
      if (m_cfg.lossless[i]) m_pool = m_cfg.ingress_profiles[m_cfg.pg_profile[i]].pool;
    if (m_pool < 0) m_pool = m_cfg.ingress_profiles[m_cfg.pg_profile[0]].pool;
  }

  void reset() override {
    const size_t n = size_t(m_cfg.ports) * m_cfg.prios;
    m_ewma_in.reset(n);
    m_ewma_eg.reset(n);
    m_n.reset(m_cfg.prios);
  }

  void save(ArchState& s) const override {
    s.avg_in = m_ewma_in.avg();
    s.avg_eg = m_ewma_eg.avg();
    s.n_p = m_n.counts();
  }
  void load(const ArchState& s) override {
    m_ewma_in.load(s.avg_in);
    m_ewma_eg.load(s.avg_eg);
    m_n.load(s.n_p);
  }
  const std::vector<uint64_t>& congestion() const override { return m_n.counts(); }

  uint64_t ingress_threshold(const Counters& c, uint32_t port, uint32_t prio) const override {
    return gamma(c, pg(port, prio).th, prio);
  }
  uint64_t egress_threshold(const Counters& c, uint32_t port, uint32_t q) const override {
    return gamma(c, queue(port, q).th, q);
  }

  Result admit(Counters& c, const Request& r) override {
    Result res;
    const bool ll = lossless(r.in_port, r.prio);
    // The queue this packet is accounted in: ingress (s, PG) if lossless, egress (d, queue) if lossy.
    const uint8_t k = ll ? r.prio : r.egress_queue();
    const size_t qi = c.idx(ll ? r.in_port : r.out_port, k);
    const uint64_t reserved = ll ? pg(r.in_port, r.prio).reserved_cells : queue(r.out_port, k).reserved_cells;
    uint64_t& q = ll ? c.q[qi].ing : c.q[qi].egr;
    Ewma& f = ll ? m_ewma_in : m_ewma_eg;
    f.on_arrival(qi, shared_part(q, reserved), r.cycle);

    const uint64_t grow = shared_part(q + r.cells, reserved) - shared_part(q, reserved);
    const uint64_t gamma_cells = ll ? ingress_threshold(c, r.in_port, r.prio) : egress_threshold(c, r.out_port, k);
    // Eq. 4 in fixed point: q_hat <= Gamma.
    const bool fits = q + r.cells <= reserved ||
                      ((unsigned __int128)f.avg_fx(qi) <= ((unsigned __int128)gamma_cells << m_cfg.ewma.frac_bits) &&
                       c.pool_used[m_pool] + grow <= m_cfg.pool_cells[m_pool]);
    bool to_headroom = false;
    if (ll) {
      const auto& ip = pg(r.in_port, r.prio);
      if (c.q[qi].paused) {
        to_headroom = true;
      } else if (!fits) {
        c.q[qi].paused = 1;
        res.pfc = PfcEvent::kXoff;
        to_headroom = true;
      }
      if (to_headroom && (c.q[qi].hdrm + r.cells > ip.xoff_cells ||
                          c.hdrm_pool_used + r.cells > m_cfg.headroom_pool_cells)) {
        res.reason = DropReason::kHeadroom;
        return res;
      }
    } else if (!fits) {
      res.reason = DropReason::kEgress;
      return res;
    }
    if (c.total + r.cells > m_cfg.buffer_cells) {
      res.reason = DropReason::kBuffer;
      return res;
    }
    const uint64_t before = q + (ll ? c.q[qi].hdrm : 0);
    if (to_headroom) {
      c.add(c.q[qi].hdrm, r.cells, "ingress headroom");
      c.add(c.hdrm_pool_used, r.cells, "headroom pool");
    } else {
      c.add(q, r.cells, ll ? "ingress queue" : "egress queue");
      c.add(c.pool_used[m_pool], grow, "shared pool");
    }
    c.add(c.total, r.cells, "buffer");
    m_n.update(k, before, q + (ll ? c.q[qi].hdrm : 0));
    res.verdict = to_headroom ? Verdict::kAdmitHeadroom : Verdict::kAdmitShared;
    return res;
  }

  PfcUpdate depart(Counters& c, const Departure& d) override {
    const bool ll = lossless(d.in_port, d.prio);
    const uint8_t k = ll ? d.prio : d.egress_queue();
    const size_t qi = c.idx(ll ? d.in_port : d.out_port, k);
    const uint64_t reserved = ll ? pg(d.in_port, d.prio).reserved_cells : queue(d.out_port, k).reserved_cells;
    uint64_t& q = ll ? c.q[qi].ing : c.q[qi].egr;
    const uint64_t before = q + (ll ? c.q[qi].hdrm : 0);
    const uint64_t s_before = shared_part(q, reserved);
    // Headroom drains first, then the shared part.
    const uint64_t from_hdrm = ll ? (d.cells < c.q[qi].hdrm ? d.cells : c.q[qi].hdrm) : 0;
    const uint64_t from_q = d.cells - from_hdrm;
    if (from_q > q) throw CounterError(ll ? "counter underflow: ingress queue" : "counter underflow: egress queue");
    const uint64_t shrink = s_before - shared_part(q - from_q, reserved);
    c.sub(c.q[qi].hdrm, from_hdrm, "ingress headroom");
    c.sub(c.hdrm_pool_used, from_hdrm, "headroom pool");
    c.sub(q, from_q, ll ? "ingress queue" : "egress queue");
    c.sub(c.pool_used[m_pool], shrink, "shared pool");
    c.sub(c.total, d.cells, "buffer");
    m_n.update(k, before, q + (ll ? c.q[qi].hdrm : 0));
    (ll ? m_ewma_in : m_ewma_eg).on_departure(qi, s_before, shared_part(q, reserved), d.cycle);

    PfcUpdate u;
    if (ll && c.q[qi].paused && c.q[qi].hdrm == 0) {
      const auto& ip = pg(d.in_port, d.prio);
      const uint64_t s = shared_part(q, reserved);
      const uint64_t g = ingress_threshold(c, d.in_port, d.prio);
      const uint64_t avg = m_ewma_in.avg_cells(qi);
      if (q == 0 || s < ip.xon_cells || avg + ip.xon_offset_cells <= g) {
        c.q[qi].paused = 0;
        u.pfc = PfcEvent::kXon;
      }
    }
    return u;
  }

  uint64_t compared_ingress_cells(const Counters& c, uint32_t port, uint32_t prio) const override {
    return m_ewma_in.avg_cells(c.idx(port, prio));
  }
  const Ewma& ewma_ingress() const { return m_ewma_in; }

 private:
  // Eq. 6: alpha_p / n_p * (b* - q*), alpha_p = 2^dynamic_th of the queue's profile.
  uint64_t gamma(const Counters& c, const Threshold& th, uint32_t prio) const {
    if (!th.dynamic) return th.static_cells;
    const uint64_t dt = dt_threshold(c, th, uint16_t(m_pool));
    const uint64_t n = m_tb ? CongestionCount::at_least_one(m_tb->n(prio)) : m_n.n_fx(prio);
    return divide_np(dt, n, CongestionCount::kFrac);
  }

  int m_pool = -1;
  Ewma m_ewma_in, m_ewma_eg;
  CongestionCount m_n;
};

}  // namespace

std::unique_ptr<Policy> make_reverie(const CoreConfig& cfg) { return std::make_unique<ReveriePolicy>(cfg); }

}  // namespace mmusim::admission
