// Bad "wred" and "int" keys (and a generator's "ecn") through the mmusim binary: each exits
// 1 and names the field.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "../scenario/scenario_harness.h"

namespace mmusim::test {
namespace {

using nlohmann::json;

const json kGood = {{"wred_green_enable", "true"},
                    {"ecn", "ecn_all"},
                    {"green_min_threshold", "1048576"},
                    {"green_max_threshold", "2097152"},
                    {"green_drop_probability", "5"}};

json scenario(const json& wred) {
  json s = base_scenario(4, 10);
  s["buffer"] = sonic_buffer(4, 16 * 1024 * 1024, 12 * 1024 * 1024, nullptr, 12 * 1024 * 1024, 0, 0, nullptr);
  s["wred"] = wred;
  s["traffic"] = json::array({constant("h0", "h1", 24)});
  return s;
}

// A profile `p` named P on Ethernet0|<queues> (3 is lossless, 1 lossy in sonic_buffer).
json on_queue(const json& p, const std::string& queues = "3") {
  return {{"WRED_PROFILE", {{"P", p}}}, {"QUEUE", {{"Ethernet0|" + queues, {{"wred_profile", "P"}}}}}};
}

json with(json p, const std::string& key, const json& v) {
  p[key] = v;
  return p;
}

void expect_rejected(const json& s, const std::string& field, const std::string& why) {
  RunResult r = run_mmusim(s);
  EXPECT_EQ(r.status, 1) << s.dump() << "\n" << r.output;
  EXPECT_NE(r.output.find(field), std::string::npos) << "message should name " << field << ":\n" << r.output;
  EXPECT_NE(r.output.find(why), std::string::npos) << r.output;
  std::filesystem::remove_all(r.dir);
}

TEST(WredBadInput, ProfilesAreValidatedAndNamed) {
  const std::string f = "wred.WRED_PROFILE.P.";
  expect_rejected(scenario(on_queue(with(kGood, "green_min_threshold", "3000000"))), f + "green_min_threshold",
                  "3000000 is above green_max_threshold (2097152)");
  expect_rejected(scenario(on_queue(with(kGood, "green_drop_probability", "101"))), f + "green_drop_probability",
                  "[0, 100]");
  expect_rejected(scenario(on_queue(with(kGood, "green_drop_probability", -1))), f + "green_drop_probability",
                  "[0, 100]");
  expect_rejected(scenario(on_queue(with(kGood, "green_drop_probability", 2.5))), f + "green_drop_probability",
                  "integer");
  expect_rejected(scenario(on_queue(with(kGood, "ecn", "ecn_blue"))), f + "ecn", "unknown mode 'ecn_blue'");
  expect_rejected(scenario(on_queue(with(kGood, "wred_green_enable", "yes"))), f + "wred_green_enable",
                  "true or false");
  expect_rejected(scenario(on_queue(with(kGood, "green_mark_probability", "5"))), f + "green_mark_probability",
                  "unknown key");
  json no_max = kGood;
  no_max.erase("green_max_threshold");
  expect_rejected(scenario(on_queue(no_max)), f + "green_max_threshold", "required with green_min_threshold");
  json no_curve = kGood;
  no_curve.erase("green_max_threshold");
  no_curve.erase("green_min_threshold");
  expect_rejected(scenario(on_queue(no_curve)), f + "green_min_threshold", "required");
  expect_rejected(scenario(on_queue(with(kGood, "yellow_min_threshold", 9))), f + "yellow_max_threshold",
                  "required with yellow_min_threshold");
  expect_rejected(scenario(on_queue(with(with(kGood, "red_min_threshold", 1), "red_max_threshold", "x"))),
                  f + "red_max_threshold", "not a number");
}

TEST(WredBadInput, AttachmentsAreValidatedAndNamed) {
  // A lossless queue is never WRED-dropped: a profile that cannot mark green there is an error.
  expect_rejected(scenario(on_queue(with(kGood, "ecn", "ecn_none"))), "wred.QUEUE.Ethernet0|3.wred_profile",
                  "lossless queue Ethernet0|3 does not mark green packets (ecn 'ecn_none')");
  expect_rejected(scenario(on_queue(with(kGood, "ecn", "ecn_yellow_red"))), "wred.QUEUE.Ethernet0|3.wred_profile",
                  "does not mark green");
  expect_rejected(scenario({{"WRED_PROFILE", {{"P", kGood}}}, {"QUEUE", {{"Ethernet0|3", {{"wred_profile", "Q"}}}}}}),
                  "wred.QUEUE.Ethernet0|3.wred_profile", "unknown profile 'Q'");
  expect_rejected(scenario({{"QUEUE", {{"Ethernet0|3", {{"wred_profile", "P"}}}}}}),
                  "wred.QUEUE.Ethernet0|3.wred_profile", "unknown profile 'P'");
  expect_rejected(scenario({{"WRED_PROFILE", {{"P", kGood}}}, {"QUEUE", {{"Ethernet0|3", {{"profile", "P"}}}}}}),
                  "wred.QUEUE.Ethernet0|3.wred_profile", "required");
  expect_rejected(scenario({{"WRED_PROFILE", {{"P", kGood}}},
                            {"QUEUE", {{"Ethernet0|3", {{"wred_profile", "[BUFFER_PROFILE|P]"}}}}}}),
                  "wred.QUEUE.Ethernet0|3.wred_profile", "[WRED_PROFILE|name]");
  expect_rejected(scenario(on_queue(kGood, "8")), "wred.QUEUE.Ethernet0|8", "queues 0..7");
  expect_rejected(scenario(on_queue(kGood, "4-3")), "wred.QUEUE.Ethernet0|4-3", "empty");
  expect_rejected(scenario({{"WRED_PROFILE", {{"P", kGood}}}, {"QUEUE", {{"Ethernet99|3", {{"wred_profile", "P"}}}}}}),
                  "wred.QUEUE.Ethernet99|3", "unknown port 'Ethernet99'");
  expect_rejected(scenario({{"WRED_PROFILE", {{"P", kGood}}}, {"QUEUE", {{"Ethernet0", {{"wred_profile", "P"}}}}}}),
                  "wred.QUEUE.Ethernet0", "PORTS|QUEUES");
  expect_rejected(scenario({{"mark_at", "egress"}}), "wred.mark_at", "dequeue or enqueue");
  expect_rejected(scenario({{"marks", 1}}), "wred.marks", "unknown key");
  expect_rejected(scenario(json::array()), "wred", "must be an object");
}

TEST(WredBadInput, IntAndGeneratorEcnAreValidatedAndNamed) {
  json s = scenario(on_queue(kGood));
  s["int"] = {{"enabled_classes", {8}}};
  expect_rejected(s, "int.enabled_classes", "priority 0..7");
  s["int"] = {{"enabled_classes", 3}};
  expect_rejected(s, "int.enabled_classes", "array");
  s["int"] = {{"enabled_classes", {3}}, {"header_bytes", -1}};
  expect_rejected(s, "int.header_bytes", "[0, 1024]");
  s["int"] = {{"header_bytes", 42}};
  expect_rejected(s, "int.enabled_classes", "required");
  s.erase("int");
  s["traffic"][0]["ecn"] = "ce";
  expect_rejected(s, "traffic[0].ecn", "not_ect, ect0 or ect1");
}

TEST(WredBadInput, GoodKeysAreAccepted) {
  json s = scenario({{"mark_at", "enqueue"},
                     {"WRED_PROFILE", {{"P", kGood}, {"L", with(with(kGood, "ecn", "ecn_none"), "yellow_min_threshold", 0)}}},
                     {"QUEUE", {{"Ethernet0,Ethernet4|3-4", {{"wred_profile", "[WRED_PROFILE|P]"}}},
                                {"Ethernet0|0-2,5", {{"wred_profile", "L"}}}}}});
  s["wred"]["WRED_PROFILE"]["L"]["yellow_max_threshold"] = 10;
  s["int"] = {{"enabled_classes", {3}}, {"header_bytes", 0}};
  s["traffic"][0]["ecn"] = "ect1";
  RunResult r = run_mmusim(s);
  EXPECT_EQ(r.status, 0) << r.output;
  std::filesystem::remove_all(r.dir);
}

}  // namespace
}  // namespace mmusim::test
