#pragma once
// Runs the mmusim binary on a scenario and returns its summary.json; every run is
// checked for packet conservation.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace mmusim::test {

inline nlohmann::json load_default() {
  std::ifstream in(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/default.json");
  return nlohmann::json::parse(in);
}

inline std::string temp_dir() {
  char tmpl[] = "/tmp/mmusim-test-XXXXXX";
  const char* d = mkdtemp(tmpl);
  if (!d) throw std::runtime_error("mkdtemp failed");
  return d;
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct RunResult {
  int status = -1;
  std::string output;
  nlohmann::json summary;
  std::string dir;
};

// Runs `mmusim run` on `scenario` with extra arguments; outputs kept in result.dir.
inline RunResult run_mmusim(const nlohmann::json& scenario, const std::string& args = "") {
  RunResult r;
  r.dir = temp_dir();
  const std::string file = r.dir + "/scenario.json";
  std::ofstream(file) << scenario.dump(1);
  const std::string cmd = std::string(MMUSIM_BIN) + " run " + file + " --quiet --out " + r.dir + "/out " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  if (r.status == 0) r.summary = nlohmann::json::parse(slurp(r.dir + "/out/summary.json"));
  return r;
}

inline void expect_conservation(const nlohmann::json& s) {
  const auto& p = s["packets"];
  EXPECT_EQ(p["injected"].get<uint64_t>(),
            p["delivered"].get<uint64_t>() + p["dropped"].get<uint64_t>() + p["buffered_at_end"].get<uint64_t>())
      << p.dump();
}

// Runs, requires success, checks conservation, cleans up.
inline nlohmann::json simulate(const nlohmann::json& scenario, const std::string& args = "") {
  RunResult r = run_mmusim(scenario, args);
  EXPECT_EQ(r.status, 0) << r.output;
  if (r.status != 0) return {};
  expect_conservation(r.summary);
  std::filesystem::remove_all(r.dir);
  return r.summary;
}

}  // namespace mmusim::test
