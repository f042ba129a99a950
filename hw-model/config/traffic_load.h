#pragma once
// The scenario's "traffic" generators and "pfc_storms" (faulty NICs).
#include <cstddef>

#include <nlohmann/json.hpp>

#include "config/json_reader.h"

namespace mmusim {

struct Scenario;
struct GeneratorCfg;
// traffic[i] (topology, hosts and host settings already loaded).
GeneratorCfg load_generator(const Scenario& sc, JsonReader r, size_t i);
// Faulty NICs: pause frames at a host's switch port from start to stop.
void load_pfc_storms(Scenario& sc, const nlohmann::json& a);

}  // namespace mmusim
