#pragma once
// Types of the integer admission core: configuration in cells, requests, decisions.
// Everything here is an integer so the RTL admission unit can match it bit for bit.
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

// Dynamic threshold alpha = 2^shift applied to a pool's free space (reverie Eq. 1), or a
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
  uint64_t xoff_cells = 0;        // per-PG headroom (lossless only)
  uint64_t xon_cells = 0;         // resume when shared occupancy < xon ...
  uint64_t xon_offset_cells = 0;  // ... or occupancy + xon_offset <= threshold
};

struct EgressProfile {
  uint16_t pool = 0;
  uint64_t reserved_cells = 0;
  Threshold th;
};

// When a queue counts as congested for n_p (Reverie Eq. 6, ABM).
struct CongestionRule {
  enum class Kind : uint8_t {
    kThreshold = 0,   // n_p = number of queues of priority p with q >= cells
    kSaturation = 1,  // n_p = sum over queues of min(1, q / cells), 8 fraction bits (the artifact)
  } kind = Kind::kThreshold;
  uint64_t cells = 80;  // 20 KiB of 256 B cells
};

// Reverie's first-order low-pass filter, q_hat <- q_hat + (q - q_hat) * 2^-k in fixed point.
struct EwmaConfig {
  enum class Rule : uint8_t {
    kDequeue = 0,         // on every departure of the queue (the published artifact)
    kEnqueueDequeue = 1,  // on every arrival decision and departure
    kPeriodic = 2,        // every period_cycles MMU cycles, as a hardware sweeper
  } rule = Rule::kDequeue;
  uint8_t k = 10;            // gamma = 1 - 2^-k
  uint8_t frac_bits = 16;    // fraction bits of q_hat
  uint32_t period_cycles = 1000;
  bool clamp = true;         // q_hat never above q (as the artifact): an empty queue is not blocked
};

struct AbmConfig {
  // Drain-rate measurement interval: 2^interval_log2 MMU cycles (the interval number is a
  // bit slice of the cycle count in the RTL: no divider), at most 2^20.
  uint8_t interval_log2 = 13;
  // Cells a port can send in one interval, per port (line rate x interval / cell); a
  // port past the vector's end has 0 (the RTL register's reset value: full rate).
  std::vector<uint64_t> port_cells_per_interval;
};

struct DshConfig {
  uint64_t port_xon_offset_cells = 0;  // delta_p: port XON below X_poff - delta_p
};

// The threshold calculator (rtl/mmu_adm_thresh.sv, admission/threshold_block.h): the
// thresholds an operation compares against come from pool occupancies and n_p registered
// every period_cycles unit cycles (THRESH_PERIOD), not from the live counters.
struct ThresholdTiming {
  uint32_t period_cycles = 1;  // THRESH_PERIOD, 1..255
  // true: thresholds from the live counters (no calculator), the model before v2, kept for
  // the staleness study (docs/validation.md); the RTL unit has no such mode.
  bool zero_latency = true;
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

  std::string policy = "dt";
  CongestionRule congestion;
  EwmaConfig ewma;
  AbmConfig abm;
  DshConfig dsh;
  ThresholdTiming thresholds;
  // The unit's pipeline depth (its PIPE parameter, fixed at elaboration): an operation
  // taken at cycle c is decided at c + pipe and its response registered at the edge of
  // c + pipe + 1 (AdmissionCore::latency); 0, 1 or 3. 0 and 1 decide alike; 3 (look-up,
  // memory, test and decide stages) changes what is decided (admission_core.h, "Pipe 3")
  // and exists for dt, static, sih and dsh only.
  uint32_t pipe = 0;

  // Inline: the thresholds' saturation reads it at every evaluation.
  uint64_t counter_max() const { return counter_bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << counter_bits) - 1; }
  // Throws std::invalid_argument naming the field when inconsistent.
  void validate() const;
};

// The ingress side is counted per (in_port, prio = PG), the egress side per (out_port,
// queue): a switch's tc_to_queue_map may send TCs of one PG to different queues.
constexpr int16_t kQueueIsPrio = -1;  // queue = prio (identity maps; the RTL unit's only case)

struct Request {
  uint32_t in_port = 0;
  uint32_t out_port = 0;
  uint8_t prio = 0;
  uint32_t cells = 0;
  uint64_t cycle = 0;  // MMU cycle of the decision (periodic EWMA, ABM intervals)
  int16_t queue = kQueueIsPrio;
  uint8_t egress_queue() const { return queue < 0 ? prio : uint8_t(queue); }
};

struct Result {
  Verdict verdict = Verdict::kDrop;
  PfcEvent pfc = PfcEvent::kNone;       // queue level, for (in_port, prio)
  PfcEvent port_pfc = PfcEvent::kNone;  // port level, all priorities of in_port (DSH)
  DropReason reason = DropReason::kNone;
};

// Departure of a packet that was admitted with the same ports, priority and cells.
struct Departure {
  uint32_t in_port = 0;
  uint32_t out_port = 0;
  uint8_t prio = 0;
  uint32_t cells = 0;
  uint64_t cycle = 0;
  int16_t queue = kQueueIsPrio;
  uint8_t egress_queue() const { return queue < 0 ? prio : uint8_t(queue); }
};

struct PfcUpdate {
  PfcEvent pfc = PfcEvent::kNone;
  PfcEvent port_pfc = PfcEvent::kNone;
};

}  // namespace mmusim::admission
