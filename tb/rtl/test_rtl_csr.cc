// The generated register block (rtl/mmu_adm_csr.sv) against the generated C++ field table
// (admission/regfile.cc), both from rtl/regmap.json: random writes to every read-write
// register, each field at its boundaries (0, 1, the largest value it holds, around its
// min/max, around the parameter it indexes, every enum value and the first undefined one)
// or at random, fully random words, and rewrites of the current value, on busy and empty
// buffers. The unit and the core must accept and refuse the same writes (legality and the
// quiesce rule), keep the same state, and read back the same word. A write the map
// allows but the core's configuration check refuses (consistency across registers,
// software's to keep) is not sent. Seed fresh, MMUSIM_SEED replays; printed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "Vmmu_mid.h"
#include "Vmmu_mid___024root.h"
#include "Vmmu_small.h"
#include "Vmmu_small___024root.h"
#include "../common/random_csr.h"
#include "admission/regfile_fields.h"
#include "cosim/lockstep.h"
#include "rtl_test_configs.h"

using namespace mmusim;
using namespace mmusim::rtl;
using namespace mmusim::rtl::testcfg;
namespace R = admission::regs;

namespace {

uint64_t test_seed() {
  static const uint64_t seed = [] {
    if (const char* e = std::getenv("MMUSIM_SEED")) return uint64_t(std::strtoull(e, nullptr, 0));
    return (uint64_t(std::random_device{}()) << 32) | std::random_device{}();
  }();
  return seed;
}

uint32_t entries(const R::RegInfo& g, const admission::RtlParams& p) {
  if (g.count == 0) return 1;
  uint32_t n = 1;
  if (g.count & R::COUNT_NPORTS) n *= p.nports;
  if (g.count & R::COUNT_NPRIO) n *= p.nprio;
  if (g.count & R::COUNT_NPOOLS) n *= p.npools;
  if (g.count & R::COUNT_NPROF) n *= p.nprof;
  return n;
}

// A value for field f: a boundary of what it holds or allows, or random.
int64_t pick_value(std::mt19937_64& rng, const R::FieldInfo& f, const admission::RtlParams& p) {
  const uint32_t w = f.held == R::Param::kNone ? f.width : std::min<uint32_t>(f.width, R::param_value(p, f.held));
  const int64_t top = int64_t((uint64_t(1) << w) - 1);
  std::vector<int64_t> c = {0, 1, top, top - 1, int64_t(rng() & uint64_t(top))};
  if (f.has_min) c.insert(c.end(), {f.min - 1, f.min, f.min + 1});
  if (f.has_max) c.insert(c.end(), {f.max - 1, f.max, f.max + 1});
  if (f.index_of != R::Param::kNone) {
    const int64_t n = R::param_value(p, f.index_of);
    c.insert(c.end(), {n - 1, n, n + 1});
  }
  for (uint32_t i = 0; i < f.n_enum; ++i) c.push_back(f.enum_values[i]);
  if (f.n_enum) c.push_back(f.n_enum);
  return c[rng() % c.size()];
}

template <class M>
void run(const UnitParams& up, const char* name, int rounds) {
  const uint64_t seed = test_seed() ^ std::hash<std::string>{}(name);
  std::mt19937_64 rng(seed);
  int sent = 0, refused = 0, quiesced = 0, same = 0;
  for (int round = 0; round < rounds; ++round) {
    const admission::RtlParams p{up.nports, up.nprio, up.npools, up.nprof, up.cw};
    const char* pols[] = {"dt", "reverie", "dsh"};
    Lockstep<M> ls(testgen::random_config(rng, p, uint8_t(up.ewma_frac), pols[rng() % 3]), up);
    std::vector<admission::Departure> held;
    for (int step = 0; step < 300; ++step) {
      // Traffic, so that quiesce fields meet a busy buffer; now and then a drain.
      for (int i = int(rng() % 4); i > 0; --i) {
        const auto& c = ls.core().config();
        const admission::Request r{uint32_t(rng() % c.ports), uint32_t(rng() % c.ports), uint8_t(rng() % c.prios),
                                   uint32_t(1 + rng() % 6), 0};
        if (ls.admit(r).verdict != admission::Verdict::kDrop) held.push_back({r.in_port, r.out_port, r.prio, r.cells, 0});
      }
      if (rng() % 8 == 0) {
        for (const auto& d : held) ls.depart(d);
        held.clear();
      }
      // A register, an entry, a word.
      const R::RegInfo* g;
      do g = &R::kRegisters[rng() % std::size(R::kRegisters)];
      while (g->access != R::Access::kRw);
      const uint32_t addr = g->addr + uint32_t(rng() % entries(*g, p)) * g->stride;
      const uint32_t now = admission::read(ls.core().config(), addr, p);
      uint32_t data = now;
      const int kind = int(rng() % 4);
      if (kind == 0) {
        data = uint32_t(rng());
      } else if (kind < 3) {
        const R::FieldInfo& f = R::kFields[g->first_field + rng() % g->n_fields];
        const uint32_t mask = uint32_t(((uint64_t(1) << f.width) - 1) << f.lsb);
        data = (data & ~mask) | (uint32_t(uint64_t(pick_value(rng, f, p)) << f.lsb) & mask);
      }
      // Map-legal writes the core's configuration check refuses are software's error.
      admission::CoreConfig next = ls.core().config();
      bool legal = true;
      try {
        admission::write(next, addr, data, p);
      } catch (const std::invalid_argument&) {
        legal = false;
      }
      if (legal && !testgen::core_accepts(ls.core().config(), {addr, data}, p)) continue;
      const bool busy = ls.core().total_used() != 0;
      const bool ok = ls.csr_write(addr, data);
      ASSERT_FALSE(ls.mismatch().any) << ls.mismatch().report << " (" << name << ", seed " << seed << ", "
                                      << admission::reg_name(addr, p) << " = 0x" << std::hex << data << ")";
      ++sent;
      refused += !ok;
      quiesced += legal && !ok && busy;
      same += ok && busy && data == now && admission::quiesce_mask(addr) != 0;
      if (!legal) {
        EXPECT_FALSE(ok) << admission::reg_name(addr, p);  // the map refuses it
      } else if (!busy) {
        EXPECT_TRUE(ok) << admission::reg_name(addr, p);  // nothing to quiesce
      }
      ASSERT_EQ(ls.csr_read(addr), admission::read(ls.core(), addr, p))
          << admission::reg_name(addr, p) << " (" << name << ", seed " << seed << ")";
    }
    for (const auto& d : held) ls.depart(d);
    ASSERT_FALSE(ls.mismatch().any) << ls.mismatch().report;
  }
  std::printf("%s: %d CSR writes, %d refused (%d by the quiesce rule), %d rewrites of a quiesce register's "
              "value under traffic accepted\n",
              name, sent, refused, quiesced, same);
  EXPECT_GT(refused, sent / 20);
  EXPECT_GT(quiesced, 0);
  EXPECT_GT(same, 0);
}

}  // namespace

TEST(RegisterBlock, RandomFieldValuesAgreeWithTheFieldTable) {
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)test_seed());
  run<Vmmu_small>(kSmall, "small", 12);
  if (HasFatalFailure()) return;
  run<Vmmu_mid>(kMid, "mid", 12);
}
