// Directed cases for the coverage build only (rtl_coverage_tests, ctest rtl_line_coverage):
// behaviour of rtl/ the lockstep suite (test_rtl_lockstep.cc, compiled into the same
// binary) does not reach: CSR reads, the reverie filter clamp, buffer drops under reverie
// and dsh, the dsh port threshold saturating at the counter width, and release underflow
// (with PIPE 3 also beside a request on the released queue).
// All but the underflow case run in lockstep with the golden core; the underflow case
// drives the unit alone (the core refuses such a release: CounterError).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "Vmmu_big.h"
#include "Vmmu_mid.h"
#include "Vmmu_p3mid.h"
#include "Vmmu_small.h"
#include "admission/regfile.h"
#include "admission/regs.h"
#include "cosim/lockstep.h"
#include "rtl_test_configs.h"

using namespace mmusim;
using namespace mmusim::rtl;
using admission::DropReason;
using admission::PfcEvent;
using admission::Verdict;
using namespace mmusim::rtl::testcfg;

namespace {


template <class M>
void expect_clean(const Lockstep<M>& ls) {
  EXPECT_FALSE(ls.mismatch().any) << ls.mismatch().report;
}

// Every readable register of the unit reads what the register file computes from the core.
template <class M>
void expect_registers_match(Lockstep<M>& ls, const admission::CsrStats& stats) {
  const admission::RtlParams rp = ls.rtl_params();
  const uint32_t end = admission::regs::QMAP_ADDR + rp.nports * rp.nprio;
  uint32_t checked = 0;
  for (uint32_t addr = 0; addr < end; ++addr) {
    try {
      admission::decode(addr, rp);
    } catch (const admission::CsrAddressError&) {
      continue;  // no register here
    }
    const uint32_t want = admission::read(ls.core(), addr, rp, stats);
    const uint32_t got = ls.csr_read(addr);
    EXPECT_EQ(got, want) << admission::reg_name(addr, rp);
    ++checked;
  }
  EXPECT_GT(checked, 64u);
}

TEST(Coverage, EveryRegisterReadsBackAsTheRegisterFileSays) {
  Lockstep<Vmmu_mid> ls(directed_config(kMid, "dt"), kMid);
  admission::CsrStats stats;
  expect_registers_match(ls, stats);  // right after programming
  // Lossless traffic to its headroom limit and beyond, lossy traffic to another port.
  for (int i = 0; i < 360; ++i) {
    const auto r = ls.admit({0, 1, kLl, 1, 0});
    ++stats.decisions;
    stats.drops += r.verdict == Verdict::kDrop;
  }
  for (int i = 0; i < 40; ++i) {
    const auto r = ls.admit({2, 3, kLy, 3, 0});
    ++stats.decisions;
    stats.drops += r.verdict == Verdict::kDrop;
  }
  // Back to back the threshold calculator misses the previous admission (docs/rtl.md): 301
  // shared + 50 headroom, then 9 headroom drops.
  EXPECT_EQ(stats.drops, 9u);
  expect_registers_match(ls, stats);
  EXPECT_EQ(ls.csr_read(admission::regs::STAT_TOTAL_ADDR), 351u + 120u);
  EXPECT_EQ(ls.csr_read(admission::regs::STAT_HDRM_POOL_ADDR), 50u);
  EXPECT_EQ(ls.csr_read(admission::regs::STAT_DECISIONS_ADDR), 400u);
  EXPECT_EQ(ls.csr_read(admission::regs::STAT_DROPS_ADDR), 9u);
  expect_clean(ls);
}

TEST(Coverage, ReverieFilterIsClampedToTheQueueOnDrain) {
  // gamma = 1 - 2^-3: the filter lags the queue by several cells; draining the queue
  // leaves it above q, where ewma_clamp pulls it down to q.
  for (const auto rule : {admission::EwmaConfig::Rule::kEnqueueDequeue, admission::EwmaConfig::Rule::kDequeue}) {
    admission::CoreConfig c = directed_config(kMid, "reverie");
    c.ewma.k = 3;
    c.ewma.clamp = true;
    c.ewma.rule = rule;
    Lockstep<Vmmu_mid> ls(c, kMid);
    for (int round = 0; round < 2; ++round) {
      for (int i = 0; i < 250; ++i) ls.admit({0, 1, kLl, 1, 0});
      for (int i = 0; i < 60; ++i) ls.admit({2, 3, kLy, 2, 0});
      for (int i = 0; i < 200; ++i) ls.depart({0, 1, kLl, 1, 0});
      for (int i = 0; i < 50; ++i) ls.depart({2, 3, kLy, 2, 0});
    }
    expect_clean(ls);
  }
}

TEST(Coverage, BufferDropsUnderEveryPolicy) {
  // The ingress pool as large as the buffer: once it is full the lossless queue pauses and
  // goes to headroom, which has room, but the buffer has none -> the buffer check drops.
  // The egress queue keeps 100 reserved cells so its pool does not fill first (dt, dsh).
  for (const std::string pol : {"dt", "reverie", "dsh"}) {
    admission::CoreConfig c = directed_config(kMid, pol);
    c.buffer_cells = 600;
    c.pool_cells = {600, 600, 600};
    c.ingress_profiles[0].th = {true, 15, 0};  // alpha 2^15: the pool binds, not alpha
    c.egress_profiles[0].reserved_cells = 100;
    Lockstep<Vmmu_mid> ls(c, kMid);
    admission::Result r;
    uint32_t admitted = 0;
    for (int i = 0; i < 700; ++i) {
      r = ls.admit({0, 1, kLl, 1, 0});
      if (r.verdict == Verdict::kDrop) break;
      ++admitted;
    }
    EXPECT_EQ(r.verdict, Verdict::kDrop) << pol;
    EXPECT_EQ(r.reason, DropReason::kBuffer) << pol;
    EXPECT_EQ(admitted, 600u) << pol;
    EXPECT_EQ(ls.unit().total(), 600u) << pol;
    while (ls.core().total_used()) ls.depart({0, 1, kLl, 1, 0});
    expect_clean(ls);
  }
}

TEST(Coverage, DshPortThresholdSaturatesAtTheCounterWidth) {
  // 16-bit unit, alpha 2^15 and two lossless priorities per port: N_q x T exceeds 65535
  // and saturates (on admission and on release).
  admission::CoreConfig c = directed_config(kSmall, "dsh");
  c.ingress_profiles[0].th = {true, 15, 0};
  for (uint32_t port = 0; port < kSmall.nports; ++port) {
    c.pg_profile[port * kSmall.nprio + 2] = 0;
    c.queue_profile[port * kSmall.nprio + 2] = 0;
    c.lossless[port * kSmall.nprio + 2] = 1;
  }
  Lockstep<Vmmu_small> ls(c, kSmall);
  for (int i = 0; i < 650; ++i) ls.admit({uint32_t(i % 2), 1, uint8_t(2 + i % 2), 1, 0});
  while (ls.core().total_used()) {
    for (uint32_t in = 0; in < 2; ++in)
      for (uint8_t prio = 2; prio <= 3; ++prio)
        if (ls.core().ingress_cells(in, prio) + ls.core().headroom_cells(in, prio)) ls.depart({in, 1, prio, 1, 0});
  }
  expect_clean(ls);
}

// The unit alone, on its own VerilatedContext (not fatal on error), for what the golden
// core refuses: a release of more cells than the queue holds.
template <class Model>
class BareUnit {
 public:
  BareUnit(const admission::CoreConfig& cfg, const UnitParams& p) : m_ctx(std::make_unique<VerilatedContext>()) {
    m_ctx->fatalOnError(false);  // the invariant assertion is expected to fire
    m_m = std::make_unique<Model>(m_ctx.get(), "dut");
    m_m->cfg_valid_i = 0;
    m_m->req_valid_i = 0;
    m_m->rel_valid_i = 0;
    reset();
    const admission::RtlParams rp{p.nports, p.nprio, p.npools, p.nprof, p.cw};
    for (const auto& [a, d] : admission::encode(cfg, rp)) {
      m_m->cfg_valid_i = 1;
      m_m->cfg_write_i = 1;
      m_m->cfg_addr_i = a;
      m_m->cfg_wdata_i = d;
      tick();
      EXPECT_FALSE(m_m->cfg_error_o) << "write 0x" << std::hex << a;
    }
    m_m->cfg_valid_i = 0;
    m_m->cfg_write_i = 0;
  }
  ~BareUnit() { m_m->final(); }  // (the coverage hook writes this unit's counters here)

