#include "host/generators.h"

#include <cmath>
#include <queue>

#include "common/splitmix.h"
#include "host/trace_generator.h"

namespace mmusim {

double Rng::exponential(double mean) { return -std::log1p(-uniform()) * mean; }

uint64_t sample_size(const SizeDist& d, Rng& rng) {
  switch (d.kind) {
    case SizeDist::Kind::kFixed: return d.bytes;
    case SizeDist::Kind::kUniform: return d.min + rng.below(d.max - d.min + 1);
    case SizeDist::Kind::kExponential: return std::max<uint64_t>(1, uint64_t(std::llround(rng.exponential(d.mean))));
    case SizeDist::Kind::kCdf: {
      // Linear interpolation between the published CDF points.
      const double u = rng.uniform();
      uint64_t prev_b = d.cdf.front().first;
      double prev_p = 0;
      for (const auto& [b, p] : d.cdf) {
        if (u < p) {
          if (p <= prev_p) return b;
          const double f = (u - prev_p) / (p - prev_p);
          return std::max<uint64_t>(1, uint64_t(std::llround(double(prev_b) + f * double(b - prev_b))));
        }
        prev_b = b;
        prev_p = p;
      }
      return d.cdf.back().first;
    }
  }
  return 1;
}

namespace {

Flow base_flow(const GeneratorCfg& g, uint32_t index, uint32_t src, uint32_t dst, uint32_t mtu) {
  Flow f;
  f.generator = index;
  f.src = src;
  f.dst = dst;
  f.dscp = g.dscp;
  f.ecn = g.ecn;
  f.pcp = int8_t(g.pcp);
  f.rate_bps = g.rate_bps;
  f.packet_bytes = g.packet_bytes ? g.packet_bytes : mtu;
  return f;
}

// Flows known in advance (constant, on/off, incast), emitted in start order.
class ListGenerator : public Generator {
 public:
  void add(const Flow& f) { m_q.push(f); }
  bool next(Flow& f) override {
    if (m_q.empty()) return false;
    f = m_q.top();
    m_q.pop();
    return true;
  }

 private:
  struct Later {
    bool operator()(const Flow& a, const Flow& b) const {
      return a.start_ps != b.start_ps ? a.start_ps > b.start_ps : a.src > b.src;
    }
  };
  std::priority_queue<Flow, std::vector<Flow>, Later> m_q;
};

// Poisson flow arrivals per source at a target load of its line rate.
class PoissonGenerator : public Generator {
 public:
  PoissonGenerator(const TrafficConfig& tc, uint32_t index)
      : m_g(tc.generators[index]), m_index(index), m_mtu(tc.mtu_bytes),
        m_stop(m_g.stop_ps ? m_g.stop_ps : tc.duration_ps), m_rng(splitmix(tc.seed ^ splitmix(index))) {
    const double mean = m_g.size.mean_bytes();
    for (uint32_t s : m_g.srcs) {
      const double bps = double(tc.net.hosts[s].rate_bps) * m_g.load;
      const double gap_ps = mean * 8.0 / bps * 1e12;
      m_gap.push_back(gap_ps);
      m_next.push(Pending{m_g.start_ps + uint64_t(m_rng.exponential(gap_ps)), s, uint32_t(m_gap.size() - 1)});
    }
  }
  bool next(Flow& f) override {
    while (!m_next.empty()) {
      Pending p = m_next.top();
      m_next.pop();
      if (p.t >= m_stop) continue;
      m_next.push(Pending{p.t + std::max<uint64_t>(1, uint64_t(m_rng.exponential(m_gap[p.k]))), p.src, p.k});
      uint32_t dst = p.src;
      while (dst == p.src) dst = m_g.dsts[m_rng.below(m_g.dsts.size())];
      f = base_flow(m_g, m_index, p.src, dst, m_mtu);
      f.bytes = sample_size(m_g.size, m_rng);
      f.start_ps = p.t;
      return true;
    }
    return false;
  }

 private:
  struct Pending {
    uint64_t t;
    uint32_t src;
    uint32_t k;
    bool operator>(const Pending& o) const { return t != o.t ? t > o.t : src > o.src; }
  };
  const GeneratorCfg m_g;
  uint32_t m_index;
  uint32_t m_mtu;
  uint64_t m_stop;
  Rng m_rng;
  std::vector<double> m_gap;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> m_next;
};

}  // namespace

std::unique_ptr<Generator> make_generator(const TrafficConfig& tc, uint32_t index) {
  const GeneratorCfg& g = tc.generators[index];
  if (g.kind == GeneratorCfg::Kind::kPoisson) return std::make_unique<PoissonGenerator>(tc, index);
  if (g.kind == GeneratorCfg::Kind::kTrace) return make_trace_generator(tc, index);
  auto list = std::make_unique<ListGenerator>();
  const uint64_t stop = g.stop_ps ? g.stop_ps : tc.duration_ps;
  const uint32_t mtu = tc.mtu_bytes;
  auto rate = [&](uint32_t src) { return g.rate_bps ? g.rate_bps : tc.net.hosts[src].rate_bps; };
  auto bytes_at = [](uint64_t bps, uint64_t dur_ps) {
    return uint64_t((unsigned __int128)bps * dur_ps / 8'000'000'000'000ull);
  };
  for (size_t i = 0; i < g.srcs.size(); ++i) {
    const uint32_t src = g.srcs[i];
    const uint32_t dst = g.dsts.size() == 1 ? g.dsts[0] : g.dsts[i];
    switch (g.kind) {
      case GeneratorCfg::Kind::kConstant: {
        Flow f = base_flow(g, index, src, dst, mtu);
        f.rate_bps = rate(src);
        f.bytes = bytes_at(f.rate_bps, stop > g.start_ps ? stop - g.start_ps : 0);
        f.start_ps = g.start_ps;
        if (f.bytes) list->add(f);
        break;
      }
      case GeneratorCfg::Kind::kOnOff:
        for (uint64_t t = g.start_ps; t < stop; t += g.on_ps + g.off_ps) {
          Flow f = base_flow(g, index, src, dst, mtu);
          f.rate_bps = rate(src);
          f.bytes = bytes_at(f.rate_bps, std::min(g.on_ps, stop - t));
          f.start_ps = t;
          if (f.bytes) list->add(f);
        }
        break;
      case GeneratorCfg::Kind::kIncast:
        for (uint32_t k = 0; k < g.count; ++k) {
          const uint64_t t = g.start_ps + k * g.period_ps;
          if (t >= stop) break;
          Flow f = base_flow(g, index, src, dst, mtu);
          f.bytes = g.burst_bytes;
          f.start_ps = t;
          list->add(f);
        }
        break;
      case GeneratorCfg::Kind::kPoisson:
      case GeneratorCfg::Kind::kTrace: break;
    }
  }
  return list;
}

}  // namespace mmusim
