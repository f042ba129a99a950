#pragma once
// An admission policy: a threshold calculator plus an admission rule over the shared
// counter bank. Adding one means one class and one line in policy_registry.cc.
#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "admission/arch_state.h"
#include "admission/counters.h"
#include "admission/recip.h"
#include "admission/threshold_block.h"
#include "admission/threshold_form.h"
#include "admission/types.h"

namespace mmusim::admission {

class Policy {
 public:
  // divide_np's table holds n_p up to 2 x ports (used at the RTL's widths only, counter_bits
  // <= 32; ports and counter_bits never change after construction).
  explicit Policy(const CoreConfig& cfg)
      : m_cfg(cfg), m_np_div(std::min(int(cfg.counter_bits), 32), 2 * uint64_t(cfg.ports)) {}
  virtual ~Policy() = default;

  virtual Result admit(Counters& c, const Request& r) = 0;
  virtual PfcUpdate depart(Counters& c, const Departure& d) = 0;
  virtual void reset() {}
  // The configuration was rewritten in place (CSR writes): refresh values derived from it.
  // Everything else reads the configuration live.
  virtual void config_changed() {}
  // The policy's part of the architectural state (q_hat, n_p, dsh port counters): written
  // into / loaded from `s`; the core fills and loads the counter bank.
  virtual void save(ArchState&) const {}
  virtual void load(const ArchState&) {}
  // n_p (8 fraction bits) the threshold calculator registers: reverie's per priority, abm's
  // per ingress priority then per egress queue; empty for a policy whose thresholds do not
  // divide by n_p.
  virtual const std::vector<uint64_t>& congestion() const {
    static const std::vector<uint64_t> kNone;
    return kNone;
  }
  // Thresholds from the calculator's registers (the RTL unit's timing), or, with nullptr,
  // from the live counters (zero latency).
  void attach(const ThresholdBlock* tb) { m_tb = tb; }
  // Current thresholds in cells (statistics and the RTL checker).
  virtual uint64_t ingress_threshold(const Counters& c, uint32_t port, uint32_t prio) const = 0;
  virtual uint64_t egress_threshold(const Counters& c, uint32_t port, uint32_t q) const = 0;
  // How the ingress (or egress) threshold of (port, prio) follows from the state, until the
  // configuration changes (admission/threshold_form.h); kPolicy, the default: only
  // ingress_threshold / egress_threshold tell.
  virtual ThresholdForm threshold_form(bool, uint32_t, uint32_t) const { return {}; }
  uint64_t threshold_pool_used(const Counters& c, uint16_t pool) const {
    return m_tb ? m_tb->pool_used(pool) : c.pool_used[pool];
  }
  // The ingress queue length (shared part, cells) compared with its threshold: the
  // instantaneous one, or Reverie's low-pass-filtered one (timeseries.csv, Fig. 2).
  virtual uint64_t compared_ingress_cells(const Counters& c, uint32_t port, uint32_t prio) const {
    return shared_part(c.q[c.idx(port, prio)].ing, pg(port, prio).reserved_cells);
  }

 protected:
  const IngressProfile& pg(uint32_t port, uint32_t prio) const {
    return m_cfg.ingress_profiles[m_cfg.pg_profile[size_t(port) * m_cfg.prios + prio]];
  }
  const EgressProfile& queue(uint32_t port, uint32_t q) const {
    return m_cfg.egress_profiles[m_cfg.queue_profile[size_t(port) * m_cfg.prios + q]];
  }
  bool lossless(uint32_t port, uint32_t prio) const {
    return m_cfg.lossless[size_t(port) * m_cfg.prios + prio] != 0;
  }
  // alpha * value with alpha = 2^shift, saturating at the counter width like the RTL.
  uint64_t scale(uint64_t v, int8_t shift) const {
    if (shift < 0) return v >> -shift;
    const uint64_t max = m_cfg.counter_max();
    if (v > (max >> shift)) return max;  // saturate as the RTL's shifter does
    return v << shift;
  }
  // v / n for an 8-fraction-bit n (n_p of Eq. 6), saturating at the counter width.
  uint64_t divide_fx(uint64_t v, uint64_t n_fx, int frac) const {
    const unsigned __int128 q = ((unsigned __int128)v << frac) / n_fx;
    return q > m_cfg.counter_max() ? m_cfg.counter_max() : uint64_t(q);
  }
  // alpha (b - q) / n_p for v = alpha (b - q) <= counter_max and n_p (CongestionCount, at
  // least 1.0). Under the threshold rule n_p is a whole count of at most 2 x ports (the
  // ingress and egress queues of a priority) and the RTL divides by its reciprocal
  // (admission/recip.h): the same floor(v / n_p), computed the RTL's way for RTL widths.
  uint64_t divide_np(uint64_t v, uint64_t n_fx, int frac) const;
  // Dynamic Thresholds (Eq. 1): alpha * (pool size - pool occupancy), or static_th; the
  // occupancy as the threshold calculator registered it (or live at zero latency).
  // Inline, as the rest of an operation's path below: every admission evaluates two.
  uint64_t dt_threshold(const Counters& c, const Threshold& th, uint16_t pool) const {
    if (!th.dynamic) return th.static_cells;
    const uint64_t size = m_cfg.pool_cells[pool], used = threshold_pool_used(c, pool);
    // Occupancy above the size can only follow a run-time resize: no space left.
    return scale(used >= size ? 0 : size - used, th.shift);
  }
  // dt_threshold's form.
  ThresholdForm dt_threshold_form(const Threshold& th, uint16_t pool) const {
    if (!th.dynamic) return ThresholdForm::fixed(th.static_cells);
    return ThresholdForm::dt(pool, m_cfg.pool_cells[pool], th.shift, m_cfg.counter_max());
  }
  // A queue of q cells cannot take n more: at/over threshold `th_cells` or pool full.
  static bool over(const Counters&, uint64_t q, uint32_t n, uint64_t reserved, uint64_t th_cells,
                   uint64_t pool_size, uint64_t pool_used) {
    if (q + n <= reserved) return false;  // fits in the queue's private buffer
    const uint64_t s = shared_part(q, reserved);
    const uint64_t grow = shared_part(q + n, reserved) - s;
    if (pool_used + grow > pool_size) return true;
    return s >= th_cells;  // "equals or exceeds" (reverie §2.2.1)
  }

