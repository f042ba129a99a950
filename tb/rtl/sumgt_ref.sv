// The wrong reference of tb/rtl/sumgt_equiv.sh (GE=1: p >= m), which the check must
// refute so that it can fail; GE=0 is the plain compare mmu_adm_sumgt's simulators' form
// spells, against which the tree is proved.
`default_nettype none

module sumgt_ref #(
  parameter int W = 17,   // width of every operand
  parameter int NP = 2,   // operands on the left
  parameter int NM = 2,   // operands on the right
  parameter bit GE = 0    // 1: p >= m (the negative control)
) (
  input  wire [NP*W-1:0] p_i,
  input  wire [NM*W-1:0] m_i,
  output wire            gt_o
);
  localparam int DW = W + 5;
  logic [DW-1:0] sp, sm;
  always_comb begin
    sp = '0;
    sm = '0;
    for (int k = 0; k < NP; k++) sp = sp + DW'(p_i[k*W +: W]);
    for (int k = 0; k < NM; k++) sm = sm + DW'(m_i[k*W +: W]);
  end
  assign gt_o = GE ? sp >= sm : sp > sm;
endmodule

`default_nettype wire
