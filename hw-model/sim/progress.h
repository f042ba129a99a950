#pragma once
// Progress of a long run on stderr (mmusim run: when stderr is a terminal, or --progress):
// simulated time, packet-hops per wall second, ETA, at most one line per wall second. On a
// terminal the line is rewritten in place; elsewhere each report is its own line.
#include <cstdint>
#include <cstdio>
#include <string>

namespace mmusim {

class Progress {
 public:
  Progress(std::string name, uint64_t duration_ps, bool enabled, std::FILE* out = stderr);
  // How many slices the run is cut into, so that a report can come about once a second.
  uint64_t chunks() const { return m_enabled ? 1000 : 1; }
  // After each slice: simulated time done, packet-hops so far, wall seconds since the start.
  void update(uint64_t done_ps, uint64_t hops, double wall_s);
  // Ends the in-place line (a terminal) after the last report.
  void finish();

 private:
  std::string m_name;
  uint64_t m_duration_ps;
  bool m_enabled, m_tty;
  std::FILE* m_out;
  double m_last_s = 0;
  bool m_shown = false;
};

}  // namespace mmusim
