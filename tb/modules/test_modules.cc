// Module tests: each SystemC block driven alone by small test doubles, one forked
// simulation per test (sc_fork.h). Expected numbers are hand-computed in the comments.
//
// Frequently used figures (100 Gb/s, 20 B preamble + IFG per frame on the wire):
//   1500 B frame: 1520 * 8 / 100e9 = 121.6 ns     1000 B frame: 1020 * 8 / 100e9 = 81.6 ns
//    500 B frame:  520 * 8 / 100e9 =  41.6 ns       64 B frame:   84 * 8 / 100e9 =  6.72 ns
//   one pause quantum = 512 bit times = 5.12 ns; 0xFFFF quanta = 335,539,200 ps.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "common/packet.h"
#include "common/protocol.h"
#include "common/sim_time.h"
#include "config/scenario.h"
#include "egress/egress_port.h"
#include "egress/pause_if.h"
#include "host/flow.h"
#include "host/host.h"
#include "host/traffic_manager.h"
#include "ingress/ingress_pipeline.h"
#include "link/link.h"
#include "mmu/admission_if.h"
#include "mmu/mmu.h"
#include "pfc/pause_timers.h"
#include "pfc/pfc_event_if.h"
#include "pfc/pfc_frame.h"
#include "pfc/pfc_generator.h"
#include "sc_fork.h"

namespace mmusim {
namespace {

using nlohmann::json;
using test::ChildResult;
using test::run_in_child;

constexpr uint64_t kNs = 1000;
constexpr uint64_t kUs = 1000 * kNs;
constexpr uint64_t k100G = 100'000'000'000ull;

// ---------------------------------------------------------------------------------------
// Test doubles
// ---------------------------------------------------------------------------------------

// Runs timed steps from one SC_THREAD, in time order (insertion order among equal times).
// Its sockets and ports are all optional, so each test binds only what it drives.
class Script : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_initiator_socket<Script, 32, PacketProtocol, 0, sc_core::SC_ZERO_OR_MORE_BOUND> out;
  sc_core::sc_port<PauseIf, 0, sc_core::SC_ZERO_OR_MORE_BOUND> pause;
  sc_core::sc_port<PfcEventIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND> pfc;
  sc_core::sc_port<AdmissionIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND> mmu;

  explicit Script(sc_core::sc_module_name n) : sc_module(n), out("out"), pause("pause"), pfc("pfc"), mmu("mmu") {
    out.register_nb_transport_bw(this, &Script::nb_bw);
    SC_HAS_PROCESS(Script);
    SC_THREAD(run);
  }

  void at(uint64_t t_ps, std::function<void()> f) { m_steps.emplace_back(t_ps, std::move(f)); }

  struct Answer {
    tlm::tlm_sync_enum status;
    bool end_req;
    uint64_t t_ps;  // annotated delay returned by the target
  };
  // Offers `p` on out[i] as BEGIN_REQ; its last bit arrives `last_bit_in_ps` from now.
  Answer send(int i, Packet& p, uint64_t last_bit_in_ps = 0) {
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = ps(last_bit_in_ps);
    const tlm::tlm_sync_enum st = out[i]->nb_transport_fw(p, ph, t);
    return {st, ph == tlm::END_REQ, t.value()};
  }

 private:
  tlm::tlm_sync_enum nb_bw(int, Packet&, tlm::tlm_phase&, sc_core::sc_time&) { return tlm::TLM_COMPLETED; }
  void run() {
    std::stable_sort(m_steps.begin(), m_steps.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [t, f] : m_steps) {
      if (t > now_ps()) wait(ps(t - now_ps()));
      f();
    }
  }
  std::vector<std::pair<uint64_t, std::function<void()>>> m_steps;
};

// Target that records every frame offered to it. With a rate it also answers like a Link
// (END_REQ, busy for the serialisation time), so a transmitter can be tested without one.
class Sink : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Sink, 32, PacketProtocol, 1> in;
  struct Rx {
    uint64_t begin_ps;     // time of the BEGIN_REQ call (start of transmission)
    uint64_t last_bit_ps;  // call time + annotated delay
    Packet p;              // a copy: the sender may reuse its frame
  };
  std::vector<Rx> rx;

  explicit Sink(sc_core::sc_module_name n, uint64_t rate_bps = 0, uint32_t overhead_bytes = 0)
      : sc_module(n), in("in"), m_rate(rate_bps), m_overhead(overhead_bytes) {
    in.register_nb_transport_fw(this, &Sink::fw);
  }

 private:
  tlm::tlm_sync_enum fw(int, Packet& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    rx.push_back({now_ps(), now_ps() + t.value(), p});
    if (m_rate == 0) return tlm::TLM_COMPLETED;
    ph = tlm::END_REQ;
    t += ps(serialization_ps(uint64_t(p.bytes) + m_overhead, m_rate));
    return tlm::TLM_UPDATED;
  }
  uint64_t m_rate;
  uint32_t m_overhead;
};

// AdmissionIf stub: records admit/depart calls; admits unless `verdict` says otherwise.
class AdmissionStub : public sc_core::sc_module, public AdmissionIf {
 public:
  sc_core::sc_export<AdmissionIf> exp;
  struct Rec {
    uint64_t t;
    Packet p;
  };
  std::vector<Rec> admitted, departed;
  std::function<bool(const Packet&)> verdict = [](const Packet&) { return true; };

  explicit AdmissionStub(sc_core::sc_module_name n) : sc_module(n), exp("exp") { exp.bind(*this); }
  bool admit(Packet& p) override {
    admitted.push_back({now_ps(), p});
    return verdict(p);
  }
  void depart(const Packet& p) override { departed.push_back({now_ps(), p}); }
};

// PauseIf stub (one per port of an ingress pipeline): records received PFC frames.
class PauseStub : public sc_core::sc_module, public PauseIf {
 public:
  sc_core::sc_export<PauseIf> exp;
  struct Rec {
    uint64_t t;
    PfcFrame f;
  };
  std::vector<Rec> got;
  explicit PauseStub(sc_core::sc_module_name n) : sc_module(n), exp("exp") { exp.bind(*this); }
  void pfc_received(const PfcFrame& f) override { got.push_back({now_ps(), f}); }
};

// PfcEventIf stub behind the MMU: records XOFF/XON.
class PfcEventStub : public sc_core::sc_module, public PfcEventIf {
 public:
  sc_core::sc_export<PfcEventIf> exp;
  struct Rec {
    uint64_t t;
    uint32_t port;
    uint8_t prio;
    admission::PfcEvent e;
  };
  std::vector<Rec> got;
  explicit PfcEventStub(sc_core::sc_module_name n) : sc_module(n), exp("exp") { exp.bind(*this); }
  void pfc_event(uint32_t port, uint8_t prio, admission::PfcEvent e) override {
    got.push_back({now_ps(), port, prio, e});
  }
  // Port-level XOFF/XON (DSH), recorded with prio = kPort.
  static constexpr uint8_t kPort = 0xFF;
  void port_pfc_event(uint32_t port, admission::PfcEvent e) override { got.push_back({now_ps(), port, kPort, e}); }
};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

Packet& data_packet(PacketPool& pool, uint32_t bytes, uint8_t prio, uint32_t flow) {
  Packet* p = pool.get();
  p->bytes = bytes;
  p->prio = prio;
  p->tc = prio;  // identity class maps: TC = PG = queue
  p->flow = flow;
  return *p;
}

PfcFrame pfc_frame(uint8_t class_enable, uint16_t quanta) {
  PfcFrame f;
  f.class_enable = class_enable;
  for (int i = 0; i < 8; ++i)
    if (class_enable >> i & 1) f.quanta[size_t(i)] = quanta;
  return f;
}

Packet& pfc_packet(PacketPool& pool, uint8_t class_enable, uint16_t quanta) {
  Packet* p = pool.get();
  p->kind = Packet::Kind::kPfc;
  p->bytes = kPfcFrameBytes;
  p->pfc = pfc_frame(class_enable, quanta);
  return *p;
}

json packet_json(const Packet& p) {
  json q = {{"kind", p.kind == Packet::Kind::kPfc ? "pfc" : "data"},
            {"bytes", p.bytes},
            {"flow", p.flow},
            {"prio", p.prio},
            {"cells", p.cells},
            {"in_port", p.in_port},
            {"out_port", p.out_port}};
  if (p.kind == Packet::Kind::kPfc) {
    q["class_enable"] = p.pfc.class_enable;
    q["quanta"] = p.pfc.quanta;
    q["src_mac"] = p.pfc.src_mac;
  }
  return q;
}

json frames_json(const Sink& s) {
  json a = json::array();
  for (const auto& r : s.rx) {
    json q = packet_json(r.p);
    q["begin"] = r.begin_ps;
    q["last_bit"] = r.last_bit_ps;
    a.push_back(q);
  }
  return a;
}

json records_json(const std::vector<AdmissionStub::Rec>& v) {
  json a = json::array();
  for (const auto& r : v) {
    json q = packet_json(r.p);
    q["t"] = r.t;
    a.push_back(q);
  }
  return a;
}

json answer_json(const Script::Answer& a) {
  return {{"updated", a.status == tlm::TLM_UPDATED}, {"end_req", a.end_req}, {"t", a.t_ps}};
}

