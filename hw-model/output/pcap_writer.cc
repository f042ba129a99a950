#include "output/pcap_writer.h"

#include <stdexcept>

namespace mmusim {
namespace {

// The file's header and a record's, in host byte order as libpcap writes them; the magic
// number says nanosecond timestamps.
struct FileHeader {
  uint32_t magic = 0xa1b23c4d;
  uint16_t version_major = 2, version_minor = 4;
  int32_t thiszone = 0;
  uint32_t sigfigs = 0;
  uint32_t snaplen = PcapWriter::kSnapLen;
  uint32_t linktype = 1;  // LINKTYPE_ETHERNET (DLT_EN10MB)
};
struct RecordHeader {
  uint32_t sec, nsec, caplen, len;
};
static_assert(sizeof(FileHeader) == 24 && sizeof(RecordHeader) == 16);

}  // namespace

PcapWriter::PcapWriter(const std::string& path, std::string name) : m_file(path, name.empty() ? path : name) {
  const FileHeader h;
  m_file.write(reinterpret_cast<const char*>(&h), sizeof h);
}

void PcapWriter::write(uint64_t time_ps, const uint8_t* data, size_t len) {
  if (len > static_cast<size_t>(kSnapLen)) throw std::invalid_argument("PcapWriter::write: frame exceeds snaplen");
  if (failed()) return;
  constexpr uint64_t kPsPerSec = 1'000'000'000'000u;
  const RecordHeader h{uint32_t(time_ps / kPsPerSec), uint32_t(time_ps % kPsPerSec / 1000u), uint32_t(len),
                       uint32_t(len)};
  m_file.write(reinterpret_cast<const char*>(&h), sizeof h);
  m_file.write(reinterpret_cast<const char*>(data), std::streamsize(len));
}

}  // namespace mmusim
