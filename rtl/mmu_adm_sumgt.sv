// p_0 + ... + p_{NP-1} > m_0 + ... + m_{NM-1}, the sign of one sum: a carry-save tree of
// 3:2 compressors and a log-depth carry into the sign (or with EQ the sums' equality, the
// tree and a test without a carry: mmu_adm_sumeq). A module of its own so that the
// synthesis keeps each compare one sum: within one module, compares with a common prefix of operands share the
// prefix's adder, which puts its carry chain in series with the rest (the four-stage unit's
// test stage). The tree is written out because yosys 0.23 maps a sum of nine operands as
// a deeper network (ASAP7, 17-bit 5 + 4 operands: 825.6 ps, this tree 520.9 ps).
// Simulators (no SYNTHESIS) take the plain sums instead: a cycle-based model evaluates
// every level of the tree at every edge, several times the sums' cost. rtl_sumgt_equiv
// proves the tree equal to these sums for every operand count the unit
// uses, and the netlist equivalence ctests simulate the synthesised tree against them.
`default_nettype none

module mmu_adm_sumgt #(
  parameter int W = 17,   // width of every operand
  parameter int NP = 2,   // operands on the left (1..8)
  parameter int NM = 2,   // operands on the right (1..8)
  parameter bit EQ = 0    // gt_o is p == m instead (mmu_adm_sumeq)
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
  // W + 4 bits and a sign hold it, and the tree's sums modulo 2^DW give its sign.
  localparam int DW = W + 5;
`ifdef SYNTHESIS
  localparam int N0 = NM + NP + 1;
  localparam int NL = 6;  // levels of 3:2 compressors: 17 operands reduce to 2 in 6
  // Operands at level lv: each full group of three becomes two.
  function automatic integer cnt(input integer lv);
    integer c, k;
    c = N0;
    for (k = 0; k < lv; k = k + 1) c = c > 2 ? c / 3 * 2 + c % 3 : c;
    cnt = c;
  endfunction

  // Level l's operand r is g_lv[l].g_op[r].v; those past cnt(l) are zero. A wire per
  // operand: a vector per level would be wide to Verilator, each part-select word
  // arithmetic (and one vector for all levels a combinational loop, UNOPTFLAT).
  for (genvar l = 0; l <= NL; l++) begin : g_lv
    localparam int N = cnt(l);
    localparam int NB = l == 0 ? N0 : cnt(l - 1), G = l > 0 && NB > 2 ? NB / 3 : 0;
    for (genvar r = 0; r < N0; r++) begin : g_op
      /* verilator lint_off UNUSEDSIGNAL */ // the last level's zero operands past the two summed
      wire [DW-1:0] v;
      /* verilator lint_on UNUSEDSIGNAL */
      if (l == 0) begin : g_in
        if (r < NM) begin : g_m
          assign v = {{(DW-W){1'b0}}, m_i[r*W +: W]};
        end else if (r < NM + NP) begin : g_p
          assign v = ~{{(DW-W){1'b0}}, p_i[(r-NM)*W +: W]};
        end else begin : g_k
          assign v = DW'(NP);
        end
      end else if (r < 2*G) begin : g_fa
        // Group r / 2's three operands: their sum (even r) or their shifted carry (odd r).
        /* verilator lint_off UNUSEDSIGNAL */ // the carry's top bit falls off the DW-bit sum
        wire [DW-1:0] a = g_lv[l-1].g_op[3*(r/2)].v, b = g_lv[l-1].g_op[3*(r/2)+1].v;
        wire [DW-1:0] c = g_lv[l-1].g_op[3*(r/2)+2].v;
        /* verilator lint_on UNUSEDSIGNAL */
        if (r % 2 == 0) begin : g_s
          assign v = a ^ b ^ c;
        end else begin : g_c
          assign v = {(a[DW-2:0] & b[DW-2:0]) | (c[DW-2:0] & (a[DW-2:0] | b[DW-2:0])), 1'b0};
        end
      end else if (r < N) begin : g_pass
        assign v = g_lv[l-1].g_op[r + G].v;  // operand 3G + (r - 2G) of the level before
      end else begin : g_zero
        assign v = '0;
      end
    end
  end
  // The sign of the last two operands' sum: their top bits and the carry into the top bit,
  // a log-depth tree of (generate, propagate) pairs over the bits below (a sum would be
  // mapped as a Brent-Kung adder, about twice as deep, of which only this bit is used).
  function automatic logic carry_of(input logic [DW-2:0] g_in, input logic [DW-2:0] p_in);
    logic [DW-2:0] g, p;  // node i: the group of bits from i up, reduced in place
    g = g_in;
    p = p_in;
    for (int w = 1; w < DW - 1; w = w * 2)
      for (int i = 0; i + w < DW - 1; i = i + 2 * w) begin
        g[i] = g[i+w] | (p[i+w] & g[i]);
        p[i] = p[i+w] & p[i];
      end
    carry_of = g[0];
  endfunction
  wire [DW-1:0] x = g_lv[NL].g_op[0].v, y = g_lv[NL].g_op[1].v;
  if (EQ) begin : g_eq
    // x + y == 0 (mod 2^DW, so exactly): every bit of x ^ y equals the carry a zero sum
    // would bring into it, x | y of the bit below (0 into bit 0). No carry chain
    // (Cortadella and Llaberia's A + B = K test, K = 0).
    assign gt_o = ~|(x ^ y ^ {x[DW-2:0] | y[DW-2:0], 1'b0});
  end else begin : g_gt
    assign gt_o = x[DW-1] ^ y[DW-1] ^ carry_of(x[DW-2:0] & y[DW-2:0], x[DW-2:0] | y[DW-2:0]);
  end
`else
  // Functions, not an always_comb summing into a variable: Icarus 11 wakes such a block on
  // its own writes, and instances feeding one another then never settle.
  function automatic logic [DW-1:0] sum_p(input logic [NP*W-1:0] v);
    sum_p = '0;
    for (int k = 0; k < NP; k++) sum_p = sum_p + DW'(v[k*W +: W]);
  endfunction
  function automatic logic [DW-1:0] sum_m(input logic [NM*W-1:0] v);
    sum_m = '0;
    for (int k = 0; k < NM; k++) sum_m = sum_m + DW'(v[k*W +: W]);
  endfunction
  assign gt_o = EQ ? sum_p(p_i) == sum_m(m_i) : sum_p(p_i) > sum_m(m_i);
`endif
endmodule

`default_nettype wire
