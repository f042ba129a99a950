// One configuration's thresholds (TH: every profile's, on its own pool) and each pool's
// room (ROOM, reverie's b* - q*), from the registered occupancy: the calculator's
// combinational half, a block of its own (the area breakdown's thresholds). Each pool's
// room is one sum, size - used + the refund's two terms (PIPE 3's registered refund,
// else 0), and its sign: no difference waits for another; each profile selects its pool's.
// The room of the occupancy held between loads (held_i) is a sum of its own, selected by
// live_i behind both, so that the select does not stand in front of the live sum.
`default_nettype none

module mmu_adm_thcalc #(
  parameter int CW = 32,        // width of every cell counter (mmu_adm_thresh's)
  parameter int NPOOLS = 4,     // buffer pools
  parameter int NPROF = 8,      // ingress and egress profile table entries, each
  parameter int ONLY = -1,      // the unit's one policy, or -1
  parameter bit TH = 1'b1,      // the profiles' thresholds (else 0)
  parameter bit ROOM = 1'b1,    // the pools' room (else 0)
  localparam int PLW = NPOOLS > 1 ? $clog2(NPOOLS) : 1,
  localparam int PRW = 4 + 1 + 5 + CW,
  localparam int CFGW = 3 + NPOOLS*CW + 2*NPROF*PRW
) (
  /* verilator lint_off UNUSEDSIGNAL */ // the pool fields' high bits; all of it without TH
  input  wire [CFGW-1:0]       cfg_i,    // as mmu_adm_thresh's
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire                  live_i,   // the occupancy is used_i less rf_i, else held_i
  input  wire [NPOOLS*CW-1:0]  used_i,
  input  wire [NPOOLS*2*CW-1:0] rf_i,    // pool p's refund still to come off used_i: two terms at [2p*CW]
  input  wire [NPOOLS*CW-1:0]  held_i,
  output wire [2*NPROF*CW-1:0] th_o,     // ingress profile k at k, egress at NPROF + k
  output wire [NPOOLS*CW-1:0]  room_o
);
  // scale at CW bits; the other helpers of the include go unused.
  localparam int EWMA_FRAC = 0;
  localparam int CELLW = 1;
`include "mmu_adm_fn.svh"

  localparam int O_PS = CFGW - 3 - NPOOLS*CW;  // POOL_SIZE
  localparam int O_IP = O_PS - NPROF*PRW;      // IPROF fields, then EPROF at 0
  wire [2:0] policy = ONLY >= 0 ? 3'(ONLY) : cfg_i[CFGW-3 +: 3];
  wire is_static = policy == mmu_adm_pkg::POLICY_STATIC;
  wire [NPOOLS*CW-1:0] size = cfg_i[O_PS +: NPOOLS*CW];
  // Field i (0 pool, 1 dynamic, 2 shift, 3 static) of ingress (e = 0) or egress profile k.
  function automatic int f_at(input int e, input int k, input int i);
    int base;
    base = e != 0 ? 0 : O_IP;
    f_at = base + (i == 0 ? k*4 : i == 1 ? NPROF*4 + k : i == 2 ? NPROF*5 + k*5 : NPROF*10 + k*CW);
  endfunction

  // Each pool's room, max(size - (used - rf), 0): the occupancy never wraps (it is at most
  // the buffer), so the sum is exact and at most size.
  wire [NPOOLS*CW-1:0] free;
  for (genvar p = 0; p < NPOOLS; p++) begin : g_pool
    wire [CW+2:0] d_live = (CW+3)'(size[p*CW +: CW]) + (CW+3)'(rf_i[2*p*CW +: CW])
                           + (CW+3)'(rf_i[(2*p+1)*CW +: CW]) - (CW+3)'(used_i[p*CW +: CW]);
    wire [CW+2:0] d_held = (CW+3)'(size[p*CW +: CW]) - (CW+3)'(held_i[p*CW +: CW]);
    wire [CW+2:0] d = live_i ? d_live : d_held;
    assign free[p*CW +: CW] = d[CW+2] ? '0 : d[CW-1:0];
    assign room_o[p*CW +: CW] = ROOM ? free[p*CW +: CW] : '0;
  end
  for (genvar e = 0; e < 2; e++) begin : g_side
    for (genvar k = 0; k < NPROF; k++) begin : g_prof
      wire [PLW-1:0] pool = cfg_i[f_at(e, k, 0) +: PLW];
      // Dynamic Thresholds (reverie Eq. 1): alpha x room; static: the room of an empty pool.
      wire [CW-1:0] room = is_static ? size[pool*CW +: CW] : free[pool*CW +: CW];
      assign th_o[(e*NPROF+k)*CW +: CW] = !TH ? '0 :
          !cfg_i[f_at(e, k, 1)] ? cfg_i[f_at(e, k, 3) +: CW] : scale(room, cfg_i[f_at(e, k, 2) +: 5]);
    end
  end
endmodule

`default_nettype wire
