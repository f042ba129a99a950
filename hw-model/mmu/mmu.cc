#include "mmu/mmu.h"

#include <algorithm>
#include <charconv>

#include <limits>
#include <type_traits>

#include "common/sim_time.h"
#include "common/splitmix.h"

namespace mmusim {

using admission::DropReason;
using admission::PfcEvent;
using admission::Verdict;

Mmu::Mmu(sc_core::sc_module_name name, MmuConfig cfg)
    : sc_module(name), admission_export("admission_export"), pfc("pfc"), m_cfg(std::move(cfg)), m_core(m_cfg.core),
      m_tc_to_queue(m_cfg.tc_to_queue.data()),
      m_clock_ps(m_cfg.clock_period_ps), m_cell(m_cfg.cell_bytes), m_npools(m_cfg.pool_names.size()),
      m_stats(kPools + m_npools, m_cfg.measure.start_ps, m_cfg.measure.end_ps, m_cfg.occupancy_bucket_bytes, true),
      m_delay_ps(uint64_t(m_cfg.core.pipe) * m_cfg.clock_period_ps),
      m_occ{m_stats.series(kLossless), m_stats.series(kLossy), m_stats.series(kHeadroom),
            m_stats.series(kTotal), m_stats.series(kThLossless), m_stats.series(kThLossy)},
      m_drop_reason(5, 0) {
  const uint32_t ports = m_cfg.ports();
  m_port.assign(ports, {});
  for (uint32_t p = 0; p < ports; ++p)
    for (uint32_t q = 0; q < kClasses; ++q)
      m_port[p].lossless |= uint8_t((m_cfg.core.lossless[size_t(p) * kClasses + q] != 0) << q);
  m_int_classes = m_cfg.int_classes;
  if (!m_cfg.wred.empty()) {
    // The marker's own stream: the scenario seed, a tag, and this switch's name.
    uint64_t seed = splitmix(m_cfg.seed ^ 0x5752454400000000ull);  // "WRED"
    for (char c : m_cfg.switch_name) seed = splitmix(seed ^ uint8_t(c));
    m_wred = std::make_unique<admission::EcnMarker>(m_cfg.wred, ports, kClasses, seed);
    m_wred_marked.assign(size_t(ports) * kClasses, 0);
    m_wred_dropped.assign(size_t(ports) * kClasses, 0);
    m_wred_cells.assign(size_t(ports) * kClasses, 0);
  }
  admission_export.bind(*this);
  if (m_delay_ps) m_cal = std::make_unique<Calendar::Client>();
  for (size_t i = 0; i < m_cfg.pool_names.size(); ++i) m_pool_stats.push_back(m_stats.series(kPools + i));
  for (uint32_t p = 0; p < ports && (m_ll_port < 0 || m_ly_port < 0); ++p)
    for (uint32_t q = 0; q < kClasses; ++q) {
      if (lossless(p, q) && m_ll_port < 0) m_ll_port = int(p), m_ll_prio = int(q);
      if (!m_cfg.queue_lossless[size_t(p) * kClasses + q] && m_ly_port < 0) m_ly_port = int(p), m_ly_prio = int(q);
    }
  if (m_cfg.th_lossless_port >= 0) m_ll_port = m_cfg.th_lossless_port, m_ll_prio = m_cfg.th_lossless_prio;
  if (m_cfg.th_lossy_port >= 0) m_ly_port = m_cfg.th_lossy_port, m_ly_prio = m_cfg.th_lossy_prio;
  note_rare();
  update_stats<true>(0);
}

void Mmu::enable_timeseries(std::ostream* out) {
  m_ts = out;
  m_next_sample = 0;
  *m_ts << "time_ns,lossless_bytes,lossy_bytes,headroom_bytes,total_bytes";
  for (const auto& p : m_cfg.pool_names) *m_ts << ",pool_" << p << "_bytes";
  *m_ts << ",th_ingress_lossless_bytes,th_egress_lossy_bytes,q_ingress_lossless_bytes,qhat_ingress_lossless_bytes\n";
  // A row: the time (20 digits, a point, 3) and 8 + pools numbers of at most 20 digits,
  // each after a comma, and the newline.
  m_row.assign(24 + (8 + m_pool_stats.size()) * 21 + 1, '\0');
}

void Mmu::enable_rtl(const std::string& waveform) {
  try {
    m_rtl = std::make_unique<RtlEngine>(m_core.config(), waveform, m_cfg.clock_period_ps);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("admission.impl: rtl: ") + e.what() + " (" + RtlEngine::describe() + ")");
  }
  note_rare();
}

