// dt: the SONiC model with Dynamic Thresholds (reverie-nsdi24 §2.2, Eq. 1).
#include "admission/policies/sonic.h"

namespace mmusim::admission {

std::unique_ptr<Policy> make_dt(const CoreConfig& cfg) { return std::make_unique<SonicPolicy>(cfg); }

}  // namespace mmusim::admission
