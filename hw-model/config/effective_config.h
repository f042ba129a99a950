#pragma once
// The configuration a run programs, after defaults, the CONFIG_DB import and the loader:
// per switch its pools, and per port and PG / queue the TCs mapped to it and its PFC
// priorities (a PG's XOFF pauses them; their pause stops a queue), the profile, class (lossless or lossy),
// reserved cells, threshold (alpha or static), xoff, xon and xon_offset, in cells as the
// admission core holds them (`mmusim config show`, `mmusim config diff`).
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mmusim {

struct Scenario;

nlohmann::json effective_config(const Scenario& sc);

// The same as a table, one line per pool and per (port, PG) and (port, queue).
void print_effective_config(std::ostream& os, const nlohmann::json& eff);

// Every leaf that differs, "path: a -> b" (array elements with a "name" are matched by it),
// in path order; empty when the two are the same.
std::vector<std::string> diff_effective_config(const nlohmann::json& a, const nlohmann::json& b);

}  // namespace mmusim
