// BFC in SystemC, one forked simulation per test (sc_fork.h): an egress port upstream of a
// BFC switch obeys pauses addressed to its queue ids and stamps upstreamQ; the end-of-run
// deadlock check fires when a downstream never resumes (a peer outside the model's
// control, as in a cyclic buffer dependency, bfc-nsdi22 Appendix B).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "../scenario/scenario_harness.h"
#include "common/sim_time.h"
#include "config/scenario.h"
#include "egress/egress_port.h"
#include "mmu/admission_if.h"
#include "sc_fork.h"
#include "sim/network.h"

namespace mmusim {
namespace {

using nlohmann::json;
constexpr uint64_t kNs = 1000;
constexpr uint64_t k100G = 100'000'000'000ull;

// Runs `fn` once at time `t_ps`.
class At : public sc_core::sc_module {
 public:
  At(sc_core::sc_module_name n, uint64_t t_ps, std::function<void()> fn) : sc_module(n), m_t(t_ps), m_fn(std::move(fn)) {
    SC_HAS_PROCESS(At);
    SC_THREAD(run);
  }

 private:
  void run() {
    wait(ps(m_t));
    m_fn();
  }
  uint64_t m_t;
  std::function<void()> m_fn;
};

// Wire end: records each frame's start and upstreamQ, busy for its serialisation at 100 Gb/s.
class Wire : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Wire, 32, PacketProtocol, 1> in;
  std::vector<std::pair<uint64_t, uint16_t>> rx;  // (start ps, upstream_q)
  explicit Wire(sc_core::sc_module_name n) : sc_module(n), in("in") { in.register_nb_transport_fw(this, &Wire::fw); }

 private:
  tlm::tlm_sync_enum fw(int, Packet& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    rx.emplace_back(now_ps(), p.upstream_q);
    ph = tlm::END_REQ;
    t += ps(serialization_ps(p.bytes, k100G));
    return tlm::TLM_UPDATED;
  }
};

class AdmitAll : public sc_core::sc_module, public AdmissionIf {
 public:
  sc_core::sc_export<AdmissionIf> exp;
  explicit AdmitAll(sc_core::sc_module_name n) : sc_module(n), exp("exp") { exp.bind(*this); }
  bool admit(Packet&) override { return true; }
  void depart(const Packet&) override {}
};

class Feeder : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Feeder, 32, PacketProtocol> out;
  explicit Feeder(sc_core::sc_module_name n) : sc_module(n), out("out") {}
  void send(Packet& p) {
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->nb_transport_fw(p, ph, t);
  }
};

// Egress port with 4 BFC queues. At 0 its peer pauses queue 2; then A (queue 2) and B
// (queue 1), 1000 B each (80 ns at 100 Gb/s), arrive. B leaves at once stamped
// upstreamQ 1; A waits for the resume at 1 us and leaves then, stamped upstreamQ 2.
TEST(BfcEgress, ObeysPausePerQueueAndStampsUpstreamQ) {
  const auto r = test::run_in_child([] {
    Feeder src("src");
    EgressPort e("e", 0, k100G, 1600);
    Wire wire("wire");
    AdmitAll mmu("mmu");
    src.out.bind(e.in);
    e.to_link.bind(wire.in);
    e.mmu.bind(mmu.exp);
    e.enable_bfc(4);
    Packet a, b;
    a.bytes = b.bytes = 1000;
    a.queue = 2;
    b.queue = 1;
    BfcFrame pause, resume;
    pause.paused.set(2, true);
    At t0("t0", 0, [&] {
      e.bfc_received(pause);
      src.send(a);
      src.send(b);
    });
    At t1("t1", 1000 * kNs, [&] { e.bfc_received(resume); });
    sc_core::sc_start(ps(2000 * kNs));
    json out = json::array();
    for (const auto& [t, q] : wire.rx) out.push_back({t, q});
    return out.dump();
  });
  ASSERT_TRUE(r.ok) << r.text;
  const json rx = json::parse(r.text);
  ASSERT_EQ(rx.size(), 2u) << r.text;
  EXPECT_EQ(rx[0][0].get<uint64_t>(), 0u);  // B
  EXPECT_EQ(rx[0][1].get<int>(), 1);
  EXPECT_EQ(rx[1][0].get<uint64_t>(), 1000 * kNs);  // A, at the resume
  EXPECT_EQ(rx[1][1].get<int>(), 2);
}

// h0 -> h1 through one switch. At 0 the peer behind Ethernet4 pauses all 32 queues of
// that egress and never resumes: h0's packets pile up there, cross Th, and pause h0's NIC
// queue, whose counted packets can never leave. The run reports bfc.deadlock = 1 in
// summary.json and fails.
TEST(BfcDeadlockCheck, FiresWhenDownstreamNeverResumes) {
  const std::string dir = test::temp_dir();
  const auto r = test::run_in_child([&] {
    json j = test::base_scenario(2, 60);
    j["buffer"] = test::sonic_buffer(2, 16 * 1024 * 1024, 12 * 1024 * 1024, nullptr, 12 * 1024 * 1024, 0, 0, nullptr);
    j["bfc"] = {{"enabled", true}};
    json f = test::constant("h0", "h1", 8);
    f["stop_us"] = 10;
    j["traffic"] = json::array({f});
    const Scenario sc = load_scenario(j, "deadlock");
    Network net(sc, {dir, false, false, false});
    BfcFrame all;
    for (uint32_t q = 0; q < 32; ++q) all.paused.set(q, true);
    At stuck("stuck", 0, [&] { net.sw().egress[1]->bfc_received(all); });
    try {
      net.run();
      return std::string("run ended without error");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
  });
  ASSERT_TRUE(r.ok) << r.text;
  std::printf("deadlock run: %s\n", r.text.c_str());
  EXPECT_NE(r.text.find("bfc.deadlock: 1 upstream queue"), std::string::npos) << r.text;
  const json s = json::parse(test::slurp(dir + "/summary.json"));
  EXPECT_EQ(s["bfc"]["deadlock"].get<unsigned>(), 1u);
  EXPECT_EQ(s["bfc"]["unresolved_pauses"].get<unsigned>(), 1u);
  EXPECT_EQ(s["bfc"]["draining_pauses"].get<unsigned>(), 0u);
  EXPECT_EQ(s["bfc"]["nic_queues_paused_at_end"].get<unsigned>(), 1u);
  EXPECT_EQ(s["bfc"]["deadlocked_queues"][0]["ingress"].get<unsigned>(), 0u);
  EXPECT_EQ(s["bfc"]["resume_frames"].get<uint64_t>(), 0u);
  std::printf("pause at %.0f ns into the run, then %llu refreshes\n",
              60000 - s["bfc"]["longest_pause_ns"].get<double>(),
              (unsigned long long)s["bfc"]["refresh_frames"].get<uint64_t>());
  // The pause starts within the first 10 us, so refreshes (every 10 us) fall at +10 ... +50 us.
  EXPECT_LT(s["bfc"]["longest_pause_ns"].get<double>(), 60000);
  EXPECT_GT(s["bfc"]["longest_pause_ns"].get<double>(), 50000);
  EXPECT_EQ(s["bfc"]["refresh_frames"].get<uint64_t>(), 5u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mmusim
