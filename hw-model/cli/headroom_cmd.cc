#include "cli/headroom_cmd.h"

#include <iostream>

#include <nlohmann/json.hpp>

namespace mmusim {

CLI::App* add_headroom_command(CLI::App& app, HeadroomLink& l) {
  CLI::App* c = app.add_subcommand("headroom", "safe lossless headroom of one port (DSH Eq. 1 and the model's terms), as JSON");
  const CLI::Range positive(uint64_t(1), uint64_t(1) << 50);
  c->add_option("--rate-bps", l.rate_bps, "link rate, bit/s")->required()->check(positive);
  c->add_option("--delay-ps", l.delay_ps, "one-way propagation delay, ps")->required()->check(CLI::Range(uint64_t(0), uint64_t(1) << 50));
  c->add_option("--mtu", l.mtu_bytes, "MTU, bytes")->capture_default_str()->check(CLI::Range(64u, 65535u));
  c->add_option("--overhead", l.wire_overhead_bytes, "preamble + IFG per frame, bytes")->capture_default_str()
      ->check(CLI::Range(0u, 1024u));
  c->add_option("--cell", l.cell_bytes, "cell size, bytes")->capture_default_str()->check(CLI::Range(1u, 65535u));
  c->add_option("--clock-period-ps", l.clock_period_ps, "MMU clock period, ps")->capture_default_str()
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
  c->add_option("--latency-cycles", l.pipeline_latency_cycles, "decision latency, cycles")->capture_default_str()
      ->check(CLI::Range(0u, 1u << 16));
  c->add_option("--pipeline-ports", l.pipeline_ports, "ports sharing this port's decision pipeline")
      ->capture_default_str()->check(CLI::Range(1u, 1u << 16));
  c->add_option("--admission-pipeline", l.admission_pipeline, "the admission unit's PIPE (admission.pipeline)")
      ->capture_default_str()->check(CLI::IsMember({0u, 1u, 3u}));
  return c;
}

int run_headroom(const HeadroomLink& l) {
  const CellOccupancy occ = worst_cell_occupancy(l.mtu_bytes, l.wire_overhead_bytes, l.cell_bytes);
  const nlohmann::json j = {{"eta_bytes", headroom_eta_bytes(l.rate_bps, l.delay_ps, l.mtu_bytes)},
                            {"wire_bytes", headroom_wire_bytes(l)},
                            {"safe_cells", safe_headroom_cells(l)},
                            {"occupancy", {{"cells", occ.cells}, {"wire_bytes", occ.wire_bytes}}}};
  std::cout << j.dump() << "\n";
  return 0;
}

}  // namespace mmusim
