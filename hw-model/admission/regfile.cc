#include "admission/regfile.h"

#include <algorithm>
#include <cstdio>

namespace mmusim::admission {

namespace r = regs;

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument(what); }

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%03x", v);
  return b;
}

constexpr uint32_t ones(uint32_t w) { return w >= 32 ? ~uint32_t(0) : (uint32_t(1) << w) - 1; }

uint32_t field(uint32_t word, uint32_t lsb, uint32_t w) { return (word >> lsb) & ones(w); }

// Cell counts are held in cw bits by the unit (PARAMS.cw), whatever their field's width.
uint32_t cw_bits(uint32_t w, const RtlParams& p) { return std::min(w, p.cw); }

// Puts v into bits [lsb, lsb+w) of word; throws naming `what` when v does not fit.
void put(uint32_t& word, uint32_t lsb, uint32_t w, uint64_t v, const std::string& what) {
  if (v > ones(w)) fail(what + ": " + std::to_string(v) + " does not fit its " + std::to_string(w) + "-bit field");
  word |= uint32_t(v) << lsb;
}

// dynamic_th as a w-bit two's complement field.
void put_shift(uint32_t& word, uint32_t lsb, uint32_t w, int v, const std::string& what) {
  if (v < -15 || v > 15) fail(what + ": dynamic_th " + std::to_string(v) + " outside -15..15");
  word |= (uint32_t(int32_t(v)) & ones(w)) << lsb;
}

int8_t get_shift(uint32_t word, uint32_t lsb, uint32_t w) {
  const uint32_t v = field(word, lsb, w);
  return int8_t(int32_t(v ^ (uint32_t(1) << (w - 1))) - int32_t(uint32_t(1) << (w - 1)));
}

uint32_t count_of(const r::RegInfo& g, const RtlParams& p) {
  if (g.count == 0) return 1;
  uint64_t n = 1;
  if (g.count & r::COUNT_NPORTS) n *= p.nports;
  if (g.count & r::COUNT_NPRIO) n *= p.nprio;
  if (g.count & r::COUNT_NPOOLS) n *= p.npools;
  if (g.count & r::COUNT_NPROF) n *= p.nprof;
  return uint32_t(std::min<uint64_t>(n, g.count_max));
}

// Decodes against explicit entry counts (count_of, or the map's room).
template <class Count>
bool find(uint32_t addr, Count count, CsrLocation& out) {
  if (addr >> r::ADDR_WIDTH) return false;
  for (const auto& g : r::kRegisters) {
    if (g.stride == 0) {
      if (addr == g.addr) {
        out = {&g, 0};
        return true;
      }
      continue;
    }
    if (addr < g.addr || (addr - g.addr) % g.stride != 0) continue;
    const uint32_t k = (addr - g.addr) / g.stride;
    if (k < count(g)) {
      out = {&g, k};
      return true;
    }
  }
  return false;
}

std::string name_of(const CsrLocation& l) {
  std::string s = l.reg->name;
  if (l.reg->stride != 0) s += "[" + std::to_string(l.index) + "]";
  return s;
}

IngressProfile reset_ingress() {
  IngressProfile p;
  p.th.dynamic = false;  // every field of IPROF_* resets to 0
  return p;
}

EgressProfile reset_egress() {
  EgressProfile p;
  p.th.dynamic = false;
  return p;
}

uint32_t policy_code(const std::string& policy, const std::string& what) {
  if (policy == "dt") return r::CTRL_POLICY_DT;
  if (policy == "reverie") return r::CTRL_POLICY_REVERIE;
  if (policy == "dsh") return r::CTRL_POLICY_DSH;
  if (policy == "static") return r::CTRL_POLICY_STATIC;
  if (policy == "sih") return r::CTRL_POLICY_SIH;
  fail(what + ": policy '" + policy + "' is not implemented by the RTL unit (dt, reverie, dsh, static, sih)");
}

uint32_t ewma_rule_code(EwmaConfig::Rule rule, const std::string& what) {
  switch (rule) {
    case EwmaConfig::Rule::kDequeue: return r::CTRL_EWMA_RULE_DEQUEUE;
    case EwmaConfig::Rule::kEnqueueDequeue: return r::CTRL_EWMA_RULE_ENQUEUE_DEQUEUE;
    case EwmaConfig::Rule::kPeriodic: break;
  }
  fail(what + ": the periodic EWMA rule is not in the register map (dequeue, enqueue_dequeue)");
}