uint64_t Mmu::rtl_cycles() const { return m_rtl ? m_rtl->cycles() : 0; }

void Mmu::rtl_csr_write(uint32_t addr, uint32_t data) {
  try {
    m_rtl->csr_write(addr, data);
  } catch (const std::exception& e) {
    SC_REPORT_ERROR("mmusim/mmu", (std::string("CSR write: ") + e.what()).c_str());
  }
}

void Mmu::trace(sc_core::sc_trace_file* tf, const VcdSignals& sel) {
  const std::string n = name();
  if (sel.mmu) {
    m_trace_mmu = true;
    note_rare();
    mirror();
    sc_core::sc_trace(tf, m_v_ll, n + ".lossless_bytes");
    sc_core::sc_trace(tf, m_v_ly, n + ".lossy_bytes");
    sc_core::sc_trace(tf, m_v_hd, n + ".headroom_bytes");
    sc_core::sc_trace(tf, m_v_total, n + ".total_bytes");
    sc_core::sc_trace(tf, m_v_th_ll, n + ".th_ingress_lossless_bytes");
    sc_core::sc_trace(tf, m_v_th_ly, n + ".th_egress_lossy_bytes");
  }
  if (!sel.queues && !sel.ports && !sel.pfc) return;
  const uint32_t ports = m_core.config().ports, prios = m_core.config().prios;
  const size_t nq = size_t(ports) * prios;
  m_tr = std::make_unique<Traced>();
  note_rare();
  m_tr->sel = sel;
  // Sized once: sc_trace keeps references.
  m_tr->ing.assign(nq, 0);
  m_tr->hdrm.assign(nq, 0);
  m_tr->egr.assign(nq, 0);
  m_tr->port_in.assign(ports, 0);
  m_tr->port_eg.assign(ports, 0);
  if (m_wred && sel.queues) m_tr->marked.assign(nq, 0);
  m_tr->xoff = std::make_unique<bool[]>(nq);
  m_tr->port_xoff = std::make_unique<bool[]>(ports);
  for (uint32_t p = 0; p < ports; ++p) {
    const std::string port =
        n + "." + (p < m_cfg.port_names.size() ? m_cfg.port_names[p] : "port" + std::to_string(p));
    if (sel.ports) {
      sc_core::sc_trace(tf, m_tr->port_in[p], port + ".ingress_bytes");
      sc_core::sc_trace(tf, m_tr->port_eg[p], port + ".egress_bytes");
    }
    if (sel.pfc && m_cfg.core.policy == "dsh") sc_core::sc_trace(tf, m_tr->port_xoff[p], port + ".port_xoff");
    for (uint32_t q = 0; q < prios; ++q) {
      const size_t i = size_t(p) * prios + q;
      const std::string pg = port + ".pg" + std::to_string(q), queue = port + ".queue" + std::to_string(q);
      if (sel.queues) {
        sc_core::sc_trace(tf, m_tr->ing[i], pg + ".ingress_bytes");
        sc_core::sc_trace(tf, m_tr->hdrm[i], pg + ".headroom_bytes");
        sc_core::sc_trace(tf, m_tr->egr[i], queue + ".egress_bytes");
        if (!m_tr->marked.empty() && m_cfg.wred_profile[i] >= 0)
          sc_core::sc_trace(tf, m_tr->marked[i], queue + ".ecn_marked");
      }
      if (sel.pfc && lossless(p, q)) sc_core::sc_trace(tf, m_tr->xoff[i], pg + ".xoff");
    }
  }
}

