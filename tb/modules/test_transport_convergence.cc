// Two-flow convergence of each host transport, before the switch's own WRED/ECN marking
// and INT exist: two real Host NICs (25 Gb/s) send long flows to a third through a
// test-only bottleneck stub (10 Gb/s egress FIFO, 1 us per direction). The stub is not a
// model of the switch: it marks CE on ECT packets when the queue it leaves behind exceeds
// K (step marking), appends one INT record per data packet, and drops data past a buffer
// of B bytes (drop-tail), just enough to close each transport's loop. Checked: over the
// second half of the run each flow's throughput is within 10 % of the fair share (half the
// bottleneck) and together they use at least 90 % of it;
// for DCTCP and DCQCN the dequeue-sampled mean queue stays near K. One forked simulation
// per transport (sc_fork.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "common/packet.h"
#include "common/protocol.h"
#include "common/sim_time.h"
#include "common/timed_queue.h"
#include "config/scenario.h"
#include "host/flow.h"
#include "host/host.h"
#include "sc_fork.h"

namespace mmusim {
namespace {

using nlohmann::json;
using test::run_in_child;

constexpr uint64_t kUs = 1'000'000;  // ps
constexpr uint64_t kAccess = 25'000'000'000, kBottleneck = 10'000'000'000;
constexpr uint64_t kDelay = 1 * kUs;
constexpr uint32_t kOverhead = 20;

// Hosts' tx -> in (answered like a 25 Gb/s link); data for h0 through the 10 Gb/s FIFO,
// everything else (ACKs, CNPs) straight to its host after the link delay.
class Bottleneck : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Bottleneck, 32, PacketProtocol, 0> in;
  tlm_utils::multi_passthrough_initiator_socket<Bottleneck, 32, PacketProtocol, 0> out;  // out[i] -> host i

  uint64_t mark_bytes = ~0ull, buffer_bytes = ~0ull;
  bool int_enabled = false;
  uint64_t dropped = 0, marked = 0;
  double queue_sum = 0;  // queue bytes after each dequeue
  uint64_t dequeues = 0;
  uint64_t measure_from_ps = 0;

  explicit Bottleneck(sc_core::sc_module_name n) : sc_module(n), in("in"), out("out") {
    in.register_nb_transport_fw(this, &Bottleneck::fw);
    out.register_nb_transport_bw(this, &Bottleneck::bw);
    SC_HAS_PROCESS(Bottleneck);
    SC_METHOD(serve);
    sensitive << m_ev;
    dont_initialize();
  }

 private:
  static uint32_t host_of(uint32_t ip) { return (ip & 0xFFFFFF) - 1; }

  tlm::tlm_sync_enum fw(int, Packet& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    const uint64_t ser = serialization_ps(uint64_t(p.bytes) + kOverhead, kAccess);
    const uint64_t arrive = now_ps() + t.value() + ser + kDelay;
    m_in.push(arrive, &p);
    m_ev.notify(ps(arrive - now_ps()));
    ph = tlm::END_REQ;
    t += ps(ser);
    return tlm::TLM_UPDATED;
  }
  tlm::tlm_sync_enum bw(int, Packet&, tlm::tlm_phase&, sc_core::sc_time&) { return tlm::TLM_COMPLETED; }

  void forward(Packet* p, uint64_t in_ps) {
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = ps(in_ps);
    out[int(host_of(p->tuple.dst_ip))]->nb_transport_fw(*p, ph, t);
  }

  void serve() {
    const uint64_t now = now_ps();
    while (!m_in.empty() && m_in.next_time() <= now) {
      Packet* p = m_in.top();
      m_in.pop();
      if (p->ack || p->cnp || host_of(p->tuple.dst_ip) != 0) {
        forward(p, kDelay);
      } else if (m_queue_bytes + p->bytes > buffer_bytes) {
        ++dropped;  // the frame stays the pool's, unused for the rest of the run
      } else {
        m_q.push_back(p);
        m_queue_bytes += p->bytes;
      }
    }
    if (m_busy_until <= now && !m_q.empty()) {
      Packet* p = m_q.front();
      m_q.pop_front();
      m_queue_bytes -= p->bytes;
      if (p->ecn != 0 && m_queue_bytes > mark_bytes) {
        p->ecn = 3;
        ++marked;
      }
      m_tx_bytes += p->bytes;
      if (int_enabled && p->int_hops < Packet::kMaxIntHops)
        p->int_stack[p->int_hops++] = IntHop{now, m_tx_bytes, kBottleneck, uint32_t(m_queue_bytes)};
      if (now >= measure_from_ps) {
        queue_sum += double(m_queue_bytes);
        ++dequeues;
      }
      const uint64_t ser = serialization_ps(uint64_t(p->bytes) + kOverhead, kBottleneck);
      forward(p, ser + kDelay);
      m_busy_until = now + ser;
    }
    if (!m_q.empty()) m_ev.notify(ps(m_busy_until - now));
    if (!m_in.empty()) m_ev.notify(ps(m_in.next_time() - now));
  }