void check_shape(const CoreConfig& cfg, const RtlParams& p) {
  if (cfg.ports != p.nports)
    fail("ports " + std::to_string(cfg.ports) + " != unit nports " + std::to_string(p.nports));
  if (cfg.prios != p.nprio)
    fail("prios " + std::to_string(cfg.prios) + " != unit nprio " + std::to_string(p.nprio));
}

uint32_t read_params(const RtlParams& p) {
  uint32_t w = 0;
  put(w, r::PARAMS_NPORTS_LSB, r::PARAMS_NPORTS_W, p.nports, "PARAMS.nports");
  put(w, r::PARAMS_NPRIO_LSB, r::PARAMS_NPRIO_W, p.nprio, "PARAMS.nprio");
  put(w, r::PARAMS_NPOOLS_LSB, r::PARAMS_NPOOLS_W, p.npools, "PARAMS.npools");
  put(w, r::PARAMS_NPROF_LSB, r::PARAMS_NPROF_W, p.nprof, "PARAMS.nprof");
  put(w, r::PARAMS_CW_LSB, r::PARAMS_CW_W, p.cw, "PARAMS.cw");
  return w;
}

// A register of the configuration (ID, PARAMS, read-write registers).
uint32_t read_config(const CoreConfig& c, const CsrLocation& l, const RtlParams& p) {
  const uint32_t k = l.index;
  const std::string what = name_of(l);
  uint32_t w = 0;
  switch (l.reg->addr) {
    case r::ID_ADDR: return r::ID_VALUE;
    case r::PARAMS_ADDR: return read_params(p);
    case r::CTRL_ADDR:
      w |= policy_code(c.policy, what) << r::CTRL_POLICY_LSB;
      w |= ewma_rule_code(c.ewma.rule, what) << r::CTRL_EWMA_RULE_LSB;
      put(w, r::CTRL_EWMA_CLAMP_LSB, r::CTRL_EWMA_CLAMP_W, c.ewma.clamp ? 1 : 0, what + ".ewma_clamp");
      put(w, r::CTRL_EWMA_K_LSB, r::CTRL_EWMA_K_W, c.ewma.k, what + ".ewma_k");
      return w;
    case r::BUFFER_CELLS_ADDR:
      put(w, r::BUFFER_CELLS_CELLS_LSB, cw_bits(r::BUFFER_CELLS_CELLS_W, p), c.buffer_cells, what);
      return w;
    case r::HDRM_POOL_CELLS_ADDR:
      put(w, r::HDRM_POOL_CELLS_CELLS_LSB, cw_bits(r::HDRM_POOL_CELLS_CELLS_W, p), c.headroom_pool_cells, what);
      return w;
    case r::CONGESTED_CELLS_ADDR:
      if (c.congestion.kind != CongestionRule::Kind::kThreshold)
        fail(what + ": the saturation congestion rule is not in the register map (threshold only)");
      put(w, r::CONGESTED_CELLS_CELLS_LSB, cw_bits(r::CONGESTED_CELLS_CELLS_W, p), c.congestion.cells, what);
      return w;
    case r::DSH_PORT_XON_OFFSET_ADDR:
      put(w, r::DSH_PORT_XON_OFFSET_CELLS_LSB, cw_bits(r::DSH_PORT_XON_OFFSET_CELLS_W, p),
          c.dsh.port_xon_offset_cells, what);
      return w;
    case r::POOL_SIZE_ADDR:
      if (k >= c.pool_cells.size()) return r::POOL_SIZE_RESET;
      put(w, r::POOL_SIZE_CELLS_LSB, cw_bits(r::POOL_SIZE_CELLS_W, p), c.pool_cells[k], what);
      return w;
    case r::IPROF_MODE_ADDR:
    case r::IPROF_RESERVED_ADDR:
    case r::IPROF_STATIC_ADDR:
    case r::IPROF_XOFF_ADDR:
    case r::IPROF_XON_ADDR:
    case r::IPROF_XON_OFFSET_ADDR: {
      if (k >= c.ingress_profiles.size()) return l.reg->reset;
      const IngressProfile& ip = c.ingress_profiles[k];
      switch (l.reg->addr) {
        case r::IPROF_MODE_ADDR:
          put(w, r::IPROF_MODE_POOL_LSB, r::IPROF_MODE_POOL_W, ip.pool, what + ".pool");
          put(w, r::IPROF_MODE_DYNAMIC_LSB, r::IPROF_MODE_DYNAMIC_W, ip.th.dynamic ? 1 : 0, what + ".dynamic");
          put_shift(w, r::IPROF_MODE_SHIFT_LSB, r::IPROF_MODE_SHIFT_W, ip.th.shift, what + ".shift");
          return w;
        case r::IPROF_RESERVED_ADDR:
          put(w, r::IPROF_RESERVED_CELLS_LSB, cw_bits(r::IPROF_RESERVED_CELLS_W, p), ip.reserved_cells, what);
          return w;
        case r::IPROF_STATIC_ADDR:
          put(w, r::IPROF_STATIC_CELLS_LSB, cw_bits(r::IPROF_STATIC_CELLS_W, p), ip.th.static_cells, what);
          return w;
        case r::IPROF_XOFF_ADDR:
          put(w, r::IPROF_XOFF_CELLS_LSB, cw_bits(r::IPROF_XOFF_CELLS_W, p), ip.xoff_cells, what);
          return w;
        case r::IPROF_XON_ADDR:
          put(w, r::IPROF_XON_CELLS_LSB, cw_bits(r::IPROF_XON_CELLS_W, p), ip.xon_cells, what);
          return w;
        default:
          put(w, r::IPROF_XON_OFFSET_CELLS_LSB, cw_bits(r::IPROF_XON_OFFSET_CELLS_W, p), ip.xon_offset_cells, what);
          return w;
      }
    }
    case r::EPROF_MODE_ADDR:
    case r::EPROF_RESERVED_ADDR:
    case r::EPROF_STATIC_ADDR: {
      if (k >= c.egress_profiles.size()) return l.reg->reset;
      const EgressProfile& ep = c.egress_profiles[k];
      switch (l.reg->addr) {
        case r::EPROF_MODE_ADDR:
          put(w, r::EPROF_MODE_POOL_LSB, r::EPROF_MODE_POOL_W, ep.pool, what + ".pool");
          put(w, r::EPROF_MODE_DYNAMIC_LSB, r::EPROF_MODE_DYNAMIC_W, ep.th.dynamic ? 1 : 0, what + ".dynamic");
          put_shift(w, r::EPROF_MODE_SHIFT_LSB, r::EPROF_MODE_SHIFT_W, ep.th.shift, what + ".shift");
          return w;
        case r::EPROF_RESERVED_ADDR:
          put(w, r::EPROF_RESERVED_CELLS_LSB, cw_bits(r::EPROF_RESERVED_CELLS_W, p), ep.reserved_cells, what);
          return w;
        default:
          put(w, r::EPROF_STATIC_CELLS_LSB, cw_bits(r::EPROF_STATIC_CELLS_W, p), ep.th.static_cells, what);
          return w;
      }
    }
    case r::QMAP_ADDR:
      if (k >= c.pg_profile.size() || k >= c.queue_profile.size() || k >= c.lossless.size()) return r::QMAP_RESET;
      put(w, r::QMAP_PG_PROFILE_LSB, r::QMAP_PG_PROFILE_W, c.pg_profile[k], what + ".pg_profile");
      put(w, r::QMAP_QUEUE_PROFILE_LSB, r::QMAP_QUEUE_PROFILE_W, c.queue_profile[k], what + ".queue_profile");
      put(w, r::QMAP_LOSSLESS_LSB, r::QMAP_LOSSLESS_W, c.lossless[k] ? 1 : 0, what + ".lossless");
      return w;
    default:
      fail(what + " is a statistics register: it is read from a core");
  }
}