void Mmu::trace_touch(uint32_t in_port, uint32_t out_port, uint32_t prio, uint32_t queue) {
  const uint32_t prios = m_core.config().prios;
  const size_t ii = size_t(in_port) * prios + prio, ei = size_t(out_port) * prios + queue;
  m_tr->ing[ii] = m_core.ingress_cells(in_port, prio) * m_cell;
  m_tr->hdrm[ii] = m_core.headroom_cells(in_port, prio) * m_cell;
  m_tr->egr[ei] = m_core.egress_cells(out_port, queue) * m_cell;
  m_tr->xoff[ii] = m_core.paused(in_port, prio);
  m_tr->port_xoff[in_port] = m_core.port_paused(in_port);
  if (m_tr->sel.ports) {
    uint64_t in = 0, eg = 0;
    for (uint32_t q = 0; q < prios; ++q) {
      in += m_core.ingress_cells(in_port, q) + m_core.headroom_cells(in_port, q);
      eg += m_core.egress_cells(out_port, q);
    }
    m_tr->port_in[in_port] = in * m_cell;
    m_tr->port_eg[out_port] = eg * m_cell;
  }
}

void Mmu::write_row(uint64_t t) {
  // Formatted into the row buffer and written at once: a number through the stream's
  // locale-aware insertion costs about 400 instructions, by to_chars about 30.
  char* o = m_row.data();
  const auto num = [&o](uint64_t v) { o = std::to_chars(o, o + 20, v).ptr; };
  const auto field = [&](uint64_t v) {
    *o++ = ',';
    num(v);
  };
  // Integer nanoseconds with picosecond fraction, so rows never round to the same time.
  num(t / 1000);
  *o++ = '.';
  *o++ = char('0' + t / 100 % 10);
  *o++ = char('0' + t / 10 % 10);
  *o++ = char('0' + t % 10);
  field(m_ll * m_cell);
  field(m_ly * m_cell);
  field(m_hd * m_cell);
  field(m_core.total_used() * m_cell);
  for (size_t i = 0; i < m_pool_stats.size(); ++i) field(m_core.pool_used(uint16_t(i)) * m_cell);
  field(m_occ.th_lossless.value());
  field(m_occ.th_lossy.value());
  // The representative lossless PG's queue: instantaneous shared part and what admission compares.
  if (m_ll_port < 0) {
    field(0);
    field(0);
  } else {
    const auto port = uint32_t(m_ll_port), prio = uint32_t(m_ll_prio);
    const auto& cfg = m_core.config();
    const uint64_t reserved = cfg.ingress_profiles[cfg.pg_profile[size_t(port) * cfg.prios + prio]].reserved_cells;
    field(admission::shared_part(m_core.ingress_cells(port, prio), reserved) * m_cell);
    field(m_core.compared_ingress_cells(port, prio) * m_cell);
  }
  *o++ = '\n';
  m_ts->write(m_row.data(), o - m_row.data());
}

void Mmu::write_rows(uint64_t t) {
  // State is constant since the last change, so rows up to `t` are exact.
  while (m_next_sample <= t) {
    write_row(m_next_sample);
    m_next_sample += m_cfg.sample_interval_ps;
    if (m_next_sample > m_cfg.duration_ps) m_next_sample = kNever;
  }
}

void Mmu::read_threshold_forms() {
  m_th_version = m_core.config_version();
  using admission::ThresholdForm;
  m_th_ll_form = m_ll_port < 0 ? ThresholdForm::fixed(0)
                               : m_core.threshold_form(true, uint32_t(m_ll_port), uint32_t(m_ll_prio));
  m_th_ly_form = m_ly_port < 0 ? ThresholdForm::fixed(0)
                               : m_core.threshold_form(false, uint32_t(m_ly_port), uint32_t(m_ly_prio));
}

