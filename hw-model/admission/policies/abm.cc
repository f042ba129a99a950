// abm: Active Buffer Management (reverie-nsdi24 §2.3, §4.1) in the SONiC model:
// Gamma = alpha_p / n_p * (pool size - occupancy) * (mu_q / mu_port), for ingress and
// egress queues alike (Reverie's evaluation extends it to lossless this way). n_p counts
// the congested queues of the priority on the same side; mu_q / mu_port is the queue's
// drain rate over the previous measurement interval relative to its port's line rate.
#include <algorithm>

#include "admission/congestion.h"
#include "admission/policies/sonic.h"

namespace mmusim::admission {
namespace {

class AbmPolicy : public SonicPolicy {
 public:
  static constexpr int kRateFrac = 8;  // drain-rate ratio in 1/256ths

  explicit AbmPolicy(const CoreConfig& cfg)
      : SonicPolicy(cfg), m_n{CongestionCount(cfg.congestion), CongestionCount(cfg.congestion)} {
    reset();
  }

  void reset() override {
    const size_t n = size_t(m_cfg.ports) * m_cfg.prios;
    for (int side = 0; side < 2; ++side) {
      m_n[side].reset(m_cfg.prios);
      m_cur[side].assign(n, 0);
      m_last[side].assign(n, 0);
      m_interval[side].assign(n, 0);
    }
  }

  Result admit(Counters& c, const Request& r) override {
    const size_t ii = c.idx(r.in_port, r.prio), ei = c.idx(r.out_port, r.egress_queue());
    roll(0, ii, r.cycle);
    roll(1, ei, r.cycle);
    const uint64_t qi = c.ing[ii] + c.hdrm[ii], qe = c.egr[ei];
    Result res = SonicPolicy::admit(c, r);
    m_n[0].update(r.prio, qi, c.ing[ii] + c.hdrm[ii]);
    m_n[1].update(r.egress_queue(), qe, c.egr[ei]);
    return res;
  }

  PfcUpdate depart(Counters& c, const Departure& d) override {
    const size_t ii = c.idx(d.in_port, d.prio), ei = c.idx(d.out_port, d.egress_queue());
    roll(0, ii, d.cycle);
    roll(1, ei, d.cycle);
    m_cur[0][ii] += d.cells;
    m_cur[1][ei] += d.cells;
    const uint64_t qi = c.ing[ii] + c.hdrm[ii], qe = c.egr[ei];
    // n_p after the departure, as the XON test below sees the pool after it too.
    if (d.cells > qi || d.cells > qe) return SonicPolicy::depart(c, d);  // throws CounterError
    m_n[0].update(d.prio, qi, qi - d.cells);
    m_n[1].update(d.egress_queue(), qe, qe - d.cells);
    return SonicPolicy::depart(c, d);
  }

 protected:
  uint64_t threshold(const Counters& c, const Threshold& th, uint16_t pool, bool ingress, size_t q,
                     uint32_t prio) const override {
    if (!th.dynamic) return th.static_cells;
    const int side = ingress ? 0 : 1;
    const uint64_t dt = dt_threshold(c, th, pool);
    const uint64_t per_queue = divide_fx(dt, m_n[side].n_fx(prio), CongestionCount::kFrac);
    return uint64_t(((unsigned __int128)per_queue * drain_ratio(side, q)) >> kRateFrac);
  }

 private:
  // Start a new measurement interval if `cycle` is past the queue's current one.
  void roll(int side, size_t q, uint64_t cycle) {
    const uint64_t k = cycle / m_cfg.abm.interval_cycles;
    if (k == m_interval[side][q]) return;
    m_last[side][q] = k == m_interval[side][q] + 1 ? m_cur[side][q] : 0;
    m_cur[side][q] = 0;
    m_interval[side][q] = k;
  }
  // mu_q / mu_port in 1/256ths; a queue that sent nothing last interval counts as full
  // rate (new or paused queues are not starved of buffer).
  uint64_t drain_ratio(int side, size_t q) const {
    const uint64_t one = uint64_t(1) << kRateFrac;
    const uint64_t sent = m_last[side][q];
    const uint64_t cap = m_cfg.abm.port_cells_per_interval[q / m_cfg.prios];
    if (sent == 0 || cap == 0) return one;
    return std::min(one, (sent << kRateFrac) / cap);
  }

  CongestionCount m_n[2];  // [ingress, egress]
  std::vector<uint64_t> m_cur[2], m_last[2], m_interval[2];
};

}  // namespace

std::unique_ptr<Policy> make_abm(const CoreConfig& cfg) { return std::make_unique<AbmPolicy>(cfg); }

}  // namespace mmusim::admission