  sc_core::sc_event m_ev;
  TimedQueue<Packet*> m_in;
  std::deque<Packet*> m_q;
  uint64_t m_queue_bytes = 0, m_tx_bytes = 0, m_busy_until = 0;
};

// Samples the flows' received bytes at two times.
class Probe : public sc_core::sc_module {
 public:
  Probe(sc_core::sc_module_name n, const FlowTable& flows, uint64_t t1, uint64_t t2)
      : sc_module(n), m_flows(flows), m_t1(t1), m_t2(t2) {
    SC_HAS_PROCESS(Probe);
    SC_THREAD(run);
  }
  std::vector<uint64_t> at1, at2;

 private:
  void run() {
    wait(ps(m_t1));
    for (const auto& f : m_flows) at1.push_back(f.received_bytes);
    wait(ps(m_t2 - m_t1));
    for (const auto& f : m_flows) at2.push_back(f.received_bytes);
  }
  const FlowTable& m_flows;
  uint64_t m_t1, m_t2;
};

// Starts each flow at its start time at its source.
class Starter : public sc_core::sc_module {
 public:
  Starter(sc_core::sc_module_name n, std::vector<std::unique_ptr<Host>>& hosts, FlowTable& flows)
      : sc_module(n), m_hosts(hosts), m_flows(flows) {
    SC_HAS_PROCESS(Starter);
    SC_THREAD(run);
  }

