#pragma once
// The hand-computed admission configuration shared by the core and policy unit tests.
#include "admission/types.h"

namespace mmusim::admission::testcfg {

constexpr uint32_t kLl = 3;  // lossless priority
constexpr uint32_t kLy = 1;  // lossy priority

// 2 ports; ingress pool 600 cells, egress lossless pool 1000, egress lossy pool 600,
// headroom pool 100; lossless PG alpha = 2^shift, xoff 50, xon_offset 10.
inline CoreConfig small_config(int8_t shift = 0, uint64_t reserved = 0) {
  CoreConfig c;
  c.ports = 2;
  c.prios = 8;
  c.buffer_cells = 1000;
  c.pool_cells = {600, 1000, 600};
  c.headroom_pool_cells = 100;
  c.ingress_profiles = {
      {0, reserved, {true, shift, 0}, 50, 0, 10},  // lossless
      {0, 0, {false, 0, 1000}, 0, 0, 0},           // lossy: "infinite" static threshold
  };
  c.egress_profiles = {
      {1, 0, {false, 0, 1000}},  // lossless
      {2, 0, {true, 0, 0}},      // lossy, alpha 1
  };
  const size_t n = size_t(c.ports) * c.prios;
  c.pg_profile.assign(n, 1);
  c.queue_profile.assign(n, 1);
  c.lossless.assign(n, 0);
  for (uint32_t p = 0; p < c.ports; ++p) {
    c.pg_profile[p * 8 + kLl] = 0;
    c.queue_profile[p * 8 + kLl] = 0;
    c.lossless[p * 8 + kLl] = 1;
  }
  return c;
}

}  // namespace mmusim::admission::testcfg
