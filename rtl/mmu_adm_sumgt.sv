// p_0 + ... + p_{NP-1} > m_0 + ... + m_{NM-1}, the sign of one sum: a carry-save tree and
// one carry chain. A module of its own so that the synthesis keeps each compare one sum:
// within one module, compares with a common prefix of operands share the prefix's adder,
// which puts its carry chain in series with the rest (the four-stage unit's test stage).
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
  // |sum| < 8 * 2^W on either side: W + 4 bits and a sign.
  localparam int DW = W + 5;
  logic [DW-1:0] d;
  always_comb begin
    d = '0;
    for (int k = 0; k < NM; k++) d = d + DW'(m_i[k*W +: W]);
    for (int k = 0; k < NP; k++) d = d - DW'(p_i[k*W +: W]);
  end
  assign gt_o = d[DW-1];
endmodule

`default_nettype wire
