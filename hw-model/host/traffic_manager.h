#pragma once
// Starts flows at their start times: merges the generators' flow streams and hands each
// flow to its source host. One pending calendar entry per generator.
#include <memory>
#include <vector>

#include <systemc>

#include "common/calendar.h"
#include "config/block_config.h"
#include "host/flow.h"

namespace mmusim {

class Generator;
class Host;

class TrafficManager : public sc_core::sc_module {
 public:
  // One generator per scenario `traffic` entry, in order (host/generators.h builds them).
  TrafficManager(sc_core::sc_module_name name, TrafficConfig cfg, std::vector<std::unique_ptr<Generator>> gens,
                 FlowTable& flows, std::vector<Host*> hosts);
  ~TrafficManager() override;

 private:
  void pull(uint32_t gen);
  uint64_t base_rtt_ps(const Flow& f, const std::vector<const NetworkCfg::Port*>& inner) const;
  uint64_t roce_rto_ps(const Flow& f, const std::vector<const NetworkCfg::Port*>& inner) const;
  void on_start(uint32_t gen);

  const TrafficConfig m_cfg;
  FlowTable& m_flows;
  std::vector<Host*> m_hosts;
  Routes m_routes;  // for each flow's switch count (Flow::switch_hops)
  std::vector<std::unique_ptr<Generator>> m_gens;
  std::vector<Flow> m_head;   // next flow of each generator
  Calendar::Client m_cal;
};

}  // namespace mmusim
