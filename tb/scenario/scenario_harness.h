#pragma once
// Runs the mmusim binary on a scenario and returns its summary.json; every run is
// checked for packet conservation.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mmusim::test {

inline nlohmann::json load_default() {
  std::ifstream in(std::string(MMUSIM_SOURCE_DIR) + "/scenarios/default.json");
  return nlohmann::json::parse(in);
}

inline std::string temp_dir() {
  char tmpl[] = "/tmp/mmusim-test-XXXXXX";
  const char* d = mkdtemp(tmpl);
  if (!d) throw std::runtime_error("mkdtemp failed");
  return d;
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct RunResult {
  int status = -1;
  std::string output;
  nlohmann::json summary;
  std::string dir;
};

// Runs `mmusim run` on `scenario` with extra arguments; outputs kept in result.dir.
inline RunResult run_mmusim(const nlohmann::json& scenario, const std::string& args = "") {
  RunResult r;
  r.dir = temp_dir();
  const std::string file = r.dir + "/scenario.json";
  std::ofstream(file) << scenario.dump(1);
  // MMUSIM_TEST_RUN_ARGS: arguments added to every run (docs/validation.md runs the
  // closed-form tests with --set admission.thresholds.zero_latency=true this way).
  const char* extra = std::getenv("MMUSIM_TEST_RUN_ARGS");
  const std::string cmd = std::string(MMUSIM_BIN) + " run " + file + " --quiet --out " + r.dir + "/out " + args +
                          (extra ? std::string(" ") + extra : std::string()) + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  if (r.status == 0) r.summary = nlohmann::json::parse(slurp(r.dir + "/out/summary.json"));
  return r;
}


// SONiC port names of the first n ports, comma-separated (a CONFIG_DB key).
inline std::string port_list(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? ",Ethernet" : "Ethernet") + std::to_string(4 * i);
  return s;
}

// SONiC tables after the operator heuristics of reverie §2.2.2: lossless controlled at
// ingress (dynamic_th), lossy at egress (dynamic_th), the other side effectively infinite.
inline nlohmann::json sonic_buffer(int ports, uint64_t buffer, uint64_t ingress_pool, const nlohmann::json& xoff_pool,
                  uint64_t egress_lossy_pool, int th_lossless, int th_lossy, const nlohmann::json& pg_xoff) {
  nlohmann::json pool_in = {{"size", std::to_string(ingress_pool)}, {"type", "ingress"}, {"mode", "dynamic"}};
  if (!xoff_pool.is_null()) pool_in["xoff"] = xoff_pool;
  nlohmann::json pg = {{"pool", "ingress_pool"}, {"size", "0"}, {"dynamic_th", th_lossless}, {"xon_offset", "2496"}};
  if (!pg_xoff.is_null()) pg["xoff"] = pg_xoff;
  const std::string all = port_list(ports);
  return {
      {"BUFFER_POOL",
       {{"ingress_pool", pool_in},
        {"egress_lossless_pool", {{"size", std::to_string(buffer)}, {"type", "egress"}, {"mode", "static"}}},
        {"egress_lossy_pool", {{"size", std::to_string(egress_lossy_pool)}, {"type", "egress"}}}}},
      {"BUFFER_PROFILE",
       {{"ingress_lossless_profile", pg},
        {"ingress_lossy_profile", {{"pool", "ingress_pool"}, {"static_th", std::to_string(buffer)}}},
        {"egress_lossless_profile", {{"pool", "egress_lossless_pool"}, {"static_th", std::to_string(buffer)}}},
        {"egress_lossy_profile", {{"pool", "egress_lossy_pool"}, {"size", "0"}, {"dynamic_th", th_lossy}}}}},
      {"PORT_QOS_MAP", {{all, {{"pfc_enable", "3"}}}}},
  };
}

inline nlohmann::json base_scenario(int ports, double duration_us) {
  nlohmann::json s = load_default();
  s["name"] = "test";
  s["duration_us"] = duration_us;
  s["measure"] = {{"start_us", 0}, {"end_us", duration_us}};
  s["topology"]["ports"] = ports;
  s["mmu"]["pipelines"] = 1;
  s["output"]["sample_interval_ns"] = 10000;
  s["traffic"] = nlohmann::json::array();
  return s;
}

