#pragma once
// A TLM-2.0 initiator for CSR tests: single-word reads and writes (and malformed ones) on
// its socket from an SC_THREAD that runs `body` at `start_ps`.
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/sim_time.h"

namespace mmusim::test {

class CsrMaster : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<CsrMaster> socket;
  std::function<void()> body;
  uint64_t start_ps = 0;

  explicit CsrMaster(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    SC_HAS_PROCESS(CsrMaster);
    SC_THREAD(run);
  }

  // One transaction at a byte address; returns the response status.
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t byte_addr, uint32_t& data, unsigned len = 4,
                                  unsigned char* be = nullptr, unsigned be_len = 0) {
    unsigned char buf[8] = {};
    std::memcpy(buf, &data, 4);
    tlm::tlm_generic_payload tx;
    tx.set_command(cmd);
    tx.set_address(byte_addr);
    tx.set_data_ptr(buf);
    tx.set_data_length(len);
    tx.set_streaming_width(len);
    tx.set_byte_enable_ptr(be);
    tx.set_byte_enable_length(be_len);
    tx.set_dmi_allowed(true);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(tx, delay);
    if (tx.is_dmi_allowed()) ++dmi_hints;
    std::memcpy(&data, buf, 4);
    return tx.get_response_status();
  }
  // Word-address helpers.
  tlm::tlm_response_status read(uint32_t word, uint32_t& data) {
    return access(tlm::TLM_READ_COMMAND, word * 4ull, data);
  }
  tlm::tlm_response_status write(uint32_t word, uint32_t data) {
    return access(tlm::TLM_WRITE_COMMAND, word * 4ull, data);
  }
  uint32_t read_ok(uint32_t word) {
    uint32_t d = 0xdeadbeef;
    const auto st = read(word, d);
    if (st != tlm::TLM_OK_RESPONSE) throw std::runtime_error("read of word " + std::to_string(word) + " failed");
    return d;
  }
  int dmi_hints = 0;

 private:
  void run() {
    if (start_ps > 0) wait(ps(start_ps));
    if (body) body();
  }
};

}  // namespace mmusim::test
