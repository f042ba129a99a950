#pragma once
// One switch's configuration: its ports, its SONiC tables (buffer pools and profiles, QoS
// maps, PFC_WD, WRED) and the MMU's hardware parameters. A scenario (config/scenario.h)
// holds one per switch; the typed block configurations (config/block_config.h) are built
// from it.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "admission/types.h"
#include "config/bfc_config.h"
#include "config/block_config.h"
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
  // admission.pipeline: the unit's PIPE (0, 1 or 3; 3 with dt, static or sih only, and it
  // changes what is decided: admission_core.h); its verdicts take effect pipeline MMU
  // cycles after the decision edge (Mmu::verdict_delay_ps).
  uint32_t pipeline = 0;
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

struct SwitchConfig {
  TopologyCfg topo;
  MmuCfg mmu;
  BufferCfg buffer;
  PfcWatchdogCfg pfc_wd;  // buffer.PFC_WD
  PfcCfg pfc;
  AdmissionCfg admission;
  uint32_t dwrr_quantum_bytes = 1600;
  OutputCfg output;
  BfcCfg bfc;
  WredCfg wred;
  IntCfg int_telemetry;
  std::vector<PfcStormCfg> pfc_storms;  // at its ports (a scenario's own: every switch's)

  static constexpr uint32_t kPrios = kClasses;
  uint32_t ports() const { return uint32_t(topo.ports.size()); }
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

}  // namespace mmusim
