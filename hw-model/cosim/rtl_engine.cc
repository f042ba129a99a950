#include "cosim/rtl_engine.h"

#include <stdexcept>
#include <vector>

#include "admission/regfile.h"

#ifdef MMUSIM_HAVE_RTL
#include "Vmmu_cosim.h"
#include "Vmmu_cosim_fst.h"
#include "cosim/lockstep.h"
#endif

namespace mmusim {

#ifdef MMUSIM_HAVE_RTL

namespace {
// The unit compiled into mmusim (CMakeLists.txt, verilate ... PREFIX Vmmu_cosim), a
// C++-mode model: the MMU clocks it from its own SystemC process, one cycle per operation
// inside the decision call. The clock is gated while the switch is idle: before an
// operation after a gap it runs only the few idle cycles that bring the threshold
// calculator where the golden core, counting the gap from the operations' cycles, has it
// (Lockstep::set_idle_from_cycles).
//
// Two builds of it: Vmmu_cosim without tracing, so that Verilator drops the logic no output
// reads (with tracing every signal is kept and computed at every evaluation:
// docs/performance.md), and Vmmu_cosim_fst with it, for a waveform (--vcd, and the replay
// after a mismatch).
const rtl::UnitParams kParams{MMUSIM_RTL_NPORTS, 8, 32, 4, 8, 16};
using Fast = Vmmu_cosim;
using Traced = Vmmu_cosim_fst;
constexpr uint32_t kFullStateEvery = MMUSIM_RTL_FULL_STATE_EVERY;

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
  // traced model if a waveform is asked for.
  template <class F>
  decltype(auto) with(F&& f) {
    if (!fast && !traced) {
      if (trace.empty()) fast = make<Fast>(trace);
      else traced = make<Traced>(trace);
    }
    return traced ? f(*traced) : f(*fast);
  }
  template <class M>
  std::unique_ptr<rtl::Lockstep<M>> make(const std::string& fst) {
    auto l = std::make_unique<rtl::Lockstep<M>>(cfg, kParams, fst, period_ps);
    l->set_idle_from_cycles(true);
    // The counters an operation names after each one, the whole state (every queue's
    // counters and filters, a debug-port read per word) every kFullStateEvery-th
    // (docs/performance.md: its cost).
    l->set_full_state_every(kFullStateEvery);
    return l;
  }
  bool failed() {
    return with([](auto& l) { return l.mismatch().any; });
  }

  // Replays every operation so far into a traced unit, up to and including the bad one.
  std::string replay() {
    rtl::Lockstep<Traced> traced(cfg, kParams, waveform, period_ps);
    traced.set_idle_from_cycles(true);
    for (const Op& o : log) {
      if (o.kind == Op::Kind::kAdmit) traced.admit(o.r);
      else if (o.kind == Op::Kind::kDepart)
        traced.depart({o.r.in_port, o.r.out_port, o.r.prio, o.r.cells, o.r.cycle, o.r.queue});
      else if (o.kind == Op::Kind::kCsrWrite) traced.csr_write(o.r.in_port, o.r.cells);
      else traced.unit().write(o.r.in_port, o.r.cells);
    }
    return waveform;
  }
  [[noreturn]] void fail() {
    const std::string report = with([](auto& l) { return l.mismatch().report; });
    const std::string fst = replay();
    throw std::runtime_error("RTL/C++ lockstep: " + report + "; waveform " + fst);
  }

  admission::CoreConfig cfg;
  std::unique_ptr<rtl::Lockstep<Fast>> fast;
  std::unique_ptr<rtl::Lockstep<Traced>> traced;
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

uint64_t RtlEngine::cycles() const {
  return m->fast ? m->fast->unit().cycle() : m->traced ? m->traced->unit().cycle() : 0;
}

admission::RtlParams RtlEngine::params() {
  return {kParams.nports, kParams.nprio, kParams.npools, kParams.nprof, kParams.cw};
}

void RtlEngine::csr_write(uint32_t addr, uint32_t data) {
  m->log.push_back({Impl::Op::Kind::kCsrWrite, {addr, 0, 0, data, 0}});
  m->with([&](auto& l) { l.csr_write(addr, data); });
  if (m->failed()) m->fail();
}

uint32_t RtlEngine::csr_read(uint32_t addr) {
  return m->with([&](auto& l) { return l.csr_read(addr); });
}

void RtlEngine::trace(std::string fst) {
  if (m->fast || m->traced) throw std::logic_error("RtlEngine::trace: after the first operation");
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
uint64_t RtlEngine::cycles() const { return 0; }
bool RtlEngine::inject_unit_csr_write(uint32_t, uint32_t) { return false; }
admission::RtlParams RtlEngine::params() { return {}; }
void RtlEngine::csr_write(uint32_t, uint32_t) {}
uint32_t RtlEngine::csr_read(uint32_t) { return 0; }
void RtlEngine::trace(std::string) {}
void RtlEngine::close_trace() {}

#endif

}  // namespace mmusim
