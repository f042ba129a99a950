// Multi-switch topologies: strict validation of topology.{switches,hosts,links} and
// topology.generator through the real binary, routes and ECMP (spread over spines,
// per-flow, seeded, deterministic), packet conservation and hop accounting across a
// leaf-spine, PFC crossing a switch-switch link (congestion spreading), and the
// collateral-damage unit of dsh-icdcs23 Fig. 13.
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "config/scenario.h"
#include "config/topology.h"
#include "scenario_harness.h"

using nlohmann::json;
using namespace mmusim::test;

namespace {

constexpr uint64_t kMiB = 1ull << 20;

// A graph scenario on the default's MMU with the SONiC tables of scenario_harness.h over
// `largest` ports (TC3 lossless, dscp 24).
json graph_scenario(const json& topology, int largest, double duration_us) {
  json s = base_scenario(largest, duration_us);
  s["topology"] = topology;
  s["buffer"] = sonic_buffer(largest, 16 * kMiB, 14 * kMiB, std::to_string(2 * kMiB), 14 * kMiB, 0, 0, nullptr);
  return s;
}

// Runs a scenario expected to be rejected: exit 1, every needle in the message, no crash.
void expect_rejected(const json& s, std::initializer_list<std::string> needles) {
  const RunResult r = run_mmusim(s);
  SCOPED_TRACE(r.output);
  EXPECT_EQ(r.status, 1);
  for (const char* crash : {"terminate called", "Segmentation", "Aborted", "core dumped"})
    EXPECT_EQ(r.output.find(crash), std::string::npos) << crash;
  for (const auto& n : needles) EXPECT_NE(r.output.find(n), std::string::npos) << "missing: " << n;
  std::filesystem::remove_all(r.dir);
}

json valid_two_switch_scenario() {
  json s = graph_scenario(two_switch_topology(), 3, 50);
  s["traffic"].push_back(constant("h0", "h2", 24));
  return s;
}

// flows.csv rows as column -> value maps.
std::vector<std::map<std::string, std::string>> read_flows(const std::string& path) {
  std::vector<std::map<std::string, std::string>> rows;
  std::stringstream in(slurp(path));
  std::string line;
  std::vector<std::string> cols;
  auto split = [](const std::string& l) {
    std::vector<std::string> v;
    std::stringstream ss(l);
    std::string c;
    while (std::getline(ss, c, ',')) v.push_back(c);
    if (!l.empty() && l.back() == ',') v.push_back("");
    return v;
  };
  std::getline(in, line);
  cols = split(line);
  while (std::getline(in, line)) {
    const auto v = split(line);
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < cols.size() && i < v.size(); ++i) row[cols[i]] = v[i];
    rows.push_back(row);
  }
  return rows;
}

uint32_t parse_ip(const std::string& s) {
  unsigned a, b, c, d;
  std::sscanf(s.c_str(), "%u.%u.%u.%u", &a, &b, &c, &d);
  return a << 24 | b << 16 | c << 8 | d;
}

}  // namespace

// ---- validation (exit 1, message names the field) -------------------------------------

TEST(TopologyValidation, ValidGraphRunsAndChecks) {
  const json s = valid_two_switch_scenario();
  const json sum = simulate(s);
  ASSERT_FALSE(sum.is_null());
  ASSERT_EQ(sum["switches"].size(), 2u);
  EXPECT_EQ(sum["switches"][0]["name"], "sw0");
  EXPECT_EQ(sum["switches"][1]["name"], "sw1");
  EXPECT_GT(sum["packets"]["delivered"].get<uint64_t>(), 0u);
}

TEST(TopologyValidation, UnknownKeys) {
  json s = valid_two_switch_scenario();
  s["topology"]["links"][0]["speed"] = 100;
  expect_rejected(s, {"topology.links[0].speed: unknown key"});
  s = valid_two_switch_scenario();
  s["topology"]["switches"][1]["vendor"] = "x";
  expect_rejected(s, {"topology.switches[1].vendor: unknown key"});
  s = valid_two_switch_scenario();
  s["topology"]["hosts"][0]["ip"] = "10.0.0.1";
  expect_rejected(s, {"topology.hosts[0].ip: unknown key"});
  s = valid_two_switch_scenario();
  s["topology"]["ports"] = 4;
  expect_rejected(s, {"topology.ports", "single-switch form"});
}

