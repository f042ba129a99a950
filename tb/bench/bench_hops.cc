// Simulation speed: packet-hops (data frames carried by a link) per wall-second on the
// default scenario and a 64-port variant. One forked child per scenario, since a SystemC
// kernel elaborates once per process.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/scenario.h"
#include "cosim/rtl_engine.h"
#include "sim/network.h"

namespace {

nlohmann::json variant_64_ports() {
  nlohmann::json j = mmusim::default_scenario_json();
  j["name"] = "default-64port";
  j["topology"]["ports"] = 64;
  std::string all;
  for (int i = 0; i < 64; ++i) all += (i ? ",Ethernet" : "Ethernet") + std::to_string(4 * i);
  auto& b = j["buffer"];
  for (const char* t : {"BUFFER_PG", "BUFFER_QUEUE"}) {
    nlohmann::json fixed;
    for (auto it = b[t].begin(); it != b[t].end(); ++it)
      fixed[all + it.key().substr(it.key().find('|'))] = it.value();
    b[t] = fixed;
  }
  b["PORT_QOS_MAP"] = {{all, b["PORT_QOS_MAP"].begin().value()}};
  // Same 16-to-1 incast; 2:1 lossy background from h18..h63 onto h1..h23.
  nlohmann::json dst = nlohmann::json::array();
  for (int k = 0; k < 46; ++k) dst.push_back("h" + std::to_string(1 + k / 2));
  j["traffic"][1]["src"] = "h18-h63";
  j["traffic"][1]["dst"] = dst;
  return j;
}

// Returns "hops wall_s" from a child process.
std::string run_child(const nlohmann::json& j) {
  int fd[2];
  if (pipe(fd) != 0) std::exit(2);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    const mmusim::Scenario sc = mmusim::load_scenario(j, j["name"].get<std::string>());
    mmusim::Network net(sc, {});
    const auto t0 = std::chrono::steady_clock::now();
    const nlohmann::json s = net.run();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string out = std::to_string(s["packets"]["hops"].get<uint64_t>()) + " " + std::to_string(wall) +
                            " " + std::to_string(s["sim_time_ns"].get<double>()) + " " +
                            std::to_string(s["switches"][0]["packets"]["received"].get<uint64_t>()) + " " +
                            std::to_string(net.sw().mmu.rtl_cycles());
    if (write(fd[1], out.data(), out.size()) < 0) _exit(3);
    _exit(0);
  }
  close(fd[1]);
  char buf[256];
  const ssize_t n = read(fd[0], buf, sizeof buf - 1);
  close(fd[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  if (n <= 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    std::fprintf(stderr, "bench child failed\n");
    std::exit(1);
  }
  return std::string(buf, size_t(n));
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 3;
  std::printf("%-16s %-4s %9s %10s %9s %12s %14s %14s\n", "scenario", "impl", "sim_us", "hops", "wall_s",
              "hops_per_s", "decisions_per_s", "rtl_cycles_per_s");
  nlohmann::json rtl = mmusim::default_scenario_json();
  rtl["name"] = "default-incast";
  rtl["admission"]["impl"] = "rtl";
  std::vector<std::pair<nlohmann::json, const char*>> runs = {
      {mmusim::default_scenario_json(), "cpp"}, {variant_64_ports(), "cpp"}};
  if (mmusim::RtlEngine::available()) runs.push_back({rtl, "rtl"});
  for (const auto& [j, impl] : runs) {
    double best = 0, best_wall = 0, sim_ns = 0;
    unsigned long long hops = 0, decisions = 0, cycles = 0;
    for (int r = 0; r < reps; ++r) {
      double wall = 0;
      std::sscanf(run_child(j).c_str(), "%llu %lf %lf %llu %llu", &hops, &wall, &sim_ns, &decisions, &cycles);
      const double rate = double(hops) / wall;
      if (rate > best) best = rate, best_wall = wall;
    }
    std::printf("%-16s %-4s %9.0f %10llu %9.3f %12.0f %14.0f %14.0f\n", j["name"].get<std::string>().c_str(), impl,
                sim_ns / 1000, hops, best_wall, best, double(decisions) / best_wall, double(cycles) / best_wall);
  }
  return 0;
}