template <class V>
V& at_grow(std::vector<V>& v, size_t k, const V& fill) {
  if (v.size() <= k) v.resize(k + 1, fill);
  return v[k];
}

}  // namespace

RtlParams params_for(const CoreConfig& cfg) {
  RtlParams p;
  p.nports = cfg.ports;
  p.nprio = cfg.prios;
  p.npools = uint32_t(cfg.pool_cells.size());
  p.nprof = uint32_t(std::max<size_t>({1, cfg.ingress_profiles.size(), cfg.egress_profiles.size()}));
  p.cw = cfg.counter_bits;
  return p;
}

void check_params(const RtlParams& p) {
  auto range = [](const char* name, uint32_t v, uint32_t lo, uint32_t hi) {
    if (v < lo || v > hi)
      fail(std::string("unit parameter ") + name + " = " + std::to_string(v) + " outside " + std::to_string(lo) +
           ".." + std::to_string(hi));
  };
  range("nports", p.nports, 1, r::NPORTS_MAX);
  range("nprio", p.nprio, 1, r::NPRIO_MAX);
  range("npools", p.npools, 1, r::NPOOLS_MAX);
  range("nprof", p.nprof, 1, r::NPROF_MAX);
  range("cw", p.cw, 8, 32);
  if (uint64_t(p.nports) * p.nprio > r::QMAP_COUNT_MAX)
    fail("unit parameters nports x nprio = " + std::to_string(uint64_t(p.nports) * p.nprio) + " exceed the " +
         std::to_string(r::QMAP_COUNT_MAX) + " QMAP entries of the map");
}

