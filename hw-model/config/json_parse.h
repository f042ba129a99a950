#pragma once
// JSON text to nlohmann::json with limits checked first, by a flat scan that never
// recurses: nesting depth (nlohmann copies and dumps recursively, so a deep document could
// overflow the stack later) and numbers beyond a double (nlohmann throws out_of_range).
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace mmusim {

constexpr int kMaxJsonDepth = 64;                         // nested objects/arrays
constexpr uint64_t kMaxScenarioBytes = 16ull << 20;       // a scenario file, 16 MiB

// Parses `text`; ConfigError "origin:line:column: field: what" when a limit is exceeded,
// "origin: malformed JSON: ..." when it is not JSON. `max_depth` bounds the nesting.
nlohmann::json parse_json_text(const std::string& text, const std::string& origin,
                               int max_depth = kMaxJsonDepth);

// The limit checks alone, for text that may be JSON (--set values): "" when within them,
// else "[line:column: ]field: what" naming the field under `prefix`.
std::string json_limit_problem(const std::string& text, const std::string& prefix, int max_depth,
                               bool with_position);

}  // namespace mmusim
