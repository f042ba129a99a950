// Module tests: PfcGenerator: XOFF/XON, refreshes, paused time.
// Expected numbers are hand-computed in the comments (figures: module_bench.h).
#include "module_bench.h"

namespace mmusim {
namespace {

using namespace modtest;

// Script (PfcEventIf) -> PfcGenerator(switch 1) -> 4 Sinks standing for the egress ports.
// pause = 65535 quanta at 100 Gb/s = 335,539,200 ps; refresh every 0.5 of it = 167,769,600 ps.
constexpr uint64_t kRefresh = 167'769'600;

// Priorities 3 and 4 lossless on every port, each in its own PG unless `pg_map` says otherwise.
Scenario pfc_scenario(const json& pg_map = json()) {
  json j = small_scenario_json();
  for (auto& e : j["buffer"]["PORT_QOS_MAP"]) {
    e["pfc_enable"] = "3,4";
    if (!pg_map.is_null()) e["tc_to_pg_map"] = "M";
  }
  if (!pg_map.is_null()) j["buffer"]["TC_TO_PRIORITY_GROUP_MAP"] = {{"M", pg_map}};
  return load_scenario(j, "module-test");
}

struct PfcBench {
  Scenario sc;
  explicit PfcBench(Scenario s = pfc_scenario()) : sc(std::move(s)) { bind(); }
  PacketPool pool;
  Script src{"src"};
  PfcGenerator gen{"pfc", pfc_gen_config(sc, 0), 1, pool};
  std::vector<std::unique_ptr<Sink>> out;
  void bind() {
    for (uint32_t i = 0; i < sc.ports(); ++i) {
      out.push_back(std::make_unique<Sink>(("port" + std::to_string(i)).c_str()));
      gen.out.bind(out.back()->in);
    }
    src.pfc.bind(gen.event_export);
  }
  void xoff(uint64_t t, uint32_t port, uint8_t prio) {
    src.at(t, [=] { src.pfc->pfc_event(port, prio, admission::PfcEvent::kXoff); });
  }
  void xon(uint64_t t, uint32_t port, uint8_t prio) {
    src.at(t, [=] { src.pfc->pfc_event(port, prio, admission::PfcEvent::kXon); });
  }
  json result() {
    json outs = json::array();
    for (const auto& s : out) outs.push_back(frames_json(*s));
    return {{"out", outs},
            {"pause_frames", gen.pause_frames()},
            {"resume_frames", gen.resume_frames()},
            {"xoff", gen.xoff_events()},
            {"paused_queues", gen.paused_queues()}};
  }
};

TEST(PfcGenerator, XoffSendsAPfcFrameToThatPort) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b;
    b.xoff(10 * kUs, 2, 3);
    sc_core::sc_start(ps(100 * kUs));  // before the first refresh
    return b.result().dump();
  }));
  const json& o = j.at("out");
  EXPECT_EQ(o.at(0).size(), 0u);
  EXPECT_EQ(o.at(1).size(), 0u);
  EXPECT_EQ(o.at(3).size(), 0u);
  ASSERT_EQ(o.at(2).size(), 1u);
  const json& f = o.at(2).at(0);
  EXPECT_EQ(f.at("begin"), 10 * kUs);
  EXPECT_EQ(f.at("kind"), "pfc");
  EXPECT_EQ(f.at("bytes"), 64);
  EXPECT_EQ(f.at("class_enable"), 0x08);
  EXPECT_EQ(f.at("quanta"), json({0, 0, 0, 0xFFFF, 0, 0, 0, 0}));
  EXPECT_EQ(f.at("src_mac"), json({2, 0, 0, 1, 0, 2}));  // port_mac(switch 1, port 2)
  EXPECT_EQ(j.at("paused_queues"), 1);
}

