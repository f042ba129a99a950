// SystemC opens the VCD file itself, at the first time step; if that fails, closing its
// trace file divides by zero (the SIGFPE of issue 12 item 3, reached from ~Network). The
// model creates the file first, so the CLI never gets here (tb/cli/test_outputs.cc); this
// forces the failure by removing the directory between elaboration and the run.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>
#include <systemc>

#include "config/scenario.h"
#include "sc_fork.h"
#include "sim/network.h"

namespace mmusim {
namespace {

TEST(VcdOutput, SystemcFailingToOpenTheFileIsAnErrorNotASignal) {
  char tmpl[] = "/tmp/mmusim_vcd_XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  const test::ChildResult r = test::run_in_child([dir] {
    nlohmann::json j = default_scenario_json();
    j["duration_us"] = 50;
    j["measure"] = {{"start_us", 0}, {"end_us", 50}};
    const Scenario sc = load_scenario(j, "default");
    Network net(sc, RunOptions{dir, false, true});
    std::filesystem::remove_all(dir);
    try {
      net.run();
    } catch (const sc_core::sc_report& e) {
      return std::string("refused: ") + e.what();  // ~Network runs on the way out
    }
    return std::string("ran without its directory");
  });
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(r.ok) << r.text;  // a SIGFPE kills the child
  EXPECT_EQ(r.text.rfind("refused: ", 0), 0u) << r.text;
  EXPECT_NE(r.text.find("counters.vcd"), std::string::npos) << r.text;
}

}  // namespace
}  // namespace mmusim
