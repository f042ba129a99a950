// dsh: Dynamic and Shared Headroom (dsh-icdcs23 §IV), as hw-model/admission/policies/dsh.cc.
// Lossless PGs: one shared segment (the PGs' ingress pool) holds footroom and shared
// headroom, T = alpha (B_s - occupancy) (the threshold calculator's, mmu_adm_thresh:
// registered); queue XOFF above X_qoff = T - eta (Eq. 5), port
// XOFF above X_poff = N_q T (Eq. 6), then arrivals go to the port's insurance headroom.
// Lossy traffic follows the SONiC model (mmu_adm_sonic) with dt's thresholds.
`include "mmu_adm_pol_if.svh"
`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module mmu_pol_dsh #(`MMU_POL_PARAMS) (`MMU_POL_PORTS);
/* verilator lint_on UNUSEDSIGNAL */
`include "mmu_adm_fn.svh"
  `MMU_POL_NEXT

  // The pool tests read the pool registers, as mmu_adm_sonic's ("The pool refund's lag",
  // docs/rtl.md).
  wire [CW-1:0] ipool_size = cfg_pool_size_i[ipool_i*CW +: CW];
  wire [CW-1:0] ipool_used = v_pool_used_i[ipool_i*CW +: CW];
  wire [CW-1:0] epool_size = cfg_pool_size_i[epool_i*CW +: CW];
  wire [CW-1:0] epool_used = v_pool_used_i[epool_i*CW +: CW];

  // ---- lossy traffic: SONiC
  logic [1:0] s_verdict, s_pfc, s_port_pfc;
  logic [2:0] s_reason;
  logic s_underflow, s_paused, s_port_paused;
  logic [CW-1:0] s_ing, s_hdrm, s_egr, s_hdrm_used, s_total;
  logic [AW-1:0] s_avg_in, s_avg_eg;
  logic [NPOOLS*CW-1:0] s_pool_used, s_rf_pool_used;
  logic [QW:0] s_ncong;
  logic [CW-1:0] s_rf_hdrm_used, s_rf_total;
  /* verilator lint_off PINCONNECTEMPTY */
  mmu_adm_sonic #(`MMU_POL_PARAM_MAP) u_sonic (
    `MMU_POL_INPUTS,
    .verdict_o(s_verdict), .pfc_o(s_pfc), .port_pfc_o(s_port_pfc), .reason_o(s_reason), .underflow_o(s_underflow),
    .n_ing_o(s_ing), .n_hdrm_o(s_hdrm), .n_paused_o(s_paused), .n_avg_in_o(s_avg_in), .n_egr_o(s_egr),
    .n_avg_eg_o(s_avg_eg), .n_pool_used_o(s_pool_used), .n_hdrm_used_o(s_hdrm_used), .n_total_o(s_total),
    .n_ncong_o(s_ncong), .n_port_paused_o(s_port_paused), .n_port_shared_o(), .n_port_ins_o(),  // dsh's own
    .rf_pool_used_o(s_rf_pool_used), .rf_hdrm_used_o(s_rf_hdrm_used), .rf_total_o(s_rf_total),
    .rfp_pool_used_o(), .rfm_pool_used_o(),  // dsh's refund: one value (MMU_POL_NEXT)
    .hdrm_cap_i(HW'(cfg_hdrm_pool_i))
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- lossless traffic: each test a sum of the view's registers, the cells, the
  // configuration and (dual issue's request) the release's refund of the headroom pool and
  // total, as in mmu_adm_sonic ("The decide stage", docs/rtl.md). PIPE 3: the request's
  // tests come registered from the test stage (t_i), and a release's counts, the port's
  // included, are the view's plus the same-cycle request's charge (t_d_i).
  wire [SW-1:0] n = SW'(cells_i);
  wire [SW-1:0] q_ing = SW'(v_ing_i) + SW'(t_d_i[0 +: CW]);
  wire [SW-1:0] q_hdrm = SW'(v_hdrm_i) + SW'(t_d_i[CW +: CW]);
  wire [SW-1:0] q_egr = SW'(v_egr_i) + SW'(t_d_i[2*CW +: CW]);
  wire [SW-1:0] q_in = q_ing + q_hdrm;
  wire [SW-1:0] p_ins = SW'(v_port_ins_i) + SW'(t_d_i[3*CW +: CW]);
  wire [SW-1:0] p_sh = SW'(v_port_shared_i) + SW'(t_d_i[4*CW +: CW]);
  wire [SW-1:0] grow = grow_of(q_ing, n, ires_i);
  wire [CW-1:0] egrow = CW'(grow_of(q_egr, n, eres_i));
  // A full shared segment (pool_used + grow > size) or a paused port sends the packet to
  // insurance headroom.
  wire seg_full = t_on_i ? t_i[0] : sum_gt(SW'(ipool_used), grow, '0, SW'(ipool_size), '0, '0);
  wire ins_full = t_on_i ? t_i[2] : p_ins + n > SW'(dsh_ins_i);  // the port's insurance headroom
  wire hdrm_full = t_on_i ? t_i[3] : sum_gt(SW'(v_hdrm_used_i), n, '0, SW'(cfg_hdrm_pool_i), SW'(rf_hdrm_used_i), '0);
  wire over_eg = t_on_i ? t_i[1] : over(v_egr_i, cells_i, eres_i, eth_i, epool_size, epool_used);
  wire over_buf = t_on_i ? t_i[4] : sum_gt(SW'(v_total_i), n, '0, SW'(cfg_buffer_i), SW'(rf_total_i), '0);
  // A release drains headroom first; it underflows unless n <= ing + hdrm, n <= egr and
  // the headroom part min(n, hdrm) <= the port's insurance cells.
  wire h_left = n < q_hdrm;
  wire rel_under = n > q_in || n > q_egr || (n > p_ins && q_hdrm > p_ins);
  wire [SW-1:0] from_h = h_left ? n : q_hdrm;
  wire [SW-1:0] shrink = shrink_of(q_ing, q_hdrm, n, ires_i);
  wire [SW-1:0] eshrink = shrink_of(q_egr, '0, n, eres_i);
  // X_qoff = T - eta and X_poff = N_q T, from the registered threshold and configuration.
  wire [CW-1:0] t = ith_i;
  wire [CW-1:0] xq = t > ip_xoff_i ? t - ip_xoff_i : '0;
  wire [CW+3:0] nq_t = (CW+4)'(dsh_nq_i) * (CW+4)'(t);
  wire [CW-1:0] xp = nq_t > (CW+4)'(CMAX) ? CMAX : nq_t[CW-1:0];
  // XOFF on the occupancy the packet leaves: shared_part(ing) > X_qoff iff ing > res + X_qoff.
  wire xoff_sh = sum_gt(q_ing, n, '0, SW'(ires_i), SW'(xq), '0);    // admitted into the shared segment
  wire xoff_hd = sum_gt(q_ing, '0, '0, SW'(ires_i), SW'(xq), '0);   // into headroom (ing unchanged)
  wire pxoff_sh = sum_gt(p_sh, grow, '0, SW'(xp), '0, '0);
  // XON on what a release leaves, m = ing - max(n - hdrm, 0) cells: m == 0, or
  // shared_part(m) + xon_offset < X_qoff iff xon_offset < X_qoff and m + xon_offset < X_qoff + res.
  wire xon_hit = (h_left ? q_ing == '0 : q_in == n) ||
                 (ip_xon_offset_i < xq &&
                  (h_left ? sum_gt(SW'(xq), SW'(ires_i), '0, q_ing, SW'(ip_xon_offset_i), '0)
                          : sum_gt(SW'(xq), SW'(ires_i), n, q_in, SW'(ip_xon_offset_i), '0)));
  // Port XON once its insurance cells are gone (ins == min(n, hdrm)): its shared cells
  // (sh - shrink) zero, or under X_poff by the port's xon_offset.
  wire pxon_hit = p_ins == from_h &&
                  (p_sh == shrink || sum_gt(SW'(xp), shrink, '0, p_sh, SW'(cfg_dsh_port_xon_off_i), '0));
  logic to_h;
  logic [CW-1:0] rf_h, rf_t;  // a lossless release's refund of the headroom pool and the total
  logic [NPOOLS*CW-1:0] rf_pool;

  always_comb begin
    verdict = mmu_adm_pkg::VERDICT_DROP;
    pfc = mmu_adm_pkg::PFC_NONE;
    port_pfc = mmu_adm_pkg::PFC_NONE;
    reason = mmu_adm_pkg::REASON_NONE;
    underflow = 1'b0;
    // Unchanged: the view and (PIPE 3's release) the same-cycle request's charge.
    n_ing = CW'(q_ing);
    n_hdrm = CW'(q_hdrm);
    n_egr = CW'(q_egr);
    n_paused = v_paused_i;
    n_avg_in = v_avg_in_i;
    n_avg_eg = v_avg_eg_i;
    n_ncong = v_ncong_i;
    n_port_paused = v_port_paused_i;
    n_port_shared = CW'(p_sh);
    n_port_ins = CW'(p_ins);
    to_h = 1'b0;
    rf_pool = '0;
    rf_h = '0;
    rf_t = '0;

    if (is_req_i) begin
      to_h = v_port_paused_i || seg_full;
      if (to_h && (ins_full || hdrm_full)) begin
        reason = mmu_adm_pkg::REASON_HEADROOM;
      end else if (over_eg) begin
        reason = mmu_adm_pkg::REASON_EGRESS;
      end else if (over_buf) begin
        reason = mmu_adm_pkg::REASON_BUFFER;
      end else begin
        if (to_h) begin
          n_hdrm = CW'(q_hdrm + n);
          n_port_ins = CW'(p_ins + n);
        end else begin
          n_ing = CW'(q_ing + n);
          n_port_shared = CW'(p_sh + grow);
        end
        n_egr = CW'(q_egr + n);
        verdict = to_h ? mmu_adm_pkg::VERDICT_HEADROOM : mmu_adm_pkg::VERDICT_SHARED;
        // Transitions on the occupancy this packet produced.
        if (!v_paused_i && (to_h ? xoff_hd : xoff_sh)) begin
          n_paused = 1'b1;
          pfc = mmu_adm_pkg::PFC_XOFF;
        end
        if (!v_port_paused_i && (to_h || pxoff_sh)) begin
          n_port_paused = 1'b1;
          port_pfc = mmu_adm_pkg::PFC_XOFF;
        end
      end

    end else if (is_rel_i) begin
      if (rel_under) begin
        underflow = 1'b1;
      end else begin
        n_hdrm = h_left ? CW'(q_hdrm - n) : '0;
        n_ing = h_left ? CW'(q_ing) : CW'(q_in - n);
        n_egr = CW'(q_egr - n);
        n_port_ins = CW'(p_ins - from_h);
        n_port_shared = CW'(p_sh - shrink);
        rf_pool[ipool_i*CW +: CW] = CW'(shrink);
        rf_pool[epool_i*CW +: CW] = CW'(SW'(rf_pool[epool_i*CW +: CW]) + eshrink);
        rf_h = CW'(from_h);
        rf_t = CW'(n);
        if (v_paused_i && xon_hit) begin
          n_paused = 1'b0;
          pfc = mmu_adm_pkg::PFC_XON;
        end
        if (v_port_paused_i && pxon_hit) begin
          n_port_paused = 1'b0;
          port_pfc = mmu_adm_pkg::PFC_XON;
        end
      end
    end

    // Lossy traffic leaves the port's state as the view and the same-cycle request leave it.
    if (!ll_i) begin
      {verdict, pfc, port_pfc, reason, underflow} = {s_verdict, s_pfc, s_port_pfc, s_reason, s_underflow};
      {n_ing, n_hdrm, n_egr, n_paused, n_avg_in, n_avg_eg} = {s_ing, s_hdrm, s_egr, s_paused, s_avg_in, s_avg_eg};
      {n_ncong, n_port_paused, n_port_shared, n_port_ins} = {s_ncong, s_port_paused, CW'(p_sh), CW'(p_ins)};
    end
  end

  // The shared counters' next values (counter_next, as mmu_adm_sonic). The refund of the
  // release before: the same-cycle one's (PIPE 1), or (PIPE 3, t_on_i) the registered one of
  // the cycle before, as its terms.
  wire [NPOOLS*CW-1:0] pool_next;
  for (genvar p = 0; p < NPOOLS; p++) begin : g_pool
    wire [CW-1:0] ing = ipool_i == PLW'(p) ? CW'(grow) : '0;
    wire [CW-1:0] eg = epool_i == PLW'(p) ? egrow : '0;
    wire [CW-1:0] rf_in = !t_on_i ? rf_pool_used_i[p*CW +: CW] : !REFUND ? '0 :
                          rfp_pool_used_i[p*RFP*CW +: CW] + rfp_pool_used_i[p*RFP*CW + CW +: CW];
    assign pool_next[p*CW +: CW] = counter_next(v_pool_used_i[p*CW +: CW], rf_in, rf_pool[p*CW +: CW], ing + eg, eg,
                                                verdict);
  end
  assign n_pool_used = ll_i ? pool_next : s_pool_used;
  assign n_hdrm_used = ll_i ? counter_next(v_hdrm_used_i, rf_hdrm_used_i, rf_h, '0, CW'(n), verdict) : s_hdrm_used;
  assign n_total = ll_i ? counter_next(v_total_i, rf_total_i, rf_t, CW'(n), CW'(n), verdict) : s_total;
  assign rf_pool_used = ll_i ? rf_pool : s_rf_pool_used;
  assign rf_hdrm_used = ll_i ? rf_h : s_rf_hdrm_used;
  assign rf_total = ll_i ? rf_t : s_rf_total;

endmodule

`default_nettype wire
