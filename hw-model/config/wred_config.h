#pragma once
// WRED/ECN marking (SONiC WRED_PROFILE attached to egress queues through QUEUE) and INT
// telemetry: the scenario's "wred" and "int" objects, their loaders, and the per-queue
// configuration in cells the admission unit's ECN marker runs with.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "admission/ecn_marker.h"

namespace mmusim {

struct WredProfileCfg {
  enum Colour { kGreen = 0, kYellow = 1, kRed = 2 };
  struct Curve {
    bool has = false;
    uint64_t min_bytes = 0, max_bytes = 0;
    uint32_t probability_pct = 100;  // <colour>_drop_probability: SAI's default is 100
  };
  std::string name;
  std::array<Curve, 3> curve{};
  std::array<bool, 3> wred_enable{};  // wred_<colour>_enable: drop what is not marked
  std::string ecn = "ecn_none";
  uint8_t ecn_colours = 0;  // bit per Colour the ecn mode marks
  bool marks_green() const { return (ecn_colours & 1u << kGreen) && curve[kGreen].has; }
  bool drops_green() const { return wred_enable[kGreen] && curve[kGreen].has; }
};

struct WredCfg {
  enum class MarkAt { kDequeue, kEnqueue };
  MarkAt mark_at = MarkAt::kDequeue;  // HPCC's ns-3 marks at dequeue (SwitchNotifyDequeue)
  std::vector<WredProfileCfg> profiles;
  struct QueueEntry {
    std::string key;  // QUEUE key "PORTS|QUEUES"
    uint32_t profile = 0;
  };
  std::vector<QueueEntry> queues;
  // This switch's attachment over its own ports: [port * 8 + queue] -> profile, -1 none.
  std::vector<int> queue_profile;
  bool configured() const { return !queues.empty(); }
};

// INT (PowerTCP, NSDI'22; HPCC, SIGCOMM'19): what egress ports append to data packets.
struct IntCfg {
  uint8_t classes = 0;         // bit per priority (traffic class) whose data packets carry INT
  uint32_t header_bytes = 42;  // HPCC ns-3 IntHeader: 5 hops x 8 B + a 2 B hop count
  bool enabled() const { return classes != 0; }
  // The largest frame on the wire: an INT class's MTU-size frame plus the header its sender adds.
  uint32_t max_frame_bytes(uint32_t mtu_bytes) const { return mtu_bytes + (enabled() ? header_bytes : 0); }
};

class JsonReader;
struct Scenario;
struct SwitchConfig;
// "wred" and "int" objects (after "buffer": queue classes must be known).
void load_wred(Scenario& sc, JsonReader r);
void load_int(Scenario& sc, JsonReader r);
// Resolves wred.queues over sc's ports into wred.queue_profile and checks each attachment
// against the queue's class. skip_missing: ports the switch does not have are skipped (a
// graph switch reading the shared tables); else they are errors.
void resolve_wred_queues(SwitchConfig& sc, bool skip_missing);
// [port * 8 + queue] curves in cells (thresholds round down) and Q16 probabilities
// (percent x 65536 / 100, to nearest).
std::vector<admission::WredQueueConfig> wred_queue_configs(const SwitchConfig& sc);

}  // namespace mmusim
