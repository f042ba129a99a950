// Every register write reaches every block of the golden core, as it reaches the RTL: after
// a write, the live core behaves exactly like a core BUILT with the new value and loaded
// with the same architectural state, over a random operation sequence, on every
// observable (verdicts, drop reasons, PFC events, counters, thresholds, q_hat, n_p, dsh
// port counters). Registers that may change under traffic are written under traffic; those
// that need an empty buffer are written after a drain. Seeds are fresh (MMUSIM_SEED
// replays) and printed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "../common/random_csr.h"
#include "admission/admission_core.h"
#include "admission/regfile.h"
#include "core_configs.h"

using namespace mmusim;
using namespace mmusim::admission;

namespace {

uint64_t test_seed() {
  static const uint64_t seed = [] {
    if (const char* e = std::getenv("MMUSIM_SEED")) return uint64_t(std::strtoull(e, nullptr, 0));
    return (uint64_t(std::random_device{}()) << 32) | std::random_device{}();
  }();
  return seed;
}

// 4 ports x 4 priorities, 4 pools, 4 profiles, 32-bit counters.
const RtlParams kP{4, 4, 4, 4, 32};

// Random traffic driven into two cores at once; stops at the first difference.
struct Twin {
  AdmissionCore& a;  // the live core
  AdmissionCore& b;  // the core built with the new value
  std::mt19937_64& rng;
  std::vector<Departure>& held;
  std::string diff;

  bool same_everywhere(const char* what) {
    const std::string d = first_difference(a.state(), b.state());
    if (!d.empty()) return fail(what, d);
    const CoreConfig& c = a.config();
    for (uint32_t port = 0; port < c.ports; ++port)
      for (uint32_t q = 0; q < c.prios; ++q) {
        if (a.ingress_threshold(port, q) != b.ingress_threshold(port, q))
          return fail(what, "ingress threshold " + std::to_string(port) + "/" + std::to_string(q) + ": " +
                                std::to_string(b.ingress_threshold(port, q)) + " built, " +
                                std::to_string(a.ingress_threshold(port, q)) + " live");
        if (a.egress_threshold(port, q) != b.egress_threshold(port, q))
          return fail(what, "egress threshold " + std::to_string(port) + "/" + std::to_string(q) + ": " +
                                std::to_string(b.egress_threshold(port, q)) + " built, " +
                                std::to_string(a.egress_threshold(port, q)) + " live");
        if (a.compared_ingress_cells(port, q) != b.compared_ingress_cells(port, q))
          return fail(what, "compared ingress cells (q_hat) " + std::to_string(port) + "/" + std::to_string(q));
      }
    return true;
  }
  bool fail(const char* what, const std::string& d) {
    diff = std::string(what) + ": " + d;
    return false;
  }

