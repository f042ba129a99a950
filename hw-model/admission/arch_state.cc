#include "admission/arch_state.h"

namespace mmusim::admission {

namespace {

template <class V>
bool differ(const char* name, const std::vector<V>& a, const std::vector<V>& b, std::string& out) {
  if (a.size() != b.size()) {
    out = std::string(name) + ": expected " + std::to_string(a.size()) + " entries, got " + std::to_string(b.size());
    return true;
  }
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) {
      out = std::string(name) + "[" + std::to_string(i) + "]: expected " + std::to_string(uint64_t(a[i])) +
            ", got " + std::to_string(uint64_t(b[i]));
      return true;
    }
  return false;
}

}  // namespace

std::string first_difference(const ArchState& a, const ArchState& b) {
  std::string d;
  if (differ("ingress", a.ing, b.ing, d) || differ("headroom", a.hdrm, b.hdrm, d) ||
      differ("egress", a.egr, b.egr, d) || differ("paused", a.paused, b.paused, d) ||
      differ("port paused", a.port_paused, b.port_paused, d) || differ("pool", a.pool_used, b.pool_used, d) ||
      differ("headroom pool", std::vector<uint64_t>{a.hdrm_pool_used}, std::vector<uint64_t>{b.hdrm_pool_used}, d) ||
      differ("total", std::vector<uint64_t>{a.total}, std::vector<uint64_t>{b.total}, d) ||
      differ("q_hat ingress", a.avg_in, b.avg_in, d) || differ("q_hat egress", a.avg_eg, b.avg_eg, d) ||
      differ("n_p", a.n_p, b.n_p, d) || differ("dsh port shared", a.port_shared, b.port_shared, d) ||
      differ("dsh port insurance", a.port_ins, b.port_ins, d) || differ("abm sent ingress", a.abm_cur_in, b.abm_cur_in, d) ||
      differ("abm last ingress", a.abm_last_in, b.abm_last_in, d) || differ("abm tag ingress", a.abm_tag_in, b.abm_tag_in, d) ||
      differ("abm sent egress", a.abm_cur_eg, b.abm_cur_eg, d) || differ("abm last egress", a.abm_last_eg, b.abm_last_eg, d) ||
      differ("abm tag egress", a.abm_tag_eg, b.abm_tag_eg, d) || differ("abm n_p ingress", a.abm_n_in, b.abm_n_in, d) ||
      differ("abm n_p egress", a.abm_n_eg, b.abm_n_eg, d))
    return d;
  return "";
}

}  // namespace mmusim::admission
