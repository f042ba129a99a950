#pragma once
// The MMU: wraps the integer admission core (counters, thresholds, PFC state), keeps
// per-class occupancy statistics and the sampled timeseries, and reports XOFF/XON to the
// PFC generator.
#include <array>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "admission/admission_core.h"
#include "admission/ecn_marker.h"
#include "admission/threshold_form.h"
#include "common/calendar.h"
#include "cosim/rtl_engine.h"
#include "config/block_config.h"
#include "config/config_error.h"
#include "mmu/admission_if.h"
#include "output/vcd_signals.h"
#include "pfc/pfc_event_if.h"
#include "stats/time_weighted_group.h"

namespace mmusim {

class Mmu : public sc_core::sc_module, public AdmissionIf {
 public:
  sc_core::sc_export<AdmissionIf> admission_export;
  sc_core::sc_port<PfcEventIf> pfc;

  Mmu(sc_core::sc_module_name name, MmuConfig cfg);

  bool admit(Packet& p) override;
  void depart(const Packet& p) override;
  void dequeue(Packet& p) override;
  // Only INT and WRED marking at dequeue need it: without them nothing is kept per frame
  // at dequeue (nor the queued bytes at admission).
  bool wants_dequeue() const override { return m_int_classes || (m_wred && m_cfg.wred_mark_at_dequeue); }
  // The unit's pipeline (admission.pipeline, CoreConfig::pipe): a verdict takes effect pipe
  // MMU cycles after its decision edge.
  uint64_t verdict_delay_ps() const override { return m_delay_ps; }

  // Streams a row per sample interval to `out` (header written now).
  void enable_timeseries(std::ostream* out);
  // Decisions from the Verilated RTL unit, checked against the core in lockstep; a
  // mismatch stops the run and leaves a waveform at `waveform`.
  void enable_rtl(const std::string& waveform);
  uint64_t rtl_cycles() const;
  RtlEngine* rtl() { return m_rtl.get(); }  // null unless admission.impl is rtl
  // A software CSR write reaching the co-simulated unit; a disagreement is a model error.
  void rtl_csr_write(uint32_t addr, uint32_t data);
  // Observer of every operation handed to the admission core, in order (true: admission).
  using OpHook = std::function<void(bool admit, const admission::Request& op)>;
  void set_op_hook(OpHook h) {
    m_op_hook = std::move(h);
    m_hooked = bool(m_op_hook);
    note_rare();
  }
  // The selected groups of counters.vcd (before the simulation starts).
  void trace(sc_core::sc_trace_file* tf, const VcdSignals& sel);
  void finish(uint64_t end_ps);

  const admission::AdmissionCore& core() const { return m_core; }
  admission::AdmissionCore& core_mut() { return m_core; }
  using Series = TimeWeightedGroup::Series;
  struct Occupancy {
    Series lossless, lossy, headroom, total, th_lossless, th_lossy;
  };
  const Occupancy& occupancy() const { return m_occ; }
  const std::vector<Series>& pools() const { return m_pool_stats; }
  uint64_t admitted() const { return m_admitted; }
  uint64_t admitted_headroom() const { return m_admitted_hdrm; }
  uint64_t dropped_lossless() const { return m_drop_lossless; }
  uint64_t dropped_lossy() const { return m_drop_lossy; }
  const std::vector<uint64_t>& drops_by_reason() const { return m_drop_reason; }
  uint64_t buffered_packets() const { return m_buffered; }
  uint64_t cell_bytes() const { return m_cell; }
  // Highest buffer occupancy charged to each ingress port (all its PGs, headroom included),
  // in bytes, over the whole run.
  uint64_t ingress_peak_bytes(uint32_t port) const { return m_port[port].in_peak * m_cell; }
  // summary.json's "wred" (totals, then every queue a profile is attached to: marked CE,
  // WRED dropped) and "int" (records appended, packets with no room left for one).
  nlohmann::json wred_summary() const;
  nlohmann::json int_summary() const;

 private:
  // The timeseries rows due up to `t`: one compare when none is (m_next_sample is kNever
  // without a timeseries and past the run).
  void sample_until(uint64_t t) {
    if (t >= m_next_sample) write_rows(t);
  }
  void write_rows(uint64_t t);
  void write_row(uint64_t t);
  // Inlined into admit and depart (defined in mmu.cc, their file): as a call it saved six
  // registers and set up a frame at every operation.
  template <bool kRare>
  [[gnu::always_inline]] inline void update_stats(uint64_t t);
  // admit and depart as compiled twice: kRare false leaves out every optional path's test.
  template <bool kRare>
  bool admit_as(Packet& p);
  template <bool kRare>
  void depart_as(const Packet& p);
  void note_rare() { m_rare = m_wred || m_int_classes || m_hooked || m_rtl || m_tr || m_trace_mmu; }
  void mirror();  // the VCD byte mirrors from the series
  void mark_ce(Packet& p, uint8_t queue);
  // The egress queue the packet's TC joins at its egress port (tc_to_queue_map).
  uint8_t queue_of(const Packet& p) const { return m_tc_to_queue[p.out_port][p.tc]; }
  bool lossless(uint32_t port, uint32_t pg) const { return m_port[port].lossless >> pg & 1; }
  void push_int_hop(Packet& p, uint64_t t);
  [[noreturn]] void model_error(const std::exception& e, const Packet& p, const char* op);
  // PFC events of a verdict (queue and port level) to the PFC generator, verdict_delay_ps
  // after now. Most operations have none: the sending is out of line, so that admit and
  // depart keep their registers.
  void pfc_events(uint32_t port, uint8_t prio, admission::PfcEvent e, admission::PfcEvent port_e) {
    if (e != admission::PfcEvent::kNone || port_e != admission::PfcEvent::kNone) send_pfc(port, prio, e, port_e);
  }
  [[gnu::noinline]] void send_pfc(uint32_t port, uint8_t prio, admission::PfcEvent e, admission::PfcEvent port_e);
  void deliver_pfc(uint64_t packed);

