// sih: static, independent headroom (the baseline of dsh-icdcs23): every lossless PG owns
// its xoff (eta) of headroom, never shared, whatever the pool's xoff says; thresholds DT.
#include "admission/policies/sonic.h"

namespace mmusim::admission {
namespace {

class SihPolicy : public SonicPolicy {
 public:
  explicit SihPolicy(const CoreConfig& cfg) : SonicPolicy(cfg) {
    m_dt_thresholds = true;
    m_plain = true;
    config_changed();
  }

  ThresholdForm threshold_form(bool ingress, uint32_t port, uint32_t prio) const override {
    return dt_form(ingress, port, prio);
  }

  void config_changed() override {
    m_headroom = 0;
    for (size_t i = 0; i < m_cfg.lossless.size(); ++i)
      if (m_cfg.lossless[i]) m_headroom += m_cfg.ingress_profiles[m_cfg.pg_profile[i]].xoff_cells;
  }

 protected:
  uint64_t headroom_capacity() const override { return m_headroom; }

 private:
  uint64_t m_headroom = 0;
};

}  // namespace

std::unique_ptr<Policy> make_sih(const CoreConfig& cfg) { return std::make_unique<SihPolicy>(cfg); }

}  // namespace mmusim::admission
