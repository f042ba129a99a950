#include "output/pcap_writer.h"

#include <pcap/pcap.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <stdexcept>

#include "output/checked_file.h"

namespace mmusim {

PcapWriter::PcapWriter(const std::string& path, std::string name) : name_(name.empty() ? path : std::move(name)) {
  pcap_ = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, kSnapLen, PCAP_TSTAMP_PRECISION_NANO);
  if (pcap_ == nullptr) throw OutputError(name_ + ": cannot create a pcap handle");
  dumper_ = pcap_dump_open(pcap_, path.c_str());
  if (dumper_ == nullptr) {
    const std::string err = pcap_geterr(pcap_);
    pcap_close(pcap_);
    throw OutputError(name_ + ": cannot create: " + err);
  }
}

PcapWriter::~PcapWriter() {
  if (dumper_) pcap_dump_close(dumper_);
  pcap_close(pcap_);
}

void PcapWriter::fail(int err) {
  if (err_) return;
  err_ = err ? err : EIO;
  if (on_error_) on_error_();
}

void PcapWriter::write(uint64_t time_ps, const uint8_t* data, size_t len) {
  if (len > static_cast<size_t>(kSnapLen)) throw std::invalid_argument("PcapWriter::write: frame exceeds snaplen");
  if (err_) return;
  constexpr uint64_t kPsPerSec = 1'000'000'000'000u;
  pcap_pkthdr hdr{};
  hdr.ts.tv_sec = static_cast<time_t>(time_ps / kPsPerSec);
  // With PCAP_TSTAMP_PRECISION_NANO, libpcap stores nanoseconds in tv_usec.
  hdr.ts.tv_usec = static_cast<suseconds_t>((time_ps % kPsPerSec) / 1000u);
  hdr.caplen = static_cast<bpf_u_int32>(len);
  hdr.len = static_cast<bpf_u_int32>(len);
  // pcap_dump returns nothing; its stdio stream keeps the error.
  errno = 0;
  pcap_dump(reinterpret_cast<u_char*>(dumper_), &hdr, data);
  if (std::ferror(pcap_dump_file(dumper_))) fail(errno);
}

void PcapWriter::close() {
  if (!dumper_) return;
  FILE* f = pcap_dump_file(dumper_);
  errno = 0;
  if (!err_ && (pcap_dump_flush(dumper_) != 0 || std::ferror(f))) fail(errno);
  if (!err_ && ::fsync(fileno(f)) != 0 && errno != EINVAL) fail(errno);
  // pcap_dump_close reports nothing, but nothing is left to write: the flush was checked.
  pcap_dump_close(dumper_);
  dumper_ = nullptr;
  if (err_) throw_output_error(name_, "write failed", err_);
}

}  // namespace mmusim
