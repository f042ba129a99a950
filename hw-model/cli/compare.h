#pragma once
// `mmusim compare`: one scenario under several policies, side by side.
#include <ostream>
#include <string>
#include <vector>

namespace mmusim {

struct CompareArgs {
  std::string scenario;  // empty: the embedded default
  std::vector<std::string> policies;
  std::vector<std::string> sets;
  std::string out = "mmusim-compare";
  long long seed = -1;
  bool plot = true;
};

// Runs `self run` once per policy into OUT/<policy>/, prints the table, writes
// OUT/compare.csv and (with Debian's python3 and matplotlib) OUT/occupancy.png.
// Returns the process exit code.
int run_compare(const std::string& self, const CompareArgs& a, std::ostream& out);

}  // namespace mmusim
