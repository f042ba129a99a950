#pragma once
// Drives a Verilated mmu_admission cycle by cycle with the golden core's operations, and
// reads its architectural state back (public signals, --public-flat-rw) for the lockstep
// comparison.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "admission/arch_state.h"
#include "admission/types.h"

namespace mmusim::rtl {

struct UnitParams {
  uint32_t nports, nprio, cw, npools, nprof, ewma_frac;
  bool dual_issue = true;  // the unit's DUAL_ISSUE parameter
};

// Bits [lsb, lsb + w) of a Verilated signal of any width (w <= 64), a 32-bit word at a time.
template <std::size_t N>
uint64_t bits(const VlWide<N>& v, uint32_t lsb, uint32_t w) {
  uint64_t out = 0;
  for (uint32_t got = 0; got < w;) {
    const uint32_t bit = lsb + got, off = bit % 32, take = std::min(32 - off, w - got);
    const uint32_t mask = take == 32 ? ~0u : (1u << take) - 1;
    out |= uint64_t((v[bit / 32] >> off) & mask) << got;
    got += take;
  }
  return out;
}
inline uint64_t bits(uint64_t v, uint32_t lsb, uint32_t w) {
  return (v >> lsb) & (w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1);
}

template <class Model>
class Unit {
 public:
  Unit(UnitParams p, const std::string& fst = "") : m_p(p), m_ctx(std::make_unique<VerilatedContext>()) {
    m_ctx->traceEverOn(!fst.empty());
    m_m = std::make_unique<Model>(m_ctx.get(), "dut");
    start(fst);
  }
  // A model built elsewhere: a SystemC-mode unit (ScPins) is constructed during
  // elaboration and driven once the simulation runs.
  Unit(UnitParams p, std::unique_ptr<Model> m, const std::string& fst = "")
      : m_p(p), m_m(std::move(m)) {
    start(fst);
  }
  ~Unit() {
    if (m_trace) m_trace->close();
    // Verilator 5.006 frees a model's scopes through the thread's current context, not
    // the model's; with several units that may be another unit's context, already freed
    // (a deadlock on its mutex), so point it at this model's own first.
    Verilated::threadContextp(m_m->contextp());
    m_m->final();
  }

  const UnitParams& params() const { return m_p; }
  uint64_t cycle() const { return m_cycle; }

  void reset() {
    idle_inputs();
    m_m->clk_i = 0;
    m_m->rst_ni = 0;
    eval();
    tick();
    m_m->rst_ni = 1;
    eval();
  }

  // One CSR write; returns false if the unit refused it (cfg_error_o).
  bool write(uint32_t addr, uint32_t data) {
    m_m->cfg_valid_i = 1;
    m_m->cfg_write_i = 1;
    m_m->cfg_addr_i = addr;
    m_m->cfg_wdata_i = data;
    tick();
    m_m->cfg_valid_i = 0;
    m_m->cfg_write_i = 0;
    eval();
    return !m_m->cfg_error_o;
  }
  uint32_t read(uint32_t addr) {
    m_m->cfg_valid_i = 1;
    m_m->cfg_write_i = 0;
    m_m->cfg_addr_i = addr;
    tick();
    m_m->cfg_valid_i = 0;
    eval();
    return m_m->cfg_rdata_o;
  }
  void program(const std::vector<std::pair<uint32_t, uint32_t>>& writes) {
    for (const auto& [a, d] : writes) write(a, d);
  }

  admission::Result admit(const admission::Request& r) {
    drive_request(r);
    tick();
    m_m->req_valid_i = 0;
    eval();
    return response();
  }

  admission::PfcUpdate depart(const admission::Departure& d) {
    drive_release(d);
    tick();
    m_m->rel_valid_i = 0;
    eval();
    return release_response();
  }

