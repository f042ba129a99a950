#pragma once
// Integer-only admission core of the SONiC shared-buffer model (reverie-nsdi24 §2.2).
// No SystemC here: the SystemC Mmu wraps it, and the RTL admission unit is checked
// against it decision for decision, so every quantity is an integer number of cells.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmusim::admission {

enum class Verdict : uint8_t { kAdmitShared = 0, kAdmitHeadroom = 1, kDrop = 2 };
enum class PfcEvent : uint8_t { kNone = 0, kXoff = 1, kXon = 2 };
enum class DropReason : uint8_t { kNone = 0, kIngress = 1, kEgress = 2, kHeadroom = 3, kBuffer = 4 };

const char* to_string(Verdict v);
const char* to_string(PfcEvent e);
const char* to_string(DropReason r);

// A counter would wrap or go negative: the model is wrong, the run must stop.
class CounterError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// Dynamic threshold alpha = 2^shift applied to a pool's free space (Eq. 1), or a
// static threshold in cells (SONiC static_th).
struct Threshold {
  bool dynamic = true;
  int8_t shift = 0;           // SONiC dynamic_th
  uint64_t static_cells = 0;  // SONiC static_th
};

struct IngressProfile {
  uint16_t pool = 0;
  uint64_t reserved_cells = 0;    // SONiC profile "size"
  Threshold th;
  uint64_t xoff_cells = 0;        // per-PG headroom limit (lossless only)
  uint64_t xon_cells = 0;         // resume when shared occupancy < xon ...
  uint64_t xon_offset_cells = 0;  // ... or occupancy + xon_offset <= threshold
};

struct EgressProfile {
  uint16_t pool = 0;
  uint64_t reserved_cells = 0;
  Threshold th;
};

struct CoreConfig {
  uint32_t ports = 0;
  uint32_t prios = 8;          // priorities (= PGs = egress queues) per port
  uint32_t counter_bits = 32;  // width of every counter, as in the RTL
  uint64_t buffer_cells = 0;
  std::vector<uint64_t> pool_cells;  // shared size of each pool
  uint64_t headroom_pool_cells = 0;
  std::vector<IngressProfile> ingress_profiles;
  std::vector<EgressProfile> egress_profiles;
  std::vector<uint16_t> pg_profile;     // [port*prios+prio] -> ingress profile
  std::vector<uint16_t> queue_profile;  // [port*prios+prio] -> egress profile
  std::vector<uint8_t> lossless;        // [port*prios+prio] -> PFC enabled

  uint64_t counter_max() const;
  // Throws std::invalid_argument naming the field when inconsistent.
  void validate() const;
};

struct Request {
  uint32_t in_port = 0;
  uint32_t out_port = 0;
  uint8_t prio = 0;
  uint32_t cells = 0;
};

struct Result {
  Verdict verdict = Verdict::kDrop;
  PfcEvent pfc = PfcEvent::kNone;
  DropReason reason = DropReason::kNone;
};

// Departure of a packet that was admitted with the same ports, priority and cells.
struct Departure {
  uint32_t in_port = 0;
  uint32_t out_port = 0;
  uint8_t prio = 0;
  uint32_t cells = 0;
};

class AdmissionCore {
 public:
  explicit AdmissionCore(CoreConfig cfg);

  Result admit(const Request& r);
  // Headroom drains first, then the ingress share (§2.2.1). Returns XON when a paused
  // queue's headroom is empty and it is back under threshold by the hysteresis.
  PfcEvent depart(const Departure& d);
  void reset();

  const CoreConfig& config() const { return m_cfg; }
  uint64_t ingress_cells(uint32_t port, uint32_t prio) const { return m_ing[idx(port, prio)]; }
  uint64_t headroom_cells(uint32_t port, uint32_t prio) const { return m_hdrm[idx(port, prio)]; }
  uint64_t egress_cells(uint32_t port, uint32_t q) const { return m_egr[idx(port, q)]; }
  bool paused(uint32_t port, uint32_t prio) const { return m_paused[idx(port, prio)] != 0; }
  uint64_t pool_used(uint16_t pool) const { return m_pool_used.at(pool); }
  uint64_t headroom_pool_used() const { return m_hdrm_pool_used; }
  uint64_t total_used() const { return m_total; }
  uint64_t ingress_threshold(uint32_t port, uint32_t prio) const;
  uint64_t egress_threshold(uint32_t port, uint32_t q) const;
  // Threshold a profile would give now (for statistics without a queue at hand).
  uint64_t threshold_of(const Threshold& th, uint16_t pool) const;

 private:
  size_t idx(uint32_t port, uint32_t prio) const { return size_t(port) * m_cfg.prios + prio; }
  static uint64_t shared_part(uint64_t q, uint64_t reserved) { return q > reserved ? q - reserved : 0; }
  // True when a queue of `q` cells cannot take `n` more: at/over threshold or pool full.
  bool over_threshold(uint64_t q, uint32_t n, uint64_t reserved, const Threshold& th,
                      uint16_t pool) const;
  void add(uint64_t& c, uint64_t n, const char* what);
  void sub(uint64_t& c, uint64_t n, const char* what);

  CoreConfig m_cfg;
  std::vector<uint64_t> m_ing;   // ingress (port, prio) cells outside headroom
  std::vector<uint64_t> m_hdrm;  // ingress (port, prio) cells in headroom
  std::vector<uint64_t> m_egr;   // egress (port, queue) cells
  std::vector<uint8_t> m_paused;
  std::vector<uint64_t> m_pool_used;
  uint64_t m_hdrm_pool_used = 0;
  uint64_t m_total = 0;
};

}  // namespace mmusim::admission