 private:
  void run() {
    for (auto& f : m_flows) {
      if (f.start_ps > now_ps()) wait(ps(f.start_ps - now_ps()));
      m_hosts[f.src]->start_flow(f.id);
    }
  }
  std::vector<std::unique_ptr<Host>>& m_hosts;
  FlowTable& m_flows;
};

struct Bench {
  TransportKind kind;
  HostCfg cfg;
  uint64_t mark_bytes = ~0ull, buffer_bytes = ~0ull;
  bool int_enabled = false;
  uint64_t duration_ps = 0;
  uint64_t second_start_ps = 0;
};

// Unloaded RTT through the stub: data 1520 B at 25 Gb/s and at 10 Gb/s, the ACK's 84 B at
// 25 Gb/s, four link delays.
uint64_t stub_rtt_ps(uint32_t packet_bytes) {
  return serialization_ps(packet_bytes + kOverhead, kAccess) + serialization_ps(packet_bytes + kOverhead, kBottleneck) +
         serialization_ps(64 + kOverhead, kAccess) + 4 * kDelay;
}

json converge(const Bench& s) {
  PacketPool pool;
  FlowTable flows;
  std::vector<std::unique_ptr<Host>> hosts;
  Bottleneck stub("stub");
  stub.mark_bytes = s.mark_bytes;
  stub.buffer_bytes = s.buffer_bytes;
  stub.int_enabled = s.int_enabled;
  stub.measure_from_ps = s.duration_ps / 2;
  for (uint32_t i = 0; i < 3; ++i) {
    hosts.push_back(std::make_unique<Host>(("h" + std::to_string(i)).c_str(), i, kAccess, flows, pool));
    hosts[i]->enable_acks(s.cfg, 6);
    hosts[i]->tx.bind(stub.in);
    stub.out.bind(hosts[i]->rx);
  }
  for (uint32_t src = 1; src <= 2; ++src) {
    Flow f;
    f.id = uint32_t(flows.size());
    f.src = src;
    f.dst = 0;
    f.tuple = FiveTuple{host_ip(src), host_ip(0), uint16_t(49152 + src), 4791, 17};
    f.bytes = 1'000'000'000;
    f.packet_bytes = 1500;
    f.start_ps = src == 1 ? 0 : s.second_start_ps;
    f.transport = s.kind;
    f.base_rtt_ps = stub_rtt_ps(1500);
    flows.push_back(f);
  }
  Probe probe("probe", flows, s.duration_ps / 2, s.duration_ps - 1);
  Starter starter("starter", hosts, flows);
  sc_core::sc_start(ps(s.duration_ps));
  const double d1 = double(probe.at2[0] - probe.at1[0]), d2 = double(probe.at2[1] - probe.at1[1]);
  const double cap = double(kBottleneck) / 8 * double(s.duration_ps / 2) * 1e-12;  // bytes of the window
  return {{"share1", d1 / (d1 + d2)},
          {"util", (d1 + d2) / cap},
          {"mean_queue", stub.dequeues ? stub.queue_sum / double(stub.dequeues) : 0.0},
          {"marked", stub.marked},
          {"dropped", stub.dropped},
          {"cnps", hosts[0]->ack_counters().cnps_sent},
          {"ece", hosts[1]->ack_counters().ece_received + hosts[2]->ack_counters().ece_received}};
}

json run(const Bench& s) {
  const test::ChildResult r = run_in_child([&s] { return converge(s).dump(); }, 120);
  EXPECT_TRUE(r.ok) << r.text;
  return r.ok ? json::parse(r.text) : json::object();
}

void expect_fair(const json& j, const char* what) {
  ASSERT_TRUE(j.contains("share1")) << what;
  std::printf("%s: %s\n", what, j.dump().c_str());
  // Each within 10 % of the fair share: share in [0.45, 0.55].
  EXPECT_NEAR(j["share1"].get<double>(), 0.5, 0.05) << what << " " << j.dump();
  EXPECT_GE(j["util"].get<double>(), 0.9) << what << " " << j.dump();
}

// A TCP receiver keeps out-of-order data: segments 0, 2, 3, 1 (1500 B each) of a DCTCP flow
// arrive at h0; the ACKs carry cum_ack 1500, 1500, 1500 (duplicates), then 6000 when the
// hole fills. A DCQCN flow's receiver (go-back-N) discards the same out-of-order segments.
class Injector : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_initiator_socket<Injector, 32, PacketProtocol, 0> out;
  std::vector<std::pair<uint64_t, Packet*>> script;  // (time, frame)
  explicit Injector(sc_core::sc_module_name n) : sc_module(n), out("out") {
    out.register_nb_transport_bw(this, &Injector::bw);
    SC_HAS_PROCESS(Injector);
    SC_THREAD(run);
  }

 private:
  tlm::tlm_sync_enum bw(int, Packet&, tlm::tlm_phase&, sc_core::sc_time&) { return tlm::TLM_COMPLETED; }
  void run() {
    for (auto& [t, p] : script) {
      if (t > now_ps()) wait(ps(t - now_ps()));
      tlm::tlm_phase ph = tlm::BEGIN_REQ;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      out[0]->nb_transport_fw(*p, ph, d);
    }
  }
};

class AckCapture : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<AckCapture, 32, PacketProtocol, 0> in;
  std::vector<uint64_t> cum_acks;
  explicit AckCapture(sc_core::sc_module_name n) : sc_module(n), in("in") {
    in.register_nb_transport_fw(this, &AckCapture::fw);
  }

 private:
  tlm::tlm_sync_enum fw(int, Packet& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    if (p.ack) cum_acks.push_back(p.cum_ack);
    ph = tlm::END_REQ;
    t += ps(serialization_ps(uint64_t(p.bytes) + kOverhead, kAccess));
    return tlm::TLM_UPDATED;
  }
};

json receive_out_of_order(TransportKind kind) {
  PacketPool pool;
  FlowTable flows(1);
  Flow& f = flows[0];
  f.src = 1;
  f.dst = 0;
  f.bytes = 6000;
  f.packet_bytes = 1500;
  f.transport = kind;
  HostCfg cfg;
  cfg.acks = true;
  Host h0("h0", 0, kAccess, flows, pool);
  h0.enable_acks(cfg, 6);
  Injector inj("inj");
  AckCapture cap("cap");
  inj.out.bind(h0.rx);
  h0.tx.bind(cap.in);
  uint64_t t = 1 * kUs;
  for (const uint64_t seq : {0, 3000, 4500, 1500}) {
    Packet* p = pool.get();
    p->bytes = 1500;
    p->seq = seq;
    p->tuple = FiveTuple{host_ip(1), host_ip(0), 49153, 4791, 17};
    inj.script.push_back({t, p});
    t += 1 * kUs;
  }
  sc_core::sc_start(ps(10 * kUs));
  return {{"cum_acks", cap.cum_acks}, {"received", flows[0].received_bytes},
          {"kept", h0.ack_counters().out_of_order_kept}, {"discarded", h0.ack_counters().out_of_order}};
}

