#include "pfcwd/pfc_storm.h"

#include "common/sim_time.h"

namespace mmusim {

PfcStorm::PfcStorm(sc_core::sc_module_name name, const PfcStormCfg& cfg) : sc_module(name), mac("mac"), m_cfg(cfg) {
  SC_HAS_PROCESS(PfcStorm);
  SC_METHOD(send);
  sensitive << m_ev;
  dont_initialize();
  m_ev.notify(ps(m_cfg.start_ps));
}

void PfcStorm::send() {
  PfcFrame f;
  f.class_enable = m_cfg.priorities;
  for (uint32_t p = 0; p < 8; ++p)
    if (m_cfg.priorities >> p & 1) f.quanta[p] = m_cfg.quanta;
  mac->pfc_received(f);
  ++m_frames;
  const uint64_t next = now_ps() + m_cfg.period_ps;
  if (next < m_cfg.stop_ps) m_ev.notify(ps(m_cfg.period_ps));
}

}  // namespace mmusim
