#pragma once
// Integer picosecond time helpers (SystemC's default resolution is 1 ps).
#include <systemc>

#include <cstdint>

#include "common/calendar.h"

namespace mmusim {

// The model's time (the calendar's while it runs ahead of the kernel: common/calendar.h).
inline uint64_t now_ps() { return Calendar::now(); }
inline sc_core::sc_time ps(uint64_t v) { return sc_core::sc_time::from_value(v); }

// Serialisation time of `bytes` at `rate_bps`, rounded up to whole picoseconds.
inline uint64_t serialization_ps(uint64_t bytes, uint64_t rate_bps) {
  const unsigned __int128 num = (unsigned __int128)bytes * 8u * 1'000'000'000'000ull;
  return uint64_t((num + rate_bps - 1) / rate_bps);
}

}  // namespace mmusim
