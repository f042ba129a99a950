// CsrTarget (hw-model/mmu/csr_target.h): the admission unit's register map over TLM-2.0,
// driven by a small blocking initiator, one forked simulation per test (sc_fork.h).
//
// Default scenario, as the core sees it (docs/registers.md, tb/unit/test_regfile.cc):
// 32 ports x 8 priorities, 256 B cells, buffer 65536 cells; pools in name order
// egress_lossless 65536, egress_lossy 57344, ingress_lossless 57344 cells; ingress profile
// 1 is the lossless PG's (pool 2, dynamic_th 0) at word 0x48, byte 0x120.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "admission/admission_core.h"
#include "admission/regs.h"
#include "common/sim_time.h"
#include "config/scenario.h"
#include "mmu/csr_target.h"
#include "csr_master.h"
#include "sc_fork.h"
#include "sim/network.h"

namespace mmusim {
namespace {

using nlohmann::json;
using test::ChildResult;
using test::CsrMaster;
using test::run_in_child;
namespace R = admission::regs;

constexpr uint64_t kUs = 1'000'000;  // ps

// Blocking CSR master: runs `body` in one SC_THREAD at `start_ps`.
json parse_ok(const ChildResult& r) {
  EXPECT_TRUE(r.ok) << r.text;
  if (!r.ok) return json::object();
  return json::parse(r.text);
}

std::string status(tlm::tlm_response_status s) {
  tlm::tlm_generic_payload tx;
  tx.set_response_status(s);
  return tx.get_response_string();
}

admission::CoreConfig default_core() { return load_scenario(default_scenario_json(), "default").core_config(); }

TEST(CsrTarget, ReadsIdParamsAndConfigurationRegisters) {
  const json j = parse_ok(run_in_child([] {
    admission::AdmissionCore core(default_core());
    CsrTarget csr("csr", core);
    CsrMaster m("m");
    m.socket.bind(csr.socket);
    json j;
    m.body = [&] {
      j["id"] = m.read_ok(R::ID_ADDR);
      j["params"] = m.read_ok(R::PARAMS_ADDR);
      j["ctrl"] = m.read_ok(R::CTRL_ADDR);
      j["buffer"] = m.read_ok(R::BUFFER_CELLS_ADDR);
      j["hdrm"] = m.read_ok(R::HDRM_POOL_CELLS_ADDR);
      j["congested"] = m.read_ok(R::CONGESTED_CELLS_ADDR);
      j["pool2"] = m.read_ok(R::POOL_SIZE_ADDR + 2);
      j["iprof1_mode"] = m.read_ok(R::IPROF_MODE_ADDR + 1 * R::IPROF_STRIDE);
      j["iprof1_xoff"] = m.read_ok(R::IPROF_XOFF_ADDR + 1 * R::IPROF_STRIDE);
      j["iprof9_mode"] = m.read_ok(R::IPROF_MODE_ADDR + 9 * R::IPROF_STRIDE);  // beyond the core's 2: reset
      j["qmap_0_3"] = m.read_ok(R::QMAP_ADDR + 3);
      j["stat_total"] = m.read_ok(R::STAT_TOTAL_ADDR);
      j["decisions"] = m.read_ok(R::STAT_DECISIONS_ADDR);  // no stats source: 0
      j["dmi_hints"] = m.dmi_hints;
      j["accesses"] = csr.accesses();
      j["errors"] = csr.errors();
    };
    sc_core::sc_start(ps(1 * kUs));
    return j.dump();
  }));
  EXPECT_EQ(j.at("id"), 0x4d4d5541u);  // 'MMUA'
  // nports 32 | nprio 8 << 8 | npools 3 << 12 | nprof 16 (the map's maximum) << 16 | cw 32 << 24.
  EXPECT_EQ(j.at("params"), 0x20103820u);
  EXPECT_EQ(j.at("ctrl"), 0x00000a20u);  // dt, dequeue rule, clamp, k = 10
  EXPECT_EQ(j.at("buffer"), 65536u);
  EXPECT_EQ(j.at("hdrm"), 8192u);
  EXPECT_EQ(j.at("congested"), 80u);
  EXPECT_EQ(j.at("pool2"), 57344u);
  EXPECT_EQ(j.at("iprof1_mode"), 0x00000102u);  // pool 2, dynamic, shift 0
  EXPECT_EQ(j.at("iprof1_xoff"), 699u);  // the safe headroom (config/headroom.h; test_regfile.cc)
  EXPECT_EQ(j.at("iprof9_mode"), 0u);
  EXPECT_EQ(j.at("qmap_0_3"), 0x00010001u);  // pg 1, queue 0, lossless
  EXPECT_EQ(j.at("stat_total"), 0u);
  EXPECT_EQ(j.at("decisions"), 0u);
  EXPECT_EQ(j.at("dmi_hints"), 0);
  EXPECT_EQ(j.at("accesses"), 13u);
  EXPECT_EQ(j.at("errors"), 0u);
}

// The lossless PG of port 0 priority 3 uses ingress profile 1 (pool 2, 57344 cells):
// threshold alpha (b - q) = 57344 with shift 0 and q = 0. Right after ten admissions of
// 100 cells the threshold calculator (THRESH_PERIOD 1, docs/rtl.md) has the pool before
// the last one: 57344 - 900 = 56444; from the write's cycle on it has all q = 1000:
// 112688 at shift 1, 14086 at shift -2.
TEST(CsrTarget, WritingAnIngressShiftChangesTheCoresThreshold) {
  const json j = parse_ok(run_in_child([] {
    admission::AdmissionCore core(default_core());
    CsrTarget csr("csr", core);
    CsrMaster m("m");
    m.socket.bind(csr.socket);
    m.start_ps = 5 * kUs;
    json j;
    m.body = [&] {
      const uint32_t mode1 = R::IPROF_MODE_ADDR + 1 * R::IPROF_STRIDE;
      j["th0"] = core.ingress_threshold(0, 3);
      for (int i = 0; i < 10; ++i) core.admit({0, 1, 3, 100, 0});  // 1000 cells: a run-time write
      j["th_busy"] = core.ingress_threshold(0, 3);
      j["st_shift1"] = status(m.write(mode1, 2 | 1u << 8 | 1u << 16));
      j["th_shift1"] = core.ingress_threshold(0, 3);
      j["cfg_shift1"] = int(core.config().ingress_profiles[1].th.shift);
      j["st_shiftm2"] = status(m.write(mode1, 2 | 1u << 8 | 0x1eu << 16));  // -2 in 5 bits
      j["th_shiftm2"] = core.ingress_threshold(0, 3);
      j["readback"] = m.read_ok(mode1);
      j["stat_total"] = m.read_ok(R::STAT_TOTAL_ADDR);
      j["stat_pool2"] = m.read_ok(R::STAT_POOL_USED_ADDR + 2);
    };
    sc_core::sc_start(ps(10 * kUs));
    return j.dump();
  }));
  EXPECT_EQ(j.at("th0"), 57344u);
  EXPECT_EQ(j.at("th_busy"), 56444u);
  EXPECT_EQ(j.at("st_shift1"), "TLM_OK_RESPONSE");
  EXPECT_EQ(j.at("cfg_shift1"), 1);
  EXPECT_EQ(j.at("th_shift1"), 112688u);
  EXPECT_EQ(j.at("st_shiftm2"), "TLM_OK_RESPONSE");
  EXPECT_EQ(j.at("th_shiftm2"), 14086u);
  EXPECT_EQ(j.at("readback"), 0x001e0102u);
  EXPECT_EQ(j.at("stat_total"), 1000u);
  EXPECT_EQ(j.at("stat_pool2"), 1000u);
}

TEST(CsrTarget, ErrorsAreResponsesAndLeaveTheCoreAlone) {
  const json j = parse_ok(run_in_child([] {
    admission::AdmissionCore core(default_core());
    CsrTarget csr("csr", core);
    CsrMaster m("m");
    m.socket.bind(csr.socket);
    json j;
    m.body = [&] {
      const admission::CoreConfig before = core.config();
      uint32_t d = 0;
      j["hole"] = status(m.read(0x046, d));                               // IPROF gap
      j["beyond_qmap"] = status(m.read(R::QMAP_ADDR + 256, d));           // 32 x 8 queues
      j["beyond_map"] = status(m.read(0x1000, d));                        // past 12 address bits
      j["unaligned"] = status(m.access(tlm::TLM_READ_COMMAND, 0x8 + 2, d));
      j["write_hole"] = status(m.write(0x003, 1));
      j["write_ro"] = status(m.write(R::ID_ADDR, 1));
      j["write_stat"] = status(m.write(R::STAT_TOTAL_ADDR, 1));
      d = 0;
      j["burst"] = status(m.access(tlm::TLM_READ_COMMAND, R::ID_ADDR * 4, d, 8));
      unsigned char be[4] = {0xff, 0xff, 0x00, 0xff};
      j["byte_enable"] = status(m.access(tlm::TLM_WRITE_COMMAND, R::BUFFER_CELLS_ADDR * 4, d, 4, be, 4));
      unsigned char all[4] = {0xff, 0xff, 0xff, 0xff};
      d = 0;
      j["all_enabled"] = status(m.access(tlm::TLM_READ_COMMAND, R::BUFFER_CELLS_ADDR * 4, d, 4, all, 4));
      j["all_enabled_data"] = d;
      j["policy6"] = status(m.write(R::CTRL_ADDR, 6));  // no policy has value 6
      j["missing_pool"] = status(m.write(R::EPROF_MODE_ADDR, 7));       // pool 7 of 3
      j["pool_over_buffer"] = status(m.write(R::POOL_SIZE_ADDR, 70000));  // > 65536-cell buffer
      const uint32_t qmap0 = m.read_ok(R::QMAP_ADDR);
      core.admit({0, 1, 1, 4, 0});
      j["quiesce_qmap"] = status(m.write(R::QMAP_ADDR, qmap0 ^ R::QMAP_LOSSLESS_MASK));  // a change
      j["quiesce_msg"] = csr.last_error();
      j["quiesce_policy"] = status(m.write(R::CTRL_ADDR, 0x00000a21));
      uint32_t ign = 0;
      j["ignore"] = status(m.access(tlm::TLM_IGNORE_COMMAND, 0x046 * 4, ign));
      j["unchanged"] = core.config().pool_cells == before.pool_cells && core.config().policy == before.policy &&
                       core.config().egress_profiles[0].pool == before.egress_profiles[0].pool &&
                       core.config().queue_profile == before.queue_profile;
      j["id_after"] = m.read_ok(R::ID_ADDR);
      j["errors"] = csr.errors();
    };
    sc_core::sc_start(ps(1 * kUs));
    return j.dump();
  }));
  EXPECT_EQ(j.at("hole"), "TLM_ADDRESS_ERROR_RESPONSE");
  EXPECT_EQ(j.at("beyond_qmap"), "TLM_ADDRESS_ERROR_RESPONSE");
  EXPECT_EQ(j.at("beyond_map"), "TLM_ADDRESS_ERROR_RESPONSE");
  EXPECT_EQ(j.at("unaligned"), "TLM_ADDRESS_ERROR_RESPONSE");
  EXPECT_EQ(j.at("write_hole"), "TLM_ADDRESS_ERROR_RESPONSE");
  EXPECT_EQ(j.at("write_ro"), "TLM_COMMAND_ERROR_RESPONSE");
  EXPECT_EQ(j.at("write_stat"), "TLM_COMMAND_ERROR_RESPONSE");
  EXPECT_EQ(j.at("burst"), "TLM_BURST_ERROR_RESPONSE");
  EXPECT_EQ(j.at("byte_enable"), "TLM_BYTE_ENABLE_ERROR_RESPONSE");
  EXPECT_EQ(j.at("all_enabled"), "TLM_OK_RESPONSE");
  EXPECT_EQ(j.at("all_enabled_data"), 65536u);
  EXPECT_EQ(j.at("policy6"), "TLM_GENERIC_ERROR_RESPONSE");
  EXPECT_EQ(j.at("missing_pool"), "TLM_GENERIC_ERROR_RESPONSE");
  EXPECT_EQ(j.at("pool_over_buffer"), "TLM_GENERIC_ERROR_RESPONSE");
  EXPECT_EQ(j.at("quiesce_qmap"), "TLM_GENERIC_ERROR_RESPONSE");
  const std::string qmsg = j.at("quiesce_msg");
  EXPECT_NE(qmsg.find("QMAP[0]."), std::string::npos) << qmsg;  // names the field that would change
  EXPECT_NE(qmsg.find("may change only while the buffer is empty"), std::string::npos) << qmsg;
  EXPECT_EQ(j.at("quiesce_policy"), "TLM_GENERIC_ERROR_RESPONSE");
  EXPECT_EQ(j.at("ignore"), "TLM_OK_RESPONSE");
  EXPECT_EQ(j.at("unchanged"), true);
  EXPECT_EQ(j.at("id_after"), 0x4d4d5541u);
  EXPECT_EQ(j.at("errors"), 14u);
}

// A core the map cannot describe (the periodic EWMA rule, 300 ports) still elaborates; its
// accesses fail with responses.
TEST(CsrTarget, UnrepresentableCoreFailsAccessesNotElaboration) {
  const json j = parse_ok(run_in_child([] {
    admission::CoreConfig c = default_core();
    c.policy = "reverie";
    c.ewma.rule = admission::EwmaConfig::Rule::kPeriodic;
    admission::AdmissionCore core(c);
    CsrTarget csr("csr", core);
    admission::CoreConfig big = default_core();
    big.ports = 300;
    const size_t nq = size_t(big.ports) * big.prios;
    big.pg_profile.resize(nq, 0);
    big.queue_profile.resize(nq, 1);
    big.lossless.resize(nq, 0);
    admission::AdmissionCore big_core(big);
    CsrTarget big_csr("big_csr", big_core);
    CsrMaster m("m"), m2("m2");
    m.socket.bind(csr.socket);
    m2.socket.bind(big_csr.socket);
    json j;
    m.body = [&] {
      uint32_t d = 0;
      j["periodic_ctrl"] = status(m.read(R::CTRL_ADDR, d));
      j["periodic_buffer"] = m.read_ok(R::BUFFER_CELLS_ADDR);
      j["periodic_to_dt"] = status(m.write(R::CTRL_ADDR, 0x00000a20));  // empty buffer: allowed
      j["policy_now"] = core.config().policy;
      j["big_id"] = status(m2.read(R::ID_ADDR, d));
      j["big_msg"] = big_csr.last_error();
    };
    sc_core::sc_start(ps(1 * kUs));
    return j.dump();
  }));
  EXPECT_EQ(j.at("periodic_ctrl"), "TLM_GENERIC_ERROR_RESPONSE");
  EXPECT_EQ(j.at("periodic_buffer"), 65536u);
  EXPECT_EQ(j.at("periodic_to_dt"), "TLM_OK_RESPONSE");
  EXPECT_EQ(j.at("policy_now"), "dt");
  EXPECT_EQ(j.at("big_id"), "TLM_GENERIC_ERROR_RESPONSE");
  EXPECT_NE(j.at("big_msg").get<std::string>().find("nports = 300"), std::string::npos) << j.at("big_msg");
}

// The switch of a whole network carries a CsrTarget on its MMU's core: statistics follow
// the traffic (background flows start at 0), and software reprogramming reaches the core.
TEST(CsrTarget, SwitchCsrSeesTheRunningMmu) {
  const json j = parse_ok(run_in_child([] {
    const Scenario sc = load_scenario(default_scenario_json(), "default");
    Network net(sc, RunOptions{});
    CsrMaster m("m");
    m.socket.bind(net.sw().csr.socket);
    m.start_ps = 50 * kUs;
    json j;
    m.body = [&] {
      Mmu& mmu = net.sw().mmu;
      j["id"] = m.read_ok(R::ID_ADDR);
      j["decisions"] = m.read_ok(R::STAT_DECISIONS_ADDR);
      j["drops"] = m.read_ok(R::STAT_DROPS_ADDR);
      j["want_decisions"] = mmu.admitted() + mmu.dropped_lossless() + mmu.dropped_lossy();
      j["want_drops"] = mmu.dropped_lossless() + mmu.dropped_lossy();
      j["total"] = m.read_ok(R::STAT_TOTAL_ADDR);
      j["want_total"] = mmu.core().total_used();
      uint32_t d = 0;
      const uint32_t mode1 = R::IPROF_MODE_ADDR + 1 * R::IPROF_STRIDE;
      j["st_shift"] = status(m.write(mode1, 2 | 1u << 8 | 1u << 16));
      j["shift"] = int(mmu.core().config().ingress_profiles[1].th.shift);
      j["st_qmap"] = status(m.read(R::QMAP_ADDR, d));
      j["st_qmap_same"] = status(m.write(R::QMAP_ADDR, d));  // its value again: no change
      j["st_qmap_write"] = status(m.write(R::QMAP_ADDR, d ^ R::QMAP_LOSSLESS_MASK));  // accounting change, cells buffered
    };
    sc_core::sc_start(ps(60 * kUs));
    return j.dump();
  }, 120));
  EXPECT_EQ(j.at("id"), 0x4d4d5541u);
  EXPECT_GT(j.at("decisions").get<uint64_t>(), 0u);
  EXPECT_EQ(j.at("decisions"), j.at("want_decisions"));
  EXPECT_EQ(j.at("drops"), j.at("want_drops"));
  EXPECT_EQ(j.at("total"), j.at("want_total"));
  EXPECT_GT(j.at("total").get<uint64_t>(), 0u);
  EXPECT_EQ(j.at("st_shift"), "TLM_OK_RESPONSE");
  EXPECT_EQ(j.at("shift"), 1);
  EXPECT_EQ(j.at("st_qmap"), "TLM_OK_RESPONSE");
  EXPECT_EQ(j.at("st_qmap_same"), "TLM_OK_RESPONSE");
  EXPECT_EQ(j.at("st_qmap_write"), "TLM_GENERIC_ERROR_RESPONSE");
}

}  // namespace
}  // namespace mmusim