TEST(TopologyValidation, DanglingEnds) {
  json s = valid_two_switch_scenario();
  s["topology"]["links"][2]["b"] = "sw9:0";
  expect_rejected(s, {"topology.links[2].b", "unknown switch 'sw9'"});
  s = valid_two_switch_scenario();
  s["topology"]["links"][1]["b"] = "h7";
  expect_rejected(s, {"topology.links[1].b", "unknown host 'h7'"});
  s = valid_two_switch_scenario();
  s["topology"]["links"][0]["a"] = "sw0:3";
  expect_rejected(s, {"topology.links[0].a", "port 3 out of range (sw0 has 3 ports)"});
  s = valid_two_switch_scenario();
  s["topology"]["links"][0]["a"] = "sw0:x";
  expect_rejected(s, {"topology.links[0].a", "port must be a number"});
}

TEST(TopologyValidation, DuplicateEnds) {
  json s = valid_two_switch_scenario();
  s["topology"]["links"][1]["a"] = "sw0:0";
  expect_rejected(s, {"topology.links[1].a", "'sw0:0' is already connected by topology.links[0]"});
  s = valid_two_switch_scenario();
  s["topology"]["links"][3]["b"] = "h2";
  s["topology"]["links"][4]["b"] = "h2";
  expect_rejected(s, {"topology.links[4].b", "already connected"});
  s = valid_two_switch_scenario();
  s["topology"]["links"][2]["b"] = "sw0:1";
  expect_rejected(s, {"topology.links[2].b"});
  s = valid_two_switch_scenario();
  s["topology"]["links"][0] = {{"a", "h0"}, {"b", "h1"}};
  expect_rejected(s, {"topology.links[0]", "links two hosts"});
}

TEST(TopologyValidation, UnconnectedPortsAndHosts) {
  json s = valid_two_switch_scenario();
  s["topology"]["switches"][1]["ports"] = 4;
  expect_rejected(s, {"topology.switches[1].ports", "port 3 (Ethernet12) of 'sw1' is not connected"});
  s = valid_two_switch_scenario();
  s["topology"]["hosts"].push_back({{"name", "h4"}});
  expect_rejected(s, {"topology.hosts[4]", "host 'h4' has no link"});
  // Two islands: sw0 with h0, h1 and sw1 with h2, h3, but no sw0-sw1 link.
  s = valid_two_switch_scenario();
  s["topology"]["switches"][0]["ports"] = 2;
  s["topology"]["switches"][1]["ports"] = 2;
  s["topology"]["links"] = {{{"a", "sw0:0"}, {"b", "h0"}}, {{"a", "sw0:1"}, {"b", "h1"}},
                            {{"a", "sw1:0"}, {"b", "h2"}}, {{"a", "sw1:1"}, {"b", "h3"}}};
  expect_rejected(s, {"topology.links", "switch 'sw1' is not connected to 'sw0'"});
}

TEST(TopologyValidation, NamesRatesGeneratorsTrafficAndTables) {
  json s = valid_two_switch_scenario();
  s["topology"]["hosts"][1]["name"] = "sw0";
  expect_rejected(s, {"topology.hosts[1].name", "'sw0' already names topology.switches[0].name"});
  s = valid_two_switch_scenario();
  s["topology"]["switches"][0]["name"] = "sw 0";
  expect_rejected(s, {"topology.switches[0].name", "letters, digits or _"});
  s = valid_two_switch_scenario();
  s["topology"].erase("rate_gbps");
  expect_rejected(s, {"topology.links[0].rate_gbps: required field is missing"});
  s = valid_two_switch_scenario();
  s["topology"]["links"][2]["rate_gbps"] = -1;
  expect_rejected(s, {"topology.links[2].rate_gbps"});
  s = valid_two_switch_scenario();
  s["topology"] = {{"generator", {{"type", "torus"}, {"link_delay_ns", 100}}}};
  expect_rejected(s, {"topology.generator.type", "unknown topology generator 'torus'"});
  s = valid_two_switch_scenario();
  s["topology"] = {{"generator",
                    {{"type", "leaf_spine"}, {"leaves", 0}, {"spines", 2}, {"hosts_per_leaf", 2},
                     {"host_rate_gbps", 100}, {"link_delay_ns", 100}}}};
  expect_rejected(s, {"topology.generator.leaves", "must be in [1, 256]"});
  s = valid_two_switch_scenario();
  s["topology"]["generator"] = {{"type", "bfc_testbed"}, {"senders_per_group", 1}, {"rate_gbps", 100},
                                {"link_delay_ns", 100}};
  expect_rejected(s, {"topology.switches", "not allowed with generator"});
  s = valid_two_switch_scenario();
  s["traffic"][0]["dst"] = "r9";
  expect_rejected(s, {"traffic[0].dst", "unknown host 'r9'"});
  // SONiC keys may name ports of any switch, but not ports no switch has.
  s = valid_two_switch_scenario();
  s["buffer"]["PORT_QOS_MAP"] = {{"Ethernet0,Ethernet12", {{"pfc_enable", "3"}}}};
  expect_rejected(s, {"buffer.PORT_QOS_MAP.Ethernet0,Ethernet12", "unknown port 'Ethernet12'"});
}

