#pragma once
// generated from rtl/regmap.json by scripts/gen_regs.py; do not edit
// The field table of the register map for admission/regfile.cc: every field's place,
// legality, quiesce flag and an accessor into the configuration (or the parameters, the
// core's statistics), so the register file has one read, one write and one quiesce check.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "admission/regfile.h"

namespace mmusim::admission::regs {

// What an accessor reads. core is null for a configuration alone (no statistics).
struct FieldCtx {
  const CoreConfig& cfg;
  const RtlParams& params;
  const AdmissionCore* core;
  const CsrStats& stats;
};

// A configuration value the map cannot encode (regfile.cc adds the field's name).
struct FieldValueError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// The map's parameters, as RtlParams members.
enum class Param : uint8_t { kNone, kNports, kNprio, kCw, kNpools, kNprof };
inline uint32_t param_value(const RtlParams& p, Param s) {
  switch (s) {
    case Param::kNports: return p.nports;
    case Param::kNprio: return p.nprio;
    case Param::kCw: return p.cw;
    case Param::kNpools: return p.npools;
    case Param::kNprof: return p.nprof;
    case Param::kNone: break;
  }
  return 0;
}
inline const char* param_name(Param s) {
  switch (s) {
    case Param::kNports: return "NPORTS";
    case Param::kNprio: return "NPRIO";
    case Param::kCw: return "CW";
    case Param::kNpools: return "NPOOLS";
    case Param::kNprof: return "NPROF";
    case Param::kNone: break;
  }
  return "";
}

enum class Source : uint8_t {
  kConst,   // the register's reset value (ID)
  kParams,  // an elaboration parameter
  kConfig,  // a CoreConfig member: read-write
  kCore,    // the core's statistics (needs a core)
};

struct FieldInfo {
  const char* name;
  uint16_t reg;  // index in kRegisters
  uint8_t lsb, width;
  Param held;  // the unit keeps min(width, that parameter) low bits (kNone: width)
  bool is_signed;
  bool quiesce;
  bool has_min, has_max;
  int64_t min, max;
  Param index_of;  // legal below that parameter
  uint8_t n_enum;  // legal values: enum_values[0 .. n_enum) (0: no enum)
  const int64_t* enum_values;
  const char* enum_text;  // "key value, ..." for messages
  int64_t reset;
  Source source;
  int64_t (*get)(const FieldCtx&, uint32_t k);     // k: array entry
  void (*set)(CoreConfig&, uint32_t k, int64_t v);  // kConfig only; v legal
  size_t (*entries)(const CoreConfig&);            // array in cfg: its vector's size
};

namespace field_detail {
template <class T>
void assign(T& dst, int64_t v) {
  if constexpr (std::is_same_v<T, bool>)
    dst = v != 0;
  else
    dst = static_cast<T>(v);
}
// Entry k of v, the vector grown with `fill` entries up to it.
template <class V>
typename V::value_type& grow(V& v, size_t k, const typename V::value_type& fill) {
  if (v.size() <= k) v.resize(k + 1, fill);
  return v[k];
}
}  // namespace field_detail

// An entry of CoreConfig::abm.port_cells_per_interval as the unit holds it after reset.
inline std::decay_t<decltype(std::declval<CoreConfig&>().abm.port_cells_per_interval)>::value_type reset_abm_port_cells_per_interval_entry() {
  std::decay_t<decltype(std::declval<CoreConfig&>().abm.port_cells_per_interval)>::value_type e{};
  field_detail::assign(e, INT64_C(0));
  return e;
}

// An entry of CoreConfig::pool_cells as the unit holds it after reset.
inline std::decay_t<decltype(std::declval<CoreConfig&>().pool_cells)>::value_type reset_pool_cells_entry() {
  std::decay_t<decltype(std::declval<CoreConfig&>().pool_cells)>::value_type e{};
  field_detail::assign(e, INT64_C(0));
  return e;
}

// An entry of CoreConfig::ingress_profiles as the unit holds it after reset.
inline std::decay_t<decltype(std::declval<CoreConfig&>().ingress_profiles)>::value_type reset_ingress_profiles_entry() {
  std::decay_t<decltype(std::declval<CoreConfig&>().ingress_profiles)>::value_type e{};
  field_detail::assign(e.pool, INT64_C(0));
  field_detail::assign(e.th.dynamic, INT64_C(0));
  field_detail::assign(e.th.shift, INT64_C(0));
  field_detail::assign(e.reserved_cells, INT64_C(0));
  field_detail::assign(e.th.static_cells, INT64_C(0));
  field_detail::assign(e.xoff_cells, INT64_C(0));
  field_detail::assign(e.xon_cells, INT64_C(0));
  field_detail::assign(e.xon_offset_cells, INT64_C(0));
  return e;
}

// An entry of CoreConfig::egress_profiles as the unit holds it after reset.
inline std::decay_t<decltype(std::declval<CoreConfig&>().egress_profiles)>::value_type reset_egress_profiles_entry() {
  std::decay_t<decltype(std::declval<CoreConfig&>().egress_profiles)>::value_type e{};
  field_detail::assign(e.pool, INT64_C(0));
  field_detail::assign(e.th.dynamic, INT64_C(0));
  field_detail::assign(e.th.shift, INT64_C(0));
  field_detail::assign(e.reserved_cells, INT64_C(0));
  field_detail::assign(e.th.static_cells, INT64_C(0));
  return e;
}

// An entry of CoreConfig::pg_profile as the unit holds it after reset.
inline std::decay_t<decltype(std::declval<CoreConfig&>().pg_profile)>::value_type reset_pg_profile_entry() {
  std::decay_t<decltype(std::declval<CoreConfig&>().pg_profile)>::value_type e{};
  field_detail::assign(e, INT64_C(0));
  return e;
}

// An entry of CoreConfig::queue_profile as the unit holds it after reset.
inline std::decay_t<decltype(std::declval<CoreConfig&>().queue_profile)>::value_type reset_queue_profile_entry() {
  std::decay_t<decltype(std::declval<CoreConfig&>().queue_profile)>::value_type e{};
  field_detail::assign(e, INT64_C(0));
  return e;
}

// An entry of CoreConfig::lossless as the unit holds it after reset.
inline std::decay_t<decltype(std::declval<CoreConfig&>().lossless)>::value_type reset_lossless_entry() {
  std::decay_t<decltype(std::declval<CoreConfig&>().lossless)>::value_type e{};
  field_detail::assign(e, INT64_C(0));
  return e;
}

// Accessors, one pair per field.
inline int64_t get_params_nports(const FieldCtx& x, uint32_t) { return int64_t(x.params.nports); }
inline int64_t get_params_nprio(const FieldCtx& x, uint32_t) { return int64_t(x.params.nprio); }
inline int64_t get_params_npools(const FieldCtx& x, uint32_t) { return int64_t(x.params.npools); }
inline int64_t get_params_nprof(const FieldCtx& x, uint32_t) { return int64_t(x.params.nprof); }
inline int64_t get_params_cw(const FieldCtx& x, uint32_t) { return int64_t(x.params.cw); }
inline int64_t get_ctrl_policy(const FieldCtx& x, uint32_t) {
  if (x.cfg.policy == "dt") return 0;
  if (x.cfg.policy == "reverie") return 1;
  if (x.cfg.policy == "dsh") return 2;
  if (x.cfg.policy == "static") return 3;
  if (x.cfg.policy == "sih") return 4;
  if (x.cfg.policy == "abm") return 5;
  throw FieldValueError("'" + x.cfg.policy + "'");
}
inline void set_ctrl_policy(CoreConfig& c, uint32_t, int64_t v) {
  switch (v) {
    case 0: c.policy = "dt"; return;
    case 1: c.policy = "reverie"; return;
    case 2: c.policy = "dsh"; return;
    case 3: c.policy = "static"; return;
    case 4: c.policy = "sih"; return;
    case 5: c.policy = "abm"; return;
  }
}
inline int64_t get_ctrl_ewma_rule(const FieldCtx& x, uint32_t) {
  switch (x.cfg.ewma.rule) {
    case EwmaConfig::Rule::kDequeue: return 0;
    case EwmaConfig::Rule::kEnqueueDequeue: return 1;
    default: break;
  }
  throw FieldValueError(std::to_string(int(x.cfg.ewma.rule)) + " (EwmaConfig::Rule)");
}
inline void set_ctrl_ewma_rule(CoreConfig& c, uint32_t, int64_t v) {
  switch (v) {
    case 0: c.ewma.rule = EwmaConfig::Rule::kDequeue; return;
    case 1: c.ewma.rule = EwmaConfig::Rule::kEnqueueDequeue; return;
  }
}
inline int64_t get_ctrl_ewma_clamp(const FieldCtx& x, uint32_t) {
  return int64_t(x.cfg.ewma.clamp);
}
inline void set_ctrl_ewma_clamp(CoreConfig& c, uint32_t, int64_t v) {
  field_detail::assign(c.ewma.clamp, v);
}
inline int64_t get_ctrl_ewma_k(const FieldCtx& x, uint32_t) {
  return int64_t(x.cfg.ewma.k);
}
inline void set_ctrl_ewma_k(CoreConfig& c, uint32_t, int64_t v) {
  field_detail::assign(c.ewma.k, v);
}
inline int64_t get_buffer_cells_cells(const FieldCtx& x, uint32_t) {
  return int64_t(x.cfg.buffer_cells);
}
inline void set_buffer_cells_cells(CoreConfig& c, uint32_t, int64_t v) {
  field_detail::assign(c.buffer_cells, v);
}
inline int64_t get_hdrm_pool_cells_cells(const FieldCtx& x, uint32_t) {
  return int64_t(x.cfg.headroom_pool_cells);
}
inline void set_hdrm_pool_cells_cells(CoreConfig& c, uint32_t, int64_t v) {
  field_detail::assign(c.headroom_pool_cells, v);
}
inline int64_t get_congested_cells_cells(const FieldCtx& x, uint32_t) {
  return int64_t(x.cfg.congestion.cells);
}
inline void set_congested_cells_cells(CoreConfig& c, uint32_t, int64_t v) {
  field_detail::assign(c.congestion.cells, v);
}
inline int64_t get_dsh_port_xon_offset_cells(const FieldCtx& x, uint32_t) {
  return int64_t(x.cfg.dsh.port_xon_offset_cells);
}
inline void set_dsh_port_xon_offset_cells(CoreConfig& c, uint32_t, int64_t v) {
  field_detail::assign(c.dsh.port_xon_offset_cells, v);
}
inline int64_t get_abm_interval_log2(const FieldCtx& x, uint32_t) {
  return int64_t(x.cfg.abm.interval_log2);
}
inline void set_abm_interval_log2(CoreConfig& c, uint32_t, int64_t v) {
  field_detail::assign(c.abm.interval_log2, v);
}
inline int64_t get_abm_port_cells_cells(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.abm.port_cells_per_interval.size()) return INT64_C(0);
  return int64_t(x.cfg.abm.port_cells_per_interval[k]);
}
inline void set_abm_port_cells_cells(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.abm.port_cells_per_interval, k, reset_abm_port_cells_per_interval_entry()), v);
}
inline size_t entries_abm_port_cells_cells(const CoreConfig& c) { return c.abm.port_cells_per_interval.size(); }
inline int64_t get_thresh_period_cycles(const FieldCtx& x, uint32_t) {
  return int64_t(x.cfg.thresholds.period_cycles);
}
inline void set_thresh_period_cycles(CoreConfig& c, uint32_t, int64_t v) {
  field_detail::assign(c.thresholds.period_cycles, v);
}
inline int64_t get_pool_size_cells(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.pool_cells.size()) return INT64_C(0);
  return int64_t(x.cfg.pool_cells[k]);
}
inline void set_pool_size_cells(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.pool_cells, k, reset_pool_cells_entry()), v);
}
inline size_t entries_pool_size_cells(const CoreConfig& c) { return c.pool_cells.size(); }
inline int64_t get_iprof_mode_pool(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.ingress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.ingress_profiles[k].pool);
}
inline void set_iprof_mode_pool(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.ingress_profiles, k, reset_ingress_profiles_entry()).pool, v);
}
inline size_t entries_iprof_mode_pool(const CoreConfig& c) { return c.ingress_profiles.size(); }
inline int64_t get_iprof_mode_dynamic(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.ingress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.ingress_profiles[k].th.dynamic);
}
inline void set_iprof_mode_dynamic(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.ingress_profiles, k, reset_ingress_profiles_entry()).th.dynamic, v);
}
inline size_t entries_iprof_mode_dynamic(const CoreConfig& c) { return c.ingress_profiles.size(); }
inline int64_t get_iprof_mode_shift(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.ingress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.ingress_profiles[k].th.shift);
}
inline void set_iprof_mode_shift(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.ingress_profiles, k, reset_ingress_profiles_entry()).th.shift, v);
}
inline size_t entries_iprof_mode_shift(const CoreConfig& c) { return c.ingress_profiles.size(); }
inline int64_t get_iprof_reserved_cells(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.ingress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.ingress_profiles[k].reserved_cells);
}
inline void set_iprof_reserved_cells(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.ingress_profiles, k, reset_ingress_profiles_entry()).reserved_cells, v);
}
inline size_t entries_iprof_reserved_cells(const CoreConfig& c) { return c.ingress_profiles.size(); }
inline int64_t get_iprof_static_cells(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.ingress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.ingress_profiles[k].th.static_cells);
}
inline void set_iprof_static_cells(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.ingress_profiles, k, reset_ingress_profiles_entry()).th.static_cells, v);
}
inline size_t entries_iprof_static_cells(const CoreConfig& c) { return c.ingress_profiles.size(); }
inline int64_t get_iprof_xoff_cells(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.ingress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.ingress_profiles[k].xoff_cells);
}
inline void set_iprof_xoff_cells(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.ingress_profiles, k, reset_ingress_profiles_entry()).xoff_cells, v);
}
inline size_t entries_iprof_xoff_cells(const CoreConfig& c) { return c.ingress_profiles.size(); }
inline int64_t get_iprof_xon_cells(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.ingress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.ingress_profiles[k].xon_cells);
}
inline void set_iprof_xon_cells(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.ingress_profiles, k, reset_ingress_profiles_entry()).xon_cells, v);
}
inline size_t entries_iprof_xon_cells(const CoreConfig& c) { return c.ingress_profiles.size(); }
inline int64_t get_iprof_xon_offset_cells(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.ingress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.ingress_profiles[k].xon_offset_cells);
}
inline void set_iprof_xon_offset_cells(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.ingress_profiles, k, reset_ingress_profiles_entry()).xon_offset_cells, v);
}
inline size_t entries_iprof_xon_offset_cells(const CoreConfig& c) { return c.ingress_profiles.size(); }
inline int64_t get_eprof_mode_pool(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.egress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.egress_profiles[k].pool);
}
inline void set_eprof_mode_pool(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.egress_profiles, k, reset_egress_profiles_entry()).pool, v);
}
inline size_t entries_eprof_mode_pool(const CoreConfig& c) { return c.egress_profiles.size(); }
inline int64_t get_eprof_mode_dynamic(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.egress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.egress_profiles[k].th.dynamic);
}
inline void set_eprof_mode_dynamic(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.egress_profiles, k, reset_egress_profiles_entry()).th.dynamic, v);
}
inline size_t entries_eprof_mode_dynamic(const CoreConfig& c) { return c.egress_profiles.size(); }
inline int64_t get_eprof_mode_shift(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.egress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.egress_profiles[k].th.shift);
}
inline void set_eprof_mode_shift(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.egress_profiles, k, reset_egress_profiles_entry()).th.shift, v);
}
inline size_t entries_eprof_mode_shift(const CoreConfig& c) { return c.egress_profiles.size(); }
inline int64_t get_eprof_reserved_cells(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.egress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.egress_profiles[k].reserved_cells);
}
inline void set_eprof_reserved_cells(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.egress_profiles, k, reset_egress_profiles_entry()).reserved_cells, v);
}
inline size_t entries_eprof_reserved_cells(const CoreConfig& c) { return c.egress_profiles.size(); }
inline int64_t get_eprof_static_cells(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.egress_profiles.size()) return INT64_C(0);
  return int64_t(x.cfg.egress_profiles[k].th.static_cells);
}
inline void set_eprof_static_cells(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.egress_profiles, k, reset_egress_profiles_entry()).th.static_cells, v);
}
inline size_t entries_eprof_static_cells(const CoreConfig& c) { return c.egress_profiles.size(); }
inline int64_t get_qmap_pg_profile(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.pg_profile.size()) return INT64_C(0);
  return int64_t(x.cfg.pg_profile[k]);
}
inline void set_qmap_pg_profile(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.pg_profile, k, reset_pg_profile_entry()), v);
}
inline size_t entries_qmap_pg_profile(const CoreConfig& c) { return c.pg_profile.size(); }
inline int64_t get_qmap_queue_profile(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.queue_profile.size()) return INT64_C(0);
  return int64_t(x.cfg.queue_profile[k]);
}
inline void set_qmap_queue_profile(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.queue_profile, k, reset_queue_profile_entry()), v);
}
inline size_t entries_qmap_queue_profile(const CoreConfig& c) { return c.queue_profile.size(); }
inline int64_t get_qmap_lossless(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.lossless.size()) return INT64_C(0);
  return int64_t(x.cfg.lossless[k]);
}
inline void set_qmap_lossless(CoreConfig& c, uint32_t k, int64_t v) {
  field_detail::assign(field_detail::grow(c.lossless, k, reset_lossless_entry()), v);
}
inline size_t entries_qmap_lossless(const CoreConfig& c) { return c.lossless.size(); }
inline int64_t get_stat_total_cells(const FieldCtx& x, uint32_t ) {
  return int64_t(x.core->total_used());
}
inline int64_t get_stat_hdrm_pool_cells(const FieldCtx& x, uint32_t ) {
  return int64_t(x.core->headroom_pool_used());
}
inline int64_t get_stat_pool_used_cells(const FieldCtx& x, uint32_t k) {
  if (k >= x.cfg.pool_cells.size()) return INT64_C(0);
  return int64_t(x.core->pool_used(uint16_t(k)));
}
inline int64_t get_stat_decisions_count(const FieldCtx& x, uint32_t ) {
  return int64_t(x.stats.decisions);
}
inline int64_t get_stat_drops_count(const FieldCtx& x, uint32_t ) {
  return int64_t(x.stats.drops);
}

