// Threshold calculator (issue 13 item 2), beside the packet path: every THRESH_PERIOD-th
// cycle (a counter from reset, restarted by every CSR write) it registers the pool
// occupancies and n_p, and from those registers and the configuration it computes every
// ingress and egress profile's threshold: DT's alpha (pool size - occupancy) (dt, sih, dsh),
// alpha x pool size (static), alpha (b* - q*) on reverie's one pool before the division by
// n_p (reverie), or the profile's static_th. An operation selects its profiles' entries
// (mmu_adm_op); nothing here depends on the operation in flight, so no threshold waits for
// the counters an operation is changing. A load at a clock edge takes the state before
// that cycle's operations; the golden core models the same timing
// (hw-model/admission/threshold_block.*).
//
// REG_OUT (the pipelined unit): the thresholds leave through registers, so the decide stage
// starts at a flip-flop, not at the calculator's pool select, subtract and shift. They are
// the same values a cycle earlier, not staler: the registers load what the outputs would
// show in the next cycle, from the occupancy registers' next value and the configuration's
// (the inputs are then the fields' next values, this cycle's CSR write applied), and reset
// to the thresholds of the reset configuration (0). reverie's one pool is a derived register
// loaded at a write's edge (mmu_adm_derive), whose next value is the derive block's long
// configuration path: so reverie's thresholds are registered for every pool and selected by
// it behind the registers.
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
  localparam int PLW = NPOOLS > 1 ? $clog2(NPOOLS) : 1
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire [7:0]           period_i,    // THRESH_PERIOD (1..255)
  input  wire                 restart_i,   // a CSR write this cycle
  input  wire [2:0]           policy_i,    // CTRL.policy (REG_OUT: its next value)
  input  wire [NPOOLS*CW-1:0] pool_used_i, // the pool counters (registers)
  input  wire [8*(QW+1)-1:0]  ncong_i,     // reverie n_p per priority (registers)
  input  wire [NPOOLS*CW-1:0] pool_size_i,
  input  wire [PLW-1:0]       rev_pool_i,  // reverie's one shared pool (the register, either way)
  // pool_size_i and the profile tables (REG_OUT: their next values); 4-bit pool fields, of
  // which the unit reads the low PLW bits.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire [NPROF*4-1:0]   ip_pool_i,
  input  wire [NPROF*4-1:0]   ep_pool_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire [NPROF-1:0]     ip_dynamic_i,
  input  wire [NPROF*5-1:0]   ip_shift_i,
  input  wire [NPROF*CW-1:0]  ip_static_i,
  input  wire [NPROF-1:0]     ep_dynamic_i,
  input  wire [NPROF*5-1:0]   ep_shift_i,
  input  wire [NPROF*CW-1:0]  ep_static_i,
  output wire [NPROF*CW-1:0]  ith_o,       // threshold of ingress profile k at [k*CW +: CW]
  output wire [NPROF*CW-1:0]  eth_o,       // threshold of egress profile k
  output wire [8*(QW+1)-1:0]  np_o         // n_p per priority as registered
);
  // scale and dt_threshold at CW bits; the other helpers of the include go unused.
  localparam int EWMA_FRAC = 0;
  localparam int CELLW = 1;
