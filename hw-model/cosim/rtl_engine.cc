#include "cosim/rtl_engine.h"

#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "admission/regfile.h"

#ifdef MMUSIM_HAVE_RTL
#include "Vmmu_cosim_abm.h"
#include "Vmmu_cosim_all.h"
#include "Vmmu_cosim_dsh.h"
#include "Vmmu_cosim_dt.h"
#include "Vmmu_cosim_pipe_abm.h"
#include "Vmmu_cosim_pipe_all.h"
#include "Vmmu_cosim_pipe_dsh.h"
#include "Vmmu_cosim_pipe_dt.h"
#include "Vmmu_cosim_pipe_reverie.h"
#include "Vmmu_cosim_pipe_sih.h"
#include "Vmmu_cosim_pipe_static.h"
#include "Vmmu_cosim_pipe3_all.h"
#include "Vmmu_cosim_pipe3_dsh.h"
#include "Vmmu_cosim_pipe3_dt.h"
#include "Vmmu_cosim_pipe3_sih.h"
#include "Vmmu_cosim_pipe3_static.h"
#include "Vmmu_cosim_reverie.h"
#include "Vmmu_cosim_sih.h"
#include "Vmmu_cosim_static.h"
#include "admission/regs.h"
#include "cosim/lockstep.h"
#endif

