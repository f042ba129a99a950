#pragma once
// Drives a Verilated (C++-mode) mmu_admission cycle by cycle with the golden core's
// operations, and reads its architectural state back through the unit's debug/state read
// port (cosim/state_map.h) for the lockstep comparison: public model API only.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <verilated.h>

#include "admission/arch_state.h"
#include "admission/types.h"
#include "cosim/rtl_wave.h"
#include "cosim/state_map.h"

namespace mmusim::rtl {

struct UnitParams {
  uint32_t nports, nprio, cw, npools, nprof, ewma_frac;
  bool dual_issue = true;  // the unit's DUAL_ISSUE parameter
  uint32_t pipe = 0;       // the unit's PIPE parameter: cycles from taking an operation to deciding it
};

// What the unit registered at one clock edge: the responses of the operations it decided
// in that cycle (taken PIPE cycles before).
struct CycleOut {
  bool req_taken = false;  // the request offered this cycle was taken (ready)
  bool rsp_valid = false, rel_valid = false;
  admission::Result rsp;
  admission::PfcUpdate rel;
};

// Whether a Verilated model was built with tracing (Verilator's --trace-fst gives it trace()).
template <class M, class = void>
struct Traced : std::false_type {};
template <class M>
struct Traced<M, std::void_t<decltype(std::declval<M&>().trace(std::declval<VerilatedFstC*>(), 0))>>
    : std::true_type {};
// Whether a model's top is the co-simulation wrapper (hw-model/cosim/mmu_cosim.sv), whose
// inputs are loaded into registers by strobes, or the unit itself.
template <class M, class = void>
struct Wrapped : std::false_type {};
template <class M>
struct Wrapped<M, std::void_t<decltype(std::declval<M&>().op_ld_i)>> : std::true_type {};

template <class Model>
class Unit {
 public:
  static constexpr bool kTraced = Traced<Model>::value;
  static constexpr bool kWrapped = Wrapped<Model>::value;
  // With `fst`, the whole unit's waveform goes there, its cycles at the MMU cycles of
  // their operations × `period_ps` (cosim/rtl_wave.h).
  // A model Verilated without tracing (kTraced false) takes no `fst`.
  Unit(UnitParams p, const std::string& fst = "", uint64_t period_ps = Wave::kDefaultPeriodPs)
      : m_p(p), m_ctx(std::make_unique<VerilatedContext>()) {
    m_ctx->traceEverOn(!fst.empty());
    m_m = std::make_unique<Model>(m_ctx.get(), "dut");
    if (!fst.empty()) {
      if constexpr (kTraced) {
        m_wave = std::make_unique<Wave>(fst, period_ps);
        m_m->trace(&m_wave->fst(), 99);
        m_wave->open();
      } else {
        throw std::logic_error("rtl::Unit: a waveform needs a model Verilated with tracing");
      }
    }
    reset();
  }
  ~Unit() {
    if (m_wave) m_wave->fst().close();
    // Verilator 5.006 frees a model's scopes through the thread's current context, not
    // the model's; with several units that may be another unit's context, already freed
    // (a deadlock on its mutex), so point it at this model's own first.
    Verilated::threadContextp(m_m->contextp());
    m_m->final();
  }

  const UnitParams& params() const { return m_p; }
  uint64_t cycle() const { return m_cycle; }
  // Ends the waveform (Wave::close: std::runtime_error if the file is incomplete).
  void close_wave() {
    if (m_wave) m_wave->close();
    m_wave.reset();
  }

  void reset() {
    idle_inputs();
    m_dbg_in = true;  // the debug addresses load at the first edge (watch() skips equal ones)
    m_m->clk_i = 0;
    m_m->rst_ni = 0;
    m_m->eval();
    if (m_wave) m_wave->initial();
    posedge();
    m_m->rst_ni = 1;
    negedge();
  }

  // One CSR write; returns false if the unit refused it (cfg_error_o).
  bool write(uint32_t addr, uint32_t data) {
    m_cfg_in = true;
    m_m->cfg_valid_i = 1;
    m_m->cfg_write_i = 1;
    m_m->cfg_addr_i = addr;
    m_m->cfg_wdata_i = data;
    posedge();
    m_m->cfg_valid_i = 0;
    m_m->cfg_write_i = 0;
    negedge();
    return !m_m->cfg_error_o;
  }
  uint32_t read(uint32_t addr) {
    m_cfg_in = true;
    m_m->cfg_valid_i = 1;
    m_m->cfg_write_i = 0;
    m_m->cfg_addr_i = addr;
    posedge();
    m_m->cfg_valid_i = 0;
    negedge();
    return m_m->cfg_rdata_o;
  }
  void program(const std::vector<std::pair<uint32_t, uint32_t>>& writes) {
    for (const auto& [a, d] : writes) write(a, d);
  }
  // Clock cycles with no operation.
  void idle(uint64_t cycles = 1) {
    for (uint64_t i = 0; i < cycles; ++i) {
      posedge();
      negedge();
    }
  }