`include "mmu_adm_fn.svh"

  logic [7:0]           count;   // cycles since the last load, wrapping at period_i - 1
  logic [NPOOLS*CW-1:0] pool_r;
  // The occupancy the thresholds come from: the registers, or (REG_OUT) their next value.
  wire [NPOOLS*CW-1:0]  pool_src = REG_OUT && count == '0 ? pool_used_i : pool_r;
  logic [8*(QW+1)-1:0]  np_r;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count <= '0;
      pool_r <= '0;
      np_r <= '0;
    end else begin
      if (count == '0) begin
        pool_r <= pool_used_i;
        np_r <= POLICIES[mmu_adm_pkg::POLICY_REVERIE] ? ncong_i : '0;
      end
      count <= restart_i || 9'(count) + 9'd1 >= 9'(period_i) ? '0 : count + 8'd1;
    end
  end
  assign np_o = np_r;

  // The policy, a constant when the unit has one.
  function automatic int only_policy();
    only_policy = -1;
    for (int k = 0; k < 6; k++) if (POLICIES == 6'(1 << k)) only_policy = k;
  endfunction
  localparam int ONLY = only_policy();
  wire [2:0] sel = ONLY >= 0 ? 3'(ONLY) : policy_i;
  wire is_static = sel == mmu_adm_pkg::POLICY_STATIC;
  wire is_rev = sel == mmu_adm_pkg::POLICY_REVERIE;

  // Each profile's thresholds on its own pool (without REG_OUT: reverie's pool for reverie).
  logic [NPROF*CW-1:0] ith, eth;
  for (genvar k = 0; k < NPROF; k++) begin : g_prof
    wire [PLW-1:0] ipool = is_rev && !REG_OUT ? rev_pool_i : ip_pool_i[k*4 +: PLW];
    wire [PLW-1:0] epool = is_rev && !REG_OUT ? rev_pool_i : ep_pool_i[k*4 +: PLW];
    // static: the threshold of an empty pool.
    wire [CW-1:0] iused = is_static ? '0 : pool_src[ipool*CW +: CW];
    wire [CW-1:0] eused = is_static ? '0 : pool_src[epool*CW +: CW];
    assign ith[k*CW +: CW] = dt_threshold(ip_dynamic_i[k], ip_shift_i[k*5 +: 5], ip_static_i[k*CW +: CW],
                                          pool_size_i[ipool*CW +: CW], iused);
    assign eth[k*CW +: CW] = dt_threshold(ep_dynamic_i[k], ep_shift_i[k*5 +: 5], ep_static_i[k*CW +: CW],
                                          pool_size_i[epool*CW +: CW], eused);
  end

  if (!REG_OUT) begin : g_comb
    assign {ith_o, eth_o} = {ith, eth};
  end else begin : g_reg
    logic [NPROF*CW-1:0] ith_q, eth_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) {ith_q, eth_q} <= '0;
      else {ith_q, eth_q} <= {ith, eth};
    end
    if (POLICIES[mmu_adm_pkg::POLICY_REVERIE]) begin : g_rev
      // reverie: every profile's thresholds on every pool, the pool selected behind the
      // registers.
      logic [NPROF*NPOOLS*CW-1:0] rith_q, reth_q;
      logic is_rev_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) {rith_q, reth_q, is_rev_q} <= '0;
        else begin
          is_rev_q <= is_rev;
          for (int k = 0; k < NPROF; k++)
            for (int p = 0; p < NPOOLS; p++) begin
              rith_q[(k*NPOOLS+p)*CW +: CW] <= dt_threshold(ip_dynamic_i[k], ip_shift_i[k*5 +: 5], ip_static_i[k*CW +: CW],
                                                            pool_size_i[p*CW +: CW], pool_src[p*CW +: CW]);
              reth_q[(k*NPOOLS+p)*CW +: CW] <= dt_threshold(ep_dynamic_i[k], ep_shift_i[k*5 +: 5], ep_static_i[k*CW +: CW],
                                                            pool_size_i[p*CW +: CW], pool_src[p*CW +: CW]);
            end
        end
      end
      wire rev = ONLY >= 0 || is_rev_q;  // with one policy, reverie
      for (genvar k = 0; k < NPROF; k++) begin : g_sel
        wire [NPOOLS*CW-1:0] ri = rith_q[k*NPOOLS*CW +: NPOOLS*CW], re = reth_q[k*NPOOLS*CW +: NPOOLS*CW];
        assign ith_o[k*CW +: CW] = rev ? ri[rev_pool_i*CW +: CW] : ith_q[k*CW +: CW];
        assign eth_o[k*CW +: CW] = rev ? re[rev_pool_i*CW +: CW] : eth_q[k*CW +: CW];
      end
    end else begin : g_no_rev
      assign {ith_o, eth_o} = {ith_q, eth_q};
    end
  end

endmodule

`default_nettype wire
