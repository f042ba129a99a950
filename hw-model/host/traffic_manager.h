#pragma once
// Starts flows at their start times: merges the generators' flow streams and hands each
// flow to its source host. One pending calendar entry per generator.
#include <memory>
#include <vector>

#include <systemc>

#include "common/calendar.h"
#include "config/scenario.h"
#include "host/generators.h"
#include "host/host.h"

namespace mmusim {

class TrafficManager : public sc_core::sc_module {
 public:
  TrafficManager(sc_core::sc_module_name name, const Scenario& sc, FlowTable& flows,
                 std::vector<Host*> hosts);

 private:
  void pull(uint32_t gen);
  uint64_t base_rtt_ps(const Flow& f, const std::vector<const NetworkCfg::Port*>& inner) const;
  void on_start(uint32_t gen);

  const Scenario& m_sc;
  FlowTable& m_flows;
  std::vector<Host*> m_hosts;
  Routes m_routes;  // for each flow's switch count (Flow::switch_hops)
  std::vector<std::unique_ptr<Generator>> m_gens;
  std::vector<Flow> m_head;   // next flow of each generator
  Calendar::Client m_cal;
};

}  // namespace mmusim