  // One clock cycle with a release and/or a request offered (or none), and optionally a CSR
  // write (address, data) in the same cycle: the rising edge with them, the falling edge
  // with idle inputs. Returns what the unit registered at the edge.
  CycleOut step(const admission::Departure* d, const admission::Request* r,
                const std::pair<uint32_t, uint32_t>* write = nullptr) {
    if (d) drive_release(*d);
    if (r) drive_request(*r);
    if (write) {
      m_cfg_in = true;
      m_m->cfg_valid_i = 1;
      m_m->cfg_write_i = 1;
      m_m->cfg_addr_i = write->first;
      m_m->cfg_wdata_i = write->second;
    }
    CycleOut o;
    posedge();
    o.req_taken = r && m_ready;
    o.rsp_valid = m_m->rsp_valid_o;
    o.rsp = response();
    o.rel_valid = m_m->rel_rsp_valid_o;
    o.rel = release_response();
    m_m->rel_valid_i = 0;
    m_m->req_valid_i = 0;
    m_m->cfg_valid_i = 0;
    m_m->cfg_write_i = 0;
    negedge();
    return o;
  }

  // An operation and its response: the operation's cycle, then PIPE cycles with idle inputs
  // until the unit has decided it (its state then holds the operation's effect).
  admission::Result admit(const admission::Request& r) {
    CycleOut o = step(nullptr, &r);
    for (uint32_t i = 0; i < m_p.pipe; ++i) o = step(nullptr, nullptr);
    return o.rsp;
  }

  admission::PfcUpdate depart(const admission::Departure& d) {
    CycleOut o = step(&d, nullptr);
    for (uint32_t i = 0; i < m_p.pipe; ++i) o = step(nullptr, nullptr);
    return o.rel;
  }

  // A release and a request offered in the same cycle. A dual-issue unit takes both at
  // once; a single-issue one takes the release and holds the request (ready low) for one
  // more cycle. Either way the request decides on the state the release leaves.
  std::pair<admission::PfcUpdate, admission::Result> depart_and_admit(const admission::Departure& d,
                                                                       const admission::Request& r) {
    CycleOut o = step(&d, &r);
    m_stalled = !o.req_taken;
    admission::PfcUpdate u = o.rel;
    admission::Result res = o.rsp;
    const uint32_t more = m_p.pipe + (m_stalled ? 1 : 0);
    for (uint32_t i = 0; i < more; ++i) {
      o = i == 0 && m_stalled ? step(nullptr, &r) : step(nullptr, nullptr);
      if (o.rel_valid) u = o.rel;
      if (o.rsp_valid) res = o.rsp;
    }
    return {u, res};
  }
  // Whether the last depart_and_admit's request was held for a cycle.
  bool request_waited() const { return m_stalled; }

  // The debug/state read port (cosim/state_map.h): DBG_LANES words per evaluation.
  static constexpr uint32_t kLanes =
      sizeof(std::remove_reference_t<decltype(std::declval<Model&>().dbg_data_o)>) / sizeof(uint64_t);
  // Lane `l` shows the word at `addr` from now on: after an operation's clock edge, the
  // entry's new value, with no evaluation of its own.
  void watch(uint32_t l, uint32_t addr) {
    set_field(m_m->dbg_addr_i, 16 * l, addr);
    m_dbg_in = true;
  }
  // Lanes 0 .. n-1 show the words at `addrs` (n at most kLanes), the others keep theirs; a
  // wrapped model's addresses load only if one changed.
  void watch_all(const uint32_t* addrs, uint32_t n) {
    auto& in = m_m->dbg_addr_i;
    using In = std::remove_reference_t<decltype(in)>;
    if constexpr (std::is_integral_v<In>) {
      In v = in;
      for (uint32_t l = 0; l < n; ++l) set_field(v, 16 * l, addrs[l]);
      if (v != in) {
        in = v;
        m_dbg_in = true;
      }
    } else {
      for (uint32_t l = 0; l < n; l += 2) {
        const uint32_t lo = addrs[l] & 0xffff;
        const uint32_t w = l + 1 < n ? lo | (addrs[l + 1] & 0xffff) << 16 : (in[l / 2] & 0xffff0000u) | lo;
        if (in[l / 2] != w) {
          in[l / 2] = w;
          m_dbg_in = true;
        }
      }
    }
    if constexpr (!kWrapped) m_dbg_in = true;
  }
  uint64_t watched(uint32_t l) const { return get_word(m_m->dbg_data_o, l); }
  // Words at `addrs`, a batch of kLanes per evaluation (the unit's inputs are idle
  // between operations), into `out`. The lanes are left watching the last batch.
  void fetch(const uint32_t* addrs, size_t count, uint64_t* out) {
    for (size_t i = 0; i < count; i += kLanes) {
      const uint32_t n = uint32_t(std::min<size_t>(kLanes, count - i));
      set_lanes(addrs + i, n);
      if constexpr (kWrapped) {
        // An edge of the address registers' strobe alone (either edge loads them): only the
        // lanes are evaluated, one evaluation a batch.
        m_m->dbg_ld_i = !m_m->dbg_ld_i;
        m_m->eval();
        m_dbg_in = false;
      } else {
        m_m->eval();
      }
      for (uint32_t l = 0; l < n; ++l) out[i + l] = watched(l);
    }
  }
  std::vector<uint64_t> fetch(const std::vector<uint32_t>& addrs) {
    std::vector<uint64_t> out(addrs.size());
    fetch(addrs.data(), addrs.size(), out.data());
    return out;
  }
  uint64_t peek(state_map::Region r, uint32_t index) { return fetch({state_map::addr(r, index)})[0]; }

