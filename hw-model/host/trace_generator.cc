#include "host/trace_generator.h"

#include "config/trace_format.h"

namespace mmusim {

namespace {

// Streams the trace: one line is read per flow started.
class TraceGenerator : public Generator {
 public:
  TraceGenerator(const TrafficConfig& tc, uint32_t index)
      : m_g(tc.generators[index]), m_index(index), m_mtu(tc.mtu_bytes),
        m_reader(m_g.trace_file, uint32_t(tc.net.hosts.size())) {}
  bool next(Flow& f) override {
    TraceRecord r;
    if (!m_reader.next(r)) return false;
    f = Flow{};
    f.generator = m_index;
    f.src = r.src;
    f.dst = r.dst;
    f.dscp = r.dscp;
    f.pcp = r.pcp;
    f.bytes = r.bytes;
    f.rate_bps = m_g.rate_bps;
    f.packet_bytes = m_g.packet_bytes ? m_g.packet_bytes : m_mtu;
    f.start_ps = m_g.start_ps + r.start_ps;
    f.tuple.src_port = r.src_port;
    f.tuple.dst_port = r.dst_port;
    f.tuple.proto = r.proto;
    f.has_ports = true;
    return true;
  }

 private:
  const GeneratorCfg m_g;
  uint32_t m_index;
  uint32_t m_mtu;
  TraceReader m_reader;
};

}  // namespace

std::unique_ptr<Generator> make_trace_generator(const TrafficConfig& tc, uint32_t index) {
  return std::make_unique<TraceGenerator>(tc, index);
}

}  // namespace mmusim
