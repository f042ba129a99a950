// PFC refresh on a matched incast (scenarios/artifact_incast.json: 2 ToRs x 16 servers
// + 1 spine, 100 G, 2 us links, 8.7 MB buffer, alpha = 1, byte accounting, 16 x 4 MB
// towards one server). A paused class is refreshed every R = refresh_fraction x pause
// time counted from the port's latest XOFF frame, so a pause episode of length L sends
// exactly 1 + floor(L / R) pause frames; a refresh kept at an earlier episode's phase
// sends more (issue 12: 208 frames for the ns-3 artifact's 176 XOFF).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>

#include "scenario_harness.h"

namespace mmusim::test {
namespace {

nlohmann::json artifact_incast() {
  std::ifstream in(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/artifact_incast.json");
  return nlohmann::json::parse(in);
}

struct Episodes {
  uint64_t count = 0, mismatched = 0, frames = 0;
  double longest_ns = 0;
};

// Pause episodes per sending (switch, port) from the pcap. Frames reach the wire after
// the frame in transmission (at most one MTU, 0.12 us at 100 G), so an episode's
// length is known to within `slack_ns` at each end.
Episodes episodes(const std::string& pcap, double refresh_ns, double slack_ns) {
  Episodes e;
  std::map<std::pair<uint32_t, uint32_t>, std::pair<double, uint64_t>> open;  // start, frames
  for (const auto& f : read_pfc_pcap(pcap)) {
    const auto key = std::make_pair(f.sw, f.port);
    auto it = open.find(key);
    if (f.pause) {
      ++e.frames;
      if (it == open.end()) open[key] = {f.t_ns, 1};
      else ++it->second.second;
      continue;
    }
    if (it == open.end()) continue;
    const double len = f.t_ns - it->second.first;
    const uint64_t lo = uint64_t(std::floor(std::max(0.0, len - slack_ns) / refresh_ns));
    const uint64_t hi = uint64_t(std::floor((len + slack_ns) / refresh_ns));
    const uint64_t refreshes = it->second.second - 1;
    if (refreshes < lo || refreshes > hi) ++e.mismatched;
    ++e.count;
    e.longest_ns = std::max(e.longest_ns, len);
    open.erase(it);
  }
  return e;
}

void check_refresh(double quanta, double fraction) {
  nlohmann::json s = artifact_incast();
  s["pfc"]["pause_quanta"] = quanta;
  s["pfc"]["refresh_fraction"] = fraction;
  RunResult r = run_mmusim(s, "--pcap");
  ASSERT_EQ(r.status, 0) << r.output;
  expect_conservation(r.summary);
  EXPECT_EQ(r.summary["drops"]["lossless"], 0);
  // Pause time = quanta x 512 bit times at 100 Gb/s, refreshed at `fraction` of it.
  const double refresh_ns = quanta * 512.0 / 100.0 * fraction;
  const Episodes e = episodes(r.dir + "/out/pfc.pcap", refresh_ns, 2 * 0.12 * 1000);
  const auto& pfc = r.summary["pfc"];
  std::printf("quanta %.0f, refresh %.3f us: %llu episodes (longest %.1f us), %llu pause frames, %llu XOFF\n",
              quanta, refresh_ns / 1e3, (unsigned long long)e.count, e.longest_ns / 1e3,
              (unsigned long long)e.frames, (unsigned long long)pfc["xoff_events"].get<uint64_t>());
  EXPECT_GT(e.count, 100u) << "the incast should pause its senders many times";
  EXPECT_EQ(e.mismatched, 0u) << "episodes whose pause-frame count is not 1 + floor(length / R)";
  EXPECT_EQ(pfc["pause_frames"].get<uint64_t>(), e.frames);
  // One XOFF per episode, and no pause frame beyond the episodes' refreshes.
  EXPECT_EQ(pfc["xoff_events"].get<uint64_t>(), e.count);
  EXPECT_EQ(pfc["paused_queues_at_end"], 0);
  std::filesystem::remove_all(r.dir);
}

TEST(PfcRefresh, OneFramePerXoffPlusOnePerElapsedPeriodDefaultQuanta) { check_refresh(65535, 0.5); }

// Short pause time: most episodes see several refreshes, each one R after the previous
// pause frame of the episode.
TEST(PfcRefresh, OneFramePerXoffPlusOnePerElapsedPeriodShortPause) { check_refresh(4096, 0.5); }

}  // namespace
}  // namespace mmusim::test
