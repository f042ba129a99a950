// The PFC watchdog (buffer.PFC_WD, SONiC's pfcwdorch; docs/configuration.md "PFC watchdog")
// against a PFC storm (pfc_storms): detection, drop / forward / alert, restoration, counters
// and conservation, through the real binary; the CONFIG_DB import of PFC_WD in process.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "config/config_load.h"
#include "config/effective_config.h"

namespace {

using cli_harness::run_mmusim;
using nlohmann::json;

constexpr double kPollUs = 100, kDetectUs = 1000, kRestoreUs = 500;
constexpr double kStormStartUs = 10, kStormStopUs = 3000, kStormPeriodUs = 20;

// h1 and h2 send lossless TC 3 (DSCP 24) to h0 at line rate; h0's NIC storms priority 3
// from 10 us to 3 ms (a pause frame every 20 us); the watchdog on Ethernet0 polls every
// 0.1 ms with 1 ms detection and 0.5 ms restoration. `action` "" leaves PFC_WD out.
json storm(const std::string& action) {
  json j = {
      {"duration_us", 4000},
      {"topology", {{"ports", 3}, {"rate_gbps", 100}, {"link_delay_ns", 500}}},
      {"mmu", {{"buffer_bytes", 4194304}, {"clock_mhz", 1000}}},
      {"buffer",
       {{"BUFFER_POOL",
         {{"ingress_pool", {{"type", "ingress"}, {"size", 3145728}, {"xoff", 1048576}}},
          {"egress_pool", {{"type", "egress"}, {"size", 4194304}}}}},
        {"BUFFER_PROFILE",
         {{"ingress_lossless_profile", {{"pool", "ingress_pool"}, {"size", 0}, {"dynamic_th", 0}, {"xon_offset", 2496}}},
          {"ingress_lossy_profile", {{"pool", "ingress_pool"}, {"size", 0}, {"dynamic_th", 0}}},
          {"egress_lossless_profile", {{"pool", "egress_pool"}, {"size", 0}, {"static_th", 4194304}}},
          {"egress_lossy_profile", {{"pool", "egress_pool"}, {"size", 0}, {"dynamic_th", 0}}}}},
        {"PORT_QOS_MAP", {{"Ethernet0,Ethernet4,Ethernet8", {{"pfc_enable", "3"}}}}}}},
      {"pfc_storms",
       {{{"host", "h0"}, {"priorities", "3"}, {"start_us", kStormStartUs}, {"stop_us", kStormStopUs},
         {"period_us", kStormPeriodUs}}}},
      {"traffic", {{{"type", "constant"}, {"name", "to_h0"}, {"src", {"h1", "h2"}}, {"dst", "h0"}, {"dscp", 24}}}}};
  if (!action.empty())
    j["buffer"]["PFC_WD"] = {{"GLOBAL", {{"POLL_INTERVAL", kPollUs / 1000}}},
                             {"Ethernet0",
                              {{"action", action}, {"detection_time", kDetectUs / 1000},
                               {"restoration_time", kRestoreUs / 1000}}}};
  return j;
}

json run(const json& scenario, const std::string& name) {
  const std::string dir = testing::TempDir() + "pfc_wd_" + name;
  const std::string file = dir + ".json";
  std::ofstream(file) << scenario.dump(1);
  const auto r = run_mmusim({"run", file, "--out", dir, "--quiet"}, {true});
  EXPECT_EQ(r.code, 0) << r.err;
  if (r.code != 0) return json();
  const json s = json::parse(std::ifstream(dir + "/summary.json"));
  const auto& p = s["packets"];
  EXPECT_EQ(p["injected"].get<uint64_t>(),
            p["delivered"].get<uint64_t>() + p["dropped"].get<uint64_t>() + p["buffered_at_end"].get<uint64_t>())
      << p.dump();
  EXPECT_EQ(s["drops"]["lossless"], 0);  // the storm never costs an admission drop
  return s;
}

// Polls at k x 0.1 ms. The first storm frame (10 us) wakes the watchdog: the poll at
// 0.1 ms records a baseline, 0.2 ms is the first in a storm (paused then and before,
// pause frames in between, frames queued, none sent) and detection comes at the 10th such
// poll, 1.1 ms: within (start + detection, start + detection + poll]. The last storm frame
// is at 2.99 ms, the poll at 3.0 ms still sees it; the quiet polls from 3.1 ms restore at
// the 5th, 3.5 ms: within [last + restoration, last + restoration + poll).
TEST(PfcWatchdog, DropDetectsDropsAndRestores) {
  const json s = run(storm("drop"), "drop");
  ASSERT_FALSE(s.is_null());
  const json& wd = s["switches"][0]["pfc_watchdog"]["ports"]["Ethernet0"];
  const double detected_us = wd["first_storm_ns"].get<double>() / 1000;
  EXPECT_GT(detected_us, kStormStartUs + kDetectUs);
  EXPECT_LE(detected_us, kStormStartUs + kDetectUs + kPollUs);
  EXPECT_EQ(detected_us, 1100);
  const double last_frame_us = kStormStopUs - 10;  // 10 + 20 k < 3000
  const double restored_us = wd["last_restore_ns"].get<double>() / 1000;
  EXPECT_GE(restored_us, last_frame_us + kRestoreUs);
  EXPECT_LT(restored_us, last_frame_us + kRestoreUs + kPollUs);
  EXPECT_EQ(restored_us, 3500);
  EXPECT_EQ(wd["storms_detected"], 1);
  EXPECT_EQ(wd["storms_restored"], 1);
  // Watchdog drops are their own count, part of the packets dropped.
  const uint64_t drops = wd["dropped"].get<uint64_t>();
  EXPECT_GT(drops, 1000u);
  EXPECT_EQ(s["drops"]["pfc_watchdog"], drops);
  EXPECT_EQ(s["packets"]["dropped"], drops);
}

// The top-level pfc_watchdog takes PFC_WD's keys for every switch without its own.
TEST(PfcWatchdog, TopLevelSectionIsTheSame) {
  json j = storm("drop");
  j["pfc_watchdog"] = j["buffer"]["PFC_WD"];
  j["buffer"].erase("PFC_WD");
  json a = run(storm("drop"), "in_buffer"), b = run(j, "top_level");
  ASSERT_FALSE(a.is_null() || b.is_null());
  for (json* s : {&a, &b}) s->erase("wall_time_s"), s->erase("scenario");
  EXPECT_EQ(a, b);
}

// forward: the stormed queue ignores the pause and sends; alert: counts the storm only.
TEST(PfcWatchdog, ForwardSendsThroughTheStormAlertOnlyCounts) {
  const json none = run(storm(""), "none");
  const json fwd = run(storm("forward"), "forward");
  const json alert = run(storm("alert"), "alert");
  ASSERT_FALSE(none.is_null() || fwd.is_null() || alert.is_null());
  EXPECT_FALSE(none["switches"][0].contains("pfc_watchdog"));
  for (const json* s : {&fwd, &alert}) {
    const json& wd = (*s)["switches"][0]["pfc_watchdog"];
    EXPECT_EQ(wd["storms_detected"], 1);
    EXPECT_EQ(wd["ports"]["Ethernet0"]["first_storm_ns"], 1.1e6);
    EXPECT_EQ(wd["dropped"], 0);
    EXPECT_EQ((*s)["packets"]["dropped"], 0);
  }
  // Stalled from 10 us on without the watchdog; forward sends from 1.1 ms to 3.5 ms.
  const uint64_t stalled = none["packets"]["delivered"].get<uint64_t>();
  EXPECT_GT(fwd["packets"]["delivered"].get<uint64_t>(), 3 * stalled);
  EXPECT_LT(alert["packets"]["delivered"].get<uint64_t>(), 2 * stalled);
  // alert is restored at the first poll whose interval holds no storm frame (3.1 ms).
  EXPECT_EQ(alert["switches"][0]["pfc_watchdog"]["ports"]["Ethernet0"]["last_restore_ns"], 3.1e6);
}

TEST(PfcWatchdog, BadInputNamesTheField) {
  auto expect_error = [](json j, const std::string& what) {
    const std::string file = testing::TempDir() + "pfc_wd_bad.json";
    std::ofstream(file) << j.dump();
    const auto r = run_mmusim({"check", file}, {true});
    EXPECT_EQ(r.code, 1) << what;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
  };
  json j = storm("drop");
  j["buffer"]["PFC_WD"]["Ethernet0"]["action"] = "reboot";
  expect_error(j, "buffer.PFC_WD.Ethernet0.action: must be drop, forward or alert");
  j = storm("drop");
  j["buffer"]["PFC_WD"]["Ethernet0"].erase("detection_time");
  expect_error(j, "buffer.PFC_WD.Ethernet0.detection_time: required field is missing");
  j = storm("drop");
  j["buffer"]["PFC_WD"]["Ethernet9"] = j["buffer"]["PFC_WD"]["Ethernet0"];
  expect_error(j, "buffer.PFC_WD.Ethernet9: unknown port 'Ethernet9'");
  j = storm("drop");
  j["buffer"]["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"] = 0;
  expect_error(j, "buffer.PFC_WD.GLOBAL.POLL_INTERVAL");
  j = storm("drop");
  j["bfc"] = {{"enabled", true}};
  expect_error(j, "buffer.PFC_WD: the PFC watchdog is not modelled with bfc.enabled");
  j = storm("drop");
  j["pfc_storms"][0]["period_us"] = 0.001;
  expect_error(j, "pfc_storms[0].period_us: shorter than one PFC frame on h0's link");
  j = storm("drop");
  j["pfc_storms"][0]["host"] = "h7";
  expect_error(j, "pfc_storms[0].host");
}

// SONiC's PFC_WD as CONFIG_DB writes it: string values, GLOBAL.POLL_INTERVAL, and the
// watched priorities from PORT_QOS_MAP.pfcwd_sw_enable (pfc_enable where absent).
TEST(PfcWatchdog, ConfigDbImport) {
  const std::string file = testing::TempDir() + "pfc_wd_config_db.json";
  json db = storm("")["buffer"];
  for (auto& pool : db["BUFFER_POOL"]) pool["size"] = pool["size"].dump();
  db["PORT_QOS_MAP"] = {{"Ethernet0", {{"pfc_enable", "3,4"}, {"pfcwd_sw_enable", "3"}}},
                        {"Ethernet4", {{"pfc_enable", "3,4"}}}};
  db["PFC_WD"] = {{"GLOBAL", {{"POLL_INTERVAL", "200"}, {"BIG_RED_SWITCH", "enable"}}},
                  {"Ethernet0", {{"action", "forward"}, {"detection_time", "400"}, {"restoration_time", "800"}}},
                  {"Ethernet4", {{"action", "drop"}, {"detection_time", "200"}, {"restoration_time", "400"}}},
                  {"Ethernet64", {{"action", "drop"}, {"detection_time", "200"}, {"restoration_time", "400"}}}};
  std::ofstream(file) << db.dump(1);
  json j = storm("");
  j.erase("buffer");
  j.erase("pfc_storms");
  j["switch_config"] = file;
  mmusim::LoadReport report;
  const mmusim::Scenario sc = mmusim::load_configured_scenario(j, "test", report);
  const auto& wd = sc.pfc_wd;
  EXPECT_EQ(wd.poll_ps, 200'000'000'000u);
  ASSERT_EQ(wd.ports.size(), 3u);
  EXPECT_TRUE(wd.ports[0].enabled);
  EXPECT_EQ(wd.ports[0].action, mmusim::PfcWatchdogCfg::Action::kForward);
  EXPECT_EQ(wd.ports[0].detection_ps, 400'000'000'000u);
  EXPECT_EQ(wd.ports[0].restoration_ps, 800'000'000'000u);
  EXPECT_EQ(wd.ports[0].priorities, 0x08);  // pfcwd_sw_enable
  EXPECT_EQ(wd.ports[1].action, mmusim::PfcWatchdogCfg::Action::kDrop);
  EXPECT_EQ(wd.ports[1].priorities, 0x18);  // pfc_enable
  EXPECT_FALSE(wd.ports[2].enabled);
  std::string ignored;
  for (const auto& i : report.ignored) ignored += i + "\n";
  EXPECT_NE(ignored.find("PFC_WD.GLOBAL fields (BIG_RED_SWITCH)"), std::string::npos) << ignored;
  EXPECT_NE(ignored.find("PFC_WD: ports not in the topology (Ethernet64)"), std::string::npos) << ignored;
  EXPECT_EQ(ignored.find("pfcwd_sw_enable"), std::string::npos) << ignored;
  // config show's view of it.
  const json w = mmusim::effective_config(sc)["switches"][0]["pfc_watchdog"];
  EXPECT_EQ(w["poll_interval_ms"], 200.0);
  EXPECT_EQ(w["ports"]["Ethernet0"], json({{"action", "forward"}, {"detection_ms", 400.0}, {"restoration_ms", 800.0},
                                           {"priorities", {3}}}));
  EXPECT_EQ(w["ports"]["Ethernet4"]["priorities"], json({3, 4}));
  EXPECT_FALSE(w["ports"].contains("Ethernet8"));
}

}  // namespace
