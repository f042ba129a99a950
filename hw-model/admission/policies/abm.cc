// abm: Active Buffer Management (reverie-nsdi24 §2.3, §4.1) in the SONiC model:
// Gamma = alpha_p / n_p * (pool size - occupancy) * (mu_q / mu_port), for ingress and
// egress queues alike (Reverie's evaluation extends it to lossless this way). n_p counts
// the congested queues of the priority on the same side; mu_q / mu_port is the queue's
// drain rate over the previous measurement interval relative to its port's line rate. n_p
// is read from the threshold calculator's registers (as reverie's: rtl/mmu_adm_thresh.sv
// registers both sides' every THRESH_PERIOD cycles), so the threshold waits for no
// operation in flight; live with zero-latency thresholds. Bit-exact with rtl/mmu_pol_abm.sv and its drain-rate state rtl/mmu_adm_rate.sv: the
// interval number is a bit slice of the cycle, each queue keeps a 12-bit interval tag,
// the ratio follows recip::drain_ratio and the division by n_p recip::divide.
#include "admission/congestion.h"
#include "admission/policies/sonic.h"
#include "admission/recip.h"

namespace mmusim::admission {
namespace {

class AbmPolicy : public SonicPolicy {
 public:
  static constexpr int kTagBits = 12;  // interval tags, mod 2^12 (the RTL's TW)

  explicit AbmPolicy(const CoreConfig& cfg) : SonicPolicy(cfg), m_n(cfg.congestion) { reset(); }

  void reset() override {
    const size_t n = size_t(m_cfg.ports) * m_cfg.prios;
    m_n.reset(2 * m_cfg.prios);
    for (int side = 0; side < 2; ++side) {
      m_cur[side].assign(n, 0);
      m_last[side].assign(n, 0);
      m_tag[side].assign(n, 0);
    }
  }

  void save(ArchState& s) const override {
    s.abm_cur_in = m_cur[0];
    s.abm_last_in = m_last[0];
    s.abm_tag_in = m_tag[0];
    s.abm_cur_eg = m_cur[1];
    s.abm_last_eg = m_last[1];
    s.abm_tag_eg = m_tag[1];
    const auto& n = m_n.counts();
    s.abm_n_in.assign(n.begin(), n.begin() + m_cfg.prios);
    s.abm_n_eg.assign(n.begin() + m_cfg.prios, n.end());
  }
  void load(const ArchState& s) override {
    const size_t n = size_t(m_cfg.ports) * m_cfg.prios;
    for (const auto* v : {&s.abm_cur_in, &s.abm_last_in, &s.abm_tag_in, &s.abm_cur_eg, &s.abm_last_eg, &s.abm_tag_eg})
      if (v->size() != n) throw std::invalid_argument("abm state: wrong number of queues");
    m_cur[0] = s.abm_cur_in;
    m_last[0] = s.abm_last_in;
    m_tag[0] = s.abm_tag_in;
    m_cur[1] = s.abm_cur_eg;
    m_last[1] = s.abm_last_eg;
    m_tag[1] = s.abm_tag_eg;
    if (s.abm_n_in.size() != m_cfg.prios || s.abm_n_eg.size() != m_cfg.prios)
      throw std::invalid_argument("n_p state: wrong number of priorities");
    std::vector<uint64_t> np(s.abm_n_in);
    np.insert(np.end(), s.abm_n_eg.begin(), s.abm_n_eg.end());
    m_n.load(np);
  }

  const std::vector<uint64_t>& congestion() const override { return m_n.counts(); }

  Result admit(Counters& c, const Request& r) override {
    const size_t ii = c.idx(r.in_port, r.prio), ei = c.idx(r.out_port, r.egress_queue());
    roll(0, ii, r.cycle);
    roll(1, ei, r.cycle);
    const uint64_t qi = c.q[ii].ing + c.q[ii].hdrm, qe = c.q[ei].egr;
    Result res = SonicPolicy::admit(c, r);
    m_n.update(r.prio, qi, c.q[ii].ing + c.q[ii].hdrm);
    m_n.update(m_cfg.prios + r.egress_queue(), qe, c.q[ei].egr);
    return res;
  }

  PfcUpdate depart(Counters& c, const Departure& d) override {
    const size_t ii = c.idx(d.in_port, d.prio), ei = c.idx(d.out_port, d.egress_queue());
    const uint64_t qi = c.q[ii].ing + c.q[ii].hdrm, qe = c.q[ei].egr;
    if (d.cells > qi || d.cells > qe) return SonicPolicy::depart(c, d);  // throws CounterError
    roll(0, ii, d.cycle);
    roll(1, ei, d.cycle);
    sent(0, ii, d.cells);
    sent(1, ei, d.cells);
    m_n.update(d.prio, qi, qi - d.cells);
    m_n.update(m_cfg.prios + d.egress_queue(), qe, qe - d.cells);
    return SonicPolicy::depart(c, d);
  }

 protected:
  uint64_t threshold(const Counters& c, const Threshold& th, uint16_t pool, bool ingress, size_t q,
                     uint32_t prio) const override {
    if (!th.dynamic) return th.static_cells;
    const int side = ingress ? 0 : 1;
    const uint32_t k = side * m_cfg.prios + prio;
    const uint64_t n = m_tb ? CongestionCount::at_least_one(m_tb->n(k)) : m_n.n_fx(k);
    const uint64_t per_queue = divide_np(dt_threshold(c, th, pool), n, CongestionCount::kFrac);
    const size_t port = q / m_cfg.prios;
    const auto& caps = m_cfg.abm.port_cells_per_interval;
    const uint64_t ratio = recip::drain_ratio(m_last[side][q], port < caps.size() ? caps[port] : 0);
    return (per_queue * ratio) >> recip::kRateFrac;  // per_queue < 2^32, ratio <= 2^8
  }

 private:
  // Start a new measurement interval if `cycle` is past the queue's current one: the
  // interval number mod 2^kTagBits against the queue's tag (one interval on: the count
  // becomes the last interval's; more: the queue sent nothing then).
  void roll(int side, size_t q, uint64_t cycle) {
    const uint64_t mask = (uint64_t(1) << kTagBits) - 1;
    const uint64_t k = (cycle >> m_cfg.abm.interval_log2) & mask;
    if (k == m_tag[side][q]) return;
    m_last[side][q] = k == ((m_tag[side][q] + 1) & mask) ? m_cur[side][q] : 0;
    m_cur[side][q] = 0;
    m_tag[side][q] = k;
  }
  // Cells sent this interval, saturating at the counter width (the ratio saturates at
  // the port's capacity, which the counter width holds).
  void sent(int side, size_t q, uint64_t cells) {
    const uint64_t max = m_cfg.counter_max();
    m_cur[side][q] = cells > max - m_cur[side][q] ? max : m_cur[side][q] + cells;
  }

  CongestionCount m_n;  // the ingress priorities' n_p, then the egress queues'
  std::vector<uint64_t> m_cur[2], m_last[2], m_tag[2];
};

}  // namespace

std::unique_ptr<Policy> make_abm(const CoreConfig& cfg) { return std::make_unique<AbmPolicy>(cfg); }

}  // namespace mmusim::admission