  uint64_t ing(uint32_t q) { return peek(state_map::kIng, q); }
  uint64_t hdrm(uint32_t q) { return peek(state_map::kHdrm, q); }
  uint64_t egr(uint32_t q) { return peek(state_map::kEgr, q); }
  bool paused(uint32_t q) { return peek(state_map::kPaused, q) != 0; }
  bool port_paused(uint32_t p) { return peek(state_map::kPortPaused, p) != 0; }
  uint64_t pool_used(uint32_t k) { return peek(state_map::kPoolUsed, k); }
  // Policy state: reverie's filters (q_hat, EWMA_FRAC fraction bits) and n_p (an integer
  // count), dsh's port counters; abm's (state_map::kAbmIn/kAbmEg, kNcong from 8).
  uint64_t avg_in(uint32_t q) { return peek(state_map::kAvgIn, q); }
  uint64_t avg_eg(uint32_t q) { return peek(state_map::kAvgEg, q); }
  uint64_t ncong(uint32_t prio) { return peek(state_map::kNcong, prio); }
  uint64_t port_shared(uint32_t p) { return peek(state_map::kPortShared, p); }
  uint64_t port_ins(uint32_t p) { return peek(state_map::kPortIns, p); }
  // On the statistics ports: no evaluation needed.
  uint64_t total() const { return m_m->stat_total_o; }
  uint64_t hdrm_pool() const { return m_m->stat_hdrm_pool_o; }
  bool underflow() const { return m_m->stat_underflow_o; }

  // The architectural state in the golden core's form (admission/arch_state.h): the
  // counter bank, and the policy state of the policy the unit runs (reverie: q_hat and n_p
  // in the core's 8 fraction bits; dsh: port counters), which the core keeps only then;
  // the first `npools` pools (the configuration's).
  admission::ArchState state(bool reverie, bool dsh, uint32_t npools, bool abm = false) {
    const state_map::Dims d{m_p.nports * m_p.nprio, m_p.nports, m_p.nprio, std::min(npools, m_p.npools)};
    // The addresses are the same from one read to the next: kept with what they are for.
    const uint32_t key = 1u << 31 | d.npools << 3 | uint32_t(reverie) << 2 | uint32_t(dsh) << 1 | uint32_t(abm);
    if (key != m_plan_key) {
      m_plan = state_map::plan(d, reverie, dsh, abm);
      m_plan_key = key;
      m_words.resize(m_plan.addrs.size());
    }
    fetch(m_plan.addrs.data(), m_plan.addrs.size(), m_words.data());
    return state_map::unpack(m_plan, m_words.data());
  }

