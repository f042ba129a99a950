#include "admission/policy.h"

namespace mmusim::admission {

std::unique_ptr<Policy> make_dt(const CoreConfig&);
std::unique_ptr<Policy> make_static(const CoreConfig&);
std::unique_ptr<Policy> make_sih(const CoreConfig&);
std::unique_ptr<Policy> make_abm(const CoreConfig&);
std::unique_ptr<Policy> make_reverie(const CoreConfig&);
std::unique_ptr<Policy> make_dsh(const CoreConfig&);

const std::vector<PolicyInfo>& policies() {
  static const std::vector<PolicyInfo> kAll = {
      {"dt", "SONiC buffer model with Dynamic Thresholds (reverie §2.2, Eq. 1)", make_dt},
      {"static", "fixed per-queue thresholds: alpha x pool size", make_static},
      {"sih", "static independent headroom per lossless PG (dsh baseline)", make_sih},
      {"abm", "ABM thresholds alpha/n_p x free x drain rate, SONiC model (reverie §4.1)", make_abm},
      {"reverie", "one shared pool, low-pass-filtered admission (reverie §3, Eq. 4-6)", make_reverie},
      {"dsh", "dynamic and shared headroom, queue- and port-level PFC (dsh §IV)", make_dsh},
  };
  return kAll;
}

std::unique_ptr<Policy> make_policy(const CoreConfig& cfg) {
  for (const auto& p : policies())
    if (cfg.policy == p.name) return p.make(cfg);
  throw std::invalid_argument("unknown admission policy '" + cfg.policy + "'");
}

}  // namespace mmusim::admission
