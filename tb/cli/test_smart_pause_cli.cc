// Bad host.acks / host.smart_pause keys through the real mmusim binary: exit 1, the field
// named, no crash; and the valid forms are accepted.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_harness.h"

namespace {

using nlohmann::json;
using cli_harness::expect_error;
using cli_harness::Result;
using cli_harness::run_mmusim;

class SmartPauseCli : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/mmusim_spcli_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    m_dir = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }

  // `mmusim check` on the default scenario with `host` set to the given object.
  Result check(const json& host) {
    std::ifstream in(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/default.json");
    json j = json::parse(in);
    j["host"] = host;
    const std::string path = m_dir + "/scenario.json";
    std::ofstream(path) << j.dump(1);
    return run_mmusim({"check", path});
  }
  std::string m_dir;
};

const json kDynamic = {{"enabled", true}, {"threshold_ns_by_hops", {12000, 13000, 14000, 15000, 16000}},
                       {"pause", "dynamic"}};

TEST_F(SmartPauseCli, ValidFormsAreAccepted) {
  for (const json& host : {json{{"smart_pause", kDynamic}},
                           json{{"acks", {{"enabled", true}, {"bytes", 64}, {"dscp", 48}, {"rto_us", 200}}}},
                           json{{"smart_pause",
                                 {{"enabled", true}, {"threshold_ns", 50000}, {"pause", "fixed"}, {"pause_ns", 20000}}}},
                           json{{"acks", {{"enabled", false}}}, {"smart_pause", {{"enabled", false}}}}}) {
    const Result r = check(host);
    EXPECT_EQ(r.code, 0) << host.dump() << "\n" << r.out;
  }
}

TEST_F(SmartPauseCli, UnknownPauseMode) {
  json sp = kDynamic;
  sp["pause"] = "adaptive";
  expect_error(check({{"smart_pause", sp}}), 1, {"host.smart_pause.pause", "fixed or dynamic", "adaptive"});
}

TEST_F(SmartPauseCli, EnabledWithoutThreshold) {
  expect_error(check({{"smart_pause", {{"enabled", true}, {"pause", "dynamic"}}}}), 1,
               {"host.smart_pause", "threshold_ns or threshold_ns_by_hops is required"});
}

TEST_F(SmartPauseCli, BothThresholdForms) {
  json sp = kDynamic;
  sp["threshold_ns"] = 12000;
  expect_error(check({{"smart_pause", sp}}), 1, {"host.smart_pause", "not both"});
}

TEST_F(SmartPauseCli, ThresholdZero) {
  expect_error(check({{"smart_pause", {{"enabled", true}, {"threshold_ns", 0}, {"pause", "dynamic"}}}}), 1,
               {"host.smart_pause.threshold_ns", "must be > 0"});
}

TEST_F(SmartPauseCli, ThresholdListEmpty) {
  json sp = kDynamic;
  sp["threshold_ns_by_hops"] = json::array();
  expect_error(check({{"smart_pause", sp}}), 1, {"host.smart_pause.threshold_ns_by_hops", "array of 1 to 64"});
}

TEST_F(SmartPauseCli, ThresholdListBadEntryNamesIndex) {
  json sp = kDynamic;
  sp["threshold_ns_by_hops"] = {12000, -5};
  expect_error(check({{"smart_pause", sp}}), 1, {"host.smart_pause.threshold_ns_by_hops[1]"});
  sp["threshold_ns_by_hops"] = {"12us"};
  expect_error(check({{"smart_pause", sp}}), 1, {"host.smart_pause.threshold_ns_by_hops[0]"});
}

TEST_F(SmartPauseCli, FixedPauseNeedsPauseNs) {
  expect_error(check({{"smart_pause", {{"enabled", true}, {"threshold_ns", 50000}, {"pause", "fixed"}}}}), 1,
               {"host.smart_pause.pause_ns", "required field is missing"});
}

TEST_F(SmartPauseCli, DynamicPauseRejectsPauseNs) {
  json sp = kDynamic;
  sp["pause_ns"] = 20000;
  expect_error(check({{"smart_pause", sp}}), 1, {"host.smart_pause.pause_ns", "only with pause fixed"});
}

TEST_F(SmartPauseCli, SmartPauseWithAcksOff) {
  expect_error(check({{"acks", {{"enabled", false}}}, {"smart_pause", kDynamic}}), 1,
               {"host.smart_pause.enabled", "needs host.acks"});
}

TEST_F(SmartPauseCli, EnabledNotBoolean) {
  expect_error(check({{"acks", {{"enabled", "yes"}}}}), 1, {"host.acks.enabled", "true or false"});
}

TEST_F(SmartPauseCli, AckBytesOutOfRange) {
  expect_error(check({{"acks", {{"enabled", true}, {"bytes", 32}}}}), 1, {"host.acks.bytes", "[64, 1500]"});
  expect_error(check({{"acks", {{"enabled", true}, {"bytes", 9000}}}}), 1, {"host.acks.bytes", "[64, 1500]"});
}

TEST_F(SmartPauseCli, AckDscpOutOfRange) {
  expect_error(check({{"acks", {{"enabled", true}, {"dscp", 64}}}}), 1, {"host.acks.dscp", "[0, 63]"});
}

TEST_F(SmartPauseCli, RtoZero) {
  expect_error(check({{"acks", {{"enabled", true}, {"rto_us", 0}}}}), 1, {"host.acks.rto_us", "must be > 0"});
}

TEST_F(SmartPauseCli, UnknownKeys) {
  json sp = kDynamic;
  sp["treshold_ns"] = 1;
  expect_error(check({{"smart_pause", sp}}), 1, {"host.smart_pause.treshold_ns", "unknown key"});
  expect_error(check({{"ack", json::object()}}), 1, {"host.ack", "unknown key"});
}

TEST_F(SmartPauseCli, HostNotAnObject) {
  expect_error(check(json::array({1})), 1, {"host", "must be an object"});
}

}  // namespace
