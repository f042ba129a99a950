#pragma once
// The admission unit's state map: where each architectural state word sits behind the
// unit's debug/state read port (dbg_addr_i -> dbg_data_o, rtl/mmu_admission.sv, the same
// table), and the table that reads the whole state through it in the golden core's form
// (admission/arch_state.h).
#include <cstdint>
#include <vector>

#include "admission/arch_state.h"

namespace mmusim::rtl::state_map {

// dbg_addr_i = {region (4 bits), index (12 bits)}; one zero-extended entry per 64-bit word.
enum Region : uint32_t {
  kIng = 0,  // per queue (port * prios + prio)
  kHdrm = 1,
  kEgr = 2,
  kPaused = 3,
  kAvgIn = 4,  // reverie q_hat, EWMA_FRAC fraction bits
  kAvgEg = 5,
  kNcong = 6,  // n_p per priority, an integer count: reverie's at 0..7, abm's ingress at 8..15, egress at 16..23
  kPortPaused = 7,  // per port
  kPortShared = 8,
  kPortIns = 9,
  kPoolUsed = 10,  // per pool
  kScalar = 11,    // kTotal, kHdrmUsed, kUnderflow
  kAbmIn = 12,     // abm per ingress queue: sent this interval at kAbmCur + queue, last at kAbmLast + queue, tag at kAbmTag + queue
  kAbmEg = 13,     // the same per egress queue
};
enum AbmIndex : uint32_t { kAbmCur = 0, kAbmLast = 512, kAbmTag = 1024, kAbmNpIn = 8, kAbmNpEg = 16 };
enum Scalar : uint32_t { kTotal = 0, kHdrmUsed = 1, kUnderflow = 2 };

constexpr uint32_t addr(Region r, uint32_t index) { return uint32_t(r) << 12 | index; }

// The unit's dimensions the map depends on.
struct Dims {
  uint32_t nq, nports, nprio, npools;
};

// How many entries of a region the lockstep reads, and where they go in ArchState. `npools`
// and `nprio` are the configuration's (the state the core keeps); reverie's and dsh's
// regions only when that policy runs.
struct Field {
  Region region;
  enum Count { kQueues, kPorts, kPrios, kPools } count;
  std::vector<uint64_t> admission::ArchState::*u64 = nullptr;
  std::vector<uint8_t> admission::ArchState::*u8 = nullptr;
  enum Policy { kAll, kReverie, kDsh, kAbm } policy = kAll;
  uint32_t shift = 0;  // n_p: the core's 8 fraction bits
  uint32_t base = 0;   // index of entry 0
};
inline const std::vector<Field>& fields() {
  using S = admission::ArchState;
  static const std::vector<Field> f = {
      {kIng, Field::kQueues, &S::ing},
      {kHdrm, Field::kQueues, &S::hdrm},
      {kEgr, Field::kQueues, &S::egr},
      {kPaused, Field::kQueues, nullptr, &S::paused},
      {kPortPaused, Field::kPorts, nullptr, &S::port_paused},
      {kPoolUsed, Field::kPools, &S::pool_used},
      {kAvgIn, Field::kQueues, &S::avg_in, nullptr, Field::kReverie},
      {kAvgEg, Field::kQueues, &S::avg_eg, nullptr, Field::kReverie},
      {kNcong, Field::kPrios, &S::n_p, nullptr, Field::kReverie, 8},
      {kPortShared, Field::kPorts, &S::port_shared, nullptr, Field::kDsh},
      {kPortIns, Field::kPorts, &S::port_ins, nullptr, Field::kDsh},
      {kAbmIn, Field::kQueues, &S::abm_cur_in, nullptr, Field::kAbm, 0, kAbmCur},
      {kAbmIn, Field::kQueues, &S::abm_last_in, nullptr, Field::kAbm, 0, kAbmLast},
      {kAbmIn, Field::kQueues, &S::abm_tag_in, nullptr, Field::kAbm, 0, kAbmTag},
      {kAbmEg, Field::kQueues, &S::abm_cur_eg, nullptr, Field::kAbm, 0, kAbmCur},
      {kAbmEg, Field::kQueues, &S::abm_last_eg, nullptr, Field::kAbm, 0, kAbmLast},
      {kAbmEg, Field::kQueues, &S::abm_tag_eg, nullptr, Field::kAbm, 0, kAbmTag},
      {kNcong, Field::kPrios, &S::abm_n_in, nullptr, Field::kAbm, 8, kAbmNpIn},
      {kNcong, Field::kPrios, &S::abm_n_eg, nullptr, Field::kAbm, 8, kAbmNpEg},
  };
  return f;
}

// The whole architectural state, read through `fetch(addresses) -> words`.
template <class Fetch>
admission::ArchState read(Fetch&& fetch, const Dims& d, bool reverie, bool dsh, bool abm = false) {
  std::vector<uint32_t> addrs;
  std::vector<uint32_t> counts;
  for (const Field& f : fields()) {
    const bool on = f.policy == Field::kAll || (f.policy == Field::kReverie ? reverie
                                                : f.policy == Field::kDsh   ? dsh
                                                                            : abm);
    const uint32_t n = !on                         ? 0
                       : f.count == Field::kQueues ? d.nq
                       : f.count == Field::kPorts  ? d.nports
                       : f.count == Field::kPrios  ? d.nprio
                                                   : d.npools;
    counts.push_back(n);
  }
  size_t total = 2;
  for (uint32_t n : counts) total += n;
  addrs.reserve(total);
  for (size_t j = 0; j < fields().size(); ++j)
    for (uint32_t i = 0; i < counts[j]; ++i) addrs.push_back(addr(fields()[j].region, fields()[j].base + i));
  addrs.push_back(addr(kScalar, kTotal));
  addrs.push_back(addr(kScalar, kHdrmUsed));
  const std::vector<uint64_t> w = fetch(addrs);
  admission::ArchState s;
  size_t k = 0;
  for (size_t j = 0; j < fields().size(); ++j) {
    const Field& f = fields()[j];
    if (f.u64) (s.*f.u64).reserve(counts[j]);
    else (s.*f.u8).reserve(counts[j]);
    for (uint32_t i = 0; i < counts[j]; ++i, ++k) {
      if (f.u64) (s.*f.u64).push_back(w[k] << f.shift);
      else (s.*f.u8).push_back(uint8_t(w[k]));
    }
  }
  s.total = w[k];
  s.hdrm_pool_used = w[k + 1];
  return s;
}

}  // namespace mmusim::rtl::state_map
