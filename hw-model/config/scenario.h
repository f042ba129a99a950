#pragma once
// A scenario: one JSON file describing topology, MMU, SONiC buffer tables, traffic and
// measurement. Loading validates everything and names the offending field on error.
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "admission/admission_core.h"
#include "config/bfc_config.h"
#include "config/block_config.h"
#include "config/config_error.h"
#include "config/headroom.h"
#include "config/topology.h"
#include "config/transport_config.h"
#include "config/wred_config.h"

namespace mmusim {

struct PortCfg {
  std::string name;      // SONiC port name, e.g. Ethernet8
  uint64_t rate_bps = 0;
  uint64_t delay_ps = 0;  // one-way propagation delay of the attached link
};

struct TopologyCfg {
  std::string switch_name = "sw0";
  std::vector<PortCfg> ports;  // host i ("h<i>") sits on port i
  uint32_t mtu_bytes = 1500;
  uint32_t wire_overhead_bytes = 20;  // preamble + inter-frame gap per frame on the wire
};

struct MmuCfg {
  uint64_t buffer_bytes = 0;
  uint32_t cell_bytes = 256;
  uint64_t clock_period_ps = 1000;       // MMU clock
  uint32_t pipeline_latency_cycles = 4;  // ingress parse + lookup before admission
  uint32_t pipelines = 1;                // one admission decision per cycle per pipeline
  uint32_t counter_bits = 32;
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

struct BufferCfg {
  struct Pool {
    std::string name;
    bool ingress = true;
    bool dynamic = true;
    uint64_t size_bytes = 0;
    uint64_t xoff_bytes = 0;  // shared headroom pool size (ingress pools)
    bool has_xoff = false;
  };
  struct Profile {
    std::string name;
    uint32_t pool = 0;
    uint64_t size_bytes = 0;  // reserved
    bool dynamic = true;
    int dynamic_th = 0;
    uint64_t static_th_bytes = 0;
    bool has_xoff = false;
    uint64_t xoff_bytes = 0;
    uint64_t xon_bytes = 0;
    uint64_t xon_offset_bytes = 0;
  };
  std::vector<Pool> pools;
  std::vector<Profile> profiles;
  std::vector<int> pg_profile;     // [port*8+pg], -1 = unset
  std::vector<int> queue_profile;  // [port*8+q]
  std::vector<uint8_t> pfc_enable;  // per port, bit per priority (= TC: the NIC's priority is its TC)
  // TC -> PG at an ingress port, TC -> queue at an egress port, received PFC priority ->
  // the egress queue it pauses (PORT_QOS_MAP tc_to_pg_map, tc_to_queue_map,
  // pfc_to_queue_map); identity where not given.
  std::vector<std::array<uint8_t, 8>> tc_to_pg, tc_to_queue, pfc_to_queue;  // per port
  std::vector<uint8_t> lossless_pgs;  // per port, bit per PG: a PFC-enabled TC maps to it (derived)
  std::vector<uint8_t> pfcwd_sw_enable;  // per port: the watched priorities (default pfc_enable)
  std::vector<std::array<uint8_t, 64>> dscp_to_tc;  // per port
  std::vector<std::array<uint8_t, 8>> dot1p_to_tc;  // per port
  std::vector<uint8_t> has_dot1p_map;               // per port
  PortClassifier classifier(uint32_t port) const { return {dscp_to_tc[port], dot1p_to_tc[port], has_dot1p_map[port] != 0}; }
};

struct PfcCfg {
  uint16_t pause_quanta = 0xFFFF;
  // Refresh XOFF after this fraction of the pause time, before it expires.
  double refresh_fraction = 0.5;
};

struct AdmissionCfg {
  std::string policy = "dt";
  bool rtl = false;  // "impl": "rtl": the Verilated RTL unit decides, the C++ core checks
  admission::CongestionRule::Kind congestion_rule = admission::CongestionRule::Kind::kThreshold;
  uint64_t congested_bytes = 20480;
  admission::EwmaConfig ewma;
  uint64_t abm_interval_ps = 10'000'000;
  uint64_t dsh_port_xon_offset_bytes = 0;
  // admission.thresholds: the threshold calculator's period, and the zero-latency core
  // (thresholds from the live counters) for the staleness study; hardware timing by default.
  admission::ThresholdTiming thresholds{1, false};
};

struct OutputCfg {
  uint64_t sample_interval_ps = 1'000'000;  // timeseries.csv
  uint32_t occupancy_bucket_bytes = 1024;   // resolution of the p99 histograms
  // Queues whose thresholds are reported, as (port, priority); -1: first lossless PG /
  // first lossy queue.
  int th_lossless_port = -1, th_lossless_prio = 0, th_lossy_port = -1, th_lossy_prio = 0;
  bool ingress_peaks = false;  // per-switch ingress_peak_bytes per port in summary.json
  bool bfc_queues = false;     // bfc_queues.csv: sampled length of every non-empty BFC queue
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

// Seeds are 0 ... 2^61 - 1 (docs/configuration.md), in the file and on the command line.
constexpr uint64_t kMaxSeed = (uint64_t(1) << 61) - 1;

struct Scenario {
  std::string name = "unnamed";
  uint64_t seed = 1;
  uint64_t duration_ps = 0;
  uint64_t measure_start_ps = 0;
  uint64_t measure_end_ps = 0;
  // In the graph form, topo.ports are the largest switch's ports (the names SONiC tables
  // may use); each switch has its own view below.
  TopologyCfg topo;
  NetworkCfg net;  // switches, hosts, links (the single-switch form too)
  MmuCfg mmu;
  BufferCfg buffer;
  PfcWatchdogCfg pfc_wd;  // buffer.PFC_WD
  PfcCfg pfc;
  AdmissionCfg admission;
  uint32_t dwrr_quantum_bytes = 1600;
  HostCfg host;
  std::vector<GeneratorCfg> traffic;
  OutputCfg output;
  BfcCfg bfc;
  WredCfg wred;
  IntCfg int_telemetry;
  // Per switch view: the storms at its ports (the top level lists every switch's).
  std::vector<PfcStormCfg> pfc_storms;
  std::vector<uint32_t> pfc_storm_switch;  // top level: the switch of each storm

