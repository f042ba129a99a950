#pragma once
// A SystemC channel whose writes are visible at once, without a delta cycle. The MMU
// takes each admission decision inside one function call at a clock edge; the
// SystemC-mode Verilated unit bound to these wires is clocked and evaluated within that
// call (a gated clock that ticks only when there is an operation), so the RTL decides in
// the same timestep as the C++ core would, and nothing runs while the switch is idle.
#include <systemc>

namespace mmusim::rtl {

template <class T>
class ZeroTimeWireBase : public sc_core::sc_signal_inout_if<T>, public sc_core::sc_prim_channel {
 public:
  explicit ZeroTimeWireBase(const char* name) : sc_core::sc_prim_channel(name) {}

  const T& read() const override { return m_v; }
  const T& get_data_ref() const override { return m_v; }
  void write(const T& v) override { m_v = v; }
  // The unit is evaluated explicitly (ScPins::eval), never by a value-change event.
  const sc_core::sc_event& value_changed_event() const override { return m_never; }
  const sc_core::sc_event& default_event() const override { return m_never; }
  bool event() const override { return false; }

  operator const T&() const { return m_v; }

 protected:
  T m_v{};
  sc_core::sc_event m_never;
};

template <class T>
class ZeroTimeWire : public ZeroTimeWireBase<T> {
 public:
  using ZeroTimeWireBase<T>::ZeroTimeWireBase;
  ZeroTimeWire& operator=(const T& v) {
    this->m_v = v;
    return *this;
  }
};

template <>
class ZeroTimeWire<bool> : public ZeroTimeWireBase<bool> {
 public:
  using ZeroTimeWireBase<bool>::ZeroTimeWireBase;
  ZeroTimeWire& operator=(bool v) {
    m_v = v;
    return *this;
  }
  const sc_core::sc_event& posedge_event() const override { return m_never; }
  const sc_core::sc_event& negedge_event() const override { return m_never; }
  bool posedge() const override { return false; }
  bool negedge() const override { return false; }
};

}  // namespace mmusim::rtl
