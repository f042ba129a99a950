// The SONiC buffer model (reverie-nsdi24 §2.2), shared by dt, static, sih, abm and dsh's
// lossy traffic as hw-model/admission/policies/sonic.cc is: ingress and egress admission
// over pools, lossless PGs paused into headroom, the headroom-first release and the XON
// test, on the thresholds of the threshold calculator (ith_i, eth_i: registered, the same
// for the admission and the XON test); the policy gives the headroom capacity.
`include "mmu_adm_pol_if.svh"
`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module mmu_adm_sonic #(
  `MMU_POL_PARAMS,
  // Dual issue's request takes the same-cycle release's refund from its operands (rfx_*,
  // the release a SONiC one), else as formed (rf_*: dsh, whose lossless release is not).
  parameter bit RFX = 1'b1
) (
  `MMU_POL_PORTS,
  input  wire [HW-1:0] hdrm_cap_i   // headroom the lossless PGs may use in total
);
/* verilator lint_on UNUSEDSIGNAL */
`include "mmu_adm_fn.svh"
  `MMU_POL_NEXT

  // hdrm_used + n against the capacity: wide enough for both.
  localparam int KW = SW > HW ? SW : HW;

  wire [CW-1:0] ipool_size = cfg_pool_size_i[ipool_i*CW +: CW];
  wire [CW-1:0] ipool_used = v_pool_used_i[ipool_i*CW +: CW];
  wire [CW-1:0] ipool_rf = rf_pool_used_i[ipool_i*CW +: CW];
  wire [CW-1:0] epool_size = cfg_pool_size_i[epool_i*CW +: CW];
  wire [CW-1:0] epool_used = v_pool_used_i[epool_i*CW +: CW];
  wire [CW-1:0] epool_rf = rf_pool_used_i[epool_i*CW +: CW];

  // Every test and update below is a sum of the view's registers, the operation's cells,
  // the configuration and (dual issue's request) the release's refund rf_*, so that no
  // test waits for another's difference ("The decide stage", docs/rtl.md).
  wire [SW-1:0] n = SW'(cells_i);
  wire [SW-1:0] q_ing = SW'(v_ing_i);
  wire [SW-1:0] q_hdrm = SW'(v_hdrm_i);
  wire [SW-1:0] q_egr = SW'(v_egr_i);
  wire [SW-1:0] q_in = q_ing + q_hdrm;  // the PG's cells
  // Charges and refunds of the pools, which count modulo 2^CW.
  wire [SW-1:0] grow_in = grow_of(q_ing, n, ires_i), grow_eg = grow_of(q_egr, n, eres_i);
  wire [CW-1:0] grow = CW'(grow_in);
  wire [CW-1:0] egrow = CW'(grow_eg);
  // The pools' tests, pool_used - rf + grow > size, and the headroom pool's, hdrm_used - rf
  // + n > capacity, rf the release's refund of that pool. With RFX the refund is not formed
  // (its min-selects and sum would sit in front of the tests): the release of n_r cells
  // from h_r headroom and q_r, qe_r queue cells refunds max(0, min(n_r - h_r, q_r - ires_r))
  // of its ingress pool, max(0, min(n_r, qe_r - eres_r)) of its egress pool and min(n_r,
  // h_r) of the headroom pool (shrink_of, below), and X > max(0, min(a, b)) + max(0, min(c,
  // d)) iff X > 0, X > min(a, b), X > min(c, d) and X > min(a + c, a + d, b + c, b + d):
  // compares of registered operands in parallel, the release's pools selecting last.
  wire [SW-1:0] rn = SW'(rfx_cells_i), rh = SW'(rfx_hdrm_i), rq = SW'(rfx_ing_i), rqe = SW'(rfx_egr_i);
  wire [SW-1:0] rr = SW'(rfx_ires_i), rre = SW'(rfx_eres_i);
  // a + b + c + d > e + f + g (each operand below 2^SW).
  function automatic logic sum_gt4(input logic [SW-1:0] a, input logic [SW-1:0] b, input logic [SW-1:0] c,
                                   input logic [SW-1:0] d, input logic [SW-1:0] e, input logic [SW-1:0] f,
                                   input logic [SW-1:0] g);
    logic [SW+2:0] diff;
    diff = (SW+3)'(e) + (SW+3)'(f) + (SW+3)'(g) - (SW+3)'(a) - (SW+3)'(b) - (SW+3)'(c) - (SW+3)'(d);
    sum_gt4 = diff[SW+2];
  endfunction
  logic [1:0] full;  // the ingress (0) and egress (1) pool's test
  for (genvar e = 0; e < 2; e++) begin : g_full
    wire [PLW-1:0] pool = e == 0 ? ipool_i : epool_i;
    wire [SW-1:0] u = e == 0 ? SW'(ipool_used) : SW'(epool_used), z = e == 0 ? SW'(ipool_size) : SW'(epool_size);
    wire [SW-1:0] g = e == 0 ? grow_in : grow_eg;
    wire t0 = sum_gt4(u, g, '0, '0, z, '0, '0);
    wire ti = sum_gt4(u, g, rh, '0, z, rn, '0) || sum_gt4(u, g, rr, '0, z, rq, '0);
    wire te = sum_gt4(u, g, '0, '0, z, rn, '0) || sum_gt4(u, g, rre, '0, z, rqe, '0);
    wire tie = sum_gt4(u, g, rh, '0, z, rn, rn) || sum_gt4(u, g, rh, rre, z, rn, rqe) ||
               sum_gt4(u, g, rr, '0, z, rq, rn) || sum_gt4(u, g, rr, rre, z, rq, rqe);
    wire vi = rfx_on_i && rfx_ipool_i == pool, ve = rfx_on_i && rfx_epool_i == pool;
    assign full[e] = !RFX ? sum_gt(u, g, '0, z, e == 0 ? SW'(ipool_rf) : SW'(epool_rf), '0) :
                     t0 && (!vi || ti) && (!ve || te) && (!(vi && ve) || tie);
  end
  wire over_in = over_full(v_ing_i, cells_i, ires_i, ith_i, full[0]);
  wire over_eg = over_full(v_egr_i, cells_i, eres_i, eth_i, full[1]);
  // capacity + rf - hdrm_used - n, one sum each, for rf the refund as formed (0 with RFX:
  // no release), n_r and h_r.
  function automatic logic [KW+1:0] room(input logic [HW-1:0] cap, input logic [CW-1:0] used, input logic [SW-1:0] c,
                                         input logic [SW-1:0] rf);
    room = (KW+2)'(cap) + (KW+2)'(rf) - (KW+2)'(used) - (KW+2)'(c);
  endfunction
  wire [KW+1:0] room_rf = room(hdrm_cap_i, v_hdrm_used_i, n, RFX ? '0 : SW'(rf_hdrm_used_i));
  wire [KW+1:0] room_n = room(hdrm_cap_i, v_hdrm_used_i, n, rn), room_h = room(hdrm_cap_i, v_hdrm_used_i, n, rh);
  wire hdrm_full = RFX && rfx_on_i ? room_n[KW+1] || room_h[KW+1] : room_rf[KW+1];
  // A release: headroom drains first (§2.2.1), then the ingress share; it underflows
  // unless n <= ing + hdrm and n <= egr.
  wire rel_under = n > q_in || n > q_egr;
  wire h_left = n < q_hdrm;  // headroom cells left after the release
  wire [CW-1:0] shrink = CW'(shrink_of(q_ing, q_hdrm, n, ires_i));
  wire [CW-1:0] eshrink = CW'(shrink_of(q_egr, '0, n, eres_i));

  logic over_buf, to_h;
  logic paused_book;  // the pause bit before the XON test
  logic [1:0] pfc_book;
  logic [CW-1:0] rf_h, rf_t;  // this release's refund of the headroom pool and the total
  wire [NPOOLS*CW-1:0] pool_next;
  assign over_buf = sum_gt(SW'(v_total_i), n, '0, SW'(cfg_buffer_i), SW'(rf_total_i), '0);

  // Bookkeeping: charge or refund every counter; XOFF.
  always_comb begin
    verdict = mmu_adm_pkg::VERDICT_DROP;
    pfc_book = mmu_adm_pkg::PFC_NONE;
    port_pfc = mmu_adm_pkg::PFC_NONE;
    reason = mmu_adm_pkg::REASON_NONE;
    underflow = 1'b0;
    n_ing = v_ing_i;
    n_hdrm = v_hdrm_i;
    n_egr = v_egr_i;
    paused_book = v_paused_i;
    n_avg_in = v_avg_in_i;
    n_avg_eg = v_avg_eg_i;
    n_ncong = v_ncong_i;
    n_port_paused = v_port_paused_i;
    n_port_shared = v_port_shared_i;
    n_port_ins = v_port_ins_i;
    to_h = 1'b0;
    rf_pool_used = '0;
    rf_h = '0;
    rf_t = '0;

    if (is_req_i) begin
      if (ll_i) begin
        if (v_paused_i) begin
          to_h = 1'b1;
        end else if (over_in) begin
          paused_book = 1'b1;
          pfc_book = mmu_adm_pkg::PFC_XOFF;
          to_h = 1'b1;
        end
      end
      if (ll_i && to_h && (q_hdrm + n > SW'(ip_xoff_i) || hdrm_full)) begin
        reason = mmu_adm_pkg::REASON_HEADROOM;
      end else if (!ll_i && over_in) begin
        reason = mmu_adm_pkg::REASON_INGRESS;
      end else if (over_eg) begin
        reason = mmu_adm_pkg::REASON_EGRESS;
      end else if (over_buf) begin
        reason = mmu_adm_pkg::REASON_BUFFER;
      end else begin
        if (to_h) n_hdrm = CW'(q_hdrm + n);
        else n_ing = CW'(q_ing + n);
        n_egr = CW'(q_egr + n);
        verdict = to_h ? mmu_adm_pkg::VERDICT_HEADROOM : mmu_adm_pkg::VERDICT_SHARED;
      end

    end else if (is_rel_i) begin
      if (rel_under) begin
        underflow = 1'b1;
      end else begin
        n_hdrm = h_left ? CW'(q_hdrm - n) : '0;
        n_ing = h_left ? CW'(q_ing) : CW'(q_in - n);
        n_egr = CW'(q_egr - n);
        rf_pool_used[ipool_i*CW +: CW] = shrink;
        rf_pool_used[epool_i*CW +: CW] = rf_pool_used[epool_i*CW +: CW] + eshrink;
        rf_h = CW'(h_left ? n : q_hdrm);
        rf_t = CW'(n);
      end
    end
  end
  assign rf_hdrm_used = rf_h;
  assign rf_total = rf_t;

  // The shared counters' next values (counter_next): a request's charge of its pools,
  // the headroom pool and the total.
  for (genvar p = 0; p < NPOOLS; p++) begin : g_pool
    wire [CW-1:0] ing = ipool_i == PLW'(p) ? grow : '0;
    wire [CW-1:0] eg = epool_i == PLW'(p) ? egrow : '0;
    assign pool_next[p*CW +: CW] = counter_next(v_pool_used_i[p*CW +: CW], rf_pool_used_i[p*CW +: CW],
                                                rf_pool_used[p*CW +: CW], ing + eg, eg, verdict);
  end
  assign n_pool_used = pool_next;
  assign n_hdrm_used = counter_next(v_hdrm_used_i, rf_hdrm_used_i, rf_hdrm_used, '0, CW'(n), verdict);
  assign n_total = counter_next(v_total_i, rf_total_i, rf_total, CW'(n), CW'(n), verdict);

  // XON once headroom is empty (the release takes all of it): the queue empty, below xon,
  // or xon_offset under the threshold, on what the release leaves, ing + hdrm - n cells.
  // With s = shared_part(ing + hdrm - n): s < xon iff xon != 0 and ing + hdrm < n + res + xon;
  // s + xon_offset <= th iff xon_offset <= th and ing + hdrm + xon_offset <= th + n + res.
  // (A block of its own: it reads the first block's results.)
  wire xon_test = is_rel_i && v_paused_i && !rel_under && !h_left;
  wire xon_hit = q_in == n ||
                 (ip_xon_i != '0 && sum_gt(n, SW'(ires_i), SW'(ip_xon_i), q_ing, q_hdrm, '0)) ||
                 (ip_xon_offset_i <= ith_i && !sum_gt(q_ing, q_hdrm, SW'(ip_xon_offset_i), SW'(ith_i), n, SW'(ires_i)));
  always_comb begin
    n_paused = paused_book;
    pfc = pfc_book;
    if (xon_test && xon_hit) begin
      n_paused = 1'b0;
      pfc = mmu_adm_pkg::PFC_XON;
    end
  end

endmodule

`default_nettype wire
