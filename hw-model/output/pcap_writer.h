#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "output/checked_file.h"

namespace mmusim {

// Writes Ethernet frames to a nanosecond-resolution pcap file (libpcap's format, written
// here through a CheckedFile: no libpcap to load at every start), so simulated picosecond
// timestamps survive with as little truncation as the format allows.
class PcapWriter {
 public:
  static constexpr int kSnapLen = 65535;

  // Throws OutputError naming `name` (default: `path`) if the file cannot be created.
  explicit PcapWriter(const std::string& path, std::string name = {});
  ~PcapWriter() { m_file.flush(); }  // an abandoned file: what it holds goes out, unchecked

  PcapWriter(const PcapWriter&) = delete;
  PcapWriter& operator=(const PcapWriter&) = delete;

  // Records a frame seen at simulation time `time_ps` (truncated to whole ns).
  // Throws std::invalid_argument if len > kSnapLen: readers reject such records.
  // A failed write is kept (errno) and later records are dropped.
  void write(uint64_t time_ps, const uint8_t* data, size_t len);
  // Flushes, fsyncs and closes; throws OutputError naming the file if a write failed.
  void close() { m_file.close(); }
  bool failed() const { return m_file.failed(); }
  // Runs once, at the first failed write.
  void on_error(std::function<void()> f) { m_file.on_error(std::move(f)); }

 private:
  CheckedFile m_file;
};

}  // namespace mmusim
