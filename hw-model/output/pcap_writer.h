#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

// libpcap handle types, forward-declared so users need not include <pcap.h>.
struct pcap;
struct pcap_dumper;

namespace mmusim {

// Writes Ethernet frames to a nanosecond-resolution pcap file, so simulated
// picosecond timestamps survive with as little truncation as the format allows.
class PcapWriter {
 public:
  static constexpr int kSnapLen = 65535;

  // Throws OutputError naming `name` (default: `path`) if the file cannot be created.
  explicit PcapWriter(const std::string& path, std::string name = {});
  ~PcapWriter();  // an abandoned file: closed without checks

  PcapWriter(const PcapWriter&) = delete;
  PcapWriter& operator=(const PcapWriter&) = delete;

  // Records a frame seen at simulation time `time_ps` (truncated to whole ns).
  // Throws std::invalid_argument if len > kSnapLen: readers reject such records.
  // A failed write is kept (errno) and later records are dropped.
  void write(uint64_t time_ps, const uint8_t* data, size_t len);
  // Flushes, fsyncs and closes; throws OutputError naming the file if a write failed.
  void close();
  bool failed() const { return err_ != 0; }
  // Runs once, at the first failed write.
  void on_error(std::function<void()> f) { on_error_ = std::move(f); }

 private:
  void fail(int err);

  std::string name_;
  pcap* pcap_ = nullptr;
  pcap_dumper* dumper_ = nullptr;
  int err_ = 0;
  std::function<void()> on_error_;
};

}  // namespace mmusim
