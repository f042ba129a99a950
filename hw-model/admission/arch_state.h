#pragma once
// The admission unit's architectural state: every register of the RTL unit that is not
// configuration. A lockstep compares all of it (hw-model/cosim/lockstep.h); a core can be
// loaded with it (AdmissionCore::load_state), so a core built with one configuration can
// carry on from another's state.
#include <cstdint>
#include <string>
#include <vector>

namespace mmusim::admission {

struct ArchState {
  // Counter bank: per queue (port * prios + prio) and per port.
  std::vector<uint64_t> ing, hdrm, egr;
  std::vector<uint8_t> paused;
  std::vector<uint8_t> port_paused;
  std::vector<uint64_t> pool_used;
  uint64_t hdrm_pool_used = 0;
  uint64_t total = 0;
  // reverie: q_hat per ingress and per egress queue (ewma.frac_bits fraction bits) and n_p
  // per priority (8 fraction bits, CongestionCount::kFrac). Empty under other policies.
  std::vector<uint64_t> avg_in, avg_eg, n_p;
  // dsh: lossless shared cells and insurance-headroom cells per port. Empty otherwise.
  std::vector<uint64_t> port_shared, port_ins;
  // abm: per ingress and per egress queue the cells sent this interval and the last, the
  // interval tag (mod 2^12); n_p per priority and side (8 fraction bits). Empty otherwise.
  std::vector<uint64_t> abm_cur_in, abm_last_in, abm_tag_in, abm_cur_eg, abm_last_eg, abm_tag_eg;
  std::vector<uint64_t> abm_n_in, abm_n_eg;
};

// The first difference of `got` from `want`, as "name[index]: expected A, got B" (scalars
// as index 0), or "" when they are equal.
std::string first_difference(const ArchState& want, const ArchState& got);

}  // namespace mmusim::admission