template <bool kRare>
void Mmu::update_stats(uint64_t t) {
  // The thresholds (calls, if any) first, then every set with the clock in registers.
  const uint64_t cell = m_cell;
  if (m_th_version != m_core.config_version()) read_threshold_forms();
  const uint64_t* pools = m_core.threshold_pools_used();
  const uint64_t th_ll = threshold_cells(m_th_ll_form, true, m_ll_port, m_ll_prio, pools) * cell;
  const uint64_t th_ly = threshold_cells(m_th_ly_form, false, m_ly_port, m_ly_prio, pools) * cell;
  TimeWeightedGroup::Instant at = m_stats.at(t);
  const uint64_t* pool = m_core.pools_used().data();
  const auto set_all = [&](auto common, auto shared) __attribute__((always_inline)) {
    constexpr bool c = decltype(common)::value, s = decltype(shared)::value;
    at.set<c, s>(kLossless, m_ll * cell);
    at.set<c, s>(kLossy, m_ly * cell);
    at.set<c, s>(kHeadroom, m_hd * cell);
    at.set<c, s>(kTotal, m_core.total_used() * cell);
    at.set<c, s>(kThLossless, th_ll);
    at.set<c, s>(kThLossy, th_ly);
    // Up to four pools without a loop: its counter and test cost about what a kept series does.
    const size_t n = m_npools;
    if (n > 0) at.set<c, s>(kPools, pool[0] * cell);
    if (n > 1) at.set<c, s>(kPools + 1, pool[1] * cell);
    if (n > 2) at.set<c, s>(kPools + 2, pool[2] * cell);
    if (n > 3) at.set<c, s>(kPools + 3, pool[3] * cell);
    for (size_t i = 4; i < n; ++i) at.set<c, s>(kPools + i, pool[i] * cell);
  };
  // Once no series shares another's (the default scenario's soon), a set costs what it
  // did without sharing.
  if (!at.common()) set_all(std::false_type{}, std::true_type{});
  else if (at.sharing()) set_all(std::true_type{}, std::true_type{});
  else set_all(std::true_type{}, std::false_type{});
  if (kRare && m_trace_mmu) mirror();
}

void Mmu::mirror() {
  m_v_ll = m_occ.lossless.value();
  m_v_ly = m_occ.lossy.value();
  m_v_hd = m_occ.headroom.value();
  m_v_total = m_occ.total.value();
  m_v_th_ll = m_occ.th_lossless.value();
  m_v_th_ly = m_occ.th_lossy.value();
}

void Mmu::model_error(const std::exception& e, const Packet& p, const char* op) {
  const std::string msg = std::string(op) + " of a packet in_port=" + std::to_string(p.in_port) +
                          " out_port=" + std::to_string(p.out_port) + " prio=" +
                          std::to_string(p.prio) + " cells=" + std::to_string(p.cells) + ": " + e.what();
  SC_REPORT_ERROR("mmusim/mmu", msg.c_str());
  throw std::logic_error(msg);  // not reached: errors throw by default
}

void Mmu::mark_ce(Packet& p, uint8_t q) {
  if (p.ecn == 3) return;  // already CE: counted where it was marked
  p.ecn = 3;
  const size_t i = size_t(p.out_port) * kClasses + q;
  ++m_wred_marked[i];
  if (m_tr && !m_tr->marked.empty()) m_tr->marked[i] = m_wred_marked[i];
}

bool Mmu::admit(Packet& p) { return m_rare ? admit_as<true>(p) : admit_as<false>(p); }

