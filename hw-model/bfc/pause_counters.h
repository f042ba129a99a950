#pragma once
// BFC pause counters (bfc-nsdi22 §3.3.2), one per (ingress port, upstreamQ): +1 when a
// packet arrives to a queue longer than Th, -1 when that packet leaves. The upstream queue
// is paused while its counter is non-zero. Counters are checked: no wrap, no underflow.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "bfc/bfc_frame.h"

namespace mmusim {

class BfcPauseCounters {
 public:
  BfcPauseCounters(uint32_t ports, uint32_t queues)
      : m_queues(queues), m_count(size_t(ports) * queues, 0), m_paused(ports) {}

  // True when the counter went 0 -> 1 (send a pause).
  bool increment(uint32_t port, uint32_t q) {
    uint32_t& c = at(port, q);
    if (c == UINT32_MAX) throw std::overflow_error("BFC pause counter overflow");
    if (++c != 1) return false;
    m_paused[port].set(q, true);
    ++m_nonzero;
    return true;
  }
  // True when the counter went 1 -> 0 (send a resume).
  bool decrement(uint32_t port, uint32_t q) {
    uint32_t& c = at(port, q);
    if (c == 0) throw std::logic_error("BFC pause counter underflow");
    if (--c != 0) return false;
    m_paused[port].set(q, false);
    --m_nonzero;
    return true;
  }
  uint32_t value(uint32_t port, uint32_t q) const { return m_count.at(size_t(port) * m_queues + q); }
  const QueueMask& paused(uint32_t port) const { return m_paused.at(port); }
  uint32_t nonzero() const { return m_nonzero; }
  uint32_t queues() const { return m_queues; }
  uint32_t ports() const { return uint32_t(m_paused.size()); }

 private:
  uint32_t& at(uint32_t port, uint32_t q) {
    if (port >= m_paused.size() || q >= m_queues) throw std::out_of_range("BFC pause counter index");
    return m_count[size_t(port) * m_queues + q];
  }
  uint32_t m_queues;
  std::vector<uint32_t> m_count;
  std::vector<QueueMask> m_paused;  // per port: queues with a non-zero counter
  uint32_t m_nonzero = 0;
};

}  // namespace mmusim