  // A release and a request offered in the same cycle. A dual-issue unit takes both at
  // once; a single-issue one takes the release and holds the request (ready low) for one
  // more cycle. Either way the request decides on the state the release leaves.
  std::pair<admission::PfcUpdate, admission::Result> depart_and_admit(const admission::Departure& d,
                                                                       const admission::Request& r) {
    drive_release(d);
    drive_request(r);
    eval();
    m_stalled = !m_m->req_ready_o;
    tick();
    const admission::PfcUpdate u = release_response();
    m_m->rel_valid_i = 0;
    if (m_stalled) {
      eval();
      tick();
    }
    m_m->req_valid_i = 0;
    eval();
    return {u, response()};
  }
  bool request_waited() const { return m_stalled; }

  // Counters, read from the design's registers.
  uint64_t ing(uint32_t q) const { return bits(m_m->rootp->mmu_admission__DOT__ing_q, q * m_p.cw, m_p.cw); }
  uint64_t hdrm(uint32_t q) const { return bits(m_m->rootp->mmu_admission__DOT__hdrm_q, q * m_p.cw, m_p.cw); }
  uint64_t egr(uint32_t q) const { return bits(m_m->rootp->mmu_admission__DOT__egr_q, q * m_p.cw, m_p.cw); }
  bool paused(uint32_t q) const { return bits(m_m->rootp->mmu_admission__DOT__paused_q, q, 1) != 0; }
  bool port_paused(uint32_t p) const { return bits(m_m->rootp->mmu_admission__DOT__port_paused, p, 1) != 0; }
  uint64_t pool_used(uint32_t k) const {
    return bits(m_m->rootp->mmu_admission__DOT__pool_used, k * m_p.cw, m_p.cw);
  }
  // Policy state: reverie's filters (q_hat, EWMA_FRAC fraction bits) and n_p (an integer
  // count), dsh's port counters.
  uint64_t avg_in(uint32_t q) const { return bits(m_m->rootp->mmu_admission__DOT__avg_in_q, q * aw(), aw()); }
  uint64_t avg_eg(uint32_t q) const { return bits(m_m->rootp->mmu_admission__DOT__avg_eg_q, q * aw(), aw()); }
  uint64_t ncong(uint32_t prio) const { return bits(m_m->rootp->mmu_admission__DOT__ncong, prio * (qw() + 1), qw() + 1); }
  uint64_t port_shared(uint32_t p) const {
    return bits(m_m->rootp->mmu_admission__DOT__port_shared, p * m_p.cw, m_p.cw);
  }
  uint64_t port_ins(uint32_t p) const { return bits(m_m->rootp->mmu_admission__DOT__port_ins, p * m_p.cw, m_p.cw); }
  uint64_t total() const { return m_m->stat_total_o; }
  uint64_t hdrm_pool() const { return m_m->stat_hdrm_pool_o; }
  bool underflow() const { return m_m->stat_underflow_o; }

  // The architectural state in the golden core's form (admission/arch_state.h): the
  // counter bank, and the policy state of the policy the unit runs (reverie: q_hat and n_p
  // in the core's 8 fraction bits; dsh: port counters), which the core keeps only then;
  // the first `npools` pools (the configuration's).
  admission::ArchState state(bool reverie, bool dsh, uint32_t npools) const {
    admission::ArchState s;
    const uint32_t nq = m_p.nports * m_p.nprio;
    s.ing.resize(nq);
    s.hdrm.resize(nq);
    s.egr.resize(nq);
    s.paused.resize(nq);
    for (uint32_t q = 0; q < nq; ++q) {
      s.ing[q] = ing(q);
      s.hdrm[q] = hdrm(q);
      s.egr[q] = egr(q);
      s.paused[q] = paused(q);
    }
    s.port_paused.resize(m_p.nports);
    for (uint32_t p = 0; p < m_p.nports; ++p) s.port_paused[p] = port_paused(p);
    s.pool_used.resize(std::min(npools, m_p.npools));
    for (uint32_t k = 0; k < s.pool_used.size(); ++k) s.pool_used[k] = pool_used(k);
    s.hdrm_pool_used = hdrm_pool();
    s.total = total();
    if (reverie) {
      s.avg_in.resize(nq);
      s.avg_eg.resize(nq);
      for (uint32_t q = 0; q < nq; ++q) {
        s.avg_in[q] = avg_in(q);
        s.avg_eg[q] = avg_eg(q);
      }
      s.n_p.resize(m_p.nprio);
      for (uint32_t p = 0; p < m_p.nprio; ++p) s.n_p[p] = ncong(p) << 8;
    }
    if (dsh) {
      s.port_shared.resize(m_p.nports);
      s.port_ins.resize(m_p.nports);
      for (uint32_t p = 0; p < m_p.nports; ++p) {
        s.port_shared[p] = port_shared(p);
        s.port_ins[p] = port_ins(p);
      }
    }
    return s;
  }