  static constexpr uint32_t kPrios = kClasses;
  uint32_t ports() const { return uint32_t(topo.ports.size()); }
  uint32_t hosts() const { return uint32_t(net.hosts.size()); }
  uint64_t host_rate_bps(uint32_t host) const { return net.hosts[host].rate_bps; }
  // The scenario as seen by switch `s`: its ports and SONiC tables (itself when single-switch).
  const Scenario& switch_view(uint32_t s) const { return net.graph ? *views[s] : *this; }
  std::vector<std::shared_ptr<const Scenario>> views;
  // Unsafe but valid settings found by the loader (config/headroom.h), every switch's.
  std::vector<std::string> warnings;
  // PG `pg` of ingress port `port` is lossless when a PFC-enabled TC maps to it.
  bool lossless(uint32_t port, uint32_t pg) const { return (buffer.lossless_pgs[port] >> pg) & 1u; }
  bool tc_lossless(uint32_t port, uint32_t tc) const { return (buffer.pfc_enable[port] >> tc) & 1u; }
  // The PFC priorities an XOFF of PG `pg` pauses: its PFC-enabled TCs.
  uint8_t pg_priorities(uint32_t port, uint32_t pg) const;
  // Queue `q` of egress port `port` is lossless when a PFC-enabled TC of the port maps to it.
  bool queue_lossless(uint32_t port, uint32_t q) const;
  // The integer admission-core configuration in cells.
  admission::CoreConfig core_config() const;
  uint64_t cells(uint64_t bytes) const { return (bytes + mmu.cell_bytes - 1) / mmu.cell_bytes; }
};

// The "host" object (config/host_config.cc).
void load_host(Scenario& sc, const nlohmann::json& j);
// A generator's "transport" key, and the checks once every generator is loaded (ACKs on
// when a flow can have a transport).
int8_t load_generator_transport(const nlohmann::json& v, const std::string& field);
void finish_transports(Scenario& sc);
// After the switch views: DCQCN/DCTCP need an ECN-marking queue of their class, PowerTCP
// INT on it (ConfigError); RoCE on a class without PFC is returned as a warning.
std::vector<std::string> check_transport_classes(const Scenario& sc);

// Parse and validate. `origin` names the source in messages (file name or "default").
Scenario load_scenario(const nlohmann::json& j, const std::string& origin);
Scenario load_scenario_file(const std::string& path);
nlohmann::json parse_json_file(const std::string& path);
// Apply "--set a.b.c=value" (value parsed as JSON, else as a string).
void apply_override(nlohmann::json& j, const std::string& assignment);
// The embedded default scenario (README's first command).
nlohmann::json default_scenario_json();

}  // namespace mmusim
