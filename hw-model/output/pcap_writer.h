#pragma once

#include <cstddef>
#include <cstdint>
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

  // Throws std::runtime_error naming `path` if the file cannot be created.
  explicit PcapWriter(const std::string& path);
  ~PcapWriter();

  PcapWriter(const PcapWriter&) = delete;
  PcapWriter& operator=(const PcapWriter&) = delete;

  // Records a frame seen at simulation time `time_ps` (truncated to whole ns).
  // Throws std::invalid_argument if len > kSnapLen: readers reject such records.
  void write(uint64_t time_ps, const uint8_t* data, size_t len);

 private:
  pcap* pcap_ = nullptr;
  pcap_dumper* dumper_ = nullptr;
};

}  // namespace mmusim
