#pragma once
// A faulty NIC's PFC storm (scenario `pfc_storms`): pause frames for a set of priorities,
// delivered to the MAC of the switch port facing the host every period from start to stop,
// as if the host had sent them.
#include <systemc>

#include "config/scenario.h"
#include "egress/pause_if.h"

namespace mmusim {

class PfcStorm : public sc_core::sc_module {
 public:
  sc_core::sc_port<PauseIf> mac;  // the transmitter of the port facing the host

  PfcStorm(sc_core::sc_module_name name, const PfcStormCfg& cfg);
  uint64_t frames() const { return m_frames; }

 private:
  void send();

  PfcStormCfg m_cfg;
  uint64_t m_frames = 0;
  sc_core::sc_event m_ev;
};

}  // namespace mmusim
