#include "bfc/bfc_unit.h"

#include <algorithm>

#include "common/sim_time.h"
#include "pfc/pfc_frame.h"

namespace mmusim {

namespace {

std::vector<uint64_t> port_rates(const Scenario& sc) {
  std::vector<uint64_t> r;
  for (const auto& p : sc.topo.ports) r.push_back(p.rate_bps);
  return r;
}

}  // namespace

BfcUnit::BfcUnit(sc_core::sc_module_name name, const Scenario& sc, uint32_t switch_id, PacketPool& pool)
    : sc_module(name), out("out"), bfc_export("bfc_export"), m_sc(sc), m_switch_id(switch_id), m_pool(pool),
      m_nq(sc.bfc.queues_per_port),
      m_table(sc.ports(), m_nq, sc.bfc.table_factor, sc.bfc.assignment,
              uint64_t(double(sc.bfc.hrtt_ps) * sc.bfc.sticky_factor), sc.seed * 1000003u + switch_id),
      m_counters(sc.ports(), m_nq), m_th(port_rates(sc), sc.bfc.hrtt_ps, m_nq, sc.mmu.cell_bytes),
      m_suppress(size_t(sc.ports()) * sc.ports(), 0), m_qlen(size_t(sc.ports()) * m_nq, 0),
      m_port_cells(sc.ports(), 0), m_busy(sc.ports(), 0), m_active(sc.ports(), 0), m_peer_paused(sc.ports()),
      m_pause_since(size_t(sc.ports()) * m_nq, 0), m_max_queue_cells(sc.ports(), 0) {
  out.register_nb_transport_bw(this, &BfcUnit::nb_transport_bw);
  bfc_export.bind(*this);
  for (const auto& [in, eg] : sc.bfc.suppress) m_suppress[size_t(in) * sc.ports() + eg] = 1;
  for (uint32_t p = 0; p < sc.ports(); ++p) {
    m_bytes_tw.emplace_back(sc.measure_start_ps, sc.measure_end_ps, sc.output.occupancy_bucket_bytes);
    m_busy_tw.emplace_back(sc.measure_start_ps, sc.measure_end_ps, 1);
    m_empty_tw.emplace_back(sc.measure_start_ps, sc.measure_end_ps, 1);
    m_empty_tw.back().set(0, 1);
  }
}

void BfcUnit::change_queue(uint32_t port, uint32_t q, int64_t delta) {
  uint32_t& len = m_qlen[size_t(port) * m_nq + q];
  if (delta < 0 && uint64_t(-delta) > len) SC_REPORT_ERROR(name(), "BFC queue length underflow");
  if (delta > 0 && uint64_t(len) + uint64_t(delta) > UINT32_MAX) SC_REPORT_ERROR(name(), "BFC queue length overflow");
  const uint64_t now = now_ps();
  sample_until(now);
  const bool was_active = is_active(port, q), was_busy = len > 0;
  len = uint32_t(int64_t(len) + delta);
  m_port_cells[port] = uint64_t(int64_t(m_port_cells[port]) + delta);
  const bool busy = len > 0;
  if (busy != was_busy) {
    m_table.set_empty(port, q, !busy);
    if (busy) ++m_busy[port];
    else --m_busy[port];
  }
  const bool active = is_active(port, q);
  if (active != was_active) {
    if (active) ++m_active[port];
    else --m_active[port];
  }
  m_max_queue_cells[port] = std::max(m_max_queue_cells[port], len);
  m_bytes_tw[port].set(now, m_port_cells[port] * m_sc.mmu.cell_bytes);
  m_busy_tw[port].set(now, m_busy[port]);
  m_empty_tw[port].set(now, m_port_cells[port] == 0 ? 1 : 0);
}

void BfcUnit::enqueue(Packet& p) {
  const uint64_t now = now_ps();
  const uint32_t eg = p.out_port, in = p.in_port;
  if (p.upstream_q >= m_nq) SC_REPORT_ERROR(name(), "upstreamQ beyond bfc.queues_per_port");
  const uint16_t q = m_table.enqueue(eg, bfc_flow_hash(p.tuple), now, &p.bfc_slot);
  p.queue = q;
  // N_active as the packet joins: its own queue counts once it holds data.
  const uint32_t n = std::max<uint32_t>(1, m_active[eg] + (is_active(eg, q) || m_peer_paused[eg].test(q) ? 0 : 1));
  const bool over = m_qlen[size_t(eg) * m_nq + q] > m_th.cells(eg, n);
  const bool suppressed = m_suppress[size_t(in) * m_sc.ports() + eg] != 0;
  p.bfc_counted = over && !suppressed;
  if (over && suppressed) ++m_suppressed;
  change_queue(eg, q, int64_t(p.cells));
  if (!p.bfc_counted) return;
  ++m_counted;
  if (m_counters.increment(in, p.upstream_q)) {
    m_pause_since[size_t(in) * m_nq + p.upstream_q] = now;
    send(in, BfcFrame::Op::kPause, p.upstream_q);
  }
}

void BfcUnit::depart(const Packet& p) {
  const uint64_t now = now_ps();
  change_queue(p.out_port, p.queue, -int64_t(p.cells));
  m_table.dequeue(p.bfc_slot, now);
  if (!p.bfc_counted) return;
  if (m_counters.decrement(p.in_port, p.upstream_q)) {
    const uint64_t since = m_pause_since[size_t(p.in_port) * m_nq + p.upstream_q];
    m_longest_closed_ps = std::max(m_longest_closed_ps, now - since);
    send(p.in_port, BfcFrame::Op::kResume, p.upstream_q);
  }
}

void BfcUnit::peer_paused(uint32_t port, const QueueMask& paused) {
  for (uint32_t q = 0; q < m_nq; ++q) {
    if (paused.test(q) == m_peer_paused[port].test(q)) continue;
    const bool was = is_active(port, q);
    m_peer_paused[port].set(q, paused.test(q));
    const bool now_active = is_active(port, q);
    if (now_active == was) continue;
    if (now_active) ++m_active[port];
    else --m_active[port];
  }
}

void BfcUnit::send(uint32_t port, BfcFrame::Op op, uint16_t queue) {
  Packet* p = m_pool.get();
  p->kind = Packet::Kind::kBfc;
  p->bytes = kBfcFrameBytes;
  p->bfc.src_mac = port_mac(m_switch_id, port);
  p->bfc.op = op;
  p->bfc.queue = queue;
  p->bfc.paused = m_counters.paused(port);
  (op == BfcFrame::Op::kPause ? m_pause_frames : op == BfcFrame::Op::kResume ? m_resume_frames : m_refresh_frames)++;
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  out[int(port)]->nb_transport_fw(*p, ph, t);
  if (!m_refresh_armed && m_counters.nonzero()) {
    m_refresh_armed = true;
    m_cal.at<&BfcUnit::on_refresh>(now_ps() + m_sc.bfc.refresh_ps, Phase::kRefresh, this);
  }
}

void BfcUnit::on_refresh() {
  m_refresh_armed = false;
  // Every port with a paused upstream queue gets its bitmap again.
  for (uint32_t port = 0; port < m_counters.ports(); ++port)
    if (m_counters.paused(port).any()) send(port, BfcFrame::Op::kRefresh, 0);
}

uint64_t BfcUnit::longest_pause_ps(uint64_t now) const {
  uint64_t best = m_longest_closed_ps;
  for (uint32_t port = 0; port < m_counters.ports(); ++port)
    for (uint32_t q = 0; q < m_nq; ++q)
      if (m_counters.value(port, q)) best = std::max(best, now - m_pause_since[size_t(port) * m_nq + q]);
  return best;
}

void BfcUnit::enable_queue_series(std::ostream* out) {
  m_series = out;
  *m_series << "time_ns,port,queue,bytes\n";
}

void BfcUnit::sample_until(uint64_t t) {
  if (!m_series) return;
  // Lengths are constant since the last change, so rows up to `t` are exact (the state just
  // before each sample instant, as timeseries.csv).
  for (; m_next_sample <= t && m_next_sample <= m_sc.duration_ps; m_next_sample += m_sc.output.sample_interval_ps) {
    const uint64_t s = m_next_sample;
    for (uint32_t p = 0; p < m_sc.ports(); ++p) {
      if (!m_port_cells[p]) continue;
      for (uint32_t q = 0; q < m_nq; ++q)
        if (const uint32_t len = m_qlen[size_t(p) * m_nq + q])
          *m_series << s / 1000 << '.' << char('0' + s / 100 % 10) << char('0' + s / 10 % 10) << char('0' + s % 10)
                    << ',' << m_sc.topo.ports[p].name << ',' << q << ',' << uint64_t(len) * m_sc.mmu.cell_bytes << '\n';
    }
  }
}

void BfcUnit::finish(uint64_t now) {
  sample_until(now);
  for (uint32_t p = 0; p < m_sc.ports(); ++p) {
    m_bytes_tw[p].finish(now);
    m_busy_tw[p].finish(now);
    m_empty_tw[p].finish(now);
  }
}

nlohmann::json BfcUnit::stats() const {
  nlohmann::json ports = nlohmann::json::array();
  for (uint32_t p = 0; p < m_sc.ports(); ++p) {
    const double busy = m_busy_tw[p].mean();
    ports.push_back({{"port", m_sc.topo.ports[p].name},
                     {"empty_fraction", m_empty_tw[p].mean()},
                     {"mean_bytes", m_bytes_tw[p].mean()},
                     {"mean_queue_bytes", busy > 0 ? m_bytes_tw[p].mean() / busy : 0.0},
                     {"max_queue_bytes", uint64_t(m_max_queue_cells[p]) * m_sc.mmu.cell_bytes},
                     {"th1_bytes", m_th.bytes(p, 1)}});
  }
  const auto& t = m_table.stats();
  return {{"pause_frames", m_pause_frames},
          {"resume_frames", m_resume_frames},
          {"refresh_frames", m_refresh_frames},
          {"counted_packets", m_counted},
          {"suppressed_packets", m_suppressed},
          {"assignments", t.assignments},
          {"random_assignments", t.random},
          {"sticky_keeps", t.sticky},
          {"ports", ports}};
}

}  // namespace mmusim
