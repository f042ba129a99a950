// Values that used to hang a run, fill the disk or end in a model error (issue 12, item
// 4): each is refused by the loader through the real binary, naming the field, with exit
// 1 and nothing written; the documented bounds themselves are accepted.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_harness.h"

namespace {

namespace fs = std::filesystem;
using cli_harness::expect_error;
using cli_harness::Result;
using cli_harness::run_mmusim;

class Ranges : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/mmusim_ranges_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    m_dir = tmpl;
  }
  void TearDown() override { fs::remove_all(m_dir); }

  // `run` of the default scenario with the overrides; nothing may be written.
  void refused(const std::vector<std::string>& sets, std::initializer_list<std::string> needles,
               const std::string& scenario = "") {
    std::vector<std::string> args = {"run", "--quiet", "--out", m_dir + "/out"};
    if (!scenario.empty()) args.push_back(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/" + scenario);
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    expect_error(run_mmusim(args), 1, needles);
    EXPECT_FALSE(fs::exists(m_dir + "/out")) << "a refused scenario wrote its output directory";
  }
  // `check` accepts the overrides.
  void accepted(const std::vector<std::string>& sets, const std::string& scenario = "default.json") {
    std::vector<std::string> args = {"check", std::string(MMUSIM_SOURCE_DIR) + "/scenarios/" + scenario};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    const Result r = run_mmusim(args);
    EXPECT_EQ(r.code, 0) << r.out;
  }

  std::string m_dir;
};

TEST_F(Ranges, SampleIntervalThatWouldFillTheDisk) {
  refused({"output.sample_interval_ns=0.001"}, {"output.sample_interval_ns", "at least 10 ns"});
  refused({"output.sample_interval_ns=9.999"}, {"output.sample_interval_ns", "at least 10 ns"});
  accepted({"output.sample_interval_ns=10"});
  // 10^7 rows per file at most: 100 s at the default 1 us is refused, 9.999 s is not.
  refused({"duration_us=100000000"}, {"output.sample_interval_ns", "at most 10^7"});
  accepted({"duration_us=9999999"});
}

TEST_F(Ranges, PfcRefreshThatWouldHang) {
  refused({"pfc.refresh_fraction=1e-300"}, {"pfc.refresh_fraction", "shorter than one PFC frame"});
  // 1 quantum x 512 x 0.5 = 256 bit times < 84 B = 672 bit times on the wire.
  refused({"pfc.pause_quanta=1"}, {"pfc.refresh_fraction", "256", "672"});
  // The bound: pause_quanta x 512 x fraction >= (64 + wire_overhead_bytes) x 8.
  accepted({"pfc.pause_quanta=2", "pfc.refresh_fraction=0.65625"});
  refused({"pfc.pause_quanta=2", "pfc.refresh_fraction=0.65"}, {"pfc.refresh_fraction"});
}

TEST_F(Ranges, BfcRefreshThatWouldHang) {
  refused({"bfc.enabled=true", "bfc.refresh_ns=0.001"}, {"bfc.refresh_ns", "6.72 ns"});
  // One 64 B frame + 20 B overhead at 100 Gb/s is 6.72 ns.
  accepted({"bfc.enabled=true", "bfc.refresh_ns=6.72"});
  refused({"bfc.enabled=true", "bfc.refresh_ns=6.71"}, {"bfc.refresh_ns"});
}

TEST_F(Ranges, RatesBelowOneMegabitAreNamedNotModelErrors) {
  refused({"topology.rate_gbps=1e-9"}, {"topology.rate_gbps", "at least 1 Mb/s"});
  refused({"topology.port_overrides.Ethernet4.rate_gbps=1e-9"},
          {"topology.port_overrides.Ethernet4.rate_gbps", "at least 1 Mb/s"});
  refused({"traffic.1.rate_gbps=0.0009"}, {"traffic[1].rate_gbps", "at least 1 Mb/s"});
  refused({"topology.generator.rate_gbps=1e-9"}, {"topology.generator.rate_gbps"}, "dsh_collateral.json");
  refused({"topology.generator.host_rate_gbps=1e-9"}, {"topology.generator.host_rate_gbps"}, "leaf_spine.json");
  refused({"topology.generator.oversubscription=1000", "topology.generator.host_rate_gbps=0.001"},
          {"topology.generator.oversubscription", "below 1 Mb/s"}, "leaf_spine.json");
  // 1 Mb/s itself: the pause time of 65535 quanta (33.6 s) is a plain number of ps.
  accepted({"topology.port_overrides.Ethernet68.rate_gbps=0.001"});  // h17, idle
}

