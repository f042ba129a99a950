// N operands of W bits reduced to two with the same sum modulo 2^W: a tree of 3:2
// compressors (carry-save), no carry chain. The compares (mmu_adm_sumgt) and the pools'
// next values (mmu_adm_sonic) add its two outputs with one carry chain. Written out
// because yosys 0.23 maps a sum of many operands as a deeper network (ASAP7, a 17-bit
// compare of 5 + 4 operands: 825.6 ps as plain sums, 520.9 ps through this tree).
`default_nettype none

module mmu_adm_csa #(
  parameter int W = 17,   // width of every operand and of the two results
  parameter int N = 3     // operands (1..40)
) (
  input  wire [N*W-1:0] in_i,  // operand k at [k*W +: W]
  output wire [W-1:0]   s_o,   // s_o + c_o = the operands' sum, modulo 2^W
  output wire [W-1:0]   c_o
);
  // Icarus 11 has no elaboration-time $error; it fails at time 0 instead.
`ifdef __ICARUS__
  initial if (N < 1 || N > 40) $fatal(1, "mmu_adm_csa: N must be 1..40");
`else
  if (N < 1 || N > 40) begin : g_bad
    $error("mmu_adm_csa: N must be 1..40");
  end
`endif
  // Under Verilator the module is the sum itself (s_o the sum, c_o zero: the same
  // s_o + c_o, proved equal for the operand counts the RTL uses by tb/rtl/sumgt_equiv.sh):
  // the trees cost it three times the evaluation of the whole unit (rtl_soak p3mid and mid,
  // 300,000 requests: 9.8 s with plain sums, 31.4 s with the trees). -DMMU_CSA_TREE keeps
  // the tree (a lint set of its own); every other tool, and the synthesis, builds it.
`ifdef VERILATOR
`ifndef MMU_CSA_TREE
`define MMU_CSA_SIM_SUM
`endif
`endif
`ifdef MMU_CSA_SIM_SUM
`undef MMU_CSA_SIM_SUM
  logic [W-1:0] sum;
  always_comb begin
    sum = '0;
    for (int k = 0; k < N; k++) sum = sum + in_i[k*W +: W];
  end
  assign s_o = sum;
  assign c_o = '0;
`else
  localparam int NL = 8;  // levels of compressors: 40 operands reduce to 2 in 8
  // Operands at level lv: each full group of three becomes two.
  function automatic integer cnt(input integer lv);
    integer cn, k;
    cn = N;
    for (k = 0; k < lv; k = k + 1) cn = cn > 2 ? cn / 3 * 2 + cn % 3 : cn;
    cnt = cn;
  endfunction

  // Level l's operand r at g_lv[l].v[r]. An array per level: one vector for all would be a
  // combinational loop to Verilator (UNOPTFLAT).
  for (genvar l = 0; l <= NL; l++) begin : g_lv
    localparam int M = cnt(l);
    wire [W-1:0] v [M];
    if (l == 0) begin : g_in
      for (genvar k = 0; k < N; k++) begin : g_op
        assign v[k] = in_i[k*W +: W];
      end
    end else begin : g_csa
      localparam int NB = cnt(l - 1), G = NB > 2 ? NB / 3 : 0;
      for (genvar g = 0; g < G; g++) begin : g_fa
        wire [W-1:0] a = g_lv[l-1].v[3*g], b = g_lv[l-1].v[3*g+1], c = g_lv[l-1].v[3*g+2];
        assign v[2*g] = a ^ b ^ c;
        if (W > 1) begin : g_carry
          assign v[2*g+1] = {(a[W-2:0] & b[W-2:0]) | (c[W-2:0] & (a[W-2:0] | b[W-2:0])), 1'b0};
        end else begin : g_bit
          assign v[2*g+1] = '0;
        end
      end
      for (genvar r = 3*G; r < NB; r++) begin : g_pass
        assign v[2*G + r - 3*G] = g_lv[l-1].v[r];
      end
    end
  end
  localparam int NLAST = cnt(NL);
  assign s_o = g_lv[NL].v[0];
  if (NLAST > 1) begin : g_two
    assign c_o = g_lv[NL].v[1];
  end else begin : g_one
    assign c_o = '0;
  end
`endif
endmodule

`default_nettype wire
