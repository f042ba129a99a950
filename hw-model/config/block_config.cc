#include "config/block_config.h"

#include "config/scenario.h"
#include "config/wred_config.h"

namespace mmusim {

namespace {

std::vector<std::string> port_names(const SwitchConfig& sw) {
  std::vector<std::string> out;
  for (const auto& p : sw.topo.ports) out.push_back(p.name);
  return out;
}

std::vector<uint64_t> port_rates(const SwitchConfig& sw) {
  std::vector<uint64_t> out;
  for (const auto& p : sw.topo.ports) out.push_back(p.rate_bps);
  return out;
}

}  // namespace

IngressConfig ingress_config(const Scenario& sc, uint32_t s) {
  const SwitchConfig& sw = sc.switch_view(s);
  IngressConfig c;
  c.clock_period_ps = sw.mmu.clock_period_ps;
  c.pipeline_latency_cycles = sw.mmu.pipeline_latency_cycles;
  c.pipelines = sw.mmu.pipelines;
  c.cell_bytes = sw.mmu.cell_bytes;
  for (uint32_t port = 0; port < sw.ports(); ++port) c.classifiers.push_back(sw.buffer.classifier(port));
  c.tc_to_pg = sw.buffer.tc_to_pg;
  return c;
}

MmuConfig mmu_config(const Scenario& sc, uint32_t s) {
  const SwitchConfig& sw = sc.switch_view(s);
  MmuConfig c;
  c.core = sw.core_config();
  c.switch_name = sw.topo.switch_name;
  c.seed = sc.seed;
  c.cell_bytes = sw.mmu.cell_bytes;
  c.clock_period_ps = sw.mmu.clock_period_ps;
  c.duration_ps = sc.duration_ps;
  c.measure = {sc.measure_start_ps, sc.measure_end_ps};
  c.sample_interval_ps = sw.output.sample_interval_ps;
  c.occupancy_bucket_bytes = sw.output.occupancy_bucket_bytes;
  c.port_names = port_names(sw);
  for (const auto& p : sw.buffer.pools) c.pool_names.push_back(p.name);
  c.port_rate_bps = port_rates(sw);
  c.tc_to_pg = sw.buffer.tc_to_pg;
  c.tc_to_queue = sw.buffer.tc_to_queue;
  for (uint32_t port = 0; port < sw.ports(); ++port)
    for (uint32_t q = 0; q < kClasses; ++q) c.queue_lossless.push_back(sw.queue_lossless(port, q) ? 1 : 0);
  c.th_lossless_port = sw.output.th_lossless_port;
  c.th_lossless_prio = sw.output.th_lossless_prio;
  c.th_lossy_port = sw.output.th_lossy_port;
  c.th_lossy_prio = sw.output.th_lossy_prio;
  c.wred_mark_at_dequeue = sw.wred.mark_at == WredCfg::MarkAt::kDequeue;
  if (sw.wred.configured()) {
    c.wred = wred_queue_configs(sw);
    c.wred_profile = sw.wred.queue_profile;
    for (const auto& p : sw.wred.profiles) c.wred_profile_names.push_back(p.name);
  }
  c.int_classes = sw.int_telemetry.classes;
  return c;
}

PfcGenConfig pfc_gen_config(const Scenario& sc, uint32_t s) {
  const SwitchConfig& sw = sc.switch_view(s);
  PfcGenConfig c;
  c.pause_quanta = sw.pfc.pause_quanta;
  c.refresh_fraction = sw.pfc.refresh_fraction;
  c.measure = {sc.measure_start_ps, sc.measure_end_ps};
  c.port_rate_bps = port_rates(sw);
  for (uint32_t port = 0; port < sw.ports(); ++port) {
    auto& v = c.pg_priorities.emplace_back();
    for (uint32_t pg = 0; pg < kClasses; ++pg) v[pg] = sw.pg_priorities(port, pg);
  }
  return c;
}

PfcWatchdogConfig pfc_watchdog_config(const Scenario& sc, uint32_t s) {
  const SwitchConfig& sw = sc.switch_view(s);
  return {sw.pfc_wd, port_names(sw), sw.buffer.pfc_to_queue};
}

BfcUnitConfig bfc_unit_config(const Scenario& sc, uint32_t s) {
  const SwitchConfig& sw = sc.switch_view(s);
  BfcUnitConfig c;
  c.bfc = sw.bfc;
  c.seed = sc.seed;
  c.cell_bytes = sw.mmu.cell_bytes;
  c.duration_ps = sc.duration_ps;
  c.measure = {sc.measure_start_ps, sc.measure_end_ps};
  c.sample_interval_ps = sw.output.sample_interval_ps;
  c.occupancy_bucket_bytes = sw.output.occupancy_bucket_bytes;
  c.port_names = port_names(sw);
  c.port_rate_bps = port_rates(sw);
  return c;
}

TrafficConfig traffic_config(const Scenario& sc) {
  TrafficConfig c;
  c.net = sc.net;
  c.seed = sc.seed;
  c.duration_ps = sc.duration_ps;
  c.wire_overhead_bytes = sc.topo.wire_overhead_bytes;
  c.ack_bytes = sc.host.ack_bytes;
  c.pipeline_latency_cycles = sc.mmu.pipeline_latency_cycles;
  c.clock_period_ps = sc.mmu.clock_period_ps;
  for (const auto& h : sc.net.hosts) c.host_classifier.push_back(sc.switch_view(h.sw).buffer.classifier(h.port));
  c.mtu_bytes = sc.topo.mtu_bytes;
  c.generators = sc.traffic;
  c.transport = sc.host.transport;
  c.int_telemetry = sc.int_telemetry;
  for (uint32_t s = 0; s < sc.net.switches.size(); ++s) c.switch_buffer_bytes.push_back(sc.switch_view(s).mmu.buffer_bytes);
  return c;
}

}  // namespace mmusim