json parse_ok(const ChildResult& r) {
  EXPECT_TRUE(r.ok) << r.text;
  if (!r.ok) return json::object();
  return json::parse(r.text);
}

// A 4-port scenario shaped like scenarios/default.json. Port QoS maps:
//   Ethernet0, Ethernet4: DSCP map AZURE (3->3, 8->0, 26->1, 46->5; others class selector)
//   Ethernet8:            DOT1P map P (pcp 5 -> 2, others identity), DSCP by class selector
//   Ethernet12:           class selector only (dscp >> 3)
// Priority 3 is lossless on every port.
json small_scenario_json(uint32_t pipelines = 1) {
  json j = R"({
    "name": "module-test", "seed": 1, "duration_us": 2000,
    "measure": {"start_us": 100, "end_us": 1500},
    "topology": {"switch": "sw0", "ports": 4, "rate_gbps": 100, "link_delay_ns": 2000,
                 "mtu_bytes": 1500, "wire_overhead_bytes": 20},
    "mmu": {"buffer_bytes": 16777216, "cell_bytes": 256, "clock_mhz": 1000,
            "pipeline_latency_cycles": 4, "pipelines": 1, "counter_bits": 32},
    "buffer": {
      "BUFFER_POOL": {
        "ingress_lossless_pool": {"size": "14680064", "type": "ingress", "mode": "dynamic", "xoff": "2097152"},
        "egress_lossless_pool": {"size": "16777216", "type": "egress", "mode": "static"},
        "egress_lossy_pool": {"size": "14680064", "type": "egress", "mode": "dynamic"}
      },
      "BUFFER_PROFILE": {
        "pg_lossless_profile": {"pool": "ingress_lossless_pool", "size": "0", "dynamic_th": "0",
                                "xon": "0", "xon_offset": "2496"},
        "ingress_lossy_profile": {"pool": "ingress_lossless_pool", "size": "0", "static_th": "16777216"},
        "egress_lossless_profile": {"pool": "egress_lossless_pool", "size": "0", "static_th": "16777216"},
        "egress_lossy_profile": {"pool": "egress_lossy_pool", "size": "1536", "dynamic_th": "0"}
      },
      "BUFFER_PG": {
        "Ethernet0,Ethernet4,Ethernet8,Ethernet12|3": {"profile": "pg_lossless_profile"},
        "Ethernet0,Ethernet4,Ethernet8,Ethernet12|0-2": {"profile": "ingress_lossy_profile"},
        "Ethernet0,Ethernet4,Ethernet8,Ethernet12|4-7": {"profile": "ingress_lossy_profile"}
      },
      "BUFFER_QUEUE": {
        "Ethernet0,Ethernet4,Ethernet8,Ethernet12|3": {"profile": "egress_lossless_profile"},
        "Ethernet0,Ethernet4,Ethernet8,Ethernet12|0-2": {"profile": "egress_lossy_profile"},
        "Ethernet0,Ethernet4,Ethernet8,Ethernet12|4-7": {"profile": "egress_lossy_profile"}
      },
      "PORT_QOS_MAP": {
        "Ethernet0,Ethernet4": {"pfc_enable": "3", "dscp_to_tc_map": "AZURE"},
        "Ethernet8": {"pfc_enable": "3", "dot1p_to_tc_map": "P"},
        "Ethernet12": {"pfc_enable": "3"}
      },
      "DSCP_TO_TC_MAP": {"AZURE": {"3": "3", "8": "0", "26": "1", "46": "5"}},
      "DOT1P_TO_TC_MAP": {"P": {"0": "0", "1": "1", "2": "2", "3": "3", "4": "4", "5": "2", "6": "6", "7": "7"}}
    },
    "pfc": {"pause_quanta": 65535, "refresh_fraction": 0.5},
    "egress": {"dwrr_quantum_bytes": 1600},
    "traffic": []
  })"_json;
  j["mmu"]["pipelines"] = pipelines;
  return j;
}

Scenario small_scenario(uint32_t pipelines = 1) { return load_scenario(small_scenario_json(pipelines), "module-test"); }

// ---------------------------------------------------------------------------------------
// Harness self-checks: a failing child must be reported, not mistaken for a pass.
// ---------------------------------------------------------------------------------------

TEST(Harness, ReportsSystemcErrorAndException) {
  const ChildResult e = run_in_child([]() -> std::string {
    SC_REPORT_ERROR("mmusim/test", "deliberate error");
    return "not reached";
  });
  EXPECT_FALSE(e.ok);
  EXPECT_NE(e.text.find("deliberate error"), std::string::npos) << e.text;

  const ChildResult x = run_in_child([]() -> std::string { throw std::runtime_error("boom"); });
  EXPECT_FALSE(x.ok);
  EXPECT_NE(x.text.find("boom"), std::string::npos) << x.text;

  const ChildResult ok = run_in_child([] { return std::string("fine"); });
  EXPECT_TRUE(ok.ok);
  EXPECT_EQ(ok.text, "fine");
}

// ---------------------------------------------------------------------------------------
// 1. Link
// ---------------------------------------------------------------------------------------