  bool step() {
    auto pick = [&](uint64_t lo, uint64_t hi) { return lo + rng() % (hi - lo + 1); };
    const CoreConfig& c = a.config();
    if (held.empty() || rng() % 5 < 3) {
      const Request r{uint32_t(pick(0, c.ports - 1)), rng() % 2 ? 0u : uint32_t(pick(0, c.ports - 1)),
                      uint8_t(pick(0, c.prios - 1)), uint32_t(pick(1, 8)), 0};
      const Result x = a.admit(r), y = b.admit(r);
      if (x.verdict != y.verdict || x.pfc != y.pfc || x.port_pfc != y.port_pfc || x.reason != y.reason)
        return fail("admit", std::string(to_string(y.verdict)) + "/" + to_string(y.pfc) + "/" + to_string(y.reason) +
                                 " built, " + to_string(x.verdict) + "/" + to_string(x.pfc) + "/" + to_string(x.reason) +
                                 " live");
      if (x.verdict != Verdict::kDrop) held.push_back({r.in_port, r.out_port, r.prio, r.cells, 0});
      return same_everywhere("after admit");
    }
    const size_t i = size_t(pick(0, held.size() - 1));
    const Departure d = held[i];
    held[i] = held.back();
    held.pop_back();
    const PfcUpdate x = a.depart(d), y = b.depart(d);
    if (x.pfc != y.pfc || x.port_pfc != y.port_pfc) return fail("depart", "PFC events differ");
    return same_everywhere("after depart");
  }
};

void drive(AdmissionCore& core, std::mt19937_64& rng, std::vector<Departure>& held, int ops) {
  for (int n = 0; n < ops; ++n) {
    if (held.empty() || rng() % 5 < 3) {
      const CoreConfig& c = core.config();
      const Request r{uint32_t(rng() % c.ports), rng() % 2 ? 0u : uint32_t(rng() % c.ports), uint8_t(rng() % c.prios),
                      uint32_t(1 + rng() % 8), 0};
      if (core.admit(r).verdict != Verdict::kDrop) held.push_back({r.in_port, r.out_port, r.prio, r.cells, 0});
    } else {
      const size_t i = rng() % held.size();
      core.depart(held[i]);
      held[i] = held.back();
      held.pop_back();
    }
  }
}

// One register, one policy: `rounds` random configurations, each with traffic, a write to
// the register (under traffic, or after a drain when `quiesced`), and 400 more operations
// on the live core and on a core built with the written configuration.
void check_register(uint32_t reg, const std::string& policy, bool quiesced, int rounds) {
  const uint64_t seed = test_seed() ^ (uint64_t(reg) << 40) ^ (uint64_t(quiesced) << 56) ^ std::hash<std::string>{}(policy);
  std::mt19937_64 rng(seed);
  int written = 0;
  for (int round = 0; round < rounds; ++round) {
    AdmissionCore a(testgen::random_config(rng, kP, 16, policy));
    std::vector<Departure> held;
    drive(a, rng, held, 300);
    if (quiesced) {
      for (const Departure& d : held) a.depart(d);
      held.clear();
    }
    const testgen::CsrWrite w = testgen::random_write(rng, a.config(), kP, quiesced, reg);
    CoreConfig next = a.config();
    write(next, w.addr, w.data, kP);
    write(a, w.addr, w.data, kP);
    written += decode(w.addr, kP).reg->addr == reg;
    ASSERT_EQ(encode(a.config(), kP), encode(next, kP)) << reg_name(w.addr, kP);
    AdmissionCore b(next);
    b.load_state(a.state());
    Twin t{a, b, rng, held, ""};
    ASSERT_TRUE(t.same_everywhere("right after the write")) << t.diff;
    for (int n = 0; n < 400; ++n)
      ASSERT_TRUE(t.step()) << reg_name(w.addr, kP) << " = " << w.data << " (" << policy << ", round " << round
                            << ", op " << n << ", seed " << seed << "): " << t.diff;
  }
  EXPECT_GT(written, 0) << "no legal value found for " << reg_name(reg, kP);
}

}  // namespace

class EveryWrite : public ::testing::TestWithParam<std::string> {};

// Registers the RTL takes under traffic: the live fields of every read-write register.
TEST_P(EveryWrite, UnderTrafficMatchesACoreBuiltWithTheNewValue) {
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)test_seed());
  namespace R = regs;
  for (uint32_t reg : {R::CTRL_ADDR, R::BUFFER_CELLS_ADDR, R::HDRM_POOL_CELLS_ADDR, R::DSH_PORT_XON_OFFSET_ADDR,
                       R::POOL_SIZE_ADDR, R::IPROF_MODE_ADDR, R::IPROF_STATIC_ADDR, R::IPROF_XOFF_ADDR, R::IPROF_XON_ADDR,
                       R::IPROF_XON_OFFSET_ADDR, R::EPROF_MODE_ADDR, R::EPROF_STATIC_ADDR}) {
    check_register(reg, GetParam(), false, 12);
    if (HasFatalFailure()) return;
  }
}

