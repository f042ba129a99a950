#pragma once
// Lockstep scoreboard: every operation goes to the golden core and to the RTL unit; the
// decisions, PFC events and the counters they touch must agree after every cycle.
#include <cstdio>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "admission/admission_core.h"
#include "admission/regfile.h"
#include "cosim/rtl_unit.h"

namespace mmusim::rtl {

struct Mismatch {
  bool any = false;
  std::string report;
};

template <class Model>
class Lockstep {
 public:
  Lockstep(const admission::CoreConfig& cfg, UnitParams p, const std::string& fst = "")
      : m_cfg(cfg), m_p(p), m_core(cfg), m_unit(p, fst) {
    program();
  }
  Lockstep(const admission::CoreConfig& cfg, UnitParams p, std::unique_ptr<Model> model, const std::string& fst = "")
      : m_cfg(cfg), m_p(p), m_core(cfg), m_unit(p, std::move(model), fst) {
    program();
  }

  admission::AdmissionCore& core() { return m_core; }
  Unit<Model>& unit() { return m_unit; }
  const admission::CoreConfig& config() const { return m_cfg; }
  const Mismatch& mismatch() const { return m_mm; }
  uint64_t ops() const { return m_ops; }

  admission::RtlParams rtl_params() const { return {m_p.nports, m_p.nprio, m_p.npools, m_p.nprof, m_p.cw}; }

  void program() { m_unit.program(admission::encode(m_cfg, rtl_params())); }

  admission::Result admit(const admission::Request& r) {
    const admission::Result want = m_core.admit(r);
    const admission::Result got = m_unit.admit(r);
    ++m_ops;
    if (!same(want, got)) fail("admit", describe(r), describe(want), describe(got));
    compare_state(r.in_port, r.out_port, r.prio, "admit " + describe(r));
    return got;  // the RTL decides; the core checks
  }

  admission::PfcUpdate depart(const admission::Departure& d) {
    const admission::PfcUpdate want = m_core.depart(d);
    const admission::PfcUpdate got = m_unit.depart(d);
    ++m_ops;
    if (want.pfc != got.pfc || want.port_pfc != got.port_pfc)
      fail("depart", describe(d), describe(want), describe(got));
    compare_state(d.in_port, d.out_port, d.prio, "depart " + describe(d));
    return got;
  }

  // Both offered in one cycle: the release comes first (in the same cycle on a dual-issue
  // unit, a cycle ahead on a single-issue one); the core is told in that order.
  std::pair<admission::PfcUpdate, admission::Result> depart_and_admit(const admission::Departure& d,
                                                                       const admission::Request& r) {
    const admission::PfcUpdate wu = m_core.depart(d);
    const admission::Result wr = m_core.admit(r);
    const auto [gu, gr] = m_unit.depart_and_admit(d, r);
    m_ops += 2;
    if (m_unit.request_waited() == m_p.dual_issue)
      fail("depart+admit", describe(r), m_p.dual_issue ? "taken with the release" : "held for a cycle",
           m_unit.request_waited() ? "held for a cycle" : "taken with the release");
    if (wu.pfc != gu.pfc || wu.port_pfc != gu.port_pfc) fail("depart+admit", describe(d), describe(wu), describe(gu));
    if (!same(wr, gr)) fail("depart+admit", describe(r), describe(wr), describe(gr));
    compare_state(r.in_port, r.out_port, r.prio, "depart+admit");
    compare_state(d.in_port, d.out_port, d.prio, "depart+admit");
    return {gu, gr};
  }

  // A run-time CSR write, applied to both (the core through the same register semantics).
  bool csr_write(uint32_t addr, uint32_t data) {
    bool core_ok = true;
    try {
      admission::write(m_core, addr, data, rtl_params());
    } catch (const std::invalid_argument&) {
      core_ok = false;
    }
    const bool rtl_ok = m_unit.write(addr, data);
    if (core_ok != rtl_ok)
      fail("csr write", admission::reg_name(addr, rtl_params()), core_ok ? "accepted" : "refused",
           rtl_ok ? "accepted" : "refused");
    m_cfg = m_core.config();
    return core_ok;
  }

  // Reset in the middle of traffic: both lose their state; the unit is reprogrammed.
  void reset() {
    m_core.reset();
    m_unit.reset();
    program();
  }

 private:
  static bool same(const admission::Result& a, const admission::Result& b) {
    return a.verdict == b.verdict && a.pfc == b.pfc && a.port_pfc == b.port_pfc &&
           (a.verdict != admission::Verdict::kDrop || a.reason == b.reason);
  }
  static std::string describe(const admission::Request& r) {
    std::ostringstream s;
    s << "in=" << r.in_port << " out=" << r.out_port << " prio=" << int(r.prio) << " cells=" << r.cells;
    return s.str();
  }
  static std::string describe(const admission::Departure& d) {
    std::ostringstream s;
    s << "in=" << d.in_port << " out=" << d.out_port << " prio=" << int(d.prio) << " cells=" << d.cells;
    return s.str();
  }
  static std::string describe(const admission::Result& r) {
    return std::string(admission::to_string(r.verdict)) + " pfc=" + admission::to_string(r.pfc) +
           " port_pfc=" + admission::to_string(r.port_pfc) + " reason=" + admission::to_string(r.reason);
  }
  static std::string describe(const admission::PfcUpdate& u) {
    return std::string("pfc=") + admission::to_string(u.pfc) + " port_pfc=" + admission::to_string(u.port_pfc);
  }