CsrLocation decode(uint32_t addr, const RtlParams& p) {
  CsrLocation l;
  if (!find(addr, [&](const r::RegInfo& g) { return count_of(g, p); }, l))
    throw CsrAddressError("no register at word address " + hex(addr));
  return l;
}

std::string reg_name(uint32_t addr, const RtlParams& p) {
  CsrLocation l;
  if (!find(addr, [&](const r::RegInfo& g) { return count_of(g, p); }, l)) return hex(addr);
  return name_of(l);
}

std::vector<std::pair<uint32_t, uint32_t>> encode(const CoreConfig& cfg, const RtlParams& p) {
  check_params(p);
  check_shape(cfg, p);
  policy_code(cfg.policy, "CTRL");
  ewma_rule_code(cfg.ewma.rule, "CTRL");
  if (cfg.congestion.kind != CongestionRule::Kind::kThreshold)
    fail("the saturation congestion rule is not in the register map (threshold only)");
  if (cfg.counter_bits != p.cw)
    fail("counter_bits " + std::to_string(cfg.counter_bits) + " != unit cw " + std::to_string(p.cw));
  if (cfg.pool_cells.size() > p.npools)
    fail(std::to_string(cfg.pool_cells.size()) + " pools, the unit has " + std::to_string(p.npools));
  if (cfg.ingress_profiles.size() > p.nprof)
    fail(std::to_string(cfg.ingress_profiles.size()) + " ingress profiles, the unit has " + std::to_string(p.nprof));
  if (cfg.egress_profiles.size() > p.nprof)
    fail(std::to_string(cfg.egress_profiles.size()) + " egress profiles, the unit has " + std::to_string(p.nprof));
  const size_t nq = size_t(p.nports) * p.nprio;
  if (cfg.pg_profile.size() != nq || cfg.queue_profile.size() != nq || cfg.lossless.size() != nq)
    fail("per-queue tables must have ports x prios entries");

  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const auto& g : r::kRegisters) {
    if (g.access != r::Access::kRw) continue;
    uint32_t n = 1;
    switch (g.addr) {
      case r::POOL_SIZE_ADDR: n = uint32_t(cfg.pool_cells.size()); break;
      case r::IPROF_MODE_ADDR:
      case r::IPROF_RESERVED_ADDR:
      case r::IPROF_STATIC_ADDR:
      case r::IPROF_XOFF_ADDR:
      case r::IPROF_XON_ADDR:
      case r::IPROF_XON_OFFSET_ADDR: n = uint32_t(cfg.ingress_profiles.size()); break;
      case r::EPROF_MODE_ADDR:
      case r::EPROF_RESERVED_ADDR:
      case r::EPROF_STATIC_ADDR: n = uint32_t(cfg.egress_profiles.size()); break;
      default: n = count_of(g, p); break;
    }
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t addr = g.addr + k * g.stride;
      out.emplace_back(addr, read_config(cfg, {&g, k}, p));
    }
  }
  return out;
}

