// Safe-by-construction headroom (config/headroom.*, docs/configuration.md "Headroom"): the
// formula against hand-computed cases and a brute force, and the three causes of lossless
// drops of issue 12 (cell rounding, jumbo MTU, decision backlog), each with 0 lossless drops
// under the derived headroom and a negative control under DSH Eq. 1 + one cell.
#include <chrono>
#include <random>
#include <string>

#include "config/headroom.h"
#include "config/scenario.h"
#include "scenario_harness.h"

using nlohmann::json;
using namespace mmusim::test;

namespace {

uint64_t fresh_seed() {
  if (const char* e = std::getenv("MMUSIM_SEED")) return std::stoull(e);
  return std::random_device{}() ^ uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
}

TEST(HeadroomFormula, EtaMatchesDshEq1) {
  // 2*(100e9/8 * 2e-6 + 1500) + 3840 = 2*(25000 + 1500) + 3840 = 56840 B.
  EXPECT_EQ(mmusim::headroom_eta_bytes(100'000'000'000ull, 2'000'000ull, 1500), 56840u);
  // 40 Gb/s, 1 us, MTU 9000: 2*(5000 + 9000) + 3840 = 31840 B.
  EXPECT_EQ(mmusim::headroom_eta_bytes(40'000'000'000ull, 1'000'000ull, 9000), 31840u);
}

TEST(HeadroomFormula, WorstCellOccupancyByHand) {
  // 256-B cells: a 64-B frame takes a cell for 84 wire bytes; 257 B takes 2 for 277 (less).
  auto w = mmusim::worst_cell_occupancy(1500, 20, 256);
  EXPECT_EQ(w.cells, 1u);
  EXPECT_EQ(w.wire_bytes, 84u);
  // 64-B cells: 65 B takes 2 cells for 85 wire bytes (2/85 > 1/84 > 3/149).
  w = mmusim::worst_cell_occupancy(1500, 20, 64);
  EXPECT_EQ(w.cells, 2u);
  EXPECT_EQ(w.wire_bytes, 85u);
  // 1-B cells: the MTU frame, 9000 cells for 9020 wire bytes.
  w = mmusim::worst_cell_occupancy(9000, 20, 1);
  EXPECT_EQ(w.cells, 9000u);
  EXPECT_EQ(w.wire_bytes, 9020u);
}

TEST(HeadroomFormula, WorstCellOccupancyIsTheMaximumOverEveryFrameSize) {
  const uint64_t seed = fresh_seed();
  std::printf("seed %llu (MMUSIM_SEED to replay)\n", (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 200; ++i) {
    // Cells of 1..600 bytes, and half of them 1..70 (around the 64-B minimum frame).
    const uint32_t mtu = 64 + uint32_t(rng() % 9000), ovh = uint32_t(rng() % 65);
    const uint32_t cell = 1 + uint32_t(i % 2 ? rng() % 600 : rng() % 70);
    const auto w = mmusim::worst_cell_occupancy(mtu, ovh, cell);
    // Every frame size, exactly: the first (shortest) frame of the largest cells per wire byte.
    uint64_t cells = 0, wire = 1;
    for (uint64_t b = 64; b <= mtu; ++b) {
      const uint64_t k = (b + cell - 1) / cell;
      if (k * wire > cells * (b + ovh)) cells = k, wire = b + ovh;
    }
    EXPECT_EQ(w.cells, cells) << "mtu " << mtu << " ovh " << ovh << " cell " << cell;
    EXPECT_EQ(w.wire_bytes, wire) << "mtu " << mtu << " ovh " << ovh << " cell " << cell;
  }
}

TEST(HeadroomFormula, SafeCellsByHand) {
  // 100 Gb/s, 2 us, MTU 1500, 20 B overhead, 256-B cells, 1 GHz, 4 cycles, 1 port per pipeline:
  // C*(2D + (4 + 1) cycles) = 100e9/8 * 4.005e-6 = 50062.5 -> 50063 B; + trigger 1520 +
  // 2 * 1520 + PFC 84 + 3840 = 58547 wire bytes; at 1 cell per 84 wire bytes: 697 cells.
  mmusim::HeadroomLink l{100'000'000'000ull, 2'000'000ull, 1500, 20, 256, 1000, 4, 1};
  EXPECT_EQ(mmusim::headroom_wire_bytes(l), 58547u);
  EXPECT_EQ(mmusim::safe_headroom_cells(l), 697u);
  // 1-B cells, MTU 9000, 1 us: 100e9/8 * 2.005e-6 = 25062.5 -> 25063; + 9020 + 18040 + 84 +
  // 3840 = 56047; * 9000 / 9020 = 55922.7 -> 55923 cells.
  l = {100'000'000'000ull, 1'000'000ull, 9000, 20, 1, 1000, 4, 1};
  EXPECT_EQ(mmusim::headroom_wire_bytes(l), 56047u);
  EXPECT_EQ(mmusim::safe_headroom_cells(l), 55923u);
  // Backlog: 3 ports per pipeline add 2 cycles: 400 ps * 2 at 400 Gb/s = 40 B more.
  l = {400'000'000'000ull, 500'000ull, 1500, 20, 256, 400, 4, 1};
  const uint64_t one = mmusim::headroom_wire_bytes(l);
  l.pipeline_ports = 3;
  EXPECT_EQ(mmusim::headroom_wire_bytes(l), one + 40);
}

TEST(HeadroomFormula, TheAdmissionUnitsPipeline) {
  // 100 Gb/s, 2 us, 1 GHz, 4 cycles as above: 58547 wire bytes. PIPE 1 sends XOFF a cycle
  // later: C*(2D + 6 cycles) = 100e9/8 * 4.006e-6 = 50075 B, 12 more. PIPE 3: three cycles,
  // 100e9/8 * 4.008e-6 = 50100 B (37 more), and one frame (1520 B) for the release of the
  // cycle before, which a request's headroom tests do not see: 60104 wire bytes, 716 cells
  // (84 wire bytes per cell: 60104 / 84 = 715.5).
  mmusim::HeadroomLink l{100'000'000'000ull, 2'000'000ull, 1500, 20, 256, 1000, 4, 1};
  l.admission_pipeline = 1;
  EXPECT_EQ(mmusim::headroom_wire_bytes(l), 58559u);
  l.admission_pipeline = 3;
  EXPECT_EQ(mmusim::headroom_wire_bytes(l), 60104u);
  EXPECT_EQ(mmusim::safe_headroom_cells(l), 716u);
}

// A 17-port switch, h1..h16 -> h0 lossless incast of `frame`-byte packets; 3 pipelines of
// 6, 6 and 5 ports keep up with 64-B frames at 100 Gb/s (6 * 12.5 B/ns < 84 B/ns). With
// `cross`, 16 more hosts send lossy line-rate traffic to the senders, so each sender's port
// is busy with an MTU frame when its XOFF leaves (33 ports, 6 pipelines of <= 6).
json incast(uint32_t cell, uint32_t mtu, uint32_t frame, const json& pg_xoff, bool cross = false) {
  const int ports = cross ? 33 : 17;
  json s = base_scenario(ports, 700);
  s["mmu"]["pipelines"] = cross ? 6 : 3;
  s["topology"]["mtu_bytes"] = mtu;
  s["topology"]["link_delay_ns"] = 2000;
  s["mmu"]["cell_bytes"] = cell;
  s["mmu"]["buffer_bytes"] = 16 << 20;
  s["buffer"] = sonic_buffer(ports, 16 << 20, 4 << 20, nullptr, 4 << 20, 0, 0, pg_xoff);
  s["traffic"].push_back({{"type", "incast"}, {"name", "incast"}, {"senders", "h1-h16"}, {"receiver", "h0"},
                          {"dscp", 24}, {"burst_bytes", 400000}, {"packet_bytes", frame}});
  if (cross) {
    json src = json::array(), dst = json::array();
    for (int i = 1; i <= 16; ++i) {
      src.push_back("h" + std::to_string(16 + i));
      dst.push_back("h" + std::to_string(i));
    }
    s["traffic"].push_back({{"type", "constant"}, {"name", "cross"}, {"src", src}, {"dst", dst}, {"dscp", 8}});
  }
  return s;
}

std::string eq1_plus_cell(uint32_t cell, uint32_t mtu) {
  // The rule: DSH Eq. 1 (100 Gb/s, 2 us) plus one cell.
  return std::to_string(mmusim::headroom_eta_bytes(100'000'000'000ull, 2'000'000ull, mtu) + cell);
}

void expect_lossless(const json& sc) {
  const RunResult r = run_mmusim(sc);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("warning"), std::string::npos) << r.output;
  EXPECT_TRUE(r.summary["warnings"].empty());
  EXPECT_GT(r.summary["pfc"]["xoff_events"].get<uint64_t>(), 0u);  // headroom was used
  EXPECT_EQ(r.summary["drops"]["lossless"].get<uint64_t>(), 0u) << r.summary["drops"].dump();
  const json& g = r.summary["generators"]["incast"];
  EXPECT_EQ(g["completed"], g["flows"]);
}

uint64_t lossless_drops_warned(const json& sc) {
  const RunResult r = run_mmusim(sc);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("is below the safe headroom"), std::string::npos) << r.output;
  EXPECT_FALSE(r.summary["warnings"].empty());
  return r.summary["drops"]["lossless"].get<uint64_t>();
}

TEST(HeadroomCauses, CellRounding1036ByteFramesIn256ByteCells) {
  expect_lossless(incast(256, 1500, 1036, nullptr));
  EXPECT_GT(lossless_drops_warned(incast(256, 1500, 1036, eq1_plus_cell(256, 1500))), 0u);
}

TEST(HeadroomCauses, JumboMtuWithOneByteCells) {
  // Eq. 1 has 2 MTU in flight; a jumbo trigger frame plus a jumbo frame ahead of the XOFF
  // make 3, more than its 3840 B of slack.
  expect_lossless(incast(1, 9000, 9000, nullptr, true));
  EXPECT_GT(lossless_drops_warned(incast(1, 9000, 9000, eq1_plus_cell(1, 9000), true)), 0u);
}

// 64-B frames from three 400 Gb/s senders sharing one pipeline with the receiver: at 2.5 GHz
// the pipeline keeps up (4 * 400e9 / (8 * 84) = 2.38 frames/ns <= 2.5), at 1 GHz it does not.
json small_frames(double clock_mhz) {
  json s = base_scenario(4, 60);
  s["topology"]["rate_gbps"] = 400;
  s["topology"]["link_delay_ns"] = 500;
  s["mmu"]["clock_mhz"] = clock_mhz;
  s["mmu"]["buffer_bytes"] = 4 << 20;
  s["buffer"] = sonic_buffer(4, 4 << 20, 1 << 20, nullptr, 1 << 20, -2, 0, nullptr);
  s["traffic"].push_back({{"type", "incast"}, {"name", "incast"}, {"senders", "h1-h3"}, {"receiver", "h0"},
                          {"dscp", 24}, {"burst_bytes", 300000}, {"packet_bytes", 64}});
  return s;
}

TEST(HeadroomCauses, SmallFramesAtHighRateWithAPipelineThatKeepsUp) { expect_lossless(small_frames(2500)); }

TEST(HeadroomCauses, APipelineThatCannotKeepUpIsWarnedAbout) {
  const RunResult r = run_mmusim(small_frames(1000));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("pipeline 0 (Ethernet0, ...): 64-B frames at line rate need more than one"), std::string::npos)
      << r.output;
  // 4 * 400e9 b/s * 1 ns / 8 = 200 wire bytes per decision: frames of at least 180 B.
  EXPECT_NE(r.output.find("at least 180 B"), std::string::npos) << r.output;
}

TEST(HeadroomWarnings, PoolBelowTheSumOfSafeHeadroomsNamesTheSwitch) {
  json s = incast(256, 1500, 1500, nullptr);
  // Shared headroom pool of 100 cells, below 17 PGs x 698 cells (pipelines of 6 and 5 ports:
  // C*(2D + 10 or 9 cycles) = 50125 or 50113 B, + 8484 = 58609 or 58597 wire bytes, / 84).
  s["buffer"]["BUFFER_POOL"]["ingress_pool"]["xoff"] = std::to_string(100 * 256);
  const mmusim::Scenario sc = mmusim::load_scenario(s, "test");
  ASSERT_EQ(sc.warnings.size(), 1u);
  EXPECT_NE(sc.warnings[0].find("switch 'sw0' headroom pool: ingress pools' xoff 100 cells is below the 11866 cells"),
            std::string::npos)
      << sc.warnings[0];
}

TEST(HeadroomWarnings, PgXoffBelowSafeNamesPortAndPg) {
  // 697 cells is one short of 698 on all 17 ports (as above).
  const mmusim::Scenario sc = mmusim::load_scenario(incast(256, 1500, 1500, std::to_string(697 * 256)), "test");
  ASSERT_EQ(sc.warnings.size(), 1u);
  EXPECT_NE(sc.warnings[0].find("switch 'sw0' Ethernet0|3 (and 16 more lossless PGs): xoff 178432 B (697 cells) is "
                                "below the safe headroom of 698 cells"),
            std::string::npos)
      << sc.warnings[0];
  EXPECT_TRUE(mmusim::load_scenario(incast(256, 1500, 1500, std::to_string(698 * 256)), "test").warnings.empty());
}

TEST(HeadroomWarnings, PgXoffTotalAboveTheBuffer) {
  // No pool xoff: 17 PGs x 698 cells = 11866 cells of headroom in a 2 MiB (8192-cell) buffer.
  json s = incast(256, 1500, 1500, nullptr);
  s["mmu"]["buffer_bytes"] = 2 << 20;
  s["buffer"] = sonic_buffer(17, 2 << 20, 1 << 20, nullptr, 1 << 20, 0, 0, nullptr);
  const mmusim::Scenario sc = mmusim::load_scenario(s, "test");
  ASSERT_EQ(sc.warnings.size(), 1u);
  EXPECT_NE(sc.warnings[0].find("switch 'sw0' headroom: the lossless PGs' xoff total 11866 cells exceeds the buffer "
                                "(8192 cells)"),
            std::string::npos)
      << sc.warnings[0];
}

}  // namespace
