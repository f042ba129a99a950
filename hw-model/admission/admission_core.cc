#include "admission/admission_core.h"

#include <string>

namespace mmusim::admission {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::kAdmitShared: return "admit_shared";
    case Verdict::kAdmitHeadroom: return "admit_headroom";
    case Verdict::kDrop: return "drop";
  }
  return "?";
}

const char* to_string(PfcEvent e) {
  switch (e) {
    case PfcEvent::kNone: return "none";
    case PfcEvent::kXoff: return "xoff";
    case PfcEvent::kXon: return "xon";
  }
  return "?";
}

const char* to_string(DropReason r) {
  switch (r) {
    case DropReason::kNone: return "none";
    case DropReason::kIngress: return "ingress_threshold";
    case DropReason::kEgress: return "egress_threshold";
    case DropReason::kHeadroom: return "headroom_full";
    case DropReason::kBuffer: return "buffer_full";
  }
  return "?";
}

void CoreConfig::validate() const {
  auto fail = [](const std::string& what) { throw std::invalid_argument(what); };
  if (ports == 0) fail("ports must be > 0");
  if (prios == 0 || prios > 8) fail("prios must be 1..8");
  if (counter_bits < 8 || counter_bits > 64) fail("counter_bits must be 8..64");
  if (buffer_cells == 0) fail("buffer_cells must be > 0");
  if (buffer_cells > counter_max()) fail("buffer_cells does not fit counter_bits");
  for (size_t i = 0; i < pool_cells.size(); ++i)
    if (pool_cells[i] > buffer_cells) fail("pool " + std::to_string(i) + " larger than the buffer");
  if (headroom_pool_cells > buffer_cells) fail("headroom pool larger than the buffer");
  const size_t n = size_t(ports) * prios;
  if (pg_profile.size() != n || queue_profile.size() != n || lossless.size() != n)
    fail("per-queue tables must have ports*prios entries");
  for (auto& p : ingress_profiles) {
    if (p.pool >= pool_cells.size()) fail("ingress profile names a missing pool");
    if (p.th.shift < -15 || p.th.shift > 15) fail("dynamic_th out of range");
  }
  for (auto& p : egress_profiles) {
    if (p.pool >= pool_cells.size()) fail("egress profile names a missing pool");
    if (p.th.shift < -15 || p.th.shift > 15) fail("dynamic_th out of range");
  }
  // A pool serves one side: were it charged at ingress and at egress, both checks would
  // pass against the same free space and the two charges could overflow it.
  std::vector<uint8_t> side(pool_cells.size(), 0);  // bit 0: some PG uses it, bit 1: some queue
  for (size_t i = 0; i < n; ++i) {
    if (pg_profile[i] >= ingress_profiles.size()) fail("pg_profile index out of range");
    if (queue_profile[i] >= egress_profiles.size()) fail("queue_profile index out of range");
    side[ingress_profiles[pg_profile[i]].pool] |= 1;
    side[egress_profiles[queue_profile[i]].pool] |= 2;
  }
  for (size_t k = 0; k < side.size(); ++k)
    if (side[k] == 3) fail("pool " + std::to_string(k) + " is used by ingress PGs and egress queues");
  if (congestion.cells == 0) fail("congestion threshold must be > 0 cells");
  if (ewma.k > 30) fail("ewma k must be 0..30");
  if (ewma.frac_bits > 32) fail("ewma fraction bits must be 0..32");
  if (buffer_cells > (~uint64_t(0) >> ewma.frac_bits)) fail("buffer_cells << ewma fraction bits does not fit 64 bits");
  if (ewma.period_cycles == 0) fail("ewma period must be > 0 cycles");
  if (thresholds.period_cycles < 1 || thresholds.period_cycles > 255) fail("threshold period must be 1..255 cycles");
  if (pipe != 0 && pipe != 1 && pipe != 3) fail("pipeline depth (pipe) must be 0, 1 or 3");
  if (pipe == 3 && policy != "dt" && policy != "static" && policy != "sih" && policy != "dsh")
    fail("pipe 3 supports dt, static, sih and dsh, not " + policy);
  if (abm.interval_log2 > 20) fail("abm interval must be at most 2^20 cycles");
  if (abm.port_cells_per_interval.size() > ports) fail("abm: more ports with a rate than the switch has");
}

