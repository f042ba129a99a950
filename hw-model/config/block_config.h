#pragma once
// The typed configuration each switch block is built with: only the settings that block
// reads, taken from one switch's view of the scenario by the builders in block_config.cc,
// so that a block's header does not depend on the whole Scenario.
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "admission/ecn_marker.h"
#include "admission/types.h"
#include "config/bfc_config.h"
#include "config/topology.h"
#include "config/transport_config.h"
#include "config/wred_config.h"

namespace mmusim {

inline constexpr uint32_t kClasses = 8;  // TCs, PGs and queues per port

// A port's PORT_QOS_MAP classification: PCP through its DOT1P_TO_TC_MAP when tagged and the
// port has one, else DSCP through its DSCP_TO_TC_MAP (class selector by default).
struct PortClassifier {
  std::array<uint8_t, 64> dscp_to_tc{};
  std::array<uint8_t, 8> dot1p_to_tc{};
  bool has_dot1p = false;
  uint8_t classify(uint8_t dscp, int pcp) const {
    if (pcp >= 0 && has_dot1p) return dot1p_to_tc[size_t(pcp) & 7];
    return dscp_to_tc[dscp & 63];
  }
};

// Times a statistic is averaged over (measure.start_us ... end_us).
struct MeasureWindow {
  uint64_t start_ps = 0, end_ps = 0;
};

struct IngressConfig {
  uint64_t clock_period_ps = 1000;
  uint32_t pipeline_latency_cycles = 4;
  uint32_t pipelines = 1;
  uint32_t cell_bytes = 256;
  std::vector<PortClassifier> classifiers;        // per port
  std::vector<std::array<uint8_t, 8>> tc_to_pg;  // per port
};

struct MmuConfig {
  admission::CoreConfig core;  // counters per (port, PG) and (port, queue); lossless per PG
  std::string switch_name;
  uint64_t seed = 1;  // WRED's stream is drawn from it and the switch name
  uint32_t cell_bytes = 256;
  uint64_t clock_period_ps = 1000;
  uint64_t duration_ps = 0;
  MeasureWindow measure;
  uint64_t sample_interval_ps = 1'000'000;
  uint32_t occupancy_bucket_bytes = 1024;
  std::vector<std::string> port_names, pool_names;
  std::vector<uint64_t> port_rate_bps;
  std::vector<std::array<uint8_t, 8>> tc_to_pg, tc_to_queue;  // per port
  std::vector<uint8_t> queue_lossless;  // [port*8+q]: a PFC-enabled TC of the port maps to q
  // Representative queues for the threshold statistics (-1: the MMU picks the first).
  int th_lossless_port = -1, th_lossless_prio = 0, th_lossy_port = -1, th_lossy_prio = 0;
  bool wred_mark_at_dequeue = true;
  std::vector<admission::WredQueueConfig> wred;  // [port*8+q]; empty: no wred object
  std::vector<int> wred_profile;                 // [port*8+q] -> wred_profile_names, -1 none
  std::vector<std::string> wred_profile_names;
  uint8_t int_classes = 0;  // TCs whose data carry INT
  uint32_t ports() const { return core.ports; }
  bool lossless(uint32_t port, uint32_t pg) const { return core.lossless[size_t(port) * kClasses + pg] != 0; }
};

struct PfcGenConfig {
  uint16_t pause_quanta = 0xFFFF;
  double refresh_fraction = 0.5;
  MeasureWindow measure;
  std::vector<uint64_t> port_rate_bps;
  std::vector<std::array<uint8_t, 8>> pg_priorities;  // per port and PG: the PFC priorities its XOFF pauses
  uint32_t ports() const { return uint32_t(port_rate_bps.size()); }
};

// SONiC's PFC watchdog (PFC_WD table, pfcwdorch; docs/configuration.md "PFC watchdog"):
// per port, the queues of its watched PFC priorities.
struct PfcWatchdogCfg {
  enum class Action : uint8_t { kDrop, kForward, kAlert };
  struct Port {
    bool enabled = false;
    Action action = Action::kDrop;
    uint64_t detection_ps = 0;
    uint64_t restoration_ps = 0;
    uint8_t priorities = 0;  // PORT_QOS_MAP pfcwd_sw_enable, else pfc_enable
  };
  uint64_t poll_ps = 200'000'000'000;  // PFC_WD.GLOBAL.POLL_INTERVAL, SONiC's 200 ms
  std::vector<Port> ports;              // per port; empty: no PFC_WD table
  bool enabled() const {
    for (const auto& p : ports)
      if (p.enabled) return true;
    return false;
  }
};

// A faulty NIC's PFC storm (scenario `pfc_storms`): pause frames for `priorities` at the
// switch port facing the host, every period from start to stop.
struct PfcStormCfg {
  uint32_t host = 0;
  uint32_t port = 0;  // on the host's switch
  uint8_t priorities = 0;
  uint16_t quanta = 0xFFFF;
  uint64_t start_ps = 0, stop_ps = 0, period_ps = 0;
};

struct PfcWatchdogConfig {
  PfcWatchdogCfg wd;
  std::vector<std::string> port_names;
  std::vector<std::array<uint8_t, 8>> pfc_to_queue;  // per port
};

struct BfcUnitConfig {
  BfcCfg bfc;  // this switch's view
  uint64_t seed = 1;
  uint32_t cell_bytes = 256;
  uint64_t duration_ps = 0;
  MeasureWindow measure;
  uint64_t sample_interval_ps = 1'000'000;
  uint32_t occupancy_bucket_bytes = 1024;
  std::vector<std::string> port_names;
  std::vector<uint64_t> port_rate_bps;
  uint32_t ports() const { return uint32_t(port_names.size()); }
};

struct SizeDist {
  enum class Kind { kFixed, kUniform, kExponential, kCdf } kind = Kind::kFixed;
  uint64_t bytes = 0;           // fixed
  uint64_t min = 0, max = 0;    // uniform
  double mean = 0;              // exponential
  std::vector<std::pair<uint64_t, double>> cdf;  // (size, cumulative probability)
  // The mean flow size a Poisson generator's arrival rate is set from (configuration.md).
  double mean_bytes() const;
};

struct GeneratorCfg {
  enum class Kind { kConstant, kOnOff, kPoisson, kIncast, kTrace } kind = Kind::kConstant;
  std::string name;
  std::vector<uint32_t> srcs;  // host indices
  std::vector<uint32_t> dsts;
  uint8_t dscp = 0;
  int pcp = -1;  // >= 0: 802.1Q tagged with this PCP
  uint8_t ecn = 0;  // IP ECN field of its data packets: 0 Not-ECT, 1 ECT(1), 2 ECT(0)
  uint64_t rate_bps = 0;  // 0 = line rate of the source
  uint64_t start_ps = 0;
  uint64_t stop_ps = 0;   // 0 = scenario end
  uint32_t packet_bytes = 0;  // 0 = MTU
  // on/off
  uint64_t on_ps = 0, off_ps = 0;
  // poisson
  double load = 0;  // fraction of the source's line rate
  SizeDist size;
  // incast
  uint64_t burst_bytes = 0;
  uint64_t period_ps = 0;
  uint32_t count = 1;
  // trace (docs/traces.md)
  std::string trace_file;
  int8_t transport = -1;  // a TransportKind, or -1: by traffic class (host.transport)
};

// Host NIC transport (hw-model/host/smart_pause.*, docs/configuration.md "host"): per-packet
// ACKs with go-back-N loss recovery, and Smart-Pause holds at the sender.
struct HostCfg {
  bool acks = false;
  bool acks_disabled = false;        // host.acks.enabled given as false
  uint32_t ack_bytes = 64;
  uint8_t ack_dscp = 48;             // CS6: its own class, served ahead of data by the NIC
  uint64_t rto_ps = 100'000'000;     // go-back-N retransmission timeout
  bool smart_pause = false;
  std::vector<uint64_t> threshold_ps;  // T by switch hops on the path: [hops - 1]; longer paths use the last
  bool dynamic_pause = false;          // P = OWD - T, else pause_ps
  uint64_t pause_ps = 0;
  TransportCfg transport;  // host.transport (config/host_config.cc)
};

// What starts flows (host/traffic_manager): the network, and how each flow is classified.
struct TrafficConfig {
  NetworkCfg net;
  uint64_t seed = 1;
  uint64_t duration_ps = 0;
  uint32_t wire_overhead_bytes = 20;
  uint32_t ack_bytes = 64;
  uint32_t pipeline_latency_cycles = 4;
  uint64_t clock_period_ps = 1000;
  std::vector<PortClassifier> host_classifier;  // per host: its switch port's, as its NIC classifies
  uint32_t mtu_bytes = 1500;
  std::vector<GeneratorCfg> generators;  // the scenario's "traffic" list
  TransportCfg transport;
  std::vector<uint64_t> switch_buffer_bytes;  // per switch (a RoCE flow's timeout waits out every buffer on its path)
  IntCfg int_telemetry;  // data frames of its classes carry header_bytes more from the sender
};

// Switch s's blocks: its configuration (Scenario::switch_view) and the run's settings.
struct Scenario;
IngressConfig ingress_config(const Scenario& sc, uint32_t s);
MmuConfig mmu_config(const Scenario& sc, uint32_t s);
PfcGenConfig pfc_gen_config(const Scenario& sc, uint32_t s);
PfcWatchdogConfig pfc_watchdog_config(const Scenario& sc, uint32_t s);
BfcUnitConfig bfc_unit_config(const Scenario& sc, uint32_t s);
TrafficConfig traffic_config(const Scenario& sc);

}  // namespace mmusim
