#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "common/calendar.h"

#include <algorithm>
#include <string>

namespace mmusim {
namespace {

// Bucket 0 is a std heap, which keeps its largest first: "less" is "later".
struct LaterKey {
  template <class E>
  bool operator()(const E& a, const E& b) const {
    return a.key > b.key;
  }
};

}  // namespace

Calendar::Calendar() {
  m_bucket_min.fill(kNever);
  sc_core::sc_spawn_options o;
  o.spawn_method();
  o.dont_initialize();
  o.set_sensitivity(&m_ev);
  sc_core::sc_spawn([this] { dispatch(); }, "mmusim_calendar", &o);
}

uint32_t Calendar::add_component() {
  if (m_components == (1u << kComponentBits))
    SC_REPORT_FATAL("mmusim_calendar", ("more than " + std::to_string(1u << kComponentBits) + " components").c_str());
  return m_components++;
}

void Calendar::insert(const Entry& e) {
  if (e.t == m_last) {
    m_bucket[0].push_back(e);
    std::push_heap(m_bucket[0].begin(), m_bucket[0].end(), LaterKey{});
    return;
  }
  const size_t b = size_t(64 - __builtin_clzll(e.t ^ m_last));
  m_bucket[b].push_back(e);
  m_bucket_min[b] = std::min(m_bucket_min[b], e.t);
  m_nonempty |= uint64_t(1) << (b - 1);
}

uint64_t Calendar::next_time() const {
  if (!m_bucket[0].empty()) return m_last;
  return m_nonempty ? lowest_bucket_time() : kNever;
}

void Calendar::advance(uint64_t t) {
  // Every entry of the lowest bucket lands in a lower one relative to its least time t
  // (amortised: an entry moves at most 64 times, in practice once or twice).
  const int b = __builtin_ctzll(m_nonempty) + 1;
  auto& v = m_bucket[size_t(b)];
  m_nonempty &= ~(uint64_t(1) << (b - 1));
  m_bucket_min[size_t(b)] = kNever;
  m_last = t;
  for (const Entry& e : v) insert(e);
  v.clear();
}

Calendar::Entry Calendar::take() {
  auto& b0 = m_bucket[0];
  if (b0.size() > 1) std::pop_heap(b0.begin(), b0.end(), LaterKey{});
  const Entry e = b0.back();
  b0.pop_back();
  --m_size;
  return e;
}

void Calendar::post(uint64_t t_ps, Phase ph, uint32_t component, Fn fn, void* obj, uint64_t arg) {
  const uint64_t now = Calendar::now();
  if (t_ps < now || t_ps < m_last) SC_REPORT_FATAL("mmusim_calendar", "wake-up posted in the past");
  if (m_seq == (uint64_t(1) << kSeqBits)) SC_REPORT_FATAL("mmusim_calendar", "2^40 wake-ups posted");
  insert({t_ps, uint64_t(ph) << 61 | uint64_t(component) << kSeqBits | m_seq++, fn, obj, arg});
  ++m_size;
  if (!m_dispatching && t_ps < m_armed) arm(t_ps, now);
}

void Calendar::arm(uint64_t t_ps, uint64_t kernel_now) {
  m_armed = t_ps;
  m_ev.notify(sc_core::sc_time::from_value(t_ps - kernel_now));
}

void Calendar::set_horizon(uint64_t t_ps) {
  m_horizon = t_ps;
  if (t_ps == 0 && m_dispatching) m_limit = std::min<uint64_t>(m_limit, sc_core::sc_time_stamp().value() + 1);
}

void Calendar::dispatch() {
  const uint64_t kernel = sc_core::sc_time_stamp().value();
  m_armed = kNever;
  // Entries at the kernel's time always run; later ones before the kernel's next activity
  // and the horizon (another process, or the end of sc_start, may act there).
  m_limit = kernel + 1;
  if (m_horizon > m_limit) {
    const sc_core::sc_time gap = sc_core::sc_time_to_pending_activity();
    const uint64_t next = gap == sc_core::sc_max_time() ? kNever : kernel + gap.value();
    m_limit = std::max(m_limit, std::min(next, m_horizon));
  }
  m_dispatching = true;
  // Entries posted while dispatching run in this same pass, in key order.
  for (;;) {
    if (m_bucket[0].empty()) {
      if (!m_nonempty) break;
      const uint64_t t = lowest_bucket_time();
      if (t >= m_limit) break;
      advance(t);
    }
    m_now = m_last;
    const Entry e = take();
    e.fn(e.obj, e.arg);
  }
  m_dispatching = false;
  if (m_size) arm(next_time(), kernel);
}

}  // namespace mmusim
