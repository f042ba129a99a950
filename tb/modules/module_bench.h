#pragma once
// What the module tests share: test doubles (a Script driver, a Sink, stubs for the
// admission, pause and PFC-event interfaces), frame builders, JSON views of what they
// recorded, and a small 4-port scenario whose blocks take their typed configuration from
// config/block_config.h (ingress_config(sc, 0), mmu_config(sc, 0), ...). One forked simulation per
// test (sc_fork.h).
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
#include "config/block_config.h"
#include "config/scenario.h"
#include "egress/egress_port.h"
#include "egress/pause_if.h"
#include "host/flow.h"
#include "host/generators.h"
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

namespace mmusim::modtest {


using nlohmann::json;
using test::ChildResult;
using test::run_in_child;

inline constexpr uint64_t kNs = 1000;
inline constexpr uint64_t kUs = 1000 * kNs;
inline constexpr uint64_t k100G = 100'000'000'000ull;

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
  uint64_t delay_ps = 0;  // verdict_delay_ps (a pipelined unit's), set before elaboration ends
  bool wants = true;      // wants_dequeue, set before elaboration ends
  uint64_t dequeued = 0;  // dequeue calls

  explicit AdmissionStub(sc_core::sc_module_name n) : sc_module(n), exp("exp") { exp.bind(*this); }
  bool admit(Packet& p) override {
    admitted.push_back({now_ps(), p});
    return verdict(p);
  }
  void depart(const Packet& p) override { departed.push_back({now_ps(), p}); }
  void dequeue(Packet&) override { ++dequeued; }
  bool wants_dequeue() const override { return wants; }
  uint64_t verdict_delay_ps() const override { return delay_ps; }
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

inline Packet& data_packet(PacketPool& pool, uint32_t bytes, uint8_t prio, uint32_t flow) {
  Packet* p = pool.get();
  p->bytes = bytes;
  p->prio = prio;
  p->tc = prio;  // identity class maps: TC = PG = queue
  p->flow = flow;
  return *p;
}

inline PfcFrame pfc_frame(uint8_t class_enable, uint16_t quanta) {
  PfcFrame f;
  f.class_enable = class_enable;
  for (int i = 0; i < 8; ++i)
    if (class_enable >> i & 1) f.quanta[size_t(i)] = quanta;
  return f;
}

inline Packet& pfc_packet(PacketPool& pool, uint8_t class_enable, uint16_t quanta) {
  Packet* p = pool.get();
  p->kind = Packet::Kind::kPfc;
  p->bytes = kPfcFrameBytes;
  p->pfc = pfc_frame(class_enable, quanta);
  return *p;
}

inline json packet_json(const Packet& p) {
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

inline json frames_json(const Sink& s) {
  json a = json::array();
  for (const auto& r : s.rx) {
    json q = packet_json(r.p);
    q["begin"] = r.begin_ps;
    q["last_bit"] = r.last_bit_ps;
    a.push_back(q);
  }
  return a;
}

inline json records_json(const std::vector<AdmissionStub::Rec>& v) {
  json a = json::array();
  for (const auto& r : v) {
    json q = packet_json(r.p);
    q["t"] = r.t;
    a.push_back(q);
  }
  return a;
}

inline json answer_json(const Script::Answer& a) {
  return {{"updated", a.status == tlm::TLM_UPDATED}, {"end_req", a.end_req}, {"t", a.t_ps}};
}

inline json parse_ok(const ChildResult& r) {
  EXPECT_TRUE(r.ok) << r.text;
  if (!r.ok) return json::object();
  return json::parse(r.text);
}

// A 4-port scenario shaped like scenarios/default.json. Port QoS maps:
//   Ethernet0, Ethernet4: DSCP map AZURE (3->3, 8->0, 26->1, 46->5; others class selector)
//   Ethernet8:            DOT1P map P (pcp 5 -> 2, others identity), DSCP by class selector
//   Ethernet12:           class selector only (dscp >> 3)
// Priority 3 is lossless on every port.
inline json small_scenario_json(uint32_t pipelines = 1) {
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

inline Scenario small_scenario(uint32_t pipelines = 1) { return load_scenario(small_scenario_json(pipelines), "module-test"); }


}  // namespace mmusim::modtest