 private:
  void drive_request(const admission::Request& r) {
    m_m->req_valid_i = 1;
    m_m->req_in_port_i = r.in_port;
    m_m->req_out_port_i = r.out_port;
    m_m->req_prio_i = r.prio;
    m_m->req_cells_i = r.cells;
  }
  void drive_release(const admission::Departure& d) {
    m_m->rel_valid_i = 1;
    m_m->rel_in_port_i = d.in_port;
    m_m->rel_out_port_i = d.out_port;
    m_m->rel_prio_i = d.prio;
    m_m->rel_cells_i = d.cells;
  }
  admission::Result response() const {
    admission::Result res;
    res.verdict = admission::Verdict(uint32_t(m_m->rsp_verdict_o));
    res.pfc = admission::PfcEvent(uint32_t(m_m->rsp_pfc_o));
    res.port_pfc = admission::PfcEvent(uint32_t(m_m->rsp_port_pfc_o));
    res.reason = admission::DropReason(uint32_t(m_m->rsp_reason_o));
    return res;
  }
  admission::PfcUpdate release_response() const {
    return {admission::PfcEvent(uint32_t(m_m->rel_rsp_pfc_o)), admission::PfcEvent(uint32_t(m_m->rel_rsp_port_pfc_o))};
  }
  void idle_inputs() {
    m_m->cfg_valid_i = 0;
    m_m->cfg_write_i = 0;
    m_m->req_valid_i = 0;
    m_m->rel_valid_i = 0;
  }
  // Waveform time: a half cycle is kHalf units; input changes between edges are dumped
  // at the following units, so every evaluation is visible and times only increase.
  static constexpr uint64_t kHalf = 8;
  void eval() {
    m_m->eval();
    if (!m_trace) return;
    m_dumped = m_dumped == kNever || m_wave_t > m_dumped ? m_wave_t : m_dumped + 1;
    m_trace->dump(m_dumped);
  }
  void tick() {
    m_m->clk_i = 1;
    advance();
    eval();
    m_m->clk_i = 0;
    advance();
    eval();
    ++m_cycle;
  }

  // Time of the C++-mode model's own context (a SystemC-mode model keeps SystemC's) and
  // of the waveform.
  void advance() {
    if (m_ctx) m_ctx->timeInc(1);
    m_wave_t += kHalf;
  }
  void start(const std::string& fst) {
    if (!fst.empty()) {
      if (m_ctx) m_ctx->traceEverOn(true);
      m_trace = std::make_unique<VerilatedFstC>();
      m_m->trace(m_trace.get(), 99);
      m_trace->open(fst.c_str());
    }
    reset();
  }

  uint32_t aw() const { return m_p.cw + m_p.ewma_frac; }
  uint32_t qw() const {  // $clog2(NQ), at least 1
    uint32_t w = 0;
    while ((uint64_t(1) << w) < uint64_t(m_p.nports) * m_p.nprio) ++w;
    return std::max<uint32_t>(w, 1);
  }

  UnitParams m_p;
  std::unique_ptr<VerilatedContext> m_ctx;  // C++-mode models only
  static constexpr uint64_t kNever = ~uint64_t(0);
  uint64_t m_wave_t = 0, m_dumped = kNever;
  std::unique_ptr<Model> m_m;
  std::unique_ptr<VerilatedFstC> m_trace;
  uint64_t m_cycle = 0;
  bool m_stalled = false;
};

}  // namespace mmusim::rtl
