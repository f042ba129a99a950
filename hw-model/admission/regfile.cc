#include "admission/regfile.h"

#include <algorithm>
#include <cstdio>

#include "admission/regfile_fields.h"

namespace mmusim::admission {

namespace r = regs;

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument(what); }

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%03x", v);
  return b;
}

constexpr uint64_t ones(uint32_t w) { return w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1; }

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

// ------------------------------------------------------------------ the field table

// The fields of a register: kFields[first_field, first_field + n_fields).
struct Fields {
  const r::FieldInfo* b;
  const r::FieldInfo* e;
  const r::FieldInfo* begin() const { return b; }
  const r::FieldInfo* end() const { return e; }
};
Fields fields_of(const r::RegInfo& g) { return {r::kFields + g.first_field, r::kFields + g.first_field + g.n_fields}; }

// "CTRL.ewma_k", or "BUFFER_CELLS" for a register of one field.
std::string field_name(const CsrLocation& l, const r::FieldInfo& f) {
  return l.reg->n_fields > 1 ? name_of(l) + "." + f.name : name_of(l);
}

// Bits the unit keeps of a field: its width, or the counter width for cell counts.
uint32_t held_bits(const r::FieldInfo& f, const RtlParams& p) {
  return f.held == r::Param::kNone ? f.width : std::min<uint32_t>(f.width, r::param_value(p, f.held));
}

// The held bits of a field in a written word (sign-extended for a signed field).
int64_t extract(const r::FieldInfo& f, uint32_t word, const RtlParams& p) {
  const uint32_t w = held_bits(f, p);
  const uint64_t v = (uint64_t(word) >> f.lsb) & ones(w);
  if (f.is_signed && (v >> (w - 1)) & 1) return int64_t(v) - (int64_t(1) << w);
  return int64_t(v);
}

// Throws naming the field when the unit cannot hold v or the map does not allow it.
void check_legal(const r::FieldInfo& f, int64_t v, const RtlParams& p, const std::string& what) {
  const uint32_t w = held_bits(f, p);
  if (f.is_signed) {
    const int64_t lo = f.has_min ? f.min : -(int64_t(1) << (w - 1));
    const int64_t hi = f.has_max ? f.max : (int64_t(1) << (w - 1)) - 1;
    if (v < lo || v > hi) fail(what + ": " + std::to_string(v) + " outside " + std::to_string(lo) + ".." + std::to_string(hi));
    return;
  }
  if (v < 0 || uint64_t(v) > ones(w))
    fail(what + ": " + std::to_string(v) + " does not fit its " + std::to_string(w) + "-bit field");
  if (f.n_enum != 0 && std::find(f.enum_values, f.enum_values + f.n_enum, v) == f.enum_values + f.n_enum)
    fail(what + " " + std::to_string(v) + " is not a defined value (" + f.enum_text + ")");
  if (f.has_min && v < f.min) fail(what + ": " + std::to_string(v) + " below the minimum " + std::to_string(f.min));
  if (f.has_max && v > f.max) fail(what + ": " + std::to_string(v) + " above the maximum " + std::to_string(f.max));
  if (f.index_of != r::Param::kNone && uint64_t(v) >= r::param_value(p, f.index_of))
    fail(what + ": " + std::to_string(v) + " is not below the unit's " + r::param_name(f.index_of) + " = " +
         std::to_string(r::param_value(p, f.index_of)));
}

// The value of a field as the configuration (or parameters, statistics) holds it.
int64_t get(const r::FieldInfo& f, const r::FieldCtx& x, const CsrLocation& l) {
  const std::string what = field_name(l, f);
  if (f.source == r::Source::kCore && x.core == nullptr)
    fail(name_of(l) + " is a statistics register: it is read from a core");
  try {
    return f.get(x, l.index);
  } catch (const r::FieldValueError& e) {
    fail(what + " " + e.what() + " is not implemented by the RTL unit (" + f.enum_text + ")");
  }
}

// --------------------------------------------------- the unit's hooks (not in the map)

// CONGESTED_CELLS holds the threshold rule's level: the only congestion rule in the map.
void hook_read(const CoreConfig& c, const CsrLocation& l) {
  if (l.reg->addr == r::CONGESTED_CELLS_ADDR && c.congestion.kind != CongestionRule::Kind::kThreshold)
    fail(name_of(l) + ": the saturation congestion rule is not in the register map (threshold only)");
}

void hook_write(CoreConfig& c, const CsrLocation& l, const RtlParams& p) {
  if (l.reg->addr == r::CONGESTED_CELLS_ADDR) c.congestion.kind = CongestionRule::Kind::kThreshold;
  if (l.reg->addr == r::QMAP_ADDR) {
    // The unit has all nprof profiles: naming one the configuration lacks brings it in at
    // its reset values, as the RTL would use it.
    const size_t k = l.index;
    if (c.pg_profile[k] < p.nprof)
      r::field_detail::grow(c.ingress_profiles, c.pg_profile[k], r::reset_ingress_profiles_entry());
    if (c.queue_profile[k] < p.nprof)
      r::field_detail::grow(c.egress_profiles, c.queue_profile[k], r::reset_egress_profiles_entry());
  }
}

