#pragma once
// Lockstep scoreboard: every operation goes to the golden core and to the RTL unit; the
// decisions, PFC events and the whole architectural state (admission/arch_state.h:
// counters, pause bits, q_hat, n_p, dsh port counters, read through the unit's debug
// port, cosim/state_map.h) must agree after every operation and every CSR write. A
// co-simulation may compare the whole state only every n-th operation
// (set_full_state_every) and the counters the operation names in between.
#include <algorithm>
#include <cstdio>
#include <deque>
#include <initializer_list>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
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
  // The core models the unit's threshold calculator (cfg.thresholds.zero_latency is
  // overridden: the unit has no zero-latency mode) and its pipeline (cfg.pipe = p.pipe).
  // `fst`, `period_ps`: the unit's waveform (Unit).
  Lockstep(const admission::CoreConfig& cfg, UnitParams p, const std::string& fst = "",
           uint64_t period_ps = Wave::kDefaultPeriodPs)
      : m_cfg(timed(cfg, p)), m_p(p), m_core(m_cfg), m_unit(p, fst, period_ps) {
    m_core.set_idle_from_cycles(false);
    program();
  }
  static admission::CoreConfig timed(admission::CoreConfig c, const UnitParams& p) {
    c.thresholds.zero_latency = false;
    c.pipe = p.pipe;
    return c;
  }
  admission::AdmissionCore& core() { return m_core; }
  Unit<Model>& unit() { return m_unit; }
  const admission::CoreConfig& config() const { return m_cfg; }
  const Mismatch& mismatch() const { return m_mm; }
  uint64_t ops() const { return m_ops; }

  // On: the operations' cycles say when the unit's clock ran idle, as the core counts them
  // (AdmissionCore::set_idle_from_cycles), and the clock-gated unit is clocked the fewest
  // idle cycles that leave it as the core (AdmissionCore::idle_clocks_before; at most
  // 2 x THRESH_PERIOD - 1 per gap), deciding the operations in flight on the way. Off (the
  // default): the caller runs idle cycles with idle(), and cycles are only now_i. Either
  // way, streamed or not.
  void set_idle_from_cycles(bool on) {
    m_from_cycles = on;
    m_core.set_idle_from_cycles(on);
  }

  // Whole-state comparison after every n-th operation (1, the default: every one), and
  // after every CSR write and reset; in between, the counters and pause bits the
  // operation names, the pools and the totals (streaming: the decisions only).
  void set_full_state_every(uint32_t n) {
    m_full_every = n ? n : 1;
    m_full_words = 0;
  }
  // The same with n from the size of the state: a whole-state comparison after every n-th
  // operation, n the whole state's words (the debug-port reads it takes) over
  // `words_per_op`, so that it reads about that many words an operation on average
  // whatever the policy's state (abm's is 2.5 times dt's). Re-taken after a CSR write.
  void set_full_state_words_per_op(uint32_t words_per_op) {
    m_full_words = words_per_op ? words_per_op : 1;
    size_full_every();
  }
  uint32_t full_state_every() const { return m_full_every; }

  admission::RtlParams rtl_params() const { return {m_p.nports, m_p.nprio, m_p.npools, m_p.nprof, m_p.cw}; }

  // Streaming (a pipelined unit, PIPE > 0): an operation takes one unit cycle and the call
  // returns the core's decision at once; the unit's response, and its state then, are
  // checked at the edge the core says it is due (AdmissionCore::due), when the unit has
  // decided the operation (so operations follow each other in consecutive cycles, the same
  // queue's included). Off (the default): each operation waits for the unit's response,
  // which it returns. A unit with PIPE 0 is the same either way.
  void set_streaming(bool on) {
    if (!on) drain();
    m_stream = on;
  }

  // Programs the unit, then one idle cycle: the threshold calculator loads at the edge
  // after the last CSR write, from the configuration just written and the counters, which
  // is where the core's registers stand (the core owes the decide stage its PIPE idle
  // cycles after it).
  void program() {
    m_unit.program(admission::encode(m_cfg, rtl_params()));
    m_unit.idle();
    m_core.sync_thresholds();
  }

  admission::Result admit(const admission::Request& r) {
    gap(r.cycle);
    const admission::Result want = m_core.admit(r);
    if (m_stream) {
      Expect e{m_unit.cycle(), true, false, false, want, {}, r, {}, nullptr};
      snapshot(e);
      check(m_unit.step(nullptr, &r), std::move(e));
      ++m_ops;
      return want;
    }
    watch({Named{r.in_port, r.out_port, r.prio, r.egress_queue()}});
    const admission::Result got = m_unit.admit(r);
    m_core.idle(m_p.pipe);
    ++m_ops;
    if (!same(want, got)) fail("admit", describe(r), describe(want), describe(got));
    compare_state([r] { return "admit " + describe(r); }, true);
    return got;  // the RTL decides; the core checks
  }

  admission::PfcUpdate depart(const admission::Departure& d) {
    gap(d.cycle);
    const admission::PfcUpdate want = m_core.depart(d);
    if (m_stream) {
      Expect e{m_unit.cycle(), false, true, false, {}, want, {}, d, nullptr};
      snapshot(e);
      check(m_unit.step(&d, nullptr), std::move(e));
      ++m_ops;
      return want;
    }
    watch({Named{d.in_port, d.out_port, d.prio, d.egress_queue()}});
    const admission::PfcUpdate got = m_unit.depart(d);
    m_core.idle(m_p.pipe);
    ++m_ops;
    if (want.pfc != got.pfc || want.port_pfc != got.port_pfc)
      fail("depart", describe(d), describe(want), describe(got));
    compare_state([d] { return "depart " + describe(d); }, true);
    return got;
  }

  // Both offered in one cycle (d.cycle, which r's should equal): the release comes first
  // (in the same cycle on a dual-issue unit, a cycle ahead on a single-issue one); the core
  // is told in that order.
  std::pair<admission::PfcUpdate, admission::Result> depart_and_admit(const admission::Departure& d,
                                                                       const admission::Request& r) {
    gap(d.cycle);
    admission::PfcUpdate wu;
    admission::Result wr;
    if (m_stream) {
      if (m_p.dual_issue) {
        std::tie(wu, wr) = m_core.depart_and_admit(d, r);
        Expect e{m_unit.cycle(), true, true, true, wr, wu, r, d, nullptr};
        snapshot(e);
        const CycleOut o = m_unit.step(&d, &r);
        if (!o.req_taken) fail("depart+admit", describe(r), "taken with the release", "held for a cycle");
        check(o, std::move(e));
      } else {
        wu = m_core.depart(d);
        Expect e{m_unit.cycle(), false, true, true, {}, wu, r, d, nullptr};
        snapshot(e);
        const CycleOut o = m_unit.step(&d, &r);
        if (o.req_taken) fail("depart+admit", describe(r), "held for a cycle", "taken with the release");
        check(o, std::move(e));
        wr = m_core.admit(r);
        Expect e2{m_unit.cycle(), true, false, true, wr, {}, r, d, nullptr};
        snapshot(e2);
        check(m_unit.step(nullptr, &r), std::move(e2));
      }
      m_ops += 2;
      return {wu, wr};
    }
    watch({Named{r.in_port, r.out_port, r.prio, r.egress_queue()}, Named{d.in_port, d.out_port, d.prio, d.egress_queue()}});
    if (m_p.dual_issue) {
      std::tie(wu, wr) = m_core.depart_and_admit(d, r);
    } else {
      wu = m_core.depart(d);
      wr = m_core.admit(r);
    }
    const auto [gu, gr] = m_unit.depart_and_admit(d, r);
    m_core.idle(m_p.pipe);
    m_ops += 2;
    if (m_unit.request_waited() == m_p.dual_issue)
      fail("depart+admit", describe(r), m_p.dual_issue ? "taken with the release" : "held for a cycle",
           m_unit.request_waited() ? "held for a cycle" : "taken with the release");
    if (wu.pfc != gu.pfc || wu.port_pfc != gu.port_pfc) fail("depart+admit", describe(d), describe(wu), describe(gu));
    if (!same(wr, gr)) fail("depart+admit", describe(r), describe(wr), describe(gr));
    compare_state([d, r] { return "depart+admit " + describe(d) + " / " + describe(r); }, true);
    return {gu, gr};
  }

  // A run-time CSR write, applied to both (the core through the same register semantics).
  // It takes effect at the edge of its cycle, for the operations decided after it: the
  // unit first finishes the operations in flight (drain; the core places those idle cycles
  // after the write, as the decide stage sees them).
  bool csr_write(uint32_t addr, uint32_t data) {
    drain();
    bool core_ok = true;
    try {
      admission::write(m_core, addr, data, rtl_params());
    } catch (const std::invalid_argument&) {
      core_ok = false;
      m_core.refused_write();  // a write access all the same: the unit's cycle
    }
    const bool rtl_ok = m_unit.write(addr, data);
    if (core_ok != rtl_ok)
      fail("csr write", admission::reg_name(addr, rtl_params()), core_ok ? "accepted" : "refused",
           rtl_ok ? "accepted" : "refused");
    m_cfg = m_core.config();
    size_full_every();
    compare_state([&] { return "csr write " + admission::reg_name(addr, rtl_params()); });
    return core_ok;
  }

  // A CSR read of the unit (after the operations in flight): a cycle of its clock, idle
  // for the core.
  uint32_t csr_read(uint32_t addr) {
    drain();
    const uint32_t v = m_unit.read(addr);
    m_core.idle(1);
    return v;
  }

  // Cycles with no operation, on both (checking the operations in flight as they are
  // decided).
  void idle(uint64_t cycles = 1) {
    clock(cycles);
    m_core.idle(cycles);
  }

  // Reset in the middle of traffic (after the operations in flight): both lose their
  // state; the unit is reprogrammed.
  void reset() {
    drain();
    m_core.reset();
    m_unit.reset();
    program();
    compare_state([] { return std::string("reset"); });
  }

  // Clocks the unit until every operation in flight is decided and checked.
  void drain() {
    while (!m_inflight.empty()) idle();
  }

 private:
  // Before an operation at `cycle`: the unit's clock through the gap the core counts.
  void gap(uint64_t cycle) {
    if (m_from_cycles) clock(m_core.idle_clocks_before(cycle));
  }
  // Unit cycles with no operation taken, checking the operations in flight as they are
  // decided.
  void clock(uint64_t cycles) {
    for (; cycles && !m_inflight.empty(); --cycles) check(m_unit.step(nullptr, nullptr));
    m_unit.idle(cycles);
  }
  // An operation whose response (and state) the unit shows PIPE cycles after `cycle`:
  // a request (`req`), a release (`rel`) or, `pair`, one of a release and a request
  // offered together (both named in a report).
  struct Expect {
    uint64_t cycle = 0;
    bool req = false, rel = false, pair = false;
    admission::Result want;
    admission::PfcUpdate want_rel;
    admission::Request r;
    admission::Departure d;
    std::unique_ptr<admission::ArchState> state;  // the core's after it, if compared
    std::string what() const {
      if (pair) return "depart+admit " + describe(d) + " / " + describe(r);
      return req ? "admit " + describe(r) : "depart " + describe(d);
    }
  };

  void size_full_every() {
    if (!m_full_words) return;
    const state_map::Dims d{m_p.nports * m_p.nprio, m_p.nports, m_p.nprio,
                            std::min(uint32_t(m_cfg.pool_cells.size()), m_p.npools)};
    const size_t words =
        state_map::plan(d, m_cfg.policy == "reverie", m_cfg.policy == "dsh", m_cfg.policy == "abm").addrs.size();
    m_full_every = uint32_t(std::max<size_t>(1, (words + m_full_words - 1) / m_full_words));
  }
  // The core's state after the operation, to compare with the unit's once decided.
  void snapshot(Expect& e) {
    if (m_mm.any || ++m_since_full < m_full_every) return;
    m_since_full = 0;
    e.state = std::make_unique<admission::ArchState>(m_core.state());
  }
  // One cycle's outputs against the operation decided in it (and `e`, taken in it).
  void check(const CycleOut& o, std::optional<Expect> e = std::nullopt) {
    if (e) m_inflight.push_back(std::move(*e));
    const Expect* x =
        !m_inflight.empty() && m_core.due(m_inflight.front().cycle) == m_unit.cycle() ? &m_inflight.front() : nullptr;
    if (!x) {
      if (o.rsp_valid || o.rel_valid) fail("response", "", "no operation decided", "a response");
      return;
    }
    if (o.rsp_valid != x->req || o.rel_valid != x->rel)
      fail("response", x->what(), x->req ? "a request's response" : "no request's", o.rsp_valid ? "one" : "none");
    if (x->req && !same(x->want, o.rsp)) fail("admit", x->what(), describe(x->want), describe(o.rsp));
    if (x->rel && (x->want_rel.pfc != o.rel.pfc || x->want_rel.port_pfc != o.rel.port_pfc))
      fail("depart", x->what(), describe(x->want_rel), describe(o.rel));
    if (x->state && !m_mm.any) {
      const bool reverie = m_cfg.policy == "reverie", dsh = m_cfg.policy == "dsh", abm = m_cfg.policy == "abm";
      const std::string d = admission::first_difference(
          *x->state, m_unit.state(reverie, dsh, uint32_t(m_cfg.pool_cells.size()), abm));
      if (!d.empty()) fail("state after", x->what(), d, "");
    }
    m_inflight.pop_front();
  }

  static bool same(const admission::Result& a, const admission::Result& b) {
    return a.verdict == b.verdict && a.pfc == b.pfc && a.port_pfc == b.port_pfc &&
           (a.verdict != admission::Verdict::kDrop || a.reason == b.reason);
  }
  static std::string describe(const admission::Request& r) {
    std::ostringstream s;
    s << "in=" << r.in_port << " out=" << r.out_port << " prio=" << int(r.prio) << " queue=" << int(r.egress_queue())
      << " cells=" << r.cells;
    return s.str();
  }
  static std::string describe(const admission::Departure& d) {
    std::ostringstream s;
    s << "in=" << d.in_port << " out=" << d.out_port << " prio=" << int(d.prio) << " queue=" << int(d.egress_queue())
      << " cells=" << d.cells;
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
    s << "first mismatch at cycle " << m_unit.cycle() << " (operation " << m_ops << "), " << what << " " << op;
    if (got.empty()) s << ": " << want;  // a state difference says what it expected itself
    else s << ": expected " << want << ", got " << got;
    m_mm.report = s.str();
  }

  struct Named {
    uint32_t in = 0, out = 0;
    uint8_t prio = 0, queue = 0;
  };
  // The state words an operation names (its queues' counters and pause bits, its port's
  // pause bit, the pools), watched on the unit's debug lanes through the operation, so
  // that their new values are read with no further evaluation.
  void watch(std::initializer_list<Named> ops) {
    namespace sm = state_map;
    m_ops_named.assign(ops.begin(), ops.end());
    const size_t npools = m_cfg.pool_cells.size();
    m_named.resize(5 * ops.size() + npools);
    uint32_t* a = m_named.data();
    for (const Named& n : ops) {
      const uint32_t ii = n.in * m_p.nprio + n.prio, ei = n.out * m_p.nprio + n.queue;
      a[0] = sm::addr(sm::kIng, ii);
      a[1] = sm::addr(sm::kHdrm, ii);
      a[2] = sm::addr(sm::kPaused, ii);
      a[3] = sm::addr(sm::kEgr, ei);
      a[4] = sm::addr(sm::kPortPaused, n.in);
      a += 5;
    }
    for (uint32_t k = 0; k < npools; ++k) a[k] = sm::addr(sm::kPoolUsed, k);
    m_unit.watch_all(m_named.data(), uint32_t(std::min<size_t>(m_named.size(), Unit<Model>::kLanes)));
  }
  // The core's value of a named word.
  uint64_t core_word(uint32_t a) {
    namespace sm = state_map;
    const uint32_t i = a & 0xfff, port = i / m_p.nprio;
    const uint8_t prio = uint8_t(i % m_p.nprio);
    switch (sm::Region(a >> 12)) {
      case sm::kIng: return m_core.ingress_cells(port, prio);
      case sm::kHdrm: return m_core.headroom_cells(port, prio);
      case sm::kPaused: return m_core.paused(port, prio);
      case sm::kEgr: return m_core.egress_cells(port, prio);
      case sm::kPortPaused: return m_core.port_paused(i);
      default: return m_core.pool_used(uint16_t(i));
    }
  }
  static const char* word_name(uint32_t a) {
    switch (state_map::Region(a >> 12)) {
      case state_map::kIng: return "ingress";
      case state_map::kHdrm: return "headroom";
      case state_map::kPaused: return "paused";
      case state_map::kEgr: return "egress";
      case state_map::kPortPaused: return "port paused";
      default: return "pool";
    }
  }

  // `op` names the operation for the report, built only on a mismatch; `named`: an
  // operation, whose watched words are compared when the whole state is not (a CSR write
  // or reset is always compared in full).
  template <class Describe>
  void compare_state(Describe op, bool named = false) {
    if (m_mm.any) return;
    if (named && ++m_since_full < m_full_every) {
      compare_named(op);
      return;
    }
    m_since_full = 0;
    const bool reverie = m_cfg.policy == "reverie", dsh = m_cfg.policy == "dsh", abm = m_cfg.policy == "abm";
    const std::string d = admission::first_difference(
        m_core.state(), m_unit.state(reverie, dsh, uint32_t(m_cfg.pool_cells.size()), abm));
    if (!d.empty()) fail("state after", op(), d, "");
  }

  template <class Describe>
  void compare_named(Describe op) {
    const uint32_t lanes = Unit<Model>::kLanes;
    // The words past the lanes, fetched into a buffer kept between operations (no
    // allocation per operation).
    m_rest.resize(m_named.size() > lanes ? m_named.size() - lanes : 0);
    if (!m_rest.empty()) m_unit.fetch(m_named.data() + lanes, m_rest.size(), m_rest.data());
    const std::vector<uint64_t>& rest = m_rest;
    // The words in watch()'s order, compared at once; each is named only on a difference.
    uint32_t k = 0;
    auto got = [&](uint32_t i) { return i < lanes ? m_unit.watched(i) : rest[i - lanes]; };
    bool differ = false;
    for (const Named& n : m_ops_named) {
      differ |= got(k) != m_core.ingress_cells(n.in, n.prio);
      differ |= got(k + 1) != m_core.headroom_cells(n.in, n.prio);
      differ |= got(k + 2) != uint64_t(m_core.paused(n.in, n.prio));
      differ |= got(k + 3) != m_core.egress_cells(n.out, n.queue);
      differ |= got(k + 4) != uint64_t(m_core.port_paused(n.in));
      k += 5;
    }
    const std::vector<uint64_t>& pools = m_core.pools_used();
    for (; k < m_named.size(); ++k) {
      const uint32_t p = m_named[k] & 0xfff;
      differ |= p >= pools.size() || got(k) != pools[p];
    }
    differ |= m_core.total_used() != m_unit.total();
    differ |= m_core.headroom_pool_used() != m_unit.hdrm_pool();
    if (differ) report_named(op, rest);
  }
  template <class Describe>
  void report_named(Describe op, const std::vector<uint64_t>& rest) {
    auto check = [&](auto name, uint64_t want, uint64_t got) {
      if (want != got && !m_mm.any)
        fail("state after", op(), name() + ": expected " + std::to_string(want) + ", got " + std::to_string(got), "");
    };
    const uint32_t lanes = Unit<Model>::kLanes;
    for (uint32_t k = 0; k < m_named.size(); ++k) {
      const uint32_t a = m_named[k];
      check([a] { return std::string(word_name(a)) + "[" + std::to_string(a & 0xfff) + "]"; }, core_word(a),
            k < lanes ? m_unit.watched(k) : rest[k - lanes]);
    }
    check([] { return std::string("total"); }, m_core.total_used(), m_unit.total());
    check([] { return std::string("headroom pool"); }, m_core.headroom_pool_used(), m_unit.hdrm_pool());
  }

  admission::CoreConfig m_cfg;
  UnitParams m_p;
  admission::AdmissionCore m_core;
  Unit<Model> m_unit;
  Mismatch m_mm;
  uint64_t m_ops = 0;
  uint32_t m_full_every = 1, m_since_full = 0;
  uint32_t m_full_words = 0;  // set_full_state_words_per_op's budget, or 0: m_full_every as set
  bool m_from_cycles = false;
  std::vector<uint32_t> m_named;
  std::vector<Named> m_ops_named;  // the operations whose words m_named holds
  std::vector<uint64_t> m_rest;     // compare_named's words past the lanes
  bool m_stream = false;
  std::deque<Expect> m_inflight;  // streamed operations not yet decided by the unit
};

}  // namespace mmusim::rtl
