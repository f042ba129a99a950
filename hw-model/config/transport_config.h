#pragma once
// Host transports' parameters (host.transport, docs/configuration.md "host.transport"):
// which transport a flow uses (per generator, else per traffic class, else the default)
// and each transport's parameters. Defaults and their sources are in the doc's tables.
#include <array>
#include <cstdint>
#include <string>

namespace mmusim {

enum class TransportKind : uint8_t { kNone, kDcqcn, kDctcp, kCubic, kPowertcp };

// "none", "dcqcn", "dctcp", "cubic", "powertcp"; false for another name.
bool parse_transport_kind(const std::string& name, TransportKind& kind);
const char* transport_name(TransportKind kind);

// RoCEv2 DCQCN (Zhu et al., SIGCOMM'15), defaults as Reverie configures it ("according to
// [31]"): its artifact's config-workload.txt, HPCC's mix/config.txt (DOMAIN.md §11); the
// CNP interval is the paper's and the NICs' (Reverie's code flags every marked packet: 0).
struct DcqcnCfg {
  double g = 1.0 / 256;                      // alpha gain
  uint64_t alpha_timer_ps = 1'000'000;       // K: alpha decays once per K without a CNP
  uint64_t increase_timer_ps = 900'000'000;  // T: rate-increase timer
  uint64_t byte_counter_bytes = 0;           // B: a rate-increase event per B bytes sent; 0 = off
  uint32_t fast_recovery_steps = 1;          // F
  uint64_t rate_ai_bps = 50'000'000;         // R_AI
  uint64_t rate_hai_bps = 100'000'000;       // R_HAI
  uint64_t min_rate_bps = 100'000'000;
  uint64_t rate_decrease_interval_ps = 4'000'000;  // RP: at most one cut per interval
  uint64_t cnp_interval_ps = 50'000'000;           // NP: at most one CNP per flow per interval
};

// What DCTCP and Cubic share (RFC 5681, RFC 6298).
struct TcpCfg {
  uint64_t min_rto_ps = 1'000'000'000;      // Reverie: TCP minRTO 1 ms
  uint64_t initial_rto_ps = 1'000'000'000;  // before the first RTT sample
  uint64_t max_rto_ps = 60'000'000'000'000;  // RFC 6298 (2.5): at least 60 s
  uint32_t initial_window_packets = 10;     // RFC 6928
  uint32_t dupack_threshold = 3;            // RFC 5681 fast retransmit
};

struct DctcpCfg {
  double g = 1.0 / 16;        // RFC 8257
  double initial_alpha = 1;   // RFC 8257 (3.3)
};

struct CubicCfg {
  double c = 0.4;             // RFC 9438 (4.1)
  double beta = 0.7;          // multiplicative decrease (RFC 9438 4.6)
  bool fast_convergence = true;
  bool reno_friendly = true;  // the TCP-friendly region (RFC 9438 4.3)
  bool ecn = false;           // react to ECE like a loss (RFC 3168); data ECT
};

// PowerTCP (Addanki et al., NSDI'22, Algorithm 1).
struct PowertcpCfg {
  double gamma = 0.9;             // EWMA weight of the window update (paper §4)
  uint32_t expected_flows = 10;   // beta = host BDP / expected_flows (powertcp-linux)
  uint64_t base_rtt_ps = 0;       // tau; 0 = the flow's unloaded RTT on its routed path
};

struct TransportCfg {
  TransportKind default_kind = TransportKind::kNone;
  std::array<int8_t, 8> by_class;  // per traffic class: a TransportKind, or -1 = the default
  DcqcnCfg dcqcn;
  TcpCfg tcp;
  DctcpCfg dctcp;
  CubicCfg cubic;
  PowertcpCfg powertcp;
  TransportCfg() { by_class.fill(-1); }
  bool any() const;  // some flow can have a transport
  TransportKind for_class(uint8_t prio) const {
    return by_class[prio & 7] < 0 ? default_kind : TransportKind(by_class[prio & 7]);
  }
};

}  // namespace mmusim
