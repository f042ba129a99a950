#pragma once
// Receiver side of PFC: per-priority pause timers of one transmitter. A frame pauses each
// enabled priority for its quanta (512 bit times each); zero quanta resumes at once.
#include <array>
#include <cstdint>

#include "pfc/pfc_frame.h"

namespace mmusim {

class PauseTimers {
 public:
  explicit PauseTimers(uint64_t link_bps) : m_link_bps(link_bps) {}

  void apply(const PfcFrame& f, uint64_t now) {
    for (int p = 0; p < 8; ++p)
      if (f.class_enable >> p & 1) {
        const size_t i = size_t(p);
        const uint64_t end = m_until[i] < now ? m_until[i] : now;  // close the last interval
        if (end > m_since[i]) m_paused_ps += end - m_since[i];
        m_since[i] = now;
        m_until[i] = now + pause_quanta_to_ps(f.quanta[i], m_link_bps);
      }
    m_last_until = 0;
    for (uint64_t u : m_until) m_last_until = u > m_last_until ? u : m_last_until;
  }
  bool paused(uint8_t prio, uint64_t now) const { return m_until[prio] > now; }
  bool any_paused(uint8_t mask, uint64_t now) const {
    if (m_last_until <= now) return false;  // mostly: no pause running
    for (int p = 0; p < 8; ++p)
      if ((mask >> p & 1) && m_until[size_t(p)] > now) return true;
    return false;
  }
  // The priorities paused at `now`, as bits.
  uint8_t paused_mask(uint64_t now) const {
    if (m_last_until <= now) return 0;
    uint8_t m = 0;
    for (int p = 0; p < 8; ++p) m |= uint8_t((m_until[size_t(p)] > now) << p);
    return m;
  }
  // Earliest expiry after `now` among priorities in `mask`, or 0 when none is paused.
  uint64_t next_expiry(uint8_t mask, uint64_t now) const {
    uint64_t best = 0;
    if (m_last_until <= now) return best;
    for (int p = 0; p < 8; ++p)
      if ((mask >> p & 1) && m_until[size_t(p)] > now && (best == 0 || m_until[size_t(p)] < best))
        best = m_until[size_t(p)];
    return best;
  }
  // Priority-seconds this transmitter was held, up to `now`.
  uint64_t paused_ps(uint64_t now) const {
    uint64_t total = m_paused_ps;
    for (int p = 0; p < 8; ++p) {
      const uint64_t end = m_until[size_t(p)] < now ? m_until[size_t(p)] : now;
      if (end > m_since[size_t(p)]) total += end - m_since[size_t(p)];
    }
    return total;
  }

 private:
  uint64_t m_link_bps;
  // First: mostly the only field a frame's pick reads (no pause running), in the line its
  // owner's hot fields end in, not 136 bytes on.
  uint64_t m_last_until = 0;  // the latest of m_until: no priority is paused from then on
  std::array<uint64_t, 8> m_until{};
  std::array<uint64_t, 8> m_since{};
  uint64_t m_paused_ps = 0;  // closed intervals
};

}  // namespace mmusim
