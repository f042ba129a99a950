// p_0 + ... + p_{NP-1} == m_0 + ... + m_{NM-1}: mmu_adm_sumgt's carry-save tree and a zero
// test without a carry chain (an equality on a sum would otherwise be an adder's carries
// and then the compare).
`default_nettype none

module mmu_adm_sumeq #(
  parameter int W = 17,   // width of every operand
  parameter int NP = 2,   // operands on the left (1..8)
  parameter int NM = 2    // operands on the right (1..8)
) (
  input  wire [NP*W-1:0] p_i,  // operand k at [k*W +: W]
  input  wire [NM*W-1:0] m_i,
  output wire            eq_o
);
  mmu_adm_sumgt #(.W(W), .NP(NP), .NM(NM), .EQ(1'b1)) u_sum (.p_i, .m_i, .gt_o(eq_o));
endmodule

`default_nettype wire