inline constexpr int64_t kEnum_ctrl_policy[] = {0, 1, 2, 3, 4, 5};
inline constexpr int64_t kEnum_ctrl_ewma_rule[] = {0, 1};

// In map order; columns as FieldInfo: name, reg, lsb, width, held, is_signed, quiesce,
// has_min, has_max, min, max, index_of, n_enum, enum_values, enum_text, reset, source,
// get, set, entries.
inline constexpr FieldInfo kFields[] = {
    {"id", 0, 0, 32, Param::kNone, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(1296913729), Source::kConst, nullptr, nullptr, nullptr},
    {"nports", 1, 0, 8, Param::kNone, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kParams, get_params_nports, nullptr, nullptr},
    {"nprio", 1, 8, 4, Param::kNone, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kParams, get_params_nprio, nullptr, nullptr},
    {"npools", 1, 12, 4, Param::kNone, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kParams, get_params_npools, nullptr, nullptr},
    {"nprof", 1, 16, 5, Param::kNone, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kParams, get_params_nprof, nullptr, nullptr},
    {"cw", 1, 24, 6, Param::kNone, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kParams, get_params_cw, nullptr, nullptr},
    {"policy", 2, 0, 3, Param::kNone, false, true, false, false, INT64_C(0), INT64_C(0), Param::kNone, 6, kEnum_ctrl_policy, "dt 0, reverie 1, dsh 2, static 3, sih 4, abm 5", INT64_C(0), Source::kConfig, get_ctrl_policy, set_ctrl_policy, nullptr},
    {"ewma_rule", 2, 4, 1, Param::kNone, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 2, kEnum_ctrl_ewma_rule, "dequeue 0, enqueue_dequeue 1", INT64_C(0), Source::kConfig, get_ctrl_ewma_rule, set_ctrl_ewma_rule, nullptr},
    {"ewma_clamp", 2, 5, 1, Param::kNone, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_ctrl_ewma_clamp, set_ctrl_ewma_clamp, nullptr},
    {"ewma_k", 2, 8, 5, Param::kNone, false, false, false, true, INT64_C(0), INT64_C(30), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_ctrl_ewma_k, set_ctrl_ewma_k, nullptr},
    {"cells", 3, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_buffer_cells_cells, set_buffer_cells_cells, nullptr},
    {"cells", 4, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_hdrm_pool_cells_cells, set_hdrm_pool_cells_cells, nullptr},
    {"cells", 5, 0, 32, Param::kCw, false, true, true, false, INT64_C(1), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(80), Source::kConfig, get_congested_cells_cells, set_congested_cells_cells, nullptr},
    {"cells", 6, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_dsh_port_xon_offset_cells, set_dsh_port_xon_offset_cells, nullptr},
    {"log2", 7, 0, 5, Param::kNone, false, false, false, true, INT64_C(0), INT64_C(20), Param::kNone, 0, nullptr, "", INT64_C(13), Source::kConfig, get_abm_interval_log2, set_abm_interval_log2, nullptr},
    {"cells", 8, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_abm_port_cells_cells, set_abm_port_cells_cells, entries_abm_port_cells_cells},
    {"cycles", 9, 0, 8, Param::kNone, false, false, true, false, INT64_C(1), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(1), Source::kConfig, get_thresh_period_cycles, set_thresh_period_cycles, nullptr},
    {"cells", 10, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_pool_size_cells, set_pool_size_cells, entries_pool_size_cells},
    {"pool", 11, 0, 4, Param::kNone, false, true, false, false, INT64_C(0), INT64_C(0), Param::kNpools, 0, nullptr, "", INT64_C(0), Source::kConfig, get_iprof_mode_pool, set_iprof_mode_pool, entries_iprof_mode_pool},
    {"dynamic", 11, 8, 1, Param::kNone, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_iprof_mode_dynamic, set_iprof_mode_dynamic, entries_iprof_mode_dynamic},
    {"shift", 11, 16, 5, Param::kNone, true, false, true, true, INT64_C(-15), INT64_C(15), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_iprof_mode_shift, set_iprof_mode_shift, entries_iprof_mode_shift},
    {"cells", 12, 0, 32, Param::kCw, false, true, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_iprof_reserved_cells, set_iprof_reserved_cells, entries_iprof_reserved_cells},
    {"cells", 13, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_iprof_static_cells, set_iprof_static_cells, entries_iprof_static_cells},
    {"cells", 14, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_iprof_xoff_cells, set_iprof_xoff_cells, entries_iprof_xoff_cells},
    {"cells", 15, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_iprof_xon_cells, set_iprof_xon_cells, entries_iprof_xon_cells},
    {"cells", 16, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_iprof_xon_offset_cells, set_iprof_xon_offset_cells, entries_iprof_xon_offset_cells},
    {"pool", 17, 0, 4, Param::kNone, false, true, false, false, INT64_C(0), INT64_C(0), Param::kNpools, 0, nullptr, "", INT64_C(0), Source::kConfig, get_eprof_mode_pool, set_eprof_mode_pool, entries_eprof_mode_pool},
    {"dynamic", 17, 8, 1, Param::kNone, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_eprof_mode_dynamic, set_eprof_mode_dynamic, entries_eprof_mode_dynamic},
    {"shift", 17, 16, 5, Param::kNone, true, false, true, true, INT64_C(-15), INT64_C(15), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_eprof_mode_shift, set_eprof_mode_shift, entries_eprof_mode_shift},
    {"cells", 18, 0, 32, Param::kCw, false, true, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_eprof_reserved_cells, set_eprof_reserved_cells, entries_eprof_reserved_cells},
    {"cells", 19, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_eprof_static_cells, set_eprof_static_cells, entries_eprof_static_cells},
    {"pg_profile", 20, 0, 5, Param::kNone, false, true, false, false, INT64_C(0), INT64_C(0), Param::kNprof, 0, nullptr, "", INT64_C(0), Source::kConfig, get_qmap_pg_profile, set_qmap_pg_profile, entries_qmap_pg_profile},
    {"queue_profile", 20, 8, 5, Param::kNone, false, true, false, false, INT64_C(0), INT64_C(0), Param::kNprof, 0, nullptr, "", INT64_C(0), Source::kConfig, get_qmap_queue_profile, set_qmap_queue_profile, entries_qmap_queue_profile},
    {"lossless", 20, 16, 1, Param::kNone, false, true, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kConfig, get_qmap_lossless, set_qmap_lossless, entries_qmap_lossless},
    {"cells", 21, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kCore, get_stat_total_cells, nullptr, nullptr},
    {"cells", 22, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kCore, get_stat_hdrm_pool_cells, nullptr, nullptr},
    {"cells", 23, 0, 32, Param::kCw, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kCore, get_stat_pool_used_cells, nullptr, nullptr},
    {"count", 24, 0, 32, Param::kNone, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kCore, get_stat_decisions_count, nullptr, nullptr},
    {"count", 25, 0, 32, Param::kNone, false, false, false, false, INT64_C(0), INT64_C(0), Param::kNone, 0, nullptr, "", INT64_C(0), Source::kCore, get_stat_drops_count, nullptr, nullptr},
};

}  // namespace mmusim::admission::regs
