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

// What a whole-state read fetches: every word's address in ArchState's order, and how
// many entries of each field (fields()) it takes.
struct Plan {
  std::vector<uint32_t> addrs;
  std::vector<uint32_t> counts;
};
inline Plan plan(const Dims& d, bool reverie, bool dsh, bool abm = false) {
  Plan p;
  for (const Field& f : fields()) {
    const bool on = f.policy == Field::kAll || (f.policy == Field::kReverie ? reverie
                                                : f.policy == Field::kDsh   ? dsh
                                                                            : abm);
    const uint32_t n = !on                         ? 0
                       : f.count == Field::kQueues ? d.nq
                       : f.count == Field::kPorts  ? d.nports
                       : f.count == Field::kPrios  ? d.nprio
                                                   : d.npools;
    p.counts.push_back(n);
  }
  size_t total = 2;
  for (uint32_t n : p.counts) total += n;
  p.addrs.reserve(total);
  for (size_t j = 0; j < fields().size(); ++j)
    for (uint32_t i = 0; i < p.counts[j]; ++i) p.addrs.push_back(addr(fields()[j].region, fields()[j].base + i));
  p.addrs.push_back(addr(kScalar, kTotal));
  p.addrs.push_back(addr(kScalar, kHdrmUsed));
  return p;
}
// The state from the words at p.addrs.
inline admission::ArchState unpack(const Plan& p, const uint64_t* w) {
  admission::ArchState s;
  size_t k = 0;
  for (size_t j = 0; j < fields().size(); ++j) {
    const Field& f = fields()[j];
    const uint64_t* src = w + k;
    const uint32_t n = p.counts[j];
    if (f.u64) {
      std::vector<uint64_t>& v = s.*f.u64;
      v.resize(n);
      for (uint32_t i = 0; i < n; ++i) v[i] = src[i] << f.shift;
    } else {
      std::vector<uint8_t>& v = s.*f.u8;
      v.resize(n);
      for (uint32_t i = 0; i < n; ++i) v[i] = uint8_t(src[i]);
    }
    k += n;
  }
  s.total = w[k];
  s.hdrm_pool_used = w[k + 1];
  return s;
}

// The whole architectural state, read through `fetch(addresses) -> words`.
template <class Fetch>
admission::ArchState read(Fetch&& fetch, const Dims& d, bool reverie, bool dsh, bool abm = false) {
  const Plan p = plan(d, reverie, dsh, abm);
  const std::vector<uint64_t> w = fetch(p.addrs);
  return unpack(p, w.data());
}

}  // namespace mmusim::rtl::state_map
