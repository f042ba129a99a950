// Module tests: Harness self-checks: a failing child must be reported, not mistaken for a pass.
// Expected numbers are hand-computed in the comments (figures: module_bench.h).
#include "module_bench.h"

namespace mmusim {
namespace {

using namespace modtest;

TEST(Harness, ReportsSystemcErrorAndException) {
  const ChildResult e = run_in_child([]() -> std::string {
    SC_REPORT_ERROR("mmusim/test", "deliberate error");
    return "not reached";
  });
  EXPECT_FALSE(e.ok);
  EXPECT_NE(e.text.find("deliberate error"), std::string::npos) << e.text;

  const ChildResult x = run_in_child([]() -> std::string { throw std::runtime_error("boom"); });
  EXPECT_FALSE(x.ok);
  EXPECT_NE(x.text.find("boom"), std::string::npos) << x.text;

  const ChildResult ok = run_in_child([] { return std::string("fine"); });
  EXPECT_TRUE(ok.ok);
  EXPECT_EQ(ok.text, "fine");
}

}  // namespace
}  // namespace mmusim