TEST(PfcGenerator, RefreshesWhilePausedAndXonStopsRefreshes) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b;
    b.xoff(10 * kUs, 2, 3);
    b.xon(610 * kUs, 2, 3);
    sc_core::sc_start(ps(1000 * kUs));
    return b.result().dump();
  }));
  // XOFF at 10 us, refreshes at 10 us + k * 167.7696 us while paused: 177.7696, 345.5392,
  // 513.3088 us (the next, 681.0784 us, falls after the XON at 610 us and is not sent).
  const json& o = j.at("out").at(2);
  ASSERT_EQ(o.size(), 5u) << o.dump();
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(o[k].at("begin"), 10 * kUs + k * kRefresh) << k;
    EXPECT_EQ(o[k].at("class_enable"), 0x08) << k;
    EXPECT_EQ(o[k].at("quanta").at(3), 0xFFFF) << k;
  }
  EXPECT_EQ(o[4].at("begin"), 610 * kUs);
  EXPECT_EQ(o[4].at("class_enable"), 0x08);
  EXPECT_EQ(o[4].at("quanta"), json({0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(j.at("pause_frames"), 4);
  EXPECT_EQ(j.at("resume_frames"), 1);
  EXPECT_EQ(j.at("xoff"), 1);
  EXPECT_EQ(j.at("paused_queues"), 0);
}

TEST(PfcGenerator, OneRefreshCoversEveryPausedPriorityOfThePort) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b;
    b.xoff(10 * kUs, 0, 3);
    b.xoff(60 * kUs, 0, 4);
    sc_core::sc_start(ps(300 * kUs));
    return b.result().dump();
  }));
  const json& o = j.at("out").at(0);
  ASSERT_EQ(o.size(), 3u) << o.dump();
  EXPECT_EQ(o[0].at("class_enable"), 0x08);
  // The second XOFF's frame pauses priority 4 and refreshes priority 3 ...
  EXPECT_EQ(o[1].at("begin"), 60 * kUs);
  EXPECT_EQ(o[1].at("class_enable"), 0x18);
  EXPECT_EQ(o[1].at("quanta"), json({0, 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0}));
  // ... so the port's refresh is due one period after it (60 us + 167.7696 us), not
  // after the first XOFF (177.7696 us).
  EXPECT_EQ(o[2].at("begin"), 60 * kUs + kRefresh);
  EXPECT_EQ(o[2].at("class_enable"), 0x18);
  EXPECT_EQ(o[2].at("quanta"), json({0, 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0}));
}

// TCs 3 and 4 (both PFC-enabled) in PG 3: the PG's XOFF pauses priorities 3 and 4 in one
// frame and its XON resumes both; PG 4 holds no TC and is never paused by the core.
TEST(PfcGenerator, PgXoffPausesEveryPriorityMappedToIt) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b(pfc_scenario({{"4", 3}}));
    b.xoff(10 * kUs, 1, 3);
    b.xon(20 * kUs, 1, 3);
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  const json& o = j.at("out").at(1);
  ASSERT_EQ(o.size(), 2u) << o.dump();
  EXPECT_EQ(o[0].at("class_enable"), 0x18);
  EXPECT_EQ(o[0].at("quanta"), json({0, 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0}));
  EXPECT_EQ(o[1].at("begin"), 20 * kUs);
  EXPECT_EQ(o[1].at("class_enable"), 0x18);
  EXPECT_EQ(o[1].at("quanta"), json({0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(j.at("xoff"), 1);
}

TEST(PfcGenerator, RefreshRestartsFromEachXoff) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b;
    b.xoff(10 * kUs, 2, 3);
    b.xon(100 * kUs, 2, 3);
    b.xoff(150 * kUs, 2, 3);
    sc_core::sc_start(ps(400 * kUs));
    return b.result().dump();
  }));
  // XOFF 10 us, XON 100 us, XOFF 150 us, then refreshes at 150 us + k * 167.7696 us. A
  // refresh at the first episode's phase (177.7696 us) would be a frame the peer does not
  // need (the ns-3 artifact, which never refreshes, sends one frame per XOFF).
  const json& o = j.at("out").at(2);
  ASSERT_EQ(o.size(), 4u) << o.dump();
  EXPECT_EQ(o[0].at("begin"), 10 * kUs);
  EXPECT_EQ(o[1].at("begin"), 100 * kUs);
  EXPECT_EQ(o[1].at("quanta").at(3), 0);
  EXPECT_EQ(o[2].at("begin"), 150 * kUs);
  EXPECT_EQ(o[3].at("begin"), 150 * kUs + kRefresh);
  EXPECT_EQ(o[3].at("quanta").at(3), 0xFFFF);
  EXPECT_EQ(j.at("pause_frames"), 3);
  EXPECT_EQ(j.at("resume_frames"), 1);
  EXPECT_EQ(j.at("xoff"), 2);
}

