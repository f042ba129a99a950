// One configuration's thresholds (TH: every profile's, on its own pool) and each pool's
// room (ROOM, reverie's b* - q*), from the registered occupancy: the calculator's
// combinational half, a block of its own (the area breakdown's thresholds). Each pool's
// room is one sum, size - used + the refund's two terms (PIPE 3's registered refund,
// else 0), and its sign: no difference waits for another; each profile selects its pool's.
// The room of the occupancy held between loads (held_i) is a sum of its own, selected by
// live_i behind both, so that the select does not stand in front of the live sum.
// The synthesis's form (SYNTHESIS) takes the sign of each room from a carry-save compare
// (mmu_adm_sumgt) beside its sum and zeroes a threshold behind the shift (scale(0) is 0),
// and shifts by one AND-OR level per bit over the decoded shift field, where a barrel
// shifter and its saturation test stood in series behind the sum's carry chain (the
// calculator's path, 1,057 ps at 64 x 8, step 23). Simulators read the plain form;
// rtl_thcalc_forms_equiv proves the two equal.
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
`ifdef SYNTHESIS
  wire [NPOOLS*CW-1:0] val;  // the room's low CW bits, the room when it is not negative
  wire [NPOOLS-1:0] neg;     // the room is negative: its threshold is 0
`endif
  for (genvar p = 0; p < NPOOLS; p++) begin : g_pool
    wire [CW-1:0] sz = size[p*CW +: CW], rf0 = rf_i[2*p*CW +: CW], rf1 = rf_i[(2*p+1)*CW +: CW];
`ifdef SYNTHESIS
    wire neg_live, neg_held;  // used - rf > size; held > size
    mmu_adm_sumgt #(.W(CW), .NP(1), .NM(3)) u_neg_live (.p_i(used_i[p*CW +: CW]), .m_i({rf1, rf0, sz}),
                                                       .gt_o(neg_live));
    mmu_adm_sumgt #(.W(CW), .NP(1), .NM(1)) u_neg_held (.p_i(held_i[p*CW +: CW]), .m_i(sz), .gt_o(neg_held));
    wire [CW-1:0] v_live = sz + rf0 + rf1 - used_i[p*CW +: CW];
    wire [CW-1:0] v_held = sz - held_i[p*CW +: CW];
    assign val[p*CW +: CW] = live_i ? v_live : v_held;
    assign neg[p] = live_i ? neg_live : neg_held;
    assign free[p*CW +: CW] = neg[p] ? '0 : val[p*CW +: CW];
`else
    wire [CW+2:0] d_live = (CW+3)'(sz) + (CW+3)'(rf0) + (CW+3)'(rf1) - (CW+3)'(used_i[p*CW +: CW]);
    wire [CW+2:0] d_held = (CW+3)'(sz) - (CW+3)'(held_i[p*CW +: CW]);
    wire [CW+2:0] d = live_i ? d_live : d_held;
    assign free[p*CW +: CW] = d[CW+2] ? '0 : d[CW-1:0];
`endif
    assign room_o[p*CW +: CW] = ROOM ? free[p*CW +: CW] : '0;
  end
`ifdef SYNTHESIS
  // scale(v, shift) as an OR over the 32 shift values, each one's result gated by its
  // decode: each bit one AND and an OR tree (reductions, which the synthesis maps as trees
  // where an OR accumulated in a loop stays a chain), the saturation test beside it.
  function automatic logic [CW-1:0] scale_oh(input logic [CW-1:0] v, input logic [4:0] shift);
    logic [31:0] dec, satv;
    logic [32*CW-1:0] col;  // bit b's 32 candidates at [32b +: 32], shift field value s at s
    logic [CW-1:0] cand, r;
    for (int s = 0; s < 32; s++) begin
      dec[s] = shift == 5'(s);
      cand = s < 16 ? v << s : v >> (32 - s);  // field s >= 16: shift s - 32
      satv[s] = s < 16 && (v & ~(CMAX >> (s % 16))) != '0;
      for (int b = 0; b < CW; b++) col[32*b + s] = cand[b];
    end
    for (int b = 0; b < CW; b++) r[b] = |(dec & col[32*b +: 32]);
    scale_oh = |(dec & satv) ? CMAX : r;
  endfunction
`endif
  for (genvar e = 0; e < 2; e++) begin : g_side
    for (genvar k = 0; k < NPROF; k++) begin : g_prof
      wire [PLW-1:0] pool = cfg_i[f_at(e, k, 0) +: PLW];
      wire [4:0] shift = cfg_i[f_at(e, k, 2) +: 5];
      wire [CW-1:0] stat = cfg_i[f_at(e, k, 3) +: CW];
      wire dyn = cfg_i[f_at(e, k, 1)];
`ifdef SYNTHESIS
      // Dynamic Thresholds (reverie Eq. 1): alpha x room, 0 for a negative room;
      // static: alpha x the size.
      wire [CW-1:0] v = is_static ? size[pool*CW +: CW] : val[pool*CW +: CW];
      wire zero = !is_static && neg[pool];
      assign th_o[(e*NPROF+k)*CW +: CW] = !TH ? '0 : !dyn ? stat : zero ? '0 : scale_oh(v, shift);
`else
      // Dynamic Thresholds (reverie Eq. 1): alpha x room; static: the room of an empty pool.
      wire [CW-1:0] room = is_static ? size[pool*CW +: CW] : free[pool*CW +: CW];
      assign th_o[(e*NPROF+k)*CW +: CW] = !TH ? '0 : !dyn ? stat : scale(room, shift);
`endif
    end
  end
endmodule

`default_nettype wire
