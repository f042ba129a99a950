#pragma once
// Smart-Pause (smart-pause-2019-slides, "The Smart-Pause Rule"; DOMAIN.md §7): the sender
// NIC holds a flow's next packet for P when the one-way delay (OWD) of the flow's last
// acknowledged packet exceeds T. P is fixed or P = OWD − T; T depends on the path length
// (switch hops). Pure integer logic, shared by the host model and the unit tests.
#include <cstdint>
#include <vector>

#include "config/block_config.h"

namespace mmusim {

// T for a path through `switch_hops` switches: threshold_ps[hops − 1], the last entry for
// longer paths.
uint64_t smart_pause_threshold_ps(const HostCfg& c, uint32_t switch_hops);

// How long to hold the next packet of a flow whose last acknowledged packet saw `owd_ps`
// (has_owd false: no ACK yet); 0 = send now.
uint64_t smart_pause_hold_ps(const HostCfg& c, bool has_owd, uint64_t owd_ps, uint32_t switch_hops);

}  // namespace mmusim
