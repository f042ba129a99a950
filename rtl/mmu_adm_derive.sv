// Configuration-derived values of the threshold calculator: registers, loaded at the edge
// of a CSR write to a field they come from, with the values the write leaves (the stored
// fields, the written entry replaced by the CSR block's write port), so the packet path
// reads a register and a derived value is never older than the fields it comes from (the
// golden core recomputes them on every write, Policy::config_changed). The fields after
// the write are formed, and the tables computed, inside the clocked blocks under the
// write's enable: in hardware the same logic in front of registers with an enable; a
// simulator evaluates the loops over the queues only at such a write, not on every input
// change. Each exists only with its policy. Reset: every field they come from resets to 0,
// which gives 0 for each.
`default_nettype none

module mmu_adm_derive
#(
  parameter int NPORTS = 8,
  parameter int NPRIO = 8,
  parameter int CW = 32,
  parameter int NPOOLS = 4,
  parameter int NPROF = 8,
  parameter logic [5:0] POLICIES = 6'b011111,
  localparam int NQ = NPORTS * NPRIO,
  localparam int QW = NQ > 1 ? $clog2(NQ) : 1,
  localparam int PFW = NPROF > 1 ? $clog2(NPROF) : 1,
  localparam int PLW = NPOOLS > 1 ? $clog2(NPOOLS) : 1,
  localparam int HW = CW + QW  // a sum of CW-bit values over the NQ queues
) (
  // All unused when the policies with derived values are left out.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire                  clk_i,
  input  wire                  rst_ni,
  // The stored fields, and this cycle's accepted write of each (enable, entry, value; the
  // entry at the CSR block's index width, below NPROF or NQ).
  input  wire [NPROF*4-1:0]    ip_pool_i,
  input  wire                  ip_pool_we_i,
  input  wire [8:0]            ip_pool_widx_i,
  input  wire [3:0]            ip_pool_wd_i,
  input  wire [NPROF*CW-1:0]   ip_xoff_i,
  input  wire                  ip_xoff_we_i,
  input  wire [8:0]            ip_xoff_widx_i,
  input  wire [CW-1:0]         ip_xoff_wd_i,
  input  wire [NQ*5-1:0]       q_pg_prof_i,
  input  wire [NQ-1:0]         q_lossless_i,
  input  wire                  qmap_we_i,
  input  wire [11:0]           qmap_widx_i,
  input  wire [4:0]            q_pg_prof_wd_i,
  input  wire                  q_lossless_wd_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [PLW-1:0]       rev_pool_o,  // reverie's one shared pool
  output logic [NPORTS*4-1:0]  dsh_nq_o,    // dsh: lossless priorities per port
  output logic [NPORTS*CW-1:0] dsh_ins_o,   // dsh: insurance headroom per port
  output logic [HW-1:0]        sih_hdrm_o   // sih: sum of xoff over the lossless PGs
);

  /* verilator lint_off UNUSEDSIGNAL */
  wire load = ip_pool_we_i || ip_xoff_we_i || qmap_we_i;
  /* verilator lint_on UNUSEDSIGNAL */

  // The blocks below form the fields after the write and accumulate in variables local to
  // their clocked block (blocking assignments, read only within it), and store with '<='.
  /* verilator lint_off BLKSEQ */

  // reverie's one shared pool: the pool of the first lossless PG (else of PG 0).
  if (POLICIES[mmu_adm_pkg::POLICY_REVERIE]) begin : g_rev_pool
    logic [NPROF*4-1:0] pools;
    logic [NQ*5-1:0]    prof;
    logic [NQ-1:0]      ll;
    logic [PLW-1:0]     pool;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) rev_pool_o <= '0;
      else if (load) begin
        pools = ip_pool_i;
        if (ip_pool_we_i) pools[PFW'(ip_pool_widx_i)*4 +: 4] = ip_pool_wd_i;
        prof = q_pg_prof_i;
        ll = q_lossless_i;
        if (qmap_we_i) {prof[QW'(qmap_widx_i)*5 +: 5], ll[QW'(qmap_widx_i)]} = {q_pg_prof_wd_i, q_lossless_wd_i};
        pool = pools[prof[0 +: PFW]*4 +: PLW];
        for (int i = NQ - 1; i >= 0; i--) begin
          if (ll[i]) pool = pools[prof[i*5 +: PFW]*4 +: PLW];
        end
        rev_pool_o <= pool;
      end
    end
  end else begin : g_no_rev_pool
    assign rev_pool_o = '0;
  end

  // dsh per port: lossless priorities (N_q) and insurance headroom (largest PG xoff).
  if (POLICIES[mmu_adm_pkg::POLICY_DSH]) begin : g_dsh_cfg
    logic [NPROF*CW-1:0]  xoff;
    logic [NQ*5-1:0]      prof;
    logic [NQ-1:0]        ll;
    logic [NPORTS*4-1:0]  nq;
    logic [NPORTS*CW-1:0] ins;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        dsh_nq_o <= '0;
        dsh_ins_o <= '0;
      end else if (load) begin
        xoff = ip_xoff_i;
        if (ip_xoff_we_i) xoff[PFW'(ip_xoff_widx_i)*CW +: CW] = ip_xoff_wd_i;
        prof = q_pg_prof_i;
        ll = q_lossless_i;
        if (qmap_we_i) {prof[QW'(qmap_widx_i)*5 +: 5], ll[QW'(qmap_widx_i)]} = {q_pg_prof_wd_i, q_lossless_wd_i};
        nq = '0;
        ins = '0;
        for (int p = 0; p < NPORTS; p++) begin
          for (int q = 0; q < NPRIO; q++) begin
            if (ll[p*NPRIO+q]) begin
              nq[p*4 +: 4] = nq[p*4 +: 4] + 4'd1;
              if (xoff[prof[(p*NPRIO+q)*5 +: PFW]*CW +: CW] > ins[p*CW +: CW])
                ins[p*CW +: CW] = xoff[prof[(p*NPRIO+q)*5 +: PFW]*CW +: CW];
            end
          end
        end
        dsh_nq_o <= nq;
        dsh_ins_o <= ins;
      end
    end
  end else begin : g_no_dsh_cfg
    assign dsh_nq_o = '0;
    assign dsh_ins_o = '0;
  end

  // sih: the headroom all lossless PGs may hold, the sum of their xoff (a sum over NQ
  // CW-bit values: CW + QW bits).
  if (POLICIES[mmu_adm_pkg::POLICY_SIH]) begin : g_sih_hdrm
    logic [NPROF*CW-1:0] xoff;
    logic [NQ*5-1:0]     prof;
    logic [NQ-1:0]       ll;
    logic [HW-1:0]       sum;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) sih_hdrm_o <= '0;
      else if (load) begin
        xoff = ip_xoff_i;
        if (ip_xoff_we_i) xoff[PFW'(ip_xoff_widx_i)*CW +: CW] = ip_xoff_wd_i;
        prof = q_pg_prof_i;
        ll = q_lossless_i;
        if (qmap_we_i) {prof[QW'(qmap_widx_i)*5 +: 5], ll[QW'(qmap_widx_i)]} = {q_pg_prof_wd_i, q_lossless_wd_i};
        sum = '0;
        for (int i = 0; i < NQ; i++) begin
          if (ll[i]) sum = sum + HW'(xoff[prof[i*5 +: PFW]*CW +: CW]);
        end
        sih_hdrm_o <= sum;
      end
    end
  end else begin : g_sih_hdrm_off
    assign sih_hdrm_o = '0;
  end
  /* verilator lint_on BLKSEQ */

endmodule

`default_nettype wire
