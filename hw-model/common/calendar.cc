#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "common/calendar.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace mmusim {
namespace {

// The overflow is a std heap, which keeps its largest first: "less" is "later".
struct Later {
  template <class E>
  bool operator()(const E& a, const E& b) const {
    return a.after(b);
  }
};

struct Earlier {
  template <class E>
  bool operator()(const E& a, const E& b) const {
    return b.after(a);
  }
};

constexpr size_t kSlotReserve = 8;  // entries each slot's buffer starts with

// Sorts v by insertion while that takes at most 4 moves an entry, as a slot in posting
// order mostly needs none; false (v a permutation of itself) when it would take more.
template <class E>
bool nearly_sorted(std::vector<E>& v) {
  size_t budget = 4 * v.size();
  for (size_t i = 1; i < v.size(); ++i) {
    if (!v[i - 1].after(v[i])) continue;
    const E e = v[i];
    size_t j = i;
    do {
      v[j] = v[j - 1];
      --j;
    } while (j > 0 && v[j - 1].after(e) && --budget);
    v[j] = e;
    if (!budget) return false;
  }
  return true;
}

}  // namespace

Calendar::Calendar() {
  // Slots hand their buffer to m_ready and take its previous one at each turn, so every
  // buffer grows to the largest slot's size in turn: from empty, thousands of reallocations
  // (3.3 M instructions on the default scenario). Reserved at once, they mostly never grow.
  for (auto& s : m_slot) s.reserve(kSlotReserve);
  m_ready.reserve(kSlotReserve);
  m_next = m_ready.data();
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

void Calendar::post_idle(uint64_t t_ps, Phase ph, uint32_t component, Fn fn, void* obj, uint64_t arg) {
  const uint64_t t_now = sc_core::sc_time_stamp().value();
  if (t_ps < t_now) fail("wake-up posted in the past");
  put(t_ps, ph, component, fn, obj, arg);
  if (t_ps < m_armed) arm(t_ps, t_now);
}

void Calendar::insert_ready(const Entry& e) {
  // Mostly the least (posted for now): it takes the place of the entry just run.
  Entry* at = m_next;
  for (Entry* end = m_ready.data() + m_ready.size(); at != end && e.after(*at);) ++at;
  if (m_next != m_ready.data()) {
    --m_next;
    std::copy(m_next + 1, at, m_next);
    at[-1] = e;
  } else {
    m_ready.insert(m_ready.begin() + (at - m_ready.data()), e);
    m_next = m_ready.data();
  }
}

void Calendar::insert_overflow(const Entry& e) {
  m_overflow.push_back(e);
  std::push_heap(m_overflow.begin(), m_overflow.end(), Later{});
}

int Calendar::next_slot(size_t from) const {
  constexpr size_t kWords = kSlots / 64;
  const size_t w0 = from / 64;
  if (const uint64_t bits = m_slot_used[w0] & (~uint64_t(0) << (from % 64)))
    return int(w0 * 64 + size_t(__builtin_ctzll(bits)));
  for (size_t k = 1; k <= kWords; ++k) {
    const size_t w = (w0 + k) & (kWords - 1);
    if (const uint64_t bits = m_slot_used[w]) return int(w * 64 + size_t(__builtin_ctzll(bits)));
  }
  return -1;
}

void Calendar::advance() {
  m_ready.clear();
  const size_t cur = size_t(m_base >> kSlotShift) & (kSlots - 1);
  if (const int next = next_slot((cur + 1) % kSlots); next >= 0) {
    const size_t s = size_t(next);
    m_base += uint64_t((s - cur) % kSlots) << kSlotShift;
    m_slot_used[s / 64] &= ~(uint64_t(1) << (s % 64));
    m_ready.swap(m_slot[s]);  // the slot's buffer was empty: keeps both buffers
    if (m_ready.size() > 1) sort_ready();
  } else {
    m_base = m_overflow.front().t >> kSlotShift << kSlotShift;
  }
  m_next = m_ready.data();
  if (!m_overflow.empty() && m_overflow.front().t < m_base + kSpan) take_overflow();
}

void Calendar::sort_ready() {
  // Posts mostly come in (time, key) order: such a slot is in order or nearly so, and an
  // insertion sort costs a pass and its few moves; one far from order (many simultaneous
  // flows) is sorted by std::sort.
  if (!nearly_sorted(m_ready)) std::sort(m_ready.begin(), m_ready.end(), Earlier{});
}

void Calendar::take_overflow() {
  // The span moved: overflow entries now within it join the wheel (or the current slot).
  while (!m_overflow.empty() && m_overflow.front().t < m_base + kSpan) {
    std::pop_heap(m_overflow.begin(), m_overflow.end(), Later{});
    const Entry e = m_overflow.back();
    m_overflow.pop_back();
    insert(e);
  }
}

uint64_t Calendar::next_time() {
  if (m_next == m_ready.data() + m_ready.size()) advance();
  return m_next->t;
}

void Calendar::fail(const char* what) {
  SC_REPORT_FATAL("mmusim_calendar", what);
  std::abort();  // a fatal report whose action was configured not to stop
}

void Calendar::arm(uint64_t t_ps, uint64_t kernel_now) {
  m_armed = t_ps;
  m_ev.notify(sc_core::sc_time::from_value(t_ps - kernel_now));
}

void Calendar::set_horizon(uint64_t t_ps) {
  m_horizon = t_ps;
  if (t_ps == 0 && s_dispatching) m_limit = std::min<uint64_t>(m_limit, sc_core::sc_time_stamp().value() + 1);
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
  s_dispatching = true;
  // Entries posted while dispatching run in this same pass, in key order.
  while (m_size && next_time() < m_limit) {
    // What the call needs, read before it (it may move m_ready): not a copy of the entry.
    const Entry& e = *m_next++;
    const Fn fn = e.fn;
    void* const obj = e.obj;
    const uint64_t arg = e.arg;
    --m_size;
    s_now = e.t;
    m_key = e.key;
    fn(obj, arg);
  }
  s_dispatching = false;
  if (m_size) arm(next_time(), kernel);
}

}  // namespace mmusim
