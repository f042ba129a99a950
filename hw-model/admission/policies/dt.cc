// dt: the SONiC model with Dynamic Thresholds (reverie-nsdi24 §2.2, Eq. 1).
#include "admission/policies/sonic.h"

namespace mmusim::admission {
namespace {

class DtPolicy final : public SonicPolicy {
 public:
  explicit DtPolicy(const CoreConfig& cfg) : SonicPolicy(cfg) {
    m_dt_thresholds = true;
    m_plain = true;
  }
  ThresholdForm threshold_form(bool ingress, uint32_t port, uint32_t prio) const override {
    return dt_form(ingress, port, prio);
  }
};

}  // namespace

std::unique_ptr<Policy> make_dt(const CoreConfig& cfg) { return std::make_unique<DtPolicy>(cfg); }

}  // namespace mmusim::admission
