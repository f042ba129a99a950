// Module tests: Link: serialisation, propagation and counters.
// Expected numbers are hand-computed in the comments (figures: module_bench.h).
#include "module_bench.h"

namespace mmusim {
namespace {

using namespace modtest;

TEST(Link, SerialisationPropagationAndCounters) {
  const json j = parse_ok(run_in_child([] {
    Link link("link", k100G, 2 * kUs, 20);
    Script src("src");
    Sink far("far");
    src.out.bind(link.in);
    link.out.bind(far.in);
    PacketPool pool;
    json j;
    src.at(0, [&] { j["data"] = answer_json(src.send(0, data_packet(pool, 1500, 0, 1))); });
    src.at(10 * kUs, [&] { j["pfc"] = answer_json(src.send(0, pfc_packet(pool, 0x08, 100))); });
    // A transmitter may announce a frame that starts later: here 500 ns from now.
    src.at(20 * kUs, [&] { j["late"] = answer_json(src.send(0, data_packet(pool, 1500, 0, 2), 500 * kNs)); });
    sc_core::sc_start(ps(50 * kUs));
    j["far"] = frames_json(far);
    j["data_frames"] = link.data_frames();
    j["control_frames"] = link.control_frames();
    j["wire_bytes"] = link.wire_bytes();
    return j.dump();
  }));
  ASSERT_FALSE(j.empty());
  // END_REQ carries the serialisation time: 1520 * 8 / 100e9 = 121.6 ns.
  EXPECT_EQ(j.at("data").at("updated"), true);
  EXPECT_EQ(j.at("data").at("end_req"), true);
  EXPECT_EQ(j.at("data").at("t"), 121'600);
  // PFC: 84 * 8 / 100e9 = 6.72 ns.
  EXPECT_EQ(j.at("pfc").at("t"), 6'720);
  // Starting 500 ns later, the link is busy until 500 + 121.6 ns.
  EXPECT_EQ(j.at("late").at("t"), 621'600);

  const json& far = j.at("far");
  ASSERT_EQ(far.size(), 3u);
  // The far end is told at once, with the last bit 121.6 ns + 2000 ns later.
  EXPECT_EQ(far[0].at("begin"), 0);
  EXPECT_EQ(far[0].at("last_bit"), 2'121'600);
  EXPECT_EQ(far[0].at("flow"), 1);
  EXPECT_EQ(far[1].at("kind"), "pfc");
  EXPECT_EQ(far[1].at("last_bit"), 10'000'000 + 6'720 + 2'000'000);
  EXPECT_EQ(far[2].at("last_bit"), 20'000'000 + 500'000 + 121'600 + 2'000'000);

  EXPECT_EQ(j.at("data_frames"), 2);
  EXPECT_EQ(j.at("control_frames"), 1);
  EXPECT_EQ(j.at("wire_bytes"), 1520 + 84 + 1520);
}

TEST(Link, SerialisationRoundsUpToWholePicoseconds) {
  const json j = parse_ok(run_in_child([] {
    // 3 Gb/s: (64 + 20) * 8 / 3e9 = 224 ns exactly; 65 B: 85 * 8 / 3e9 = 226.666.. ns -> 226,667 ps.
    Link link("link", 3'000'000'000ull, 0, 20);
    Script src("src");
    Sink far("far");
    src.out.bind(link.in);
    link.out.bind(far.in);
    PacketPool pool;
    json j;
    src.at(0, [&] { j["a"] = src.send(0, data_packet(pool, 64, 0, 0)).t_ps; });
    src.at(1 * kUs, [&] { j["b"] = src.send(0, data_packet(pool, 65, 0, 0)).t_ps; });
    sc_core::sc_start(ps(5 * kUs));
    return j.dump();
  }));
  EXPECT_EQ(j.at("a"), 224'000);
  EXPECT_EQ(j.at("b"), 226'667);
}

}  // namespace
}  // namespace mmusim