AdmissionCore::AdmissionCore(CoreConfig cfg) : m_cfg(std::move(cfg)) {
  m_cfg.validate();
  // Pipe 3 (fixed: reconfigure keeps it and the ports): rule 4, and its operations aside.
  m_tb.set_lag(m_cfg.pipe == 3);
  m_inline_ports = m_cfg.pipe == 3 ? 0 : m_cfg.ports;
  m_policy = make_policy(m_cfg);
  attach();
  reset();
}

void AdmissionCore::attach() {
  auto* sonic = dynamic_cast<SonicPolicy*>(m_policy.get());
  const bool plain = sonic && sonic->plain();
  // validate() lets pipe 3 have only dt, static, sih (plain) and dsh, all SONiC policies.
  m_sonic = plain && m_cfg.pipe != 3 ? sonic : nullptr;
  m_sonic3 = m_cfg.pipe == 3 ? sonic : nullptr;
  m_policy->attach(m_cfg.thresholds.zero_latency ? nullptr : &m_tb);
  m_tb.bind(&m_c.pool_used, &m_policy->congestion());
}

void AdmissionCore::reset() {
  m_c.reset(m_cfg);
  m_prev.size(m_c.pool_used.size());
  m_policy->reset();
  sync_thresholds();
  m_idle_from = kNoCycle;
}

// After the programming's last write the decide stage is idle for pipe cycles before the
// first operation taken after it.
void AdmissionCore::sync_thresholds() {
  m_tb.sync(m_cfg.thresholds.period_cycles);
  m_pending = m_cfg.pipe;
  m_prev.clear();
}

void AdmissionCore::cycle_begin() {
  if (m_cfg.thresholds.zero_latency) return;
  if (m_cfg.pipe == 3) m_tb.begin_lagged();
  else m_tb.begin();
}

void AdmissionCore::csr_cycle_end() {
  if (!m_cfg.thresholds.zero_latency) {
    if (m_cfg.pipe == 3) m_tb.end_lagged(true, m_cfg.thresholds.period_cycles);
    else m_tb.end(true, m_cfg.thresholds.period_cycles);
  }
  m_pending = m_cfg.pipe;
  m_prev.clear();  // (the pending cycles would clear it anyway)
}

void AdmissionCore::idle(uint64_t cycles) {
  m_pending += cycles;
  if (m_pending <= m_cfg.pipe) return;
  if (!m_cfg.thresholds.zero_latency) {
    if (m_cfg.pipe == 3) m_tb.idle_lagged(m_pending - m_cfg.pipe, m_cfg.thresholds.period_cycles);
    else m_tb.idle(m_pending - m_cfg.pipe, m_cfg.thresholds.period_cycles);
  }
  m_pending = m_cfg.pipe;
}

// The pending cycles and the gap reach the calculator at once before the operation (as
// op_begin does); the unit, clocked after the pending ones, needs the rest. Pipe 0 and 1:
// pending <= 1 and equivalent_idle(n) >= 1 for n >= 1 keep it non-negative. Pipe 3's 3
// pending may exceed it: only when a load falls among the n cycles, and then any count
// past it by the same number modulo the period holds the same (the lag bank too).
uint64_t AdmissionCore::idle_clocks_before(uint64_t cycle) const {
  const uint32_t period = m_cfg.thresholds.period_cycles;
  uint64_t n = m_tb.equivalent_idle(m_pending + gap_before(cycle), period);
  while (n < m_pending) n += period;
  return n - m_pending;
}

void AdmissionCore::refused_write() {
  cycle_begin();
  csr_cycle_end();
}

