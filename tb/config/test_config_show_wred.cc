// `config show` and `config diff` of WRED/ECN attachments and INT classes, through the
// real binary, on scenarios/default.json (256 B cells) with a `wred` and an `int` object.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_harness.h"

namespace {

using cli_harness::run_mmusim;
using nlohmann::json;

class ConfigShowWred : public testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(chdir(MMUSIM_SOURCE_DIR), 0); }
  // Queue 3 of Ethernet0 and Ethernet4 marks (ecn_green, 20 %), queue 1 of Ethernet4 drops.
  static json scenario() {
    json j = json::parse(std::ifstream("scenarios/default.json"));
    j["wred"] = {{"mark_at", "enqueue"},
                 {"WRED_PROFILE",
                  {{"RED_ECN",
                    {{"ecn", "ecn_green"},
                     {"green_min_threshold", 20000},
                     {"green_max_threshold", 200000},
                     {"green_drop_probability", 20}}},
                   {"DROPPER", {{"wred_green_enable", "true"}, {"green_min_threshold", 1000}, {"green_max_threshold", 9000}}}}},
                 {"QUEUE",
                  {{"Ethernet0,Ethernet4|3", {{"wred_profile", "RED_ECN"}}}, {"Ethernet4|1", {{"wred_profile", "DROPPER"}}}}}};
    j["int"] = {{"enabled_classes", {3, 5}}};
    return j;
  }
  static std::string write(const std::string& name, const json& j) {
    const std::string f = testing::TempDir() + name;
    std::ofstream(f) << j.dump();
    return f;
  }
};

TEST_F(ConfigShowWred, JsonHasEachQueuesCurveInBytesAndCells) {
  const auto r = run_mmusim({"config", "show", write("wred_show.json", scenario()), "--json"}, {true});
  ASSERT_EQ(r.code, 0) << r.err;
  const json sw = json::parse(r.out)["switches"][0];
  EXPECT_EQ(sw["wred_mark_at"], "enqueue");
  EXPECT_EQ(sw["int"], json({{"classes", {3, 5}}, {"header_bytes", 42}}));
  const json& e4 = sw["ports"][1];
  ASSERT_EQ(e4["name"], "Ethernet4");
  // 20000 / 256 = 78.1 -> 78 cells, 200000 / 256 = 781.25 -> 781 (thresholds round down);
  // 20 % = (20 x 65536 + 50) / 100 = 13107 in Q16.
  EXPECT_EQ(e4["queues"][3]["wred"], json({{"profile", "RED_ECN"},
                                           {"ecn", "ecn_green"},
                                           {"marks", true},
                                           {"drops", false},
                                           {"green",
                                            {{"min_bytes", 20000},
                                             {"min_cells", 78},
                                             {"max_bytes", 200000},
                                             {"max_cells", 781},
                                             {"probability_pct", 20},
                                             {"probability_q16", 13107}}}}));
  // A lossy queue with wred_green_enable drops; SAI's default probability is 100 % = 2^16.
  const json& d = e4["queues"][1]["wred"];
  EXPECT_EQ(d["drops"], true);
  EXPECT_EQ(d["marks"], false);
  EXPECT_EQ(d["green"]["min_cells"], 3);   // 1000 / 256
  EXPECT_EQ(d["green"]["max_cells"], 35);  // 9000 / 256
  EXPECT_EQ(d["green"]["probability_q16"], 65536);
  EXPECT_FALSE(e4["queues"][0].contains("wred"));
  EXPECT_FALSE(sw["ports"][2]["queues"][3].contains("wred"));  // Ethernet8: not attached
}

TEST_F(ConfigShowWred, TableListsTheAttachedQueues) {
  const auto r = run_mmusim({"config", "show", write("wred_table.json", scenario())}, {true});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("WRED/ECN, marking at enqueue:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Ethernet4|1     DROPPER                 ecn_none          drop    1000 (3)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Ethernet0|3     RED_ECN                 ecn_green         mark    20000 (78)              "
                       "200000 (781)            20 %"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("INT on TCs 3,5, header 42 B"), std::string::npos) << r.out;
  // Without the objects, neither section.
  const auto plain = run_mmusim({"config", "show", "scenarios/default.json"}, {true});
  EXPECT_EQ(plain.out.find("WRED"), std::string::npos);
  EXPECT_EQ(plain.out.find("INT on"), std::string::npos);
}

TEST_F(ConfigShowWred, DiffCoversWredAndInt) {
  json b = scenario();
  b["wred"]["WRED_PROFILE"]["RED_ECN"]["green_max_threshold"] = 100000;  // 390 cells
  b["int"]["enabled_classes"] = {3};
  const auto r = run_mmusim({"config", "diff", write("wred_a.json", scenario()), write("wred_b.json", b)}, {true});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("switches[sw0].ports[Ethernet4].queues[3].wred.green.max_cells: 781 -> 390\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("switches[sw0].ports[Ethernet0].queues[3].wred.green.max_bytes: 200000 -> 100000\n"),
            std::string::npos);
  EXPECT_NE(r.out.find("switches[sw0].int.classes: [3,5] -> [3]\n"), std::string::npos) << r.out;
  // Two queues x (max_bytes, max_cells), and the INT classes.
  EXPECT_NE(r.out.find("5 differences"), std::string::npos) << r.out;
  json none = scenario();
  none.erase("wred");
  const auto gone = run_mmusim({"config", "diff", write("wred_c.json", scenario()), write("wred_d.json", none)}, {true});
  ASSERT_EQ(gone.code, 0) << gone.err;
  EXPECT_NE(gone.out.find("switches[sw0].ports[Ethernet4].queues[1].wred: {"), std::string::npos) << gone.out;
  EXPECT_NE(gone.out.find("switches[sw0].wred_mark_at: \"enqueue\" -> (absent)"), std::string::npos) << gone.out;
}

}  // namespace
