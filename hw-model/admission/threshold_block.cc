#include "admission/threshold_block.h"

namespace mmusim::admission {

void ThresholdBlock::sync(uint32_t period) {
  m_npools = uint32_t(m_pool_live->size());
  m_stride = m_npools + kMaxN;
  m_regs.assign((m_lag ? 3 : 2) * size_t(m_stride), 0);
  m_nlen[0] = m_nlen[1] = m_nlen[2] = 0;
  note_n();
  m_now = m_vis = m_regs.data();
  load(m_now);
  m_fresh = true;
  m_loading = false;
  m_count = 1 >= period ? 0 : 1;  // the counter one step after a loading edge
}

void ThresholdBlock::load_n(uint64_t* bank) {
  uint64_t* np = bank + m_npools;
  uint32_t& had = m_nlen[size_t(bank - m_regs.data()) / m_stride];
  const std::vector<uint64_t>& n = *m_n_live;
  const uint32_t nn = uint32_t(n.size());
  for (uint32_t p = 0; p < nn; ++p) np[p] = n[p];
  for (uint32_t p = nn; p < had; ++p) np[p] = 0;  // a policy with n_p left some
  had = nn;
  note_n();
}

}  // namespace mmusim::admission
