#include "bfc/flow_table.h"

#include <stdexcept>

#include "common/splitmix.h"
#include "pfc/pfc_frame.h"

namespace mmusim {

uint32_t bfc_flow_hash(const FiveTuple& t) {
  const uint8_t b[13] = {uint8_t(t.src_ip >> 24), uint8_t(t.src_ip >> 16), uint8_t(t.src_ip >> 8), uint8_t(t.src_ip),
                         uint8_t(t.dst_ip >> 24), uint8_t(t.dst_ip >> 16), uint8_t(t.dst_ip >> 8), uint8_t(t.dst_ip),
                         uint8_t(t.src_port >> 8), uint8_t(t.src_port), uint8_t(t.dst_port >> 8), uint8_t(t.dst_port),
                         t.proto};
  return crc32_ieee(b, sizeof b);
}

BfcFlowTable::BfcFlowTable(uint32_t ports, uint32_t queues, uint32_t factor, BfcCfg::Assignment mode,
                           uint64_t sticky_ps, uint64_t seed)
    : m_queues(queues), m_slots(factor * queues), m_mode(mode), m_sticky_ps(sticky_ps),
      m_entries(size_t(ports) * factor * queues), m_empty(ports), m_next(ports, 0), m_hash_seed(splitmix(seed)),
      m_rng(seed) {
  if (queues == 0 || queues > kBfcMaxQueues) throw std::invalid_argument("BfcFlowTable: queues out of range");
  for (auto& m : m_empty)
    for (uint32_t q = 0; q < queues; ++q) m.set(q, true);
}

uint16_t BfcFlowTable::choose(uint32_t port, uint32_t hash) {
  if (m_mode == BfcCfg::Assignment::kSingle) return 0;
  if (m_mode == BfcCfg::Assignment::kHash) return uint16_t(splitmix(m_hash_seed ^ hash) % m_queues);
  for (uint32_t k = 0; k < m_queues; ++k) {
    const uint32_t q = (m_next[port] + k) % m_queues;
    if (m_empty[port].test(q)) {
      m_next[port] = (q + 1) % m_queues;
      return uint16_t(q);
    }
  }
  ++m_stats.random;
  return uint16_t(m_rng() % m_queues);
}

uint16_t BfcFlowTable::enqueue(uint32_t port, uint32_t hash, uint64_t now, uint32_t* slot) {
  const uint32_t i = port * m_slots + hash % m_slots;
  Entry& e = m_entries[i];
  if (e.size == 0) {
    if (e.used && now - e.stamp_ps < m_sticky_ps) {
      ++m_stats.sticky;
    } else {
      e.queue = choose(port, hash);
      e.used = true;
      ++m_stats.assignments;
    }
  }
  if (e.size == UINT32_MAX) throw std::overflow_error("BfcFlowTable: slot size overflow");
  ++e.size;
  e.stamp_ps = now;
  *slot = i;
  return e.queue;
}

void BfcFlowTable::dequeue(uint32_t slot, uint64_t now) {
  Entry& e = m_entries.at(slot);
  if (e.size == 0) throw std::logic_error("BfcFlowTable: dequeue from an empty slot");
  --e.size;
  e.stamp_ps = now;
}

}  // namespace mmusim