namespace mmusim {

#ifdef MMUSIM_HAVE_RTL

namespace {
// The unit compiled into mmusim (CMakeLists.txt, mmusim_cosim_model), a C++-mode model:
// the MMU clocks it from its own SystemC process, one cycle per operation inside the
// decision call. The clock is gated while the switch is idle: before an operation after a
// gap it runs only the few idle cycles that bring the threshold calculator where the
// golden core, counting the gap from the operations' cycles, has it
// (Lockstep::set_idle_from_cycles).
const rtl::UnitParams kParams{MMUSIM_RTL_NPORTS, 8, 32, 4, 8, 16};
// The pipelined unit (PIPE 1, admission.pipeline 1), otherwise the same, streamed: each
// operation is checked when the unit decides it, at the next operation's gap or at the end.
const rtl::UnitParams kPipeParams = [] {
  rtl::UnitParams p = kParams;
  p.pipe = 1;
  return p;
}();
// The four-stage unit (PIPE 3, admission.pipeline 3; dt, static, sih and dsh), streamed too.
const rtl::UnitParams kPipe3Params = [] {
  rtl::UnitParams p = kParams;
  p.pipe = 3;
  return p;
}();

// The builds of it, by CTRL.policy value: each with that policy alone (POLICIES) and no
// tracing, so that Verilator drops the logic of the others and every signal no output
// reads (docs/performance.md); `All`, with all six and tracing, for a waveform (--vcd,
// the replay after a mismatch) and for a run that switches policy. Then the same for the
// pipelined unit (admission.pipeline 1): the six `pipe_<policy>` and `PipeAll`; then the
// four-stage unit's (admission.pipeline 3): `pipe3_` dt, static, sih, dsh and `Pipe3All`.
using All = Vmmu_cosim_all;
using PipeAll = Vmmu_cosim_pipe_all;
using Pipe3All = Vmmu_cosim_pipe3_all;
template <class... M>
using SessionOf = std::variant<std::unique_ptr<rtl::Lockstep<M>>...>;
using Session = SessionOf<Vmmu_cosim_dt, Vmmu_cosim_reverie, Vmmu_cosim_dsh, Vmmu_cosim_static, Vmmu_cosim_sih,
                          Vmmu_cosim_abm, All, Vmmu_cosim_pipe_dt, Vmmu_cosim_pipe_reverie, Vmmu_cosim_pipe_dsh,
                          Vmmu_cosim_pipe_static, Vmmu_cosim_pipe_sih, Vmmu_cosim_pipe_abm, PipeAll,
                          Vmmu_cosim_pipe3_dt, Vmmu_cosim_pipe3_static, Vmmu_cosim_pipe3_sih, Vmmu_cosim_pipe3_dsh,
                          Pipe3All>;
namespace R = admission::regs;
// The variant's alternative for a policy is its CTRL.policy value.
static_assert(R::CTRL_POLICY_DT == 0 && R::CTRL_POLICY_REVERIE == 1 && R::CTRL_POLICY_DSH == 2 &&
              R::CTRL_POLICY_STATIC == 3 && R::CTRL_POLICY_SIH == 4 && R::CTRL_POLICY_ABM == 5);
size_t model_of(const std::string& policy) {
  static const char* const kNames[] = {"dt", "reverie", "dsh", "static", "sih", "abm"};
  for (size_t i = 0; i < std::size(kNames); ++i)
    if (policy == kNames[i]) return i;
  throw std::invalid_argument("no RTL model for policy '" + policy + "'");
}
constexpr size_t kAll = 6;
constexpr size_t kPipe = kAll + 1;  // the pipelined unit's models: kPipe + policy, then all
constexpr size_t kPipeAll = kPipe + kAll;
constexpr size_t kPipe3 = kPipeAll + 1;  // the four-stage unit's: dt, static, sih, dsh, all
constexpr size_t kPipe3All = kPipe3 + 4;
static_assert(std::variant_size_v<Session> == kPipe3All + 1);
// The model of `policy` (a model_of index, or kAll) for the unit with PIPE `pipe`. PIPE 3
// leaves out reverie and abm: its model with all it has for them (which refuses them, as
// the core does).
size_t model_at(size_t policy, uint32_t pipe) {
  if (pipe == 3)
    return kPipe3 + (policy == R::CTRL_POLICY_DT ? 0 : policy == R::CTRL_POLICY_STATIC ? 1
                     : policy == R::CTRL_POLICY_SIH ? 2 : policy == R::CTRL_POLICY_DSH ? 3 : 4);
  return pipe ? kPipe + policy : policy;
}
// The PIPE of the model at `index`.
uint32_t pipe_at(size_t index) { return index >= kPipe3 ? 3 : index >= kPipe ? 1 : 0; }

constexpr uint32_t kFullStateWordsPerOp = MMUSIM_RTL_FULL_STATE_WORDS_PER_OP;

// A switch with fewer ports than the unit uses its first ports; the others get lossy
// queues on profile 0 and never see an operation, so they change no decision.
admission::CoreConfig pad_ports(admission::CoreConfig c) {
  if (c.ports >= kParams.nports) return c;
  const size_t nq = size_t(kParams.nports) * c.prios;
  c.pg_profile.resize(nq, 0);
  c.queue_profile.resize(nq, 0);
  c.lossless.resize(nq, 0);
  c.ports = kParams.nports;
  return c;
}
}  // namespace

struct RtlEngine::Impl {
  struct Op {
    enum class Kind { kAdmit, kDepart, kCsrWrite, kUnitWrite } kind;
    admission::Request r;  // kCsrWrite, kUnitWrite: in_port = address, cells = data
  };
  Impl(const admission::CoreConfig& c, std::string wave, uint64_t period)
      : cfg(c), waveform(std::move(wave)), period_ps(period) {}