template <bool kRare>
bool Mmu::admit_as(Packet& p) {
  const uint64_t t = now_ps();
  sample_until(t);
  // WRED first, on the egress queue without this packet: drops (lossy queue, and never a
  // packet of a lossless ingress PG), and marks when wred.mark_at is enqueue (applied once
  // the packet is admitted).
  const uint8_t q = queue_of(p);
  bool mark = false;
  if (kRare && m_wred) {
    const bool at_enqueue = !m_cfg.wred_mark_at_dequeue;
    const uint64_t cells = m_wred_cells[size_t(p.out_port) * kClasses + q];
    const auto a = m_wred->decide(p.out_port, q, cells, p.ecn, at_enqueue, !lossless(p.in_port, p.prio));
    if (a == admission::WredAction::kDrop) {
      ++m_wred_dropped[size_t(p.out_port) * kClasses + q];
      ++m_drop_lossy;
      return false;
    }
    mark = a == admission::WredAction::kMark;
  }
  admission::Result r;
  const admission::Request req{p.in_port, p.out_port, p.prio, p.cells, t / m_clock_ps, q};
  if (kRare && m_hooked) m_op_hook(true, req);
  try {
    r = m_core.admit(req);
    if (kRare && m_rtl) r = m_rtl->admit(req);
  } catch (const std::exception& e) {
    model_error(e, p, "admission");
  }
  pfc_events(p.in_port, p.prio, r.pfc, r.port_pfc);
  if (kRare && m_tr) trace_touch(p.in_port, p.out_port, p.prio, q);
  if (r.verdict == Verdict::kDrop) {
    ++m_drop_reason[size_t(r.reason)];
    if (lossless(p.in_port, p.prio)) ++m_drop_lossless;
    else ++m_drop_lossy;
    return false;
  }
  ++m_admitted;
  ++m_buffered;
  if (kRare && mark) mark_ce(p, q);
  if (kRare && m_wred) m_wred_cells[size_t(p.out_port) * kClasses + q] += p.cells;
  if (kRare && m_int_classes) m_port[p.out_port].queued_bytes += p.bytes;
  PortState& in = m_port[p.in_port];
  in.in_cells += p.cells;
  in.in_peak = std::max(in.in_peak, in.in_cells);
  p.headroom = r.verdict == Verdict::kAdmitHeadroom;
  if (p.headroom) {
    ++m_admitted_hdrm;
    m_hd += p.cells;
  } else if (lossless(p.in_port, p.prio)) {
    m_ll += p.cells;
  } else {
    m_ly += p.cells;
  }
  update_stats<kRare>(t);
  return true;
}

void Mmu::depart(const Packet& p) { m_rare ? depart_as<true>(p) : depart_as<false>(p); }

template <bool kRare>
void Mmu::depart_as(const Packet& p) {
  const uint64_t t = now_ps();
  sample_until(t);
  const uint64_t hd_before = m_core.headroom_cells(p.in_port, p.prio);
  admission::PfcUpdate ev;
  const uint8_t q = queue_of(p);
  const admission::Departure dep{p.in_port, p.out_port, p.prio, p.cells, t / m_clock_ps, q};
  if (kRare && m_hooked) m_op_hook(false, {dep.in_port, dep.out_port, dep.prio, dep.cells, dep.cycle, q});
  try {
    ev = m_core.depart(dep);
    if (kRare && m_rtl) ev = m_rtl->depart(dep);
  } catch (const std::exception& e) {
    model_error(e, p, "departure");
  }
  // Headroom drains first (§2.2.1), whichever cells this packet was admitted into.
  const uint64_t from_hd = hd_before - m_core.headroom_cells(p.in_port, p.prio);
  uint64_t& cls = lossless(p.in_port, p.prio) ? m_ll : m_ly;
  if (from_hd > m_hd || p.cells - from_hd > cls || m_buffered == 0 || p.cells > m_port[p.in_port].in_cells) {
    const std::logic_error e("class occupancy would go negative");
    model_error(e, p, "departure");
  }
  m_hd -= from_hd;
  cls -= p.cells - from_hd;
  if (kRare && m_wred) {
    uint64_t& w = m_wred_cells[size_t(p.out_port) * kClasses + q];
    if (w < p.cells) model_error(std::logic_error("egress queue cells would go negative"), p, "departure");
    w -= p.cells;
  }
  --m_buffered;
  m_port[p.in_port].in_cells -= p.cells;
  update_stats<kRare>(t);
  if (kRare && m_tr) trace_touch(p.in_port, p.out_port, p.prio, q);
  pfc_events(p.in_port, p.prio, ev.pfc, ev.port_pfc);
}

