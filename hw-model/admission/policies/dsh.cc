// dsh: Dynamic and Shared Headroom (dsh-icdcs23 §IV). Lossless PGs: one shared segment (the
// PGs' ingress pool, B_s = B - N_p*eta) holds footroom and shared headroom alike, with
// T = alpha * (B_s - shared occupancy) (Eq. 2). Queue level: XOFF when a queue's shared
// occupancy exceeds X_qoff = T - eta (Eq. 5), XON below X_qoff - delta_q (xon_offset);
// paused queues keep filling the shared segment. Port level: XOFF of every priority when the
// port's shared occupancy exceeds X_poff = N_q * T (Eq. 6), N_q its lossless priorities;
// then arrivals go to the port's insurance headroom (eta, Eq. 4); XON once insurance is
// empty and occupancy is below X_poff - delta_p. Lossy traffic follows the SONiC path.
#include <algorithm>

#include "admission/policies/sonic.h"

namespace mmusim::admission {
namespace {

class DshPolicy : public SonicPolicy {
 public:
  explicit DshPolicy(const CoreConfig& cfg) : SonicPolicy(cfg) {
    config_changed();
    reset();
  }

  void config_changed() override {
    m_nq.assign(m_cfg.ports, 0);
    m_insurance.assign(m_cfg.ports, 0);
    for (uint32_t p = 0; p < m_cfg.ports; ++p)
      for (uint32_t q = 0; q < m_cfg.prios; ++q)
        if (lossless(p, q)) {
          ++m_nq[p];
          m_insurance[p] = std::max(m_insurance[p], pg(p, q).xoff_cells);
        }
  }

  void reset() override {
    m_port_shared.assign(m_cfg.ports, 0);
    m_port_ins.assign(m_cfg.ports, 0);
  }

  void save(ArchState& s) const override {
    s.port_shared = m_port_shared;
    s.port_ins = m_port_ins;
  }
  void load(const ArchState& s) override {
    if (s.port_shared.size() != m_cfg.ports || s.port_ins.size() != m_cfg.ports)
      throw std::invalid_argument("dsh port state: wrong number of ports");
    m_port_shared = s.port_shared;
    m_port_ins = s.port_ins;
  }

  uint64_t ingress_threshold(const Counters& c, uint32_t port, uint32_t prio) const override {
    if (!lossless(port, prio)) return SonicPolicy::ingress_threshold(c, port, prio);
    return x_qoff(c, port, prio);
  }

  Result admit(Counters& c, const Request& r) override {
    if (!lossless(r.in_port, r.prio)) return SonicPolicy::admit(c, r);
    return admit_lossless(c, r, Exact{}, 0);
  }

  // Pipe 3 (admission_core.h): the five tests (the shared segment, the port's insurance,
  // the headroom pool, egress, buffer) on the view of the previous decide cycle, whose
  // release R has not yet refunded the port's insurance cells either; the port pause bit,
  // the charges and the XOFF tests exact.
  Result admit_after(Counters& c, const Request& r, const PrevCycle& prev) override {
    if (!lossless(r.in_port, r.prio)) return SonicPolicy::admit_after(c, r, prev);
    return admit_lossless(c, r, View{prev}, prev.r.in_port == r.in_port ? prev.r.from_hdrm : 0);
  }

  PfcUpdate depart(Counters& c, const Departure& d) override {
    if (!lossless(d.in_port, d.prio)) return SonicPolicy::depart(c, d);
    const size_t ii = c.idx(d.in_port, d.prio);
    const auto& ip = pg(d.in_port, d.prio);
    const uint64_t s_before = shared_part(c.q[ii].ing, ip.reserved_cells);
    const uint64_t from_ins = refund(c, d);
    c.sub(m_port_ins[d.in_port], from_ins, "port insurance headroom");
    c.sub(m_port_shared[d.in_port], s_before - shared_part(c.q[ii].ing, ip.reserved_cells), "port shared occupancy");
    PfcUpdate u;
    const uint64_t s = shared_part(c.q[ii].ing, ip.reserved_cells);
    if (c.q[ii].paused && (c.q[ii].ing == 0 || s + ip.xon_offset_cells < x_qoff(c, d.in_port, d.prio))) {
      c.q[ii].paused = 0;
      u.pfc = PfcEvent::kXon;
    }
    if (c.port_paused[d.in_port] && m_port_ins[d.in_port] == 0 &&
        (m_port_shared[d.in_port] == 0 ||
         m_port_shared[d.in_port] + m_cfg.dsh.port_xon_offset_cells < x_poff(c, d.in_port, d.prio))) {
      c.port_paused[d.in_port] = 0;
      u.port_pfc = PfcEvent::kXon;
    }
    return u;
  }

