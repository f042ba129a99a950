// Threshold calculator (issue 13 item 2), beside the packet path: every THRESH_PERIOD-th
// cycle (a counter from reset, restarted by every CSR write) it registers the pool
// occupancies and n_p (reverie's per priority; abm's per priority and side, in the same
// registers as the golden core's ThresholdBlock keeps them: the running policy's), and
// from those registers and the configuration it computes every
// ingress and egress profile's threshold: DT's alpha (pool size - occupancy) (dt, sih, dsh),
// alpha x pool size (static), or the profile's static_th; for reverie every entry is the
// room of reverie's one pool, b* - q* (its alpha and division by n_p are per operation:
// mmu_adm_quot). An operation selects its profiles' entries (mmu_adm_op);
// nothing here depends on the operation in flight, so no threshold waits for the counters
// an operation is changing. A load at a clock edge takes the state before that cycle's
// operations; the golden core models the same timing (hw-model/admission/threshold_block.*).
//
// REG_OUT (the pipelined unit): the thresholds leave through registers, so the decide stage
// starts at a flip-flop, not at the calculator's pool select, subtract and shift. The
// registers load from the occupancy registers' next value (the same occupancy as without
// REG_OUT) and the stored configuration fields, and reset to the thresholds of the reset
// configuration (0): a CSR write reaches the thresholds one cycle after it reaches the
// fields, so only an operation taken in the write's own cycle (decided in the next)
// compares against thresholds of the old fields; the golden core decides no operation in
// that cycle (docs/rtl.md, "CSR write latency"). No CSR address decode or refusal logic is
// in front of the registers. Each pool's room is registered and reverie's pool (a derived
// register loaded at a write's edge, mmu_adm_derive) selected behind the registers.
`default_nettype none

module mmu_adm_thresh #(
  parameter int NPORTS = 8,      // switch ports
  parameter int NPRIO = 8,       // priorities per port
  parameter int CW = 32,         // width of every cell counter
  parameter int NPOOLS = 4,      // buffer pools
  parameter int NPROF = 8,       // ingress and egress profile table entries, each
  parameter logic [5:0] POLICIES = 6'b011111,  // policies present: bit i = CTRL.policy value i
  parameter bit REG_OUT = 1'b0,  // registered outputs, from the next-cycle inputs (above)
  localparam int NQ = NPORTS * NPRIO,
  localparam int QW = NQ > 1 ? $clog2(NQ) : 1,
  localparam int PW = NPORTS > 1 ? $clog2(NPORTS) : 1,
  localparam int PLW = NPOOLS > 1 ? $clog2(NPOOLS) : 1,
  localparam int PRW = 4 + 1 + 5 + CW,  // one profile's fields
  localparam int CFGW = 3 + NPOOLS*CW + 2*NPROF*PRW,
  localparam int NCW = mmu_adm_pkg::np_width(NPORTS, QW)  // an n_p register
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire [7:0]           period_i,    // THRESH_PERIOD (1..255)
  input  wire                 restart_i,   // a CSR write this cycle
  input  wire [NPOOLS*CW-1:0] pool_used_i, // the pool counters (registers)
  input  wire [NPOOLS*2*CW-1:0] pool_rf_i, // PIPE 3: their registered refund, two terms per pool (else 0)
  /* verilator lint_off UNUSEDSIGNAL */ // n_p is at most 2 NPORTS: each entry's NCW low bits
  input  wire [8*(QW+1)-1:0]  ncong_i,     // reverie n_p per priority (registers)
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire [16*(PW+1)-1:0] abm_np_i,    // abm n_p (registers): ingress priority p at p, egress queue q at 8 + q
  input  wire [PLW-1:0]       rev_pool_i,  // reverie's one shared pool (a register)
  input  wire [PLW-1:0]       rev_pool_nx_i, // and its value in the next cycle
  // The configuration the thresholds read (the stored fields), packed as {CTRL.policy,
  // POOL_SIZE, IPROF static, shift, dynamic, pool, EPROF static, shift, dynamic, pool},
  // each array's entry k at its low end; 4-bit pool fields, of which the unit reads the low
  // PLW bits.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire [CFGW-1:0]      cfg_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output wire [NPROF*CW-1:0]  ith_o,       // threshold of ingress profile k at [k*CW +: CW] (not reverie's)
  output wire [NPROF*CW-1:0]  eth_o,       // threshold of egress profile k
  output wire [CW-1:0]        room_o,      // reverie: b* - q* of its pool
  output wire [16*NCW-1:0]    np_o,        // n_p as registered: reverie's per priority at 0..7; abm's as abm_np_i
  // The values ith_o, eth_o, room_o and np_o take in the next cycle: with REG_OUT the read
  // stage's (mmu_adm_quot divides them there).
  output wire [2*NPROF*CW-1:0] th_nx_o,    // ingress profile k at k, egress at NPROF + k
  output wire [CW-1:0]        room_nx_o,
  output wire [16*NCW-1:0]    np_nx_o
);

  // The policy, a constant when the unit has one.
  localparam int ONLY = mmu_adm_pkg::only_policy(POLICIES);

  logic [7:0]           count;   // cycles since the last load, wrapping at period_i - 1
  logic [NPOOLS*CW-1:0] pool_r;
  // The occupancy the thresholds come from: the registers, or (REG_OUT) their next value,
  // with the refund as terms of the calculator's sum (live).
  wire                    live = REG_OUT && count == '0;
  wire [NPOOLS*CW-1:0]    pool_less;  // pool_used_i less the refund
  for (genvar p = 0; p < NPOOLS; p++) begin : g_less
    assign pool_less[p*CW +: CW] = pool_used_i[p*CW +: CW] - pool_rf_i[2*p*CW +: CW] - pool_rf_i[(2*p+1)*CW +: CW];
  end
  localparam bit AB = POLICIES[mmu_adm_pkg::POLICY_ABM];
  // 16 entries: 0..7 reverie's, or abm's ingress, n_p; 8..15 abm's egress n_p.
  logic [16*NCW-1:0]    np_r;
  wire                  abm_on = AB && (ONLY >= 0 || cfg_i[CFGW-3 +: 3] == mmu_adm_pkg::POLICY_ABM);
  logic [16*NCW-1:0]    np_live;
  for (genvar p = 0; p < 8; p++) begin : g_live
    assign np_live[p*NCW +: NCW] = abm_on ? NCW'(abm_np_i[p*(PW+1) +: PW+1])
                                 : POLICIES[mmu_adm_pkg::POLICY_REVERIE] ? ncong_i[p*(QW+1) +: NCW] : '0;
    assign np_live[(8+p)*NCW +: NCW] = abm_on ? NCW'(abm_np_i[(8+p)*(PW+1) +: PW+1]) : '0;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count <= '0;
      pool_r <= '0;
      np_r <= '0;
    end else begin
      if (count == '0) begin
        pool_r <= pool_less;
        np_r <= np_live;
      end
      count <= restart_i || 9'(count) + 9'd1 >= 9'(period_i) ? '0 : count + 8'd1;
    end
  end
  assign np_o = np_r;
  assign np_nx_o = count == '0 ? np_live : np_r;


  // The thresholds (th), and reverie's pool's room (b* - q*: its alpha and the division by
  // n_p are per operation, mmu_adm_quot).
  localparam bit TH = (POLICIES & ~(6'(1) << mmu_adm_pkg::POLICY_REVERIE)) != '0;
  localparam bit RV = POLICIES[mmu_adm_pkg::POLICY_REVERIE];
  wire [2*NPROF*CW-1:0] th_s;
  wire [NPOOLS*CW-1:0] room_s;
  mmu_adm_thcalc #(.CW(CW), .NPOOLS(NPOOLS), .NPROF(NPROF), .ONLY(ONLY), .TH(TH), .ROOM(RV)) u_calc_s (
    .cfg_i, .live_i(live), .used_i(pool_used_i), .rf_i(pool_rf_i), .held_i(pool_r), .th_o(th_s), .room_o(room_s));
  logic [2*NPROF*CW-1:0] th;
  assign th_nx_o = th_s;
  assign room_nx_o = room_s[rev_pool_nx_i*CW +: CW];
  if (!REG_OUT) begin : g_comb
    assign th = th_s;
    assign room_o = room_s[rev_pool_i*CW +: CW];
  end else begin : g_reg
    // Each pool's room registered (reverie's pool is selected behind the register).
    logic [NPOOLS*CW-1:0] room_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) {th, room_q} <= '0;
      else {th, room_q} <= {th_s, room_s};
    end
    assign room_o = room_q[rev_pool_i*CW +: CW];
  end
  assign {eth_o, ith_o} = th;

endmodule

`default_nettype wire
