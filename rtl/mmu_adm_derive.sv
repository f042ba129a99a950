// Configuration-derived values of the threshold calculator: registers, loaded at the edge
// of a CSR write (load_i) from the values the write leaves (the CSR block's *_next
// outputs), so the packet path reads a register and a derived value is never older than
// the fields it comes from (the golden core recomputes them on every write,
// Policy::config_changed). The tables are computed inside the clocked blocks under load_i,
// so a simulator evaluates their loops over the queues only on a write, not on every input
// change (in hardware: the same logic, the registers with an enable). Each exists only
// with its policy. Reset: every field they come from resets to 0, which gives 0 for each.
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
  input  wire                  load_i,  // a CSR write this cycle (accepted or not)
  // The fields after this cycle's CSR write.
  input  wire [NPROF*4-1:0]    ip_pool_nx_i,
  input  wire [NPROF*CW-1:0]   ip_xoff_nx_i,
  input  wire [NQ*5-1:0]       q_pg_prof_nx_i,
  input  wire [NQ-1:0]         q_lossless_nx_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [PLW-1:0]       rev_pool_o,  // reverie's one shared pool
  output logic [NPORTS*4-1:0]  dsh_nq_o,    // dsh: lossless priorities per port
  output logic [NPORTS*CW-1:0] dsh_ins_o,   // dsh: insurance headroom per port
  output logic [HW-1:0]        sih_hdrm_o   // sih: sum of xoff over the lossless PGs
);

  // The loops below accumulate in variables local to their clocked block (blocking
  // assignments, read only within the block) and store the result with '<='.
  /* verilator lint_off BLKSEQ */

  // reverie's one shared pool: the pool of the first lossless PG (else of PG 0).
  if (POLICIES[mmu_adm_pkg::POLICY_REVERIE]) begin : g_rev_pool
    logic [PLW-1:0] pool;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) rev_pool_o <= '0;
      else if (load_i) begin
        pool = ip_pool_nx_i[q_pg_prof_nx_i[0 +: PFW]*4 +: PLW];
        for (int i = NQ - 1; i >= 0; i--) begin
          if (q_lossless_nx_i[i]) pool = ip_pool_nx_i[q_pg_prof_nx_i[i*5 +: PFW]*4 +: PLW];
        end
        rev_pool_o <= pool;
      end
    end
  end else begin : g_no_rev_pool
    assign rev_pool_o = '0;
  end

  // dsh per port: lossless priorities (N_q) and insurance headroom (largest PG xoff).
  if (POLICIES[mmu_adm_pkg::POLICY_DSH]) begin : g_dsh_cfg
    logic [NPORTS*4-1:0]  nq;
    logic [NPORTS*CW-1:0] ins;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        dsh_nq_o <= '0;
        dsh_ins_o <= '0;
      end else if (load_i) begin
        nq = '0;
        ins = '0;
        for (int p = 0; p < NPORTS; p++) begin
          for (int q = 0; q < NPRIO; q++) begin
            if (q_lossless_nx_i[p*NPRIO+q]) begin
              nq[p*4 +: 4] = nq[p*4 +: 4] + 4'd1;
              if (ip_xoff_nx_i[q_pg_prof_nx_i[(p*NPRIO+q)*5 +: PFW]*CW +: CW] > ins[p*CW +: CW])
                ins[p*CW +: CW] = ip_xoff_nx_i[q_pg_prof_nx_i[(p*NPRIO+q)*5 +: PFW]*CW +: CW];
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
    logic [HW-1:0] sum;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) sih_hdrm_o <= '0;
      else if (load_i) begin
        sum = '0;
        for (int i = 0; i < NQ; i++) begin
          if (q_lossless_nx_i[i]) sum = sum + HW'(ip_xoff_nx_i[q_pg_prof_nx_i[i*5 +: PFW]*CW +: CW]);
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