TEST(TopologyValidation, ShippedScenariosCheckOk) {
  for (const char* f : {"leaf_spine", "bfc_testbed", "dsh_collateral", "incast_cascade"}) {
    const std::string path = std::string(MMUSIM_SOURCE_DIR) + "/scenarios/" + f + ".json";
    FILE* p = popen((std::string(MMUSIM_BIN) + " check " + path + " 2>&1").c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;  // warnings (config/headroom.h) come first, on stderr
    char buf[512];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int st = pclose(p);
    EXPECT_EQ(WEXITSTATUS(st), 0) << out;
    EXPECT_NE(out.find("ok ("), std::string::npos) << out;
    EXPECT_NE(out.find("switches"), std::string::npos) << out;
  }
}

// ---- routes and ECMP -----------------------------------------------------------------

TEST(TopologyRoutes, LeafSpineShortestPathsAndEcmpSets) {
  json s = graph_scenario({{"generator",
                            {{"type", "leaf_spine"}, {"leaves", 3}, {"spines", 4}, {"hosts_per_leaf", 2},
                             {"host_rate_gbps", 100}, {"link_delay_ns", 500}}}},
                          6, 10);
  const mmusim::Scenario sc = mmusim::load_scenario(s, "test");
  ASSERT_EQ(sc.net.switches.size(), 7u);  // leaf0-2, spine0-3
  const mmusim::Routes r = mmusim::compute_routes(sc.net);
  // leaf0 -> h0 (own port 0); leaf0 -> h2 (on leaf1): the four uplinks, ports 2..5.
  EXPECT_EQ(r[0][0], (std::vector<uint16_t>{0}));
  EXPECT_EQ(r[0][2], (std::vector<uint16_t>{2, 3, 4, 5}));
  // spine1 -> h5 (leaf2): its port 2 only.
  EXPECT_EQ(r[4][5], (std::vector<uint16_t>{2}));
  // Oversubscription sets the uplink rate: 2 x 100G over 4 uplinks at 2:1 -> 25G.
  s["topology"]["generator"]["oversubscription"] = 2;
  const mmusim::Scenario sc2 = mmusim::load_scenario(s, "test");
  EXPECT_EQ(sc2.net.switches[0].ports[2].rate_bps, 25'000'000'000ull);
  EXPECT_EQ(sc2.net.switches[0].ports[0].rate_bps, 100'000'000'000ull);
}

TEST(TopologyRoutes, PaperGeneratorsHaveThePapersShapes) {
  // bfc-nsdi22 Fig. 6 with 2 senders per group: sw1 {h0-h3, ->sw2}, sw3 {h4, h5, ->sw2}, sw2 {sw1, sw3, h6, h7}.
  json s = graph_scenario({{"generator", {{"type", "bfc_testbed"}, {"senders_per_group", 2}, {"rate_gbps", 100},
                                          {"link_delay_ns", 1000}}}},
                          5, 10);
  mmusim::Scenario sc = mmusim::load_scenario(s, "test");
  ASSERT_EQ(sc.net.switches.size(), 3u);
  EXPECT_EQ(sc.net.switches[0].name, "sw1");
  EXPECT_EQ(sc.net.switches[0].ports.size(), 5u);
  EXPECT_EQ(sc.net.switches[1].ports.size(), 4u);
  EXPECT_EQ(sc.net.switches[2].ports.size(), 3u);
  mmusim::Routes r = mmusim::compute_routes(sc.net);
  EXPECT_EQ(r[0][7], (std::vector<uint16_t>{4}));  // group 2 -> receiver 2 leaves sw1 toward sw2
  EXPECT_EQ(r[2][7], (std::vector<uint16_t>{2}));  // group 3 likewise from sw3
  EXPECT_EQ(r[1][6], (std::vector<uint16_t>{2}));  // sw2 serves receiver 1 on port 2
  EXPECT_EQ(r[1][7], (std::vector<uint16_t>{3}));
  EXPECT_EQ(r[1][4], (std::vector<uint16_t>{1}));  // and reaches group 3 back through sw3
  // dsh-icdcs23 Fig. 13a: F0 (h0 -> R0 = h26) crosses S0 -> S1, then S1 port 1.
  s = graph_scenario({{"generator", {{"type", "dsh_collateral"}, {"rate_gbps", 100}, {"link_delay_ns", 2000}}}}, 27, 10);
  sc = mmusim::load_scenario(s, "test");
  r = mmusim::compute_routes(sc.net);
  ASSERT_EQ(sc.hosts(), 28u);
  EXPECT_EQ(r[0][26], (std::vector<uint16_t>{2}));
  EXPECT_EQ(r[1][26], (std::vector<uint16_t>{1}));
  EXPECT_EQ(r[1][27], (std::vector<uint16_t>{2}));
  EXPECT_EQ(r[1][2], (std::vector<uint16_t>{3}));
  // buffer-bandwidth Fig. 5 with k = [3, 2]: 2 stage-1 switches of 3 inputs, 1 stage-2 switch
  // of 2 inputs; 6 sources and the receiver h6.
  s = graph_scenario({{"generator", {{"type", "incast_cascade"}, {"stages", {3, 2}}, {"rate_gbps", 40}, {"link_delay_ns", 10}}}},
                     4, 10);
  sc = mmusim::load_scenario(s, "test");
  ASSERT_EQ(sc.net.switches.size(), 3u);
  EXPECT_EQ(sc.net.switches[2].name, "st2_0");
  EXPECT_EQ(sc.net.switches[0].ports.size(), 4u);
  EXPECT_EQ(sc.net.switches[2].ports.size(), 3u);
  EXPECT_EQ(sc.net.hosts[4].sw, 1u);  // h4 = source 4 -> st1_1 input 1
  EXPECT_EQ(sc.net.hosts[4].port, 1u);
  r = mmusim::compute_routes(sc.net);
  EXPECT_EQ(r[1][6], (std::vector<uint16_t>{3}));
  EXPECT_EQ(r[2][6], (std::vector<uint16_t>{2}));
  EXPECT_EQ(sc.net.switches[1].ports[3].peer, 2u);  // st1_1's output is st2_0 input 1
  EXPECT_EQ(sc.net.switches[1].ports[3].peer_port, 1u);
}

namespace {

// 2 leaves x 4 spines x 8 hosts; 256 flows of 10 frames from leaf0's hosts to leaf1's.
json ecmp_scenario(uint64_t seed) {
  json s = graph_scenario({{"generator",
                            {{"type", "leaf_spine"}, {"leaves", 2}, {"spines", 4}, {"hosts_per_leaf", 8},
                             {"host_rate_gbps", 100}, {"link_delay_ns", 500}}}},
                          12, 200);
  s["seed"] = seed;
  for (int k = 0; k < 8; ++k)
    s["traffic"].push_back({{"type", "incast"}, {"name", "to_h" + std::to_string(8 + k)}, {"senders", "h0-h7"},
                            {"receiver", "h" + std::to_string(8 + k)}, {"dscp", 24}, {"burst_bytes", 15000},
                            {"start_us", 1 + k}, {"period_us", 20}, {"count", 4}});
  return s;
}

}  // namespace

TEST(TopologyEcmp, SpreadsFlowsOverSpinesPerFlowAsPredictedAndSeeded) {
  std::vector<uint64_t> by_seed[2];
  for (uint64_t seed : {1, 2}) {
    const json s = ecmp_scenario(seed);
    const mmusim::Scenario sc = mmusim::load_scenario(s, "test");
    const mmusim::Routes routes = mmusim::compute_routes(sc.net);
    RunResult r = run_mmusim(s);
    ASSERT_EQ(r.status, 0) << r.output;
    expect_conservation(r.summary);
    // Prediction from the 5-tuples in flows.csv and the hash: leaf0 (switch 0) picks an uplink.
    std::vector<uint64_t> predicted(4, 0), measured(4, 0), flows(4, 0);
    const auto rows = read_flows(r.dir + "/out/flows.csv");
    ASSERT_EQ(rows.size(), 256u);
    for (const auto& f : rows) {
      const uint32_t dst = uint32_t(std::stoul(f.at("dst").substr(1)));
      const auto& hops = routes[0][dst];
      ASSERT_EQ(hops.size(), 4u);
      const uint32_t k = mmusim::ecmp_pick(seed, 0, parse_ip(f.at("src_ip")), parse_ip(f.at("dst_ip")),
                                           uint16_t(std::stoul(f.at("src_port"))),
                                           uint16_t(std::stoul(f.at("dst_port"))), uint8_t(std::stoul(f.at("proto"))), 4);
      const uint32_t spine = hops[k] - 8u;  // uplink port 8 + s goes to spine s
      predicted[spine] += std::stoull(f.at("packets"));
      ++flows[spine];
    }
    for (int sp = 0; sp < 4; ++sp) measured[size_t(sp)] = r.summary["switches"][2 + sp]["packets"]["received"];
    std::printf("seed %llu: spine packets %llu %llu %llu %llu (flows %llu %llu %llu %llu)\n", (unsigned long long)seed,
                (unsigned long long)measured[0], (unsigned long long)measured[1], (unsigned long long)measured[2],
                (unsigned long long)measured[3], (unsigned long long)flows[0], (unsigned long long)flows[1],
                (unsigned long long)flows[2], (unsigned long long)flows[3]);
    EXPECT_EQ(measured, predicted);  // every frame of a flow took its hashed spine
    for (int sp = 0; sp < 4; ++sp) {
      EXPECT_EQ(measured[size_t(sp)] % 10, 0u) << "a flow was split across spines";
      EXPECT_GE(flows[size_t(sp)], 256u / 8) << "spine " << sp << " got under half its 1/4 share";
    }
    by_seed[seed - 1] = flows;
    std::filesystem::remove_all(r.dir);
  }
  EXPECT_NE(by_seed[0], by_seed[1]) << "the ECMP hash ignores the scenario seed";
}

TEST(TopologyEcmp, SameSeedGivesByteIdenticalOutputs) {
  const json s = ecmp_scenario(7);
  RunResult a = run_mmusim(s), b = run_mmusim(s);
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  EXPECT_EQ(slurp(a.dir + "/out/flows.csv"), slurp(b.dir + "/out/flows.csv"));
  for (const char* sw : {"leaf0", "leaf1", "spine0", "spine3"})
    EXPECT_EQ(slurp(a.dir + "/out/timeseries_" + sw + ".csv"), slurp(b.dir + "/out/timeseries_" + sw + ".csv"));
  a.summary.erase("wall_time_s");
  b.summary.erase("wall_time_s");
  EXPECT_EQ(a.summary.dump(), b.summary.dump());
  std::filesystem::remove_all(a.dir);
  std::filesystem::remove_all(b.dir);
}

// ---- conservation ----------------------------------------------------------------------

TEST(TopologyConservation, LeafSpineEveryFrameAccountedAndHopsMatchPaths) {
  // 3 leaves x 2 spines x 4 hosts, 2:1 oversubscribed; Poisson all-to-all plus an incast
  // into h0, traffic stops at 300 us and the run drains by 1500 us.
  json s = graph_scenario({{"generator",
                            {{"type", "leaf_spine"}, {"leaves", 3}, {"spines", 2}, {"hosts_per_leaf", 4},
                             {"host_rate_gbps", 100}, {"oversubscription", 2}, {"link_delay_ns", 1000}}}},
                          6, 1500);
  // alpha = 1/64 on the lossless PGs (about 220 KB each), so the incast needs PFC.
  s["buffer"] = sonic_buffer(6, 16 * kMiB, 14 * kMiB, std::to_string(2 * kMiB), 14 * kMiB, -6, 0, nullptr);
  s["traffic"].push_back({{"type", "poisson"}, {"name", "all"}, {"srcs", "h0-h11"}, {"dsts", "h0-h11"},
                          {"dscp", 24}, {"load", 0.5}, {"stop_us", 300},
                          {"size", {{"dist", "exponential"}, {"mean_bytes", 40000}}}});
  s["traffic"].push_back({{"type", "incast"}, {"name", "incast"}, {"senders", "h4-h11"}, {"receiver", "h0"},
                          {"dscp", 24}, {"burst_bytes", 400000}, {"start_us", 100}});
  RunResult r = run_mmusim(s);
  ASSERT_EQ(r.status, 0) << r.output;
  const json& sum = r.summary;
  expect_conservation(sum);
  const uint64_t injected = sum["packets"]["injected"];
  EXPECT_GT(injected, 10000u);
  EXPECT_EQ(sum["packets"]["delivered"].get<uint64_t>(), injected);  // lossless and drained
  EXPECT_EQ(sum["packets"]["buffered_at_end"], 0);
  EXPECT_EQ(sum["drops"]["lossless"], 0);
  EXPECT_GT(sum["pfc"]["pause_frames"].get<uint64_t>(), 0u) << "the incast should have needed PFC";
  // A frame from host a to host b crosses 2 links on one leaf, 4 across the spines.
  uint64_t links = 0, switch_rx = 0;
  for (const auto& f : read_flows(r.dir + "/out/flows.csv")) {
    const int a = std::stoi(f.at("src").substr(1)), b = std::stoi(f.at("dst").substr(1));
    const uint64_t n = std::stoull(f.at("packets"));
    links += n * (a / 4 == b / 4 ? 2 : 4);
  }
  uint64_t sw_total = 0;
  for (const auto& sw : sum["switches"]) {
    const auto& p = sw["packets"];
    EXPECT_EQ(p["received"].get<uint64_t>(), p["admitted"].get<uint64_t>() + p["dropped"].get<uint64_t>()) << sw["name"];
    EXPECT_EQ(p["transmitted"].get<uint64_t>(), p["admitted"].get<uint64_t>()) << sw["name"];
    sw_total += p["received"].get<uint64_t>();
  }
  switch_rx = links - injected;  // every link but the last ends at a switch
  EXPECT_EQ(sum["packets"]["hops"].get<uint64_t>(), links);
  EXPECT_EQ(sw_total, switch_rx);
  std::printf("leaf-spine: %llu frames, %llu link traversals, %llu PFC pause frames\n", (unsigned long long)injected,
              (unsigned long long)links, (unsigned long long)sum["pfc"]["pause_frames"].get<uint64_t>());
  std::filesystem::remove_all(r.dir);
}

// ---- PFC across a switch-switch link; dsh-icdcs23 Fig. 13 ------------------------------

namespace {

// dsh-icdcs23 Fig. 13a with the §V-A switch configuration (16 MiB, 7 lossless DWRR
// priorities, 3 KiB private per PG, alpha = 1/16, eta from Eq. 1 for 100G/2us): F0 h0 -> R0
// (h26) and F1 h1 -> R1 (h27) at 50 Gb/s; at t0 = 100 us the 24 senders h2-h25 send 64 KB
// each to R1. F0 is measured over [t0, t0 + 150 us]. No wire overhead, so F0 + F1 exactly
// fill the S0 -> S1 link.
constexpr double kT0 = 100, kF0Us = 150;

json fig13(const std::string& policy, bool fanin) {
  constexpr int kPorts = 27, kNq = 7;
  constexpr uint64_t kBuf = 16 * kMiB, kPriv = 3072, kCell = 256;
  auto cells = [](uint64_t b) { return (b + kCell - 1) / kCell * kCell; };
  const uint64_t eta = cells(mmusim::headroom_eta_bytes(100'000'000'000ull, 2'000'000ull, 1500));
  const bool dsh = policy == "dsh";
  const uint64_t headroom = uint64_t(kPorts) * (dsh ? 1 : kNq) * eta;
  const uint64_t pool = kBuf - uint64_t(kPorts) * kNq * cells(kPriv) - headroom;
  json pool_in = {{"size", std::to_string(pool)}, {"type", "ingress"}, {"mode", "dynamic"}};
  if (dsh) pool_in["xoff"] = std::to_string(headroom);
  json s = base_scenario(kPorts, 400);
  s["name"] = "dsh-fig13-" + policy;
  s["topology"] = {{"generator", {{"type", "dsh_collateral"}, {"fanin", 24}, {"rate_gbps", 100}, {"link_delay_ns", 2000}}},
                   {"wire_overhead_bytes", 0}};
  s["mmu"]["buffer_bytes"] = kBuf;
  s["admission"] = {{"policy", policy}, {"dsh", {{"port_xon_offset_bytes", 0}}}};
  s["buffer"] = {
      {"BUFFER_POOL",
       {{"ingress_pool", pool_in},
        {"egress_lossless_pool", {{"size", std::to_string(kBuf)}, {"type", "egress"}, {"mode", "static"}}},
        {"egress_lossy_pool", {{"size", std::to_string(pool)}, {"type", "egress"}}}}},
      {"BUFFER_PROFILE",
       {{"ingress_lossless_profile",
         {{"pool", "ingress_pool"}, {"size", std::to_string(kPriv)}, {"dynamic_th", -4}, {"xon", "0"}, {"xon_offset", "0"},
          {"xoff", std::to_string(eta)}}},  // the paper's eta (Eq. 1)
        {"ingress_lossy_profile", {{"pool", "ingress_pool"}, {"size", "0"}, {"static_th", std::to_string(kBuf)}}},
        {"egress_lossless_profile", {{"pool", "egress_lossless_pool"}, {"static_th", std::to_string(kBuf)}}},
        {"egress_lossy_profile", {{"pool", "egress_lossy_pool"}, {"size", "0"}, {"dynamic_th", 0}}}}},
      {"PORT_QOS_MAP", {{port_list(kPorts), {{"pfc_enable", "0-6"}}}}},
  };
  auto flow = [](const char* name, const char* src, const char* dst, double start, double stop) {
    json f = {{"type", "constant"}, {"name", name}, {"src", src}, {"dst", dst}, {"dscp", 24}, {"rate_gbps", 50},
              {"start_us", start}};
    if (stop > 0) f["stop_us"] = stop;
    return f;
  };
  s["traffic"] = {flow("F0_warmup", "h0", "h26", 0, kT0), flow("F0", "h0", "h26", kT0, kT0 + kF0Us),
                  flow("F1", "h1", "h27", 0, 0)};
  if (fanin)
    s["traffic"].push_back({{"type", "incast"}, {"name", "fanin"}, {"senders", "h2-h25"}, {"receiver", "h27"},
                            {"dscp", 24}, {"burst_bytes", 65536}, {"start_us", kT0}});
  return s;
}

struct Fig13Run {
  json summary;
  double f0_gbps = 0;
  // First PAUSE sent by switch `sw` on port `port` (-1: any port), ns; -1 if none.
  std::vector<std::array<double, 3>> pauses;  // (t_ns, switch, port)
  double first_pause(int sw, int port) const {
    for (const auto& p : pauses)
      if (int(p[1]) == sw && (port < 0 || int(p[2]) == port)) return p[0];
    return -1;
  }
};

Fig13Run run_fig13(const std::string& policy, bool fanin) {
  Fig13Run out;
  RunResult r = run_mmusim(fig13(policy, fanin), "--pcap");
  EXPECT_EQ(r.status, 0) << r.output;
  if (r.status != 0) return out;
  expect_conservation(r.summary);
  out.summary = r.summary;
  for (const auto& f : read_flows(r.dir + "/out/flows.csv"))
    if (f.at("generator") == "F0") {
      EXPECT_FALSE(f.at("fct_ns").empty()) << "F0 did not complete";
      if (!f.at("fct_ns").empty()) out.f0_gbps = std::stod(f.at("bytes")) * 8 / std::stod(f.at("fct_ns"));
    }
  for (const auto& f : read_pfc_pcap(r.dir + "/out/pfc.pcap"))
    if (f.pause) out.pauses.push_back({f.t_ns, double(f.sw), double(f.port)});
  std::filesystem::remove_all(r.dir);
  return out;
}

}  // namespace

TEST(TopologyPfc, PauseCrossesSwitchLinkAndSpreadsCongestionUpstream) {
  // SIH: S1 pauses S0's link; S0's egress toward S1 stops, its buffer grows and it pauses
  // its own senders one hop further up.
  const Fig13Run sih = run_fig13("sih", true), quiet = run_fig13("sih", false);
  ASSERT_FALSE(sih.summary.is_null());
  ASSERT_FALSE(quiet.summary.is_null());
  const json& s0 = sih.summary["switches"][0];
  const json& s1 = sih.summary["switches"][1];
  ASSERT_EQ(s0["name"], "s0");
  const double s1_to_s0 = sih.first_pause(1, 0);  // S1 port 0 faces S0
  const double s0_to_hosts = std::max(sih.first_pause(0, 0), sih.first_pause(0, 1));
  std::printf("S1 -> S0 first PAUSE at %.1f us; S0 -> H0/H1 first PAUSE at %.1f us; S0 occupancy max %.0f KB "
              "(%.0f KB without the fan-in)\n",
              s1_to_s0 / 1e3, s0_to_hosts / 1e3, s0["occupancy_bytes"]["total"]["max"].get<double>() / 1e3,
              quiet.summary["switches"][0]["occupancy_bytes"]["total"]["max"].get<double>() / 1e3);
  EXPECT_GT(s1["pfc"]["pause_frames"].get<uint64_t>(), 0u);
  ASSERT_GT(s1_to_s0, 0);
  ASSERT_GT(s0_to_hosts, 0) << "S0 never paused its senders: no congestion spreading";
  // S0 can only react after the PAUSE has crossed the 2 us link and its queue has grown.
  EXPECT_GT(s0_to_hosts, s1_to_s0 + 2000);
  EXPECT_GT(s0["occupancy_bytes"]["total"]["max"].get<double>(), 100e3);
  EXPECT_LT(quiet.summary["switches"][0]["occupancy_bytes"]["total"]["max"].get<double>(), 10e3);
  EXPECT_EQ(quiet.summary["pfc"]["pause_frames"], 0);
  EXPECT_GT(sih.summary["pfc"]["frames_received_by_hosts"].get<uint64_t>(), 0u);
  EXPECT_EQ(sih.summary["drops"]["lossless"], 0);
}

TEST(TopologyPaper, DshFig13CollateralDamage) {
  // F0 never crosses the congested port; its throughput should not depend on the fan-in.
  const Fig13Run alone = run_fig13("dsh", false), dsh = run_fig13("dsh", true), sih = run_fig13("sih", true);
  ASSERT_GT(alone.f0_gbps, 0);
  std::printf("dsh-icdcs23 Fig. 13 (F0 at 50 Gb/s, 24 x 64 KB fan-in): F0 throughput over its %.0f us: "
              "no fan-in %.1f Gb/s, DSH %.1f Gb/s (%.0f %%), SIH %.1f Gb/s (%.0f %%); "
              "paper: DSH keeps F0 at its 50 Gb/s, SIH reduces it significantly\n",
              kF0Us, alone.f0_gbps, dsh.f0_gbps, 100 * dsh.f0_gbps / alone.f0_gbps, sih.f0_gbps,
              100 * sih.f0_gbps / alone.f0_gbps);
  EXPECT_GT(alone.f0_gbps, 0.93 * 50);  // bytes / FCT: the FCT includes ~6 us of path latency
  EXPECT_GE(dsh.f0_gbps, 0.98 * alone.f0_gbps);
  EXPECT_LE(sih.f0_gbps, 0.8 * alone.f0_gbps);
  EXPECT_EQ(dsh.summary["pfc"]["pause_frames"], 0);
  EXPECT_GT(sih.summary["switches"][1]["pfc"]["pause_frames"].get<uint64_t>(), 0u);
  EXPECT_EQ(dsh.summary["drops"]["lossless"], 0);
  EXPECT_EQ(sih.summary["drops"]["lossless"], 0);
}

// A switch's own SONiC tables (topology.switches[i].buffer) replace the shared ones there
// only: a tiny static threshold on sw1 makes sw1, and no other switch, pause.
TEST(TopologyValidation, PerSwitchBufferOverride) {
  json s = valid_two_switch_scenario();
  s["duration_us"] = 100;
  // h0 (via sw0) and h3 both send to h2 at 100G: sw1 is the congestion point.
  s["traffic"] = {constant("h0", "h2", 24), constant("h3", "h2", 24)};
  const json shared = simulate(s);
  ASSERT_FALSE(shared.is_null());
  EXPECT_EQ(shared["pfc"]["pause_frames"], 0);  // alpha = 1 over 14 MiB: no PAUSE within 100 us
  json own = s["buffer"];
  own["BUFFER_PROFILE"]["ingress_lossless_profile"] = {{"pool", "ingress_pool"}, {"size", "0"}, {"static_th", "20000"}};
  s["topology"]["switches"][1]["buffer"] = own;
  const json sum = simulate(s);
  ASSERT_FALSE(sum.is_null());
  EXPECT_EQ(sum["switches"][0]["pfc"]["pause_frames"], 0);  // sw0 keeps the shared tables
  EXPECT_GT(sum["switches"][1]["pfc"]["pause_frames"].get<uint64_t>(), 0u);
  // The override must name this switch's own ports exactly.
  own["PORT_QOS_MAP"] = {{"Ethernet0,Ethernet4,Ethernet8,Ethernet12", {{"pfc_enable", "3"}}}};
  s["topology"]["switches"][1]["buffer"] = own;
  expect_rejected(s, {"switch 'sw1'", "topology.switches[1].buffer.PORT_QOS_MAP", "unknown port 'Ethernet12'"});
}

// A lone 10-frame flow h0 -> sw0 -> sw1 -> h2 (three 100 Gb/s links of 1 us): the ideal
// FCT in flows.csv is the store-and-forward sum over the routed path, by hand
// 12 x 121.6 ns (10 frames on one link, the first/last frame on the two others)
// + 2 switches x 4 cycles x 1 ns + 3 x 1000 ns = 4467.2 ns; the run takes that, up to the
// two decisions' wait for a clock edge.
TEST(TopologyIdealFct, LoneFlowAcrossTwoSwitchesTakesItsIdealTime) {
  json s = graph_scenario(two_switch_topology(), 3, 30);
  s["traffic"].push_back({{"type", "incast"}, {"name", "one"}, {"senders", "h0"}, {"receiver", "h2"},
                          {"dscp", 24}, {"burst_bytes", 15000}, {"start_us", 1}});
  ASSERT_EQ(s["mmu"].value("pipeline_latency_cycles", 4), 4);
  RunResult r = run_mmusim(s);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto rows = read_flows(r.dir + "/out/flows.csv");
  ASSERT_EQ(rows.size(), 1u);
  const double ideal = std::stod(rows[0].at("ideal_fct_ns")), fct = std::stod(rows[0].at("fct_ns"));
  std::printf("lone flow over 2 switches: FCT %.3f ns, ideal %.3f ns (hand 4467.200)\n", fct, ideal);
  EXPECT_DOUBLE_EQ(ideal, 4467.2);
  EXPECT_GE(fct, ideal);
  EXPECT_LE(fct, ideal + 2.0);
  std::filesystem::remove_all(r.dir);
}