TEST(Link, SerialisationPropagationAndCounters) {
  const json j = parse_ok(run_in_child([] {
    Link link("link", k100G, 2 * kUs, 20);
    Script src("src");
    Sink far("far");
    src.out.bind(link.in);
    link.out.bind(far.in);
    PacketPool pool;
    json j;
    src.at(0, [&] { j["data"] = answer_json(src.send(0, data_packet(pool, 1500, 0, 1))); });
    src.at(10 * kUs, [&] { j["pfc"] = answer_json(src.send(0, pfc_packet(pool, 0x08, 100))); });
    // A transmitter may announce a frame that starts later: here 500 ns from now.
    src.at(20 * kUs, [&] { j["late"] = answer_json(src.send(0, data_packet(pool, 1500, 0, 2), 500 * kNs)); });
    sc_core::sc_start(ps(50 * kUs));
    j["far"] = frames_json(far);
    j["data_frames"] = link.data_frames();
    j["control_frames"] = link.control_frames();
    j["wire_bytes"] = link.wire_bytes();
    return j.dump();
  }));
  ASSERT_FALSE(j.empty());
  // END_REQ carries the serialisation time: 1520 * 8 / 100e9 = 121.6 ns.
  EXPECT_EQ(j.at("data").at("updated"), true);
  EXPECT_EQ(j.at("data").at("end_req"), true);
  EXPECT_EQ(j.at("data").at("t"), 121'600);
  // PFC: 84 * 8 / 100e9 = 6.72 ns.
  EXPECT_EQ(j.at("pfc").at("t"), 6'720);
  // Starting 500 ns later, the link is busy until 500 + 121.6 ns.
  EXPECT_EQ(j.at("late").at("t"), 621'600);

  const json& far = j.at("far");
  ASSERT_EQ(far.size(), 3u);
  // The far end is told at once, with the last bit 121.6 ns + 2000 ns later.
  EXPECT_EQ(far[0].at("begin"), 0);
  EXPECT_EQ(far[0].at("last_bit"), 2'121'600);
  EXPECT_EQ(far[0].at("flow"), 1);
  EXPECT_EQ(far[1].at("kind"), "pfc");
  EXPECT_EQ(far[1].at("last_bit"), 10'000'000 + 6'720 + 2'000'000);
  EXPECT_EQ(far[2].at("last_bit"), 20'000'000 + 500'000 + 121'600 + 2'000'000);

  EXPECT_EQ(j.at("data_frames"), 2);
  EXPECT_EQ(j.at("control_frames"), 1);
  EXPECT_EQ(j.at("wire_bytes"), 1520 + 84 + 1520);
}

TEST(Link, SerialisationRoundsUpToWholePicoseconds) {
  const json j = parse_ok(run_in_child([] {
    // 3 Gb/s: (64 + 20) * 8 / 3e9 = 224 ns exactly; 65 B: 85 * 8 / 3e9 = 226.666.. ns -> 226,667 ps.
    Link link("link", 3'000'000'000ull, 0, 20);
    Script src("src");
    Sink far("far");
    src.out.bind(link.in);
    link.out.bind(far.in);
    PacketPool pool;
    json j;
    src.at(0, [&] { j["a"] = src.send(0, data_packet(pool, 64, 0, 0)).t_ps; });
    src.at(1 * kUs, [&] { j["b"] = src.send(0, data_packet(pool, 65, 0, 0)).t_ps; });
    sc_core::sc_start(ps(5 * kUs));
    return j.dump();
  }));
  EXPECT_EQ(j.at("a"), 224'000);
  EXPECT_EQ(j.at("b"), 226'667);
}

// ---------------------------------------------------------------------------------------
// 2. PauseTimers (pure C++, no simulation)
// ---------------------------------------------------------------------------------------

TEST(PauseTimers, FullQuantaAt100G) {
  PauseTimers t(k100G);
  t.apply(pfc_frame(0x08, 0xFFFF), 1000);
  // 65535 * 512 bit / 100 Gb/s = 335,539,200 ps from t = 1000.
  EXPECT_TRUE(t.paused(3, 1000));
  EXPECT_TRUE(t.paused(3, 1000 + 335'539'200 - 1));
  EXPECT_FALSE(t.paused(3, 1000 + 335'539'200));
  EXPECT_FALSE(t.paused(2, 1000));
  EXPECT_FALSE(t.paused(4, 1000));
  EXPECT_EQ(t.next_expiry(0x08, 1000), 1000u + 335'539'200u);
  EXPECT_EQ(t.next_expiry(0xFF, 1000), 1000u + 335'539'200u);
  EXPECT_EQ(t.next_expiry(0xF7, 1000), 0u);  // priority 3 not in the mask
  EXPECT_EQ(t.next_expiry(0x08, 1000 + 335'539'200), 0u);
  EXPECT_EQ(t.paused_ps(2000), 1000u);
  EXPECT_EQ(t.paused_ps(1'000'000'000), 335'539'200u);
}

TEST(PauseTimers, ZeroQuantaResumesImmediately) {
  PauseTimers t(k100G);
  t.apply(pfc_frame(0x08, 100), 0);  // 100 * 5120 ps = 512,000 ps
  EXPECT_TRUE(t.paused(3, 10'000));
  t.apply(pfc_frame(0x08, 0), 10'000);
  EXPECT_FALSE(t.paused(3, 10'000));
  EXPECT_EQ(t.next_expiry(0x08, 10'000), 0u);
  EXPECT_EQ(t.paused_ps(20'000), 10'000u);
  EXPECT_EQ(t.paused_ps(1'000'000), 10'000u);
}

TEST(PauseTimers, ReapplyExtends) {
  PauseTimers t(k100G);
  t.apply(pfc_frame(0x08, 100), 0);         // until 512,000
  t.apply(pfc_frame(0x08, 100), 400'000);   // until 400,000 + 512,000 = 912,000
  EXPECT_TRUE(t.paused(3, 600'000));
  EXPECT_TRUE(t.paused(3, 911'999));
  EXPECT_FALSE(t.paused(3, 912'000));
  EXPECT_EQ(t.next_expiry(0x08, 600'000), 912'000u);
  EXPECT_EQ(t.paused_ps(912'000), 912'000u);    // one continuous pause, not 512,000 + 512,000
  EXPECT_EQ(t.paused_ps(2'000'000), 912'000u);
}

TEST(PauseTimers, PausedTimeAccumulatesOverSeparatePauses) {
  PauseTimers t(k100G);
  t.apply(pfc_frame(0x08, 100), 0);  // [0, 512,000)
  EXPECT_EQ(t.paused_ps(1'000'000), 512'000u);
  // The first pause expired long ago; the second is 10 quanta = 51,200 ps.
  t.apply(pfc_frame(0x08, 10), 1'000'000);
  EXPECT_TRUE(t.paused(3, 1'020'000));
  EXPECT_EQ(t.paused_ps(1'020'000), 512'000u + 20'000u);
  EXPECT_EQ(t.paused_ps(5'000'000), 512'000u + 51'200u);
  // A third pause after the second expired, cut short by XON after 1,000 ps.
  t.apply(pfc_frame(0x08, 10), 6'000'000);
  t.apply(pfc_frame(0x08, 0), 6'001'000);
  EXPECT_EQ(t.paused_ps(9'000'000), 512'000u + 51'200u + 1'000u);
}

TEST(PauseTimers, PrioritiesCountSeparatelyAndNextExpiryIsEarliest) {
  PauseTimers t(k100G);
  PfcFrame f;
  f.class_enable = 0x18;
  f.quanta[3] = 100;  // until 512,000
  f.quanta[4] = 10;   // until 51,200
  f.quanta[5] = 50;   // not enabled: ignored
  t.apply(f, 0);
  EXPECT_FALSE(t.paused(5, 0));
  EXPECT_EQ(t.next_expiry(0x38, 0), 51'200u);
  EXPECT_EQ(t.next_expiry(0x38, 51'200), 512'000u);
  EXPECT_EQ(t.next_expiry(0x08, 0), 512'000u);
  // Priority-seconds: 512,000 + 51,200.
  EXPECT_EQ(t.paused_ps(1'000'000), 563'200u);
}

TEST(PauseTimers, QuantumScalesWithLinkRate) {
  PauseTimers t(25'000'000'000ull);
  t.apply(pfc_frame(0x01, 0xFFFF), 0);
  // 65535 * 512 / 25e9 = 1,342,156,800 ps.
  EXPECT_EQ(t.next_expiry(0x01, 0), 1'342'156'800u);
}

// ---------------------------------------------------------------------------------------
// 3. EgressPort
// ---------------------------------------------------------------------------------------

// Script -> EgressPort(100 Gb/s, DWRR quantum 1600 B) -> Sink answering like a 100 Gb/s link.
struct EgressBench {
  PacketPool pool;
  Script src{"src"};
  EgressPort eg{"eg", 0, k100G, 1600};
  Sink wire{"wire", k100G, 20};
  AdmissionStub mmu{"mmu"};
  EgressBench() {
    src.out.bind(eg.in);
    src.pause.bind(eg.pause_export);
    eg.to_link.bind(wire.in);
    eg.mmu.bind(mmu.exp);
  }
  void enqueue(uint32_t bytes, uint8_t prio, uint32_t flow) { src.send(0, data_packet(pool, bytes, prio, flow)); }
  json result() {
    return {{"frames", frames_json(wire)},
            {"departed", records_json(mmu.departed)},
            {"tx_data", eg.tx_data_frames()},
            {"tx_pfc", eg.tx_pfc_frames()},
            {"queued", eg.queued_data()},
            {"paused_ps", eg.paused_ps()}};
  }
};

TEST(EgressPort, PfcFrameGoesRightAfterTheFrameOnTheWire) {
  const json j = parse_ok(run_in_child([] {
    EgressBench b;
    b.src.at(0, [&] {
      for (uint32_t f = 0; f < 3; ++f) b.enqueue(1500, 0, f);
    });
    b.src.at(50 * kNs, [&] { b.src.send(0, pfc_packet(b.pool, 0x08, 0xFFFF)); });
    sc_core::sc_start(ps(10 * kUs));
    return b.result().dump();
  }));
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 4u);
  // D0 starts at 0 and is not preempted; the PFC frame queued at 50 ns goes when D0 ends
  // (121.6 ns), ahead of the queued D1 and D2: D1 at 121.6 + 6.72, D2 121.6 ns later.
  EXPECT_EQ(fr[0].at("flow"), 0);
  EXPECT_EQ(fr[0].at("begin"), 0);
  EXPECT_EQ(fr[1].at("kind"), "pfc");
  EXPECT_EQ(fr[1].at("begin"), 121'600);
  EXPECT_EQ(fr[2].at("flow"), 1);
  EXPECT_EQ(fr[2].at("begin"), 128'320);
  EXPECT_EQ(fr[3].at("flow"), 2);
  EXPECT_EQ(fr[3].at("begin"), 249'920);
  EXPECT_EQ(j.at("tx_data"), 3);
  EXPECT_EQ(j.at("tx_pfc"), 1);
}

TEST(EgressPort, DwrrSharesBytesEvenlyBetweenUnequalPacketSizes) {
  const json j = parse_ok(run_in_child([] {
    EgressBench b;
    // Both queues hold 300,000 B: 200 x 1500 B in queue 1, 600 x 500 B in queue 2.
    b.src.at(0, [&] {
      for (uint32_t k = 0; k < 600; ++k) {
        if (k < 200) b.enqueue(1500, 1, 1);
        b.enqueue(500, 2, 2);
      }
    });
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 800u);
  // Per DWRR round each queue earns 1600 B: queue 1 sends floor(credit/1500) frames and
  // queue 2 floor(credit/500), so after R rounds both sent 1600 R minus < 1500 B. Over the
  // first 300,000 B (both still backlogged) that is 50/50 within 1500/150,000 = 1%.
  // Packet round robin would give 75/25.
  uint64_t b1 = 0, b2 = 0;
  for (const auto& f : fr) {
    if (b1 + b2 >= 300'000) break;
    (f.at("prio") == 1 ? b1 : b2) += f.at("bytes").get<uint64_t>();
  }
  const double share1 = double(b1) / double(b1 + b2);
  EXPECT_NEAR(share1, 0.5, 0.03) << "queue 1 " << b1 << " B, queue 2 " << b2 << " B";
  EXPECT_EQ(j.at("tx_data"), 800);
  EXPECT_EQ(j.at("departed").size(), 800u);
}

TEST(EgressPort, PausedPrioritySkippedAndResumedAtExpiry) {
  const json j = parse_ok(run_in_child([] {
    EgressBench b;
    // Priority 3 paused at 0 for 1000 quanta = 1000 * 5.12 ns = 5,120,000 ps.
    b.src.at(0, [&] { b.src.pause[0]->pfc_received(pfc_frame(0x08, 1000)); });
    b.src.at(1 * kNs, [&] {
      b.enqueue(1500, 3, 3);  // A: paused priority, queued first
      b.enqueue(1500, 5, 5);  // B: free priority
    });
    // PFC frames are never held by a pause: this one goes at once although A waits.
    b.src.at(1 * kUs, [&] { b.src.send(0, pfc_packet(b.pool, 0x01, 0xFFFF)); });
    sc_core::sc_start(ps(10 * kUs));
    return b.result().dump();
  }));
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 3u);
  // B goes at once; A waits for the expiry exactly (the port is idle from 122.6 ns on,
  // except for the PFC frame at 1 us).
  EXPECT_EQ(fr[0].at("flow"), 5);
  EXPECT_EQ(fr[0].at("begin"), 1'000);
  EXPECT_EQ(fr[1].at("kind"), "pfc");
  EXPECT_EQ(fr[1].at("begin"), 1 * kUs);
  EXPECT_EQ(fr[2].at("flow"), 3);
  EXPECT_EQ(fr[2].at("begin"), 5'120'000);
  EXPECT_EQ(j.at("paused_ps"), 5'120'000);
}

TEST(EgressPort, ZeroQuantaFrameResumesAtOnce) {
  const json j = parse_ok(run_in_child([] {
    EgressBench b;
    b.src.at(0, [&] { b.src.pause[0]->pfc_received(pfc_frame(0x08, 0xFFFF)); });  // 335.5 us
    b.src.at(1 * kNs, [&] { b.enqueue(1500, 3, 3); });
    b.src.at(10 * kNs, [&] { b.src.pause[0]->pfc_received(pfc_frame(0x08, 0)); });
    sc_core::sc_start(ps(10 * kUs));
    return b.result().dump();
  }));
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 1u);
  EXPECT_EQ(fr[0].at("begin"), 10'000);
  EXPECT_EQ(j.at("paused_ps"), 10'000);
}

TEST(EgressPort, EachDataFrameDepartsOnceWhenItsSerialisationEnds) {
  const json j = parse_ok(run_in_child([] {
    EgressBench b;
    b.src.at(0, [&] {
      b.enqueue(1000, 0, 10);
      b.enqueue(64, 1, 11);
      b.enqueue(1500, 0, 12);
      b.enqueue(300, 2, 13);
      b.src.send(0, pfc_packet(b.pool, 0x08, 0xFFFF));
    });
    sc_core::sc_start(ps(10 * kUs));
    return b.result().dump();
  }));
  // Wire:  flow 10 (1000 B, q0) [0, 81,600)  -> credit q0 = 1600 - 1000 = 600
  //        PFC                  [81,600, 88,320)  strict priority
  //        q0 head 1500 > 600: next queue. flow 11 (64 B, q1) [88,320, 95,040)
  //        flow 13 (300 B, q2)  [95,040, 120,640)   (320 * 8 / 100e9 = 25.6 ns)
  //        back to q0: 600 + 1600 >= 1500, flow 12 [120,640, 242,240)
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 5u);
  EXPECT_EQ(fr[1].at("kind"), "pfc");
  EXPECT_EQ(fr[1].at("begin"), 81'600);
  const json& d = j.at("departed");
  ASSERT_EQ(d.size(), 4u);  // data only, each once
  const std::vector<std::pair<uint32_t, uint64_t>> want = {
      {10, 81'600}, {11, 95'040}, {13, 120'640}, {12, 242'240}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(d[i].at("flow"), want[i].first) << i;
    EXPECT_EQ(d[i].at("t"), want[i].second) << i;
    EXPECT_EQ(d[i].at("kind"), "data") << i;
  }
  EXPECT_EQ(j.at("tx_data"), 4);
  EXPECT_EQ(j.at("tx_pfc"), 1);
  EXPECT_EQ(j.at("queued"), 0);
}

// ---------------------------------------------------------------------------------------
// 4. IngressPipeline
// ---------------------------------------------------------------------------------------

// Script (one socket per port) -> IngressPipeline -> 4 Sinks (per egress port), with
// PauseIf stubs per port and an AdmissionIf stub. Routes: host_ip(i) -> port i.
struct IngressBench {
  Scenario sc;
  PacketPool pool;
  Script src{"src"};
  IngressPipeline ing;
  AdmissionStub mmu{"mmu"};
  std::vector<std::unique_ptr<Sink>> out;
  std::vector<std::unique_ptr<PauseStub>> pause;

  explicit IngressBench(uint32_t pipelines) : sc(small_scenario(pipelines)), ing("ing", sc, pool) {
    for (uint32_t i = 0; i < sc.ports(); ++i) {
      src.out.bind(ing.from_link);  // binding i = ingress port i
      out.push_back(std::make_unique<Sink>(("out" + std::to_string(i)).c_str()));
      ing.to_egress.bind(out.back()->in);
      pause.push_back(std::make_unique<PauseStub>(("pause" + std::to_string(i)).c_str()));
      ing.pause.bind(pause.back()->exp);
      ing.add_route(host_ip(i), uint16_t(i));
    }
    ing.mmu.bind(mmu.exp);
  }
  // A frame whose last bit arrives on `port` at absolute time `arrive` (sent at `at`).
  void frame(uint64_t at, uint64_t arrive, int port, uint32_t flow, uint32_t bytes, uint32_t dst_ip,
             uint8_t dscp = 0, int8_t pcp = -1) {
    src.at(at, [=] {
      Packet& p = data_packet(pool, bytes, 0, flow);
      p.tuple.dst_ip = dst_ip;
      p.dscp = dscp;
      p.pcp = pcp;
      src.send(port, p, arrive - at);
    });
  }
  json result() {
    json pauses = json::array();
    for (const auto& s : pause) {
      json a = json::array();
      for (const auto& r : s->got)
        a.push_back({{"t", r.t}, {"class_enable", r.f.class_enable}, {"quanta", r.f.quanta}});
      pauses.push_back(a);
    }
    json outs = json::array();
    for (const auto& s : out) outs.push_back(frames_json(*s));
    return {{"admitted", records_json(mmu.admitted)},
            {"out", outs},
            {"pause", pauses},
            {"rx_data", ing.received_data()},
            {"rx_pfc", ing.received_pfc()},
            {"no_route", ing.no_route_drops()},
            {"pending", ing.pending_data()},
            {"pool_in_use", pool.in_use()}};
  }
};

// Admission time of the frame of `flow`, or -1.
int64_t admit_time(const json& j, uint32_t flow) {
  for (const auto& a : j.at("admitted"))
    if (a.at("flow") == flow) return a.at("t").get<int64_t>();
  return -1;
}

TEST(IngressPipeline, DecisionAtFirstClockEdgePlusLatency) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);  // 1 GHz MMU clock (1000 ps), 4 cycles of latency
    b.frame(0, 10'500, 0, 1, 1500, host_ip(1));
    b.frame(0, 20'000, 1, 2, 1500, host_ip(2));
    b.frame(30'000, 30'001, 2, 3, 1500, host_ip(3));
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  // Arrival 10,500: next edge 11,000 + 4 * 1000 = 15,000.
  EXPECT_EQ(admit_time(j, 1), 15'000);
  // Arrival on an edge (20,000): 20,000 + 4,000 = 24,000.
  EXPECT_EQ(admit_time(j, 2), 24'000);
  // Arrival 30,001: edge 31,000 + 4,000 = 35,000.
  EXPECT_EQ(admit_time(j, 3), 35'000);
  // Forwarded to the routed egress port at the decision time.
  const json& o1 = j.at("out").at(1);
  ASSERT_EQ(o1.size(), 1u);
  EXPECT_EQ(o1[0].at("begin"), 15'000);
  EXPECT_EQ(o1[0].at("out_port"), 1);
  EXPECT_EQ(o1[0].at("in_port"), 0);
  EXPECT_EQ(j.at("out").at(3).at(0).at("begin"), 35'000);
}

TEST(IngressPipeline, OneDecisionPerCyclePerPipeline) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);
    // Four ports, one pipeline, all last bits at 100,000 (an edge): cycles 104..107 ns.
    for (int port = 0; port < 4; ++port) b.frame(0, 100'000, port, uint32_t(port), 1500, host_ip(1));
    // Port 0 again at 100,500: its own edge would be 105,000, but the pipeline is busy
    // until 107,000, so 108,000.
    b.frame(0, 100'500, 0, 4, 1500, host_ip(1));
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  EXPECT_EQ(admit_time(j, 0), 104'000);
  EXPECT_EQ(admit_time(j, 1), 105'000);
  EXPECT_EQ(admit_time(j, 2), 106'000);
  EXPECT_EQ(admit_time(j, 3), 107'000);
  EXPECT_EQ(admit_time(j, 4), 108'000);
}

TEST(IngressPipeline, TwoPipelinesDecideInParallel) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(2);  // ports 0, 2 on pipeline 0; ports 1, 3 on pipeline 1
    for (int port = 0; port < 4; ++port) b.frame(0, 100'000, port, uint32_t(port), 1500, host_ip(1));
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  EXPECT_EQ(admit_time(j, 0), 104'000);
  EXPECT_EQ(admit_time(j, 1), 104'000);  // same cycle as port 0
  EXPECT_EQ(admit_time(j, 2), 105'000);
  EXPECT_EQ(admit_time(j, 3), 105'000);
}

TEST(IngressPipeline, ClassifiesByPortMapsAndCountsCells) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);
    const uint32_t d = host_ip(1);
    uint64_t t = 0;
    auto f = [&](int port, uint32_t flow, uint32_t bytes, uint8_t dscp, int8_t pcp) {
      t += 10 * kNs;
      b.frame(t, t, port, flow, bytes, d, dscp, pcp);
    };
    f(0, 0, 1500, 26, -1);  // AZURE: 26 -> 1;               ceil(1500/256) = 6 cells
    f(0, 1, 256, 46, -1);   // AZURE: 46 -> 5;               1 cell
    f(0, 2, 257, 26, 5);    // tagged, but port 0 has no DOT1P map: DSCP 26 -> 1; 2 cells
    f(2, 3, 64, 26, 5);     // port 2 DOT1P map P: pcp 5 -> 2; 1 cell
    f(2, 4, 512, 26, -1);   // port 2 untagged: class selector 26 >> 3 = 3; 2 cells
    f(3, 5, 1000, 46, -1);  // port 3 class selector: 46 >> 3 = 5; ceil(1000/256) = 4 cells
    f(0, 6, 1500, 3, -1);   // AZURE: 3 -> 3 (lossless)
    f(2, 7, 1500, 0, 3);    // DOT1P: pcp 3 -> 3
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  const json& a = j.at("admitted");
  ASSERT_EQ(a.size(), 8u);
  const int want_prio[] = {1, 5, 1, 2, 3, 5, 3, 3};
  const int want_cells[] = {6, 1, 2, 1, 2, 4, 6, 6};
  const int want_in[] = {0, 0, 0, 2, 2, 3, 0, 2};
  for (size_t i = 0; i < 8; ++i) {
    ASSERT_EQ(a[i].at("flow"), i);
    EXPECT_EQ(a[i].at("prio"), want_prio[i]) << "flow " << i;
    EXPECT_EQ(a[i].at("cells"), want_cells[i]) << "flow " << i;
    EXPECT_EQ(a[i].at("in_port"), want_in[i]) << "flow " << i;
    EXPECT_EQ(a[i].at("out_port"), 1) << "flow " << i;
  }
}

TEST(IngressPipeline, PfcFrameGoesToThatPortsTransmitterNotToAdmission) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);
    // Offered at 40,000 with its last bit 10,000 later, on port 2.
    b.src.at(40'000, [&] { b.src.send(2, pfc_packet(b.pool, 0x08, 0xFFFF), 10'000); });
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  // Acted on at the last bit (no pipeline latency), by port 2's PauseIf only.
  const json& p = j.at("pause");
  EXPECT_EQ(p.at(0).size(), 0u);
  EXPECT_EQ(p.at(1).size(), 0u);
  EXPECT_EQ(p.at(3).size(), 0u);
  ASSERT_EQ(p.at(2).size(), 1u);
  EXPECT_EQ(p.at(2).at(0).at("t"), 50'000);
  EXPECT_EQ(p.at(2).at(0).at("class_enable"), 0x08);
  EXPECT_EQ(p.at(2).at(0).at("quanta").at(3), 0xFFFF);
  EXPECT_EQ(j.at("admitted").size(), 0u);
  for (const auto& o : j.at("out")) EXPECT_EQ(o.size(), 0u);
  EXPECT_EQ(j.at("rx_pfc"), 1);
  EXPECT_EQ(j.at("rx_data"), 0);
  EXPECT_EQ(j.at("pool_in_use"), 0);  // the frame went back to the pool
}

TEST(IngressPipeline, UnknownDestinationIsANoRouteDropAndRejectedFramesAreFreed) {
  const json j = parse_ok(run_in_child([] {
    IngressBench b(1);
    b.mmu.verdict = [](const Packet& p) { return p.flow != 3; };  // the MMU drops flow 3
    b.frame(0, 10 * kNs, 0, 1, 1500, 0x0B000001u);  // 11.0.0.1: no route
    b.frame(0, 20 * kNs, 0, 2, 1500, host_ip(3));
    b.frame(0, 30 * kNs, 1, 3, 1500, host_ip(3));
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  EXPECT_EQ(j.at("no_route"), 1);
  EXPECT_EQ(j.at("rx_data"), 3);
  EXPECT_EQ(admit_time(j, 1), -1);  // never offered to the MMU
  EXPECT_EQ(j.at("admitted").size(), 2u);
  ASSERT_EQ(j.at("out").at(3).size(), 1u);  // only flow 2 forwarded
  EXPECT_EQ(j.at("out").at(3).at(0).at("flow"), 2);
  EXPECT_EQ(j.at("pending"), 0);
  EXPECT_EQ(j.at("pool_in_use"), 1);  // the no-route and rejected frames were freed
}

// ---------------------------------------------------------------------------------------
// 5. PfcGenerator
// ---------------------------------------------------------------------------------------

// Script (PfcEventIf) -> PfcGenerator(switch 1) -> 4 Sinks standing for the egress ports.
// pause = 65535 quanta at 100 Gb/s = 335,539,200 ps; refresh every 0.5 of it = 167,769,600 ps.
constexpr uint64_t kRefresh = 167'769'600;

// Priorities 3 and 4 lossless on every port, each in its own PG unless `pg_map` says otherwise.
Scenario pfc_scenario(const json& pg_map = json()) {
  json j = small_scenario_json();
  for (auto& e : j["buffer"]["PORT_QOS_MAP"]) {
    e["pfc_enable"] = "3,4";
    if (!pg_map.is_null()) e["tc_to_pg_map"] = "M";
  }
  if (!pg_map.is_null()) j["buffer"]["TC_TO_PRIORITY_GROUP_MAP"] = {{"M", pg_map}};
  return load_scenario(j, "module-test");
}

struct PfcBench {
  Scenario sc;
  explicit PfcBench(Scenario s = pfc_scenario()) : sc(std::move(s)) { bind(); }
  PacketPool pool;
  Script src{"src"};
  PfcGenerator gen{"pfc", sc, 1, pool};
  std::vector<std::unique_ptr<Sink>> out;
  void bind() {
    for (uint32_t i = 0; i < sc.ports(); ++i) {
      out.push_back(std::make_unique<Sink>(("port" + std::to_string(i)).c_str()));
      gen.out.bind(out.back()->in);
    }
    src.pfc.bind(gen.event_export);
  }
  void xoff(uint64_t t, uint32_t port, uint8_t prio) {
    src.at(t, [=] { src.pfc->pfc_event(port, prio, admission::PfcEvent::kXoff); });
  }
  void xon(uint64_t t, uint32_t port, uint8_t prio) {
    src.at(t, [=] { src.pfc->pfc_event(port, prio, admission::PfcEvent::kXon); });
  }
  json result() {
    json outs = json::array();
    for (const auto& s : out) outs.push_back(frames_json(*s));
    return {{"out", outs},
            {"pause_frames", gen.pause_frames()},
            {"resume_frames", gen.resume_frames()},
            {"xoff", gen.xoff_events()},
            {"paused_queues", gen.paused_queues()}};
  }
};

TEST(PfcGenerator, XoffSendsAPfcFrameToThatPort) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b;
    b.xoff(10 * kUs, 2, 3);
    sc_core::sc_start(ps(100 * kUs));  // before the first refresh
    return b.result().dump();
  }));
  const json& o = j.at("out");
  EXPECT_EQ(o.at(0).size(), 0u);
  EXPECT_EQ(o.at(1).size(), 0u);
  EXPECT_EQ(o.at(3).size(), 0u);
  ASSERT_EQ(o.at(2).size(), 1u);
  const json& f = o.at(2).at(0);
  EXPECT_EQ(f.at("begin"), 10 * kUs);
  EXPECT_EQ(f.at("kind"), "pfc");
  EXPECT_EQ(f.at("bytes"), 64);
  EXPECT_EQ(f.at("class_enable"), 0x08);
  EXPECT_EQ(f.at("quanta"), json({0, 0, 0, 0xFFFF, 0, 0, 0, 0}));
  EXPECT_EQ(f.at("src_mac"), json({2, 0, 0, 1, 0, 2}));  // port_mac(switch 1, port 2)
  EXPECT_EQ(j.at("paused_queues"), 1);
}

TEST(PfcGenerator, RefreshesWhilePausedAndXonStopsRefreshes) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b;
    b.xoff(10 * kUs, 2, 3);
    b.xon(610 * kUs, 2, 3);
    sc_core::sc_start(ps(1000 * kUs));
    return b.result().dump();
  }));
  // XOFF at 10 us, refreshes at 10 us + k * 167.7696 us while paused: 177.7696, 345.5392,
  // 513.3088 us (the next, 681.0784 us, falls after the XON at 610 us and is not sent).
  const json& o = j.at("out").at(2);
  ASSERT_EQ(o.size(), 5u) << o.dump();
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(o[k].at("begin"), 10 * kUs + k * kRefresh) << k;
    EXPECT_EQ(o[k].at("class_enable"), 0x08) << k;
    EXPECT_EQ(o[k].at("quanta").at(3), 0xFFFF) << k;
  }
  EXPECT_EQ(o[4].at("begin"), 610 * kUs);
  EXPECT_EQ(o[4].at("class_enable"), 0x08);
  EXPECT_EQ(o[4].at("quanta"), json({0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(j.at("pause_frames"), 4);
  EXPECT_EQ(j.at("resume_frames"), 1);
  EXPECT_EQ(j.at("xoff"), 1);
  EXPECT_EQ(j.at("paused_queues"), 0);
}

TEST(PfcGenerator, OneRefreshCoversEveryPausedPriorityOfThePort) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b;
    b.xoff(10 * kUs, 0, 3);
    b.xoff(60 * kUs, 0, 4);
    sc_core::sc_start(ps(300 * kUs));
    return b.result().dump();
  }));
  const json& o = j.at("out").at(0);
  ASSERT_EQ(o.size(), 3u) << o.dump();
  EXPECT_EQ(o[0].at("class_enable"), 0x08);
  // The second XOFF's frame pauses priority 4 and refreshes priority 3 ...
  EXPECT_EQ(o[1].at("begin"), 60 * kUs);
  EXPECT_EQ(o[1].at("class_enable"), 0x18);
  EXPECT_EQ(o[1].at("quanta"), json({0, 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0}));
  // ... so the port's refresh is due one period after it (60 us + 167.7696 us), not
  // after the first XOFF (177.7696 us).
  EXPECT_EQ(o[2].at("begin"), 60 * kUs + kRefresh);
  EXPECT_EQ(o[2].at("class_enable"), 0x18);
  EXPECT_EQ(o[2].at("quanta"), json({0, 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0}));
}

// TCs 3 and 4 (both PFC-enabled) in PG 3: the PG's XOFF pauses priorities 3 and 4 in one
// frame and its XON resumes both; PG 4 holds no TC and is never paused by the core.
TEST(PfcGenerator, PgXoffPausesEveryPriorityMappedToIt) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b(pfc_scenario({{"4", 3}}));
    b.xoff(10 * kUs, 1, 3);
    b.xon(20 * kUs, 1, 3);
    sc_core::sc_start(ps(100 * kUs));
    return b.result().dump();
  }));
  const json& o = j.at("out").at(1);
  ASSERT_EQ(o.size(), 2u) << o.dump();
  EXPECT_EQ(o[0].at("class_enable"), 0x18);
  EXPECT_EQ(o[0].at("quanta"), json({0, 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0}));
  EXPECT_EQ(o[1].at("begin"), 20 * kUs);
  EXPECT_EQ(o[1].at("class_enable"), 0x18);
  EXPECT_EQ(o[1].at("quanta"), json({0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(j.at("xoff"), 1);
}

TEST(PfcGenerator, RefreshRestartsFromEachXoff) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b;
    b.xoff(10 * kUs, 2, 3);
    b.xon(100 * kUs, 2, 3);
    b.xoff(150 * kUs, 2, 3);
    sc_core::sc_start(ps(400 * kUs));
    return b.result().dump();
  }));
  // XOFF 10 us, XON 100 us, XOFF 150 us, then refreshes at 150 us + k * 167.7696 us. A
  // refresh at the first episode's phase (177.7696 us) would be a frame the peer does not
  // need (the ns-3 artifact, which never refreshes, sends one frame per XOFF).
  const json& o = j.at("out").at(2);
  ASSERT_EQ(o.size(), 4u) << o.dump();
  EXPECT_EQ(o[0].at("begin"), 10 * kUs);
  EXPECT_EQ(o[1].at("begin"), 100 * kUs);
  EXPECT_EQ(o[1].at("quanta").at(3), 0);
  EXPECT_EQ(o[2].at("begin"), 150 * kUs);
  EXPECT_EQ(o[3].at("begin"), 150 * kUs + kRefresh);
  EXPECT_EQ(o[3].at("quanta").at(3), 0xFFFF);
  EXPECT_EQ(j.at("pause_frames"), 3);
  EXPECT_EQ(j.at("resume_frames"), 1);
  EXPECT_EQ(j.at("xoff"), 2);
}

TEST(PfcGenerator, PausedTimeIsClippedToTheMeasurementWindow) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b;  // measurement window [100 us, 1500 us)
    b.xoff(10 * kUs, 2, 3);
    b.xon(610 * kUs, 2, 3);
    b.xoff(1000 * kUs, 1, 4);  // still paused at the end
    sc_core::sc_start(ps(1200 * kUs));
    json r = b.result();
    r["paused_1200"] = b.gen.paused_ps(1200 * kUs);
    r["paused_2000"] = b.gen.paused_ps(2000 * kUs);
    return r.dump();
  }));
  // (2,3): [10, 610) clipped to [100, 610) = 510 us. (1,4): from 1000 us.
  EXPECT_EQ(j.at("paused_1200"), (510 + 200) * kUs);
  EXPECT_EQ(j.at("paused_2000"), (510 + 500) * kUs);  // window ends at 1500 us
  EXPECT_EQ(j.at("paused_queues"), 1);
}

TEST(PfcGenerator, PortLevelPauseCoversEveryPriorityAndKeepsQueuePauses) {
  const json j = parse_ok(run_in_child([] {
    PfcBench b;
    b.xoff(200 * kUs, 1, 3);                                     // queue (1,3)
    b.src.at(210 * kUs, [&] { b.src.pfc->port_pfc_event(1, admission::PfcEvent::kXoff); });
    b.src.at(220 * kUs, [&] { b.src.pfc->port_pfc_event(1, admission::PfcEvent::kXon); });
    b.xon(230 * kUs, 1, 3);
    sc_core::sc_start(ps(400 * kUs));  // past a refresh that would be due at 210 + 167.7696 us
    json r = b.result();
    r["paused_ps"] = b.gen.paused_ps(400 * kUs);
    return r.dump();
  }));
  // Each change of the paused set sends one frame: an XOFF frame for every paused class,
  // a resume frame for the resumed classes only:
  //   200 us: 0x08 paused; 210 us: the other seven paused, priority 3 refreshed (0xFF);
  //   220 us: 0xF7 resumed (priority 3 stays paused); 230 us: 0x08 resumed, no refresh left.
  const json& o = j.at("out").at(1);
  ASSERT_EQ(o.size(), 4u) << o.dump();
  const uint64_t all = 0xFFFF;
  EXPECT_EQ(o[0].at("class_enable"), 0x08);
  EXPECT_EQ(o[0].at("quanta"), json({0, 0, 0, all, 0, 0, 0, 0}));
  EXPECT_EQ(o[1].at("begin"), 210 * kUs);
  EXPECT_EQ(o[1].at("class_enable"), 0xFF);
  EXPECT_EQ(o[1].at("quanta"), json({all, all, all, all, all, all, all, all}));
  EXPECT_EQ(o[2].at("begin"), 220 * kUs);
  EXPECT_EQ(o[2].at("class_enable"), 0xF7);
  EXPECT_EQ(o[2].at("quanta"), json({0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(o[3].at("begin"), 230 * kUs);
  EXPECT_EQ(o[3].at("class_enable"), 0x08);
  EXPECT_EQ(o[3].at("quanta"), json({0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(j.at("pause_frames"), 2);
  EXPECT_EQ(j.at("resume_frames"), 2);
  EXPECT_EQ(j.at("xoff"), 2);
  EXPECT_EQ(j.at("paused_queues"), 0);
  // Priority-time: priority 3 for 30 us, seven others for 10 us each = 100 us.
  EXPECT_EQ(j.at("paused_ps"), 100 * kUs);
}

// ---------------------------------------------------------------------------------------
// 6. Host
// ---------------------------------------------------------------------------------------

// Script -> Host(100 Gb/s).rx; Host.tx -> Sink answering like a 100 Gb/s link.
struct HostBench {
  PacketPool pool;
  FlowTable flows;
  Script src{"src"};
  Host host{"h0", 0, k100G, flows, pool};
  Sink wire{"wire", k100G, 20};
  HostBench() {
    src.out.bind(host.rx);
    host.tx.bind(wire.in);
  }
  uint32_t flow(uint8_t prio, uint64_t bytes, uint32_t packet_bytes, uint64_t rate_bps, uint64_t start) {
    Flow f;
    f.id = uint32_t(flows.size());
    f.src = 0;
    f.dst = 1;
    f.tuple.src_ip = host_ip(0);
    f.tuple.dst_ip = host_ip(1);
    f.dscp = prio;
    f.prio = prio;
    f.bytes = bytes;
    f.packet_bytes = packet_bytes;
    f.rate_bps = rate_bps;
    f.start_ps = start;
    flows.push_back(f);
    const uint32_t id = f.id;
    src.at(start, [this, id] { host.start_flow(id); });
    return id;
  }
  json result() {
    json fl = json::array();
    for (const auto& f : flows)
      fl.push_back({{"sent", f.sent_bytes}, {"received", f.received_bytes}, {"finish", f.finish_ps},
                    {"packets", f.packets_sent}});
    return {{"frames", frames_json(wire)},
            {"flows", fl},
            {"injected", host.injected()},
            {"delivered", host.delivered()},
            {"pfc_rx", host.pfc_received()},
            {"paused_ps", host.paused_ps()},
            {"pending_rx", host.pending_rx_data()},
            {"pool_in_use", pool.in_use()}};
  }
};

TEST(Host, LineRateFlowIsSentAsBackToBackFrames) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    b.flow(3, 4030, 1000, 0, 1 * kUs);
    sc_core::sc_start(ps(20 * kUs));
    return b.result().dump();
  }));
  // ceil(4030 / 1000) = 5 frames: four of 1000 B, then 30 B padded to the 64 B minimum,
  // back to back every 1020 * 8 / 100e9 = 81.6 ns from 1 us.
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 5u);
  for (size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(fr[k].at("begin"), 1 * kUs + k * 81'600) << k;
    EXPECT_EQ(fr[k].at("bytes"), k < 4 ? 1000 : 64) << k;
    EXPECT_EQ(fr[k].at("flow"), 0) << k;
  }
  EXPECT_EQ(j.at("flows").at(0).at("sent"), 4030);
  EXPECT_EQ(j.at("flows").at(0).at("packets"), 5);
  EXPECT_EQ(j.at("injected"), 5);
}

TEST(Host, RateLimitedFlowIsPaced) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    b.flow(1, 5000, 1000, 10'000'000'000ull, 1 * kUs);  // 10 Gb/s
    sc_core::sc_start(ps(20 * kUs));
    return b.result().dump();
  }));
  // Packet k is eligible at start + k * 1000 B * 8 / 10 Gb/s = 1 us + k * 800 ns.
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 5u);
  for (size_t k = 0; k < 5; ++k) EXPECT_EQ(fr[k].at("begin"), 1 * kUs + k * 800 * kNs) << k;
}

TEST(Host, RateLimitedFlowCatchesUpAfterAPause) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    b.src.at(0, [&] { b.src.send(0, pfc_packet(b.pool, 0x02, 1000)); });  // prio 1 until 5.12 us
    b.flow(1, 10'000, 1000, 10'000'000'000ull, 1 * kUs);
    sc_core::sc_start(ps(20 * kUs));
    return b.result().dump();
  }));
  // Eligible times 1 + 0.8 k us. Held until 5.12 us, then sent back to back every 81.6 ns
  // while behind schedule: 5.12 + 0.0816 k us for k = 0..5 (k = 5 ends at 5.6096 us);
  // packet 6 is due at 5.8 us, and from then on on schedule: 1 + 0.8 k us.
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 10u);
  for (size_t k = 0; k < 6; ++k) EXPECT_EQ(fr[k].at("begin"), 5'120'000 + k * 81'600) << k;
  for (size_t k = 6; k < 10; ++k) EXPECT_EQ(fr[k].at("begin"), 1 * kUs + k * 800 * kNs) << k;
}

TEST(Host, PfcPausesOnlyThatPriority) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    b.src.at(0, [&] { b.src.send(0, pfc_packet(b.pool, 0x08, 1000)); });  // prio 3 until 5.12 us
    b.flow(3, 10'000, 1000, 0, 1 * kNs);   // A, paused
    b.flow(1, 100'000, 1000, 0, 1 * kNs);  // B
    sc_core::sc_start(ps(30 * kUs));
    return b.result().dump();
  }));
  // B runs back to back from 1 ns: frame k at 1,000 + 81,600 k. A is released at 5.12 us;
  // the frame in flight then ends at 1,000 + 63 * 81,600 = 5,141,800, where A goes first
  // (round robin over priorities), then B, alternating.
  const json& fr = j.at("frames");
  ASSERT_GE(fr.size(), 66u);
  for (size_t k = 0; k < 63; ++k) {
    ASSERT_EQ(fr[k].at("flow"), 1) << k;
    ASSERT_EQ(fr[k].at("begin"), 1'000 + k * 81'600) << k;
  }
  EXPECT_EQ(fr[63].at("flow"), 0);
  EXPECT_EQ(fr[63].at("begin"), 5'141'800);
  EXPECT_EQ(fr[64].at("flow"), 1);
  EXPECT_EQ(fr[65].at("flow"), 0);
  EXPECT_EQ(j.at("pfc_rx"), 1);
  EXPECT_EQ(j.at("paused_ps"), 5'120'000);
  EXPECT_EQ(j.at("flows").at(0).at("sent"), 10'000);
  EXPECT_EQ(j.at("flows").at(1).at("sent"), 100'000);
}

TEST(Host, PausedPriorityResumesAtExpiry) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    b.src.at(0, [&] { b.src.send(0, pfc_packet(b.pool, 0x08, 1000)); });
    b.flow(3, 2000, 1000, 0, 1 * kNs);
    sc_core::sc_start(ps(30 * kUs));
    return b.result().dump();
  }));
  const json& fr = j.at("frames");
  ASSERT_EQ(fr.size(), 2u);
  EXPECT_EQ(fr[0].at("begin"), 5'120'000);
  EXPECT_EQ(fr[1].at("begin"), 5'120'000 + 81'600);
}

TEST(Host, ReceivingAllBytesSetsFinishTime) {
  const json j = parse_ok(run_in_child([] {
    HostBench b;
    // A flow from elsewhere to this host: 2030 B = 1000 + 1000 + 30 (sent as 64 B).
    Flow f;
    f.bytes = 2030;
    b.flows.push_back(f);
    auto rx = [&b](uint64_t at, uint32_t bytes) {
      b.src.at(at, [&b, bytes] {
        Packet& p = data_packet(b.pool, bytes, 0, 0);
        b.src.send(0, p, 1 * kUs);  // last bit 1 us after the offer
      });
    };
    rx(9 * kUs, 1000);
    rx(19 * kUs, 1000);
    rx(29 * kUs, 64);
    json mid;
    b.src.at(25 * kUs, [&] {
      mid = {{"finish", b.flows[0].finish_ps}, {"received", b.flows[0].received_bytes}};
    });
    sc_core::sc_start(ps(50 * kUs));
    json r = b.result();
    r["mid"] = mid;
    return r.dump();
  }));
  EXPECT_EQ(j.at("mid").at("finish"), 0);
  EXPECT_EQ(j.at("mid").at("received"), 2000);
  EXPECT_EQ(j.at("flows").at(0).at("received"), 2030);  // padding not counted
  EXPECT_EQ(j.at("flows").at(0).at("finish"), 30 * kUs);
  EXPECT_EQ(j.at("delivered"), 3);
  EXPECT_EQ(j.at("pending_rx"), 0);
  EXPECT_EQ(j.at("pool_in_use"), 0);
  EXPECT_EQ(j.at("frames").size(), 0u);
}

// TrafficManager + generators: flows start at their times, at their sources, numbered in
// start order, classified with the source port's map.
TEST(TrafficManager, StartsGeneratedFlowsAtTheirTimes) {
  const json j = parse_ok(run_in_child([] {
    json sj = small_scenario_json(1);
    sj["traffic"] = R"([
      {"type": "incast", "senders": "h1-h2", "receiver": "h0", "dscp": 3, "burst_bytes": 3000,
       "start_us": 10, "period_us": 300, "count": 2},
      {"type": "constant", "src": "h3", "dst": "h0", "dscp": 0, "rate_gbps": 10, "stop_us": 10}
    ])"_json;
    const Scenario sc = load_scenario(sj, "module-test");
    PacketPool pool;
    FlowTable flows;
    Script src("src");
    std::vector<std::unique_ptr<Host>> hosts;
    std::vector<std::unique_ptr<Sink>> wires;
    std::vector<Host*> ptrs;
    for (uint32_t i = 0; i < sc.ports(); ++i) {
      hosts.push_back(std::make_unique<Host>(("h" + std::to_string(i)).c_str(), i, k100G, flows, pool));
      wires.push_back(std::make_unique<Sink>(("wire" + std::to_string(i)).c_str(), k100G, 20));
      hosts[i]->tx.bind(wires[i]->in);
      src.out.bind(hosts[i]->rx);
      ptrs.push_back(hosts[i].get());
    }
    TrafficManager tm("traffic", sc, flows, ptrs);
    sc_core::sc_start(ps(1000 * kUs));
    json r;
    for (const auto& f : flows)
      r["flows"].push_back({{"id", f.id}, {"src", f.src}, {"dst", f.dst}, {"start", f.start_ps},
                            {"bytes", f.bytes}, {"prio", f.prio}, {"sport", f.tuple.src_port},
                            {"dst_ip", f.tuple.dst_ip}, {"sent", f.sent_bytes}});
    for (const auto& w : wires) r["frames"].push_back(frames_json(*w));
    return r.dump();
  }));
  // t = 0: constant h3 -> h0 (id 0), 10 Gb/s for 10 us = 12,500 B; t = 10 us: incast h1, h2
  // (ids 1, 2); t = 310 us: ids 3, 4.
  const json& fl = j.at("flows");
  ASSERT_EQ(fl.size(), 5u) << fl.dump();
  const std::vector<std::array<uint64_t, 4>> want = {  // src, start, bytes, prio
      {3, 0, 12'500, 0},           // Ethernet12: class selector, dscp 0 -> 0
      {1, 10 * kUs, 3000, 3},      // Ethernet4: AZURE, dscp 3 -> 3
      {2, 10 * kUs, 3000, 0},      // Ethernet8: class selector, dscp 3 -> 0
      {1, 310 * kUs, 3000, 3},
      {2, 310 * kUs, 3000, 0}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(fl[i].at("id"), i);
    EXPECT_EQ(fl[i].at("src"), want[i][0]) << i;
    EXPECT_EQ(fl[i].at("start"), want[i][1]) << i;
    EXPECT_EQ(fl[i].at("bytes"), want[i][2]) << i;
    EXPECT_EQ(fl[i].at("prio"), want[i][3]) << i;
    EXPECT_EQ(fl[i].at("dst"), 0) << i;
    EXPECT_EQ(fl[i].at("dst_ip"), host_ip(0)) << i;
    EXPECT_EQ(fl[i].at("sport"), 49152 + i) << i;
    EXPECT_EQ(fl[i].at("sent"), want[i][2]) << i;
  }
  // h1: 3000 B = 2 MTU frames back to back at 10 us and 310 us.
  const json& h1 = j.at("frames").at(1);
  ASSERT_EQ(h1.size(), 4u);
  EXPECT_EQ(h1[0].at("begin"), 10 * kUs);
  EXPECT_EQ(h1[1].at("begin"), 10 * kUs + 121'600);
  EXPECT_EQ(h1[2].at("begin"), 310 * kUs);
  // h3: 12,500 B paced at 10 Gb/s: 1500 B every 1.2 us, 8 full frames and one of 500 B.
  const json& h3 = j.at("frames").at(3);
  ASSERT_EQ(h3.size(), 9u);
  for (size_t k = 0; k < 9; ++k) EXPECT_EQ(h3[k].at("begin"), k * 1200 * kNs) << k;
  EXPECT_EQ(h3[8].at("bytes"), 500);
}

// ---------------------------------------------------------------------------------------
// 7. Mmu (default scenario: 32 x 100 Gb/s, 256 B cells, priority 3 lossless)
// ---------------------------------------------------------------------------------------

// Script (AdmissionIf) -> Mmu -> PfcEventStub.
struct MmuBench {
  Scenario sc = load_scenario(default_scenario_json(), "default");
  Script src{"src"};
  Mmu mmu{"mmu", sc};
  PfcEventStub pfc{"pfcstub"};
  MmuBench() {
    src.mmu.bind(mmu.admission_export);
    mmu.pfc.bind(pfc.exp);
  }
  static Packet pkt(uint16_t in, uint16_t out, uint8_t prio, uint32_t cells) {
    Packet p;
    p.in_port = in;
    p.out_port = out;
    p.prio = prio;
    p.cells = cells;
    p.bytes = cells * 256;
    return p;
  }
  json snapshot() const {
    const auto& c = mmu.core();
    return {{"lossless", mmu.occupancy().lossless.value()},
            {"lossy", mmu.occupancy().lossy.value()},
            {"headroom", mmu.occupancy().headroom.value()},
            {"total", mmu.occupancy().total.value()},
            {"core_total_cells", c.total_used()},
            {"ing_1_3", c.ingress_cells(1, 3)},
            {"hdrm_1_3", c.headroom_cells(1, 3)},
            {"egr_0_3", c.egress_cells(0, 3)},
            {"buffered", mmu.buffered_packets()},
            {"admitted", mmu.admitted()},
            {"admitted_headroom", mmu.admitted_headroom()}};
  }
};

TEST(Mmu, AdmitAndDepartKeepClassOccupancyConsistent) {
  const json j = parse_ok(run_in_child([] {
    MmuBench b;
    // Lossless PG (port 1, prio 3): alpha = 1 on the 14,680,064 B ingress pool = 57,344 cells,
    // so XOFF once the shared occupancy s >= 57,344 - s, i.e. s >= 28,672 = 7 x 4096 cells.
    std::vector<Packet> big(7, MmuBench::pkt(1, 0, 3, 4096));
    Packet lossy = MmuBench::pkt(2, 0, 1, 4);
    Packet small = MmuBench::pkt(1, 0, 3, 100);  // headroom: 100 <= 699 cells (safe headroom)
    json j;
    b.src.at(200 * kUs, [&] {
      for (auto& p : big) j["admit_big"].push_back(b.src.mmu->admit(p));
      j["admit_lossy"] = b.src.mmu->admit(lossy);
      j["s1"] = b.snapshot();
    });
    b.src.at(300 * kUs, [&] {
      j["admit_small"] = b.src.mmu->admit(small);
      j["small_headroom"] = small.headroom;
      j["s2"] = b.snapshot();
    });
    b.src.at(400 * kUs, [&] {
      b.src.mmu->depart(big[0]);  // headroom drains first: 100 from headroom, 3996 shared
      j["s3"] = b.snapshot();
    });
    b.src.at(500 * kUs, [&] {
      for (size_t i = 1; i < big.size(); ++i) b.src.mmu->depart(big[i]);
      b.src.mmu->depart(small);
      b.src.mmu->depart(lossy);
      j["s4"] = b.snapshot();
    });
    sc_core::sc_start(ps(1500 * kUs));
    b.mmu.finish(1500 * kUs);
    j["headroom_mean"] = b.mmu.occupancy().headroom.mean();
    j["headroom_max"] = b.mmu.occupancy().headroom.max();
    for (const auto& e : b.pfc.got)
      j["pfc"].push_back({{"t", e.t}, {"port", e.port}, {"prio", e.prio}, {"e", admission::to_string(e.e)}});
    return j.dump();
  }));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.at("admit_big"), json({true, true, true, true, true, true, true}));
  EXPECT_EQ(j.at("admit_lossy"), true);
  const json& s1 = j.at("s1");
  EXPECT_EQ(s1.at("lossless"), 28'672 * 256);
  EXPECT_EQ(s1.at("lossy"), 4 * 256);
  EXPECT_EQ(s1.at("headroom"), 0);
  EXPECT_EQ(s1.at("total"), (28'672 + 4) * 256);
  EXPECT_EQ(s1.at("buffered"), 8);

  EXPECT_EQ(j.at("admit_small"), true);
  EXPECT_EQ(j.at("small_headroom"), true);
  const json& s2 = j.at("s2");
  EXPECT_EQ(s2.at("headroom"), 100 * 256);
  EXPECT_EQ(s2.at("lossless"), 28'672 * 256);
  EXPECT_EQ(s2.at("total"), (28'672 + 4 + 100) * 256);
  EXPECT_EQ(s2.at("admitted_headroom"), 1);
  // Class bytes add up to the buffer total.
  EXPECT_EQ(s2.at("lossless").get<uint64_t>() + s2.at("lossy").get<uint64_t>() + s2.at("headroom").get<uint64_t>(),
            s2.at("total").get<uint64_t>());

  const json& s3 = j.at("s3");
  EXPECT_EQ(s3.at("headroom"), 0);
  EXPECT_EQ(s3.at("hdrm_1_3"), 0);
  EXPECT_EQ(s3.at("ing_1_3"), 28'672 - 3'996);
  EXPECT_EQ(s3.at("lossless"), (28'672 - 3'996) * 256);
  EXPECT_EQ(s3.at("total"), (28'672 - 3'996 + 4) * 256);

  const json& s4 = j.at("s4");
  for (const char* k : {"lossless", "lossy", "headroom", "total", "core_total_cells", "ing_1_3", "egr_0_3", "buffered"})
    EXPECT_EQ(s4.at(k), 0) << k;
  EXPECT_EQ(s4.at("admitted"), 9);

  // XOFF with the headroom admission, XON when headroom emptied and s + xon_offset (10
  // cells) <= threshold (57,344 - 24,676).
  const json& pfc = j.at("pfc");
  ASSERT_EQ(pfc.size(), 2u) << pfc.dump();
  EXPECT_EQ(pfc[0], json({{"t", 300 * kUs}, {"port", 1}, {"prio", 3}, {"e", "xoff"}}));
  EXPECT_EQ(pfc[1], json({{"t", 400 * kUs}, {"port", 1}, {"prio", 3}, {"e", "xon"}}));

  // Headroom held 25,600 B for 100 us of the 1400 us window: mean 25,600 / 14.
  EXPECT_NEAR(j.at("headroom_mean").get<double>(), 25'600.0 / 14.0, 1e-6);
  EXPECT_EQ(j.at("headroom_max"), 25'600);
}

TEST(Mmu, DepartureOfAPacketNeverAdmittedStopsTheModel) {
  const ChildResult r = run_in_child([] {
    MmuBench b;
    b.src.at(200 * kUs, [&] { b.src.mmu->depart(MmuBench::pkt(1, 0, 3, 6)); });
    sc_core::sc_start(ps(1500 * kUs));
    return std::string("simulation finished");
  });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.text.find("SystemC error"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("departure of a packet in_port=1 out_port=0 prio=3 cells=6"), std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("counter underflow: ingress queue"), std::string::npos) << r.text;
}

TEST(Mmu, DepartureToTheWrongEgressQueueNamesThatCounter) {
  const ChildResult r = run_in_child([] {
    MmuBench b;
    Packet p = MmuBench::pkt(1, 0, 1, 6);
    b.src.at(200 * kUs, [&] {
      if (!b.src.mmu->admit(p)) throw std::runtime_error("not admitted");
      p.out_port = 2;  // as if the egress port departed it from another queue
      b.src.mmu->depart(p);
    });
    sc_core::sc_start(ps(1500 * kUs));
    return std::string("simulation finished");
  });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.text.find("counter underflow: egress queue"), std::string::npos) << r.text;
}

}  // namespace
}  // namespace mmusim