void Mmu::send_pfc(uint32_t port, uint8_t prio, PfcEvent e, PfcEvent port_e) {
  if (m_delay_ps) {
    // The unit registers the response pipe cycles later: the events go out at that edge.
    const uint64_t packed = uint64_t(port) << 16 | uint64_t(prio) << 8 | uint64_t(e) << 4 | uint64_t(port_e);
    m_cal->at<&Mmu::deliver_pfc>(now_ps() + m_delay_ps, Phase::kDecision, this, packed);
    return;
  }
  if (e != PfcEvent::kNone) pfc->pfc_event(port, prio, e);
  if (port_e != PfcEvent::kNone) pfc->port_pfc_event(port, port_e);
}

void Mmu::deliver_pfc(uint64_t packed) {
  const uint32_t port = uint32_t(packed >> 16);
  const uint8_t prio = uint8_t(packed >> 8);
  const auto e = PfcEvent(packed >> 4 & 0xf), port_e = PfcEvent(packed & 0xf);
  if (e != PfcEvent::kNone) pfc->pfc_event(port, prio, e);
  if (port_e != PfcEvent::kNone) pfc->port_pfc_event(port, port_e);
}

void Mmu::push_int_hop(Packet& p, uint64_t t) {
  if (p.int_hops == Packet::kMaxIntHops) {
    ++m_int_full;
    return;
  }
  const uint64_t q = std::min<uint64_t>(m_port[p.out_port].queued_bytes, std::numeric_limits<uint32_t>::max());
  p.int_stack[p.int_hops++] = {t, m_port[p.out_port].tx_bytes, m_cfg.port_rate_bps[p.out_port], uint32_t(q)};
  ++m_int_recorded;
}

void Mmu::dequeue(Packet& p) {
  if (m_wred && m_cfg.wred_mark_at_dequeue) {
    // The queue still holds this packet's cells until its last bit leaves.
    const uint8_t q = queue_of(p);
    const uint64_t cells = m_wred_cells[size_t(p.out_port) * kClasses + q];
    if (cells < p.cells) {
      const std::logic_error e("egress queue cells below the departing packet's");
      model_error(e, p, "dequeue");
    }
    if (m_wred->decide(p.out_port, q, cells - p.cells, p.ecn, true, false) == admission::WredAction::kMark)
      mark_ce(p, q);
  }
  if (!m_int_classes) return;  // the port's bytes are INT's alone
  if (m_port[p.out_port].queued_bytes < p.bytes) {
    const std::logic_error e("queued bytes of the egress port would go negative");
    model_error(e, p, "dequeue");
  }
  m_port[p.out_port].queued_bytes -= p.bytes;
  if (!p.ack && (m_int_classes >> p.tc & 1)) push_int_hop(p, now_ps());
  m_port[p.out_port].tx_bytes += p.bytes;
}

nlohmann::json Mmu::wred_summary() const {
  uint64_t marked = 0, dropped = 0;
  nlohmann::json queues = nlohmann::json::object();
  for (uint32_t p = 0; p < m_cfg.ports(); ++p)
    for (uint32_t q = 0; q < kClasses; ++q) {
      const size_t i = size_t(p) * kClasses + q;
      const int prof = m_cfg.wred_profile[i];
      if (prof < 0) continue;
      marked += m_wred_marked[i];
      dropped += m_wred_dropped[i];
      queues[m_cfg.port_names[p] + "|" + std::to_string(q)] = {
          {"profile", m_cfg.wred_profile_names[size_t(prof)]}, {"marked", m_wred_marked[i]}, {"dropped", m_wred_dropped[i]}};
    }
  return {{"mark_at", m_cfg.wred_mark_at_dequeue ? "dequeue" : "enqueue"},
          {"marked", marked},
          {"dropped", dropped},
          {"queues", queues}};
}

nlohmann::json Mmu::int_summary() const { return {{"hops_recorded", m_int_recorded}, {"stack_full", m_int_full}}; }

void Mmu::finish(uint64_t end_ps) {
  if (m_rtl) {
    try {
      m_rtl->finish();
    } catch (const std::exception& e) {
      SC_REPORT_ERROR("mmusim/mmu", e.what());
    }
  }
  sample_until(end_ps);
  m_stats.finish(end_ps);
}

}  // namespace mmusim