TEST_F(Ranges, MmuClockBothWays) {
  refused({"mmu.clock_mhz=1e-6"}, {"mmu.clock_mhz", "[1, 10000] MHz"});  // a 1 s clock
  refused({"mmu.clock_mhz=0.999"}, {"mmu.clock_mhz"});
  refused({"mmu.clock_mhz=10001"}, {"mmu.clock_mhz"});
  accepted({"mmu.clock_mhz=1"});
  accepted({"mmu.clock_mhz=10000"});
}

TEST_F(Ranges, IntervalsShorterThanTheirUnit) {
  // ABM counts its interval in MMU cycles (1 ns at 1 GHz): no silent round-up to a cycle.
  refused({"admission.abm.interval_ns=0.5"}, {"admission.abm.interval_ns", "one MMU clock cycle"});
  accepted({"admission.abm.interval_ns=1"});
  // At most 2^20-cycle intervals (the RTL takes a 12-bit interval number from cycle bits 0..31): below 2^21 cycles.
  refused({"admission.abm.interval_ns=2097152"}, {"admission.abm.interval_ns", "2^21 - 1"});
  accepted({"admission.abm.interval_ns=2097151"});
  refused({"host.acks.enabled=true", "host.acks.rto_us=0.5"}, {"host.acks.rto_us", "at least 1 us"});
  accepted({"host.acks.enabled=true", "host.acks.rto_us=1"});
}

TEST_F(Ranges, GeneratorsStartingFlowsFasterThanFrames) {
  const std::string g = "traffic.1.";
  // traffic[1] is the background: line rate 100 Gb/s, so one 64 B frame takes 5.12 ns.
  refused({g + "type=onoff", g + "on_us=0.005", g + "off_us=1"}, {"traffic[1].on_us", "64 B frame"});
  accepted({g + "type=onoff", g + "on_us=0.00512", g + "off_us=1"});
  // The incast's bursts, likewise (traffic[0]: 4 bursts from 100 Gb/s senders).
  refused({"traffic.0.period_us=0.005"}, {"traffic[0].period_us", "64 B frame"});
  accepted({"traffic.0.period_us=0.00512"});
  // Poisson arrivals (leaf_spine traffic[0], load 0.3): a flow starts at least one 64 B
  // frame time apart on average, mean size >= 64 B x 0.3 = 19.2 B; and the mean gap
  // stays within 2^62 ps.
  refused({"traffic.0.size.mean_bytes=19"}, {"traffic[0].size", ">= 64 B x load"}, "leaf_spine.json");
  accepted({"traffic.0.size.mean_bytes=20"}, "leaf_spine.json");
  refused({"traffic.0.load=1e-300"}, {"traffic[0].load", "2^62 ps"}, "leaf_spine.json");
}

// The admission unit's PIPE: 0, 1 or 3, and 3 only with the policies the four-stage unit has.
TEST_F(Ranges, AdmissionPipelineNamesTheFieldAndThePolicy) {
  refused({"admission.pipeline=2"}, {"admission.pipeline", "must be 0, 1 or 3, got 2"});
  refused({"admission.pipeline=-1"}, {"admission.pipeline", "got -1"});
  refused({"admission.policy=reverie", "admission.pipeline=3"}, {"admission.pipeline", "not reverie"});
  accepted({"admission.policy=sih", "admission.pipeline=3"});
}

}  // namespace
