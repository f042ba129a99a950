#pragma once
// The SystemC-mode Verilated admission unit (verilate(... SYSTEMC ...)) with its ports
// bound to zero-time wires that carry the C++-mode model's pin names, so rtl::Unit drives
// either kind of model with the same code. Construct during elaboration; drive (read
// ports) only once elaboration is complete, i.e. after sc_start has been called.
#include <memory>
#include <string>
#include <type_traits>

#include <systemc>
#include <verilated.h>
#include <verilated_fst_c.h>

#include "cosim/zero_time_wire.h"

namespace mmusim::rtl {

// X(name, type) for every port of mmu_admission (CW <= 32: all fit 32 bits).
#define MMUSIM_RTL_PORTS(X)                                                                           \
  X(clk_i, bool) X(rst_ni, bool) X(cfg_valid_i, bool) X(cfg_ready_o, bool) X(cfg_write_i, bool)       \
  X(cfg_rvalid_o, bool) X(cfg_error_o, bool) X(req_valid_i, bool) X(req_ready_o, bool)                \
  X(req_in_port_i, uint32_t) X(req_out_port_i, uint32_t) X(req_prio_i, uint32_t) X(rsp_valid_o, bool) \
  X(rsp_verdict_o, uint32_t) X(rsp_pfc_o, uint32_t) X(rsp_port_pfc_o, uint32_t)                       \
  X(rsp_reason_o, uint32_t) X(rel_valid_i, bool) X(rel_ready_o, bool) X(rel_in_port_i, uint32_t)      \
  X(rel_out_port_i, uint32_t) X(rel_prio_i, uint32_t) X(rel_rsp_valid_o, bool)                        \
  X(rel_rsp_pfc_o, uint32_t) X(rel_rsp_port_pfc_o, uint32_t) X(stat_underflow_o, bool)                \
  X(cfg_addr_i, uint32_t) X(req_cells_i, uint32_t) X(rel_cells_i, uint32_t) X(cfg_wdata_i, uint32_t)  \
  X(cfg_rdata_o, uint32_t) X(stat_total_o, uint32_t) X(stat_hdrm_pool_o, uint32_t)

// Verilator keeps a SystemC model's eval_step() private, for SystemC to call from the
// model's SC_METHOD on input changes. The MMU evaluates the unit itself, inside its
// decision call; the pointer to the private member is taken through an explicit template
// instantiation, where access checking does not apply ([temp.spec.general]/6).
template <class ScModel>
struct EvalStep {
  static void (ScModel::*fn)();
};
template <class ScModel>
void (ScModel::*EvalStep<ScModel>::fn)() = nullptr;
template <class ScModel, void (ScModel::*F)()>
struct EvalStepGrant {
  static inline const bool done = (EvalStep<ScModel>::fn = F, true);
};
// Instantiate once per model type: template struct EvalStepGrant<Model, &Model::eval_step>;
#define MMUSIM_RTL_GRANT_EVAL(Model) template struct mmusim::rtl::EvalStepGrant<Model, &Model::eval_step>

template <class ScModel>
class ScPins : public sc_core::sc_module {
 public:
  // The signature rtl::Unit constructs its model with; the context is SystemC's.
  ScPins(VerilatedContext*, const char* name) : ScPins(sc_core::sc_module_name(name)) {}

#define MMUSIM_DECLARE_WIRE(n, t) ZeroTimeWire<t> n;
  MMUSIM_RTL_PORTS(MMUSIM_DECLARE_WIRE)
#undef MMUSIM_DECLARE_WIRE
  std::remove_const_t<decltype(ScModel::rootp)> rootp = nullptr;

  void eval() { (m_model.get()->*EvalStep<ScModel>::fn)(); }
  void final() { m_model->final(); }
  VerilatedContext* contextp() const { return m_model->contextp(); }
  void trace(VerilatedFstC* tfp, int levels) {
    Verilated::threadContextp()->traceEverOn(true);
    m_model->trace(tfp, levels);
  }

 private:
#define MMUSIM_INIT_WIRE(n, t) , n(#n)
  explicit ScPins(sc_core::sc_module_name n)
      : sc_module(n) MMUSIM_RTL_PORTS(MMUSIM_INIT_WIRE), m_model(std::make_unique<ScModel>("unit")) {
#undef MMUSIM_INIT_WIRE
#define MMUSIM_BIND_WIRE(n, t) m_model->n(n);
    MMUSIM_RTL_PORTS(MMUSIM_BIND_WIRE)
#undef MMUSIM_BIND_WIRE
    rootp = m_model->rootp;
  }

  std::unique_ptr<ScModel> m_model;
};

#undef MMUSIM_RTL_PORTS

}  // namespace mmusim::rtl
