#pragma once
// bfc-nsdi22 Fig. 8 (congestion spreading vs queue assignment), independent of how the
// 3-switch testbed (Fig. 6) is built: the three flow groups as generators between named
// hosts, and the mean and standard deviation of group 1's FCT over runs. The topology
// that routes group 1 and 2 through switch 1 -> switch 2 and group 3 through switch 3 ->
// switch 2 is the caller's (multi-switch topologies, not part of this helper).
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mmusim::test {

struct Fig8Hosts {
  std::vector<std::string> group1, group2, group3;  // sender hosts ("h3"); flows go round robin
  std::string receiver1, receiver2;
};

// Two group-1 flows to receiver 1, `group2_flows` group-2 and eight group-3 flows to
// receiver 2, all 1.5 MB, all starting at `start_us`: one single-sender incast generator
// per flow, named group<g>_<k>. `dscp` picks the class (lossy 8 by default).
inline nlohmann::json fig8_traffic(const Fig8Hosts& h, int group2_flows, double start_us = 1, int dscp = 8) {
  nlohmann::json gens = nlohmann::json::array();
  auto add = [&](int g, const std::vector<std::string>& senders, const std::string& rx, int n) {
    for (int k = 0; k < n; ++k)
      gens.push_back({{"type", "incast"},
                      {"name", "group" + std::to_string(g) + "_" + std::to_string(k)},
                      {"senders", senders.at(size_t(k) % senders.size())},
                      {"receiver", rx},
                      {"burst_bytes", 1'500'000},
                      {"start_us", start_us},
                      {"dscp", dscp}});
  };
  add(1, h.group1, h.receiver1, 2);
  add(2, h.group2, h.receiver2, group2_flows);
  add(3, h.group3, h.receiver2, 8);
  return gens;
}

struct Fig8Fct {
  double mean_us = 0;  // over runs, of each run's mean group FCT
  double std_us = 0;   // sample standard deviation over runs (Fig. 8's whiskers)
  int runs = 0;
  bool all_completed = true;
};

// Mean FCT of group `g`'s flows in each run (summary.json generators.group<g>_*), then the
// mean and sample standard deviation over the runs.
inline Fig8Fct fig8_group_fct(const std::vector<nlohmann::json>& summaries, int g) {
  Fig8Fct r;
  std::vector<double> per_run;
  const std::string prefix = "group" + std::to_string(g) + "_";
  for (const auto& s : summaries) {
    double sum = 0;
    int n = 0;
    for (auto it = s.at("generators").begin(); it != s.at("generators").end(); ++it) {
      if (it.key().rfind(prefix, 0) != 0) continue;
      const auto& gen = it.value();
      if (gen.at("completed").get<int>() != gen.at("flows").get<int>()) r.all_completed = false;
      if (gen.at("completed").get<int>() == 0) continue;
      sum += gen.at("fct_ns").at("mean").get<double>() * gen.at("completed").get<int>();
      n += gen.at("completed").get<int>();
    }
    if (n) per_run.push_back(sum / n / 1000.0);
  }
  r.runs = int(per_run.size());
  if (per_run.empty()) return r;
  for (double v : per_run) r.mean_us += v / double(per_run.size());
  if (per_run.size() > 1) {
    double ss = 0;
    for (double v : per_run) ss += (v - r.mean_us) * (v - r.mean_us);
    r.std_us = std::sqrt(ss / double(per_run.size() - 1));
  }
  return r;
}

}  // namespace mmusim::test
