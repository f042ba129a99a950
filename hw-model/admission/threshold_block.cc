#include "admission/threshold_block.h"

namespace mmusim::admission {

void ThresholdBlock::sync(const std::vector<uint64_t>& pool_used, const std::vector<uint64_t>& n, uint32_t period) {
  m_npools = uint32_t(pool_used.size());
  m_stride = m_npools + kMaxPrios;
  m_regs.assign(2 * size_t(m_stride), 0);
  m_nlen[0] = m_nlen[1] = 0;
  m_now = m_regs.data();
  load(m_now, pool_used, n);
  m_loading = false;
  m_count = 1 >= period ? 0 : 1;  // the counter one step after a loading edge
}

}  // namespace mmusim::admission
