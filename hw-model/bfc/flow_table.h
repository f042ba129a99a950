#pragma once
// BFC flow-to-queue assignment (bfc-nsdi22 §3.3.1): an array indexed by (egress port,
// hash of the 5-tuple), table_factor x queues entries per port, each {queue, packets
// queued, timestamp}, and a bitmap of empty queues per port. A slot keeps its queue while
// it has packets queued, or for the sticky time after its last enqueue/dequeue; otherwise
// the next packet takes an empty queue (rotating start, as Tofino2's per-pipeline start),
// or a random one (seeded) when none is empty. The Fig. 8 variants replace the choice by a
// static hash of the flow, seeded per switch from the scenario seed as a switch seeds its
// hash unit (so runs with other seeds collide other flows: Fig. 8's "stochastic"), or by
// queue 0.
#include <cstdint>
#include <random>
#include <vector>

#include "bfc/bfc_frame.h"
#include "common/packet.h"
#include "config/bfc_config.h"

namespace mmusim {

// CRC-32 of the 5-tuple's bytes: the same function at every switch and NIC.
uint32_t bfc_flow_hash(const FiveTuple& t);

class BfcFlowTable {
 public:
  struct Entry {
    uint16_t queue = 0;
    uint32_t size = 0;      // packets of this slot's flows queued at the switch
    uint64_t stamp_ps = 0;  // last enqueue or dequeue
    bool used = false;
  };
  struct Stats {
    uint64_t assignments = 0;  // new queue chosen for a slot
    uint64_t random = 0;       // ... at random, no queue being empty
    uint64_t sticky = 0;       // slot empty but kept its queue within the sticky time
  };

  BfcFlowTable(uint32_t ports, uint32_t queues, uint32_t factor, BfcCfg::Assignment mode, uint64_t sticky_ps,
               uint64_t seed);

  uint32_t slots_per_port() const { return m_slots; }
  uint32_t size() const { return uint32_t(m_entries.size()); }
  // A packet with flow hash `hash` enters egress `port`: returns its queue, its slot in *slot.
  uint16_t enqueue(uint32_t port, uint32_t hash, uint64_t now, uint32_t* slot);
  // That packet left the switch.
  void dequeue(uint32_t slot, uint64_t now);
  // Egress queue occupancy went empty <-> non-empty (the bitmap of empty queues).
  void set_empty(uint32_t port, uint32_t q, bool empty) { m_empty[port].set(q, empty); }
  const Entry& entry(uint32_t slot) const { return m_entries.at(slot); }
  const Stats& stats() const { return m_stats; }

 private:
  uint16_t choose(uint32_t port, uint32_t hash);

  uint32_t m_queues;
  uint32_t m_slots;
  BfcCfg::Assignment m_mode;
  uint64_t m_sticky_ps;
  std::vector<Entry> m_entries;   // [port * slots + hash % slots]
  std::vector<QueueMask> m_empty;  // per port
  std::vector<uint32_t> m_next;    // per port: where the search for an empty queue starts
  uint64_t m_hash_seed;            // the hash variant's per-switch seed
  std::mt19937_64 m_rng;
  Stats m_stats;
};

}  // namespace mmusim
