#include "config/trace_config.h"

#include <cmath>

#include "config/trace_format.h"

namespace mmusim {

GeneratorCfg load_trace_generator(const Scenario& sc, JsonReader& r, GeneratorCfg g) {
  g.kind = GeneratorCfg::Kind::kTrace;
  g.trace_file = r.string("file");
  if (g.trace_file.empty()) r.fail("file", "must name a trace file");
  g.start_ps = r.time_ps("start_us", 1e6, true, 0);
  g.packet_bytes = uint32_t(r.integer("packet_bytes", 64, sc.topo.mtu_bytes, sc.topo.mtu_bytes));
  if (r.has("rate_gbps")) {
    g.rate_bps = r.rate_bps("rate_gbps");
    for (const auto& p : sc.topo.ports)
      if (g.rate_bps > p.rate_bps) r.fail("rate_gbps", "faster than the line rate of " + p.name);
  }
  r.done();
  try {
    check_trace(g.trace_file, sc.ports());
  } catch (const ConfigError& e) {
    r.fail("file", e.what());
  }
  return g;
}

}  // namespace mmusim