TEST(PfcGenerator, PausedTimeIsClippedToTheMeasurementWindow) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b;  // measurement window [100 us, 1500 us)
    b.xoff(10 * kUs, 2, 3);
    b.xon(610 * kUs, 2, 3);
    b.xoff(1000 * kUs, 1, 4);  // still paused at the end
    sc_core::sc_start(ps(1200 * kUs));
    json r = b.result();
    r["paused_1200"] = b.gen.paused_ps(1200 * kUs);
    r["paused_2000"] = b.gen.paused_ps(2000 * kUs);
    return r.dump();
  }));
  // (2,3): [10, 610) clipped to [100, 610) = 510 us. (1,4): from 1000 us.
  EXPECT_EQ(j.at("paused_1200"), (510 + 200) * kUs);
  EXPECT_EQ(j.at("paused_2000"), (510 + 500) * kUs);  // window ends at 1500 us
  EXPECT_EQ(j.at("paused_queues"), 1);
}

TEST(PfcGenerator, PortLevelPauseCoversEveryPriorityAndKeepsQueuePauses) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b;
    b.xoff(200 * kUs, 1, 3);                                     // queue (1,3)
    b.src.at(210 * kUs, [&] { b.src.pfc->port_pfc_event(1, admission::PfcEvent::kXoff); });
    b.src.at(220 * kUs, [&] { b.src.pfc->port_pfc_event(1, admission::PfcEvent::kXon); });
    b.xon(230 * kUs, 1, 3);
    sc_core::sc_start(ps(400 * kUs));  // past a refresh that would be due at 210 + 167.7696 us
    json r = b.result();
    r["paused_ps"] = b.gen.paused_ps(400 * kUs);
    return r.dump();
  }));
  // Each change of the paused set sends one frame: an XOFF frame for every paused class,
  // a resume frame for the resumed classes only:
  //   200 us: 0x08 paused; 210 us: the other seven paused, priority 3 refreshed (0xFF);
  //   220 us: 0xF7 resumed (priority 3 stays paused); 230 us: 0x08 resumed, no refresh left.
  const json& o = j.at("out").at(1);
  ASSERT_EQ(o.size(), 4u) << o.dump();
  const uint64_t all = 0xFFFF;
  EXPECT_EQ(o[0].at("class_enable"), 0x08);
  EXPECT_EQ(o[0].at("quanta"), json({0, 0, 0, all, 0, 0, 0, 0}));
  EXPECT_EQ(o[1].at("begin"), 210 * kUs);
  EXPECT_EQ(o[1].at("class_enable"), 0xFF);
  EXPECT_EQ(o[1].at("quanta"), json({all, all, all, all, all, all, all, all}));
  EXPECT_EQ(o[2].at("begin"), 220 * kUs);
  EXPECT_EQ(o[2].at("class_enable"), 0xF7);
  EXPECT_EQ(o[2].at("quanta"), json({0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(o[3].at("begin"), 230 * kUs);
  EXPECT_EQ(o[3].at("class_enable"), 0x08);
  EXPECT_EQ(o[3].at("quanta"), json({0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(j.at("pause_frames"), 2);
  EXPECT_EQ(j.at("resume_frames"), 2);
  EXPECT_EQ(j.at("xoff"), 2);
  EXPECT_EQ(j.at("paused_queues"), 0);
  // Priority-time: priority 3 for 30 us, seven others for 10 us each = 100 us.
  EXPECT_EQ(j.at("paused_ps"), 100 * kUs);
}

}  // namespace
}  // namespace mmusim