  const MmuConfig m_cfg;
  admission::AdmissionCore m_core;
  // What every operation reads and writes, after the core (whose counters it reads too),
  // in four lines and the statistics' clock in two more: in a network of many switches
  // they are out of the cache at each operation, so every further line is a miss.
  static constexpr uint64_t kNever = ~uint64_t(0);
  alignas(64) uint64_t m_next_sample = kNever;  // the next timeseries row's time
  // Copies of the configuration an operation reads.
  const std::array<uint8_t, 8>* m_tc_to_queue;  // m_cfg.tc_to_queue: per port
  uint64_t m_clock_ps;
  uint64_t m_cell;
  // Class occupancy in cells; the core keeps per-queue counters only.
  uint64_t m_ll = 0, m_ly = 0, m_hd = 0;
  uint64_t m_buffered = 0;
  uint64_t m_admitted = 0, m_admitted_hdrm = 0, m_drop_lossless = 0, m_drop_lossy = 0;
  // Per port, in one record: cells charged to it as an ingress and their peak, and its
  // lossless PGs (bit pg: m_cfg.core.lossless, read with in_cells); as an egress, with
  // INT only, data bytes waiting in its queues (INT qlen) and transmitted (INT txBytes).
  struct alignas(64) PortState {
    uint64_t in_cells = 0, in_peak = 0;
    uint64_t queued_bytes = 0, tx_bytes = 0;
    uint8_t lossless = 0;
  };
  std::vector<PortState> m_port;
  size_t m_npools;
  // Representative queues for the threshold statistics: first lossless PG, first lossy queue.
  int m_ll_port = -1, m_ll_prio = 0, m_ly_port = -1, m_ly_prio = 0;
  bool m_trace_mmu = false;  // byte mirrors for VCD tracing kept
  uint8_t m_int_classes = 0;
  bool m_hooked = false;  // m_op_hook set
  bool m_rare = false;  // any of WRED, INT, the op hook, RTL, VCD traces (note_rare)
  // The optional paths, null when off.
  std::unique_ptr<admission::EcnMarker> m_wred;  // wred configured only
  std::unique_ptr<RtlEngine> m_rtl;
  // Traced per-queue and per-port values (--vcd-signals queues, ports, pfc), refreshed
  // for the queues an operation touched; absent when not traced.
  struct Traced {
    VcdSignals sel;
    std::vector<sc_dt::uint64> ing, hdrm, egr, port_in, port_eg;  // bytes
    std::vector<sc_dt::uint64> marked;  // ECN marks per queue (with wred), else empty
    std::unique_ptr<bool[]> xoff, port_xoff;
  };
  std::unique_ptr<Traced> m_tr;  // null: not traced
  // The threshold statistics' forms (AdmissionCore::threshold_form; a fixed 0 without a
  // representative queue), read again after a configuration change: a DT threshold is
  // evaluated here, inline, from the pools, any other kind by the policy.
  admission::ThresholdForm m_th_ll_form, m_th_ly_form;
  uint64_t m_th_version = ~uint64_t(0);  // the core's configuration version they hold (none at first)
  [[gnu::noinline]] void read_threshold_forms();  // out of line: once per configuration
  uint64_t threshold_cells(const admission::ThresholdForm& f, bool ingress, int port, int prio,
                           const uint64_t* pools) const {
    if (f.kind != admission::ThresholdForm::Kind::kPolicy) return f.eval(pools);
    return ingress ? m_core.ingress_threshold(uint32_t(port), uint32_t(prio))
                   : m_core.egress_threshold(uint32_t(port), uint32_t(prio));
  }
  // Series 0..5: the Occupancy members in order; then one per pool. Equal series share
  // their statistics (update_stats sets every one, in order).
  enum : size_t { kLossless, kLossy, kHeadroom, kTotal, kThLossless, kThLossy, kPools };
  TimeWeightedGroup m_stats;
  // The rest: set up once, or read on rarer paths.
  std::ostream* m_ts = nullptr;
  std::vector<char> m_row;  // a timeseries row, formatted before it is written
  const uint64_t m_delay_ps;
  std::unique_ptr<Calendar::Client> m_cal;  // delayed PFC events; only with a delay
  OpHook m_op_hook;
  void trace_touch(uint32_t in_port, uint32_t out_port, uint32_t prio, uint32_t queue);
  Occupancy m_occ;
  std::vector<Series> m_pool_stats;
  std::vector<uint64_t> m_drop_reason;
  std::vector<uint64_t> m_wred_marked, m_wred_dropped;
  // Cells in each egress (port, priority) queue, what WRED reads: the core's egress counters
  // do not hold it under every policy (Reverie counts lossless packets at ingress only).
  std::vector<uint64_t> m_wred_cells;
  uint64_t m_int_recorded = 0, m_int_full = 0;
  sc_dt::uint64 m_v_ll = 0, m_v_ly = 0, m_v_hd = 0, m_v_total = 0, m_v_th_ll = 0, m_v_th_ly = 0;
};

}  // namespace mmusim