  void reset() {
    m_m->rst_ni = 0;
    m_m->clk_i = 0;
    m_m->eval();
    tick();
    m_m->rst_ni = 1;
    m_m->eval();
  }
  uint8_t admit(uint32_t in, uint32_t out, uint8_t prio, uint32_t cells) {
    m_m->req_valid_i = 1;
    m_m->req_in_port_i = in;
    m_m->req_out_port_i = out;
    m_m->req_prio_i = prio;
    m_m->req_queue_i = prio;
    m_m->req_cells_i = cells;
    tick();
    m_m->req_valid_i = 0;
    m_m->eval();
    return m_m->rsp_verdict_o;
  }
  void release(uint32_t in, uint32_t out, uint8_t prio, uint32_t cells) {
    m_m->rel_valid_i = 1;
    m_m->rel_in_port_i = in;
    m_m->rel_out_port_i = out;
    m_m->rel_prio_i = prio;
    m_m->rel_queue_i = prio;
    m_m->rel_cells_i = cells;
    tick();
    m_m->rel_valid_i = 0;
    m_m->eval();
  }
  // A release and a request in one cycle (dual issue).
  void release_and_admit(uint32_t in, uint8_t prio, uint32_t rel_cells, uint32_t req_cells) {
    m_m->rel_valid_i = 1;
    m_m->rel_in_port_i = in;
    m_m->rel_out_port_i = in + 1;
    m_m->rel_prio_i = prio;
    m_m->rel_queue_i = prio;
    m_m->rel_cells_i = rel_cells;
    admit(in, in + 1, prio, req_cells);
    m_m->rel_valid_i = 0;
    m_m->eval();
  }
  void idle(int cycles) {
    for (int i = 0; i < cycles; ++i) tick();
    m_m->eval();
  }
  // One CSR access; returns cfg_error_o (and the read data through `data`).
  bool access(bool write, uint32_t addr, uint32_t wdata, uint32_t* data = nullptr) {
    m_m->cfg_valid_i = 1;
    m_m->cfg_write_i = write;
    m_m->cfg_addr_i = addr;
    m_m->cfg_wdata_i = wdata;
    tick();
    m_m->cfg_valid_i = 0;
    m_m->cfg_write_i = 0;
    m_m->eval();
    if (data) *data = m_m->cfg_rdata_o;
    return m_m->cfg_error_o;
  }
  Model& m() { return *m_m; }
  VerilatedContext& ctx() { return *m_ctx; }

