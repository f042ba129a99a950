#pragma once
// Elaborates a scenario (switches, hosts, links, routes, traffic), runs it and reports.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "config/scenario.h"
#include "host/flow.h"
#include "host/host.h"
#include "host/traffic_manager.h"
#include "link/link.h"
#include "output/output_dir.h"
#include "output/pcap_writer.h"
#include "switch/switch.h"

namespace mmusim {

struct RunOptions {
  std::string out_dir;  // empty: write nothing; else checked and prepared (OutputDir) before the run
  bool pcap = false;
  bool vcd = false;
  bool progress = false;  // progress lines on stderr (sim/progress.h)
  VcdSignals vcd_signals{};  // groups in counters.vcd
};

// FCT of the flow alone on its empty path (src link, switch, dst link): the frames'
// serialisation at the slower link plus one frame at the other (store and forward), the
// ingress pipeline latency and both propagation delays. Slowdown = FCT / this.
// FCT of `f` alone on its path (host link, `inner` switch-to-switch links, host link):
// store and forward, pipeline latency at every switch, no queueing.
uint64_t ideal_fct_ps(const Scenario& sc, const Flow& f, const std::vector<const NetworkCfg::Port*>& inner);

class Network {
 public:
  Network(const Scenario& sc, const RunOptions& opt);
  ~Network();
  // Simulates the whole duration; returns summary.json's content (wall_time_s included).
  // The output files are renamed into place only if all of them were written: a failed
  // write throws OutputError naming the file (the simulation stops at the failure).
  nlohmann::json run();

  const FlowTable& flows() const { return m_flows; }
  Switch& sw(uint32_t i = 0) { return *m_switches[i]; }
  uint32_t switches() const { return uint32_t(m_switches.size()); }
  Host& host(uint32_t i) { return *m_hosts[i]; }
  uint64_t hops() const;

 private:
  nlohmann::json summary(double wall_s) const;
  uint64_t ideal_fct(const Flow& f) const;
  nlohmann::json switch_summary(uint32_t s, const std::vector<uint8_t>& bfc_can_drain) const;
  // Per switch, Switch::bfc_can_drain resolved across switch links (empty without BFC).
  std::vector<std::vector<uint8_t>> bfc_can_drain() const;
  void write_flows(std::ostream& out) const;
  void open_outputs();
  // The file of a co-simulated switch's unit waveform (--vcd with admission.impl rtl).
  std::string rtl_wave_name(const Switch& sw) const;
  // Closes the VCD and pcap files (OutputError on a failed write) and commits the set.
  void commit_outputs(const nlohmann::json& summary);

  const Scenario& m_sc;
  RunOptions m_opt;
  PacketPool m_pool;
  FlowTable m_flows;
  Routes m_routes;  // [switch][host] -> next-hop ports
  std::vector<std::unique_ptr<Switch>> m_switches;
  std::vector<std::unique_ptr<Host>> m_hosts;
  std::vector<std::unique_ptr<Link>> m_links;
  std::unique_ptr<TrafficManager> m_traffic;
  std::unique_ptr<OutputDir> m_out;
  std::unique_ptr<PcapWriter> m_pcap;
  sc_core::sc_trace_file* m_vcd = nullptr;
  bool m_vcd_ready = false;   // SystemC opened it: closing is safe
  bool m_write_failed = false;  // an output write failed: the simulation was stopped
};

}  // namespace mmusim