void check_shape(const CoreConfig& cfg, const RtlParams& p) {
  if (cfg.ports != p.nports)
    fail("ports " + std::to_string(cfg.ports) + " != unit nports " + std::to_string(p.nports));
  if (cfg.prios != p.nprio)
    fail("prios " + std::to_string(cfg.prios) + " != unit nprio " + std::to_string(p.nprio));
}

// ------------------------------------------------------------------ generic access

// One register of a configuration (and, with x.core, of a core): every field through the
// table, checked as the unit would check a write of it.
uint32_t read_reg(const r::FieldCtx& x, const CsrLocation& l) {
  if (l.reg->access == r::Access::kRw) hook_read(x.cfg, l);
  uint32_t word = 0;
  for (const r::FieldInfo& f : fields_of(*l.reg)) {
    if (f.source == r::Source::kConst) return l.reg->reset;
    const int64_t v = get(f, x, l);
    const std::string what = field_name(l, f);
    if (f.source == r::Source::kConfig) check_legal(f, v, x.params, what);
    const uint32_t w = held_bits(f, x.params);
    if (f.source != r::Source::kConfig && (v < 0 || uint64_t(v) > ones(w)))
      fail(what + ": " + std::to_string(v) + " does not fit its " + std::to_string(w) + "-bit field");
    word |= uint32_t((uint64_t(v) & ones(w)) << f.lsb);
  }
  return word;
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

  const CsrStats none;
  const r::FieldCtx x{cfg, p, nullptr, none};
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const auto& g : r::kRegisters) {
    if (g.access != r::Access::kRw) continue;
    // An array programs the entries the configuration has (its vector), at most the unit's.
    const r::FieldInfo& f0 = r::kFields[g.first_field];
    const uint32_t n = f0.entries ? uint32_t(std::min<size_t>(f0.entries(cfg), count_of(g, p))) : count_of(g, p);
    for (uint32_t k = 0; k < n; ++k) out.emplace_back(g.addr + k * g.stride, read_reg(x, {&g, k}));
  }
  return out;
}

CoreConfig reset_config(const RtlParams& p) {
  // Every read-write register written with its reset value: the arrays grow to the unit's
  // entries, each at its reset.
  CoreConfig c;
  c.ports = p.nports;
  c.prios = p.nprio;
  c.counter_bits = p.cw;
  for (const auto& g : r::kRegisters) {
    if (g.access != r::Access::kRw) continue;
    const uint32_t n = count_of(g, p);
    for (uint32_t k = 0; k < n; ++k) write(c, g.addr + k * g.stride, g.reset, p);
  }
  return c;
}

void write(CoreConfig& c, uint32_t addr, uint32_t data, const RtlParams& p) {
  const CsrLocation l = decode(addr, p);
  if (l.reg->access != r::Access::kRw) throw CsrAccessError(name_of(l) + " is read-only");
  check_shape(c, p);
  // Every field is checked before any is stored: a refused write changes nothing.
  const Fields fs = fields_of(*l.reg);
  for (const r::FieldInfo& f : fs) check_legal(f, extract(f, data, p), p, field_name(l, f));
  for (const r::FieldInfo& f : fs) f.set(c, l.index, extract(f, data, p));
  hook_write(c, l, p);
}

void write(AdmissionCore& core, uint32_t addr, uint32_t data, const RtlParams& p) {
  const CsrLocation l = decode(addr, p);
  if (l.reg->access != r::Access::kRw) throw CsrAccessError(name_of(l) + " is read-only");
  if (core.total_used() != 0) {
    // As the RTL: a write that changes a quiesce field waits for an empty buffer.
    const CsrStats none;
    const r::FieldCtx x{core.config(), p, nullptr, none};
    for (const r::FieldInfo& f : fields_of(*l.reg)) {
      if (!f.quiesce) continue;
      bool changes = true;  // a current value the map cannot encode: any write changes it
      try {
        changes = get(f, x, l) != extract(f, data, p);
      } catch (const std::invalid_argument&) {
      }
      if (changes)
        throw CsrQuiesceError(field_name(l, f) + ": may change only while the buffer is empty (" +
                              std::to_string(core.total_used()) + " cells buffered)");
    }
  }
  CoreConfig c = core.config();
  write(c, addr, data, p);
  core.reconfigure(c);
}

uint32_t read(const CoreConfig& cfg, uint32_t addr, const RtlParams& p) {
  const CsrStats none;
  return read_reg({cfg, p, nullptr, none}, decode(addr, p));
}

uint32_t read(const AdmissionCore& core, uint32_t addr, const RtlParams& p, const CsrStats& stats) {
  return read_reg({core.config(), p, &core, stats}, decode(addr, p));
}

uint32_t quiesce_mask(uint32_t addr) {
  CsrLocation l;
  if (!find(addr, [](const r::RegInfo& g) { return g.count_max; }, l)) return 0;
  uint32_t m = 0;
  for (const r::FieldInfo& f : fields_of(*l.reg))
    if (f.quiesce) m |= uint32_t(ones(f.width) << f.lsb);
  return m;
}

bool needs_quiesce(uint32_t addr) { return quiesce_mask(addr) != 0; }

}  // namespace mmusim::admission
