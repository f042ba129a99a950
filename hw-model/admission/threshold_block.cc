#include "admission/threshold_block.h"

namespace mmusim::admission {

void ThresholdBlock::sync(const std::vector<uint64_t>& pool_used, const std::vector<uint64_t>& n, uint32_t period) {
  m_pool = pool_used;
  m_n = n;
  m_loading = false;
  m_count = 1 >= period ? 0 : 1;  // the counter one step after a loading edge
}

void ThresholdBlock::begin(const std::vector<uint64_t>& pool_used, const std::vector<uint64_t>& n) {
  m_loading = m_count == 0;
  if (!m_loading) return;
  m_pool_next = pool_used;
  m_n_next = n;
}

void ThresholdBlock::end(bool csr_write, uint32_t period) {
  if (m_loading) {
    m_pool.swap(m_pool_next);
    m_n.swap(m_n_next);
    m_loading = false;
  }
  // As the RTL's counter: wraps at period - 1 (a period lowered under it wraps at once).
  m_count = csr_write || m_count + 1 >= period ? 0 : m_count + 1;
}

}  // namespace mmusim::admission
