#pragma once
// BFC pause threshold (bfc-nsdi22 §3.3.2): Th = HRTT * mu / N_active, precomputed per egress
// port (its rate mu) for N_active = 1..queues, as the paper's match-action table indexed by
// N_active and mu. Stored in cells (rounded down) for the queue-length comparison.
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace mmusim {

class BfcThresholdTable {
 public:
  BfcThresholdTable(const std::vector<uint64_t>& rates_bps, uint64_t hrtt_ps, uint32_t queues, uint32_t cell_bytes)
      : m_queues(queues) {
    if (queues == 0 || cell_bytes == 0) throw std::invalid_argument("BfcThresholdTable: zero queues or cell size");
    for (uint64_t rate : rates_bps) {
      // HRTT * mu in bytes; 128 bits as ps x b/s reaches 2^62 x 2^37.
      const unsigned __int128 bdp = (unsigned __int128)hrtt_ps * rate / 8'000'000'000'000ull;
      for (uint32_t n = 1; n <= queues; ++n) {
        m_bytes.push_back(uint64_t(bdp / n));
        m_cells.push_back(uint64_t(bdp / n) / cell_bytes);
      }
    }
  }
  // N_active outside 1..queues is a caller bug.
  uint64_t bytes(uint32_t port, uint32_t n_active) const { return m_bytes.at(index(port, n_active)); }
  uint64_t cells(uint32_t port, uint32_t n_active) const { return m_cells.at(index(port, n_active)); }

 private:
  size_t index(uint32_t port, uint32_t n) const {
    if (n == 0 || n > m_queues) throw std::out_of_range("BfcThresholdTable: N_active out of range");
    return size_t(port) * m_queues + (n - 1);
  }
  uint32_t m_queues;
  std::vector<uint64_t> m_bytes, m_cells;
};

}  // namespace mmusim
