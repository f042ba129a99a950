// p_0 + ... + p_{NP-1} > m_0 + ... + m_{NM-1}, the sign of one sum: a carry-save tree
// (mmu_adm_csa) and one carry chain. A module of its own so that the synthesis keeps each
// compare one sum: within one module, compares with a common prefix of operands share the
// prefix's adder, which puts its carry chain in series with the rest (the four-stage
// unit's test stage).
`default_nettype none

module mmu_adm_sumgt #(
  parameter int W = 17,   // width of every operand
  parameter int NP = 2,   // operands on the left (1..8)
  parameter int NM = 2    // operands on the right (1..8)
) (
  input  wire [NP*W-1:0] p_i,  // operand k at [k*W +: W]
  input  wire [NM*W-1:0] m_i,
  output wire            gt_o
);
  // Icarus 11 has no elaboration-time $error; it fails at time 0 instead.
`ifdef __ICARUS__
  initial if (NP < 1 || NP > 8 || NM < 1 || NM > 8) $fatal(1, "mmu_adm_sumgt: NP and NM must be 1..8");
`else
  if (NP < 1 || NP > 8 || NM < 1 || NM > 8) begin : g_bad
    $error("mmu_adm_sumgt: NP and NM must be 1..8");
  end
`endif
  // sum(m) - sum(p) = sum(m) + sum(~p) + NP in DW bits: |sum| < 8 * 2^W on either side, so
  // W + 4 bits and a sign hold it, and the sum modulo 2^DW gives its sign.
  localparam int DW = W + 5;
  localparam int N = NM + NP + 1;
  wire [N*DW-1:0] ops;
  for (genvar k = 0; k < NM; k++) begin : g_m
    assign ops[k*DW +: DW] = {{(DW-W){1'b0}}, m_i[k*W +: W]};
  end
  for (genvar k = 0; k < NP; k++) begin : g_p
    assign ops[(NM+k)*DW +: DW] = ~{{(DW-W){1'b0}}, p_i[k*W +: W]};
  end
  assign ops[(N-1)*DW +: DW] = DW'(NP);
  wire [DW-1:0] s, c;
  mmu_adm_csa #(.W(DW), .N(N)) u_csa (.in_i(ops), .s_o(s), .c_o(c));
  wire [DW-1:0] d = s + c;
  assign gt_o = d[DW-1];
endmodule

`default_nettype wire
