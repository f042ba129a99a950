#include "config/output_load.h"

#include "config/scenario.h"
#include "config/scenario_parse.h"

namespace mmusim {

void load_measure(Scenario& sc, JsonReader m) {
  sc.measure_start_ps = m.time_ps("start_us", kPsPerUs, true, 0);
  sc.measure_end_ps = m.time_ps("end_us", kPsPerUs, false, sc.duration_ps);
  if (sc.measure_end_ps > sc.duration_ps) m.fail("end_us", "beyond duration_us");
  if (sc.measure_start_ps >= sc.measure_end_ps) m.fail("start_us", "must be before end_us");
  m.done();
}

void load_output(Scenario& sc, JsonReader o) {
  sc.output.sample_interval_ps = o.time_ps("sample_interval_ns", kPsPerNs, false, sc.output.sample_interval_ps);
  if (sc.output.sample_interval_ps < kMinSamplePs)
    o.fail("sample_interval_ns", "must be at least 10 ns (at most 100 rows per simulated us)");
  sc.output.occupancy_bucket_bytes = uint32_t(o.integer("occupancy_bucket_bytes", 1, 1 << 24, 1024));
  if (o.has("ingress_peaks")) {
    if (!o.raw("ingress_peaks").is_boolean()) o.fail("ingress_peaks", "must be true or false");
    sc.output.ingress_peaks = o.raw("ingress_peaks").get<bool>();
  }
  if (o.has("bfc_queues")) {
    if (!o.raw("bfc_queues").is_boolean()) o.fail("bfc_queues", "must be true or false");
    sc.output.bfc_queues = o.raw("bfc_queues").get<bool>();
    if (sc.output.bfc_queues && !sc.bfc.enabled) o.fail("bfc_queues", "needs bfc.enabled");
  }
  if (o.has("threshold_queues")) {
    JsonReader t = o.child("threshold_queues");
    for (const char* cls : {"lossless", "lossy"}) {
      if (!t.has(cls)) continue;
      const std::string key = t.string(cls);
      auto [ports, mask] = parse_port_prio_key(sc, key, "output.threshold_queues");
      if (ports.size() != 1 || __builtin_popcount(mask) != 1)
        t.fail(cls, "'" + key + "' must name one PORT|PRIORITY");
      const int prio = __builtin_ctz(mask);
      // The lossless series is a PG's (ingress) threshold, the lossy one a queue's (egress).
      const bool lossless = cls == std::string("lossless");
      if ((lossless ? sc.lossless(ports[0], uint32_t(prio)) : sc.queue_lossless(ports[0], uint32_t(prio))) != lossless)
        t.fail(cls, "'" + key + "' is not a " + std::string(lossless ? "lossless PG" : "lossy queue"));
      (cls == std::string("lossless") ? sc.output.th_lossless_port : sc.output.th_lossy_port) = int(ports[0]);
      (cls == std::string("lossless") ? sc.output.th_lossless_prio : sc.output.th_lossy_prio) = prio;
    }
    t.done();
  }
  o.done();
}

}  // namespace mmusim
