#pragma once
// The simulation's calendar: every timed wake-up of the model's blocks (a frame's arrival,
// an admission slot, the end of a serialisation, a pause expiry, a refresh, a flow start)
// is an entry keyed by (time, phase, component, posting order) that one SystemC method
// dispatches in key order. Simultaneous happenings thus run in a documented order that
// does not depend on how many SystemC events exist (docs/architecture.md, "Event
// ordering"), and a wake-up costs a heap entry instead of a kernel event.
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

   private:
    Calendar* m_cal;
    uint32_t m_id;
  };

  // The calendar of this simulation (one per process, as SystemC's kernel), made at first use.
  static Calendar& get();

  void post(uint64_t t_ps, Phase ph, uint32_t component, Fn fn, void* obj, uint64_t arg);
  size_t pending() const { return m_heap.size(); }
  uint64_t dispatched() const { return m_dispatched; }

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
  };

  Calendar();
  uint32_t add_component();
  void dispatch();
  void arm(uint64_t t_ps, uint64_t now);

  std::vector<Entry> m_heap;  // binary min-heap by (t, key)
  uint64_t m_seq = 0;
  uint32_t m_components = 0;
  uint64_t m_armed = kNever;  // time the kernel event is notified for
  bool m_dispatching = false;
  uint64_t m_dispatched = 0;
  sc_core::sc_event m_ev;
};

}  // namespace mmusim
