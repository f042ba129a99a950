#pragma once
// Parameter sets and the hand-computed directed configuration shared by the RTL tests.
#include <string>

#include "admission/types.h"
#include "cosim/rtl_unit.h"

namespace mmusim::rtl::testcfg {

// The parameter sets the CMake build verilates (tb/CMakeLists.txt); the small units are
// single-issue (DUAL_ISSUE 0); the pipe units have the two-stage request path (PIPE 1),
// kPipe3Mid the four-stage one.
const UnitParams kSmall{4, 4, 16, 3, 4, 8, false};
const UnitParams kMid{8, 8, 32, 4, 8, 16};
const UnitParams kBig{32, 8, 32, 4, 8, 16};
const UnitParams kPipeSmall{4, 4, 16, 3, 4, 8, false, 1};
const UnitParams kPipeMid{8, 8, 32, 4, 8, 16, true, 1};
// The four-stage request path (PIPE 3: look-up, memory, test, decide), dt, static, sih and dsh.
const UnitParams kPipe3Mid{8, 8, 32, 4, 8, 16, true, 3};

constexpr uint8_t kLl = 3;  // lossless priority in the directed cases
constexpr uint8_t kLy = 1;

// The hand-computed case of tb/unit/test_admission_core.cc on a unit's shape: ingress pool
// 600, egress lossless 1000, egress lossy 600, headroom pool 100, xoff 50, xon_offset 10.
inline admission::CoreConfig directed_config(const UnitParams& p, const std::string& policy) {
  admission::CoreConfig c;
  c.ports = p.nports;
  c.prios = p.nprio;
  c.counter_bits = p.cw;
  c.policy = policy;
  c.buffer_cells = 1000;
  c.pool_cells = {600, 1000, 600};
  c.headroom_pool_cells = 100;
  c.ingress_profiles = {{0, 0, {true, 0, 0}, 50, 0, 10}, {0, 0, {false, 0, 1000}, 0, 0, 0}};
  c.egress_profiles = {{1, 0, {false, 0, 1000}}, {2, 0, {true, 0, 0}}};
  const size_t n = size_t(p.nports) * p.nprio;
  c.pg_profile.assign(n, 1);
  c.queue_profile.assign(n, 1);
  c.lossless.assign(n, 0);
  for (uint32_t port = 0; port < p.nports; ++port) {
    c.pg_profile[port * p.nprio + kLl] = 0;
    c.queue_profile[port * p.nprio + kLl] = 0;
    c.lossless[port * p.nprio + kLl] = 1;
  }
  c.ewma.frac_bits = uint8_t(p.ewma_frac);
  c.ewma.k = 0;  // q_hat = q: thresholds are hand-computable
  c.ewma.rule = admission::EwmaConfig::Rule::kEnqueueDequeue;
  c.congestion.cells = 1;
  // abm: intervals of 16 cycles in which a port can send 24 cells (operations at cycle 0
  // stay in the first interval: full rate).
  c.abm.interval_log2 = 4;
  c.abm.port_cells_per_interval.assign(p.nports, 24);
  return c;
}

}  // namespace mmusim::rtl::testcfg
