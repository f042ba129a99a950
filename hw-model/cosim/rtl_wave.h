#pragma once
// The FST waveform of a Verilated admission unit (cosim/rtl_unit.h), on the simulated time
// axis: the unit runs at the MMU's clock, so its cycle c has its rising edge at c × the
// clock period (ps, the FST's time unit). The unit is clock-gated (a cycle per operation
// and the idle cycles the engine gives it), so a cycle goes at the MMU cycle its operation
// was issued in, or right after the previous cycle if that is later (one request a cycle:
// operations issued in the same MMU cycle follow one another); with no operation the clock
// stands still, which is an idle gap in the waveform. Within cycle c the inputs are dumped
// a quarter period before the rising edge, then the rising and the falling edge.
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <gtkwave/fstapi.h>
#include <verilated_fst_c.h>

namespace mmusim::rtl {

class Wave {
 public:
  static constexpr uint64_t kDefaultPeriodPs = 1000;
  // fstapi stamps the header with the wall-clock date; a run's outputs are a function of
  // its scenario and seed, so close() puts this there instead.
  static constexpr const char* kDate = "none (mmusim: time is the simulated time)";

  Wave(std::string path, uint64_t period_ps) : m_path(std::move(path)), m_period(period_ps) {
    if (m_period < 4) throw std::invalid_argument("waveform: clock period must be at least 4 ps");
  }
  VerilatedFstC& fst() { return m_fst; }
  // After the model has registered its signals (Model::trace).
  void open() { m_fst.open(m_path.c_str()); }

  // The operation driven next was issued at MMU cycle `cycle`.
  void issue(uint64_t cycle) { m_issue = cycle > m_issue ? cycle : m_issue; }
  // The state at time 0, before the first cycle.
  void initial() { dump(0); }
  // Inputs in place for the next rising edge.
  void setup() { dump(next() * m_period - m_period / 4); }
  void rise() {
    m_cycle = next();
    m_issue = 0;
    dump(m_cycle * m_period);
  }
  void fall() { dump(m_cycle * m_period + m_period / 2); }

  // Closes the file, puts kDate in its header and reads it back: std::runtime_error (not
  // naming the file) if it is not a complete FST ending at the last dump.
  void close() {
    m_fst.close();
    FILE* f = std::fopen(m_path.c_str(), "r+b");
    char date[kDateSize] = {};
    std::snprintf(date, sizeof date, "%s", kDate);
    const bool patched = f && std::fseek(f, kDateOffset, SEEK_SET) == 0 && std::fwrite(date, sizeof date, 1, f) == 1;
    if (f && std::fclose(f) != 0) throw std::runtime_error("write failed");
    if (!patched) throw std::runtime_error("cannot rewrite the header's date");
    void* r = fstReaderOpen(m_path.c_str());
    const bool ok = r && fstReaderGetEndTime(r) == m_last && std::string(fstReaderGetDateString(r)) == kDate;
    if (r) fstReaderClose(r);
    if (!ok) throw std::runtime_error("write failed: the FST does not read back complete (disk full or file size limit?)");
  }

 private:
  // The header's date field (fstapi.c: FST_HDR_OFFS_DATE, FST_HDR_DATE_SIZE).
  static constexpr long kDateOffset = 202;
  static constexpr size_t kDateSize = 119;

  uint64_t next() const { return m_cycle + 1 > m_issue ? m_cycle + 1 : m_issue; }
  // Times only increase: an evaluation that falls on a time already dumped goes 1 ps later.
  void dump(uint64_t t) {
    if (m_dumped && t <= m_last) t = m_last + 1;
    m_fst.dump(t);
    m_last = t;
    m_dumped = true;
  }

  std::string m_path;
  uint64_t m_period;
  VerilatedFstC m_fst;
  uint64_t m_cycle = 0, m_issue = 0, m_last = 0;  // cycle 0 is the initial state: cycles start at 1
  bool m_dumped = false;
};

}  // namespace mmusim::rtl
