#pragma once
// Lossless headroom that no arrival pattern can overflow (docs/configuration.md, Headroom):
// DSH Eq. 1 plus what the model makes explicit (the frame that triggers XOFF, wire
// overhead, the PFC frame, the MMU's decision latency and backlog), in wire bytes at the
// port's rate, turned into cells at the worst cell occupancy of the frames the port can
// carry. The one definition: the Python tools get it through `mmusim headroom`.
#include <cstdint>
#include <string>
#include <vector>

namespace mmusim {

struct Scenario;
struct SwitchConfig;

// DSH Eq. 1: worst-case bytes in flight after XOFF, eta = 2(C*D + MTU) + 3840.
uint64_t headroom_eta_bytes(uint64_t rate_bps, uint64_t delay_ps, uint32_t mtu_bytes);

// Worst cells per wire byte over frames of 64 .. mtu bytes: max ceil(b/cell) / (b + overhead),
// as the fraction cells / wire_bytes of the frame that attains it.
struct CellOccupancy {
  uint64_t cells = 1;
  uint64_t wire_bytes = 1;
};
CellOccupancy worst_cell_occupancy(uint32_t mtu_bytes, uint32_t wire_overhead_bytes, uint32_t cell_bytes);

struct HeadroomLink {
  uint64_t rate_bps = 0;
  uint64_t delay_ps = 0;  // one-way propagation delay
  uint32_t mtu_bytes = 1500;
  uint32_t wire_overhead_bytes = 20;
  uint32_t cell_bytes = 256;
  uint64_t clock_period_ps = 1000;
  uint32_t pipeline_latency_cycles = 4;
  uint32_t pipeline_ports = 1;  // ports sharing this port's decision pipeline
  // The admission unit's PIPE (admission.pipeline: 0, 1 or 3): its XOFF leaves that many
  // cycles after the decision; with 3 a request's headroom tests also miss the release of
  // the cycle before (docs/rtl.md, "The four-stage request path"), one frame more.
  uint32_t admission_pipeline = 0;
};

// Wire bytes that can reach the PG from the arrival of the frame that triggers XOFF until
// the upstream stops (the frame itself included).
uint64_t headroom_wire_bytes(const HeadroomLink& l);
// The same in cells: the per-PG xoff that makes a headroom_full drop impossible.
uint64_t safe_headroom_cells(const HeadroomLink& l);

// Per port of one switch's view: its safe xoff in cells (same for all its lossless PGs).
std::vector<uint64_t> safe_headroom_cells(const SwitchConfig& view);

// Every configured headroom (PG xoff, headroom pool) below its safe value, and every decision
// pipeline that cannot keep up with minimum-size frames, in one switch's view; each message
// names the switch and the port|PG or pipeline.
std::vector<std::string> headroom_warnings(const SwitchConfig& view);

}  // namespace mmusim
