// RTL lockstep soak: the golden core against the Verilated admission unit (the three
// parameter sets of tb/rtl/rtl_test_configs.h) over random configurations, random traffic
// with hazards and run-time CSR writes (rtl_soak.h), comparing decisions, PFC events and
// the whole architectural state after every operation.
//
//   rtl_soak [--seed N] [--requests N] [--variants small,mid,big,psmall,pmid,p3mid] [--out DIR] [--require-coverage]
//   rtl_soak --replay FILE
//
// Cases of 5 000 to 30 000 requests rotate over the variants and the policies dt, reverie,
// dsh, static and sih; each has its own seed drawn from the run's seed (fresh and printed when not
// given). The first mismatch prints the run seed, the case and its configuration, writes
// DIR/rtl_soak_replay_<case seed>.txt, and exits 1 (an RTL assertion aborts the process and
// leaves that file too); --replay reruns exactly that case with an FST waveform beside the
// file. Exit 2 on bad arguments. At the end a functional-coverage report (hazard, CSR,
// verdict and PFC bins, rtl_soak.h); --require-coverage fails the run (exit 1) when a bin is
// empty.
#include <chrono>
#include <iterator>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "Vmmu_big.h"
#include "Vmmu_mid.h"
#include "Vmmu_p3mid.h"
#include "Vmmu_pmid.h"
#include "Vmmu_psmall.h"
#include "Vmmu_small.h"
#include "rtl_soak.h"
#include "rtl_test_configs.h"

using namespace mmusim;

namespace {

struct Case {
  std::string variant, policy;
  uint64_t seed = 0, requests = 0;
};

struct Outcome {
  soak::Stats stats;
  bool mismatch = false;
  std::string report;
};

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr, "rtl_soak: %s\n", msg.c_str());
  std::fprintf(stderr, "usage: rtl_soak [--seed N] [--requests N] [--variants small,mid,big,psmall,pmid,p3mid] [--out DIR] "
                       "[--require-coverage]\n"
                       "       rtl_soak --replay FILE\n");
  std::exit(2);
}

uint64_t parse_u64(const std::string& what, const std::string& v) {
  try {
    if (!v.empty() && v.size() <= 20 && v.find_first_not_of("0123456789") == std::string::npos) return std::stoull(v);
  } catch (const std::out_of_range&) {
  }
  usage_error(what + " wants an integer 0..2^64-1, got '" + v + "'");
}

template <class M>
Outcome run_case(const rtl::UnitParams& p, const Case& c, const std::string& fst = "") {
  const admission::RtlParams rp{p.nports, p.nprio, p.npools, p.nprof, p.cw};
  std::mt19937_64 rng(c.seed);
  Outcome o;
  rtl::Lockstep<M> ls(testgen::random_config(rng, rp, uint8_t(p.ewma_frac), c.policy), p, fst);
  ls.set_streaming(p.pipe != 0);  // a pipelined unit: operations in consecutive cycles
  o.stats = soak::run(ls, rng, c.requests);
  o.mismatch = ls.mismatch().any;
  o.report = ls.mismatch().report;
  return o;
}

Outcome run_variant(const Case& c, const std::string& fst = "") {
  using namespace rtl::testcfg;
  if (c.variant == "small") return run_case<Vmmu_small>(kSmall, c, fst);
  if (c.variant == "mid") return run_case<Vmmu_mid>(kMid, c, fst);
  if (c.variant == "psmall") return run_case<Vmmu_psmall>(kPipeSmall, c, fst);
  if (c.variant == "pmid") return run_case<Vmmu_pmid>(kPipeMid, c, fst);
  if (c.variant == "p3mid") return run_case<Vmmu_p3mid>(kPipe3Mid, c, fst);
  return run_case<Vmmu_big>(kBig, c, fst);
}

bool known_variant(const std::string& v) {
  return v == "small" || v == "mid" || v == "big" || v == "psmall" || v == "pmid" || v == "p3mid";
}

const rtl::UnitParams& params_of(const std::string& variant) {
  using namespace rtl::testcfg;
  return variant == "small" ? kSmall : variant == "mid" ? kMid : variant == "psmall" ? kPipeSmall
         : variant == "pmid" ? kPipeMid : variant == "p3mid" ? kPipe3Mid : kBig;
}