 private:
  // A lossless request: its tests read v (and the port's insurance cells plus ins_back, a
  // refund not yet seen), its charges and transitions the counters.
  template <class V>
  Result admit_lossless(Counters& c, const Request& r, const V& v, uint64_t ins_back) {
    Result res;
    const size_t ii = c.idx(r.in_port, r.prio);
    const auto& ip = pg(r.in_port, r.prio);
    const auto grow_of = [&](uint64_t q) {
      return shared_part(q + r.cells, ip.reserved_cells) - shared_part(q, ip.reserved_cells);
    };
    // Insurance headroom while the port is paused, or if the shared segment is full.
    const bool to_ins = c.port_paused[r.in_port] ||
                        v.pool(c, ip.pool) + grow_of(v.ing(c, ii)) > m_cfg.pool_cells[ip.pool];
    if (to_ins && (m_port_ins[r.in_port] + ins_back + r.cells > m_insurance[r.in_port] ||
                   v.hdrm_pool(c) + r.cells > m_cfg.headroom_pool_cells)) {
      res.reason = DropReason::kHeadroom;
      return res;
    }
    // Egress admission as in the SONiC model (lossless egress thresholds are normally infinite).
    const uint8_t eq = r.egress_queue();
    const size_t ei = c.idx(r.out_port, eq);
    const auto& ep = queue(r.out_port, eq);
    if (over(c, v.egr(c, ei), r.cells, ep.reserved_cells, egress_threshold(c, r.out_port, eq),
             m_cfg.pool_cells[ep.pool], v.pool(c, ep.pool))) {
      res.reason = DropReason::kEgress;
      return res;
    }
    if (v.total(c) + r.cells > m_cfg.buffer_cells) {
      res.reason = DropReason::kBuffer;
      return res;
    }
    const uint64_t grow = grow_of(c.q[ii].ing);
    charge(c, r, to_ins);
    if (to_ins) m_port_ins[r.in_port] += r.cells;
    else m_port_shared[r.in_port] += grow;
    res.verdict = to_ins ? Verdict::kAdmitHeadroom : Verdict::kAdmitShared;
    // State transitions on the occupancy this packet produced.
    if (!c.q[ii].paused && shared_part(c.q[ii].ing, ip.reserved_cells) > x_qoff(c, r.in_port, r.prio)) {
      c.q[ii].paused = 1;
      res.pfc = PfcEvent::kXoff;
    }
    if (!c.port_paused[r.in_port] && (to_ins || m_port_shared[r.in_port] > x_poff(c, r.in_port, r.prio))) {
      c.port_paused[r.in_port] = 1;
      res.port_pfc = PfcEvent::kXoff;
    }
    return res;
  }

  uint64_t x_qoff(const Counters& c, uint32_t port, uint32_t prio) const {
    const auto& ip = pg(port, prio);
    const uint64_t t = dt_threshold(c, ip.th, ip.pool);
    return t > ip.xoff_cells ? t - ip.xoff_cells : 0;
  }
  uint64_t x_poff(const Counters& c, uint32_t port, uint32_t prio) const {
    const auto& ip = pg(port, prio);
    const unsigned __int128 v = (unsigned __int128)m_nq[port] * dt_threshold(c, ip.th, ip.pool);
    return v > m_cfg.counter_max() ? m_cfg.counter_max() : uint64_t(v);
  }

  std::vector<uint32_t> m_nq;         // lossless priorities per port (N_q)
  std::vector<uint64_t> m_insurance;  // insurance headroom per port (eta)
  std::vector<uint64_t> m_port_shared, m_port_ins;
};

}  // namespace

std::unique_ptr<Policy> make_dsh(const CoreConfig& cfg) { return std::make_unique<DshPolicy>(cfg); }

}  // namespace mmusim::admission
