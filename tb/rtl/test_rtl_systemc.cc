// The RTL unit Verilated in SystemC mode (verilate(... SYSTEMC)), on an sc_clock with
// signal ports, replaying the exact admission/release stream of the default incast
// scenario against the golden core in lockstep. The stream is recorded from the SystemC
// model in one forked kernel and replayed into the SystemC-mode RTL in another.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <systemc>

#include "Vmmu_sc.h"
#include "admission/admission_core.h"
#include "admission/regfile.h"
#include "config/scenario.h"
#include "sim/network.h"
#include "../modules/sc_fork.h"

using namespace mmusim;
using admission::Request;

namespace {

struct Op {
  bool admit;
  Request r;
};

// Records the default scenario's operations (C++ run) as text: "A|D in out prio cells cycle".
std::string record_default_ops(const std::string& policy) {
  nlohmann::json j = default_scenario_json();
  j["admission"]["policy"] = policy;
  const Scenario sc = load_scenario(j, "default");
  Network net(sc, {});
  std::ostringstream out;
  net.sw().mmu.set_op_hook([&](bool admit, const Request& r) {
    out << (admit ? 'A' : 'D') << ' ' << r.in_port << ' ' << r.out_port << ' ' << int(r.prio) << ' ' << r.cells
        << ' ' << r.cycle << '\n';
  });
  net.run();
  return out.str();
}

std::vector<Op> parse_ops(const std::string& text) {
  std::vector<Op> ops;
  std::istringstream in(text);
  char k;
  uint32_t a, b, p, c;
  uint64_t t;
  while (in >> k >> a >> b >> p >> c >> t) ops.push_back({k == 'A', {a, b, uint8_t(p), c, t}});
  return ops;
}

// Testbench: drives the SystemC-mode model through its signals, one operation per clock.
SC_MODULE(Bench) {
  sc_core::sc_clock clk{"clk", 1, sc_core::SC_NS};
  sc_core::sc_signal<bool> rst_n{"rst_n"}, cfg_valid{"cfg_valid"}, cfg_ready{"cfg_ready"}, cfg_write{"cfg_write"},
      cfg_rvalid{"cfg_rvalid"}, cfg_error{"cfg_error"}, req_valid{"req_valid"}, req_ready{"req_ready"},
      rsp_valid{"rsp_valid"}, rel_valid{"rel_valid"}, rel_ready{"rel_ready"}, rel_rsp_valid{"rel_rsp_valid"},
      stat_underflow{"stat_underflow"};
  sc_core::sc_signal<uint32_t> cfg_addr{"cfg_addr"}, cfg_wdata{"cfg_wdata"}, cfg_rdata{"cfg_rdata"},
      req_in{"req_in"}, req_out{"req_out"}, req_prio{"req_prio"}, req_cells{"req_cells"}, rsp_verdict{"rsp_verdict"},
      rsp_pfc{"rsp_pfc"}, rsp_port_pfc{"rsp_port_pfc"}, rsp_reason{"rsp_reason"}, rel_in{"rel_in"},
      rel_out{"rel_out"}, rel_prio{"rel_prio"}, rel_cells{"rel_cells"}, rel_rsp_pfc{"rel_rsp_pfc"},
      rel_rsp_port_pfc{"rel_rsp_port_pfc"}, stat_total{"stat_total"}, stat_hdrm{"stat_hdrm"}, dbg_addr{"dbg_addr"},
      now{"now"},  // cycle count: abm's intervals only, constant here
      req_queue{"req_queue"}, rel_queue{"rel_queue"};
  sc_core::sc_signal<uint64_t> dbg_data{"dbg_data"};
  Vmmu_sc dut{"dut"};

  admission::AdmissionCore core;
  std::vector<std::pair<uint32_t, uint32_t>> program;
  std::vector<Op> ops;
  std::string report;
  uint64_t checked = 0;

  Bench(sc_core::sc_module_name n, const admission::CoreConfig& cfg, std::vector<std::pair<uint32_t, uint32_t>> prog,
        std::vector<Op> o)
      : sc_module(n), core(cfg), program(std::move(prog)), ops(std::move(o)) {
    dut.clk_i(clk);
    dut.rst_ni(rst_n);
    dut.now_i(now);
    dut.cfg_valid_i(cfg_valid);
    dut.cfg_ready_o(cfg_ready);
    dut.cfg_write_i(cfg_write);
    dut.cfg_addr_i(cfg_addr);
    dut.cfg_wdata_i(cfg_wdata);
    dut.cfg_rvalid_o(cfg_rvalid);
    dut.cfg_rdata_o(cfg_rdata);
    dut.cfg_error_o(cfg_error);
    dut.req_valid_i(req_valid);
    dut.req_ready_o(req_ready);
    dut.req_in_port_i(req_in);
    dut.req_out_port_i(req_out);
    dut.req_prio_i(req_prio);
    dut.req_queue_i(req_queue);
    dut.req_cells_i(req_cells);
    dut.rsp_valid_o(rsp_valid);
    dut.rsp_verdict_o(rsp_verdict);
    dut.rsp_pfc_o(rsp_pfc);
    dut.rsp_port_pfc_o(rsp_port_pfc);
    dut.rsp_reason_o(rsp_reason);
    dut.rel_valid_i(rel_valid);
    dut.rel_ready_o(rel_ready);
    dut.rel_in_port_i(rel_in);
    dut.rel_out_port_i(rel_out);
    dut.rel_prio_i(rel_prio);
    dut.rel_queue_i(rel_queue);
    dut.rel_cells_i(rel_cells);
    dut.rel_rsp_valid_o(rel_rsp_valid);
    dut.rel_rsp_pfc_o(rel_rsp_pfc);
    dut.rel_rsp_port_pfc_o(rel_rsp_port_pfc);
    dut.stat_total_o(stat_total);
    dut.stat_hdrm_pool_o(stat_hdrm);
    dut.stat_underflow_o(stat_underflow);
    dut.dbg_addr_i(dbg_addr);
    dut.dbg_data_o(dbg_data);
    SC_HAS_PROCESS(Bench);
    SC_THREAD(run);
  }

  // Inputs change after a falling edge; outputs registered at a rising edge are read at
  // the next falling edge.
  void run() {
    rst_n = false;
    wait(clk.negedge_event());
    rst_n = true;
    for (const auto& [a, d] : program) {
      cfg_valid = true;
      cfg_write = true;
      cfg_addr = a;
      cfg_wdata = d;
      wait(clk.negedge_event());
      if (cfg_error.read()) return fail("CSR write refused at " + std::to_string(a));
    }
    cfg_valid = false;
    cfg_write = false;
    // One idle cycle: the threshold calculator loads after the last write, where the
    // core's registers stand (AdmissionCore::sync_thresholds).
    wait(clk.negedge_event());
    for (const Op& o : ops) {
      // The idle cycles since the last operation, as co-simulation clocks a gated unit
      // through them (as many as leave its threshold calculator where the core's is).
      for (uint64_t i = core.idle_clocks_before(o.r.cycle); i; --i) wait(clk.negedge_event());
      if (o.admit) {
        req_valid = true;
        req_in = o.r.in_port;
        req_out = o.r.out_port;
        req_prio = o.r.prio;
        req_queue = o.r.egress_queue();
        req_cells = o.r.cells;
      } else {
        rel_valid = true;
        rel_in = o.r.in_port;
        rel_out = o.r.out_port;
        rel_prio = o.r.prio;
        rel_queue = o.r.egress_queue();
        rel_cells = o.r.cells;
      }
      wait(clk.negedge_event());
      req_valid = false;
      rel_valid = false;
      if (o.admit) {
        const admission::Result want = core.admit(o.r);
        if (!rsp_valid.read() || rsp_verdict.read() != uint32_t(want.verdict) ||
            rsp_pfc.read() != uint32_t(want.pfc) || rsp_port_pfc.read() != uint32_t(want.port_pfc))
          return fail("admission " + std::to_string(checked) + ": expected " + admission::to_string(want.verdict) +
                      "/" + admission::to_string(want.pfc) + ", got verdict " + std::to_string(rsp_verdict.read()) +
                      " pfc " + std::to_string(rsp_pfc.read()));
      } else {
        const admission::PfcUpdate want = core.depart({o.r.in_port, o.r.out_port, o.r.prio, o.r.cells, o.r.cycle});
        if (!rel_rsp_valid.read() || rel_rsp_pfc.read() != uint32_t(want.pfc) ||
            rel_rsp_port_pfc.read() != uint32_t(want.port_pfc))
          return fail("release " + std::to_string(checked) + ": expected " + admission::to_string(want.pfc) +
                      ", got " + std::to_string(rel_rsp_pfc.read()));
      }
      if (stat_total.read() != core.total_used() || stat_hdrm.read() != core.headroom_pool_used())
        return fail("counters after operation " + std::to_string(checked) + ": total " +
                    std::to_string(core.total_used()) + "/" + std::to_string(stat_total.read()));
      ++checked;
    }
    sc_core::sc_stop();
  }
  void fail(const std::string& why) {
    report = why;
    sc_core::sc_stop();
  }
};

class SystemcCosim : public ::testing::TestWithParam<std::string> {};

TEST_P(SystemcCosim, DefaultIncastStreamRunsOnTheSystemcModeRtl) {
  const std::string policy = GetParam();
  const auto rec = test::run_in_child([&] { return record_default_ops(policy); }, 120);
  ASSERT_TRUE(rec.ok) << rec.text;
  const std::vector<Op> ops = parse_ops(rec.text);
  ASSERT_GT(ops.size(), 100000u);  // the default run makes ~2 operations per packet

  const auto res = test::run_in_child(
      [&] {
        nlohmann::json j = default_scenario_json();
        j["admission"]["policy"] = policy;
        const admission::CoreConfig cfg = load_scenario(j, "default").core_config();
        const admission::RtlParams p{32, 8, 4, 8, 32};
        Bench bench("bench", cfg, admission::encode(cfg, p), ops);
        sc_core::sc_start();
        if (!bench.report.empty()) throw std::runtime_error(bench.report);
        return std::to_string(bench.checked);
      },
      600);
  ASSERT_TRUE(res.ok) << res.text;
  EXPECT_EQ(res.text, std::to_string(ops.size()));
  std::printf("%s: %zu operations of the default incast on the SystemC-mode RTL, 0 mismatches\n", policy.c_str(),
              ops.size());
}

INSTANTIATE_TEST_SUITE_P(Policies, SystemcCosim, ::testing::Values("dt", "reverie", "dsh"),
                         [](const auto& info) { return info.param; });

}  // namespace