// The case and its initial configuration (drawn first from the case seed) as register writes.
std::string describe(const Case& c) {
  const rtl::UnitParams& p = params_of(c.variant);
  const admission::RtlParams rp{p.nports, p.nprio, p.npools, p.nprof, p.cw};
  std::mt19937_64 rng(c.seed);
  const admission::CoreConfig initial = testgen::random_config(rng, rp, uint8_t(p.ewma_frac), c.policy);
  std::ostringstream s;
  s << "variant " << c.variant << "\npolicy " << c.policy << "\ncase_seed " << c.seed << "\nrequests " << c.requests
    << "\n# unit: " << p.nports << " ports x " << p.nprio << " priorities, cw " << p.cw << ", " << p.npools
    << " pools, " << p.nprof << " profiles, EWMA_FRAC " << p.ewma_frac << ", DUAL_ISSUE " << p.dual_issue << ", PIPE " << p.pipe
    << "\n# initial configuration, register writes (word address, data):\n";
  for (const auto& [a, d] : admission::encode(initial, rp)) {
    char line[64];
    std::snprintf(line, sizeof line, "# 0x%03x 0x%08x %s\n", a, d, admission::reg_name(a, rp).c_str());
    s << line;
  }
  return s.str();
}

void write_atomically(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::trunc);
    f << text;
    f.close();
    if (!f) {
      std::fprintf(stderr, "rtl_soak: cannot write %s\n", tmp.c_str());
      std::exit(2);
    }
  }
  std::filesystem::rename(tmp, path);
}

