#pragma once
// Built-in open-loop traffic generators. Each yields flows in start-time order; the
// traffic manager merges them.
#include <cstdint>
#include <memory>
#include <random>

#include "config/block_config.h"
#include "host/flow.h"

namespace mmusim {

class Generator {
 public:
  virtual ~Generator() = default;
  // Next flow in start order (id, outcome left blank); false when exhausted.
  virtual bool next(Flow& f) = 0;
};

// Generator `index` of tc.generators; it keeps its own copy of that entry.
std::unique_ptr<Generator> make_generator(const TrafficConfig& tc, uint32_t index);

// Deterministic across platforms: our own transforms over mt19937_64 bits.
class Rng {
 public:
  explicit Rng(uint64_t seed) : m_eng(seed) {}
  double uniform() { return double(m_eng() >> 11) * 0x1.0p-53; }  // [0, 1)
  uint64_t below(uint64_t n) { return m_eng() % n; }
  double exponential(double mean);

 private:
  std::mt19937_64 m_eng;
};

uint64_t sample_size(const SizeDist& d, Rng& rng);

}  // namespace mmusim
