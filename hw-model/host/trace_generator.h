#pragma once
// The "trace" traffic generator: streams a trace file (config/trace_format.h), one line per
// flow started.
#include <cstdint>
#include <memory>

#include "config/block_config.h"
#include "host/generators.h"

namespace mmusim {

std::unique_ptr<Generator> make_trace_generator(const TrafficConfig& tc, uint32_t index);

}  // namespace mmusim
