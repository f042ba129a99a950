// The pools' next values after one operation, modulo 2^CW (counter_next per pool): the
// register less the same-cycle release's refund (its terms: sub subtracted, add added),
// plus an admitted request's growth of each side's shared part (grow_of: 0, n or
// q + n - res) in the pool of that side's profile (a shared verdict both sides, a headroom
// verdict the egress side), or less a release's own refund (verdict none). mmu_adm_sonic's
// and dsh's lossless PGs' (mmu_pol_dsh), whose verdicts differ but whose charges do not.
`default_nettype none

module mmu_adm_poolnx
#(
  parameter int CW = 32,      // width of every cell counter
  parameter int CELLW = 16,   // width of a packet's cell count
  parameter int NPOOLS = 4,   // buffer pools
  localparam int PLW = NPOOLS > 1 ? $clog2(NPOOLS) : 1
) (
  input  wire [NPOOLS*CW-1:0]   v_pool_i,    // the pool registers, pool p at [p*CW +: CW]
  input  wire [NPOOLS*2*CW-1:0] rf_sub_i,    // the refund's two subtracted terms per pool
  input  wire [NPOOLS*2*CW-1:0] rf_add_i,    // its two added terms per pool
  input  wire [CW-1:0]          q_ing_i,     // the request's ingress queue's cells
  input  wire [CW-1:0]          q_egr_i,     // its egress queue's cells
  input  wire [CELLW-1:0]       n_i,         // the operation's cells
  input  wire [CW-1:0]          ires_i,      // the reserved cells of each side's profile
  input  wire [CW-1:0]          eres_i,
  input  wire [PLW-1:0]         ipool_i,     // the pool of each side's profile
  input  wire [PLW-1:0]         epool_i,
  input  wire [1:0]             verdict_i,   // mmu_adm_pkg::VERDICT_*
  input  wire [NPOOLS*CW-1:0]   rf_out_i,    // a release's own refund (0 for a request)
  output wire [NPOOLS*CW-1:0]   pool_next_o
);
  // A counter plus a packet's cells (as mmu_adm_fn.svh's SW).
  localparam int SW = (CW > CELLW ? CW : CELLW) + 1;

  // Growth of a queue's shared part when it takes n cells: shared_part(q + n) - shared_part(q).
  // (Arguments named apart from the includers' nets: Verilator inlines this module.)
  function automatic logic [SW-1:0] grow_of(input logic [SW-1:0] pq_q, input logic [SW-1:0] pq_n,
                                            input logic [CW-1:0] pq_res);
    if (pq_q + pq_n <= SW'(pq_res)) grow_of = '0;
    else if (pq_q >= SW'(pq_res)) grow_of = pq_n;
    else grow_of = pq_q + pq_n - SW'(pq_res);
  endfunction
  // A 3:2 compressor on CW-bit vectors, modulo 2^CW: a + b + c + cin = sum + carry, returned
  // as {carry, sum}. The carry is shifted, so its bit 0 is free to carry cin (the +1 of a
  // negated operand).
  function automatic logic [2*CW-1:0] csa(input logic [CW-1:0] a, input logic [CW-1:0] b, input logic [CW-1:0] c,
                                          input logic cin);
    csa = {(a[CW-2:0] & b[CW-2:0]) | (c[CW-2:0] & (a[CW-2:0] | b[CW-2:0])), cin, a ^ b ^ c};
  endfunction
  // The sum of two carry-save pairs {carry, sum}: two compressor levels and one carry chain.
  function automatic logic [CW-1:0] pair_sum(input logic [2*CW-1:0] x, input logic [2*CW-1:0] y);
    logic [2*CW-1:0] ps_t, ps_u;
    ps_t = csa(x[0 +: CW], x[CW +: CW], y[0 +: CW], 1'b0);
    ps_u = csa(ps_t[0 +: CW], ps_t[CW +: CW], y[CW +: CW], 1'b0);
    pair_sum = ps_u[0 +: CW] + ps_u[CW +: CW];
  endfunction

  wire [SW-1:0] n = SW'(n_i), q_ing = SW'(q_ing_i), q_egr = SW'(q_egr_i);
  wire [CW-1:0] sub0[NPOOLS], sub1[NPOOLS], add0[NPOOLS], add1[NPOOLS];
  for (genvar p = 0; p < NPOOLS; p++) begin : g_rf
    assign {sub1[p], sub0[p]} = rf_sub_i[p*2*CW +: 2*CW];
    assign {add1[p], add0[p]} = rf_add_i[p*2*CW +: 2*CW];
  end
`ifndef SYNTHESIS
  // Simulators: each value as one expression in order. The synthesis form below is the
  // same function (rtl_sonic_forms_equiv proves it; the netlist equivalence ctests simulate
  // it against this one) and sums all eight pairs of growth cases, which a cycle-based
  // model would evaluate at every edge.
  wire [CW-1:0] gi = CW'(grow_of(q_ing, n, ires_i)), ge = CW'(grow_of(q_egr, n, eres_i));
  for (genvar p = 0; p < NPOOLS; p++) begin : g_pool
    wire [CW-1:0] base = v_pool_i[p*CW +: CW] - sub0[p] - sub1[p] + add0[p] + add1[p];
    wire [CW-1:0] ci = ipool_i == PLW'(p) ? gi : '0, ce = epool_i == PLW'(p) ? ge : '0;
    assign pool_next_o[p*CW +: CW] = verdict_i == mmu_adm_pkg::VERDICT_SHARED ? base + ci + ce :
                                     verdict_i == mmu_adm_pkg::VERDICT_HEADROOM ? base + ce :
                                     base - rf_out_i[p*CW +: CW];
  end