  // `f` on the lockstep, built at the first operation, as the MMU's core is by then: on the
  // model of the configuration's policy, or the one with all six (traced) if a waveform is
  // asked for; the pipelined units' for admission.pipeline 1 and 3.
  template <class F>
  decltype(auto) with(F&& f) {
    if (!ls) ls = make(model_at(trace.empty() ? model_of(cfg.policy) : kAll, cfg.pipe), trace, false);
    return std::visit([&](auto& l) -> decltype(auto) { return f(*l); }, *ls);
  }
  // A lockstep on the model at `index`, with the operations so far replayed into it if
  // `replayed` (their first mismatch, if any, left in its report).
  Session make(size_t index, const std::string& fst, bool replayed) {
    Session s = make_at(index, fst, std::make_index_sequence<std::variant_size_v<Session>>{});
    if (replayed) std::visit([&](auto& l) { replay(*l); }, s);
    return s;
  }
  template <size_t I>
  using LockstepAt = typename std::variant_alternative_t<I, Session>::element_type;
  template <size_t... I>
  Session make_at(size_t index, const std::string& fst, std::index_sequence<I...>) {
    Session s;
    ((index == I ? void(s.template emplace<I>(make_one<LockstepAt<I>>(fst, pipe_at(I)))) : void()), ...);
    return s;
  }
  template <class L>
  std::unique_ptr<L> make_one(const std::string& fst, uint32_t pipe) {
    auto l = std::make_unique<L>(cfg, pipe == 3 ? kPipe3Params : pipe ? kPipeParams : kParams, fst, period_ps);
    l->set_idle_from_cycles(true);
    l->set_streaming(pipe != 0);
    // The counters an operation names after each one, the whole state (every queue's
    // counters and filters, a debug-port read per word) after every n-th, n such that it
    // reads kFullStateWordsPerOp words an operation on average (dt: every 266th; abm, whose
    // state is 2.5 times dt's: every 654th; docs/performance.md: its cost).
    l->set_full_state_words_per_op(kFullStateWordsPerOp);
    return l;
  }
  bool failed() {
    return with([](auto& l) { return l.mismatch().any; });
  }
  template <class L>
  void replay(L& l) {
    for (const Op& o : log) {
      if (o.kind == Op::Kind::kAdmit) l.admit(o.r);
      else if (o.kind == Op::Kind::kDepart)
        l.depart({o.r.in_port, o.r.out_port, o.r.prio, o.r.cells, o.r.cycle, o.r.queue});
      else if (o.kind == Op::Kind::kCsrWrite) l.csr_write(o.r.in_port, o.r.cells);
      else l.unit().write(o.r.in_port, o.r.cells);
    }
    l.drain();  // a streamed unit: the operations still in flight decided and checked
  }
  // A CTRL write to a policy the unit's model leaves out: the run goes on on the model with
  // all six, with the operations so far replayed into it (rare: software switches policy on
  // an empty buffer).
  void before_csr_write(uint32_t addr, uint32_t data) {
    const uint32_t p = (data & R::CTRL_POLICY_MASK) >> R::CTRL_POLICY_LSB;
    if (addr != R::CTRL_ADDR || p >= kAll || !ls) return;
    const size_t now = ls->index();
    if (now == model_at(kAll, cfg.pipe) || now == model_at(p, cfg.pipe)) return;
    Session all = make(model_at(kAll, cfg.pipe), "", true);
    ls = std::move(all);
    if (failed()) fail();
  }

  [[noreturn]] void fail() {
    const std::string report = with([](auto& l) { return l.mismatch().report; });
    // Every operation so far into a traced unit, up to and including the bad one.
    make(model_at(kAll, cfg.pipe), waveform, true);
    throw std::runtime_error("RTL/C++ lockstep: " + report + "; waveform " + waveform);
  }

