#include "admission/policies/sonic.h"

namespace mmusim::admission {

Result SonicPolicy::admit_after(Counters& c, const Request& r, const PrevCycle& prev) {
  return admit_as(c, r, View{prev});
}

uint64_t SonicPolicy::threshold(const Counters& c, const Threshold& th, uint16_t pool, bool, size_t,
                                uint32_t) const {
  return dt_threshold(c, th, pool);
}

uint64_t SonicPolicy::ingress_threshold(const Counters& c, uint32_t port, uint32_t prio) const {
  const auto& p = pg(port, prio);
  return threshold(c, p.th, p.pool, true, c.idx(port, prio), prio);
}

uint64_t SonicPolicy::egress_threshold(const Counters& c, uint32_t port, uint32_t q) const {
  const auto& p = queue(port, q);
  return threshold(c, p.th, p.pool, false, c.idx(port, q), q);
}

}  // namespace mmusim::admission
