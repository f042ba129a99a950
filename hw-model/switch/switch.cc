#include "switch/switch.h"

#include <string>

namespace mmusim {

Switch::Switch(sc_core::sc_module_name name, const Scenario& scenario, uint32_t switch_id, PacketPool& pool)
    : sc_module(name), ingress("ingress", ingress_config(scenario, switch_id), pool),
      mmu("mmu", mmu_config(scenario, switch_id)), pfc("pfc", pfc_gen_config(scenario, switch_id), switch_id, pool),
      csr("csr", mmu.core_mut()) {
  const SwitchConfig& sc = scenario.switch_view(switch_id);
  csr.set_stats([this] {
    const uint64_t drops = mmu.dropped_lossless() + mmu.dropped_lossy();
    return admission::CsrStats{uint32_t(mmu.admitted() + drops), uint32_t(drops)};
  });
  ingress.mmu.bind(mmu.admission_export);
  mmu.pfc.bind(pfc.event_export);
  for (uint32_t i = 0; i < sc.ports(); ++i) {
    egress.push_back(std::make_unique<EgressPort>(("egress_" + sc.topo.ports[i].name).c_str(), i,
                                                  sc.topo.ports[i].rate_bps, sc.dwrr_quantum_bytes));
    EgressPort& e = *egress.back();
    e.set_class_maps(sc.buffer.tc_to_queue[i], sc.buffer.pfc_to_queue[i]);
    ingress.to_egress.bind(e.in);
    pfc.out.bind(e.in);
    ingress.pause.bind(e.pause_export);
    e.mmu.bind(mmu.admission_export);
  }
  if (sc.pfc_wd.enabled()) {
    std::vector<EgressPort*> ports;
    for (auto& e : egress) ports.push_back(e.get());
    watchdog = std::make_unique<PfcWatchdog>("pfc_watchdog", pfc_watchdog_config(scenario, switch_id), ports, pool);
  }
  for (const PfcStormCfg& st : sc.pfc_storms) {
    storms.push_back(std::make_unique<PfcStorm>(("pfc_storm_" + sc.topo.ports[st.port].name).c_str(), st));
    storms.back()->mac.bind(egress[st.port]->pause_export);
  }
  if (sc.bfc.enabled) {
    bfc = std::make_unique<BfcUnit>("bfc", bfc_unit_config(scenario, switch_id), switch_id, pool);
    ingress.bfc.bind(bfc->bfc_export);
    for (auto& e : egress) {
      e->enable_bfc(sc.bfc.queues_per_port);
      e->bfc.bind(bfc->bfc_export);
      bfc->out.bind(e->in);
    }
  }
}

std::vector<uint8_t> Switch::bfc_can_drain(const std::function<bool(uint32_t, uint32_t)>& released) const {
  const BfcPauseCounters& c = bfc->counters();
  std::vector<uint8_t> can_drain(size_t(c.ports()) * c.queues(), 0);
  for (uint32_t port = 0; port < egress.size(); ++port)
    egress[port]->for_each_queued([&](const Packet& p, int q, bool paused) {
      if (p.bfc_counted && (!paused || (q >= 0 && released(port, uint32_t(q)))))
        can_drain[size_t(p.in_port) * c.queues() + p.upstream_q] = 1;
    });
  return can_drain;
}

void Switch::enable_rtl(const std::string& waveform) {
  mmu.enable_rtl(waveform);
  csr.mirror_writes(RtlEngine::params(), [this](uint32_t addr, uint32_t data) { mmu.rtl_csr_write(addr, data); });
}

uint64_t Switch::held_packets() const {
  uint64_t n = ingress.pending_data();
  for (const auto& e : egress) n += e->queued_data();
  return n;
}

}  // namespace mmusim

namespace mmusim {

nlohmann::json Switch::bfc_summary(uint64_t now, const std::vector<uint8_t>& can_drain) const {
  const BfcDeadlockReport d = bfc_deadlock_check(bfc->counters(), can_drain);
  nlohmann::json stuck = nlohmann::json::array();
  for (const auto& [port, q] : d.stuck) stuck.push_back({{"ingress", port}, {"upstream_queue", q}});
  nlohmann::json j = bfc->stats();
  uint64_t tx = 0;
  for (const auto& e : egress) tx += e->tx_bfc_frames();
  j["frames_transmitted"] = tx;
  j["frames_received"] = ingress.received_bfc();
  j["longest_pause_ns"] = double(bfc->longest_pause_ps(now)) / 1000.0;
  j["unresolved_pauses"] = d.unresolved;
  j["draining_pauses"] = d.draining;
  j["deadlock"] = d.deadlocked;
  j["deadlocked_queues"] = stuck;
  return j;
}

}  // namespace mmusim
