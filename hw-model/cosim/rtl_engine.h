#pragma once
// Co-simulation: the Verilated RTL admission unit makes the MMU's decisions, with the
// golden core in lockstep. The first disagreement (decision, PFC event or counter) stops
// the run with a report (cycle, operation, expected, got) and an FST waveform of the RTL,
// replayed from the start of the run.
#include <memory>
#include <cstdint>
#include <string>

#include "admission/regfile.h"
#include "admission/types.h"

namespace mmusim {

class RtlEngine {
 public:
  // True when mmusim was built with Verilator (the RTL model compiled in).
  static bool available();
  // Parameters of the compiled-in unit, for error messages.
  static std::string describe();

  // Builds the unit; the first operation programs it through its CSRs. Throws
  // std::invalid_argument if it cannot hold `cfg`. `clock_period_ps`: the MMU's clock, the
  // time axis of the unit's waveforms (cosim/rtl_wave.h).
  RtlEngine(const admission::CoreConfig& cfg, std::string waveform_path, uint64_t clock_period_ps);
  ~RtlEngine();

  // Throw std::runtime_error with the mismatch report (and waveform path) on disagreement.
  admission::Result admit(const admission::Request& r);
  admission::PfcUpdate depart(const admission::Departure& d);
  // The end of the run: the operations still in flight in a pipelined unit are decided
  // and checked (std::runtime_error with the report on disagreement).
  void finish();
  uint64_t cycles() const;
  // A run-time CSR write (software through the model's CSR target): to the unit and the
  // checking core alike; throws std::runtime_error with the report if they disagree.
  void csr_write(uint32_t addr, uint32_t data);
  // A CSR read from the unit itself.
  uint32_t csr_read(uint32_t addr);
  // The compiled-in unit's register map parameters.
  static admission::RtlParams params();
  // The unit's waveform, from its first cycle (before the first operation): an FST at
  // `fst`.
  void trace(std::string fst);
  // Ends it; std::runtime_error if the file is incomplete.
  void close_trace();
  // Fault injection for tests: a CSR write that reaches the RTL unit and not the golden
  // core, so the next operation it affects must be reported as a mismatch.
  bool inject_unit_csr_write(uint32_t addr, uint32_t data);

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

}  // namespace mmusim
