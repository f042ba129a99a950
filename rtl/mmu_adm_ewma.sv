// The EWMA filter's update (reverie Eq. 5, ewma_update of mmu_adm_fn.svh): q_hat of one
// queue after one step towards q cells, clamped at q when the clamp is on. A module of its
// own so that the area breakdown (scripts/ppa) reports the filter's logic.
`default_nettype none

module mmu_adm_ewma
#(
  parameter int CW = 32,         // width of every cell counter
  parameter int EWMA_FRAC = 16,  // fraction bits of the filter state
  parameter int CELLW = 16,      // width of a packet's cell count (mmu_adm_fn.svh)
  localparam int AW = CW + EWMA_FRAC
) (
  input  wire [AW-1:0] avg_i,    // q_hat before the step
  input  wire [CW-1:0] q_i,      // the queue's shared cells
  input  wire [4:0]    k_i,      // CTRL.ewma_k
  input  wire          clamp_i,  // CTRL.ewma_clamp
  output wire [AW-1:0] avg_o
);
`include "mmu_adm_fn.svh"
  assign avg_o = ewma_update(avg_i, q_i, k_i, clamp_i);
endmodule

`default_nettype wire
