#pragma once
// SplitMix64 finalizer: the one mixing function behind seeds derived from the scenario seed,
// ECMP next-hop picks and BFC flow hashes, so all of them stay deterministic per seed.
#include <cstdint>

namespace mmusim {

inline uint64_t splitmix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace mmusim
