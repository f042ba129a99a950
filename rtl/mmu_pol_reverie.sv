// reverie (reverie-nsdi24 §3), as hw-model/admission/policies/reverie.cc: one shared pool
// (rpool_i) plus the headroom pool; a lossless packet is accounted in its ingress queue, a
// lossy one in its egress queue. Gamma_p = alpha_p / n_p x (b* - q*) (Eq. 6) of each side's
// profile comes in registered (quot_in_i, quot_eg_i: mmu_adm_quot divides the threshold
// calculator's b* - q* over its n_p, with PIPE 1 in the read stage); admission (Eq. 4)
// compares the low-pass-filtered length q_hat (Eq. 5) with Gamma, as does the release's
// XON test, so neither datapath divides or multiplies.
`include "mmu_adm_pol_if.svh"
`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module mmu_pol_reverie #(`MMU_POL_PARAMS) (`MMU_POL_PORTS);
/* verilator lint_on UNUSEDSIGNAL */
`include "mmu_adm_fn.svh"
  `MMU_POL_NEXT

  wire [CW-1:0] rsize = cfg_pool_size_i[rpool_i*CW +: CW];
  // The shared counters' view: the registers less the same-cycle release's refund (dual
  // issue's request; zero elsewhere).
  wire [NPOOLS*CW-1:0] pool_view;
  for (genvar p = 0; p < NPOOLS; p++) begin : g_pool
    assign pool_view[p*CW +: CW] = v_pool_used_i[p*CW +: CW] - rf_pool_used_i[p*CW +: CW];
  end
  wire [CW-1:0] hdrm_view = v_hdrm_used_i - rf_hdrm_used_i;
  wire [CW-1:0] total_view = v_total_i - rf_total_i;
  wire [CW-1:0] rused = pool_view[rpool_i*CW +: CW];
  // The pool test reads the register ("The pool refund's lag", docs/rtl.md).
  wire [CW-1:0] rused_reg = v_pool_used_i[rpool_i*CW +: CW];

  // The queue this packet is accounted in, and a release's effect on it, on the pool and on
  // n_p. (Wires ahead of the decision block, not its outputs fed back: Icarus 11
  // re-evaluates such a path without end.)
  wire [SW-1:0] n = SW'(cells_i);
  wire [SW-1:0] q_hdrm = SW'(v_hdrm_i);
  wire [SW-1:0] qq = ll_i ? SW'(v_ing_i) : SW'(v_egr_i);
  wire [CW-1:0] res_q = ll_i ? ires_i : eres_i;
  wire [SW-1:0] cnt_before = qq + (ll_i ? q_hdrm : '0);
  wire [SW-1:0] from_h = ll_i ? (n < q_hdrm ? n : q_hdrm) : '0;  // headroom drains first
  wire [SW-1:0] from_q = n - from_h;
  wire [SW-1:0] shrink = shared_part(qq, res_q) - shared_part(qq - from_q, res_q);
  wire [SW-1:0] cnt_rel = (qq - from_q) + (ll_i ? q_hdrm - from_h : '0);
  wire [CW-1:0] rused_rel = CW'(SW'(rused) - shrink);
  wire [QW:0] ncong_rel = v_ncong_i + (QW+1)'(cnt_rel >= SW'(cfg_congested_i)) - (QW+1)'(cnt_before >= SW'(cfg_congested_i));

  // Gamma of the queue's profile (a request: the PG's if lossless, else the queue's; the
  // XON test: the PG's), or static_th.
  wire [CW-1:0] g_in = ip_dynamic_i ? quot_in_i : ip_static_i;
  wire [CW-1:0] g_view = ll_i ? g_in : ep_dynamic_i ? quot_eg_i : ep_static_i;

  // The filter steps on the queue's shared cells: before a request (CTRL.ewma_rule 1),
  // after a release. The step starts from the filter before a same-cycle release's step
  // (pre_avg: dual issue's request; the view elsewhere), never from the release's result.
  wire [AW-1:0] pre_avg = ll_i ? pre_avg_in_i : pre_avg_eg_i;
  wire pre_step = ll_i ? pre_step_in_i : pre_step_eg_i;
  // A request's q from the counts before the same-cycle release (pre_*: registers), not from
  // its forwarded view: without the release's step the view is those counts; with it, the
  // release's from_q = max(c - hdrm, 0) (lossless) or c (lossy) cells less, each case's
  // shared part summed from the registers and selected last.
  wire [SW-1:0] rn = SW'(pre_cells_i);
  wire [SW-1:0] pq = ll_i ? SW'(pre_ing_i) : SW'(pre_egr_i);
  wire [SW-1:0] ph = SW'(pre_hdrm_i);
  wire [CW-1:0] t_keep = CW'(shared_part(pq, res_q));
  wire [CW-1:0] t_ing = pq + ph > rn + SW'(res_q) ? CW'(pq + ph - rn - SW'(res_q)) : '0;
  wire [CW-1:0] t_egr = pq > rn + SW'(res_q) ? CW'(pq - rn - SW'(res_q)) : '0;
  // The same-cycle release's case on the request's queue (c1..c3, below with the tests
  // that also select by it): the target moves only when the release takes shared cells.
  wire c_hl = rn <= ph;
  wire c1 = pre_step && ll_i && c_hl;
  wire c2 = pre_step && ll_i && !c_hl;
  wire c3 = pre_step && !ll_i;
  wire [CW-1:0] t_req = c2 ? t_ing : c3 ? t_egr : t_keep;
  wire [CW-1:0] q_filt = is_req_i ? t_req : CW'(shared_part(qq - from_q, res_q));
  wire [AW-1:0] avg_step;
  mmu_adm_ewma #(.CW(CW), .EWMA_FRAC(EWMA_FRAC), .CELLW(CELLW)) u_ewma (
    .avg_i(pre_avg), .q_i(q_filt), .k_i(cfg_ewma_k_i), .clamp_i(cfg_ewma_clamp_i), .avg_o(avg_step));
  // A request on the queue whose filter the same-cycle release stepped (pre_step): the two
  // steps in parallel rather than in series. Both go towards the same q (the shared cells as
  // the release leaves them). With x = q - a (q in 2^-F units), ewma_step is
  // f(a) = a + (x >>> k) (>>> rounding towards -inf), so f(f(a)) = a + (x >>> k) +
  // ((x - (x >>> k)) >>> k). The clamp: f(a) passes q only if a > q, and then clamps it to
  // q, where the second step stays; a rising filter never passes q.
  wire [AW-1:0] tgt = AW'(q_filt) << EWMA_FRAC;
  wire signed [AW+1:0] x2 = $signed((AW+2)'(tgt)) - $signed((AW+2)'(pre_avg));
  wire signed [AW+1:0] f1 = x2 >>> cfg_ewma_k_i;
  wire signed [AW+1:0] f2 = (x2 - f1) >>> cfg_ewma_k_i;
  wire [AW-1:0] two = AW'((AW+2)'(pre_avg) + f1 + f2);  // in 0 .. 2^AW - 1
  wire two_clamped = cfg_ewma_clamp_i && pre_avg > tgt;
  wire [AW-1:0] avg_two = two_clamped ? tgt : two;
  wire [AW-1:0] avg_req = pre_step ? avg_two : avg_step;
  // q_hat <= Gamma (Eq. 4) for each case, selected last, none on the release's filter
  // output: with CTRL.ewma_rule 0 the filter as the release leaves it is avg_step here
  // (the release's step towards the same q), else pre_avg; with rule 1 the two steps'
  // sum is tested as one sum against Gamma rather than added up first.
  // The one step's test likewise: avg_step = a + f1, or q when the clamp holds it.
  wire [AW-1:0] g_fix = AW'(g_view) << EWMA_FRAC;
  wire signed [AW+2:0] two_room = $signed((AW+3)'(g_fix)) - $signed((AW+3)'(pre_avg)) - f1 - f2;
  wire two_fits = two_clamped ? tgt <= g_fix : !two_room[AW+2];
  wire signed [AW+2:0] one_room = $signed((AW+3)'(g_fix)) - $signed((AW+3)'(pre_avg)) - f1;
  wire one_fits = two_clamped ? tgt <= g_fix : !one_room[AW+2];
  wire avg_fits = cfg_ewma_rule_i && pre_step ? two_fits : !cfg_ewma_rule_i && !pre_step ? pre_avg <= g_fix : one_fits;

  // The request's other tests, likewise each one sum of registered operands for each case
  // of the same-cycle release on its queue, the case selected last: c0 none (q = pq, hdrm
  // ph), c1 a lossless release within the headroom (q = pq, hdrm ph - rn), c2 one past it
  // (q = pq + ph - rn, hdrm 0), c3 a lossy release (q = pq - rn). With res the reserve:
  // q + n <= res (the reserve takes the packet, no growth), q >= res (the shared part grows
  // by n), else it grows by q + n - res; the pool test is rused + growth <= rsize.
  function automatic logic gt4(input logic [SW-1:0] a, input logic [SW-1:0] b, input logic [SW-1:0] c,
                               input logic [SW-1:0] d, input logic [SW-1:0] e, input logic [SW-1:0] f,
                               input logic [SW-1:0] g);  // a + b + c + d > e + f + g
    logic [SW+3:0] diff;
    diff = (SW+4)'(e) + (SW+4)'(f) + (SW+4)'(g) - (SW+4)'(a) - (SW+4)'(b) - (SW+4)'(c) - (SW+4)'(d);
    gt4 = diff[SW+3];
  endfunction
  wire [SW-1:0] res = SW'(res_q);
  wire [SW-1:0] ru = SW'(rused_reg);
  wire [SW-1:0] rs = SW'(rsize);
  wire in_res0 = !sum_gt(pq, n, '0, res, '0, '0);
  wire in_res2 = !gt4(pq, ph, n, '0, res, rn, '0);
  wire in_res3 = !sum_gt(pq, n, '0, res, rn, '0);
  wire ge_res0 = !sum_gt(res, '0, '0, pq, '0, '0);
  wire ge_res2 = !sum_gt(res, rn, '0, pq, ph, '0);
  wire ge_res3 = !sum_gt(res, rn, '0, pq, '0, '0);
  wire pool_n = !sum_gt(ru, n, '0, rs, '0, '0);
  wire pool_p0 = !sum_gt(ru, pq, n, rs, res, '0);
  wire pool_p2 = !gt4(ru, pq, ph, n, rs, res, rn);
  wire pool_p3 = !sum_gt(ru, pq, n, rs, res, rn);
  wire fits0 = in_res0 || (avg_fits && (ge_res0 ? pool_n : pool_p0));
  wire fits2 = in_res2 || (avg_fits && (ge_res2 ? pool_n : pool_p2));
  wire fits3 = in_res3 || (avg_fits && (ge_res3 ? pool_n : pool_p3));
  wire req_fits = c2 ? fits2 : c3 ? fits3 : fits0;
  // The growth itself (the pool's next value).
  wire [SW-1:0] grow0 = in_res0 ? '0 : ge_res0 ? n : pq + n - res;
  wire [SW-1:0] grow2 = in_res2 ? '0 : ge_res2 ? n : pq + ph + n - rn - res;
  wire [SW-1:0] grow3 = in_res3 ? '0 : ge_res3 ? n : pq + n - rn - res;
  wire [SW-1:0] req_grow = c2 ? grow2 : c3 ? grow3 : grow0;
  // The headroom tests: hdrm + n > xoff, hdrm_used - rf + n > the headroom pool; the buffer's.
  wire hx0 = sum_gt(ph, n, '0, SW'(ip_xoff_i), '0, '0);
  wire hx1 = sum_gt(ph, n, '0, SW'(ip_xoff_i), rn, '0);
  wire hx2 = n > SW'(ip_xoff_i);
  wire hdrm_over = (c2 ? hx2 : c1 ? hx1 : hx0) ||
                   sum_gt(SW'(v_hdrm_used_i), n, '0, SW'(cfg_hdrm_pool_i), SW'(rf_hdrm_used_i), '0);
  wire buf_over = sum_gt(SW'(v_total_i), n, '0, SW'(cfg_buffer_i), SW'(rf_total_i), '0);

  // The release's XON test, each term one sum of its registered operands (not of the
  // datapath's next counts): once the release takes all headroom (c >= hdrm), the PG
  // keeps ing + hdrm - c cells, of which t = ing + hdrm - c - res are shared (if positive).
  // XON if that is none, if t < xon, or if ceil(q_hat) + xon_offset <= Gamma with q_hat
  // the filter stepped towards max(t, 0): ceil(a / 2^F) + o <= G is a + o 2^F <= G 2^F,
  // and with f = ((t << F) - a) >>> k the step is a + f, or t << F when the clamp holds it
  // (a > t << F).
  wire rel_all_h = n >= q_hdrm;
  wire rel_empty = qq + q_hdrm == n;
  wire rel_low = ip_xon_i != '0 && sum_gt(n, SW'(ires_i), SW'(ip_xon_i), qq, q_hdrm, '0);
  wire signed [SW+1:0] rt = $signed((SW+2)'(qq)) + $signed((SW+2)'(q_hdrm)) - $signed((SW+2)'(n)) - $signed((SW+2)'(ires_i));
  wire [AW-1:0] rtgt = rt[SW+1] ? '0 : AW'(rt) << EWMA_FRAC;
  wire signed [AW+1:0] rf1 = ($signed((AW+2)'(rtgt)) - $signed((AW+2)'(pre_avg))) >>> cfg_ewma_k_i;
  wire [AW-1:0] off_fix = AW'(ip_xon_offset_i) << EWMA_FRAC;
  wire [AW-1:0] gin_fix = AW'(g_in) << EWMA_FRAC;
  wire signed [AW+2:0] rroom = $signed((AW+3)'(gin_fix)) - $signed((AW+3)'(off_fix)) - $signed((AW+3)'(pre_avg)) - rf1;
  wire rel_clamped = cfg_ewma_clamp_i && pre_avg > rtgt;
  wire xon_fits = rel_clamped ? (AW+1)'(rtgt) + (AW+1)'(off_fix) <= (AW+1)'(gin_fix) : !rroom[AW+2];

  logic [SW-1:0] cnt_after;
  logic [AW-1:0] avg;
  logic to_h, fits;

  // Bookkeeping, the filter, XOFF and XON.
  always_comb begin
    verdict = mmu_adm_pkg::VERDICT_DROP;
    pfc = mmu_adm_pkg::PFC_NONE;
    port_pfc = mmu_adm_pkg::PFC_NONE;
    reason = mmu_adm_pkg::REASON_NONE;
    underflow = 1'b0;
    n_ing = v_ing_i;
    n_hdrm = v_hdrm_i;
    n_egr = v_egr_i;
    n_paused = v_paused_i;
    n_avg_in = v_avg_in_i;
    n_avg_eg = v_avg_eg_i;
    n_pool_used = pool_view;
    n_hdrm_used = hdrm_view;
    n_total = total_view;
    rf_pool_used = '0;
    rf_hdrm_used = '0;
    rf_total = '0;
    n_ncong = v_ncong_i;
    n_port_paused = v_port_paused_i;
    n_port_shared = v_port_shared_i;
    n_port_ins = v_port_ins_i;
    to_h = 1'b0;
    fits = 1'b0;
    cnt_after = '0;
    avg = pre_avg;

    if (is_req_i) begin
      if (cfg_ewma_rule_i) begin
        avg = avg_req;
        if (ll_i) n_avg_in = avg;
        else n_avg_eg = avg;
      end
      // Eq. 4 in fixed point: q_hat <= Gamma.
      fits = req_fits;
      if (ll_i) begin
        if (v_paused_i) begin
          to_h = 1'b1;
        end else if (!fits) begin
          n_paused = 1'b1;
          pfc = mmu_adm_pkg::PFC_XOFF;
          to_h = 1'b1;
        end
      end
      if (ll_i && to_h && hdrm_over) begin
        reason = mmu_adm_pkg::REASON_HEADROOM;
      end else if (!ll_i && !fits) begin
        reason = mmu_adm_pkg::REASON_EGRESS;
      end else if (buf_over) begin
        reason = mmu_adm_pkg::REASON_BUFFER;
      end else begin
        if (to_h) begin
          n_hdrm = CW'(q_hdrm + n);
          n_hdrm_used = CW'(SW'(hdrm_view) + n);
        end else begin
          if (ll_i) n_ing = CW'(qq + n);
          else n_egr = CW'(qq + n);
          n_pool_used[rpool_i*CW +: CW] = CW'(SW'(rused) + req_grow);
        end
        n_total = CW'(SW'(total_view) + n);
        cnt_after = cnt_before + n;
        n_ncong = v_ncong_i + (QW+1)'(cnt_after >= SW'(cfg_congested_i)) - (QW+1)'(cnt_before >= SW'(cfg_congested_i));
        verdict = to_h ? mmu_adm_pkg::VERDICT_HEADROOM : mmu_adm_pkg::VERDICT_SHARED;
      end

    end else if (is_rel_i) begin
      if (n > qq + (ll_i ? q_hdrm : '0)) begin  // from_q > qq, as one compare
        underflow = 1'b1;
      end else begin
        n_hdrm = CW'(q_hdrm - from_h);
        n_hdrm_used = CW'(SW'(hdrm_view) - from_h);
        if (ll_i) n_ing = CW'(qq - from_q);
        else n_egr = CW'(qq - from_q);
        n_pool_used[rpool_i*CW +: CW] = rused_rel;
        rf_pool_used[rpool_i*CW +: CW] = CW'(shrink);
        rf_hdrm_used = CW'(from_h);
        rf_total = CW'(n);
        n_total = CW'(SW'(total_view) - n);
        n_ncong = ncong_rel;
        avg = avg_step;
        if (ll_i) n_avg_in = avg;
        else n_avg_eg = avg;
        // XON once headroom is empty: the queue empty, below xon, or
        // ceil(q_hat) + xon_offset <= Gamma on the state the release leaves.
        if (ll_i && v_paused_i && rel_all_h && (rel_empty || rel_low || xon_fits)) begin
          n_paused = 1'b0;
          pfc = mmu_adm_pkg::PFC_XON;
        end
      end
    end
  end

endmodule

`default_nettype wire