// Every read-write register, accounting fields included, written on an empty buffer.
TEST_P(EveryWrite, OnAnEmptyBufferMatchesACoreBuiltWithTheNewValue) {
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)test_seed());
  for (const auto& g : regs::kRegisters) {
    if (g.access != regs::Access::kRw) continue;
    check_register(g.addr, GetParam(), true, 12);
    if (HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, EveryWrite, ::testing::Values("dt", "reverie", "dsh"),
                         [](const auto& info) { return info.param; });

// ---------------------------------------------------------------- regressions (issue 12)

// CONGESTED_CELLS written on an empty buffer must reach reverie's n_p counter. Lossy queues
// of priority kLy on egress ports 0 and 1 take 50 cells each; the shared pool (600 cells,
// that of the lossless PG) then holds 100. Threshold 40: both congested, n_p = 2 and
// Gamma = (600 - 100) / 2 = 250. The core built with 80 had counted neither: 500.
TEST(LiveConfig, CongestedCellsWriteReachesReverieNp) {
  using namespace testcfg;
  CoreConfig c = small_config();
  c.policy = "reverie";
  c.congestion.cells = 80;
  AdmissionCore live(c);
  write(live, regs::CONGESTED_CELLS_ADDR, 40, params_for(c));
  c.congestion.cells = 40;
  AdmissionCore built(c);
  for (AdmissionCore* core : {&live, &built}) {
    for (uint32_t out = 0; out < 2; ++out)
      for (int i = 0; i < 50; ++i) ASSERT_EQ(core->admit({0, out, kLy, 1, 0}).verdict, Verdict::kAdmitShared);
    EXPECT_EQ(core->pool_used(0), 100u);
    EXPECT_EQ(core->state().n_p[kLy], 2u << 8);
    EXPECT_EQ(core->egress_threshold(0, kLy), 250u);
    EXPECT_EQ(core->egress_threshold(1, kLy), 250u);
  }
  EXPECT_EQ(first_difference(built.state(), live.state()), "");
}

// The same for abm, which counts n_p per side with the same rule: two lossy egress queues of
// 50 cells in the egress pool (2, 600 cells), threshold 40, n_p = 2: (600 - 100) / 2 = 250,
// times a full drain rate.
TEST(LiveConfig, CongestedCellsReachesAbmNp) {
  using namespace testcfg;
  CoreConfig c = small_config();
  c.policy = "abm";
  c.abm.port_cells_per_interval.assign(c.ports, 1000);
  c.congestion.cells = 80;
  AdmissionCore live(c);
  CoreConfig n = c;
  n.congestion.cells = 40;
  live.reconfigure(n);
  for (uint32_t out = 0; out < 2; ++out)
    for (int i = 0; i < 50; ++i) ASSERT_EQ(live.admit({0, out, kLy, 1, 0}).verdict, Verdict::kAdmitShared);
  EXPECT_EQ(live.egress_threshold(0, kLy), 250u);
}

// CTRL.ewma_k written under traffic (same policy) must reach reverie's filter. Enqueue and
// dequeue rule, k 10 at build; after 10 cells the write sets k 0, so every arrival sets
// q_hat to the queue length it sees: the arrival after 150 cells gives q_hat = 150 cells,
// as in a core built with k 0. (With k 10 left in the filter it would be a few cells.)
TEST(LiveConfig, CtrlEwmaKWriteReachesTheFilter) {
  using namespace testcfg;
  CoreConfig c = small_config();
  c.policy = "reverie";
  c.ewma.rule = EwmaConfig::Rule::kEnqueueDequeue;
  c.ewma.k = 10;
  const RtlParams p = params_for(c);
  AdmissionCore live(c);
  for (int i = 0; i < 10; ++i) ASSERT_EQ(live.admit({0, 1, kLl, 1, 0}).verdict, Verdict::kAdmitShared);
  const uint32_t ctrl = read(live.config(), regs::CTRL_ADDR, p) & ~regs::CTRL_EWMA_K_MASK;
  write(live, regs::CTRL_ADDR, ctrl, p);  // k = 0, policy unchanged: legal under traffic
  c.ewma.k = 0;
  AdmissionCore built(c);
  built.load_state(live.state());
  for (AdmissionCore* core : {&live, &built}) {
    for (int i = 10; i < 150; ++i) ASSERT_EQ(core->admit({0, 1, kLl, 1, 0}).verdict, Verdict::kAdmitShared);
    core->admit({0, 1, kLl, 1, 0});
    EXPECT_EQ(core->compared_ingress_cells(0, kLl), 150u);
    EXPECT_EQ(core->state().avg_in[0 * 8 + kLl], 150u << 16);
  }
  EXPECT_EQ(first_difference(built.state(), live.state()), "");
}

// reconfigure refuses what the RTL fixes at elaboration.
TEST(LiveConfig, ReconfigureRefusesElaborationParameters) {
  CoreConfig c = testcfg::small_config();
  c.policy = "reverie";
  AdmissionCore core(c);
  CoreConfig n = c;
  n.ewma.frac_bits = 8;
  EXPECT_THROW(core.reconfigure(n), std::invalid_argument);
  n = c;
  n.counter_bits = 16;
  EXPECT_THROW(core.reconfigure(n), std::invalid_argument);
  EXPECT_EQ(core.config().ewma.frac_bits, c.ewma.frac_bits);
}