 private:
  void tick() {
    m_m->clk_i = 1;
    m_ctx->timeInc(1);
    m_m->eval();
    m_m->clk_i = 0;
    m_ctx->timeInc(1);
    m_m->eval();
  }
  std::unique_ptr<VerilatedContext> m_ctx;
  std::unique_ptr<Model> m_m;
};

template <class Model>
void underflow_case(const UnitParams& p) {
  for (const std::string pol : {"dt", "reverie", "dsh"}) {
    BareUnit<Model> u(directed_config(p, pol), p);
    EXPECT_FALSE(u.m().stat_underflow_o) << pol;
    EXPECT_EQ(u.admit(0, 1, kLl, 2), 0u) << pol;  // shared
    EXPECT_EQ(u.m().stat_total_o, 2u) << pol;
    u.release(0, 1, kLl, 3);  // one more than the queue holds
    EXPECT_TRUE(u.m().stat_underflow_o) << pol;
    EXPECT_TRUE(u.m().rel_rsp_valid_o) << pol;
    EXPECT_EQ(u.m().rel_rsp_pfc_o, 0u) << pol;
    EXPECT_EQ(u.m().stat_total_o, 2u) << pol;  // refused: nothing changed
    EXPECT_TRUE(u.ctx().gotError()) << pol << ": the MMU_ASSERT invariant did not fire";
    u.ctx().gotError(false);
    u.ctx().gotFinish(false);
    u.release(0, 1, kLl, 2);  // a legal release: the flag stays set
    EXPECT_EQ(u.m().stat_total_o, 0u) << pol;
    EXPECT_TRUE(u.m().stat_underflow_o) << pol;
    EXPECT_FALSE(u.ctx().gotError()) << pol;
    u.release(2, 3, kLy, 1);  // lossy, empty queue
    EXPECT_TRUE(u.ctx().gotError()) << pol;
    u.ctx().gotError(false);
    u.ctx().gotFinish(false);
    u.reset();  // reset clears it
    EXPECT_FALSE(u.m().stat_underflow_o) << pol;
  }
}

TEST(Coverage, ReleaseUnderflowIsStickyAndChangesNothing) {
  underflow_case<Vmmu_small>(kSmall);
  underflow_case<Vmmu_mid>(kMid);
  underflow_case<Vmmu_big>(kBig);
}

// PIPE 3: every release writes its queues (the underflow compares, late, drive no write
// enable), an underflowing one what it leaves: its view with the same-cycle request's
// charge. The request on the released queue stays counted, in the total and in the queue:
// a release of all of it afterwards does not underflow.
TEST(Coverage, Pipe3UnderflowBesideARequestOnItsQueueKeepsTheRequest) {
  for (const std::string pol : {"dt", "static", "sih", "dsh"}) {
    BareUnit<Vmmu_p3mid> u(directed_config(kPipe3Mid, pol), kPipe3Mid);
    u.admit(0, 1, kLl, 2);
    u.idle(4);
    EXPECT_EQ(u.m().stat_total_o, 2u) << pol;
    EXPECT_FALSE(u.ctx().gotError()) << pol;
    // The request is decided first: the release finds 7 cells and takes 8.
    u.release_and_admit(0, kLl, 8, 5);
    u.idle(4);
    EXPECT_TRUE(u.m().stat_underflow_o) << pol;
    EXPECT_TRUE(u.ctx().gotError()) << pol << ": the MMU_ASSERT invariant did not fire";
    u.ctx().gotError(false);
    u.ctx().gotFinish(false);
    EXPECT_EQ(u.m().stat_total_o, 7u) << pol;
    u.release(0, 1, kLl, 7);
    u.idle(4);
    EXPECT_EQ(u.m().stat_total_o, 0u) << pol;
    EXPECT_FALSE(u.ctx().gotError()) << pol << ": the queue lost the request's cells";
  }
}

TEST(Coverage, UnmappedAndReadOnlyAccessesAreErrors) {
  BareUnit<Vmmu_small> u(directed_config(kSmall, "dt"), kSmall);
  namespace R = admission::regs;
  const uint32_t qmap_end = R::QMAP_ADDR + kSmall.nports * kSmall.nprio;
  uint32_t data = 0;
  // Holes in the map and addresses past the arrays: error, read data 0.
  for (const uint32_t a : {0x003u, 0x009u, 0x00fu, R::POOL_SIZE_ADDR + kSmall.npools, 0x046u, 0x047u,
                           R::IPROF_MODE_ADDR + kSmall.nprof * R::IPROF_STRIDE, 0x0c3u,
                           R::EPROF_MODE_ADDR + kSmall.nprof * R::EPROF_STRIDE, 0x102u,
                           R::STAT_POOL_USED_ADDR + kSmall.npools, 0x122u, 0x1ffu, qmap_end, 0xfffu}) {
    EXPECT_TRUE(u.access(false, a, 0, &data)) << "read 0x" << std::hex << a;
    EXPECT_EQ(data, 0u) << "read 0x" << std::hex << a;
    EXPECT_TRUE(u.access(true, a, 0x1234)) << "write 0x" << std::hex << a;
  }
  // Read-only registers refuse writes and keep their value.
  for (const uint32_t a : {R::ID_ADDR, R::PARAMS_ADDR, R::STAT_TOTAL_ADDR, R::STAT_HDRM_POOL_ADDR,
                           R::STAT_POOL_USED_ADDR, R::STAT_DECISIONS_ADDR, R::STAT_DROPS_ADDR}) {
    uint32_t before = 0;
    EXPECT_FALSE(u.access(false, a, 0, &before)) << "read 0x" << std::hex << a;
    EXPECT_TRUE(u.access(true, a, ~before)) << "write 0x" << std::hex << a;
    EXPECT_FALSE(u.access(false, a, 0, &data));
    EXPECT_EQ(data, before) << "0x" << std::hex << a;
  }
  EXPECT_FALSE(u.access(false, R::ID_ADDR, 0, &data));
  EXPECT_EQ(data, 0x4d4d5541u);
  EXPECT_FALSE(u.access(false, qmap_end - 1, 0, &data));  // the last queue: mapped
}

}  // namespace