  void fail(const std::string& what, const std::string& op, const std::string& want, const std::string& got) {
    if (m_mm.any) return;
    m_mm.any = true;
    std::ostringstream s;
    s << "first mismatch at cycle " << m_unit.cycle() << " (operation " << m_ops << "), " << what << " " << op
      << ": expected " << want << ", got " << got;
    m_mm.report = s.str();
  }

  void compare_state(uint32_t in, uint32_t out, uint8_t prio, const std::string& op) {
    const uint32_t ii = in * m_p.nprio + prio, ei = out * m_p.nprio + prio;
    auto check = [&](const char* name, uint64_t want, uint64_t got) {
      if (want != got) fail(std::string("counter ") + name, op, std::to_string(want), std::to_string(got));
    };
    check("ingress", m_core.ingress_cells(in, prio), m_unit.ing(ii));
    check("headroom", m_core.headroom_cells(in, prio), m_unit.hdrm(ii));
    check("egress", m_core.egress_cells(out, prio), m_unit.egr(ei));
    check("paused", m_core.paused(in, prio), m_unit.paused(ii));
    check("port paused", m_core.port_paused(in), m_unit.port_paused(in));
    check("total", m_core.total_used(), m_unit.total());
    check("headroom pool", m_core.headroom_pool_used(), m_unit.hdrm_pool());
    for (uint32_t k = 0; k < m_cfg.pool_cells.size(); ++k) check("pool", m_core.pool_used(uint16_t(k)), m_unit.pool_used(k));
  }

  admission::CoreConfig m_cfg;
  UnitParams m_p;
  admission::AdmissionCore m_core;
  Unit<Model> m_unit;
  Mismatch m_mm;
  uint64_t m_ops = 0;
};

// A random configuration the unit can hold: policy dt, reverie or dsh; pools, profiles,
// alphas, reserved sizes, headroom, hysteresis and the queue maps all drawn at random.
inline admission::CoreConfig random_config(std::mt19937_64& rng, const UnitParams& p, const std::string& policy) {
  auto pick = [&](uint64_t lo, uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  admission::CoreConfig c;
  c.ports = p.nports;
  c.prios = p.nprio;
  c.counter_bits = p.cw;
  c.policy = policy;
  const uint64_t cmax = (uint64_t(1) << p.cw) - 1;
  c.buffer_cells = pick(200, std::min<uint64_t>(cmax, 6000));
  // Ingress profiles use pools [0, nin_pools), egress ones the rest: a pool serves one side.
  const uint32_t npools = uint32_t(pick(2, p.npools));
  const uint32_t nin_pools = uint32_t(pick(1, npools - 1));
  for (uint32_t k = 0; k < npools; ++k) c.pool_cells.push_back(pick(c.buffer_cells / 4, c.buffer_cells));
  c.headroom_pool_cells = pick(0, c.buffer_cells / 3);
  auto th = [&]() {
    admission::Threshold t;
    t.dynamic = rng() % 5 != 0;
    t.shift = int8_t(int(pick(0, 8)) - 5);
    t.static_cells = pick(0, c.buffer_cells);
    return t;
  };
  const uint32_t nin = uint32_t(pick(1, p.nprof)), neg = uint32_t(pick(1, p.nprof));
  for (uint32_t k = 0; k < nin; ++k)
    c.ingress_profiles.push_back({uint16_t(pick(0, nin_pools - 1)), pick(0, 3) == 0 ? pick(1, 12) : 0, th(),
                                  pick(0, 60), pick(0, 3) == 0 ? pick(0, 30) : 0, pick(0, 20)});
  for (uint32_t k = 0; k < neg; ++k)
    c.egress_profiles.push_back({uint16_t(pick(nin_pools, npools - 1)), pick(0, 3) == 0 ? pick(1, 12) : 0, th()});
  const size_t nq = size_t(p.nports) * p.nprio;
  for (size_t q = 0; q < nq; ++q) {
    c.pg_profile.push_back(uint16_t(pick(0, nin - 1)));
    c.queue_profile.push_back(uint16_t(pick(0, neg - 1)));
    c.lossless.push_back(uint8_t(rng() % 2));
  }
  c.congestion.cells = pick(1, 40);
  c.ewma.rule = rng() % 2 ? admission::EwmaConfig::Rule::kDequeue : admission::EwmaConfig::Rule::kEnqueueDequeue;
  c.ewma.k = uint8_t(pick(0, 12));
  c.ewma.frac_bits = uint8_t(p.ewma_frac);
  c.ewma.clamp = rng() % 2;
  c.dsh.port_xon_offset_cells = pick(0, 10);
  return c;
}

}  // namespace mmusim::rtl
