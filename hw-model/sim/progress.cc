#include "sim/progress.h"

#include <unistd.h>

namespace mmusim {

Progress::Progress(std::string name, uint64_t duration_ps, bool enabled, std::FILE* out)
    : m_name(std::move(name)), m_duration_ps(duration_ps), m_enabled(enabled),
      m_tty(enabled && isatty(fileno(out))), m_out(out) {}

void Progress::update(uint64_t done_ps, uint64_t hops, double wall_s) {
  if (!m_enabled || done_ps >= m_duration_ps || wall_s < m_last_s + 1) return;
  m_last_s = wall_s;
  const double frac = double(done_ps) / double(m_duration_ps);
  const double eta = done_ps ? wall_s * (1 - frac) / frac : 0;
  std::fprintf(m_out, "%s%s: %.1f of %.1f us simulated (%.1f %%), %.2f M packet-hops/s, %.0f s wall, ETA %.0f s%s",
               m_tty ? "\r" : "", m_name.c_str(), double(done_ps) / 1e6, double(m_duration_ps) / 1e6, 100 * frac,
               double(hops) / wall_s / 1e6, wall_s, eta, m_tty ? "   " : "\n");
  std::fflush(m_out);
  m_shown = true;
}

void Progress::finish() {
  if (m_shown && m_tty) std::fprintf(m_out, "\n");
}

}  // namespace mmusim
