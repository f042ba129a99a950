#pragma once
// Human-readable table of a summary.json.
#include <ostream>

#include <nlohmann/json.hpp>

namespace mmusim {
void print_report(std::ostream& os, const nlohmann::json& summary);
}
