// Bad "bfc" keys through the mmusim binary: each exits 1 and names the field.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "../scenario/scenario_harness.h"

namespace mmusim::test {
namespace {

using nlohmann::json;

json with_bfc(const json& bfc) {
  json s = base_scenario(4, 10);
  s["buffer"] = sonic_buffer(4, 16 * 1024 * 1024, 12 * 1024 * 1024, nullptr, 12 * 1024 * 1024, 0, 0, nullptr);
  s["bfc"] = bfc;
  s["traffic"] = json::array({constant("h0", "h1", 8)});
  return s;
}

void expect_rejected(const json& bfc, const std::string& field, const std::string& why) {
  RunResult r = run_mmusim(with_bfc(bfc));
  EXPECT_EQ(r.status, 1) << bfc.dump() << "\n" << r.output;
  EXPECT_NE(r.output.find(field), std::string::npos) << "message should name " << field << ":\n" << r.output;
  EXPECT_NE(r.output.find(why), std::string::npos) << r.output;
  std::filesystem::remove_all(r.dir);
}

TEST(BfcBadInput, KeysAreValidatedAndNamed) {
  expect_rejected({{"enabled", true}, {"queues", 32}}, "bfc.queues", "unknown key");
  expect_rejected({{"enabled", "yes"}}, "bfc.enabled", "true or false");
  expect_rejected({{"enabled", true}, {"queues_per_port", 0}}, "bfc.queues_per_port", "[1, 128]");
  expect_rejected({{"enabled", true}, {"queues_per_port", 129}}, "bfc.queues_per_port", "[1, 128]");
  expect_rejected({{"enabled", true}, {"queues_per_port", 8.5}}, "bfc.queues_per_port", "integer");
  expect_rejected({{"enabled", true}, {"assignment", "stochastic"}}, "bfc.assignment", "dynamic, hash or single");
  expect_rejected({{"enabled", true}, {"hrtt_ns", 0}}, "bfc.hrtt_ns", "> 0");
  expect_rejected({{"enabled", true}, {"hrtt_ns", -3}}, "bfc.hrtt_ns", "> 0");
  expect_rejected({{"enabled", true}, {"sticky_factor", -1}}, "bfc.sticky_factor", "[0, 1e6]");
  expect_rejected({{"enabled", true}, {"refresh_ns", 0}}, "bfc.refresh_ns", "> 0");
  expect_rejected({{"enabled", true}, {"table_factor", 0}}, "bfc.table_factor", "[1, 10000]");
  expect_rejected({{"enabled", true}, {"suppress", "Ethernet0"}}, "bfc.suppress", "array");
  expect_rejected({{"enabled", true}, {"suppress", json::array({{{"ingress", "Ethernet0"}}})}},
                  "bfc.suppress[0].egress", "required");
  expect_rejected({{"enabled", true}, {"suppress", json::array({{{"ingress", "Ethernet99"}, {"egress", "Ethernet4"}}})}},
                  "bfc.suppress[0].ingress", "unknown port 'Ethernet99'");
  expect_rejected({{"enabled", true}, {"suppress", json::array({{{"ingress", "Ethernet0"}, {"egress", 4}}})}},
                  "bfc.suppress[0].egress", "port name");
  expect_rejected({{"enabled", true}, {"suppress", json::array({{{"ingress", "Ethernet0"}, {"egress", "Ethernet4"}, {"both", true}}})}},
                  "bfc.suppress[0].both", "unknown key");
  expect_rejected(json::array(), "bfc", "must be an object");
}

TEST(BfcBadInput, GoodKeysAreAccepted) {
  RunResult r = run_mmusim(with_bfc({{"enabled", true}, {"queues_per_port", 128}, {"assignment", "hash"},
                                     {"hrtt_ns", 2000}, {"sticky_factor", 0}, {"refresh_ns", 500},
                                     {"table_factor", 25},
                                     {"suppress", json::array({{{"ingress", "Ethernet0"}, {"egress", "Ethernet4"}}})}}));
  EXPECT_EQ(r.status, 0) << r.output;
  std::filesystem::remove_all(r.dir);
}

// output.bfc_queues is a boolean and only means something with BFC on.
TEST(BfcBadInput, QueueSeriesNeedsBfc) {
  json s = with_bfc({{"enabled", true}});
  s["output"]["bfc_queues"] = "yes";
  RunResult r = run_mmusim(s);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("output.bfc_queues"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("true or false"), std::string::npos) << r.output;
  std::filesystem::remove_all(r.dir);
  s = with_bfc({{"enabled", false}});
  s["output"]["bfc_queues"] = true;
  r = run_mmusim(s);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("output.bfc_queues"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("needs bfc.enabled"), std::string::npos) << r.output;
  std::filesystem::remove_all(r.dir);
}

}  // namespace
}  // namespace mmusim::test