CoreConfig reset_config(const RtlParams& p) {
  CoreConfig c;
  c.ports = p.nports;
  c.prios = p.nprio;
  c.counter_bits = p.cw;
  c.pool_cells.assign(p.npools, 0);
  c.ingress_profiles.assign(p.nprof, reset_ingress());
  c.egress_profiles.assign(p.nprof, reset_egress());
  const size_t nq = size_t(p.nports) * p.nprio;
  c.pg_profile.assign(nq, 0);
  c.queue_profile.assign(nq, 0);
  c.lossless.assign(nq, 0);
  for (const auto& g : r::kRegisters) {
    if (g.access != r::Access::kRw) continue;
    const uint32_t n = count_of(g, p);
    for (uint32_t k = 0; k < n; ++k) write(c, g.addr + k * g.stride, g.reset, p);
  }
  return c;
}

void write(CoreConfig& c, uint32_t addr, uint32_t data, const RtlParams& p) {
  const CsrLocation l = decode(addr, p);
  const std::string what = name_of(l);
  if (l.reg->access != r::Access::kRw) throw CsrAccessError(what + " is read-only");
  check_shape(c, p);
  data &= l.reg->fields_mask;
  const uint32_t k = l.index;
  switch (l.reg->addr) {
    case r::CTRL_ADDR: {
      const uint32_t pol = field(data, r::CTRL_POLICY_LSB, r::CTRL_POLICY_W);
      std::string policy;
      if (pol == r::CTRL_POLICY_DT) policy = "dt";
      else if (pol == r::CTRL_POLICY_REVERIE) policy = "reverie";
      else if (pol == r::CTRL_POLICY_DSH) policy = "dsh";
      else if (pol == r::CTRL_POLICY_STATIC) policy = "static";
      else if (pol == r::CTRL_POLICY_SIH) policy = "sih";
      else fail(what + ".policy " + std::to_string(pol) + " is not implemented (0 dt, 1 reverie, 2 dsh, 3 static, 4 sih)");
      const uint32_t rule = field(data, r::CTRL_EWMA_RULE_LSB, r::CTRL_EWMA_RULE_W);
      c.policy = policy;
      c.ewma.rule = rule == r::CTRL_EWMA_RULE_ENQUEUE_DEQUEUE ? EwmaConfig::Rule::kEnqueueDequeue
                                                               : EwmaConfig::Rule::kDequeue;
      c.ewma.clamp = field(data, r::CTRL_EWMA_CLAMP_LSB, r::CTRL_EWMA_CLAMP_W) != 0;
      c.ewma.k = uint8_t(field(data, r::CTRL_EWMA_K_LSB, r::CTRL_EWMA_K_W));
      return;
    }
    case r::BUFFER_CELLS_ADDR:
      c.buffer_cells = field(data, r::BUFFER_CELLS_CELLS_LSB, cw_bits(r::BUFFER_CELLS_CELLS_W, p));
      return;
    case r::HDRM_POOL_CELLS_ADDR:
      c.headroom_pool_cells = field(data, r::HDRM_POOL_CELLS_CELLS_LSB, cw_bits(r::HDRM_POOL_CELLS_CELLS_W, p));
      return;
    case r::CONGESTED_CELLS_ADDR:
      c.congestion.kind = CongestionRule::Kind::kThreshold;  // the only rule in the map
      c.congestion.cells = field(data, r::CONGESTED_CELLS_CELLS_LSB, cw_bits(r::CONGESTED_CELLS_CELLS_W, p));
      return;
    case r::DSH_PORT_XON_OFFSET_ADDR:
      c.dsh.port_xon_offset_cells =
          field(data, r::DSH_PORT_XON_OFFSET_CELLS_LSB, cw_bits(r::DSH_PORT_XON_OFFSET_CELLS_W, p));
      return;
    case r::POOL_SIZE_ADDR:
      at_grow(c.pool_cells, k, uint64_t(0)) = field(data, r::POOL_SIZE_CELLS_LSB, cw_bits(r::POOL_SIZE_CELLS_W, p));
      return;
    case r::IPROF_MODE_ADDR:
    case r::IPROF_RESERVED_ADDR:
    case r::IPROF_STATIC_ADDR:
    case r::IPROF_XOFF_ADDR:
    case r::IPROF_XON_ADDR:
    case r::IPROF_XON_OFFSET_ADDR: {
      IngressProfile& ip = at_grow(c.ingress_profiles, k, reset_ingress());
      switch (l.reg->addr) {
        case r::IPROF_MODE_ADDR:
          ip.pool = uint16_t(field(data, r::IPROF_MODE_POOL_LSB, r::IPROF_MODE_POOL_W));
          ip.th.dynamic = field(data, r::IPROF_MODE_DYNAMIC_LSB, r::IPROF_MODE_DYNAMIC_W) != 0;
          ip.th.shift = get_shift(data, r::IPROF_MODE_SHIFT_LSB, r::IPROF_MODE_SHIFT_W);
          return;
        case r::IPROF_RESERVED_ADDR:
          ip.reserved_cells = field(data, r::IPROF_RESERVED_CELLS_LSB, cw_bits(r::IPROF_RESERVED_CELLS_W, p));
          return;
        case r::IPROF_STATIC_ADDR:
          ip.th.static_cells = field(data, r::IPROF_STATIC_CELLS_LSB, cw_bits(r::IPROF_STATIC_CELLS_W, p));
          return;
        case r::IPROF_XOFF_ADDR:
          ip.xoff_cells = field(data, r::IPROF_XOFF_CELLS_LSB, cw_bits(r::IPROF_XOFF_CELLS_W, p));
          return;
        case r::IPROF_XON_ADDR:
          ip.xon_cells = field(data, r::IPROF_XON_CELLS_LSB, cw_bits(r::IPROF_XON_CELLS_W, p));
          return;
        default:
          ip.xon_offset_cells = field(data, r::IPROF_XON_OFFSET_CELLS_LSB, cw_bits(r::IPROF_XON_OFFSET_CELLS_W, p));
          return;
      }
    }
    case r::EPROF_MODE_ADDR:
    case r::EPROF_RESERVED_ADDR:
    case r::EPROF_STATIC_ADDR: {
      EgressProfile& ep = at_grow(c.egress_profiles, k, reset_egress());
      switch (l.reg->addr) {
        case r::EPROF_MODE_ADDR:
          ep.pool = uint16_t(field(data, r::EPROF_MODE_POOL_LSB, r::EPROF_MODE_POOL_W));
          ep.th.dynamic = field(data, r::EPROF_MODE_DYNAMIC_LSB, r::EPROF_MODE_DYNAMIC_W) != 0;
          ep.th.shift = get_shift(data, r::EPROF_MODE_SHIFT_LSB, r::EPROF_MODE_SHIFT_W);
          return;
        case r::EPROF_RESERVED_ADDR:
          ep.reserved_cells = field(data, r::EPROF_RESERVED_CELLS_LSB, cw_bits(r::EPROF_RESERVED_CELLS_W, p));
          return;
        default:
          ep.th.static_cells = field(data, r::EPROF_STATIC_CELLS_LSB, cw_bits(r::EPROF_STATIC_CELLS_W, p));
          return;
      }
    }
    case r::QMAP_ADDR: {
      const size_t nq = size_t(p.nports) * p.nprio;
      c.pg_profile.resize(std::max(c.pg_profile.size(), nq), 0);
      c.queue_profile.resize(std::max(c.queue_profile.size(), nq), 0);
      c.lossless.resize(std::max(c.lossless.size(), nq), 0);
      c.pg_profile[k] = uint16_t(field(data, r::QMAP_PG_PROFILE_LSB, r::QMAP_PG_PROFILE_W));
      c.queue_profile[k] = uint16_t(field(data, r::QMAP_QUEUE_PROFILE_LSB, r::QMAP_QUEUE_PROFILE_W));
      c.lossless[k] = uint8_t(field(data, r::QMAP_LOSSLESS_LSB, r::QMAP_LOSSLESS_W));
      // The unit has all nprof profiles: naming one the configuration lacks brings it in
      // at its reset values, as the RTL would use it.
      if (c.pg_profile[k] < p.nprof) at_grow(c.ingress_profiles, c.pg_profile[k], reset_ingress());
      if (c.queue_profile[k] < p.nprof) at_grow(c.egress_profiles, c.queue_profile[k], reset_egress());
      return;
    }
    default:
      throw CsrAccessError(what + " is not writable");  // a read-write register without a decoder
  }
}

