#include "mmu/csr_target.h"

#include <algorithm>
#include <cstring>
#include <exception>

namespace mmusim {

namespace {

admission::RtlParams default_params(const admission::CoreConfig& cfg) {
  admission::RtlParams p = admission::params_for(cfg);
  p.nprof = std::max(p.nprof, admission::regs::NPROF_MAX);
  return p;
}

}  // namespace

CsrTarget::CsrTarget(sc_core::sc_module_name name, admission::AdmissionCore& core)
    : CsrTarget(name, core, default_params(core.config())) {}

CsrTarget::CsrTarget(sc_core::sc_module_name name, admission::AdmissionCore& core,
                     const admission::RtlParams& params)
    : sc_module(name), socket("socket"), m_core(core), m_params(params) {
  socket.register_b_transport(this, &CsrTarget::b_transport);
  socket.register_transport_dbg(this, &CsrTarget::transport_dbg);
  // Never throw here: a scenario the map cannot describe must still simulate; its CSR
  // accesses fail instead.
  try {
    admission::check_params(m_params);
  } catch (const std::exception& e) {
    m_params_error = std::string("the register map cannot describe this unit: ") + e.what();
  }
}

void CsrTarget::mirror_writes(const admission::RtlParams& params, std::function<void(uint32_t, uint32_t)> mirror) {
  m_params = params;
  m_params_error.clear();
  try {
    admission::check_params(m_params);
  } catch (const std::exception& e) {
    m_params_error = std::string("the register map cannot describe this unit: ") + e.what();
  }
  m_mirror = std::move(mirror);
}

tlm::tlm_response_status CsrTarget::access(bool is_write, uint64_t byte_addr, uint32_t& data) {
  ++m_accesses;
  auto error = [&](tlm::tlm_response_status st, const std::string& why) {
    ++m_errors;
    m_last_error = why;
    return st;
  };
  if (byte_addr % 4 != 0) return error(tlm::TLM_ADDRESS_ERROR_RESPONSE, "unaligned byte address");
  if (byte_addr / 4 >> admission::regs::ADDR_WIDTH)
    return error(tlm::TLM_ADDRESS_ERROR_RESPONSE, "byte address beyond the register map");
  const uint32_t addr = uint32_t(byte_addr / 4);
  if (!m_params_error.empty()) return error(tlm::TLM_GENERIC_ERROR_RESPONSE, m_params_error);
  try {
    if (is_write) admission::write(m_core, addr, data, m_params);
    else data = admission::read(m_core, addr, m_params, m_stats ? m_stats() : admission::CsrStats{});
  } catch (const admission::CsrAddressError& e) {
    return error(tlm::TLM_ADDRESS_ERROR_RESPONSE, e.what());
  } catch (const admission::CsrAccessError& e) {
    return error(tlm::TLM_COMMAND_ERROR_RESPONSE, e.what());
  } catch (const std::exception& e) {
    return error(tlm::TLM_GENERIC_ERROR_RESPONSE, e.what());
  }
  // Outside the try: a co-simulated unit that disagrees stops the run; it is no access error.
  if (is_write && m_mirror) m_mirror(addr, data);
  return tlm::TLM_OK_RESPONSE;
}

void CsrTarget::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& /*delay*/) {
  tx.set_dmi_allowed(false);
  const tlm::tlm_command cmd = tx.get_command();
  if (cmd == tlm::TLM_IGNORE_COMMAND) {
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (tx.get_data_length() != 4 || tx.get_streaming_width() != 4 || tx.get_data_ptr() == nullptr) {
    ++m_accesses;
    ++m_errors;
    m_last_error = "only single 4-byte accesses";
    tx.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (const unsigned char* be = tx.get_byte_enable_ptr()) {
    const unsigned len = tx.get_byte_enable_length();
    bool all = len > 0;
    for (unsigned i = 0; i < 4 && all; ++i) all = be[i % len] == TLM_BYTE_ENABLED;
    if (!all) {
      ++m_accesses;
      ++m_errors;
      m_last_error = "partial byte enables";
      tx.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
      return;
    }
  }
  uint32_t data = 0;
  const bool is_write = cmd == tlm::TLM_WRITE_COMMAND;
  if (is_write) std::memcpy(&data, tx.get_data_ptr(), 4);
  const tlm::tlm_response_status st = access(is_write, tx.get_address(), data);
  if (st == tlm::TLM_OK_RESPONSE && !is_write) std::memcpy(tx.get_data_ptr(), &data, 4);
  tx.set_response_status(st);
}

// Debug reads of whole words (no statistics, no side effects); debug writes are refused.
unsigned CsrTarget::transport_dbg(tlm::tlm_generic_payload& tx) {
  if (tx.get_command() != tlm::TLM_READ_COMMAND || tx.get_data_ptr() == nullptr || !m_params_error.empty())
    return 0;
  const uint64_t a = tx.get_address();
  const unsigned len = tx.get_data_length();
  if (a % 4 != 0) return 0;
  unsigned done = 0;
  for (; done + 4 <= len; done += 4) {
    const uint64_t w = (a + done) / 4;
    if (w >> admission::regs::ADDR_WIDTH) break;
    uint32_t v = 0;
    try {
      v = admission::read(m_core, uint32_t(w), m_params, m_stats ? m_stats() : admission::CsrStats{});
    } catch (const std::exception&) {
      break;
    }
    std::memcpy(tx.get_data_ptr() + done, &v, 4);
  }
  return done;
}

}  // namespace mmusim