 private:
  void drive_request(const admission::Request& r) {
    m_op_in = true;
    m_m->req_valid_i = 1;
    m_m->req_in_port_i = r.in_port;
    m_m->req_out_port_i = r.out_port;
    m_m->req_prio_i = r.prio;
    m_m->req_queue_i = r.egress_queue();
    m_m->req_cells_i = r.cells;
    m_m->now_i = uint32_t(r.cycle);
    if (m_wave) m_wave->issue(r.cycle);
  }
  void drive_release(const admission::Departure& d) {
    m_op_in = true;
    m_m->rel_valid_i = 1;
    m_m->rel_in_port_i = d.in_port;
    m_m->rel_out_port_i = d.out_port;
    m_m->rel_prio_i = d.prio;
    m_m->rel_queue_i = d.egress_queue();
    m_m->rel_cells_i = d.cells;
    m_m->now_i = uint32_t(d.cycle);
    if (m_wave) m_wave->issue(d.cycle);
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
  // An evaluation of the inputs for the next rising edge.
  void eval() {
    m_m->eval();
    if (m_wave) m_wave->setup();
  }
  // Port fields of a Verilated model: an integer up to 64 bits, else 32-bit words.
  template <class T>
  static void set_field(T& v, uint32_t lsb, uint32_t x) {
    using U = std::remove_reference_t<T>;
    v = U((uint64_t(v) & ~(uint64_t(0xffff) << lsb)) | uint64_t(x & 0xffff) << lsb);
  }
  template <std::size_t N>
  static void set_field(VlWide<N>& v, uint32_t lsb, uint32_t x) {
    v[lsb / 32] = (v[lsb / 32] & ~(0xffffu << lsb % 32)) | (x & 0xffff) << lsb % 32;
  }
  // The first n lanes' addresses (a whole-state read's batch).
  void set_lanes(const uint32_t* addrs, uint32_t n) {
    auto& in = m_m->dbg_addr_i;
    if constexpr (std::is_integral_v<std::remove_reference_t<decltype(in)>>) {
      for (uint32_t l = 0; l < n; ++l) set_field(in, 16 * l, addrs[l]);
    } else {
      uint32_t l = 0;
      for (; l + 1 < n; l += 2) in[l / 2] = (addrs[l] & 0xffff) | (addrs[l + 1] & 0xffff) << 16;
      if (l < n) set_field(in, 16 * l, addrs[l]);
    }
  }
  template <class T>
  static uint64_t get_word(const T& v, uint32_t) { return uint64_t(v); }
  template <std::size_t N>
  static uint64_t get_word(const VlWide<N>& v, uint32_t l) { return uint64_t(v[2 * l + 1]) << 32 | v[2 * l]; }

  // A clock cycle: the rising edge with the operation's inputs, then the falling edge with
  // the inputs the caller leaves for the next cycle.
  // The unit itself: two evaluations per cycle, each evaluating every input's logic; the
  // waveform shows the inputs before the edge, an evaluation of its own (traced only).
  // Ready is combinational from the inputs alone (rtl/mmu_admission.sv), which the edge
  // leaves as they were: read after it.
  // The wrapper (mmu_cosim.sv): two evaluations per cycle. The falling edge of the cycle
  // before (which clocks nothing) with the groups of inputs driven since then loaded by
  // their strobes (the logic behind them evaluated; ready read then, as the edge clears
  // the valid bits), then the rising edge with the strobes low and the debug addresses
  // loaded with it (an edge of their strobe, if any changed), as they feed only the lanes.
  void posedge() {
    if constexpr (kWrapped) {
      m_m->clk_i = 0;
      m_m->op_ld_i = m_op_in;
      m_m->cfg_ld_i = m_cfg_in;
      m_m->eval();
      m_m->op_ld_i = m_m->cfg_ld_i = 0;
      m_op_in = m_cfg_in = false;
      m_ready = m_m->req_ready_o;
      if (m_dbg_in) m_m->dbg_ld_i = !m_m->dbg_ld_i;
      m_dbg_in = false;
    } else if (m_wave) {
      eval();
    }
    m_m->clk_i = 1;
    m_ctx->timeInc(1);
    m_m->eval();
    if constexpr (!kWrapped) m_ready = m_m->req_ready_o;
    if (m_wave) m_wave->rise();
  }
  // (The wrapper's is evaluated with the next cycle's loads.)
  void negedge() {
    if constexpr (!kWrapped) {
      m_m->clk_i = 0;
      m_ctx->timeInc(1);
      m_m->eval();
      if (m_wave) m_wave->fall();
    } else {
      m_ctx->timeInc(1);
    }
    ++m_cycle;
  }

  UnitParams m_p;
  std::unique_ptr<VerilatedContext> m_ctx;
  std::unique_ptr<Model> m_m;
  std::unique_ptr<Wave> m_wave;
  uint64_t m_cycle = 0;
  bool m_stalled = false;
  bool m_ready = false;  // req_ready_o at the last edge
  // The whole-state read's addresses (state()), for the key's policy and pools, and words.
  state_map::Plan m_plan;
  uint32_t m_plan_key = 0;
  std::vector<uint64_t> m_words;
  // Input groups driven since the last edge, for a wrapper's strobes.
  bool m_op_in = false, m_cfg_in = false, m_dbg_in = false;
};

}  // namespace mmusim::rtl
