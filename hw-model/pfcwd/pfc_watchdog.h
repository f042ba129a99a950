#pragma once
// SONiC's PFC watchdog over one switch's egress ports (sonic-swss pfcwdorch with
// pfc_detect_<platform>.lua and pfc_restore.lua; docs/configuration.md "PFC watchdog"). A
// watched queue whose pause holds packets it cannot send through a whole detection time
// (counted in polls) is stormed: `drop` drops what it holds and what arrives and ignores
// its pause, `forward` ignores its pause, `alert` only counts. It is restored after the
// restoration time without a pause frame. Polls run on the POLL_INTERVAL grid only while a
// watched queue is paused or stormed; an idle switch costs nothing.
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "config/scenario.h"
#include "egress/egress_port.h"

namespace mmusim {

class PfcWatchdog : public sc_core::sc_module {
 public:
  // `egress`: the switch's egress ports in port order; dropped frames go back to `pool`.
  PfcWatchdog(sc_core::sc_module_name name, const Scenario& sc, const std::vector<EgressPort*>& egress,
              PacketPool& pool);

  // Per port: storms_detected, storms_restored, dropped, first_storm_ns, last_restore_ns;
  // totals at the top.
  nlohmann::json summary() const;
  uint64_t drops() const;

 private:
  // One watched egress queue and the PFC priorities whose pause stops it.
  struct Queue {
    uint32_t port = 0;
    uint8_t queue = 0;
    uint8_t prios = 0;
    bool have_last = false, paused_last = false, stormed = false;
    uint64_t rx_last = 0, xon_last = 0, tx_last = 0;
    uint64_t detect_left = 0, restore_left = 0;
  };
  struct PortCounters {
    uint64_t storms = 0, restored = 0, first_storm_ps = 0, last_restore_ps = 0;
  };
  void arm();   // a PFC frame arrived: poll from the next grid point if idle
  void poll();
  void mitigate(const Queue& q);

  const PfcWatchdogCfg& m_cfg;
  std::vector<EgressPort*> m_egress;
  std::vector<std::string> m_names;
  std::vector<Queue> m_queues;
  std::vector<PortCounters> m_counters;
  bool m_polling = false;
  sc_core::sc_event m_poll_ev;
};

}  // namespace mmusim
