#pragma once
// Checks on a loaded scenario that need the whole switch configuration: buffer settings that
// cannot be right (errors naming the field) and classes that are lossless on some ports but
// arrive on ports without PFC for them (warnings).
#include <string>
#include <vector>

namespace mmusim {

struct Scenario;

// Every switch's buffer: a static_th above the buffer, a reserved size above its pool, a
// profile's xoff above the buffer, ingress pools (size + xoff) summing past it. ConfigError
// naming the field; with `imported` (a SONiC CONFIG_DB, which does not know the MMU's size when
// mmu.buffer_bytes is inferred), static_th above the buffer is a warning instead.
void check_buffer_semantics(const Scenario& sc, bool imported, std::vector<std::string>& warnings);

// Each generator whose class is lossless on some port of the switch its sources attach to,
// but not on the sources' own ingress port (typically a port missing from PORT_QOS_MAP).
std::vector<std::string> lossless_traffic_warnings(const Scenario& sc);

}  // namespace mmusim
