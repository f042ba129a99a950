#include "host/transport/transport.h"

#include "host/transport/cubic.h"
#include "host/transport/dcqcn.h"
#include "host/transport/dctcp.h"
#include "host/transport/powertcp.h"

namespace mmusim {

std::unique_ptr<Transport> make_transport(TransportKind kind, const TransportCfg& cfg, uint64_t line_rate_bps,
                                          uint32_t mss_bytes, uint64_t base_rtt_ps) {
  switch (kind) {
    case TransportKind::kDcqcn: return std::make_unique<Dcqcn>(cfg.dcqcn, line_rate_bps);
    case TransportKind::kDctcp: return std::make_unique<Dctcp>(cfg.tcp, cfg.dctcp, mss_bytes);
    case TransportKind::kCubic: return std::make_unique<Cubic>(cfg.tcp, cfg.cubic, mss_bytes);
    case TransportKind::kPowertcp: return std::make_unique<PowerTcp>(cfg.powertcp, line_rate_bps, mss_bytes, base_rtt_ps);
    case TransportKind::kNone: break;
  }
  return nullptr;
}

}  // namespace mmusim
