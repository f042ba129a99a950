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
    // The header (end time, date) is written last at the file's start, so a file cut short
    // by a failed write can still carry it, and fstapi's reader does not survive reading a
    // cut block: the blocks' own lengths must end exactly at the end of the file first.
    void* r = whole_blocks() ? fstReaderOpen(m_path.c_str()) : nullptr;
    const bool ok = r && fstReaderGetEndTime(r) == m_last && std::string(fstReaderGetDateString(r)) == kDate;
    if (r) fstReaderClose(r);
    if (!ok) throw std::runtime_error("write failed: the FST does not read back complete (disk full or file size limit?)");
  }

 private:
  // The header's date field (fstapi.c: FST_HDR_OFFS_DATE, FST_HDR_DATE_SIZE).
  static constexpr long kDateOffset = 202;
  static constexpr size_t kDateSize = 119;
  // Hierarchy block types (fstapi.h: FST_BL_HIER, FST_BL_HIER_LZ4, FST_BL_HIER_LZ4DUO).
  static constexpr unsigned char kBlockHier = FST_BL_HIER, kBlockHierLz4 = FST_BL_HIER_LZ4,
                                 kBlockHierLz4Duo = FST_BL_HIER_LZ4DUO;

  // An FST is a chain of blocks, each a type byte and a big-endian 64-bit length that
  // counts itself and the payload (fstapi.c), the hierarchy's written last: the chain must
  // end exactly at the end of the file, on a hierarchy block.
  bool whole_blocks() const {
    FILE* f = std::fopen(m_path.c_str(), "rb");
    if (!f) return false;
    const long size = std::fseek(f, 0, SEEK_END) == 0 ? std::ftell(f) : -1;
    long pos = 0;
    unsigned char type = 0;
    while (size > 0 && pos < size) {
      unsigned char h[9];
      if (std::fseek(f, pos, SEEK_SET) != 0 || std::fread(h, 1, sizeof h, f) != sizeof h) break;
      uint64_t len = 0;
      for (int i = 1; i < 9; ++i) len = len << 8 | h[i];
      if (len < 8 || len > uint64_t(size - pos - 1)) break;
      type = h[0];
      pos += 1 + long(len);
    }
    std::fclose(f);
    return size > 0 && pos == size && (type == kBlockHier || type == kBlockHierLz4 || type == kBlockHierLz4Duo);
  }
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
