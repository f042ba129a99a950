// Module tests: Mmu (default scenario: 32 x 100 Gb/s, 256 B cells, priority 3 lossless);
// its per-port records (ingress cells and peak, queued and transmitted bytes) through the
// ingress peaks and INT records, by hand and against a reference on random streams.
// Expected numbers are hand-computed in the comments (figures: module_bench.h).
#include <cstdio>
#include <cstdlib>
#include <random>

#include "module_bench.h"

namespace mmusim {
namespace {

using namespace modtest;

// Script (AdmissionIf) -> Mmu -> PfcEventStub.
struct MmuBench {
  Scenario sc;
  Script src{"src"};
  Mmu mmu{"mmu", mmu_config(sc, 0)};
  PfcEventStub pfc{"pfcstub"};
  explicit MmuBench(Scenario s = load_scenario(default_scenario_json(), "default")) : sc(std::move(s)) {
    src.mmu.bind(mmu.admission_export);
    mmu.pfc.bind(pfc.exp);
  }
  static Packet pkt(uint16_t in, uint16_t out, uint8_t prio, uint32_t cells) {
    Packet p;
    p.in_port = in;
    p.out_port = out;
    p.prio = prio;
    p.tc = prio;  // identity class maps unless a test says otherwise
    p.cells = cells;
    p.bytes = cells * 256;
    return p;
  }
  json snapshot() const {
    const auto& c = mmu.core();
    return {{"lossless", mmu.occupancy().lossless.value()},
            {"lossy", mmu.occupancy().lossy.value()},
            {"headroom", mmu.occupancy().headroom.value()},
            {"total", mmu.occupancy().total.value()},
            {"core_total_cells", c.total_used()},
            {"ing_1_3", c.ingress_cells(1, 3)},
            {"hdrm_1_3", c.headroom_cells(1, 3)},
            {"egr_0_3", c.egress_cells(0, 3)},
            {"buffered", mmu.buffered_packets()},
            {"admitted", mmu.admitted()},
            {"admitted_headroom", mmu.admitted_headroom()}};
  }
};

TEST(Mmu, AdmitAndDepartKeepClassOccupancyConsistent) {
  const json j = parse_ok(run_in_child([] {
    MmuBench b;
    // Lossless PG (port 1, prio 3): alpha = 1 on the 14,680,064 B ingress pool = 57,344 cells,
    // so XOFF once the shared occupancy s >= 57,344 - s, i.e. s >= 28,672 = 7 x 4096 cells.
    std::vector<Packet> big(7, MmuBench::pkt(1, 0, 3, 4096));
    Packet lossy = MmuBench::pkt(2, 0, 1, 4);
    Packet small = MmuBench::pkt(1, 0, 3, 100);  // headroom: 100 <= 699 cells (safe headroom)
    json j;
    b.src.at(200 * kUs, [&] {
      for (auto& p : big) j["admit_big"].push_back(b.src.mmu->admit(p));
      j["admit_lossy"] = b.src.mmu->admit(lossy);
      j["s1"] = b.snapshot();
    });
    b.src.at(300 * kUs, [&] {
      j["admit_small"] = b.src.mmu->admit(small);
      j["small_headroom"] = small.headroom;
      j["s2"] = b.snapshot();
    });
    b.src.at(400 * kUs, [&] {
      b.src.mmu->depart(big[0]);  // headroom drains first: 100 from headroom, 3996 shared
      j["s3"] = b.snapshot();
    });
    b.src.at(500 * kUs, [&] {
      for (size_t i = 1; i < big.size(); ++i) b.src.mmu->depart(big[i]);
      b.src.mmu->depart(small);
      b.src.mmu->depart(lossy);
      j["s4"] = b.snapshot();
    });
    sc_core::sc_start(ps(1500 * kUs));
    b.mmu.finish(1500 * kUs);
    j["headroom_mean"] = b.mmu.occupancy().headroom.mean();
    j["headroom_max"] = b.mmu.occupancy().headroom.max();
    for (const auto& e : b.pfc.got)
      j["pfc"].push_back({{"t", e.t}, {"port", e.port}, {"prio", e.prio}, {"e", admission::to_string(e.e)}});
    return j.dump();
  }));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.at("admit_big"), json({true, true, true, true, true, true, true}));
  EXPECT_EQ(j.at("admit_lossy"), true);
  const json& s1 = j.at("s1");
  EXPECT_EQ(s1.at("lossless"), 28'672 * 256);
  EXPECT_EQ(s1.at("lossy"), 4 * 256);
  EXPECT_EQ(s1.at("headroom"), 0);
  EXPECT_EQ(s1.at("total"), (28'672 + 4) * 256);
  EXPECT_EQ(s1.at("buffered"), 8);

  EXPECT_EQ(j.at("admit_small"), true);
  EXPECT_EQ(j.at("small_headroom"), true);
  const json& s2 = j.at("s2");
  EXPECT_EQ(s2.at("headroom"), 100 * 256);
  EXPECT_EQ(s2.at("lossless"), 28'672 * 256);
  EXPECT_EQ(s2.at("total"), (28'672 + 4 + 100) * 256);
  EXPECT_EQ(s2.at("admitted_headroom"), 1);
  // Class bytes add up to the buffer total.
  EXPECT_EQ(s2.at("lossless").get<uint64_t>() + s2.at("lossy").get<uint64_t>() + s2.at("headroom").get<uint64_t>(),
            s2.at("total").get<uint64_t>());

  const json& s3 = j.at("s3");
  EXPECT_EQ(s3.at("headroom"), 0);
  EXPECT_EQ(s3.at("hdrm_1_3"), 0);
  EXPECT_EQ(s3.at("ing_1_3"), 28'672 - 3'996);
  EXPECT_EQ(s3.at("lossless"), (28'672 - 3'996) * 256);
  EXPECT_EQ(s3.at("total"), (28'672 - 3'996 + 4) * 256);

  const json& s4 = j.at("s4");
  for (const char* k : {"lossless", "lossy", "headroom", "total", "core_total_cells", "ing_1_3", "egr_0_3", "buffered"})
    EXPECT_EQ(s4.at(k), 0) << k;
  EXPECT_EQ(s4.at("admitted"), 9);

  // XOFF with the headroom admission, XON when headroom emptied and s + xon_offset (10
  // cells) <= threshold (57,344 - 24,676).
  const json& pfc = j.at("pfc");
  ASSERT_EQ(pfc.size(), 2u) << pfc.dump();
  EXPECT_EQ(pfc[0], json({{"t", 300 * kUs}, {"port", 1}, {"prio", 3}, {"e", "xoff"}}));
  EXPECT_EQ(pfc[1], json({{"t", 400 * kUs}, {"port", 1}, {"prio", 3}, {"e", "xon"}}));

  // Headroom held 25,600 B for 100 us of the 1400 us window: mean 25,600 / 14.
  EXPECT_NEAR(j.at("headroom_mean").get<double>(), 25'600.0 / 14.0, 1e-6);
  EXPECT_EQ(j.at("headroom_max"), 25'600);
}

// The threshold statistic of the representative lossless PG (0, 3), the core's threshold
// and the pool as the thresholds read it.
json threshold_record(const Mmu& m) {
  const auto& core = m.core();
  return {{"stat", m.occupancy().th_lossless.value()},
          {"core", core.ingress_threshold(0, 3) * 256},
          {"pool_used", core.threshold_pool_used(core.threshold_form(true, 0, 3).pool)}};
}

// The threshold statistics follow a configuration change that leaves the pool that sets
// them as it was (their forms are read again, not only the pool): the lossless
// PG's alpha halved between two headroom admissions (which charge no ingress pool). The
// representative lossless PG is (0, 3), on the ingress pool of 57,344 cells of which the
// seven 4,096-cell packets hold 28,672: 28,672 x 256 B, then half of that.
// Without WRED, INT, RTL or traces an operation takes the path without their tests
// (Mmu::note_rare); a hook set once the MMU is built must still see every operation.
TEST(Mmu, AnOpHookSetAfterConstructionSeesEveryOperation) {
  const json j = parse_ok(run_in_child([] {
    MmuBench b;
    json ops = json::array();
    b.mmu.set_op_hook([&](bool admit, const admission::Request& op) {
      ops.push_back({admit, op.in_port, op.out_port, op.prio, op.cells});
    });
    Packet p1 = MmuBench::pkt(1, 0, 3, 4), p2 = MmuBench::pkt(2, 5, 1, 2);
    b.src.at(10 * kUs, [&] {
      b.src.mmu->admit(p1);
      b.src.mmu->admit(p2);
    });
    b.src.at(20 * kUs, [&] { b.src.mmu->depart(p1); });
    sc_core::sc_start(ps(100 * kUs));
    return ops.dump();
  }));
  EXPECT_EQ(j, json({{true, 1, 0, 3, 4}, {true, 2, 5, 1, 2}, {false, 1, 0, 3, 4}}));
}

TEST(Mmu, ThresholdStatisticFollowsAConfigurationChangeThatLeavesItsPool) {
  const json j = parse_ok(run_in_child([] {
    MmuBench b;
    std::vector<Packet> big(7, MmuBench::pkt(1, 0, 3, 4096));
    Packet s1 = MmuBench::pkt(1, 0, 3, 100), s2 = MmuBench::pkt(1, 0, 3, 100);
    json j;
    const auto& core = b.mmu.core();
    const auto record = [&](const char* k) { j[k] = threshold_record(b.mmu); };
    b.src.at(200 * kUs, [&] {
      for (auto& p : big) b.src.mmu->admit(p);
    });
    b.src.at(300 * kUs, [&] {
      j["s1_headroom"] = b.src.mmu->admit(s1) && s1.headroom;
      record("before");
    });
    b.src.at(350 * kUs, [&] {
      admission::CoreConfig cfg = core.config();
      cfg.ingress_profiles[cfg.pg_profile[3]].th.shift = -1;
      b.mmu.core_mut().reconfigure(cfg);
    });
    b.src.at(400 * kUs, [&] {
      j["s2_headroom"] = b.src.mmu->admit(s2) && s2.headroom;
      record("after");
    });
    sc_core::sc_start(ps(500 * kUs));
    return j.dump();
  }));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.at("s1_headroom"), true);
  EXPECT_EQ(j.at("s2_headroom"), true);
  EXPECT_EQ(j.at("before").at("stat"), 28'672 * 256);
  EXPECT_EQ(j.at("before").at("core"), 28'672 * 256);
  EXPECT_EQ(j.at("after").at("pool_used"), j.at("before").at("pool_used"));  // the test's premise
  EXPECT_EQ(j.at("after").at("stat"), 14'336 * 256);
  EXPECT_EQ(j.at("after").at("core"), 14'336 * 256);
}

// An occupancy the threshold statistic saw before a CSR write (alpha halved) reads the
// new threshold when the pool returns to it (a statistic keeping its values by occupancy
// across the write would read the stale one).
TEST(Mmu, ThresholdStatisticKeptByOccupancyFollowsAConfigurationChange) {
  const json j = parse_ok(run_in_child([] {
    MmuBench b;
    std::vector<Packet> big(3, MmuBench::pkt(1, 0, 3, 4096));
    Packet p = MmuBench::pkt(1, 0, 3, 3000);
    json j;
    const auto& core = b.mmu.core();
    const auto record = [&](const char* k) { j[k] = threshold_record(b.mmu); };
    b.src.at(200 * kUs, [&] {
      for (auto& q : big) b.src.mmu->admit(q);
    });
    const auto admit_depart = [&](uint64_t at, const char* a, const char* d) {
      b.src.at(at, [&, a] {
        j[std::string(a) + "_ok"] = b.src.mmu->admit(p);
        record(a);
      });
      b.src.at(at + 10 * kUs, [&, d] {
        b.src.mmu->depart(p);
        record(d);
      });
    };
    admit_depart(250 * kUs, "admit_old", "depart_old");
    b.src.at(300 * kUs, [&] {
      admission::CoreConfig cfg = core.config();
      cfg.ingress_profiles[cfg.pg_profile[3]].th.shift = -1;
      b.mmu.core_mut().reconfigure(cfg);
    });
    admit_depart(350 * kUs, "admit_new", "depart_new");
    sc_core::sc_start(ps(500 * kUs));
    return j.dump();
  }));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.at("admit_old_ok"), true);
  EXPECT_EQ(j.at("admit_new_ok"), true);
  // The premise (the calculator registers the pools before each operation): the pool (as the thresholds read it) returns to where it was.
  EXPECT_EQ(j.at("depart_new").at("pool_used"), j.at("depart_old").at("pool_used"));
  EXPECT_NE(j.at("depart_new").at("pool_used"), j.at("admit_new").at("pool_used"));
  for (const char* k : {"admit_old", "depart_old", "admit_new", "depart_new"})
    EXPECT_EQ(j.at(k).at("stat"), j.at(k).at("core")) << k;
  // alpha 1 -> 1/2: the shared space in cells halved, rounded down.
  EXPECT_EQ(j.at("depart_new").at("stat").get<uint64_t>(), j.at("depart_old").at("stat").get<uint64_t>() / 256 / 2 * 256);
}

// The pipelined unit (admission.pipeline 1): the XOFF of the headroom admission at 300 us
// and the XON of the release at 400 us (as above) reach the PFC generator one MMU clock
// period (1 ns at 1000 MHz) after their decision edges; the verdict and the counters are
// there at the edge.
TEST(Mmu, APipelinedUnitsPfcEventsComeOneCycleAfterTheDecision) {
  const json j = parse_ok(run_in_child([] {
    json s = default_scenario_json();
    s["admission"]["pipeline"] = 1;
    MmuBench b(load_scenario(s, "default"));
    std::vector<Packet> big(7, MmuBench::pkt(1, 0, 3, 4096));
    Packet small = MmuBench::pkt(1, 0, 3, 100);
    json j;
    j["delay_ps"] = b.mmu.verdict_delay_ps();
    b.src.at(200 * kUs, [&] {
      for (auto& p : big) b.src.mmu->admit(p);
    });
    b.src.at(300 * kUs, [&] {
      j["admit_small"] = b.src.mmu->admit(small);
      j["small_headroom"] = small.headroom;
      j["hdrm_at_edge"] = b.mmu.core().headroom_cells(1, 3);
      j["pfc_at_edge"] = b.pfc.got.size();
    });
    b.src.at(400 * kUs, [&] { b.src.mmu->depart(big[0]); });
    sc_core::sc_start(ps(1500 * kUs));
    for (const auto& e : b.pfc.got)
      j["pfc"].push_back({{"t", e.t}, {"port", e.port}, {"prio", e.prio}, {"e", admission::to_string(e.e)}});
    return j.dump();
  }));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.at("delay_ps"), 1000);
  EXPECT_EQ(j.at("admit_small"), true);
  EXPECT_EQ(j.at("small_headroom"), true);
  EXPECT_EQ(j.at("hdrm_at_edge"), 100);
  EXPECT_EQ(j.at("pfc_at_edge"), 0);
  const json& pfc = j.at("pfc");
  ASSERT_EQ(pfc.size(), 2u) << pfc.dump();
  EXPECT_EQ(pfc[0], json({{"t", 300 * kUs + 1000}, {"port", 1}, {"prio", 3}, {"e", "xoff"}}));
  EXPECT_EQ(pfc[1], json({{"t", 400 * kUs + 1000}, {"port", 1}, {"prio", 3}, {"e", "xon"}}));
}

TEST(Mmu, DepartureOfAPacketNeverAdmittedStopsTheModel) {
  const ChildResult r = run_in_child([] {
    MmuBench b;
    b.src.at(200 * kUs, [&] { b.src.mmu->depart(MmuBench::pkt(1, 0, 3, 6)); });
    sc_core::sc_start(ps(1500 * kUs));
    return std::string("simulation finished");
  });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.text.find("SystemC error"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("departure of a packet in_port=1 out_port=0 prio=3 cells=6"), std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("counter underflow: ingress queue"), std::string::npos) << r.text;
}

TEST(Mmu, DepartureToTheWrongEgressQueueNamesThatCounter) {
  const ChildResult r = run_in_child([] {
    MmuBench b;
    Packet p = MmuBench::pkt(1, 0, 1, 6);
    b.src.at(200 * kUs, [&] {
      if (!b.src.mmu->admit(p)) throw std::runtime_error("not admitted");
      p.out_port = 2;  // as if the egress port departed it from another queue
      b.src.mmu->depart(p);
    });
    sc_core::sc_start(ps(1500 * kUs));
    return std::string("simulation finished");
  });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.text.find("counter underflow: egress queue"), std::string::npos) << r.text;
}

// Every pool's statistic follows its pool, past the four that Mmu::update_stats sets
// without a loop: three more egress pools (six in all), one for each of queues 0-2 of port 0,
// each charged by a packet of its TC from port 1 and released again.
TEST(Mmu, PoolStatisticsFollowEveryPoolPastTheFourth) {
  const json j = parse_ok(run_in_child([] {
    json cfg = small_scenario_json();
    auto& buf = cfg["buffer"];
    for (int k = 0; k < 3; ++k) {
      const std::string pool = "egress_extra_pool" + std::to_string(k), prof = "egress_extra_profile" + std::to_string(k);
      buf["BUFFER_POOL"][pool] = {{"size", "1048576"}, {"type", "egress"}, {"mode", "dynamic"}};
      buf["BUFFER_PROFILE"][prof] = {{"pool", pool}, {"size", "0"}, {"dynamic_th", "0"}};
      buf["BUFFER_QUEUE"]["Ethernet0|" + std::to_string(k)] = {{"profile", prof}};
    }
    buf["BUFFER_QUEUE"].erase("Ethernet0,Ethernet4,Ethernet8,Ethernet12|0-2");
    buf["BUFFER_QUEUE"]["Ethernet4,Ethernet8,Ethernet12|0-2"] = {{"profile", "egress_lossy_profile"}};
    MmuBench b(load_scenario(cfg, "module-test"));
    std::vector<Packet> pk{MmuBench::pkt(1, 0, 0, 4), MmuBench::pkt(1, 0, 1, 5), MmuBench::pkt(1, 0, 2, 6)};
    json j;
    const auto record = [&] {
      json r;
      for (size_t i = 0; i < b.mmu.pools().size(); ++i)
        r.push_back({b.mmu.pools()[i].value(), b.mmu.core().pool_used(uint16_t(i)) * 256});
      j["records"].push_back(r);
    };
    b.src.at(200 * kUs, [&] {
      for (auto& p : pk) {
        j["admitted"].push_back(b.src.mmu->admit(p));
        record();
      }
    });
    b.src.at(300 * kUs, [&] {
      for (auto& p : pk) {
        b.src.mmu->depart(p);
        record();
      }
      for (const auto& s : b.mmu.pools()) j["max"].push_back(s.max());
    });
    sc_core::sc_start(ps(500 * kUs));
    return j.dump();
  }));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.at("admitted"), json({true, true, true}));
  const json& records = j.at("records");
  ASSERT_EQ(records.size(), 6u);
  ASSERT_EQ(records[0].size(), 6u);  // the test's premise: six pools
  uint64_t past_fourth = 0;  // the pools past the fourth hold cells at some point
  for (const json& r : records)
    for (size_t i = 0; i < r.size(); ++i) {
      EXPECT_EQ(r[i][0], r[i][1]) << r.dump() << " pool " << i;
      if (i >= 4) past_fourth += r[i][1].get<uint64_t>();
    }
  EXPECT_GT(past_fourth, 0u);
  for (size_t i = 0; i < records[2].size(); ++i) EXPECT_EQ(j.at("max")[i], records[2][i][1]) << i;  // all held at once
  for (const json& v : records[5]) EXPECT_EQ(v[1], 0);
}

// TCs 0-2 share PG 0 at every ingress port (tc_to_pg_map), queues stay TC = queue; queue 2
// has a static threshold of 10 cells (2560 B), queue 1 the default lossy profile (6 cells
// reserved, alpha 1 on the 57,344-cell egress_lossy_pool). h1 -> h0 (port 1 -> port 0):
//   TC 2, 8 cells: queue 2 shared 0 < 10: admitted      (egress (0,2) = 8)
//   TC 2, 8 cells: shared 8 < 10: admitted               (egress (0,2) = 16)
//   TC 2, 1 cell:  shared 16 >= 10: dropped, egress threshold
//   TC 1, 8 cells: queue 1 is its own counter: admitted  (egress (0,1) = 8)
// One ingress counter (1, PG 0) = 24 cells; with an egress counter per PG instead, the TC 1
// packet would find 16 cells of TC 2 in its counter and the queues would read 0.
TEST(Mmu, TcsSharingAPgShareItsIngressCounterButNotTheirEgressQueues) {
  const json j = parse_ok(run_in_child([] {
    json cfg = small_scenario_json();
    for (auto& e : cfg["buffer"]["PORT_QOS_MAP"]) e["tc_to_pg_map"] = "LOW3";
    cfg["buffer"]["TC_TO_PRIORITY_GROUP_MAP"] = {{"LOW3", {{"0", "0"}, {"1", "0"}, {"2", "0"}, {"3", "3"},
                                                           {"4", "4"}, {"5", "5"}, {"6", "6"}, {"7", "7"}}}};
    cfg["buffer"]["BUFFER_PROFILE"]["egress_q2_profile"] = {{"pool", "egress_lossy_pool"}, {"size", "0"},
                                                            {"static_th", "2560"}};
    cfg["buffer"]["BUFFER_QUEUE"]["Ethernet0|2"] = {{"profile", "egress_q2_profile"}};
    cfg["buffer"]["BUFFER_QUEUE"].erase("Ethernet0,Ethernet4,Ethernet8,Ethernet12|0-2");
    cfg["buffer"]["BUFFER_QUEUE"]["Ethernet0,Ethernet4,Ethernet8,Ethernet12|0-1"] = {{"profile", "egress_lossy_profile"}};
    cfg["buffer"]["BUFFER_QUEUE"]["Ethernet4,Ethernet8,Ethernet12|2"] = {{"profile", "egress_lossy_profile"}};
    MmuBench b(load_scenario(cfg, "module-test"));
    auto tc_pkt = [](uint8_t tc, uint32_t cells) {
      Packet p = MmuBench::pkt(1, 0, 0, cells);  // PG 0
      p.tc = tc;
      return p;
    };
    std::vector<Packet> pk{tc_pkt(2, 8), tc_pkt(2, 8), tc_pkt(2, 1), tc_pkt(1, 8)};
    json j;
    auto counters = [&] {
      const auto& c = b.mmu.core();
      json s;
      for (uint32_t k = 0; k < 3; ++k) {
        s["ing"].push_back(c.ingress_cells(1, k));
        s["egr"].push_back(c.egress_cells(0, k));
      }
      return s;
    };
    b.src.at(200 * kUs, [&] {
      for (auto& p : pk) j["admit"].push_back(b.src.mmu->admit(p));
      j["held"] = counters();
      j["egress_drops"] = b.mmu.drops_by_reason()[size_t(admission::DropReason::kEgress)];
    });
    b.src.at(300 * kUs, [&] {
      for (size_t i : {0, 1, 3}) b.src.mmu->depart(pk[i]);
      j["empty"] = counters();
    });
    sc_core::sc_start(ps(1500 * kUs));
    return j.dump();
  }));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.at("admit"), json({true, true, false, true}));
  EXPECT_EQ(j.at("held").at("ing"), json({24, 0, 0}));
  EXPECT_EQ(j.at("held").at("egr"), json({0, 8, 16}));
  EXPECT_EQ(j.at("egress_drops"), 1);
  EXPECT_EQ(j.at("empty").at("ing"), json({0, 0, 0}));
  EXPECT_EQ(j.at("empty").at("egr"), json({0, 0, 0}));
}

// The 4-port scenario with INT records on TC 1 (lossy): per-port records read back as the
// ingress peaks and each dequeued packet's INT hop.
Scenario int_scenario() {
  json cfg = small_scenario_json();
  cfg["int"] = {{"enabled_classes", {1}}};
  return load_scenario(cfg, "module-test");
}

json int_hop_json(const Packet& p) {
  if (p.int_hops != 1) return {{"hops", p.int_hops}};
  const IntHop& h = p.int_stack[0];
  return {{"ts", h.ts_ps}, {"tx", h.tx_bytes}, {"qlen", h.qlen_bytes}, {"rate", h.rate_bps}};
}

// Only INT and WRED marking at dequeue do anything at dequeue, so only they have an egress
// port call it (AdmissionIf::wants_dequeue); WRED marking at enqueue does not.
TEST(MmuPortRecords, DequeueWantedForIntAndWredMarkingAtDequeueOnly) {
  const auto wants = [](const char* mark_at, bool with_int) {
    json cfg = small_scenario_json();
    if (with_int) cfg["int"] = {{"enabled_classes", {1}}};
    if (mark_at)
      cfg["wred"] = {{"mark_at", mark_at},
                     {"WRED_PROFILE",
                      {{"P", {{"wred_green_enable", "true"}, {"ecn", "ecn_all"}, {"green_min_threshold", "1048576"},
                              {"green_max_threshold", "2097152"}, {"green_drop_probability", "5"}}}}},
                     {"QUEUE", {{"Ethernet0|3", {{"wred_profile", "P"}}}}}};
    return parse_ok(run_in_child([&] {
      MmuBench b(load_scenario(cfg, "module-test"));
      return json(b.mmu.wants_dequeue()).dump();
    }));
  };
  EXPECT_EQ(wants(nullptr, false), false);
  EXPECT_EQ(wants(nullptr, true), true);
  EXPECT_EQ(wants("dequeue", false), true);
  EXPECT_EQ(wants("enqueue", false), false);
  EXPECT_EQ(wants("enqueue", true), true);
}

TEST(MmuPortRecords, IngressPeaksAndIntQueueAndTxBytesByHand) {
  const json j = parse_ok(run_in_child([] {
    MmuBench b(int_scenario());
    std::vector<Packet> p{MmuBench::pkt(2, 0, 1, 4), MmuBench::pkt(2, 0, 1, 2), MmuBench::pkt(3, 0, 1, 6),
                          MmuBench::pkt(2, 0, 1, 1)};
    json j;
    b.src.at(200 * kUs, [&] {
      for (size_t i = 0; i < 3; ++i) j["admit"].push_back(b.src.mmu->admit(p[i]));
    });
    b.src.at(210 * kUs, [&] { b.src.mmu->dequeue(p[0]); });
    b.src.at(220 * kUs, [&] { b.src.mmu->dequeue(p[1]); });
    b.src.at(230 * kUs, [&] {
      b.src.mmu->depart(p[0]);
      b.src.mmu->depart(p[1]);
      j["admit"].push_back(b.src.mmu->admit(p[3]));
    });
    b.src.at(240 * kUs, [&] {
      b.src.mmu->dequeue(p[2]);
      b.src.mmu->dequeue(p[3]);
    });
    sc_core::sc_start(ps(1500 * kUs));
    for (const Packet& q : p) j["int"].push_back(int_hop_json(q));
    for (uint32_t port = 0; port < 4; ++port) j["peak"].push_back(b.mmu.ingress_peak_bytes(port));
    return j.dump();
  }));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.at("admit"), json({true, true, true, true}));
  // Port 0 queues 1024 + 512 + 1536 B. Dequeue p0: 2048 B left, none sent before; p1: 1536
  // left, 1024 sent; then p3 (256 B) joins: p2 leaves 256 with 1536 sent, p3 0 with 3072.
  const json want_int = json::array({{{"ts", 210 * kUs}, {"tx", 0}, {"qlen", 2048}, {"rate", k100G}},
                                     {{"ts", 220 * kUs}, {"tx", 1024}, {"qlen", 1536}, {"rate", k100G}},
                                     {{"ts", 240 * kUs}, {"tx", 1536}, {"qlen", 256}, {"rate", k100G}},
                                     {{"ts", 240 * kUs}, {"tx", 3072}, {"qlen", 0}, {"rate", k100G}}});
  EXPECT_EQ(j.at("int"), want_int);
  // Port 2 held 6 cells (p0 + p1) before they departed and p3's one came; port 3 6 cells.
  EXPECT_EQ(j.at("peak"), json({0, 0, 6 * 256, 6 * 256}));
}

uint64_t test_seed() {
  if (const char* s = std::getenv("MMUSIM_SEED")) return std::strtoull(s, nullptr, 0);
  return std::random_device{}();
}

TEST(MmuPortRecords, MatchPerPortSumsOnRandomStreams) {
  const uint64_t seed = test_seed();
  std::printf("MMUSIM_SEED=%llu\n", (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  // Operations on up to 600 lossy packets (1..6 cells, TC 0..2; INT on TC 1) between the
  // four ports: admit, dequeue (leaves the egress queue), depart (leaves the buffer), each
  // packet in that order, interleaved at random, several per instant.
  enum Op { kAdmit, kDequeue, kDepart };
  struct Step {
    uint64_t t;
    Op op;
    size_t pkt;
  };
  std::vector<Packet> pk;
  std::vector<Step> steps;
  std::vector<size_t> admitted, dequeued;
  uint64_t t = 200 * kUs;
  for (int k = 0; k < 1500; ++k) {
    if (rng() % 2) t += 1 + rng() % 3000;
    const uint64_t r = rng() % 10;
    if (pk.size() < 600 && (r < 4 || admitted.empty())) {
      Packet p = MmuBench::pkt(uint16_t(rng() % 4), uint16_t(rng() % 4), uint8_t(rng() % 3), 1 + uint32_t(rng() % 6));
      p.bytes -= uint32_t(rng() % 200);  // not a whole number of cells
      pk.push_back(p);
      admitted.push_back(pk.size() - 1);
      steps.push_back({t, kAdmit, pk.size() - 1});
    } else if (!admitted.empty() && (r < 7 || dequeued.empty())) {
      const size_t i = size_t(rng() % admitted.size());
      steps.push_back({t, kDequeue, admitted[i]});
      dequeued.push_back(admitted[i]);
      admitted.erase(admitted.begin() + std::ptrdiff_t(i));
    } else if (!dequeued.empty()) {
      const size_t i = size_t(rng() % dequeued.size());
      steps.push_back({t, kDepart, dequeued[i]});
      dequeued.erase(dequeued.begin() + std::ptrdiff_t(i));
    }
  }
  // Reference: per port, cells charged as an ingress and their peak; bytes queued and sent
  // as an egress; an INT hop reads the egress port's queued bytes after the packet and its
  // sent bytes before it.
  struct PortSums {
    uint64_t in = 0, peak = 0, queued = 0, tx = 0;
  };
  std::array<PortSums, 4> ref{};
  json want_int = json::array();
  for (const Step& s : steps) {
    const Packet& p = pk[s.pkt];
    PortSums &in = ref[p.in_port], &out = ref[p.out_port];
    if (s.op == kAdmit) {
      in.in += p.cells;
      in.peak = std::max(in.peak, in.in);
      out.queued += p.bytes;
    } else if (s.op == kDequeue) {
      out.queued -= p.bytes;
      if (p.tc == 1) want_int.push_back({{"pkt", s.pkt}, {"ts", s.t}, {"tx", out.tx}, {"qlen", out.queued}});
      out.tx += p.bytes;
    } else {
      in.in -= p.cells;
    }
  }
  const json j = parse_ok(run_in_child([&] {
    MmuBench b(int_scenario());
    json j = {{"drops", 0}, {"int", json::array()}};
    for (const Step& s : steps)
      b.src.at(s.t, [&b, &j, &pk, &s] {
        Packet& p = pk[s.pkt];
        if (s.op == kAdmit) {
          if (!b.src.mmu->admit(p)) j["drops"] = j["drops"].get<int>() + 1;
        } else if (s.op == kDequeue) {
          b.src.mmu->dequeue(p);
          if (p.tc == 1) {
            json h = int_hop_json(p);
            h.erase("rate");
            h["pkt"] = s.pkt;
            j["int"].push_back(h);
          } else if (p.int_hops) {
            j["int"].push_back({{"pkt", s.pkt}, {"unexpected_hops", p.int_hops}});
          }
        } else {
          b.src.mmu->depart(p);
        }
      });
    sc_core::sc_start(ps(t + 100 * kUs));
    for (uint32_t port = 0; port < 4; ++port) j["peak"].push_back(b.mmu.ingress_peak_bytes(port));
    return j.dump();
  }));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.at("drops"), 0);
  ASSERT_EQ(j.at("int").size(), want_int.size());
  for (size_t i = 0; i < want_int.size(); ++i) ASSERT_EQ(j.at("int")[i], want_int[i]) << "INT record " << i;
  for (uint32_t port = 0; port < 4; ++port) EXPECT_EQ(j.at("peak")[port], ref[port].peak * 256) << "port " << port;
}

}  // namespace
}  // namespace mmusim
