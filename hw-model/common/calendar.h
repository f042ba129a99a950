#pragma once
// The simulation's calendar: every timed wake-up of the model's blocks (a frame's arrival,
// an admission slot, the end of a serialisation, a pause expiry, a refresh, a flow start)
// is an entry keyed by (time, phase, component, posting order) that one SystemC method
// dispatches in key order. Simultaneous happenings thus run in a documented order that
// does not depend on how many SystemC events exist (docs/architecture.md, "Event
// ordering"), and a wake-up costs a queue entry instead of a kernel event.
//
// Temporal decoupling (TLM-2.0 loosely timed): with a horizon set (set_horizon, the end of
// the current sc_start), one activation of the method runs entries ahead of the kernel's
// time up to the kernel's next pending activity or the horizon, whichever is first, so
// the kernel is entered once per stretch instead of once per picosecond that has an entry.
// Blocks read the time with now_ps() (common/sim_time.h), which is the calendar's time
// while it dispatches and the kernel's otherwise.
#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <systemc>

namespace mmusim {

// The phases of one picosecond, in the order they run.
enum class Phase : uint8_t {
  kFlowStart = 0,  // traffic: a flow's first data is handed to its NIC
  kArrival = 1,    // a frame's last bit reaches a MAC (switch ingress or NIC receive)
  kDeparture = 2,  // a transmitter's serialisation ends: cells released, next frame chosen
  kDecision = 3,   // MMU clock edge: admission decisions
  kRetry = 4,      // a transmitter retries: pause expiry, pacing, retransmission timer
  kRefresh = 5,    // PFC and BFC refresh frames
};

class Calendar {
  template <class M>
  struct Member;
  template <class C>
  struct Member<void (C::*)()> {
    using Obj = C;
    static void call(void (C::*m)(), C* o, uint64_t) { (o->*m)(); }
  };
  template <class C, class A>
  struct Member<void (C::*)(A)> {
    using Obj = C;
    static_assert(std::is_pointer_v<A> || std::is_integral_v<A>, "a wake-up carries a pointer or an integer");
    static uint64_t pack(A a) {
      if constexpr (std::is_pointer_v<A>) return uint64_t(reinterpret_cast<uintptr_t>(a));
      else return uint64_t(a);
    }
    static void call(void (C::*m)(A), C* o, uint64_t a) {
      if constexpr (std::is_pointer_v<A>) (o->*m)(reinterpret_cast<A>(uintptr_t(a)));
      else (o->*m)(A(a));
    }
  };
  template <auto M>
  static void thunk(void* o, uint64_t a) {
    using T = Member<decltype(M)>;
    T::call(M, static_cast<typename T::Obj*>(o), a);
  }

 public:
  using Fn = void (*)(void* obj, uint64_t arg);

  // A block's handle: its component id (elaboration order) and the calendar.
  class Client {
   public:
    Client() : m_cal(&Calendar::get()), m_id(m_cal->add_component()) {}
    // Run member M of `o` at t_ps in phase `ph` (M takes nothing, a pointer or an integer).
    template <auto M>
    void at(uint64_t t_ps, Phase ph, typename Member<decltype(M)>::Obj* o) const {
      m_cal->post(t_ps, ph, m_id, &thunk<M>, o, 0);
    }
    template <auto M, class A>
    void at(uint64_t t_ps, Phase ph, typename Member<decltype(M)>::Obj* o, A arg) const {
      m_cal->post(t_ps, ph, m_id, &thunk<M>, o, Member<decltype(M)>::pack(arg));
    }
    uint32_t id() const { return m_id; }
    // Whether an entry at t_ps would run (Calendar::runs).
    bool runs(uint64_t t_ps) const { return m_cal->runs(t_ps); }
    // The posting order of a wake-up this block keeps itself instead of posting, for ran().
    uint64_t reserve() const { return m_cal->reserve(); }
    // Whether an entry of this block at (t_ps, ph) with posting order `seq`, reserved
    // before now for a later time, would have run by now, had it been posted.
    bool ran(uint64_t t_ps, Phase ph, uint64_t seq) const {
      return m_cal->ran(t_ps, uint64_t(ph) << 61 | uint64_t(m_id) << kSeqBits | seq);
    }

   private:
    Calendar* m_cal;
    uint32_t m_id;
  };

  // The calendar of this simulation (one per process, as SystemC's kernel), made at first use.
  static Calendar& get() {
    if (!s_cal) s_cal = new Calendar;  // never destroyed: its kernel event outlives main()
    return *s_cal;
  }
  // The model's time: the calendar's while it dispatches, else the kernel's.
  static uint64_t now() {
    return s_dispatching ? s_now : sc_core::sc_time_stamp().value();
  }