void AdmissionCore::reconfigure(const CoreConfig& cfg) {
  cfg.validate();
  if (cfg.ports != m_cfg.ports || cfg.prios != m_cfg.prios || cfg.pool_cells.size() != m_cfg.pool_cells.size())
    throw std::invalid_argument("reconfigure cannot change ports, priorities or the number of pools");
  if (cfg.counter_bits != m_cfg.counter_bits || cfg.ewma.frac_bits != m_cfg.ewma.frac_bits || cfg.pipe != m_cfg.pipe)
    throw std::invalid_argument("reconfigure cannot change counter_bits, ewma fraction bits or the pipeline depth");
  const bool new_policy = cfg.policy != m_cfg.policy;
  // The write's cycle: the calculator loads (if due) from the state and configuration
  // before it.
  cycle_begin();
  const bool was_live = m_cfg.thresholds.zero_latency;
  m_cfg = cfg;  // policies read the configuration by reference
  m_c.configure(m_cfg);
  ++m_config_version;
  if (new_policy) {
    m_policy = make_policy(m_cfg);
    m_policy->reset();
  } else {
    m_policy->config_changed();
  }
  attach();
  if (was_live && !m_cfg.thresholds.zero_latency) sync_thresholds();
  csr_cycle_end();
}

ArchState AdmissionCore::state() const {
  ArchState s;
  const size_t n = m_c.q.size();
  s.ing.reserve(n);
  s.hdrm.reserve(n);
  s.egr.reserve(n);
  s.paused.reserve(n);
  for (const Counters::Queue& q : m_c.q) {
    s.ing.push_back(q.ing);
    s.hdrm.push_back(q.hdrm);
    s.egr.push_back(q.egr);
    s.paused.push_back(q.paused);
  }
  s.port_paused = m_c.port_paused;
  s.pool_used = m_c.pool_used;
  s.hdrm_pool_used = m_c.hdrm_pool_used;
  s.total = m_c.total;
  m_policy->save(s);
  return s;
}

void AdmissionCore::load_state(const ArchState& s) {
  const size_t n = size_t(m_cfg.ports) * m_cfg.prios;
  if (s.ing.size() != n || s.hdrm.size() != n || s.egr.size() != n || s.paused.size() != n ||
      s.port_paused.size() != m_cfg.ports || s.pool_used.size() != m_cfg.pool_cells.size())
    throw std::invalid_argument("state does not have this core's shape");
  m_policy->load(s);
  for (size_t i = 0; i < n; ++i) {
    Counters::Queue& q = m_c.q[i];
    q.ing = s.ing[i];
    q.hdrm = s.hdrm[i];
    q.egr = s.egr[i];
    q.paused = s.paused[i];
  }
  m_c.port_paused = s.port_paused;
  m_c.pool_used = s.pool_used;
  m_c.hdrm_pool_used = s.hdrm_pool_used;
  m_c.total = s.total;
  sync_thresholds();
}

void AdmissionCore::out_of_range(const char* what) {
  throw std::out_of_range(std::string(what) + " names a port or priority out of range");
}

std::pair<PfcUpdate, Result> AdmissionCore::depart_and_admit(const Departure& d, const Request& r) {
  check(d.in_port, d.out_port, d.prio, d.egress_queue(), "departure");
  check(r.in_port, r.out_port, r.prio, r.egress_queue(), "admission request");
  if (m_sonic3) return depart_and_admit3(d, r);
  op_begin(d.cycle);
  // The request tests the pools as the cycle began: the release's refund of a pool reaches
  // the pool tests a cycle later (the unit's dual issue, "The pool refund's lag" in
  // docs/rtl.md), the counters at once. The refund is put back for the request and taken
  // again after it, so the pools end as release-then-request leaves them.
  std::vector<uint64_t>& pools = m_c.pool_used;
  m_pool_refund = pools;  // the pools before the release, then its refund of each
  const PfcUpdate u = m_policy->depart(m_c, d);
  for (size_t p = 0; p < pools.size(); ++p) {
    const uint64_t before = m_pool_refund[p];
    m_pool_refund[p] = before - pools[p];
    pools[p] = before;
  }
  const Result res = m_policy->admit(m_c, r);
  for (size_t p = 0; p < pools.size(); ++p) pools[p] -= m_pool_refund[p];
  cycle_end();
  return {u, res};
}

