#pragma once
// Random admission configurations and random CSR writes for the lockstep tests, the
// live-configuration unit tests and the RTL soak (tb/campaign/rtl_soak.cc). Everything is
// drawn from the caller's generator, so a seed replays a case exactly.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>

#include "admission/regfile.h"

namespace mmusim::testgen {

struct CsrWrite {
  uint32_t addr = 0, data = 0;
};

// A configuration a unit with parameters `p` can hold: policy dt, reverie, dsh, static, sih or abm; pools,
// profiles, alphas, reserved sizes, headroom, hysteresis, the queue maps, the congestion
// level and the filter all drawn at random.
inline admission::CoreConfig random_config(std::mt19937_64& rng, const admission::RtlParams& p, uint8_t ewma_frac,
                                           const std::string& policy) {
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
  c.ewma.frac_bits = ewma_frac;
  c.ewma.clamp = rng() % 2;
  c.dsh.port_xon_offset_cells = pick(0, 10);
  // abm: short intervals (the tests advance the cycle by a few per operation), capacities
  // around the cells sent per interval, 0 (full rate) now and then.
  c.abm.interval_log2 = uint8_t(pick(0, 7));
  for (uint32_t port = 0; port < p.nports; ++port) c.abm.port_cells_per_interval.push_back(rng() % 8 ? pick(1, 300) : 0);
  // The threshold calculator's period: 1 (the default) half the time.
  c.thresholds.period_cycles = uint32_t(rng() % 2 ? 1 : pick(2, 20));
  return c;
}

// random_write's case for a register's base address.
inline uint64_t register_case(uint32_t reg) {
  namespace R = admission::regs;
  switch (reg) {
    case R::CTRL_ADDR: return 0;
    case R::BUFFER_CELLS_ADDR: return 2;
    case R::HDRM_POOL_CELLS_ADDR: return 3;
    case R::CONGESTED_CELLS_ADDR: return 4;
    case R::DSH_PORT_XON_OFFSET_ADDR: return 5;
    case R::POOL_SIZE_ADDR: return 6;
    case R::IPROF_MODE_ADDR: return 7;
    case R::IPROF_RESERVED_ADDR: return 8;
    case R::IPROF_STATIC_ADDR: return 9;
    case R::IPROF_XOFF_ADDR: return 10;
    case R::IPROF_XON_ADDR: return 11;
    case R::IPROF_XON_OFFSET_ADDR: return 12;
    case R::EPROF_MODE_ADDR: return 13;
    case R::EPROF_RESERVED_ADDR: return 14;
    case R::EPROF_STATIC_ADDR: return 15;
    case R::QMAP_ADDR: return 16;
    case R::ABM_INTERVAL_ADDR: return 17;
    case R::ABM_PORT_CELLS_ADDR: return 18;
    case R::THRESH_PERIOD_ADDR: return 19;
  }
  throw std::invalid_argument("random_write: no writable register at " + std::to_string(reg));
}

// Would a core running `c` accept this write (on an empty buffer)? The register semantics
// of admission/regfile.h, the core's configuration check and its fixed shape.
inline bool core_accepts(const admission::CoreConfig& c, const CsrWrite& w, const admission::RtlParams& p) {
  try {
    admission::CoreConfig n = c;
    admission::write(n, w.addr, w.data, p);
    n.validate();
    return n.pool_cells.size() == c.pool_cells.size();
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// A write software may issue to a unit running `c`: every field in range and the result a
// valid configuration (consistency across registers is software's to keep, docs/rtl.md).
// With `accounting` it may also change the fields that need an empty buffer (CTRL.policy,
// pools of profiles, reserved sizes, QMAP, CONGESTED_CELLS): on a busy buffer the unit and
// the core must both refuse it. `reg` (a register's base address) picks the register;
// kAnyRegister draws one. Falls back to rewriting CTRL unchanged when no value fits.
constexpr uint32_t kAnyRegister = ~0u;
inline CsrWrite random_write(std::mt19937_64& rng, const admission::CoreConfig& c, const admission::RtlParams& p,
                             bool accounting, uint32_t reg = kAnyRegister) {
  namespace R = admission::regs;
  auto pick = [&](uint64_t lo, uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  auto put = [](uint32_t word, uint32_t lsb, uint32_t w, uint64_t v) {
    const uint32_t mask = (w >= 32 ? ~0u : (1u << w) - 1) << lsb;
    return (word & ~mask) | (uint32_t(v << lsb) & mask);
  };
  const uint64_t b = c.buffer_cells;
  const uint32_t nin = uint32_t(c.ingress_profiles.size()), neg = uint32_t(c.egress_profiles.size());
  const uint32_t npools = uint32_t(c.pool_cells.size());
  for (int attempt = 0; attempt < 64; ++attempt) {
    CsrWrite w;
    const uint32_t ik = uint32_t(pick(0, nin - 1)), ek = uint32_t(pick(0, neg - 1));
    const uint32_t shift = uint32_t(int(pick(0, 8)) - 5) & 0x1f;
    switch (reg == kAnyRegister ? pick(0, 20) : register_case(reg)) {
      case 0:
      case 1: {  // the filter (and, quiesced, the policy)
        w.addr = R::CTRL_ADDR;
        w.data = admission::read(c, w.addr, p);
        if (accounting && rng() % 2) w.data = put(w.data, R::CTRL_POLICY_LSB, R::CTRL_POLICY_W, pick(0, 5));
        w.data = put(w.data, R::CTRL_EWMA_RULE_LSB, 1, rng() % 2);
        w.data = put(w.data, R::CTRL_EWMA_CLAMP_LSB, 1, rng() % 2);
        w.data = put(w.data, R::CTRL_EWMA_K_LSB, R::CTRL_EWMA_K_W, pick(0, 12));
        break;
      }
      case 2: w = {R::BUFFER_CELLS_ADDR, uint32_t(pick(b / 2, std::min<uint64_t>(2 * b, (uint64_t(1) << p.cw) - 1)))}; break;
      case 3: w = {R::HDRM_POOL_CELLS_ADDR, uint32_t(pick(0, b / 3))}; break;
      case 4: w = {R::CONGESTED_CELLS_ADDR, uint32_t(pick(1, 40))}; break;
      case 5: w = {R::DSH_PORT_XON_OFFSET_ADDR, uint32_t(pick(0, 10))}; break;
      case 6: w = {R::POOL_SIZE_ADDR + uint32_t(pick(0, npools - 1)) * R::POOL_SIZE_STRIDE, uint32_t(pick(b / 4, b))}; break;
      case 7: {
        w.addr = R::IPROF_MODE_ADDR + ik * R::IPROF_STRIDE;
        w.data = admission::read(c, w.addr, p);
        if (accounting && rng() % 2) w.data = put(w.data, R::IPROF_MODE_POOL_LSB, R::IPROF_MODE_POOL_W, pick(0, npools - 1));
        w.data = put(w.data, R::IPROF_MODE_DYNAMIC_LSB, 1, rng() % 5 != 0);
        w.data = put(w.data, R::IPROF_MODE_SHIFT_LSB, R::IPROF_MODE_SHIFT_W, shift);
        break;
      }
      case 8: w = {R::IPROF_RESERVED_ADDR + ik * R::IPROF_STRIDE, uint32_t(rng() % 2 ? pick(1, 12) : 0)}; break;
      case 9: w = {R::IPROF_STATIC_ADDR + ik * R::IPROF_STRIDE, uint32_t(pick(0, b))}; break;
      case 10: w = {R::IPROF_XOFF_ADDR + ik * R::IPROF_STRIDE, uint32_t(pick(0, 60))}; break;
      case 11: w = {R::IPROF_XON_ADDR + ik * R::IPROF_STRIDE, uint32_t(pick(0, 30))}; break;
      case 12: w = {R::IPROF_XON_OFFSET_ADDR + ik * R::IPROF_STRIDE, uint32_t(pick(0, 20))}; break;
      case 13: {
        w.addr = R::EPROF_MODE_ADDR + ek * R::EPROF_STRIDE;
        w.data = admission::read(c, w.addr, p);
        if (accounting && rng() % 2) w.data = put(w.data, R::EPROF_MODE_POOL_LSB, R::EPROF_MODE_POOL_W, pick(0, npools - 1));
        w.data = put(w.data, R::EPROF_MODE_DYNAMIC_LSB, 1, rng() % 5 != 0);
        w.data = put(w.data, R::EPROF_MODE_SHIFT_LSB, R::EPROF_MODE_SHIFT_W, shift);
        break;
      }
      case 14: w = {R::EPROF_RESERVED_ADDR + ek * R::EPROF_STRIDE, uint32_t(rng() % 2 ? pick(1, 12) : 0)}; break;
      case 15: w = {R::EPROF_STATIC_ADDR + ek * R::EPROF_STRIDE, uint32_t(pick(0, b))}; break;
      case 17: w = {R::ABM_INTERVAL_ADDR, uint32_t(pick(0, 7))}; break;
      case 18:
        w = {R::ABM_PORT_CELLS_ADDR + uint32_t(pick(0, p.nports - 1)) * R::ABM_PORT_CELLS_STRIDE,
             uint32_t(rng() % 8 ? pick(1, 300) : 0)};
        break;
      case 19: w = {R::THRESH_PERIOD_ADDR, uint32_t(rng() % 2 ? 1 : pick(1, 20))}; break;
      default: {
        const uint32_t q = uint32_t(pick(0, size_t(p.nports) * p.nprio - 1));
        w.addr = R::QMAP_ADDR + q;
        w.data = uint32_t(pick(0, nin - 1)) << R::QMAP_PG_PROFILE_LSB | uint32_t(pick(0, neg - 1)) << R::QMAP_QUEUE_PROFILE_LSB |
                 uint32_t(rng() % 2) << R::QMAP_LOSSLESS_LSB;
        break;
      }
    }
    // Without `accounting`, a field that needs an empty buffer keeps its value.
    const uint32_t qmask = admission::quiesce_mask(w.addr);
    if (!accounting && ((admission::read(c, w.addr, p) ^ w.data) & qmask) != 0) continue;
    if (core_accepts(c, w, p)) return w;
  }
  return {R::CTRL_ADDR, admission::read(c, R::CTRL_ADDR, p)};  // CTRL rewritten unchanged
}

// A write whose value the unit itself refuses (and the core too): policy 6 (no such policy), ewma_k 31,
// dynamic_th -16, a pool or a profile the unit does not have, a congestion level of 0, an
// abm interval of 2^21 cycles.
inline CsrWrite illegal_write(std::mt19937_64& rng, const admission::CoreConfig& c, const admission::RtlParams& p) {
  namespace R = admission::regs;
  switch (rng() % 7) {
    case 6: return {R::ABM_INTERVAL_ADDR, uint32_t(21 + rng() % 11)};
    case 0: return {R::CTRL_ADDR, (admission::read(c, R::CTRL_ADDR, p) & ~R::CTRL_POLICY_MASK) | 6u};
    case 1: return {R::CTRL_ADDR, admission::read(c, R::CTRL_ADDR, p) | R::CTRL_EWMA_K_MASK};
    case 2: return {R::IPROF_MODE_ADDR, (admission::read(c, R::IPROF_MODE_ADDR, p) & ~R::IPROF_MODE_SHIFT_MASK) | 0x100000u};
    case 3:
      if (p.npools < 16) return {R::EPROF_MODE_ADDR, (admission::read(c, R::EPROF_MODE_ADDR, p) & ~R::EPROF_MODE_POOL_MASK) | 15u};
      [[fallthrough]];
    case 4: return {R::CONGESTED_CELLS_ADDR, 0};
    default: return {R::QMAP_ADDR, 31u << R::QMAP_QUEUE_PROFILE_LSB};
  }
}

}  // namespace mmusim::testgen