  void post(uint64_t t_ps, Phase ph, uint32_t component, Fn fn, void* obj, uint64_t arg) {
    // Mostly posted while dispatching: the flag tested once.
    if (!s_dispatching) return post_idle(t_ps, ph, component, fn, obj, arg);
    if (t_ps < s_now) fail("wake-up posted in the past");
    put(t_ps, ph, component, fn, obj, arg);
  }
  // Run entries ahead of the kernel up to (not including) t_ps; 0: never run ahead (and
  // stop running ahead at once, as after a failed output write).
  void set_horizon(uint64_t t_ps);
  size_t pending() const { return m_size; }
  // The run goes on to t_ps (the end of its last sc_start): every entry before it runs. A
  // block may then do at once what an entry would, where nothing reads the result before
  // the run ends. Unset (0), runs() is false.
  void set_run_end(uint64_t t_ps) { m_run_end = t_ps; }
  bool runs(uint64_t t_ps) const { return t_ps < m_run_end; }
  uint64_t reserve() {
    if (m_seq == (uint64_t(1) << kSeqBits)) fail("2^40 wake-ups posted");
    return m_seq++;
  }
  // Whether the entry (t_ps, key), posted before now for a later time, would have run by
  // now: while dispatching, entries run in key order; between activations, every entry up
  // to the kernel's time has run (the kernel runs the activity at the end of sc_start).
  bool ran(uint64_t t_ps, uint64_t key) const {
    if (!s_dispatching) return t_ps <= sc_core::sc_time_stamp().value();
    return t_ps != s_now ? t_ps < s_now : key <= m_key;
  }

 private:
  static constexpr int kSeqBits = 40;
  static constexpr int kComponentBits = 61 - kSeqBits;
  static constexpr uint64_t kNever = ~uint64_t(0);

  struct Entry {
    uint64_t t;
    uint64_t key;  // phase (3 bits) | component (21 bits) | posting order (40 bits)
    Fn fn;
    void* obj;
    uint64_t arg;
    bool after(const Entry& o) const { return t != o.t ? t > o.t : key > o.key; }
  };

  Calendar();
  uint32_t add_component();
  void dispatch();
  void arm(uint64_t t_ps, uint64_t kernel_now);
  // A timing wheel: slot s holds the entries of one slot width [start, start + W) up to a
  // wheel's span ahead of the current slot; the current slot's entries are in m_ready,
  // sorted by (time, key), those from m_next on still to run; later ones wait in
  // m_overflow, a heap, and join the wheel as it turns. Each entry is placed once or twice,
  // whatever its distance.
  void insert(const Entry& e) {
    if (e.t < m_base + (uint64_t(1) << kSlotShift)) {
      insert_ready(e);
    } else if (e.t < m_base + kSpan) {
      const size_t s = size_t(e.t >> kSlotShift) & (kSlots - 1);
      m_slot[s].push_back(e);
      m_slot_used[s / 64] |= uint64_t(1) << (s % 64);
    } else {
      insert_overflow(e);
    }
  }
  // An entry keyed (phase, component, posting order), placed: post's and post_idle's.
  void put(uint64_t t_ps, Phase ph, uint32_t component, Fn fn, void* obj, uint64_t arg) {
    insert({t_ps, uint64_t(ph) << 61 | uint64_t(component) << kSeqBits | reserve(), fn, obj, arg});
    ++m_size;
  }
  void insert_ready(const Entry& e);
  // post() between activations: checked against and arming the kernel's time.
  void post_idle(uint64_t t_ps, Phase ph, uint32_t component, Fn fn, void* obj, uint64_t arg);
  void insert_overflow(const Entry& e);
  [[noreturn]] static void fail(const char* what);
  // m_ready has none left to run, an entry is pending: turn to the next slot holding one.
  void advance();
  // advance's rarer parts, out of line so that a turn saves few registers.
  [[gnu::noinline]] void sort_ready();
  [[gnu::noinline]] void take_overflow();
  uint64_t next_time();
  int next_slot(size_t from) const;  // first non-empty slot at or after `from`, cyclically; -1: none

  static constexpr int kSlotShift = 12;  // 4.096 ns per slot
  static constexpr size_t kSlots = 2048;  // 8.4 us ahead, more than a link's delay
  static constexpr uint64_t kSpan = uint64_t(kSlots) << kSlotShift;

  inline static Calendar* s_cal = nullptr;
  // While dispatching, and its time: process-wide as the calendar is, so that now(), read
  // several times per frame, is a flag and a load.
  inline static bool s_dispatching = false;
  inline static uint64_t s_now = 0;
  std::vector<Entry> m_ready;
  Entry* m_next = nullptr;  // m_ready's next entry to run (a pointer: no size() division)
  std::array<std::vector<Entry>, kSlots> m_slot;
  std::array<uint64_t, kSlots / 64> m_slot_used{};  // bit per non-empty slot
  std::vector<Entry> m_overflow;
  uint64_t m_base = 0;  // start of the current slot
  size_t m_size = 0;
  uint64_t m_seq = 0;
  uint32_t m_components = 0;
  uint64_t m_key = 0;  // while dispatching: the running entry's key
  uint64_t m_horizon = 0;
  uint64_t m_run_end = 0;
  uint64_t m_limit = 0;  // while dispatching: entries before this time run
  uint64_t m_armed = kNever;  // time the kernel event is notified for
  sc_core::sc_event m_ev;
};

}  // namespace mmusim
