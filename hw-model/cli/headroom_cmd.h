#pragma once
// `mmusim headroom`: the loader's headroom arithmetic (config/headroom.h) for one port, as
// JSON, so the Python tools (traffic/headroom.py) use the same code instead of a copy.
#include <CLI/CLI.hpp>

#include "config/headroom.h"

namespace mmusim {

// Adds the subcommand and its options (filled into `link`).
CLI::App* add_headroom_command(CLI::App& app, HeadroomLink& link);
// {"eta_bytes", "wire_bytes", "safe_cells", "occupancy": {"cells", "wire_bytes"}} on stdout.
int run_headroom(const HeadroomLink& link);

}  // namespace mmusim
