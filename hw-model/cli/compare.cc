#include "cli/compare.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "output/checked_file.h"
#include "output/output_dir.h"

namespace mmusim {
namespace {

// fork + exec without a shell: arguments never need quoting.
int run(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    execv(args[0], args.data());
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0) return 127;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

struct Column {
  const char* title;
  const char* csv;
  std::function<double(const nlohmann::json&)> get;
  const char* fmt;
};

}  // namespace

int run_compare(const std::string& self, const CompareArgs& a, std::ostream& out) {
  try {
    OutputDir::prepare(a.out, "--out");
  } catch (const OutputError& e) {
    std::cerr << "mmusim: error: " << e.what() << "\n";
    return 1;
  }
  std::vector<nlohmann::json> sums;
  for (const auto& p : a.policies) {
    std::vector<std::string> argv = {self, "run"};
    if (!a.scenario.empty()) argv.push_back(a.scenario);
    for (const auto& s : a.sets) argv.insert(argv.end(), {"--set", s});
    if (a.seed >= 0) argv.insert(argv.end(), {"--seed", std::to_string(a.seed)});
    argv.insert(argv.end(), {"--policy", p, "--quiet", "--out", a.out + "/" + p});
    const int rc = run(argv);
    if (rc != 0) {
      std::cerr << "mmusim compare: the run under policy '" << p << "' failed (exit " << rc << ")\n";
      return rc;
    }
    std::ifstream in(a.out + "/" + p + "/summary.json");
    sums.push_back(nlohmann::json::parse(in));
  }

  const std::vector<Column> cols = {
      {"pause frames", "pause_frames", [](const auto& s) { return s["pfc"]["pause_frames"].template get<double>(); }, "%14.0f"},
      {"paused us", "paused_time_us", [](const auto& s) { return s["pfc"]["paused_time_ns"].template get<double>() / 1e3; }, "%14.1f"},
      {"drops lossless", "drops_lossless", [](const auto& s) { return s["drops"]["lossless"].template get<double>(); }, "%14.0f"},
      {"drops lossy", "drops_lossy", [](const auto& s) { return s["drops"]["lossy"].template get<double>(); }, "%14.0f"},
      {"p99 lossless KB", "p99_lossless_bytes", [](const auto& s) { return s["occupancy_bytes"]["lossless"]["p99"].template get<double>(); }, "%14.1f"},
      {"p99 lossy KB", "p99_lossy_bytes", [](const auto& s) { return s["occupancy_bytes"]["lossy"]["p99"].template get<double>(); }, "%14.1f"},
      {"incast FCT us", "incast_fct_mean_ns", [](const auto& s) { return s["flows"]["incast_fct_ns"]["mean"].template get<double>(); }, "%14.2f"},
      {"incast p99 us", "incast_fct_p99_ns", [](const auto& s) { return s["flows"]["incast_fct_ns"]["p99"].template get<double>(); }, "%14.2f"},
      {"backgr. FCT us", "background_fct_mean_ns", [](const auto& s) { return s["flows"]["background_fct_ns"]["mean"].template get<double>(); }, "%14.2f"},
      {"backgr. p99 us", "background_fct_p99_ns", [](const auto& s) { return s["flows"]["background_fct_ns"]["p99"].template get<double>(); }, "%14.2f"},
  };
  // Table: one row per metric, one column per policy; KB and us scaled for reading only.
  char buf[64];
  std::snprintf(buf, sizeof buf, "%-16s", "policy");
  out << buf;
  for (const auto& p : a.policies) {
    std::snprintf(buf, sizeof buf, "%14s", p.c_str());
    out << buf;
  }
  out << "\n";
  for (const auto& c : cols) {
    std::snprintf(buf, sizeof buf, "%-16s", c.title);
    out << buf;
    const std::string t = c.title;
    const double scale = t.find("KB") != std::string::npos ? 1024.0 : t.find("FCT") != std::string::npos || t.find("p99 us") != std::string::npos ? 1000.0 : 1.0;
    for (const auto& s : sums) {
      std::snprintf(buf, sizeof buf, c.fmt, c.get(s) / scale);
      out << buf;
    }
    out << "\n";
  }

  std::ostringstream csv;
  csv << "policy";
  for (const auto& c : cols) csv << ',' << c.csv;
  csv << "\n";
  for (size_t i = 0; i < sums.size(); ++i) {
    csv << a.policies[i];
    for (const auto& c : cols) {
      std::snprintf(buf, sizeof buf, "%.15g", c.get(sums[i]));
      csv << ',' << buf;
    }
    csv << "\n";
  }
  try {
    write_file_atomic(a.out + "/compare.csv", csv.str());
  } catch (const OutputError& e) {
    std::cerr << "mmusim compare: " << e.what() << "\n";
    return 1;
  }
  out << "wrote " << a.out << "/compare.csv\n";

  if (a.plot) {
    const std::string py = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "";
    const std::string script = std::string(MMUSIM_SOURCE_DIR) + "/traffic/plot_compare.py";
    if (py.empty() || !std::filesystem::exists(script)) {
      std::cerr << "mmusim compare: no plot (needs /usr/bin/python3 and " << script << ")\n";
    } else {
      // Several switches: plot the one most loaded under the first policy (its own series file).
      std::string series = "timeseries.csv", which;
      const auto& sws = sums[0]["switches"];
      if (sws.size() > 1) {
        size_t best = 0;
        for (size_t i = 1; i < sws.size(); ++i)
          if (sws[i]["occupancy_bytes"]["total"]["max"].get<double>() > sws[best]["occupancy_bytes"]["total"]["max"].get<double>())
            best = i;
        which = sws[best]["name"].get<std::string>();
        series = "timeseries_" + which + ".csv";
      }
      // Plotted under a temporary name, renamed once complete.
      const std::string png = a.out + "/occupancy.png";
      const std::string tmp = a.out + "/.partial-" + std::to_string(getpid()) + ".occupancy.png";
      std::vector<std::string> argv = {py, script, "-o", tmp};
      for (const auto& p : a.policies) argv.push_back(p + "=" + a.out + "/" + p + "/" + series);
      if (run(argv) != 0 || std::rename(tmp.c_str(), png.c_str()) != 0) {
        std::remove(tmp.c_str());
        std::cerr << "mmusim compare: plotting failed (python3-matplotlib installed?)\n";
      } else {
        out << "wrote " << png << (which.empty() ? "" : " (switch " + which + ")") << "\n";
      }
    }
  }
  return 0;
}

}  // namespace mmusim
