#include "cli/report.h"

#include <cstdio>
#include <string>

namespace mmusim {
namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

void print_report(std::ostream& os, const nlohmann::json& s) {
  const auto& p = s["packets"];
  const auto& d = s["drops"];
  const auto& pfc = s["pfc"];
  os << "scenario " << s["scenario"].get<std::string>() << "  policy " << s["policy"].get<std::string>()
     << "  seed " << s["seed"] << "  simulated " << fmt("%.1f", s["sim_time_ns"].get<double>() / 1000)
     << " us in " << fmt("%.2f", s["wall_time_s"].get<double>()) << " s wall\n";
  os << "packets   injected " << p["injected"] << "  delivered " << p["delivered"] << "  dropped " << p["dropped"]
     << "  buffered at end " << p["buffered_at_end"] << "  hops " << p["hops"] << "\n";
  os << "drops     lossless " << d["lossless"] << "  lossy " << d["lossy"] << "\n";
  os << "pfc       pause frames " << pfc["pause_frames"] << "  resume frames " << pfc["resume_frames"]
     << "  paused " << fmt("%.1f", pfc["paused_time_ns"].get<double>() / 1000) << " queue-us\n";
  if (s.contains("acks")) {
    const auto& a = s["acks"];
    os << "acks      sent " << a["sent"] << "  received " << a["received"] << "  go-back-N rewinds "
       << a["go_back_n_rewinds"] << "  timeouts " << a["timeouts"] << "  retransmitted " << a["retransmitted"] << "\n";
  }
  if (s.contains("smart_pause"))
    os << "smart-pause holds " << s["smart_pause"]["holds"] << "  held "
       << fmt("%.1f", s["smart_pause"]["held_time_ns"].get<double>() / 1000) << " us\n";
  if (s.contains("bfc")) {
    const auto& b = s["bfc"];
    os << "bfc       pause frames " << b["pause_frames"] << "  resume frames " << b["resume_frames"]
       << "  unresolved " << b["unresolved_pauses"] << "  deadlock " << b["deadlock"] << "\n";
  }
  if (s.contains("wred"))
    os << "wred      ecn marked " << s["wred"]["marked"] << "  dropped " << s["wred"]["dropped"] << "\n";
  if (s.contains("int"))
    os << "int       hops recorded " << s["int"]["hops_recorded"] << "  stack full " << s["int"]["stack_full"] << "\n";
  os << "occupancy (KB)     mean      p99      max\n";
  for (const char* c : {"lossless", "lossy", "headroom", "total"}) {
    const auto& o = s["occupancy_bytes"][c];
    os << "  " << c << std::string(10 - std::string(c).size(), ' ')
       << fmt("%9.1f", o["mean"].get<double>() / 1024) << fmt("%9.1f", o["p99"].get<double>() / 1024)
       << fmt("%9.1f", o["max"].get<double>() / 1024) << "\n";
  }
  os << "flows (FCT us)   flows  done     mean      p50      p99      max\n";
  uint64_t unfinished = 0;
  for (auto it = s["generators"].begin(); it != s["generators"].end(); ++it) {
    const auto& g = it.value();
    const auto& f = g["fct_ns"];
    std::string name = it.key().substr(0, 14);
    os << "  " << name << std::string(14 - name.size(), ' ') << fmt("%6.0f", g["flows"].get<double>())
       << fmt("%6.0f", g["completed"].get<double>());
    // No completed flow: no FCT to show (the summary's zeros are not times).
    if (g["completed"].get<uint64_t>() == 0) os << "        –        –        –        –";
    else
      for (const char* k : {"mean", "p50", "p99", "max"}) os << fmt("%9.2f", f[k].get<double>() / 1000);
    os << "\n";
    unfinished += g["flows"].get<uint64_t>() - g["completed"].get<uint64_t>();
  }
  if (unfinished) os << "  " << unfinished << " flows unfinished at the end of the run (FCT over completed flows only)\n";
}

}  // namespace mmusim