  admission::CoreConfig cfg;
  std::optional<Session> ls;
  std::string waveform;
  std::vector<Op> log;
  uint64_t period_ps;
  std::string trace;  // the live waveform (RtlEngine::trace), empty: none
};

bool RtlEngine::available() { return true; }

std::string RtlEngine::describe() {
  return "RTL unit: " + std::to_string(kParams.nports) + " ports x " + std::to_string(kParams.nprio) +
         " priorities, " + std::to_string(kParams.cw) + "-bit counters, " + std::to_string(kParams.npools) +
         " pools, " + std::to_string(kParams.nprof) + " profiles, EWMA fraction " + std::to_string(kParams.ewma_frac);
}

RtlEngine::RtlEngine(const admission::CoreConfig& cfg, std::string waveform_path, uint64_t clock_period_ps) {
  if (cfg.ewma.frac_bits != kParams.ewma_frac)
    throw std::invalid_argument("admission.ewma.frac_bits must be " + std::to_string(kParams.ewma_frac) +
                                " for the RTL unit");
  // The unit is programmed at its first operation; refuse a configuration it cannot hold now.
  const admission::CoreConfig unit_cfg = pad_ports(cfg);
  admission::encode(unit_cfg, params());
  m = std::make_unique<Impl>(unit_cfg, std::move(waveform_path), clock_period_ps);
}

RtlEngine::~RtlEngine() = default;

admission::Result RtlEngine::admit(const admission::Request& r) {
  m->log.push_back({Impl::Op::Kind::kAdmit, r});
  const admission::Result res = m->with([&](auto& l) { return l.admit(r); });
  if (m->failed()) m->fail();
  return res;
}

admission::PfcUpdate RtlEngine::depart(const admission::Departure& d) {
  m->log.push_back({Impl::Op::Kind::kDepart, {d.in_port, d.out_port, d.prio, d.cells, d.cycle, d.queue}});
  const admission::PfcUpdate u = m->with([&](auto& l) { return l.depart(d); });
  if (m->failed()) m->fail();
  return u;
}

void RtlEngine::finish() {
  if (!m->ls) return;  // no operation: nothing in flight
  m->with([](auto& l) { l.drain(); });
  if (m->failed()) m->fail();
}

uint64_t RtlEngine::cycles() const {
  return m->ls ? std::visit([](auto& l) { return l->unit().cycle(); }, *m->ls) : 0;
}

admission::RtlParams RtlEngine::params() {
  return {kParams.nports, kParams.nprio, kParams.npools, kParams.nprof, kParams.cw};
}

void RtlEngine::csr_write(uint32_t addr, uint32_t data) {
  m->with([](auto&) {});
  m->before_csr_write(addr, data);
  m->log.push_back({Impl::Op::Kind::kCsrWrite, {addr, 0, 0, data, 0}});
  m->with([&](auto& l) { l.csr_write(addr, data); });
  if (m->failed()) m->fail();
}

uint32_t RtlEngine::csr_read(uint32_t addr) {
  return m->with([&](auto& l) { return l.csr_read(addr); });
}

void RtlEngine::trace(std::string fst) {
  if (m->ls) throw std::logic_error("RtlEngine::trace: after the first operation");
  m->trace = std::move(fst);
}

// A unit that never saw an operation is programmed all the same: its waveform shows that.
void RtlEngine::close_trace() {
  m->with([](auto& l) { l.unit().close_wave(); });
}

bool RtlEngine::inject_unit_csr_write(uint32_t addr, uint32_t data) {
  m->log.push_back({Impl::Op::Kind::kUnitWrite, {addr, 0, 0, data, 0}});
  return m->with([&](auto& l) { return l.unit().write(addr, data); });
}

#else

struct RtlEngine::Impl {};

bool RtlEngine::available() { return false; }
std::string RtlEngine::describe() { return "no RTL unit (built without Verilator)"; }
RtlEngine::RtlEngine(const admission::CoreConfig&, std::string, uint64_t) {
  throw std::invalid_argument("mmusim was built without Verilator: admission.impl rtl is unavailable");
}
RtlEngine::~RtlEngine() = default;
admission::Result RtlEngine::admit(const admission::Request&) { return {}; }
admission::PfcUpdate RtlEngine::depart(const admission::Departure&) { return {}; }
void RtlEngine::finish() {}
uint64_t RtlEngine::cycles() const { return 0; }
bool RtlEngine::inject_unit_csr_write(uint32_t, uint32_t) { return false; }
admission::RtlParams RtlEngine::params() { return {}; }
void RtlEngine::csr_write(uint32_t, uint32_t) {}
uint32_t RtlEngine::csr_read(uint32_t) { return 0; }
void RtlEngine::trace(std::string) {}
void RtlEngine::close_trace() {}

#endif

}  // namespace mmusim
