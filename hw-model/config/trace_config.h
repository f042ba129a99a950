#pragma once
// Scenario keys of the "trace" generator (docs/configuration.md, docs/traces.md).
#include "config/json_reader.h"
#include "config/scenario.h"

namespace mmusim {

// Reads the keys after type and name, checks the whole trace file against the topology.
GeneratorCfg load_trace_generator(const Scenario& sc, JsonReader& r, GeneratorCfg g);

}  // namespace mmusim
