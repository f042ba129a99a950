#include "output/pcap_writer.h"

#include <pcap/pcap.h>

#include <stdexcept>

namespace mmusim {

PcapWriter::PcapWriter(const std::string& path) {
  pcap_ = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, kSnapLen, PCAP_TSTAMP_PRECISION_NANO);
  if (pcap_ == nullptr) throw std::runtime_error("PcapWriter: cannot create pcap handle for '" + path + "'");
  dumper_ = pcap_dump_open(pcap_, path.c_str());
  if (dumper_ == nullptr) {
    const std::string err = pcap_geterr(pcap_);
    pcap_close(pcap_);
    throw std::runtime_error("PcapWriter: cannot open '" + path + "': " + err);
  }
}

PcapWriter::~PcapWriter() {
  pcap_dump_close(dumper_);  // flushes buffered records
  pcap_close(pcap_);
}

void PcapWriter::write(uint64_t time_ps, const uint8_t* data, size_t len) {
  if (len > static_cast<size_t>(kSnapLen)) throw std::invalid_argument("PcapWriter::write: frame exceeds snaplen");
  constexpr uint64_t kPsPerSec = 1'000'000'000'000u;
  pcap_pkthdr hdr{};
  hdr.ts.tv_sec = static_cast<time_t>(time_ps / kPsPerSec);
  // With PCAP_TSTAMP_PRECISION_NANO, libpcap stores nanoseconds in tv_usec.
  hdr.ts.tv_usec = static_cast<suseconds_t>((time_ps % kPsPerSec) / 1000u);
  hdr.caplen = static_cast<bpf_u_int32>(len);
  hdr.len = static_cast<bpf_u_int32>(len);
  pcap_dump(reinterpret_cast<u_char*>(dumper_), &hdr, data);
}

}  // namespace mmusim