`else
  // The growth's compares end late, so every pair of cases is summed beside them, from the
  // register as a carry-save pair, and the compares select among the sums; the verdict
  // selects last, as counter_next ("The pools' next values", docs/rtl.md).
  wire i_past, e_past;  // q + n > res
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(1)) u_i_past (.p_i({q_ing, n}), .m_i(SW'(ires_i)), .gt_o(i_past));
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(1)) u_e_past (.p_i({q_egr, n}), .m_i(SW'(eres_i)), .gt_o(e_past));
  wire i_below = ires_i > q_ing_i, e_below = eres_i > q_egr_i;  // res > q: the partial growth
  // The growth as a carry-save pair, ingress case x egress case (z none, n, p the partial
  // growth); -res is ~res + 1, the 1 in a carry's free bit 0. n x z and z x n are one.
  wire [CW-1:0] nc = CW'(n), n2 = CW'(n) << 1;
  wire [2*CW-1:0] g_nz = {CW'(0), nc}, g_nn = {CW'(0), n2};
  wire [2*CW-1:0] g_pz = csa(q_ing_i, nc, ~ires_i, 1'b1), g_zp = csa(q_egr_i, nc, ~eres_i, 1'b1);
  wire [2*CW-1:0] g_pn = csa(q_ing_i, n2, ~ires_i, 1'b1), g_np = csa(q_egr_i, n2, ~eres_i, 1'b1);
  wire [2*CW-1:0] g_pp1 = csa(q_ing_i, q_egr_i, n2, 1'b1), g_pp2 = csa(g_pp1[0 +: CW], ~ires_i, ~eres_i, 1'b1);
  wire [2*CW-1:0] g_pp = csa(g_pp2[0 +: CW], g_pp2[CW +: CW], g_pp1[CW +: CW], 1'b0);
  for (genvar p = 0; p < NPOOLS; p++) begin : g_pool
    // The register less the refund's terms, a pair: -x is ~x + 1.
    wire [2*CW-1:0] b1 = csa(v_pool_i[p*CW +: CW], ~sub0[p], ~sub1[p], 1'b1);
    wire [2*CW-1:0] b2 = csa(b1[0 +: CW], b1[CW +: CW], add0[p], 1'b1);
    wire [2*CW-1:0] base = csa(b2[0 +: CW], b2[CW +: CW], add1[p], 1'b0);
    wire [CW-1:0] s_zz = base[0 +: CW] + base[CW +: CW];
    wire [CW-1:0] s_nz = pair_sum(base, g_nz), s_nn = pair_sum(base, g_nn);
    wire [CW-1:0] s_pz = pair_sum(base, g_pz), s_zp = pair_sum(base, g_zp);
    wire [CW-1:0] s_pn = pair_sum(base, g_pn), s_np = pair_sum(base, g_np), s_pp = pair_sum(base, g_pp);
    // A shared verdict charges the ingress pool and the egress pool, a headroom verdict
    // the egress pool only. Each side's case: res > q first (it ends earlier), q + n > res
    // last.
    wire ti = ipool_i == PLW'(p) && i_past, te = epool_i == PLW'(p) && e_past;
    wire [CW-1:0] r_z = ti ? (i_below ? s_pz : s_nz) : s_zz;  // the ingress case, egress none
    wire [CW-1:0] r_n = ti ? (i_below ? s_pn : s_nn) : s_nz;  // ... egress n
    wire [CW-1:0] r_p = ti ? (i_below ? s_pp : s_np) : s_zp;  // ... egress partial
    wire [CW-1:0] nx_sh = te ? (e_below ? r_p : r_n) : r_z;
    wire [CW-1:0] nx_hd = te ? (e_below ? s_zp : s_nz) : s_zz;
    // A release's own refund: a release charges nothing, so it is only here.
    wire [2*CW-1:0] b_out = csa(base[0 +: CW], base[CW +: CW], ~rf_out_i[p*CW +: CW], 1'b1);
    wire [CW-1:0] nx_none = b_out[0 +: CW] + b_out[CW +: CW];
    assign pool_next_o[p*CW +: CW] = verdict_i == mmu_adm_pkg::VERDICT_SHARED ? nx_sh :
                                     verdict_i == mmu_adm_pkg::VERDICT_HEADROOM ? nx_hd : nx_none;
  end
`endif

endmodule

`default_nettype wire
