#pragma once
// The scenario's "buffer" object (SONiC's BUFFER_POOL, BUFFER_PROFILE, BUFFER_PG,
// BUFFER_QUEUE, PORT_QOS_MAP and its maps, PFC_WD) into a Scenario's BufferCfg and
// PfcWatchdogCfg, over its ports.
#include "config/json_reader.h"

namespace mmusim {

struct Scenario;
struct SwitchConfig;
// skip_missing: port names the switch does not have are skipped (a graph switch reading
// the shared tables), else errors.
void load_buffer(SwitchConfig& sc, JsonReader r, bool skip_missing = false);
// SONiC's PFC_WD table (pfcwdorch.cpp): GLOBAL.POLL_INTERVAL, and per port action,
// detection_time and restoration_time, in ms. SONiC takes 100 ... 5000 ms (detection) and
// 100 ... 60000 ms (restoration); shorter times are accepted, for short simulations.
void load_pfc_wd(SwitchConfig& sc, JsonReader t, bool skip_missing);

}  // namespace mmusim