void write(AdmissionCore& core, uint32_t addr, uint32_t data, const RtlParams& p) {
  const CsrLocation l = decode(addr, p);
  if (l.reg->access != r::Access::kRw) throw CsrAccessError(name_of(l) + " is read-only");
  const uint32_t qmask = quiesce_mask(addr);
  if (qmask != 0 && core.total_used() != 0) {
    // As the RTL: a register made only of quiesce fields refuses every write; CTRL and the
    // *_MODE registers refuse a write that changes the policy or the pool.
    bool refused = true;
    if (qmask != l.reg->fields_mask) {
      try {
        refused = ((read_config(core.config(), l, p) ^ data) & qmask) != 0;
      } catch (const std::invalid_argument&) {
        // The current value has no encoding (e.g. policy abm): any write changes it.
      }
    }
    if (refused)
      throw CsrQuiesceError(name_of(l) + ": may change only while the buffer is empty (" +
                            std::to_string(core.total_used()) + " cells buffered)");
  }
  CoreConfig c = core.config();
  write(c, addr, data, p);
  core.reconfigure(c);
}

uint32_t read(const CoreConfig& cfg, uint32_t addr, const RtlParams& p) {
  return read_config(cfg, decode(addr, p), p);
}

uint32_t read(const AdmissionCore& core, uint32_t addr, const RtlParams& p, const CsrStats& stats) {
  const CsrLocation l = decode(addr, p);
  const std::string what = name_of(l);
  uint32_t w = 0;
  switch (l.reg->addr) {
    case r::STAT_TOTAL_ADDR:
      put(w, r::STAT_TOTAL_CELLS_LSB, cw_bits(r::STAT_TOTAL_CELLS_W, p), core.total_used(), what);
      return w;
    case r::STAT_HDRM_POOL_ADDR:
      put(w, r::STAT_HDRM_POOL_CELLS_LSB, cw_bits(r::STAT_HDRM_POOL_CELLS_W, p), core.headroom_pool_used(), what);
      return w;
    case r::STAT_POOL_USED_ADDR:
      if (l.index >= core.config().pool_cells.size()) return 0;
      put(w, r::STAT_POOL_USED_CELLS_LSB, cw_bits(r::STAT_POOL_USED_CELLS_W, p), core.pool_used(uint16_t(l.index)),
          what);
      return w;
    case r::STAT_DECISIONS_ADDR:
      put(w, r::STAT_DECISIONS_COUNT_LSB, r::STAT_DECISIONS_COUNT_W, stats.decisions, what);
      return w;
    case r::STAT_DROPS_ADDR:
      put(w, r::STAT_DROPS_COUNT_LSB, r::STAT_DROPS_COUNT_W, stats.drops, what);
      return w;
    default: return read_config(core.config(), l, p);
  }
}

uint32_t quiesce_mask(uint32_t addr) {
  CsrLocation l;
  if (!find(addr, [](const r::RegInfo& g) { return g.count_max; }, l)) return 0;
  switch (l.reg->addr) {  // the fields marked "quiesce" in rtl/regmap.json
    case r::CTRL_ADDR: return r::CTRL_QUIESCE_MASK;
    case r::CONGESTED_CELLS_ADDR: return r::CONGESTED_CELLS_QUIESCE_MASK;
    case r::IPROF_MODE_ADDR: return r::IPROF_MODE_QUIESCE_MASK;
    case r::IPROF_RESERVED_ADDR: return r::IPROF_RESERVED_QUIESCE_MASK;
    case r::EPROF_MODE_ADDR: return r::EPROF_MODE_QUIESCE_MASK;
    case r::EPROF_RESERVED_ADDR: return r::EPROF_RESERVED_QUIESCE_MASK;
    case r::QMAP_ADDR: return r::QMAP_QUIESCE_MASK;
    default: return 0;
  }
}

bool needs_quiesce(uint32_t addr) { return quiesce_mask(addr) != 0; }

}  // namespace mmusim::admission
