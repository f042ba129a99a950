#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "common/calendar.h"

#include <algorithm>
#include <string>

namespace mmusim {
namespace {

// std heaps keep the largest first: "less" is "later".
struct Later {
  template <class E>
  bool operator()(const E& a, const E& b) const {
    return a.t != b.t ? a.t > b.t : a.key > b.key;
  }
};

}  // namespace

Calendar& Calendar::get() {
  // Never destroyed: its kernel event must not outlive SystemC's own shutdown order.
  static Calendar* c = new Calendar;
  return *c;
}

Calendar::Calendar() {
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

void Calendar::post(uint64_t t_ps, Phase ph, uint32_t component, Fn fn, void* obj, uint64_t arg) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  if (t_ps < now) SC_REPORT_FATAL("mmusim_calendar", "wake-up posted in the past");
  if (m_seq == (uint64_t(1) << kSeqBits)) SC_REPORT_FATAL("mmusim_calendar", "2^40 wake-ups posted");
  const uint64_t key = uint64_t(ph) << 61 | uint64_t(component) << kSeqBits | m_seq++;
  m_heap.push_back({t_ps, key, fn, obj, arg});
  std::push_heap(m_heap.begin(), m_heap.end(), Later{});
  if (!m_dispatching && t_ps < m_armed) arm(t_ps, now);
}

void Calendar::arm(uint64_t t_ps, uint64_t now) {
  m_armed = t_ps;
  m_ev.notify(sc_core::sc_time::from_value(t_ps - now));
}

void Calendar::dispatch() {
  const uint64_t now = sc_core::sc_time_stamp().value();
  m_armed = kNever;
  m_dispatching = true;
  // Entries posted for `now` while dispatching run in this same pass, in key order.
  while (!m_heap.empty() && m_heap.front().t <= now) {
    std::pop_heap(m_heap.begin(), m_heap.end(), Later{});
    const Entry e = m_heap.back();
    m_heap.pop_back();
    ++m_dispatched;
    e.fn(e.obj, e.arg);
  }
  m_dispatching = false;
  if (!m_heap.empty()) arm(m_heap.front().t, now);
}

}  // namespace mmusim
