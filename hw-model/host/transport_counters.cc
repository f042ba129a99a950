#include "host/transport_counters.h"

#include "host/host.h"

namespace mmusim {

namespace {

uint64_t sat_add(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max() : a + b;
}

}  // namespace

nlohmann::json transport_summary(const std::vector<std::unique_ptr<Host>>& hosts) {
  TransportCounterSet sum{};
  for (const auto& h : hosts)
    for (size_t k = 0; k < sum.size(); ++k) {
      const TransportCounters& c = h->transport_counters()[k];
      TransportCounters& s = sum[k];
      s.flows = sat_add(s.flows, c.flows);
      s.cnps_sent = sat_add(s.cnps_sent, c.cnps_sent);
      s.cnps_received = sat_add(s.cnps_received, c.cnps_received);
      s.ece_acks = sat_add(s.ece_acks, c.ece_acks);
      s.fast_retransmits = sat_add(s.fast_retransmits, c.fast_retransmits);
      s.timeouts = sat_add(s.timeouts, c.timeouts);
      s.out_of_order_kept = sat_add(s.out_of_order_kept, c.out_of_order_kept);
      s.window_blocked = sat_add(s.window_blocked, c.window_blocked);
    }
  nlohmann::json j = nlohmann::json::object();
  for (size_t k = 1; k < sum.size(); ++k) {
    const TransportCounters& s = sum[k];
    // A receiver counts for the transport of the flows it receives: it may have started none.
    if (!s.flows && !s.cnps_sent && !s.out_of_order_kept) continue;
    j[transport_name(TransportKind(k))] = {{"flows", s.flows},
                                           {"cnps_sent", s.cnps_sent},
                                           {"cnps_received", s.cnps_received},
                                           {"ece_acks_received", s.ece_acks},
                                           {"fast_retransmits", s.fast_retransmits},
                                           {"timeouts", s.timeouts},
                                           {"out_of_order_kept", s.out_of_order_kept},
                                           {"window_blocked", s.window_blocked}};
  }
  return j;
}

}  // namespace mmusim
