#include "host/transport/dcqcn.h"

#include <algorithm>

namespace mmusim {

Dcqcn::Dcqcn(const DcqcnCfg& cfg, uint64_t line_rate_bps)
    : Transport(kNoWindow, line_rate_bps, true, false), m_cfg(cfg),
      m_line(double(line_rate_bps)), m_rc(m_line), m_rt(m_line) {}

double Dcqcn::alpha(uint64_t now_ps) const {
  if (!m_throttled) return m_alpha;
  // One decay per whole K since the last CNP; past 2^16 decays alpha is below 1e-100 at
  // any g >= 1/256 and stops mattering.
  const uint64_t n = now_ps > m_alpha_ps ? std::min<uint64_t>((now_ps - m_alpha_ps) / m_cfg.alpha_timer_ps, 1u << 16) : 0;
  double a = m_alpha;
  for (uint64_t i = 0; i < n; ++i) a *= 1 - m_cfg.g;
  return a;
}

void Dcqcn::set_rate() { m_rate = std::max<uint64_t>(1, uint64_t(m_rc)); }

void Dcqcn::cut(uint64_t t) {
  m_rt = m_rc;
  m_rc = std::max(double(m_cfg.min_rate_bps), m_rc * (1 - alpha(t) / 2));
  m_last_cut_ps = t;
  m_cut_pending = false;
  m_t = m_bc = 0;
  m_bytes = 0;
  m_next_inc_ps = t + m_cfg.increase_timer_ps;
  set_rate();
}

void Dcqcn::on_cnp(uint64_t now_ps) {
  advance(now_ps);
  const double a = alpha(now_ps);  // before this CNP (1 before the first)
  if (!m_throttled) {
    m_throttled = true;
    m_alpha_ps = now_ps;
    cut(now_ps);
  } else if (now_ps >= m_last_cut_ps + m_cfg.rate_decrease_interval_ps) {
    cut(now_ps);
  } else {
    m_cut_pending = true;
  }
  m_alpha = (1 - m_cfg.g) * a + m_cfg.g;
  m_alpha_ps = now_ps;
}

void Dcqcn::increase(bool from_timer) {
  (from_timer ? m_t : m_bc) += 1;
  const uint32_t f = m_cfg.fast_recovery_steps;
  double add = 0;
  if (m_cfg.byte_counter_bytes) {
    const uint32_t hi = std::max(m_t, m_bc), lo = std::min(m_t, m_bc);
    if (hi <= f) add = 0;
    else if (lo <= f) add = double(m_cfg.rate_ai_bps);
    else add = double(lo - f) * double(m_cfg.rate_hai_bps);
  } else if (m_t > f) {
    add = m_t == f + 1 ? double(m_cfg.rate_ai_bps) : double(m_cfg.rate_hai_bps);
  }
  m_rt = std::min(m_line, m_rt + add);
  m_rc = (m_rt + m_rc) / 2;
  if (m_rt >= m_line && m_rc >= m_line) {  // back at line rate: nothing left to increase
    m_rc = m_line;
    m_next_inc_ps = 0;
  }
  set_rate();
}

void Dcqcn::on_send(uint64_t bytes, uint64_t now_ps) {
  if (!m_cfg.byte_counter_bytes || !m_next_inc_ps) return;
  advance(now_ps);
  m_bytes += bytes;
  while (m_next_inc_ps && m_bytes >= m_cfg.byte_counter_bytes) {
    m_bytes -= m_cfg.byte_counter_bytes;
    increase(false);
  }
}

uint64_t Dcqcn::next_timer_ps() const {
  const uint64_t cut_at = m_cut_pending ? m_last_cut_ps + m_cfg.rate_decrease_interval_ps : 0;
  if (!cut_at) return m_next_inc_ps;
  return m_next_inc_ps ? std::min(cut_at, m_next_inc_ps) : cut_at;
}

void Dcqcn::advance(uint64_t now_ps) {
  for (;;) {
    const uint64_t cut_at = m_cut_pending ? m_last_cut_ps + m_cfg.rate_decrease_interval_ps : 0;
    if (cut_at && cut_at <= now_ps && (!m_next_inc_ps || cut_at <= m_next_inc_ps)) {
      cut(cut_at);
    } else if (m_next_inc_ps && m_next_inc_ps <= now_ps) {
      m_next_inc_ps += m_cfg.increase_timer_ps;
      increase(true);
    } else {
      return;
    }
  }
}

}  // namespace mmusim
