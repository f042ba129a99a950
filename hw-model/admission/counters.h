#pragma once
// The MMU's counter bank, shared by every policy: per ingress (port, PG) cells outside and
// inside headroom, per egress (port, queue) cells, pools, headroom pool, total, and the
// pause state. The per-queue counters of one index are one record, with the index's
// configuration that an operation reads: an operation reads its ingress PG's and its
// egress queue's, two lines where separate arrays took seven. Every update is checked
// against the counter width: a counter never wraps and never goes negative (peer
// simulators had unsigned-underflow bugs exactly here).
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
    q.assign(n, Queue{});
    configure(c);
    port_paused.assign(c.ports, 0);
    pool_used.assign(c.pool_cells.size(), 0);
    hdrm_pool_used = 0;
    total = 0;
  }
  // The configuration's copies in the records, after a reset or a reconfiguration.
  void configure(const CoreConfig& c) {
    for (size_t i = 0; i < q.size(); ++i) {
      q[i].lossless = c.lossless[i];
      q[i].pg_profile = c.pg_profile[i];
      q[i].queue_profile = c.queue_profile[i];
    }
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

  // Per queue index port * prios + prio.
  struct alignas(32) Queue {
    uint64_t ing = 0;    // ingress (port, PG) cells outside headroom
    uint64_t hdrm = 0;   // ingress (port, PG) cells in headroom
    uint64_t egr = 0;    // egress (port, queue) cells
    uint8_t paused = 0;  // queue-level XOFF of the ingress (port, PG)
    // Copies of CoreConfig's lossless, pg_profile and queue_profile (configure()).
    uint8_t lossless = 0;
    uint16_t pg_profile = 0, queue_profile = 0;
  };
  static_assert(sizeof(Queue) == 32);
  std::vector<Queue> q;
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
