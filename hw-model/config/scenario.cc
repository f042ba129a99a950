#include "config/scenario.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "admission/policy.h"
#include "config/buffer_load.h"
#include "config/headroom.h"
#include "config/input_file.h"
#include "config/json_parse.h"
#include "config/json_reader.h"
#include "config/output_load.h"
#include "config/scenario_parse.h"
#include "config/traffic_load.h"

namespace mmusim {
namespace {

constexpr uint64_t kMaxSamples = 10'000'000;

// Refreshes closer than one PFC frame on the wire would queue frames without bound. Both
// times scale with the port rate, so the check is in bit times.
void check_pfc_refresh(const Scenario& sc) {
  const double every = double(sc.pfc.pause_quanta) * 512 * sc.pfc.refresh_fraction;
  const uint64_t frame = (kMinFrameBytes + sc.topo.wire_overhead_bytes) * 8;
  if (every < double(frame))
    throw ConfigError("pfc.refresh_fraction: a refresh every pause_quanta x 512 x refresh_fraction = " +
                      nlohmann::json(every).dump() + " bit times is shorter than one PFC frame on the wire (" +
                      std::to_string(frame) + " bit times); raise pfc.refresh_fraction or pfc.pause_quanta");
}

void load_topology(Scenario& sc, JsonReader r) {
  if (r.object().contains("switches") || r.object().contains("generator")) {
    sc.topo.mtu_bytes = uint32_t(r.integer("mtu_bytes", 64, 65535, 1500));
    sc.topo.wire_overhead_bytes = uint32_t(r.integer("wire_overhead_bytes", 0, 64, 20));
    load_network(sc, r);
    r.done();
    return;
  }
  sc.topo.switch_name = r.string("switch", "sw0");
  const uint32_t n = uint32_t(r.integer("ports", 1, 1024));
  const uint64_t rate = r.rate_bps("rate_gbps");
  const uint64_t delay = r.time_ps("link_delay_ns", kPsPerNs, true);
  const uint32_t stride = uint32_t(r.integer("port_name_stride", 1, 64, 4));
  sc.topo.mtu_bytes = uint32_t(r.integer("mtu_bytes", 64, 65535, 1500));
  sc.topo.wire_overhead_bytes = uint32_t(r.integer("wire_overhead_bytes", 0, 64, 20));
  for (uint32_t i = 0; i < n; ++i)
    sc.topo.ports.push_back({"Ethernet" + std::to_string(i * stride), rate, delay});
  if (r.has("port_overrides")) {
    JsonReader o = r.child("port_overrides");
    for (auto it = o.object().begin(); it != o.object().end(); ++it) {
      const uint32_t p = port_index(sc, it.key(), o.field(it.key()));
      JsonReader po = o.child(it.key());
      if (po.has("rate_gbps")) sc.topo.ports[p].rate_bps = po.rate_bps("rate_gbps");
      if (po.has("link_delay_ns")) sc.topo.ports[p].delay_ps = po.time_ps("link_delay_ns", kPsPerNs, true);
      po.done();
    }
    o.done();
  }
  r.done();
  single_switch_network(sc);
}

void load_mmu(Scenario& sc, JsonReader r) {
  sc.mmu.buffer_bytes = r.positive("buffer_bytes");
  sc.mmu.cell_bytes = uint32_t(r.integer("cell_bytes", 1, 65536, 256));
  // 1 MHz to 10 GHz: a cycle of 100 ps to 1 us (docs/configuration.md has the reasons).
  const double mhz = r.number("clock_mhz");
  if (!(mhz >= 1 && mhz <= 1e4))
    r.fail("clock_mhz", "must be in [1, 10000] MHz (1 MHz to 10 GHz), got " + nlohmann::json(mhz).dump());
  sc.mmu.clock_period_ps = uint64_t(std::llround(1e6 / mhz));
  sc.mmu.pipeline_latency_cycles = uint32_t(r.integer("pipeline_latency_cycles", 0, 1 << 20, 4));
  sc.mmu.pipelines = uint32_t(r.integer("pipelines", 1, sc.ports(), 1));
  sc.mmu.counter_bits = uint32_t(r.integer("counter_bits", 8, 64, 32));
  const uint64_t cells = sc.mmu.buffer_bytes / sc.mmu.cell_bytes;
  if (sc.mmu.counter_bits < 64 && cells > (uint64_t(1) << sc.mmu.counter_bits) - 1)
    r.fail("counter_bits", std::to_string(sc.mmu.counter_bits) + " bits cannot count the buffer's " +
                               std::to_string(cells) + " cells");
  r.done();
}

void load_admission(Scenario& sc, JsonReader r) {
  AdmissionCfg& a = sc.admission;
  a.policy = r.string("policy", a.policy);
  bool known = false;
  std::string names;
  for (const auto& p : admission::policies()) {
    known |= a.policy == p.name;
    names += std::string(names.empty() ? "" : ", ") + p.name;
  }
  if (!known) r.fail("policy", "unknown policy '" + a.policy + "' (" + names + ")");
  const std::string impl = r.string("impl", "cpp");
  if (impl != "cpp" && impl != "rtl") r.fail("impl", "must be cpp or rtl");
  a.rtl = impl == "rtl";
  const std::string rule = r.string("congestion_rule", "threshold");
  if (rule == "threshold") a.congestion_rule = admission::CongestionRule::Kind::kThreshold;
  else if (rule == "saturation") a.congestion_rule = admission::CongestionRule::Kind::kSaturation;
  else r.fail("congestion_rule", "must be threshold or saturation");
  a.congested_bytes = r.positive("congested_bytes", a.congested_bytes);
  // PIPE 0, 1 or 3 (the four-stage unit has dt, static, sih and dsh only).
  using Lim = std::numeric_limits<int32_t>;
  const int64_t pipe = r.integer("pipeline", Lim::min(), Lim::max(), a.pipeline);
  if (pipe != 0 && pipe != 1 && pipe != 3) r.fail("pipeline", "must be 0, 1 or 3, got " + std::to_string(pipe));
  if (pipe == 3 && a.policy != "dt" && a.policy != "static" && a.policy != "sih" && a.policy != "dsh")
    r.fail("pipeline", "3 supports the policies dt, static, sih and dsh, not " + a.policy);
  a.pipeline = uint32_t(pipe);
  if (r.has("ewma")) {
    JsonReader e = r.child("ewma");
    a.ewma.k = uint8_t(e.integer("k", 0, 30, a.ewma.k));
    a.ewma.frac_bits = uint8_t(e.integer("frac_bits", 0, 32, a.ewma.frac_bits));
    const std::string upd = e.string("update", "dequeue");
    if (upd == "dequeue") a.ewma.rule = admission::EwmaConfig::Rule::kDequeue;
    else if (upd == "enqueue_dequeue") a.ewma.rule = admission::EwmaConfig::Rule::kEnqueueDequeue;
    else if (upd == "periodic") a.ewma.rule = admission::EwmaConfig::Rule::kPeriodic;
    else e.fail("update", "must be dequeue, enqueue_dequeue or periodic");
    a.ewma.period_cycles = uint32_t(e.integer("period_cycles", 1, 1 << 30, a.ewma.period_cycles));
    if (e.has("clamp")) {
      const auto& v = e.raw("clamp");
      if (!v.is_boolean()) e.fail("clamp", "must be true or false");
      a.ewma.clamp = v.get<bool>();
    }
    e.done();
  }
  if (r.has("abm")) {
    JsonReader b = r.child("abm");
    a.abm_interval_ps = b.time_ps("interval_ns", kPsPerNs, false, a.abm_interval_ps);
    // The interval is counted in whole MMU cycles: a shorter one would be a silent clamp.
    if (a.abm_interval_ps < sc.mmu.clock_period_ps)
      b.fail("interval_ns", "shorter than one MMU clock cycle (" + ns_text(sc.mmu.clock_period_ps) + " ns)");
    // The RTL takes the interval number from cycle bits 0..31 with a 12-bit tag: 2^20 cycles at most.
    if (a.abm_interval_ps / sc.mmu.clock_period_ps >= (uint64_t(1) << 21))
      b.fail("interval_ns", "longer than 2^21 - 1 MMU clock cycles (" + ns_text(sc.mmu.clock_period_ps) + " ns each)");
    b.done();
  }
  if (r.has("dsh")) {
    JsonReader d = r.child("dsh");
    a.dsh_port_xon_offset_bytes = d.non_negative("port_xon_offset_bytes", 0);
    d.done();
  }
  if (r.has("thresholds")) {
    JsonReader t = r.child("thresholds");
    a.thresholds.period_cycles = uint32_t(t.integer("period_cycles", 1, 255, a.thresholds.period_cycles));
    if (t.has("zero_latency")) {
      const auto& v = t.raw("zero_latency");
      if (!v.is_boolean()) t.fail("zero_latency", "must be true or false");
      a.thresholds.zero_latency = v.get<bool>();
    }
    if (a.rtl && a.thresholds.zero_latency)
      t.fail("zero_latency", "impl rtl: the RTL unit's thresholds come from its threshold calculator (must be false)");
    t.done();
  }
  r.done();
}

// Graph form: each switch reads the SONiC tables (its own or the shared ones) over its own
// ports; the view is what its MMU, pipeline and PFC generator see.
void build_switch_configs(Scenario& sc, const nlohmann::json& shared_buffer, const nlohmann::json& watchdog) {
  for (size_t s = 0; s < sc.net.switches.size(); ++s) {
    const NetworkCfg::Switch& sw = sc.net.switches[s];
    SwitchConfig& v = sc.switch_configs.emplace_back();
    v.topo = sc.topo;
    v.topo.switch_name = sw.name;
    v.topo.ports.clear();
    for (const auto& p : sw.ports) v.topo.ports.push_back({p.name, p.rate_bps, p.delay_ps});
    v.mmu = sc.mmu;
    v.pfc = sc.pfc;
    v.admission = sc.admission;
    v.dwrr_quantum_bytes = sc.dwrr_quantum_bytes;
    v.output = sc.output;
    v.bfc = bfc_switch_view(sc.bfc, uint32_t(sw.ports.size()));
    const bool own = !sw.buffer.is_null();
    const std::string f = own ? "topology.switches[" + std::to_string(s) + "].buffer" : "buffer";
    try {
      load_buffer(v, JsonReader(own ? sw.buffer : shared_buffer, f), !own);
      v.wred = sc.wred;
      v.int_telemetry = sc.int_telemetry;
      resolve_wred_queues(v, true);
      if (!watchdog.is_null() && v.pfc_wd.ports.empty()) load_pfc_wd(v, JsonReader(watchdog, "pfc_watchdog"), true);
      // threshold_queues applies where the port exists with that class; else the default.
      OutputCfg& o = v.output;
      auto keep = [&](int port, int prio, bool lossless) {
        if (port < 0 || port >= int(v.ports())) return false;
        return (lossless ? v.lossless(uint32_t(port), uint32_t(prio)) : v.queue_lossless(uint32_t(port), uint32_t(prio))) == lossless;
      };
      if (!keep(o.th_lossless_port, o.th_lossless_prio, true)) o.th_lossless_port = -1;
      if (!keep(o.th_lossy_port, o.th_lossy_prio, false)) o.th_lossy_port = -1;
      v.core_config().validate();
      for (auto& w : headroom_warnings(v)) sc.warnings.push_back(std::move(w));
    } catch (const std::exception& e) {
      throw ConfigError("switch '" + sw.name + "': " + e.what());
    }
  }
}

}  // namespace

Scenario load_scenario(const nlohmann::json& j, const std::string& origin) {
  Scenario sc;
  try {
    JsonReader r(j, "");
    sc.name = r.string("name", origin);
    sc.seed = uint64_t(r.integer("seed", 0, int64_t(kMaxSeed), 1));
    sc.duration_ps = r.time_ps("duration_us", kPsPerUs, false);
    load_topology(sc, r.child("topology"));
    load_mmu(sc, r.child("mmu"));
    if (sc.mmu.buffer_bytes / sc.mmu.cell_bytes == 0)
      throw ConfigError("mmu.buffer_bytes: smaller than one cell");
    load_buffer(sc, r.child("buffer"));
    // pfc_watchdog: PFC_WD's keys for every switch whose buffer has no PFC_WD of its own.
    if (r.has("pfc_watchdog")) {
      if (sc.pfc_wd.ports.empty()) load_pfc_wd(sc, r.child("pfc_watchdog"), false);
      else r.child("pfc_watchdog");
    }
    sc.measure_end_ps = sc.duration_ps;
    if (r.has("measure")) load_measure(sc, r.child("measure"));
    if (r.has("pfc")) {
      JsonReader p = r.child("pfc");
      sc.pfc.pause_quanta = uint16_t(p.integer("pause_quanta", 1, 65535, 65535));
      if (p.has("refresh_fraction")) sc.pfc.refresh_fraction = p.fraction("refresh_fraction", 0, 0.99);
      p.done();
    }
    check_pfc_refresh(sc);
    if (r.has("admission")) load_admission(sc, r.child("admission"));
    if (r.has("egress")) {
      JsonReader e = r.child("egress");
      sc.dwrr_quantum_bytes = uint32_t(e.integer("dwrr_quantum_bytes", 64, 1 << 24, 1600));
      e.done();
    }
    if (r.has("host")) load_host(sc, r.raw("host"));
    if (r.has("bfc")) load_bfc(sc, r.child("bfc"));
    if (r.has("wred")) load_wred(sc, r.child("wred"));
    if (r.has("int")) load_int(sc, r.child("int"));
    if (r.has("output")) load_output(sc, r.child("output"));
    // Bounded output: with the 10 ns floor above, at most 10^7 rows per file.
    if (sc.duration_ps / sc.output.sample_interval_ps >= kMaxSamples)
      throw ConfigError("output.sample_interval_ns: " + ns_text(sc.output.sample_interval_ps) + " ns gives " +
                        std::to_string(sc.duration_ps / sc.output.sample_interval_ps + 1) +
                        " timeseries rows over duration_us; at most 10^7 per file");
    const auto& t = r.raw("traffic");
    if (!t.is_array()) r.fail("traffic", "must be an array of generators");
    for (size_t i = 0; i < t.size(); ++i) {
      const std::string f = "traffic[" + std::to_string(i) + "]";
      sc.traffic.push_back(load_generator(sc, JsonReader(t[i], f), i));
      for (size_t k = 0; k < i; ++k)
        if (sc.traffic[k].name == sc.traffic[i].name)
          throw ConfigError(f + ".name: '" + sc.traffic[i].name + "' already names traffic[" + std::to_string(k) + "]");
      if (sc.traffic[i].stop_ps > sc.duration_ps) throw ConfigError(f + ".stop_us: beyond duration_us");
    }
    finish_transports(sc);
    if (r.has("pfc_storms")) load_pfc_storms(sc, r.raw("pfc_storms"));
    r.done();
    sc.core_config().validate();
    if (sc.net.graph) {
      build_switch_configs(sc, j.at("buffer"), j.contains("pfc_watchdog") ? j.at("pfc_watchdog") : nlohmann::json());
      for (size_t i = 0; i < sc.pfc_storms.size(); ++i)
        sc.switch_configs[sc.pfc_storm_switch[i]].pfc_storms.push_back(sc.pfc_storms[i]);
    } else {
      sc.warnings = headroom_warnings(sc);
    }
    for (auto& w : check_transport_classes(sc)) sc.warnings.push_back(std::move(w));
    for (uint32_t s = 0; s < sc.net.switches.size(); ++s)
      if (sc.bfc.enabled && sc.switch_view(s).pfc_wd.enabled())
        throw ConfigError("buffer.PFC_WD: the PFC watchdog is not modelled with bfc.enabled");
  } catch (const std::invalid_argument& e) {
    throw ConfigError(origin + ": " + e.what());
  } catch (const ConfigError& e) {
    throw ConfigError(origin + ": " + e.what());
  }
  return sc;
}

nlohmann::json parse_json_file(const std::string& path) {
  return parse_json_text(read_regular_file(path, kMaxScenarioBytes, "scenario file"), path);
}

Scenario load_scenario_file(const std::string& path) { return load_scenario(parse_json_file(path), path); }

void apply_override(nlohmann::json& j, const std::string& assignment) {
  const std::string arg = "--set '" + clip(assignment) + "'";
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw ConfigError(arg + ": expected key.path=value");
  const std::string path = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  const auto parts = split(path, '.');
  // The path's objects count towards the nesting limit with the value's own.
  if (parts.size() >= size_t(kMaxJsonDepth))
    throw ConfigError(arg + ": key path deeper than " + std::to_string(kMaxJsonDepth - 1) + " levels");
  const int value_depth = kMaxJsonDepth - int(parts.size());
  if (const std::string p = json_limit_problem(text, clip(path), value_depth, false); !p.empty())
    throw ConfigError(arg + ": " + p);
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error&) {
    value = text;  // not JSON: a string
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(arg + ": " + e.what());
  }
  nlohmann::json* node = &j;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& k = parts[i];
    if (k.empty()) throw ConfigError(arg + ": empty path component");
    if (node->is_array()) {
      uint64_t idx = 0;
      if (!parse_uint(k, idx) || idx >= node->size())
        throw ConfigError(arg + ": '" + clip(k) + "' is not an index of that array");
      node = &(*node)[size_t(idx)];
    } else if (node->is_object() || node->is_null()) {
      node = &(*node)[k];
    } else {
      throw ConfigError(arg + ": '" + clip(k) + "' is under a non-object value");
    }
  }
  *node = std::move(value);
}

}  // namespace mmusim
