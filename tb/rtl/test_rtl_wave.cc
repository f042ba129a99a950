// The unit's FST waveform (cosim/rtl_wave.h) on a hand-computed sequence: reset at cycle
// 1, the N programming writes at cycles 2..N+1, an idle cycle, then operations issued at
// MMU cycles A, A (the second goes to A+1), A+5 and A+9 (a release and a request in one
// cycle on the dual-issue unit). Every rising edge at cycle x the clock period, the inputs
// a quarter period before it, the clock standing still between, the header's date fixed
// and the file ending at the last falling edge.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "Vmmu_mid.h"
#include "../common/fst_read.h"
#include "admission/regfile.h"
#include "cosim/lockstep.h"
#include "rtl_test_configs.h"

using namespace mmusim;
using namespace mmusim::rtl;
using namespace mmusim::rtl::testcfg;

namespace {

TEST(RtlWave, CyclesSitAtTheirMmuCyclesTimesThePeriod) {
  constexpr uint64_t P = 800;  // ps, not the default: the period must come through
  const std::string path = "/tmp/mmusim_rtl_wave_" + std::to_string(getpid()) + ".fst";
  uint64_t n = 0, a = 0;
  {
    Lockstep<Vmmu_mid> ls(directed_config(kMid, "dt"), kMid, path, P);
    n = admission::encode(ls.config(), ls.rtl_params()).size();
    a = n + 1000;
    const admission::Request r1{0, 1, kLy, 4, a}, r2{2, 1, kLy, 3, a}, r3{3, 1, kLy, 2, a + 9};
    ls.admit(r1);
    ls.admit(r2);
    ls.depart({0, 1, kLy, 4, a + 5});
    ls.depart_and_admit({2, 1, kLy, 3, a + 9}, r3);
    ASSERT_FALSE(ls.mismatch().any) << ls.mismatch().report;
    ls.unit().close_wave();
  }
  const test::FstFile f = test::read_fst(path, {"clk_i", "cfg_valid_i", "req_valid_i", "rel_valid_i", "now_i"});
  std::remove(path.c_str());
  ASSERT_TRUE(f.ok);
  EXPECT_EQ(f.timescale, -12);
  EXPECT_EQ(f.date, Wave::kDate);
  EXPECT_EQ(f.end_time, (a + 9) * P + P / 2);

  std::map<std::string, std::string> v;
  std::vector<uint64_t> cfg_rises;
  std::vector<std::pair<uint64_t, std::string>> op_rises;  // time, "req"/"rel"/"req+rel"
  std::vector<uint64_t> req_up, req_down;
  for (const auto& c : f.changes) {
    if (c.signal == "req_valid_i" && v.count(c.signal) && c.bits != v[c.signal])
      (c.bits == "1" ? req_up : req_down).push_back(c.time);
    const bool rise = c.signal == "clk_i" && c.bits == "1" && v["clk_i"] == "0";
    v[c.signal] = c.bits;
    if (!rise) continue;
    if (v["cfg_valid_i"] == "1") cfg_rises.push_back(c.time);
    const bool req = v["req_valid_i"] == "1", rel = v["rel_valid_i"] == "1";
    if (req || rel) {
      op_rises.push_back({c.time, req && rel ? "req+rel" : req ? "req" : "rel"});
      // The second request of cycle A was issued in A.
      if (req) {
        EXPECT_EQ(std::stoull(v["now_i"], nullptr, 2), c.time / P == a + 1 ? a : c.time / P);
      }
    }
  }
  std::vector<uint64_t> want_cfg;
  for (uint64_t c = 2; c <= n + 1; ++c) want_cfg.push_back(c * P);
  EXPECT_EQ(cfg_rises, want_cfg);
  const std::vector<std::pair<uint64_t, std::string>> want_ops = {
      {a * P, "req"}, {(a + 1) * P, "req"}, {(a + 5) * P, "rel"}, {(a + 9) * P, "req+rel"}};
  EXPECT_EQ(op_rises, want_ops);
  // The request inputs: up a quarter period before each edge, down at its falling edge.
  EXPECT_EQ(req_up, (std::vector<uint64_t>{a * P - P / 4, (a + 1) * P - P / 4, (a + 9) * P - P / 4}));
  EXPECT_EQ(req_down, (std::vector<uint64_t>{a * P + P / 2, (a + 1) * P + P / 2, (a + 9) * P + P / 2}));
  // Clock-gated: no edge between the idle cycle after programming and cycle A.
  uint64_t between = 0;
  std::string clk = "0";
  for (const auto& c : f.changes)
    if (c.signal == "clk_i") {
      between += c.bits == "1" && clk == "0" && c.time > (n + 2) * P && c.time < a * P;
      clk = c.bits;
    }
  EXPECT_EQ(between, 0u);
}

}  // namespace