Result AdmissionCore::admit_aside(const Request& r) {
  check(r.in_port, r.out_port, r.prio, r.egress_queue(), "admission request");
  return admit3(r);
}

PfcUpdate AdmissionCore::depart_aside(const Departure& d) {
  check(d.in_port, d.out_port, d.prio, d.egress_queue(), "departure");
  return depart3(d);
}

// Pipe 3. A decide cycle follows an operation's exactly when no idle cycle came between:
// none pending (a CSR write, reset, load_state or sync leaves pipe of them) and no gap.
void AdmissionCore::op_begin3(uint64_t cycle) {
  const uint64_t n = m_pending + gap_before(cycle);
  if (!m_cfg.thresholds.zero_latency) {
    if (n) m_tb.idle_lagged(n, m_cfg.thresholds.period_cycles);
    m_tb.begin_lagged();
  }
  m_pending = 0;
  if (m_idle_from_cycles) m_idle_from = cycle + 1;
  if (n) m_prev.clear();
}

Result AdmissionCore::request3(const Request& r) {
  const std::vector<uint64_t>& pools = m_c.pool_used;
  m_pool_refund = pools;  // the pools before the request
  const Result res = m_sonic3->admit_after(m_c, r, m_prev);
  PrevCycle::Admitted& q = m_prev.q;
  if (res.verdict == Verdict::kDrop) {
    m_prev.clear_q();
    return res;
  }
  q.ii = m_c.idx(r.in_port, r.prio);
  q.ei = m_c.idx(r.out_port, r.egress_queue());
  q.cells = r.cells;
  q.verdict = res.verdict;
  for (size_t p = 0; p < pools.size(); ++p) {
    q.charge[p] = pools[p] - m_pool_refund[p];
    q.bound[p] = 0;
  }
  // Its full cells in each pool it charges: the ingress pool if admitted to the shared
  // part, the egress pool if admitted.
  if (res.verdict == Verdict::kAdmitShared) q.bound[m_cfg.ingress_profiles[m_c.q[q.ii].pg_profile].pool] += r.cells;
  q.bound[m_cfg.egress_profiles[m_c.q[q.ei].queue_profile].pool] += r.cells;
  return res;
}

PfcUpdate AdmissionCore::release3(const Departure& d) {
  const std::vector<uint64_t>& pools = m_c.pool_used;
  PrevCycle::Released& rel = m_prev.r;
  rel.ii = m_c.idx(d.in_port, d.prio);
  rel.ei = m_c.idx(d.out_port, d.egress_queue());
  rel.in_port = d.in_port;
  const uint64_t hdrm = m_c.q[rel.ii].hdrm, ing = m_c.q[rel.ii].ing;
  m_pool_refund = pools;  // the pools before the release
  const PfcUpdate u = m_sonic3->plain() ? m_sonic3->SonicPolicy::depart(m_c, d) : m_sonic3->depart(m_c, d);
  rel.cells = d.cells;
  rel.from_hdrm = hdrm - m_c.q[rel.ii].hdrm;
  rel.from_ing = ing - m_c.q[rel.ii].ing;
  for (size_t p = 0; p < pools.size(); ++p) rel.refund[p] = m_pool_refund[p] - pools[p];
  return u;
}

Result AdmissionCore::admit3(const Request& r) {
  op_begin3(r.cycle);
  const Result res = request3(r);
  m_prev.clear_r();
  cycle_end3();
  return res;
}

PfcUpdate AdmissionCore::depart3(const Departure& d) {
  op_begin3(d.cycle);
  const PfcUpdate u = release3(d);
  m_prev.clear_q();
  cycle_end3();
  return u;
}

// Rule 1: the request first, on the view of the previous cycle; then the release.
std::pair<PfcUpdate, Result> AdmissionCore::depart_and_admit3(const Departure& d, const Request& r) {
  op_begin3(d.cycle);
  const Result res = request3(r);
  const PfcUpdate u = release3(d);
  cycle_end3();
  return {u, res};
}

}  // namespace mmusim::admission
