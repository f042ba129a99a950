#include "config/headroom.h"

#include <algorithm>

#include "config/scenario.h"

namespace mmusim {
namespace {

constexpr uint64_t kPsBitsPerByte = 8'000'000'000'000ull;  // 8 bits x 1e12 ps/s
constexpr uint32_t kMinFrame = 64;                        // Ethernet minimum (hosts pad to it)
constexpr uint32_t kPfcFrame = 64;
constexpr uint64_t kPfcResponse = 3840;  // 802.1Qbb's cap on the upstream's reaction (DSH Eq. 1)

// Bytes a link of rate_bps carries in t_ps, rounded up.
uint64_t bytes_in(uint64_t rate_bps, uint64_t t_ps) {
  const unsigned __int128 bits = (unsigned __int128)rate_bps * t_ps;
  return uint64_t((bits + kPsBitsPerByte - 1) / kPsBitsPerByte);
}

// "Ethernet0|3" plus how many more share the finding.
std::string where(const SwitchConfig& v, uint32_t port, uint32_t prio, uint32_t more) {
  std::string s = v.topo.ports[port].name + "|" + std::to_string(prio);
  if (more) s += " (and " + std::to_string(more) + " more lossless PG" + (more > 1 ? "s" : "") + ")";
  return s;
}

}  // namespace

uint64_t headroom_eta_bytes(uint64_t rate_bps, uint64_t delay_ps, uint32_t mtu_bytes) {
  // C*D in bytes, rounded up: headroom must never be short.
  return 2 * (bytes_in(rate_bps, delay_ps) + mtu_bytes) + kPfcResponse;
}

CellOccupancy worst_cell_occupancy(uint32_t mtu_bytes, uint32_t wire_overhead_bytes, uint32_t cell_bytes) {
  // Among frames of k cells the shortest, max(64, (k-1)*cell + 1) bytes, has the most cells
  // per wire byte; the worst is the largest of these over k, the first k attaining it. The
  // smallest k, ceil(64/cell), is the 64-B frame; past it the ratio
  // k / (k*cell + 1 - cell + overhead) is monotonic in k. So the first k attaining the
  // maximum is the smallest, the next or the largest, and those three in order with the same
  // strict compare give it in O(1) (a loop over every k was 1 500 iterations per port with
  // 1-B cells).
  const uint64_t c = cell_bytes, kmin = (kMinFrame + c - 1) / c, kmax = (mtu_bytes + c - 1) / c;
  CellOccupancy best{0, 1};
  if (kmin > kmax) return best;
  for (const uint64_t k : {kmin, std::min(kmin + 1, kmax), kmax}) {
    const uint64_t b = std::max<uint64_t>(kMinFrame, (k - 1) * c + 1);
    if (k * best.wire_bytes > best.cells * (b + wire_overhead_bytes)) best = {k, b + wire_overhead_bytes};
  }
  return best;
}

uint64_t headroom_wire_bytes(const HeadroomLink& l) {
  const uint64_t frame = uint64_t(l.mtu_bytes) + l.wire_overhead_bytes;
  // Arrival to decision: latency, up to a cycle to the next clock edge, and the backlog of a
  // pipeline that keeps up (< pipeline_ports cycles; docs/configuration.md, Headroom).
  const uint64_t decision_ps =
      (uint64_t(l.pipeline_latency_cycles) + l.admission_pipeline + l.pipeline_ports) * l.clock_period_ps;
  return bytes_in(l.rate_bps, 2 * l.delay_ps + decision_ps)  // PFC frame there, last frame back; decision
         + frame                                             // the frame that triggers XOFF
         + 2 * frame                                         // MTU on the wire at each end (Eq. 1)
         + kPfcFrame + l.wire_overhead_bytes                 // the PFC frame itself
         + kPfcResponse                                      // Eq. 1's processing allowance
         + (l.admission_pipeline == 3 ? frame : 0);          // PIPE 3: a released frame not yet seen
}

uint64_t safe_headroom_cells(const HeadroomLink& l) {
  const CellOccupancy w = worst_cell_occupancy(l.mtu_bytes, l.wire_overhead_bytes, l.cell_bytes);
  const unsigned __int128 n = (unsigned __int128)headroom_wire_bytes(l) * w.cells;
  return uint64_t((n + w.wire_bytes - 1) / w.wire_bytes);
}

std::vector<uint64_t> safe_headroom_cells(const SwitchConfig& v) {
  const uint32_t np = v.ports(), pipes = v.mmu.pipelines;
  std::vector<uint64_t> out(np);
  for (uint32_t p = 0; p < np; ++p) {
    // Ports are spread over pipelines by port number (ingress/ingress_pipeline.cc).
    const uint32_t shared = np / pipes + (p % pipes < np % pipes ? 1 : 0);
    out[p] = safe_headroom_cells({v.topo.ports[p].rate_bps, v.topo.ports[p].delay_ps,
                                  v.int_telemetry.max_frame_bytes(v.topo.mtu_bytes),
                                  v.topo.wire_overhead_bytes, v.mmu.cell_bytes, v.mmu.clock_period_ps,
                                  v.mmu.pipeline_latency_cycles, shared, v.admission.pipeline});
  }
  return out;
}

std::vector<std::string> headroom_warnings(const SwitchConfig& v) {
  std::vector<std::string> w;
  const std::string sw = "switch '" + v.topo.switch_name + "' ";
  const uint32_t np = v.ports(), pipes = v.mmu.pipelines;
  const uint32_t ovh = v.topo.wire_overhead_bytes;
  const std::vector<uint64_t> safe = safe_headroom_cells(v);
  const admission::CoreConfig c = v.core_config();
  const auto xoff = [&](uint32_t p, uint32_t q) {
    return c.ingress_profiles[c.pg_profile[size_t(p) * Scenario::kPrios + q]].xoff_cells;
  };

  // Per-PG xoff: one message per (configured, safe) pair, naming its first PG.
  struct Short { uint32_t port, prio, more; };
  std::vector<std::pair<std::pair<uint64_t, uint64_t>, Short>> shorts;
  const bool dsh = v.admission.policy == "dsh";
  uint64_t safe_pgs = 0, safe_ports = 0, xoff_total = 0;
  for (uint32_t p = 0; p < np; ++p) {
    bool any = false;
    uint64_t insurance = 0;  // dsh: the port's largest xoff
    for (uint32_t q = 0; q < Scenario::kPrios; ++q) {
      if (!v.lossless(p, q)) continue;
      any = true;
      safe_pgs += safe[p];
      insurance = std::max(insurance, xoff(p, q));
      if (!dsh) xoff_total += xoff(p, q);
      if (xoff(p, q) >= safe[p]) continue;
      const auto key = std::make_pair(xoff(p, q), safe[p]);
      auto it = std::find_if(shorts.begin(), shorts.end(), [&](const auto& s) { return s.first == key; });
      if (it == shorts.end()) shorts.push_back({key, {p, q, 0}});
      else ++it->second.more;
    }
    safe_ports += any ? safe[p] : 0;
    if (dsh) xoff_total += insurance;
  }
  const uint64_t cb = v.mmu.cell_bytes;
  for (const auto& [key, s] : shorts)
    w.push_back(sw + where(v, s.port, s.prio, s.more) + ": xoff " + std::to_string(key.first * cb) + " B (" +
                std::to_string(key.first) + " cells) is below the safe headroom of " + std::to_string(key.second) +
                " cells (" + std::to_string(key.second * cb) + " B): lossless packets may be dropped");

  // Headroom pool: every lossless PG may be paused at once, each holding up to its safe
  // headroom (dsh: one insurance headroom per port, all its priorities pause together).
  bool shared_pool = false;
  for (const auto& p : v.buffer.pools) shared_pool |= p.ingress && p.has_xoff;
  const uint64_t need = dsh ? safe_ports : safe_pgs;
  if (v.admission.policy != "sih" && shared_pool && c.headroom_pool_cells < need)
    w.push_back(sw + "headroom pool: ingress pools' xoff " + std::to_string(c.headroom_pool_cells) +
                " cells is below the " + std::to_string(need) + " cells (" + std::to_string(need * cb) +
                " B) that every " + (dsh ? "lossless port's insurance" : "lossless PG's") +
                " safe headroom needs at once: lossless packets may be dropped");
  // Without a shared pool every PG (dsh: every port's insurance) owns its xoff, and sih
  // always: together they must fit the buffer.
  if ((!shared_pool || v.admission.policy == "sih") && xoff_total > c.buffer_cells)
    w.push_back(sw + "headroom: the lossless " + (dsh ? "ports' insurance" : "PGs' xoff") + " total " +
                std::to_string(xoff_total) +
                " cells exceeds the buffer (" + std::to_string(c.buffer_cells) +
                " cells): lossless packets may be dropped");

  // Decision pipelines: minimum frames at line rate on all ports of a pipeline must not
  // outrun one decision per cycle, or the backlog (and so XOFF's delay) has no bound.
  for (uint32_t k = 0; k < pipes && k < np; ++k) {
    unsigned __int128 rate = 0;
    bool lossless = false;
    for (uint32_t p = k; p < np; p += pipes) {
      rate += v.topo.ports[p].rate_bps;
      for (uint32_t q = 0; q < Scenario::kPrios; ++q) lossless |= v.lossless(p, q);
    }
    // frames per cycle = rate * period / (8e12 * (64 + overhead)) > 1
    const unsigned __int128 demand = rate * v.mmu.clock_period_ps;
    if (!lossless || demand <= (unsigned __int128)kPsBitsPerByte * (kMinFrame + ovh)) continue;
    const uint64_t min_wire = uint64_t((demand + kPsBitsPerByte - 1) / kPsBitsPerByte);
    w.push_back(sw + "pipeline " + std::to_string(k) + " (" + v.topo.ports[k].name + ", ...): " +
                std::to_string(kMinFrame) + "-B frames at line rate need more than one admission decision per "
                "MMU cycle; the decision backlog is bounded, and lossless headroom safe, only while frames "
                "average at least " + std::to_string(min_wire > ovh ? min_wire - ovh : 0) + " B");
  }

  // PFC refresh: a paused priority must be refreshed before its pause expires upstream, even
  // when the refresh waits behind an MTU frame and the upstream takes Eq. 1's 3840 B to react.
  for (uint32_t p = 0; p < np; ++p) {
    const uint64_t rate = v.topo.ports[p].rate_bps;
    const uint64_t pause = uint64_t((unsigned __int128)v.pfc.pause_quanta * 512 * 1'000'000'000'000ull / rate);
    const uint64_t refresh = std::max<uint64_t>(1, uint64_t(double(pause) * v.pfc.refresh_fraction));
    const uint64_t late = ((unsigned __int128)(v.int_telemetry.max_frame_bytes(v.topo.mtu_bytes) + ovh + kPfcResponse) * kPsBitsPerByte + rate - 1) / rate;
    bool lossless = false;
    for (uint32_t q = 0; q < Scenario::kPrios; ++q) lossless |= v.lossless(p, q);
    if (lossless && refresh + late >= pause) {
      w.push_back(sw + v.topo.ports[p].name + ": the PFC pause (" + std::to_string(v.pfc.pause_quanta) +
                  " quanta) may expire before its refresh arrives (pfc.refresh_fraction " +
                  std::to_string(v.pfc.refresh_fraction) + "): lossless packets may be dropped");
      break;
    }
  }
  return w;
}

}  // namespace mmusim
