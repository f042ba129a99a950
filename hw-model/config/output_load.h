#pragma once
// The scenario's "measure" window and "output" options (after "buffer" and "bfc": the
// threshold queues name classes, bfc_queues needs BFC).
#include <cstdint>

#include "config/json_reader.h"

namespace mmusim {

struct Scenario;
// A floor on output.sample_interval_ns: at most 100 timeseries rows per simulated us.
constexpr uint64_t kMinSamplePs = 10'000;
void load_measure(Scenario& sc, JsonReader m);
void load_output(Scenario& sc, JsonReader o);

}  // namespace mmusim
