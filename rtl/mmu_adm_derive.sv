// Configuration-derived values of the threshold calculator: registers, refreshed at the
// edge of every CSR write from the values the write leaves (the CSR block's *_next
// outputs), so the packet path reads a register and a derived value is never older than
// the fields it comes from (the golden core recomputes them on every write,
// Policy::config_changed). Each exists only with its policy. Reset: every field they come
// from resets to 0, which gives 0 for each.
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

  // reverie's one shared pool: the pool of the first lossless PG (else of PG 0).
  if (POLICIES[mmu_adm_pkg::POLICY_REVERIE]) begin : g_rev_pool
    logic [PLW-1:0] rev_pool_d;
    always_comb begin
      rev_pool_d = ip_pool_nx_i[q_pg_prof_nx_i[0 +: PFW]*4 +: PLW];
      for (int i = NQ - 1; i >= 0; i--) begin
        if (q_lossless_nx_i[i]) rev_pool_d = ip_pool_nx_i[q_pg_prof_nx_i[i*5 +: PFW]*4 +: PLW];
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) rev_pool_o <= '0;
      else rev_pool_o <= rev_pool_d;
    end
  end else begin : g_no_rev_pool
    assign rev_pool_o = '0;
  end

  // dsh per port: lossless priorities (N_q) and insurance headroom (largest PG xoff).
  if (POLICIES[mmu_adm_pkg::POLICY_DSH]) begin : g_dsh_cfg
    logic [NPORTS*4-1:0]  dsh_nq_d;
    logic [NPORTS*CW-1:0] dsh_ins_d;
    always_comb begin
      dsh_nq_d = '0;
      dsh_ins_d = '0;
      for (int p = 0; p < NPORTS; p++) begin
        for (int q = 0; q < NPRIO; q++) begin
          if (q_lossless_nx_i[p*NPRIO+q]) begin
            dsh_nq_d[p*4 +: 4] = dsh_nq_d[p*4 +: 4] + 4'd1;
            if (ip_xoff_nx_i[q_pg_prof_nx_i[(p*NPRIO+q)*5 +: PFW]*CW +: CW] > dsh_ins_d[p*CW +: CW])
              dsh_ins_d[p*CW +: CW] = ip_xoff_nx_i[q_pg_prof_nx_i[(p*NPRIO+q)*5 +: PFW]*CW +: CW];
          end
        end
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        dsh_nq_o <= '0;
        dsh_ins_o <= '0;
      end else begin
        dsh_nq_o <= dsh_nq_d;
        dsh_ins_o <= dsh_ins_d;
      end
    end
  end else begin : g_no_dsh_cfg
    assign dsh_nq_o = '0;
    assign dsh_ins_o = '0;
  end

  // sih: the headroom all lossless PGs may hold, the sum of their xoff (a sum over NQ
  // CW-bit values: CW + QW bits).
  if (POLICIES[mmu_adm_pkg::POLICY_SIH]) begin : g_sih_hdrm
    // A chain of partial sums, one wire per queue (an always_comb accumulating into
    // sih_hdrm re-evaluates without end in Icarus 11; one flat vector is a loop to Verilator).
    for (genvar i = 0; i < NQ; i++) begin : g_q
      wire [HW-1:0] term = q_lossless_nx_i[i] ? HW'(ip_xoff_nx_i[q_pg_prof_nx_i[i*5 +: PFW]*CW +: CW]) : '0;
      wire [HW-1:0] sum;
      if (i == 0) begin : g_first
        assign sum = term;
      end else begin : g_next
        assign sum = g_q[i-1].sum + term;
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) sih_hdrm_o <= '0;
      else sih_hdrm_o <= g_q[NQ-1].sum;
    end
  end else begin : g_sih_hdrm_off
    assign sih_hdrm_o = '0;
  end

endmodule

`default_nettype wire