  // SONiC bookkeeping shared by dt, static and abm: charge/refund ingress (or headroom),
  // egress and pools; the headroom-first drain of §2.2.1.
  void charge(Counters& c, const Request& r, bool to_headroom) const {
    const uint8_t eq = r.egress_queue();
    charge(c, c.idx(r.in_port, r.prio), c.idx(r.out_port, eq), pg(r.in_port, r.prio), queue(r.out_port, eq), r.cells,
           to_headroom);
  }
  // Returns cells taken from headroom.
  uint64_t refund(Counters& c, const Departure& d) const {
    const uint8_t eq = d.egress_queue();
    return refund(c, c.idx(d.in_port, d.prio), c.idx(d.out_port, eq), pg(d.in_port, d.prio), queue(d.out_port, eq),
                  d.cells);
  }
  // The same with the counters' indices (ingress ii, egress ei) and profiles looked up.
  void charge(Counters& c, size_t ii, size_t ei, const IngressProfile& ip, const EgressProfile& ep, uint32_t cells,
              bool to_headroom) const {
    if (to_headroom) {
      c.add(c.q[ii].hdrm, cells, "ingress headroom");
      c.add(c.hdrm_pool_used, cells, "headroom pool");
    } else {
      const uint64_t grow = shared_part(c.q[ii].ing + cells, ip.reserved_cells) - shared_part(c.q[ii].ing, ip.reserved_cells);
      c.add(c.q[ii].ing, cells, "ingress queue");
      c.add(c.pool_used[ip.pool], grow, "ingress pool");
    }
    const uint64_t egrow = shared_part(c.q[ei].egr + cells, ep.reserved_cells) - shared_part(c.q[ei].egr, ep.reserved_cells);
    c.add(c.q[ei].egr, cells, "egress queue");
    c.add(c.pool_used[ep.pool], egrow, "egress pool");
    c.add(c.total, cells, "buffer");
  }
  uint64_t refund(Counters& c, size_t ii, size_t ei, const IngressProfile& ip, const EgressProfile& ep,
                  uint32_t cells) const {
    const uint64_t from_hdrm = cells < c.q[ii].hdrm ? cells : c.q[ii].hdrm;
    const uint64_t from_ing = cells - from_hdrm;
    if (from_ing > c.q[ii].ing) Counters::fail("counter underflow: ", "ingress queue");
    const uint64_t shrink = shared_part(c.q[ii].ing, ip.reserved_cells) - shared_part(c.q[ii].ing - from_ing, ip.reserved_cells);
    c.sub(c.q[ii].hdrm, from_hdrm, "ingress headroom");
    c.sub(c.hdrm_pool_used, from_hdrm, "headroom pool");
    c.sub(c.q[ii].ing, from_ing, "ingress queue");
    c.sub(c.pool_used[ip.pool], shrink, "ingress pool");
    if (cells > c.q[ei].egr) Counters::fail("counter underflow: ", "egress queue");
    const uint64_t eshrink = shared_part(c.q[ei].egr, ep.reserved_cells) - shared_part(c.q[ei].egr - cells, ep.reserved_cells);
    c.sub(c.q[ei].egr, cells, "egress queue");
    c.sub(c.pool_used[ep.pool], eshrink, "egress pool");
    c.sub(c.total, cells, "buffer");
    return from_hdrm;
  }
  static bool rtl_width(const CoreConfig& cfg) { return cfg.counter_bits <= 32; }
  // SONiC XON test for a paused PG whose headroom is empty.
  bool may_resume(const Counters& c, uint32_t port, uint32_t prio, uint64_t threshold) const;

  const CoreConfig& m_cfg;
  recip::Divider m_np_div;
  const ThresholdBlock* m_tb = nullptr;
};

using PolicyFactory = std::function<std::unique_ptr<Policy>(const CoreConfig&)>;
struct PolicyInfo {
  const char* name;
  const char* summary;
  PolicyFactory make;
};
const std::vector<PolicyInfo>& policies();
std::unique_ptr<Policy> make_policy(const CoreConfig& cfg);  // throws std::invalid_argument

}  // namespace mmusim::admission
