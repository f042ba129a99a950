#include "cosim/rtl_engine.h"

#include <stdexcept>
#include <vector>

#ifdef MMUSIM_HAVE_RTL
#include "Vmmu_cosim.h"
#include "Vmmu_cosim___024root.h"
#include "cosim/lockstep.h"
#endif

namespace mmusim {

#ifdef MMUSIM_HAVE_RTL

namespace {
// The unit compiled into mmusim (CMakeLists.txt, verilate ... PREFIX Vmmu_cosim).
const rtl::UnitParams kParams{MMUSIM_RTL_NPORTS, 8, 32, 4, 8, 16};
}  // namespace

struct RtlEngine::Impl {
  struct Op {
    bool admit;
    admission::Request r;
  };
  Impl(const admission::CoreConfig& c, std::string wave) : cfg(c), ls(c, kParams), waveform(std::move(wave)) {}

  // Replays every operation so far into a traced unit, up to and including the bad one.
  std::string replay() {
    rtl::Lockstep<Vmmu_cosim> traced(cfg, kParams, waveform);
    for (const Op& o : log) {
      if (o.admit) traced.admit(o.r);
      else traced.depart({o.r.in_port, o.r.out_port, o.r.prio, o.r.cells, o.r.cycle});
    }
    return waveform;
  }
  [[noreturn]] void fail() {
    const std::string report = ls.mismatch().report;
    const std::string fst = replay();
    throw std::runtime_error("RTL/C++ lockstep: " + report + "; waveform " + fst);
  }

  admission::CoreConfig cfg;
  rtl::Lockstep<Vmmu_cosim> ls;
  std::string waveform;
  std::vector<Op> log;
};

bool RtlEngine::available() { return true; }

std::string RtlEngine::describe() {
  return "RTL unit: " + std::to_string(kParams.nports) + " ports x " + std::to_string(kParams.nprio) +
         " priorities, " + std::to_string(kParams.cw) + "-bit counters, " + std::to_string(kParams.npools) +
         " pools, " + std::to_string(kParams.nprof) + " profiles, EWMA fraction " + std::to_string(kParams.ewma_frac);
}

RtlEngine::RtlEngine(const admission::CoreConfig& cfg, std::string waveform_path) {
  if (cfg.ewma.frac_bits != kParams.ewma_frac)
    throw std::invalid_argument("admission.ewma.frac_bits must be " + std::to_string(kParams.ewma_frac) +
                                " for the RTL unit");
  m = std::make_unique<Impl>(cfg, std::move(waveform_path));
}

RtlEngine::~RtlEngine() = default;

admission::Result RtlEngine::admit(const admission::Request& r) {
  m->log.push_back({true, r});
  const admission::Result res = m->ls.admit(r);
  if (m->ls.mismatch().any) m->fail();
  return res;
}

admission::PfcUpdate RtlEngine::depart(const admission::Departure& d) {
  m->log.push_back({false, {d.in_port, d.out_port, d.prio, d.cells, d.cycle}});
  const admission::PfcUpdate u = m->ls.depart(d);
  if (m->ls.mismatch().any) m->fail();
  return u;
}

uint64_t RtlEngine::cycles() const { return m->ls.unit().cycle(); }

#else

struct RtlEngine::Impl {};

bool RtlEngine::available() { return false; }
std::string RtlEngine::describe() { return "no RTL unit (built without Verilator)"; }
RtlEngine::RtlEngine(const admission::CoreConfig&, std::string) {
  throw std::invalid_argument("mmusim was built without Verilator: admission.impl rtl is unavailable");
}
RtlEngine::~RtlEngine() = default;
admission::Result RtlEngine::admit(const admission::Request&) { return {}; }
admission::PfcUpdate RtlEngine::depart(const admission::Departure&) { return {}; }
uint64_t RtlEngine::cycles() const { return 0; }

#endif

}  // namespace mmusim
