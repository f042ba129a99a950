#include "config/config_checks.h"

#include <set>

#include "config/scenario.h"

namespace mmusim {
namespace {

std::string bytes_text(uint64_t b) { return std::to_string(b) + " B"; }

void check_view(const SwitchConfig& v, const std::string& prefix, bool imported, std::vector<std::string>& warnings) {
  const BufferCfg& b = v.buffer;
  const uint64_t buf = v.mmu.buffer_bytes;
  auto field = [&](const std::string& f) { return prefix + f; };
  for (const auto& pr : b.profiles) {
    const auto& pool = b.pools[pr.pool];
    const std::string f = "buffer.BUFFER_PROFILE." + pr.name;
    // Above its pool, a static threshold never binds (the pool does): a common SONiC idiom.
    if (!pr.dynamic && pr.static_th_bytes > buf) {
      const std::string what = f + ".static_th: " + bytes_text(pr.static_th_bytes) + " above mmu.buffer_bytes (" +
                               bytes_text(buf) + ")";
      if (!imported) throw ConfigError(field(what));
      warnings.push_back(field(what) + "; its pool '" + pool.name + "' bounds it");
    }
    if (pr.size_bytes > pool.size_bytes)
      throw ConfigError(field(f + ".size: reserved " + bytes_text(pr.size_bytes) + " above its pool '" + pool.name +
                              "' (" + bytes_text(pool.size_bytes) + ")"));
    if (pr.has_xoff && pr.xoff_bytes > buf)
      throw ConfigError(field(f + ".xoff: headroom " + bytes_text(pr.xoff_bytes) + " above mmu.buffer_bytes (" +
                              bytes_text(buf) + ")"));
  }
  // Reserved buffer is outside the pools (a pool counts only the shared part), so only each
  // profile's own reserved size is held against its pool, above. The lossless PGs' xoff
  // summed past the buffer is the loader's warning (config/headroom.cc), which counts it per
  // policy.
  uint64_t ingress = 0;
  for (const auto& p : b.pools) ingress += p.ingress ? p.size_bytes + p.xoff_bytes : 0;
  if (ingress > buf)
    throw ConfigError(field("buffer.BUFFER_POOL: the ingress pools' sizes and xoff add up to " + bytes_text(ingress) +
                            ", above mmu.buffer_bytes (" + bytes_text(buf) + ")"));
}

}  // namespace

void check_buffer_semantics(const Scenario& sc, bool imported, std::vector<std::string>& warnings) {
  if (!sc.net.graph) {
    check_view(sc, "", imported, warnings);
    return;
  }
  for (size_t s = 0; s < sc.net.switches.size(); ++s)
    check_view(sc.switch_view(uint32_t(s)), "switch '" + sc.net.switches[s].name + "': ", imported, warnings);
}

std::vector<std::string> lossless_traffic_warnings(const Scenario& sc) {
  std::vector<std::string> out;
  for (size_t g = 0; g < sc.traffic.size(); ++g) {
    const GeneratorCfg& gen = sc.traffic[g];
    // (switch, port) pairs already reported.
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (uint32_t h : gen.srcs) {
      if (gen.kind == GeneratorCfg::Kind::kTrace) break;  // the class is per flow, in the trace
      const auto& host = sc.net.hosts[h];
      const SwitchConfig& v = sc.switch_view(host.sw);
      const BufferCfg& b = v.buffer;
      // The class these frames get at ingress port p.
      auto tc_at = [&](uint32_t p) -> uint32_t {
        if (gen.pcp >= 0 && b.has_dot1p_map[p]) return b.dot1p_to_tc[p][size_t(gen.pcp)];
        return b.dscp_to_tc[p][gen.pcp >= 0 ? 0 : gen.dscp];
      };
      const uint32_t port = host.port, tc = tc_at(port);
      if (!seen.insert({host.sw, port}).second || v.tc_lossless(port, tc)) continue;
      std::vector<std::string> lossless_at;
      for (uint32_t p = 0; p < v.ports(); ++p)
        if (v.tc_lossless(p, tc_at(p))) lossless_at.push_back(v.topo.ports[p].name);
      if (lossless_at.empty()) continue;
      std::string list;
      for (size_t i = 0; i < lossless_at.size() && i < 4; ++i) list += (i ? ", " : "") + lossless_at[i];
      if (lossless_at.size() > 4) list += ", ... (" + std::to_string(lossless_at.size()) + " ports)";
      const std::string sw = sc.net.graph ? "switch '" + sc.net.switches[host.sw].name + "' " : "";
      const std::string mark = gen.pcp >= 0 ? "PCP " + std::to_string(gen.pcp) : "DSCP " + std::to_string(gen.dscp);
      out.push_back("traffic[" + std::to_string(g) + "] ('" + gen.name + "'): " + host.name + " sends " + mark +
                    ", lossless on " + list + ", into " + sw + v.topo.ports[port].name + ", where it is TC " +
                    std::to_string(tc) + " without PFC (no PORT_QOS_MAP pfc_enable for it): lossy there");
    }
  }
  return out;
}

}  // namespace mmusim
