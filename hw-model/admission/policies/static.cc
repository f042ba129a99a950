// static: fixed per-queue thresholds, every vendor's baseline. A dynamic profile's limit
// is alpha times its pool's size (DT's threshold of an empty pool), independent of load.
#include "admission/policies/sonic.h"

namespace mmusim::admission {
namespace {

class StaticPolicy : public SonicPolicy {
 public:
  explicit StaticPolicy(const CoreConfig& cfg) : SonicPolicy(cfg) { m_plain = true; }

 protected:
  uint64_t threshold(const Counters&, const Threshold& th, uint16_t pool, bool, size_t, uint32_t) const override {
    return th.dynamic ? scale(m_cfg.pool_cells[pool], th.shift) : th.static_cells;
  }
};

}  // namespace

std::unique_ptr<Policy> make_static(const CoreConfig& cfg) { return std::make_unique<StaticPolicy>(cfg); }

}  // namespace mmusim::admission