int replay(const std::string& file) {
  std::ifstream f(file);
  if (!f) usage_error("cannot read replay file " + file);
  Case c;
  std::string line;
  int n = 0;
  while (std::getline(f, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string key, value;
    ls >> key >> value;
    const std::string where = file + ":" + std::to_string(n);
    if (key == "variant") c.variant = value;
    else if (key == "policy") c.policy = value;
    else if (key == "case_seed") c.seed = parse_u64(where + ": case_seed", value);
    else if (key == "requests") c.requests = parse_u64(where + ": requests", value);
    else usage_error(where + ": unknown key '" + key + "'");
  }
  if (!known_variant(c.variant)) usage_error(file + ": variant must be small, mid, big, psmall, pmid or p3mid");
  if (c.policy != "dt" && c.policy != "reverie" && c.policy != "dsh" && c.policy != "static" && c.policy != "sih" &&
      c.policy != "abm")
    usage_error(file + ": policy must be dt, reverie, dsh, static, sih or abm");
  if (c.requests == 0) usage_error(file + ": requests missing");
  const std::string fst = file + ".fst";
  const Outcome o = run_variant(c, fst);
  std::printf("replay of %s: %s case seed %llu, %llu requests, %llu CSR writes\n", file.c_str(), c.variant.c_str(),
              (unsigned long long)c.seed, (unsigned long long)o.stats.requests,
              (unsigned long long)(o.stats.csr_writes + o.stats.csr_refused));
  if (!o.mismatch) {
    std::printf("no mismatch\n");
    return 0;
  }
  std::printf("%s\nwaveform %s\n", o.report.c_str(), fst.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = 0, requests = 1000000;
  bool have_seed = false;
  std::vector<std::string> variants = {"small", "mid", "big"};
  std::string out = ".", replay_file;
  bool require_coverage = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--seed") {
      seed = parse_u64("--seed", value());
      have_seed = true;
    } else if (a == "--requests") {
      requests = parse_u64("--requests", value());
      if (requests == 0) usage_error("--requests must be > 0");
    } else if (a == "--variants") {
      variants.clear();
      std::stringstream ss(value());
      for (std::string v; std::getline(ss, v, ',');) {
        if (!known_variant(v)) usage_error("unknown variant '" + v + "' (small, mid, big, psmall, pmid, p3mid)");
        variants.push_back(v);
      }
      if (variants.empty()) usage_error("--variants names none");
    } else if (a == "--out") {
      out = value();
      if (out.empty()) usage_error("--out is empty");
    } else if (a == "--require-coverage") {
      require_coverage = true;
    } else if (a == "--replay") {
      replay_file = value();
    } else {
      usage_error("unknown argument '" + a + "'");
    }
  }
  if (!replay_file.empty()) return replay(replay_file);
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec || !std::filesystem::is_directory(out)) usage_error("cannot create --out directory " + out);
  if (!have_seed) seed = (uint64_t(std::random_device{}()) << 32) | std::random_device{}();
  std::printf("rtl_soak: seed %llu, %llu requests\n", (unsigned long long)seed, (unsigned long long)requests);
  std::fflush(stdout);

  const char* policies[] = {"dt", "reverie", "dsh", "static", "sih", "abm"};
  const char* pipe3_policies[] = {"dt", "static", "sih", "dsh"};  // what a PIPE 3 unit has
  std::map<std::string, soak::Stats> per;  // "variant policy"
  std::map<std::string, uint64_t> cases;
  std::mt19937_64 rng(seed);
  soak::Stats total;
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t next_report = 1000000;
  for (uint64_t k = 0; total.requests < requests; ++k) {
    Case c;
    c.variant = variants[k % variants.size()];
    c.policy = c.variant == "p3mid" ? pipe3_policies[(k / variants.size()) % std::size(pipe3_policies)]
                                    : policies[(k / variants.size()) % std::size(policies)];
    c.seed = rng();
    c.requests = std::min<uint64_t>(requests - total.requests, 5000 + rng() % 25001);
    // The case's replay file exists while it runs: an RTL assertion aborts the process
    // (Verilator's $stop) and leaves it behind.
    const std::filesystem::path file =
        std::filesystem::path(out) / ("rtl_soak_replay_" + std::to_string(c.seed) + ".txt");
    write_atomically(file, "# rtl_soak seed " + std::to_string(seed) + ", case " + std::to_string(k) +
                               ": running (an RTL assertion stopped it if this file is left)\n" + describe(c));
    const Outcome o = run_variant(c);
    total.add(o.stats);
    per[c.variant + " " + c.policy].add(o.stats);
    ++cases[c.variant + " " + c.policy];
    if (o.mismatch) {
      const std::string text = "# rtl_soak seed " + std::to_string(seed) + ", case " + std::to_string(k) + ": " +
                               o.report + "\n" + describe(c);
      write_atomically(file, text);
      std::printf("MISMATCH (run seed %llu, case %llu)\n%s\n%sreplay: rtl_soak --replay %s\n",
                  (unsigned long long)seed, (unsigned long long)k, o.report.c_str(), describe(c).c_str(),
                  file.c_str());
      return 1;
    }
    std::filesystem::remove(file);
    if (total.requests >= next_report) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::fprintf(stderr, "rtl_soak: %llu requests, %.0f s\n", (unsigned long long)total.requests, s);
      next_report += 1000000;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%-14s %6s %10s %10s %9s %9s %9s %8s %7s %7s %6s\n", "variant policy", "cases", "requests", "releases",
              "pairs", "same-q", "csr-ok", "csr-ref", "pol-chg", "drains", "resets");
  for (const auto& [key, s] : per)
    std::printf("%-14s %6llu %10llu %10llu %9llu %9llu %9llu %8llu %7llu %7llu %6llu\n", key.c_str(),
                (unsigned long long)cases[key], (unsigned long long)s.requests, (unsigned long long)s.releases,
                (unsigned long long)s.pairs, (unsigned long long)s.same_queue, (unsigned long long)s.csr_writes,
                (unsigned long long)s.csr_refused, (unsigned long long)s.policy_changes, (unsigned long long)s.drains,
                (unsigned long long)s.resets);
  std::printf("functional coverage (operations both models agreed on):\n");
  std::vector<std::string> empty;
  for (const auto& [bin, n] : total.bins()) {
    std::printf("  %-42s %12llu\n", bin.c_str(), (unsigned long long)n);
    if (n == 0) empty.push_back(bin);
  }
  std::printf("  %zu of %zu bins hit\n", total.bins().size() - empty.size(), total.bins().size());
  std::printf("rtl_soak: seed %llu: %llu requests, %llu releases, %llu CSR writes (%llu refused), 0 mismatches, "
              "%.1f s (%.0f requests/s)\n",
              (unsigned long long)seed, (unsigned long long)total.requests, (unsigned long long)total.releases,
              (unsigned long long)(total.csr_writes + total.csr_refused), (unsigned long long)total.csr_refused, secs,
              total.requests / secs);
  if (require_coverage && !empty.empty()) {
    for (const std::string& bin : empty) std::printf("COVERAGE HOLE: %s (seed %llu)\n", bin.c_str(), (unsigned long long)seed);
    return 1;
  }
  return 0;
}
