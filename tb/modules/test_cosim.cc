// Co-simulation inside the SystemC model (admission.impl rtl): the Verilated
// unit decides, the golden core checks. A unit that has drifted from the core (a CSR write
// only the unit received) must stop the run at the first affected operation, with the
// report and a replayed FST waveform; software CSR writes through the switch's TLM target
// reach the unit and the cores alike.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "admission/regs.h"
#include "common/sim_time.h"
#include "config/scenario.h"
#include "cosim/rtl_engine.h"
#include "csr_master.h"
#include "sc_fork.h"
#include "sim/network.h"

namespace mmusim {
namespace {

using nlohmann::json;
using test::run_in_child;
namespace R = admission::regs;

constexpr uint64_t kUs = 1'000'000;  // ps

// Runs the default scenario on the RTL for `us` microseconds; `drift_cells` > 0 first
// reprograms the unit's buffer size (not the core's) to that many cells. `pipeline` 1:
// the pipelined unit (admission.pipeline).
test::ChildResult run_rtl(const std::string& dir, uint32_t drift_cells, uint64_t us, int pipeline = 0) {
  return run_in_child(
      [=] {
        json j = default_scenario_json();
        j["admission"]["impl"] = "rtl";
        j["admission"]["pipeline"] = pipeline;
        const Scenario sc = load_scenario(j, "default");
        Network net(sc, RunOptions{dir});
        Mmu& mmu = net.sw().mmu;
        EXPECT_NE(mmu.rtl(), nullptr);
        if (drift_cells)
          sc_core::sc_spawn([&] { mmu.rtl()->inject_unit_csr_write(R::BUFFER_CELLS_ADDR, drift_cells); });
        sc_core::sc_start(ps(us * kUs));
        return json{{"rtl_cycles", mmu.rtl_cycles()}, {"admitted", mmu.admitted()}}.dump();
      },
      300);
}

TEST(Cosim, UnitRunsTheDefaultScenario) {
  if (!RtlEngine::available()) GTEST_SKIP() << "built without Verilator";
  const std::string dir = std::filesystem::temp_directory_path() / "mmusim_cosim_ok";
  const test::ChildResult r = run_rtl(dir, 0, 20);
  ASSERT_TRUE(r.ok) << r.text;
  const json j = json::parse(r.text);
  EXPECT_GT(j.at("admitted").get<uint64_t>(), 1000u);
  // Programming plus at least one cycle per decision.
  EXPECT_GT(j.at("rtl_cycles").get<uint64_t>(), j.at("admitted").get<uint64_t>());
  EXPECT_FALSE(std::filesystem::exists(dir + "/rtl_mismatch.fst"));
  std::filesystem::remove_all(dir);
}

TEST(Cosim, DriftedUnitStopsTheRunWithReportAndWaveform) {
  if (!RtlEngine::available()) GTEST_SKIP() << "built without Verilator";
  const std::string dir = std::filesystem::temp_directory_path() / "mmusim_cosim_drift";
  std::filesystem::remove_all(dir);
  const test::ChildResult r = run_rtl(dir, 8, 20);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.text.find("RTL/C++ lockstep: first mismatch at cycle"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find(": expected "), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("rtl_mismatch.fst"), std::string::npos) << r.text;
  ASSERT_TRUE(std::filesystem::exists(dir + "/rtl_mismatch.fst"));
  EXPECT_GT(std::filesystem::file_size(dir + "/rtl_mismatch.fst"), 1000u);
  std::filesystem::remove_all(dir);
}

// The same drift on the pipelined unit, streamed: the operation is checked when the unit
// has decided it (at the next operation), and the run stops there with the report and the
// waveform replayed through it.
TEST(Cosim, DriftedPipelinedUnitStopsTheRunWithReportAndWaveform) {
  if (!RtlEngine::available()) GTEST_SKIP() << "built without Verilator";
  const std::string dir = std::filesystem::temp_directory_path() / "mmusim_cosim_drift_pipe";
  std::filesystem::remove_all(dir);
  const test::ChildResult r = run_rtl(dir, 8, 20, 1);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.text.find("RTL/C++ lockstep: first mismatch at cycle"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find(": expected "), std::string::npos) << r.text;
  ASSERT_TRUE(std::filesystem::exists(dir + "/rtl_mismatch.fst"));
  EXPECT_GT(std::filesystem::file_size(dir + "/rtl_mismatch.fst"), 1000u);
  std::filesystem::remove_all(dir);
}

// Software reprograms profile 1's threshold (dynamic, shift 1) through the switch's CSR
// socket in mid-run: the model's core, the checking core and the unit all take it, the
// unit reads it back, and the run goes on in lockstep.
TEST(Cosim, SoftwareCsrWritesReachTheUnit) {
  if (!RtlEngine::available()) GTEST_SKIP() << "built without Verilator";
  const test::ChildResult r = run_in_child(
      [] {
        json j = default_scenario_json();
        j["admission"]["impl"] = "rtl";
        const Scenario sc = load_scenario(j, "default");
        Network net(sc, RunOptions{});
        test::CsrMaster m("m");
        m.socket.bind(net.sw().csr.socket);
        m.start_ps = 5 * kUs;
        const uint32_t mode1 = R::IPROF_MODE_ADDR + 1 * R::IPROF_STRIDE, value = 2 | 1u << 8 | 1u << 16;
        json out;
        m.body = [&] {
          out["status"] = m.write(mode1, value) == tlm::TLM_OK_RESPONSE;
          out["unit"] = net.sw().mmu.rtl()->csr_read(mode1);
          out["shift"] = int(net.sw().mmu.core().config().ingress_profiles[1].th.shift);
        };
        sc_core::sc_start(ps(20 * kUs));
        out["want"] = value;
        out["admitted"] = net.sw().mmu.admitted();
        return out.dump();
      },
      300);
  ASSERT_TRUE(r.ok) << r.text;
  const json j = json::parse(r.text);
  EXPECT_EQ(j.at("status"), true);
  EXPECT_EQ(j.at("unit"), j.at("want"));
  EXPECT_EQ(j.at("shift"), 1);
  EXPECT_GT(j.at("admitted").get<uint64_t>(), 1000u);
}

// The co-simulation runs on a unit built for the configuration's policy alone
// (rtl_engine.cc); software switching to another policy moves it to the unit with all six,
// the operations so far replayed into it. At 0 ps the buffer is empty, so the write takes
// and the run goes on under reverie; at 5 us (traffic in the buffer) the replay covers the
// operations so far and unit and cores agree on the write (refused while busy, or taken).
TEST(Cosim, SoftwarePolicySwitchMovesToTheUnitWithEveryPolicy) {
  if (!RtlEngine::available()) GTEST_SKIP() << "built without Verilator";
  for (const uint64_t at_ps : {uint64_t(0), 5 * kUs}) {
    const test::ChildResult r = run_in_child(
        [at_ps] {
          json j = default_scenario_json();
          j["admission"]["impl"] = "rtl";
          const Scenario sc = load_scenario(j, "default");
          Network net(sc, RunOptions{});
          test::CsrMaster m("m");
          m.socket.bind(net.sw().csr.socket);
          m.start_ps = at_ps;
          json out;
          m.body = [&] {
            const uint32_t ctrl = m.read_ok(R::CTRL_ADDR);
            const uint32_t want = (ctrl & ~R::CTRL_POLICY_MASK) | R::CTRL_POLICY_REVERIE << R::CTRL_POLICY_LSB;
            out["status"] = m.write(R::CTRL_ADDR, want) == tlm::TLM_OK_RESPONSE;
            out["unit"] = net.sw().mmu.rtl()->csr_read(R::CTRL_ADDR) & R::CTRL_POLICY_MASK;
            out["core"] = net.sw().mmu.core().config().policy;
          };
          sc_core::sc_start(ps(20 * kUs));
          out["admitted"] = net.sw().mmu.admitted();
          return out.dump();
        },
        300);
    ASSERT_TRUE(r.ok) << at_ps << " ps: " << r.text;
    const json j = json::parse(r.text);
    EXPECT_GT(j.at("admitted").get<uint64_t>(), 1000u);
    const bool taken = j.at("core") == "reverie";
    EXPECT_EQ(j.at("unit"), taken ? R::CTRL_POLICY_REVERIE : R::CTRL_POLICY_DT) << at_ps;
    EXPECT_EQ(j.at("status"), taken) << at_ps;
    if (at_ps == 0) EXPECT_TRUE(taken) << "an empty buffer takes the policy write";
  }
}

// The same on the engine alone, after operations: their replay into the unit with every
// policy, then the run goes on in lockstep under the new policy. Without the move the
// dt-only unit would refuse the write the core takes: a mismatch. Likewise for the
// pipelined unit (admission.pipeline 1: Vmmu_cosim_pipe_dt, then Vmmu_cosim_pipe_all).
TEST(Cosim, PolicySwitchAfterOperationsReplaysThemIntoTheUnitWithEveryPolicy) {
  if (!RtlEngine::available()) GTEST_SKIP() << "built without Verilator";
  for (const uint32_t pipe : {0u, 1u}) {
    const test::ChildResult r = run_in_child(
        [pipe] {
          const Scenario sc = load_scenario(default_scenario_json(), "default");
          Network net(sc, RunOptions{});
          admission::CoreConfig cfg = net.sw().mmu.core().config();
          cfg.pipe = pipe;
          RtlEngine eng(cfg, "", 1000);
          uint64_t cycle = 0;
          // 300 requests, then the admitted ones released: the buffer is empty again.
          auto traffic = [&] {
            std::vector<admission::Departure> in;
            for (uint32_t i = 0; i < 300; ++i) {
              const admission::Request q{i % 8, 8 + i % 8, uint8_t(i % cfg.prios), 1 + i % 7, cycle += 1 + i % 3};
              if (eng.admit(q).verdict != admission::Verdict::kDrop)
                in.push_back({q.in_port, q.out_port, q.prio, q.cells, 0});
            }
            for (admission::Departure& d : in) {
              d.cycle = cycle += 2;
              eng.depart(d);
            }
            return in.size();
          };
          json out;
          out["before"] = traffic();
          const uint32_t ctrl = eng.csr_read(R::CTRL_ADDR);
          eng.csr_write(R::CTRL_ADDR, (ctrl & ~R::CTRL_POLICY_MASK) | R::CTRL_POLICY_REVERIE << R::CTRL_POLICY_LSB);
          out["policy"] = eng.csr_read(R::CTRL_ADDR) & R::CTRL_POLICY_MASK;
          out["after"] = traffic();
          eng.finish();  // the pipelined unit's last operations decided and checked
          return out.dump();
        },
        300);
    ASSERT_TRUE(r.ok) << "pipeline " << pipe << ": " << r.text;
    const json j = json::parse(r.text);
    EXPECT_EQ(j.at("policy"), R::CTRL_POLICY_REVERIE) << pipe;
    EXPECT_GT(j.at("before").get<uint64_t>(), 100u) << pipe;
    EXPECT_GT(j.at("after").get<uint64_t>(), 100u) << pipe;
  }
}

}  // namespace
}  // namespace mmusim