// All-lossy switch (no PFC) with a DT (alpha = 1) egress pool of `buffer` bytes, 40 Gb/s
// links of 1 us (the Smart-Pause slides' setup).
inline nlohmann::json lossy_scenario(int ports, uint64_t buffer, double duration_us) {
  nlohmann::json s = base_scenario(ports, duration_us);
  s["topology"] = {{"ports", ports}, {"rate_gbps", 40}, {"link_delay_ns", 1000}};
  s["mmu"] = {{"buffer_bytes", buffer}, {"cell_bytes", 256}, {"clock_mhz", 1000}, {"pipeline_latency_cycles", 4}};
  const std::string b = std::to_string(buffer);
  s["buffer"] = {
      {"BUFFER_POOL",
       {{"ingress_pool", {{"size", b}, {"type", "ingress"}}}, {"egress_lossy_pool", {{"size", b}, {"type", "egress"}}}}},
      {"BUFFER_PROFILE",
       {{"ingress_lossy_profile", {{"pool", "ingress_pool"}, {"static_th", b}}},
        {"egress_lossy_profile", {{"pool", "egress_lossy_pool"}, {"size", "0"}, {"dynamic_th", 0}}}}},
      {"PORT_QOS_MAP", {{port_list(ports), {{"pfc_enable", ""}}}}}};
  return s;
}

// sw0 (h0, h1, sw1) -- sw1 (sw0, h2, h3), 100 Gb/s, 1 us links.
inline nlohmann::json two_switch_topology() {
  return {{"switches", {{{"name", "sw0"}, {"ports", 3}}, {{"name", "sw1"}, {"ports", 3}}}},
          {"hosts", {{{"name", "h0"}}, {{"name", "h1"}}, {{"name", "h2"}}, {{"name", "h3"}}}},
          {"links",
           {{{"a", "sw0:0"}, {"b", "h0"}},
            {{"a", "sw0:1"}, {"b", "h1"}},
            {{"a", "sw0:2"}, {"b", "sw1:0"}},
            {{"a", "sw1:1"}, {"b", "h2"}},
            {{"a", "sw1:2"}, {"b", "h3"}}}},
          {"rate_gbps", 100},
          {"link_delay_ns", 1000}};
}

// dscp 24 -> TC3 (lossless), dscp 8 -> TC1 (lossy) with the class-selector map.
inline nlohmann::json constant(const std::string& src, const nlohmann::json& dst, int dscp) {
  return {{"type", "constant"}, {"src", src}, {"dst", dst}, {"dscp", dscp}};
}


// PFC frames in a model pcap (little-endian, ns): time, sending switch and port (source MAC
// 02:SS:SS:SS:PP:PP), and whether any enabled class has non-zero quanta.
struct PcapPfc {
  double t_ns;
  uint32_t sw, port;
  bool pause;
};

inline std::vector<PcapPfc> read_pfc_pcap(const std::string& path) {
  std::vector<PcapPfc> out;
  const std::string d = slurp(path);
  auto u8 = [&](size_t o) { return uint32_t(uint8_t(d[o])); };
  auto le32 = [&](size_t o) { return u8(o) | u8(o + 1) << 8 | u8(o + 2) << 16 | u8(o + 3) << 24; };
  if (d.size() < 24 || le32(0) != 0xa1b23c4du) {
    ADD_FAILURE() << path << ": not a little-endian nanosecond pcap";
    return out;
  }
  for (size_t o = 24; o + 16 <= d.size();) {
    const size_t len = le32(o + 8), f = o + 16;
    if (f + len > d.size() || len < 34) break;
    bool pause = false;
    const uint32_t enable = u8(f + 16) << 8 | u8(f + 17);
    for (size_t i = 0; i < 8; ++i)
      if ((enable >> i & 1) && (u8(f + 18 + 2 * i) << 8 | u8(f + 19 + 2 * i)) != 0) pause = true;
    out.push_back({double(le32(o)) * 1e9 + double(le32(o + 4)), u8(f + 7) << 16 | u8(f + 8) << 8 | u8(f + 9),
                   u8(f + 10) << 8 | u8(f + 11), pause});
    o = f + len;
  }
  return out;
}

inline void expect_conservation(const nlohmann::json& s) {
  const auto& p = s["packets"];
  EXPECT_EQ(p["injected"].get<uint64_t>(),
            p["delivered"].get<uint64_t>() + p["dropped"].get<uint64_t>() + p["buffered_at_end"].get<uint64_t>())
      << p.dump();
}

// Runs, requires success, checks conservation, cleans up.
inline nlohmann::json simulate(const nlohmann::json& scenario, const std::string& args = "") {
  RunResult r = run_mmusim(scenario, args);
  EXPECT_EQ(r.status, 0) << r.output;
  if (r.status != 0) return {};
  expect_conservation(r.summary);
  std::filesystem::remove_all(r.dir);
  return r.summary;
}

}  // namespace mmusim::test
