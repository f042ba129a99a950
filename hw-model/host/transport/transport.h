#pragma once
// One sender flow's congestion control (host.transport): what the NIC asks before sending
// (a window of bytes in flight, a pacing rate, or both) and the events that move them
// (sends, ACKs with cumulative ack / ECE / echoed INT, CNPs, timeouts, the transport's own
// timers). A transport is a per-flow object made at flow start (make_transport); the NIC
// calls it through these virtuals, nothing on the per-packet path allocates.
// Units: bytes, bit/s, integer picoseconds. Pure C++ (no SystemC): unit-testable alone.
#include <cstdint>
#include <limits>
#include <memory>

#include "common/packet.h"
#include "config/transport_config.h"

namespace mmusim {

// One ACK as the sender sees it.
struct AckEvent {
  uint64_t cum_ack = 0;       // the receiver holds every byte below
  uint64_t newly_acked = 0;   // cum_ack's advance over the sender's previous acked bytes
  bool dup = false;           // no advance, for a packet sent after the last rewind, data in flight
  bool ece = false;           // the acknowledged packet arrived CE-marked
  uint64_t rtt_ps = 0;        // now - the acknowledged packet's send time
  uint64_t snd_nxt = 0;       // highest byte sent so far + 1 (the sender's SND.NXT)
  const IntHop* int_hops = nullptr;  // echoed INT stack (PowerTCP), int_n records
  uint8_t int_n = 0;
};

class Transport {
 public:
  static constexpr uint64_t kNoWindow = std::numeric_limits<uint64_t>::max();
  static constexpr uint64_t kUnpaced = std::numeric_limits<uint64_t>::max();

  virtual ~Transport() = default;
  // Bytes that may be in flight (unacknowledged); kNoWindow for a rate-only transport.
  uint64_t window_bytes() const { return m_window; }
  // Pacing rate (bit/s); kUnpaced for a window-only transport.
  uint64_t rate_bps() const { return m_rate; }
  // Data packets carry ECT(0) (RFC 3168) and the receiver echoes CE.
  bool ect() const { return m_ect; }
  // The transport decides when a gap reported by ACKs is a loss (TCP: dup-ACK threshold);
  // else the NIC goes back to the first missing byte at the first gap (go-back-N, RoCE).
  bool own_loss_detection() const { return m_own_loss; }

  virtual void on_send(uint64_t /*bytes*/, uint64_t /*now_ps*/) {}
  // True: retransmit from cum_ack now (fast retransmit).
  virtual bool on_ack(const AckEvent& a, uint64_t now_ps) = 0;
  virtual void on_cnp(uint64_t /*now_ps*/) {}
  // The retransmission timer expired with `flight` bytes unacknowledged.
  virtual void on_timeout(uint64_t /*flight*/, uint64_t /*now_ps*/) {}
  // Retransmission timeout; `dflt` is host.acks.rto_us.
  virtual uint64_t rto_ps(uint64_t dflt) const { return dflt; }
  // Run the transport's own timers due at or before now, each at its own time: the NIC
  // calls it before it reads rate_bps(), so timers cost no events and the state is the one
  // punctual timers would give (a packet already waiting keeps the gap it was given).
  virtual void advance(uint64_t /*now_ps*/) {}

 protected:
  Transport(uint64_t window, uint64_t rate, bool ect, bool own_loss)
      : m_window(window), m_rate(rate), m_ect(ect), m_own_loss(own_loss) {}
  uint64_t m_window;
  uint64_t m_rate;
  bool m_ect;
  bool m_own_loss;
};

// The flow's sender state for `kind` (not kNone): line_rate_bps of the NIC, mss_bytes of the
// flow's packets, base_rtt_ps its unloaded round trip (PowerTCP's tau when not configured).
std::unique_ptr<Transport> make_transport(TransportKind kind, const TransportCfg& cfg, uint64_t line_rate_bps,
                                          uint32_t mss_bytes, uint64_t base_rtt_ps);

}  // namespace mmusim