TEST(TcpReceiver, KeepsOutOfOrderDataRoceDoesNot) {
  const auto tcp = run_in_child([] { return receive_out_of_order(TransportKind::kDctcp).dump(); });
  ASSERT_TRUE(tcp.ok) << tcp.text;
  const json a = json::parse(tcp.text);
  EXPECT_EQ(a["cum_acks"], json({1500, 1500, 1500, 6000})) << a.dump();
  EXPECT_EQ(a["received"], 6000);
  EXPECT_EQ(a["kept"], 2);
  const auto roce = run_in_child([] { return receive_out_of_order(TransportKind::kDcqcn).dump(); });
  ASSERT_TRUE(roce.ok) << roce.text;
  const json b = json::parse(roce.text);
  EXPECT_EQ(b["cum_acks"], json({1500, 1500, 1500, 3000})) << b.dump();
  EXPECT_EQ(b["discarded"], 2);
}

TEST(TransportConvergence, Dctcp) {
  Bench s;
  s.kind = TransportKind::kDctcp;
  s.cfg.acks = true;
  s.mark_bytes = 30'000;  // K: DCTCP's guideline K > C RTT / 7 (10 Gb/s x 6 us / 7 = 1 KB)
  s.duration_ps = 200'000 * kUs;
  s.second_start_ps = 1'000 * kUs;
  const json j = run(s);
  expect_fair(j, "dctcp");
  EXPECT_GT(j.value("ece", 0), 0) << j.dump();
  EXPECT_GT(j.value("mean_queue", 0.0), 0.5 * 30'000) << j.dump();
  EXPECT_LT(j.value("mean_queue", 0.0), 2.0 * 30'000) << j.dump();
  EXPECT_EQ(j.value("dropped", 1), 0) << j.dump();
}

TEST(TransportConvergence, Dcqcn) {
  // Reverie's DCQCN setting (the defaults: timer only, T = 900 us, R_AI 50 Mb/s) with step
  // marking at 40 KB. (The paper's 10 MB byte counter with step marking settles at a
  // 45/55 split instead: the faster flow reaches its byte count first.)
  Bench s;
  s.kind = TransportKind::kDcqcn;
  s.cfg.acks = true;
  s.mark_bytes = 40'000;
  s.duration_ps = 200'000 * kUs;
  s.second_start_ps = 1'000 * kUs;
  const json j = run(s);
  expect_fair(j, "dcqcn");
  // NP: at most one CNP per flow per 50 us, and only for marked packets.
  EXPECT_GT(j.value("cnps", 0), 0) << j.dump();
  EXPECT_LE(j.value("cnps", 0), 2 * 200'000 / 50) << j.dump();
  EXPECT_LE(j.value("cnps", 0), j.value("marked", 0)) << j.dump();
  EXPECT_GT(j.value("mean_queue", 0.0), 0.15 * 40'000) << j.dump();  // measured 0.26 K: cuts overshoot, the queue often drains
  EXPECT_LT(j.value("mean_queue", 0.0), 3.0 * 40'000) << j.dump();
}

TEST(TransportConvergence, PowerTcp) {
  Bench s;
  s.kind = TransportKind::kPowertcp;
  s.cfg.acks = true;
  s.int_enabled = true;
  s.duration_ps = 10'000 * kUs;
  s.second_start_ps = 1'000 * kUs;
  const json j = run(s);
  expect_fair(j, "powertcp");
}

TEST(TransportConvergence, Cubic) {
  // Loss-based: drop-tail at 100 KB, min RTO 1 ms.
  Bench s;
  s.kind = TransportKind::kCubic;
  s.cfg.acks = true;
  s.buffer_bytes = 100'000;
  s.duration_ps = 200'000 * kUs;
  s.second_start_ps = 1'000 * kUs;
  const json j = run(s);
  expect_fair(j, "cubic");
  EXPECT_GT(j.value("dropped", 0), 0) << j.dump();
}

}  // namespace
}  // namespace mmusim
