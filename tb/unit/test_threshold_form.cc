// A threshold's form (admission/threshold_form.h), what the MMU's threshold statistics
// evaluate, against the policy's own threshold: dt and sih, timed and zero-latency, alpha
// below and above 1 with narrow counters (the saturation), over random operations and a
// CSR write of alpha and of the pools' sizes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "admission/admission_core.h"
#include "core_configs.h"

using namespace mmusim::admission;
using namespace mmusim::admission::testcfg;

namespace {

uint64_t test_seed() {
  if (const char* e = std::getenv("MMUSIM_SEED")) return std::strtoull(e, nullptr, 0);
  return (uint64_t(std::random_device{}()) << 32) | std::random_device{}();
}

// Every queue's ingress and egress form evaluates to the policy's threshold.
void expect_forms(const AdmissionCore& core, const std::string& at) {
  const CoreConfig& c = core.config();
  for (uint32_t p = 0; p < c.ports; ++p)
    for (uint32_t q = 0; q < c.prios; ++q) {
      const ThresholdForm in = core.threshold_form(true, p, q), eg = core.threshold_form(false, p, q);
      ASSERT_NE(in.kind, ThresholdForm::Kind::kPolicy) << at;
      ASSERT_NE(eg.kind, ThresholdForm::Kind::kPolicy) << at;
      ASSERT_EQ(in.eval(core.threshold_pools_used()), core.ingress_threshold(p, q)) << at << " ingress " << p << "," << q;
      ASSERT_EQ(eg.eval(core.threshold_pools_used()), core.egress_threshold(p, q)) << at << " egress " << p << "," << q;
    }
}

}  // namespace

TEST(ThresholdForm, EvaluatesToThePolicysThresholdUnderDtAndSih) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (const char* policy : {"dt", "sih"})
    for (const bool timed : {false, true})
      for (const int8_t shift : {int8_t(-2), int8_t(0), int8_t(3)}) {
        // 10-bit counters: alpha 8 times the 600-cell pool saturates at 1023.
        CoreConfig c = small_config(shift);
        c.policy = policy;
        c.counter_bits = 10;
        c.egress_profiles[1].th.shift = int8_t(-shift);
        c.thresholds.zero_latency = !timed;
        c.thresholds.period_cycles = 3;
        AdmissionCore core(c);
        const std::string name = std::string(policy) + (timed ? " timed" : " zero latency") + " shift " +
                                 std::to_string(shift) + " seed " + std::to_string(seed);
        expect_forms(core, name + " empty");
        std::vector<Departure> held;
        uint64_t cycle = 0;
        for (int n = 0; n < 600; ++n) {
          cycle += rng() % 3;
          if (n == 300) {  // a CSR write: alpha of the lossless PG and of the lossy queue, and
                           // pools resized under what they may hold (no space left then)
            CoreConfig w = core.config();
            w.ingress_profiles[0].th.shift = int8_t(w.ingress_profiles[0].th.shift + 1);
            w.egress_profiles[1].th.shift = int8_t(w.egress_profiles[1].th.shift - 1);
            w.pool_cells = {40, 1000, 40};
            core.reconfigure(w);
            expect_forms(core, name + " after the write");
          }
          if (!held.empty() && rng() % 5 < 2) {
            const size_t i = size_t(rng() % held.size());
            Departure d = held[i];
            held[i] = held.back();
            held.pop_back();
            d.cycle = cycle;
            core.depart(d);
          } else {
            const Request r{uint32_t(rng() % 2), uint32_t(rng() % 2), uint8_t(rng() % 2 ? kLl : kLy),
                            uint32_t(1 + rng() % 40), cycle};
            if (core.admit(r).verdict != Verdict::kDrop) held.push_back({r.in_port, r.out_port, r.prio, r.cells, cycle});
          }
          expect_forms(core, name + " op " + std::to_string(n));
        }
      }
}
