#pragma once
// The MMU's counter bank, shared by every policy: per ingress (port, PG) cells outside and
// inside headroom, per egress (port, queue) cells, pools, headroom pool, total, and the
// pause state. Every update is checked against the counter width: a counter never wraps
// and never goes negative (peer simulators had unsigned-underflow bugs exactly here).
#include <cstdint>
#include <string>
#include <vector>

#include "admission/types.h"

namespace mmusim::admission {

class Counters {
 public:
  void reset(const CoreConfig& c) {
    const size_t n = size_t(c.ports) * c.prios;
    m_prios = c.prios;
    m_max = c.counter_max();
    ing.assign(n, 0);
    hdrm.assign(n, 0);
    egr.assign(n, 0);
    paused.assign(n, 0);
    port_paused.assign(c.ports, 0);
    pool_used.assign(c.pool_cells.size(), 0);
    hdrm_pool_used = 0;
    total = 0;
  }
  size_t idx(uint32_t port, uint32_t prio) const { return size_t(port) * m_prios + prio; }

  void add(uint64_t& c, uint64_t n, const char* what) const {
    if (n > m_max - c) fail("counter overflow: ", what);
    c += n;
  }
  void sub(uint64_t& c, uint64_t n, const char* what) const {
    if (n > c) fail("counter underflow: ", what);
    c -= n;
  }
  // Out of line: the message is built only when thrown, not in every operation's code.
  [[noreturn, gnu::cold, gnu::noinline]] static void fail(const char* kind, const char* what) {
    throw CounterError(std::string(kind) + what);
  }

  std::vector<uint64_t> ing;   // ingress (port, PG) cells outside headroom
  std::vector<uint64_t> hdrm;  // ingress (port, PG) cells in headroom
  std::vector<uint64_t> egr;   // egress (port, queue) cells
  std::vector<uint8_t> paused;       // queue-level XOFF per ingress (port, PG)
  std::vector<uint8_t> port_paused;  // port-level XOFF (DSH)
  std::vector<uint64_t> pool_used;
  uint64_t hdrm_pool_used = 0;
  uint64_t total = 0;

 private:
  uint32_t m_prios = 8;
  uint64_t m_max = 0;
};

inline uint64_t shared_part(uint64_t q, uint64_t reserved) { return q > reserved ? q - reserved : 0; }

}  // namespace mmusim::admission
