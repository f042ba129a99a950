// CSR view of the admission core (admission/regfile.h) against rtl/regmap.json: encode ->
// write round trips, field packing against hand-packed words, what the map cannot hold,
// and the quiesce rule. Expected words are packed by hand in the comments.
#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>

#include "admission/admission_core.h"
#include "admission/regfile.h"
#include "admission/regs.h"
#include "config/scenario.h"

namespace mmusim::admission {
namespace {

namespace R = regs;

// Every field of a configuration, one per line, so a mismatch shows as a readable diff.
std::string dump(const CoreConfig& c) {
  std::ostringstream s;
  s << "ports " << c.ports << " prios " << c.prios << " counter_bits " << c.counter_bits << "\n"
    << "buffer " << c.buffer_cells << " hdrm " << c.headroom_pool_cells << "\n";
  for (size_t i = 0; i < c.pool_cells.size(); ++i) s << "pool[" << i << "] " << c.pool_cells[i] << "\n";
  for (size_t i = 0; i < c.ingress_profiles.size(); ++i) {
    const auto& p = c.ingress_profiles[i];
    s << "iprof[" << i << "] pool " << p.pool << " reserved " << p.reserved_cells << " dyn " << p.th.dynamic
      << " shift " << int(p.th.shift) << " static " << p.th.static_cells << " xoff " << p.xoff_cells << " xon "
      << p.xon_cells << " xon_offset " << p.xon_offset_cells << "\n";
  }
  for (size_t i = 0; i < c.egress_profiles.size(); ++i) {
    const auto& p = c.egress_profiles[i];
    s << "eprof[" << i << "] pool " << p.pool << " reserved " << p.reserved_cells << " dyn " << p.th.dynamic
      << " shift " << int(p.th.shift) << " static " << p.th.static_cells << "\n";
  }
  for (size_t q = 0; q < c.pg_profile.size(); ++q)
    s << "q[" << q << "] pg " << c.pg_profile[q] << " queue " << c.queue_profile.at(q) << " lossless "
      << int(c.lossless.at(q)) << "\n";
  s << "policy " << c.policy << " congestion " << int(c.congestion.kind) << "/" << c.congestion.cells << "\n"
    << "ewma rule " << int(c.ewma.rule) << " k " << int(c.ewma.k) << " frac " << int(c.ewma.frac_bits)
    << " period " << c.ewma.period_cycles << " clamp " << c.ewma.clamp << "\n"
    << "abm " << int(c.abm.interval_log2) << " x" << c.abm.port_cells_per_interval.size() << "\n"
    << "dsh " << c.dsh.port_xon_offset_cells << "\n";
  return s.str();
}

CoreConfig default_core(const std::string& policy) {
  CoreConfig c = load_scenario(default_scenario_json(), "d").core_config();
  c.policy = policy;
  return c;
}

// Runs f, expects an exception of type E whose message contains `needle`.
template <class E>
void expect_throw(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning '" << needle << "'";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "message: " << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

// The default scenario: 32 ports x 8, 3 pools, 2 ingress (lossless, lossy) and 4 egress
// profiles, 256 B cells.
TEST(Regfile, DefaultScenarioShape) {
  const CoreConfig c = default_core("dt");
  const RtlParams p = params_for(c);
  EXPECT_EQ(p.nports, 32u);
  EXPECT_EQ(p.nprio, 8u);
  EXPECT_EQ(p.npools, 3u);
  EXPECT_EQ(p.nprof, 4u);
  EXPECT_EQ(p.cw, 32u);
  EXPECT_NO_THROW(check_params(p));
}

class RoundTrip : public ::testing::TestWithParam<const char*> {};

// encode, then the writes applied to a unit out of reset, gives back the configuration:
// every field the map holds; the others (ewma frac/period) are not registers.
TEST_P(RoundTrip, EncodeThenWriteReproducesTheConfiguration) {
  CoreConfig cfg = default_core(GetParam());
  if (cfg.policy == "reverie") {  // exercise the other CTRL fields too
    cfg.ewma.rule = EwmaConfig::Rule::kEnqueueDequeue;
    cfg.ewma.k = 7;
    cfg.ewma.clamp = false;
  }
  if (cfg.policy == "dsh") {
    cfg.dsh.port_xon_offset_cells = 12;
    cfg.ingress_profiles[0].th.shift = -3;
    cfg.egress_profiles[3].th.shift = 2;
  }
  ASSERT_NO_THROW(cfg.validate());
  const RtlParams p = params_for(cfg);
  const auto writes = encode(cfg, p);
  // Scalars (CTRL, BUFFER, HDRM, CONGESTED, DSH, ABM_INTERVAL, THRESH_PERIOD) + 3 pools + 6 x 2
  // ingress + 3 x 4 egress profile words + 256 queue maps + abm's port capacities.
  EXPECT_EQ(writes.size(), 7u + 3 + 6 * cfg.ingress_profiles.size() + 3 * cfg.egress_profiles.size() + 256 +
                               cfg.abm.port_cells_per_interval.size());

  CoreConfig got = reset_config(p);
  for (const auto& [a, d] : writes) write(got, a, d, p);
  // Profile slots the configuration does not use stay at reset.
  const CoreConfig rst = reset_config(p);
  ASSERT_EQ(got.ingress_profiles.size(), p.nprof);
  for (size_t k = cfg.ingress_profiles.size(); k < p.nprof; ++k)
    for (uint32_t a : {R::IPROF_MODE_ADDR, R::IPROF_RESERVED_ADDR, R::IPROF_XOFF_ADDR})
      EXPECT_EQ(read(got, a + uint32_t(k) * R::IPROF_STRIDE, p), read(rst, a + uint32_t(k) * R::IPROF_STRIDE, p));
  got.ingress_profiles.resize(cfg.ingress_profiles.size());
  got.egress_profiles.resize(cfg.egress_profiles.size());
  got.ewma.frac_bits = cfg.ewma.frac_bits;
  got.ewma.period_cycles = cfg.ewma.period_cycles;
  got.abm.port_cells_per_interval.resize(cfg.abm.port_cells_per_interval.size());
  EXPECT_EQ(dump(got), dump(cfg));

  // Every written word reads back from the configuration and from a core running it.
  const AdmissionCore core(cfg);
  for (const auto& [a, d] : writes) {
    EXPECT_EQ(read(cfg, a, p), d) << reg_name(a, p);
    EXPECT_EQ(read(core, a, p), d) << reg_name(a, p);
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, RoundTrip, ::testing::Values("dt", "reverie", "dsh"),
                         [](const auto& info) { return std::string(info.param); });

TEST(Regfile, DefaultScenarioWordsPackedByHand) {
  const CoreConfig cfg = default_core("reverie");
  const RtlParams p = params_for(cfg);
  const auto writes = encode(cfg, p);
  auto word = [&](uint32_t addr) {
    for (const auto& [a, d] : writes)
      if (a == addr) return d;
    ADD_FAILURE() << "no write to " << reg_name(addr, p);
    return 0u;
  };
  // CTRL: policy reverie = 1, rule dequeue = 0, clamp 1 (bit 5), k = 10 (bits 12:8).
  EXPECT_EQ(word(0x002), 0x00000a21u);
  EXPECT_EQ(word(0x004), 65536u);  // 16 MiB / 256 B
  EXPECT_EQ(word(0x005), 8192u);   // ingress pool xoff 2 MiB
  EXPECT_EQ(word(0x006), 80u);     // 20 KiB
  // Pools in name order: egress_lossless 16 MiB, egress_lossy 14 MiB, ingress_lossless 14 MiB.
  EXPECT_EQ(word(0x010), 65536u);
  EXPECT_EQ(word(0x011), 57344u);
  EXPECT_EQ(word(0x012), 57344u);
  // Ingress profile 0 = ingress_lossy_profile (first met, priority 0): pool 2, static
  // 16 MiB = 65536 cells.
  EXPECT_EQ(word(0x040), 0x00000002u);
  EXPECT_EQ(word(0x042), 65536u);
  // Ingress profile 1 = the lossless PG profile at 0x48: pool 2, dynamic (bit 8), shift 0;
  // xoff = the safe headroom (config/headroom.h): 100G x (2 x 2 us + (4 + 8 ports) cycles) / 8
  // = 50150 B, + 3 x 1520 + 84 + 3840 = 58634 wire bytes, 1 cell per 84 -> 699 cells;
  // xon_offset 2496 B -> 10 cells.
  EXPECT_EQ(word(0x048), 0x00000102u);
  EXPECT_EQ(word(0x04b), 699u);
  EXPECT_EQ(word(0x04d), 10u);
  // Egress profiles in name order. 1 = egress_lossy_profile at 0xc4: pool 1, dynamic;
  // reserved 1536 B = 6 cells. 0 = egress_lossless_profile: pool 0, static 65536 cells.
  EXPECT_EQ(word(0x0c4), 0x00000101u);
  EXPECT_EQ(word(0x0c5), 6u);
  EXPECT_EQ(word(0x0c0), 0x00000000u);
  EXPECT_EQ(word(0x0c2), 65536u);
  // Queue maps: port 0 priority 3 (lossless PG, egress profile 0) = pg 1 | queue 0 << 8 |
  // lossless << 16; port 31 priority 0 = pg 0 | queue 1 << 8.
  EXPECT_EQ(word(0x203), 0x00010001u);
  EXPECT_EQ(word(0x200 + 31 * 8), 0x00000100u);
}

TEST(Regfile, FieldPackingAgainstHandPackedWords) {
  const RtlParams p{32, 8, 3, 4, 32};
  CoreConfig c = reset_config(p);
  // PARAMS: nports 32 [7:0], nprio 8 [11:8], npools 3 [15:12], nprof 4 [20:16], cw 32 [29:24].
  EXPECT_EQ(read(c, R::PARAMS_ADDR, p), 0x20043820u);
  EXPECT_EQ(read(c, R::ID_ADDR, p), 0x4d4d5541u);  // 'MMUA'
  // CTRL: dsh = 2, enqueue_dequeue (bit 4), clamp (bit 5), k = 10 (bits 12:8).
  write(c, R::CTRL_ADDR, 0x00000a32, p);
  EXPECT_EQ(c.policy, "dsh");
  EXPECT_EQ(c.ewma.rule, EwmaConfig::Rule::kEnqueueDequeue);
  EXPECT_TRUE(c.ewma.clamp);
  EXPECT_EQ(c.ewma.k, 10);
  // Bits outside every field are ignored on write and read 0: 0xffffe0c2 is policy 2,
  // rule 0, clamp 0, k 0 plus reserved bits.
  write(c, R::CTRL_ADDR, 0xffffe0c2, p);
  EXPECT_EQ(read(c, R::CTRL_ADDR, p), 0x00000002u);
  // IPROF_MODE[3] at 0x40 + 3 x 8 = 0x58: pool 2 [3:0], dynamic [8], shift -3 = 0b11101 [20:16].
  c.ingress_profiles[3] = {2, 0, {true, -3, 0}, 0, 0, 0};
  EXPECT_EQ(read(c, 0x058, p), 0x001d0102u);
  // Shift field 0b10000 = -16 is outside the field's legal -15..15: refused, nothing stored.
  expect_throw<std::invalid_argument>([&] { write(c, 0x058, 0x00100001, p); }, "IPROF_MODE[3].shift: -16 outside -15..15");
  EXPECT_EQ(c.ingress_profiles[3].pool, 2);
  write(c, 0x058, 0x000f0001, p);  // shift +15, static, pool 1
  EXPECT_EQ(c.ingress_profiles[3].th.shift, 15);
  EXPECT_FALSE(c.ingress_profiles[3].th.dynamic);
  EXPECT_EQ(c.ingress_profiles[3].pool, 1);
  // EPROF_STATIC[2] at 0xc2 + 2 x 4 = 0xca.
  write(c, 0x0ca, 1234, p);
  EXPECT_EQ(c.egress_profiles[2].th.static_cells, 1234u);
  // QMAP of port 5 priority 3 at 0x200 + 5 x 8 + 3 = 0x22b: pg 1 [4:0], queue 3 [12:8], lossless [16].
  write(c, 0x22b, 0x00010301, p);
  EXPECT_EQ(c.pg_profile[43], 1);
  EXPECT_EQ(c.queue_profile[43], 3);
  EXPECT_EQ(c.lossless[43], 1);
  EXPECT_EQ(read(c, 0x22b, p), 0x00010301u);
  // The generated constants agree with the words above.
  EXPECT_EQ(R::IPROF_MODE_ADDR + 3 * R::IPROF_STRIDE, 0x058u);
  EXPECT_EQ(R::QMAP_ADDR + 43 * R::QMAP_STRIDE, 0x22bu);
  EXPECT_EQ(R::CTRL_EWMA_K_MASK, 0x00001f00u);
  EXPECT_EQ(R::IPROF_MODE_SHIFT_LSB, 16u);
  EXPECT_EQ(R::IPROF_MODE_SHIFT_W, 5u);
}

TEST(Regfile, ResetValuesAndDecode) {
  const RtlParams p{4, 8, 2, 3, 16};
  const CoreConfig c = reset_config(p);
  for (const auto& g : R::kRegisters) {
    if (g.access != R::Access::kRw) continue;
    EXPECT_EQ(read(c, g.addr, p), g.reset) << g.name;
  }
  EXPECT_EQ(c.congestion.cells, 80u);  // CONGESTED_CELLS resets to 0x50
  EXPECT_EQ(read(c, R::PARAMS_ADDR, p), 0x10032804u);  // 4 | 8 << 8 | 2 << 12 | 3 << 16 | 16 << 24
  // Holes and entries beyond the parameters are not registers.
  for (uint32_t a : {0x003u, 0x009u, 0x012u, 0x046u, 0x047u, 0x040u + 3 * 8, 0x0c3u, 0x0c0u + 3 * 4, 0x112u,
                     0x122u, 0x200u + 32, 0x400u + 4, 0xfffu, 0x1000u})
    expect_throw<CsrAddressError>([&] { decode(a, p); }, "no register");
  EXPECT_EQ(reg_name(0x045 + 2 * 8, p), "IPROF_XON_OFFSET[2]");
  EXPECT_EQ(reg_name(0x046, p), "0x046");
  // Statistics need a core; read-only registers refuse writes.
  expect_throw<std::invalid_argument>([&] { read(c, R::STAT_TOTAL_ADDR, p); }, "statistics");
  CoreConfig w = c;
  for (uint32_t a : {R::ID_ADDR, R::PARAMS_ADDR, R::STAT_TOTAL_ADDR, R::STAT_POOL_USED_ADDR + 1, R::STAT_DROPS_ADDR})
    expect_throw<CsrAccessError>([&] { write(w, a, 0, p); }, "read-only");
  // Cell counts are cw (16) bits wide in the unit: the upper bits of a write are dropped.
  write(w, R::BUFFER_CELLS_ADDR, 0x00012345, p);
  EXPECT_EQ(w.buffer_cells, 0x2345u);
  // An undefined policy is refused; static (3), sih (4) and abm (5) are taken.
  expect_throw<std::invalid_argument>([&] { write(w, R::CTRL_ADDR, 6, p); }, "CTRL.policy 6");
  write(w, R::CTRL_ADDR, R::CTRL_POLICY_ABM, p);
  EXPECT_EQ(w.policy, "abm");
  write(w, R::CTRL_ADDR, R::CTRL_POLICY_STATIC, p);
  EXPECT_EQ(w.policy, "static");
  write(w, R::CTRL_ADDR, R::CTRL_POLICY_SIH, p);
  EXPECT_EQ(w.policy, "sih");
  // A write past the end of a shorter profile table extends it with reset entries.
  CoreConfig s = c;
  s.egress_profiles.resize(1);
  write(s, R::EPROF_STATIC_ADDR + 2 * R::EPROF_STRIDE, 77, p);
  ASSERT_EQ(s.egress_profiles.size(), 3u);
  EXPECT_EQ(s.egress_profiles[2].th.static_cells, 77u);
  EXPECT_FALSE(s.egress_profiles[1].th.dynamic);
  // So does a queue map naming a profile the configuration lacks (below nprof = 3).
  s.ingress_profiles.resize(1);
  write(s, R::QMAP_ADDR + 5, 0x00000102, p);  // pg profile 2, queue profile 1
  ASSERT_EQ(s.ingress_profiles.size(), 3u);
  EXPECT_EQ(s.ingress_profiles[2].th.static_cells, 0u);
  EXPECT_EQ(s.egress_profiles.size(), 3u);
  // Profile 31 is beyond nprof = 3: refused, as the unit refuses it, and nothing stored.
  expect_throw<std::invalid_argument>([&] { write(s, R::QMAP_ADDR + 6, 0x00001f1f, p); },
                                      "QMAP[6].pg_profile: 31 is not below the unit's NPROF = 3");
  EXPECT_EQ(s.ingress_profiles.size(), 3u);
  EXPECT_EQ(s.pg_profile[6], 0);
  EXPECT_EQ(s.queue_profile[6], 0);
}

TEST(Regfile, UnrepresentableConfigurationsThrow) {
  const CoreConfig base = default_core("dt");
  const RtlParams p = params_for(base);
  ASSERT_NO_THROW(encode(base, p));
  auto bad = [&](const std::function<void(CoreConfig&, RtlParams&)>& edit, const std::string& needle) {
    CoreConfig c = base;
    RtlParams q = p;
    edit(c, q);
    expect_throw<std::invalid_argument>([&] { encode(c, q); }, needle);
  };
  bad([](CoreConfig& c, RtlParams&) { c.ewma.rule = EwmaConfig::Rule::kPeriodic; }, "CTRL.ewma_rule 2");
  bad([](CoreConfig& c, RtlParams&) { c.congestion.kind = CongestionRule::Kind::kSaturation; }, "saturation");
  bad([](CoreConfig&, RtlParams& q) { q.cw = 16; }, "counter_bits 32 != unit cw 16");
  bad([](CoreConfig& c, RtlParams& q) { c.counter_bits = q.cw = 40; }, "cw = 40");
  bad([](CoreConfig&, RtlParams& q) { q.npools = 2; }, "3 pools, the unit has 2");
  bad([](CoreConfig&, RtlParams& q) { q.nprof = 3; }, "4 egress profiles, the unit has 3");
  bad([](CoreConfig& c, RtlParams&) { c.ingress_profiles.resize(5, c.ingress_profiles[0]); }, "5 ingress profiles");
  bad([](CoreConfig& c, RtlParams&) { c.egress_profiles[1].th.static_cells = uint64_t(1) << 32; },
      "EPROF_STATIC[1]: 4294967296 does not fit its 32-bit field");
  bad([](CoreConfig& c, RtlParams&) { c.buffer_cells = uint64_t(1) << 33; }, "BUFFER_CELLS");
  bad([](CoreConfig& c, RtlParams&) { c.ingress_profiles[1].th.shift = 16; }, "IPROF_MODE[1].shift: 16 outside -15..15");
  bad([](CoreConfig& c, RtlParams&) { c.egress_profiles[0].th.shift = -16; }, "EPROF_MODE[0].shift: -16");
  bad([](CoreConfig& c, RtlParams&) { c.ewma.k = 32; }, "CTRL.ewma_k");
  bad([](CoreConfig&, RtlParams& q) { q.nprio = 4; }, "prios 8 != unit nprio 4");
  bad([](CoreConfig&, RtlParams& q) { q.nports = 16; }, "ports 32 != unit nports 16");
  bad([](CoreConfig&, RtlParams& q) { q.nprof = 17; }, "nprof = 17");
  // A 16-bit unit: cell counts must fit 16 bits.
  CoreConfig c16 = base;
  c16.counter_bits = 16;
  c16.buffer_cells = 65535;
  c16.pool_cells = {65535, 57344, 57344};
  RtlParams p16 = params_for(c16);
  expect_throw<std::invalid_argument>([&] { encode(c16, p16); }, "IPROF_STATIC[0]: 65536 does not fit its 16-bit");
  c16.ingress_profiles[0].th.static_cells = 65535;
  expect_throw<std::invalid_argument>([&] { encode(c16, p16); }, "EPROF_STATIC[0]: 65536 does not fit its 16-bit");
  c16.egress_profiles[0].th.static_cells = c16.egress_profiles[2].th.static_cells = 65535;
  EXPECT_NO_THROW(encode(c16, p16));
}

// 2 ports, the layout of test_admission_core.cc: ingress pool 600, egress pools 1000/600,
// headroom 100; lossless priority 3 (ingress profile 0: alpha 1, xoff 50).
CoreConfig small_config() {
  CoreConfig c;
  c.ports = 2;
  c.prios = 8;
  c.buffer_cells = 1000;
  c.pool_cells = {600, 1000, 600};
  c.headroom_pool_cells = 100;
  c.ingress_profiles = {{0, 0, {true, 0, 0}, 50, 0, 10}, {0, 0, {false, 0, 1000}, 0, 0, 0}};
  c.egress_profiles = {{1, 0, {false, 0, 1000}}, {2, 0, {true, 0, 0}}};
  c.pg_profile.assign(16, 1);
  c.queue_profile.assign(16, 1);
  c.lossless.assign(16, 0);
  for (uint32_t port = 0; port < 2; ++port) {
    c.pg_profile[port * 8 + 3] = 0;
    c.queue_profile[port * 8 + 3] = 0;
    c.lossless[port * 8 + 3] = 1;
  }
  return c;
}

TEST(Regfile, QuiesceRule) {
  for (uint32_t a : {R::CTRL_ADDR, R::CONGESTED_CELLS_ADDR, R::IPROF_MODE_ADDR, R::IPROF_RESERVED_ADDR + 8,
                     R::EPROF_MODE_ADDR + 4, R::EPROF_RESERVED_ADDR, R::QMAP_ADDR, R::QMAP_ADDR + 100})
    EXPECT_TRUE(needs_quiesce(a)) << std::hex << a;
  for (uint32_t a : {R::ID_ADDR, R::BUFFER_CELLS_ADDR, R::HDRM_POOL_CELLS_ADDR, R::DSH_PORT_XON_OFFSET_ADDR,
                     R::POOL_SIZE_ADDR, R::IPROF_STATIC_ADDR, R::IPROF_XOFF_ADDR, R::IPROF_XON_ADDR,
                     R::IPROF_XON_OFFSET_ADDR, R::EPROF_STATIC_ADDR, R::STAT_TOTAL_ADDR, 0x046u})
    EXPECT_FALSE(needs_quiesce(a)) << std::hex << a;
  EXPECT_EQ(quiesce_mask(R::CTRL_ADDR), R::CTRL_POLICY_MASK);
  EXPECT_EQ(quiesce_mask(R::IPROF_MODE_ADDR), R::IPROF_MODE_POOL_MASK);

  AdmissionCore core(small_config());
  const RtlParams p = params_for(core.config());
  // Empty buffer: threshold of the lossless PG (port 1, prio 3) = alpha (b - q) = 600.
  EXPECT_EQ(core.ingress_threshold(1, 3), 600u);
  for (int i = 0; i < 10; ++i) core.admit({1, 0, 3, 10, 0});
  ASSERT_EQ(core.total_used(), 100u);
  EXPECT_EQ(core.ingress_threshold(1, 3), 500u);  // 600 - 100

  // Run-time fields go through: alpha 2 (shift 1) -> 2 x 500 = 1000; xoff; buffer.
  write(core, R::IPROF_MODE_ADDR, 0x00010100, p);
  EXPECT_EQ(core.config().ingress_profiles[0].th.shift, 1);
  EXPECT_EQ(core.ingress_threshold(1, 3), 1000u);
  write(core, R::IPROF_XOFF_ADDR, 60, p);
  EXPECT_EQ(core.config().ingress_profiles[0].xoff_cells, 60u);
  write(core, R::CTRL_ADDR, 0x00000700, p);  // same policy dt, ewma k 7
  EXPECT_EQ(core.config().ewma.k, 7);

  // A write that changes an accounting field is refused while 100 cells are buffered; the
  // core keeps its configuration. Rewriting the value it has goes through (as in the RTL,
  // which compares every quiesce field with what the register reads).
  const std::string before = dump(core.config());
  expect_throw<CsrQuiesceError>([&] { write(core, R::CTRL_ADDR, 0x00000701, p); }, "CTRL.policy: may change only");
  expect_throw<CsrQuiesceError>([&] { write(core, R::IPROF_MODE_ADDR, 0x00010101, p); }, "IPROF_MODE[0].pool");
  expect_throw<CsrQuiesceError>([&] { write(core, R::IPROF_RESERVED_ADDR, 3, p); }, "IPROF_RESERVED[0]");
  expect_throw<CsrQuiesceError>([&] { write(core, R::EPROF_MODE_ADDR + 4, 0x00000101, p); }, "EPROF_MODE[1].pool");
  expect_throw<CsrQuiesceError>([&] { write(core, R::EPROF_RESERVED_ADDR, 3, p); }, "EPROF_RESERVED[0]");
  expect_throw<CsrQuiesceError>([&] { write(core, R::QMAP_ADDR + 11, 0x00000000, p); }, "QMAP[11].lossless");
  expect_throw<CsrQuiesceError>([&] { write(core, R::QMAP_ADDR + 11, 0x00010001, p); }, "QMAP[11].pg_profile");
  expect_throw<CsrQuiesceError>([&] { write(core, R::CONGESTED_CELLS_ADDR, 40, p); }, "CONGESTED_CELLS");
  EXPECT_EQ(dump(core.config()), before);
  write(core, R::IPROF_RESERVED_ADDR, 0, p);
  write(core, R::QMAP_ADDR + 11, 0x00010000, p);
  write(core, R::CONGESTED_CELLS_ADDR, 80, p);
  write(core, R::CTRL_ADDR, 0x00000700, p);
  EXPECT_EQ(dump(core.config()), before);

  // A value outside a field's legal values is refused and leaves the core unchanged:
  // dynamic_th -16 (the 5-bit field holds it, the map allows -15..15).
  expect_throw<std::invalid_argument>([&] { write(core, R::IPROF_MODE_ADDR + 8, 0x00100000, p); },
                                      "IPROF_MODE[1].shift: -16 outside -15..15");
  expect_throw<CsrAccessError>([&] { write(core, R::STAT_TOTAL_ADDR, 0, p); }, "read-only");
  expect_throw<CsrAddressError>([&] { write(core, 0x046, 0, p); }, "no register");
  EXPECT_EQ(dump(core.config()), before);

  // Once the buffer is empty they go through; a new policy starts.
  for (int i = 0; i < 10; ++i) core.depart({1, 0, 3, 10, 0});
  ASSERT_EQ(core.total_used(), 0u);
  write(core, R::CTRL_ADDR, 0x00000701, p);
  EXPECT_EQ(core.config().policy, "reverie");
  write(core, R::IPROF_RESERVED_ADDR, 5, p);
  EXPECT_EQ(core.config().ingress_profiles[0].reserved_cells, 5u);
  write(core, R::QMAP_ADDR + 11, 0x00010000, p);  // port 1 prio 3 -> ingress 0, egress 0, lossless
  write(core, R::CONGESTED_CELLS_ADDR, 40, p);
  EXPECT_EQ(core.config().congestion.cells, 40u);
  // Pool 9 does not exist: quiesce passes (empty), the field's legality refuses it.
  expect_throw<std::invalid_argument>([&] { write(core, R::IPROF_MODE_ADDR + 8, 0x00000009, p); },
                                      "IPROF_MODE[1].pool: 9 is not below the unit's NPOOLS = 3");
  EXPECT_EQ(core.config().ingress_profiles[1].pool, 0);
}

TEST(Regfile, StatisticsFromTheCore) {
  AdmissionCore core(small_config());
  const RtlParams p = params_for(core.config());
  core.admit({0, 1, 1, 7, 0});  // lossy: ingress pool 0, egress pool 2
  core.admit({1, 0, 3, 5, 0});  // lossless: ingress pool 0, egress pool 1
  EXPECT_EQ(read(core, R::STAT_TOTAL_ADDR, p), 12u);
  EXPECT_EQ(read(core, R::STAT_HDRM_POOL_ADDR, p), 0u);
  for (uint32_t i = 0; i < 3; ++i)
    EXPECT_EQ(read(core, R::STAT_POOL_USED_ADDR + i, p), core.pool_used(uint16_t(i))) << i;
  EXPECT_EQ(read(core, R::STAT_POOL_USED_ADDR + 2, p), 7u);
  // Decisions and drops are the caller's (the Mmu counts them).
  EXPECT_EQ(read(core, R::STAT_DECISIONS_ADDR, p), 0u);
  EXPECT_EQ(read(core, R::STAT_DECISIONS_ADDR, p, {2, 0}), 2u);
  EXPECT_EQ(read(core, R::STAT_DROPS_ADDR, p, {2, 1}), 1u);
  // A configuration the map cannot show fails to read, without harm.
  CoreConfig periodic = small_config();
  periodic.policy = "reverie";
  periodic.ewma.rule = EwmaConfig::Rule::kPeriodic;
  const AdmissionCore a(periodic);
  expect_throw<std::invalid_argument>([&] { read(a, R::CTRL_ADDR, p); }, "ewma_rule");
  EXPECT_EQ(read(a, R::BUFFER_CELLS_ADDR, p), 1000u);
}

}  // namespace
}  // namespace mmusim::admission
