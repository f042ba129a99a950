#pragma once
// CSR target of the admission unit: a TLM-2.0 target (standard generic payload, blocking
// transport) in front of admission/regfile.h, acting on a referenced AdmissionCore, so
// software-style configuration of the SystemC model goes through the register map of the
// RTL unit (docs/registers.md).
//
// Accesses: single 32-bit words; byte address = word address x 4; data in host byte
// order; no byte enables other than all four (or none); no DMI.
// Responses:
//   TLM_OK_RESPONSE              done (reads return the register; writes reconfigure the core)
//   TLM_ADDRESS_ERROR_RESPONSE   unaligned, or no register at that word address
//   TLM_BURST_ERROR_RESPONSE     length or streaming width other than 4
//   TLM_BYTE_ENABLE_ERROR_RESPONSE  a partial byte enable
//   TLM_COMMAND_ERROR_RESPONSE   write to a read-only register
//   TLM_GENERIC_ERROR_RESPONSE   anything else: an undefined value, a configuration the
//                                core rejects (it keeps its configuration), a quiesce
//                                field written while the buffer holds cells, a value the
//                                map cannot show (e.g. reading CTRL under policy abm)
// last_error() says why the last access failed. Nothing is printed.
//
// The unit it presents: the core's ports, priorities, pools and counter width, and the
// largest profile tables the map allows (NPROF_MAX), so software can add profiles.
#include <cstdint>
#include <functional>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "admission/admission_core.h"
#include "admission/regfile.h"

namespace mmusim {

class CsrTarget : public sc_core::sc_module {
 public:
  // May stay unbound (a switch without a CSR master).
  tlm_utils::simple_target_socket_optional<CsrTarget> socket;

  CsrTarget(sc_core::sc_module_name name, admission::AdmissionCore& core);
  CsrTarget(sc_core::sc_module_name name, admission::AdmissionCore& core, const admission::RtlParams& params);

  // Source of STAT_DECISIONS / STAT_DROPS (kept by the core's owner); both read 0 without.
  void set_stats(std::function<admission::CsrStats()> f) { m_stats = std::move(f); }
  // Co-simulation: present the RTL unit's map (`params`) and hand every write the core
  // accepted to `mirror` too, which applies it to the unit (and throws if they disagree).
  void mirror_writes(const admission::RtlParams& params, std::function<void(uint32_t, uint32_t)> mirror);

  const admission::RtlParams& params() const { return m_params; }
  const std::string& last_error() const { return m_last_error; }
  uint64_t accesses() const { return m_accesses; }
  uint64_t errors() const { return m_errors; }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  // One word access; returns the response status, sets m_last_error on failure.
  tlm::tlm_response_status access(bool is_write, uint64_t byte_addr, uint32_t& data);

  admission::AdmissionCore& m_core;
  admission::RtlParams m_params;
  std::string m_params_error;  // non-empty: the map cannot describe this core
  std::function<admission::CsrStats()> m_stats;
  std::function<void(uint32_t, uint32_t)> m_mirror;
  std::string m_last_error;
  uint64_t m_accesses = 0, m_errors = 0;
};

}  // namespace mmusim
