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
  `MMU_POL_NEXT_BUT_TERMS

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
  /* verilator lint_off UNUSEDSIGNAL */ // s_rfp: RF_PARTS only; s_rfm: 0 with RF_PARTS
  logic [NPOOLS*RFP*CW-1:0] s_rfp;
  logic [NPOOLS*RFM*CW-1:0] s_rfm;
  /* verilator lint_on UNUSEDSIGNAL */
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
    .rfp_pool_used_o(s_rfp), .rfm_pool_used_o(s_rfm),
    .hdrm_cap_i(HW'(cfg_hdrm_pool_i))
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- lossless traffic. Every test is one sum of the view's registers, the cells, the
  // configuration, (dual issue's request) the release's refund of the headroom pool and
  // total and (PIPE 3's release) the same-cycle request's charge of the queues and the
  // port (t_d_i; its growth of the port's shared cells as the terms of its cases), as in
  // mmu_adm_sonic ("The decide stage", docs/rtl.md); each value a release or a request
  // leaves is formed per case of its growth or shrink beside the compares that select it.
  // PIPE 3: the request's five tests come registered from the
  // test stage (t_i), X_qoff and X_poff too (t_x_i).
  wire [SW-1:0] n = SW'(cells_i);
  wire [SW-1:0] vi = SW'(v_ing_i), vh = SW'(v_hdrm_i), ve = SW'(v_egr_i);
  wire [SW-1:0] vpi = SW'(v_port_ins_i), vps = SW'(v_port_shared_i);
  wire [SW-1:0] di = SW'(t_d_i[0 +: CW]), dh = SW'(t_d_i[CW +: CW]), de = SW'(t_d_i[2*CW +: CW]);
  wire [SW-1:0] dpi = SW'(t_d_i[3*CW +: CW]);
  wire [SW-1:0] gn = SW'(t_d_i[4*CW +: CW]), gvi = SW'(t_d_i[5*CW +: CW]), gres = SW'(t_d_i[6*CW +: CW]);
  wire [SW-1:0] gnr = SW'(t_d_i[7*CW +: CW]);  // gn - gres modulo 2^CW: the values' operand
  wire [SW-1:0] ires = SW'(ires_i), eres = SW'(eres_i);
  wire [SW-1:0] xoo = SW'(ip_xon_offset_i), pxoo = SW'(cfg_dsh_port_xon_off_i);
  // X_qoff = T - eta and X_poff = N_q T.
  wire [CW-1:0] t = ith_i;
  wire [CW+3:0] nq_t = (CW+4)'(dsh_nq_i) * (CW+4)'(t);
  wire [CW-1:0] xq = t_on_i ? t_x_i[0 +: CW] : t > ip_xoff_i ? t - ip_xoff_i : '0;
  wire [CW-1:0] xp = t_on_i ? t_x_i[CW +: CW] : nq_t > (CW+4)'(CMAX) ? CMAX : nq_t[CW-1:0];
  wire [SW-1:0] sxq = SW'(xq), sxp = SW'(xp);

  // -- the request (on its exact view; t_d_i is 0)
  // Its growth of the shared segment, grow_of(ing, n, res): none (ing + n <= res), all n
  // (ing >= res), or ing + n - res.
  wire g_past, g_below;  // ing + n > res; res > ing
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(1)) u_g_past (.p_i({vi, n}), .m_i(ires), .gt_o(g_past));
  mmu_adm_sumgt #(.W(SW), .NP(1), .NM(1)) u_g_below (.p_i(ires), .m_i(vi), .gt_o(g_below));
  wire [SW-1:0] grow = !g_past ? '0 : !g_below ? n : vi + n - ires;
  // A full shared segment (pool_used + grow > size) or a paused port sends the packet to
  // insurance headroom.
  wire seg_full = t_on_i ? t_i[0] : sum_gt(SW'(ipool_used), grow, '0, SW'(ipool_size), '0, '0);
  wire ins_full = t_on_i ? t_i[2] : vpi + n > SW'(dsh_ins_i);  // the port's insurance headroom
  wire hdrm_full = t_on_i ? t_i[3] : sum_gt(SW'(v_hdrm_used_i), n, '0, SW'(cfg_hdrm_pool_i), SW'(rf_hdrm_used_i), '0);
  wire over_eg = t_on_i ? t_i[1] : over(v_egr_i, cells_i, eres_i, eth_i, epool_size, epool_used);
  wire over_buf = t_on_i ? t_i[4] : sum_gt(SW'(v_total_i), n, '0, SW'(cfg_buffer_i), SW'(rf_total_i), '0);
  // XOFF on the occupancy the packet leaves: shared_part(ing) > X_qoff iff ing > res + X_qoff.
  wire xoff_sh, xoff_hd;  // admitted into the shared segment; into headroom (ing unchanged)
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(2)) u_xoff_sh (.p_i({vi, n}), .m_i({ires, sxq}), .gt_o(xoff_sh));
  mmu_adm_sumgt #(.W(SW), .NP(1), .NM(2)) u_xoff_hd (.p_i(vi), .m_i({ires, sxq}), .gt_o(xoff_hd));
  // Port XOFF: shared + grow > X_poff, per case of the growth.
  wire px_z, px_n, px_p;
  mmu_adm_sumgt #(.W(SW), .NP(1), .NM(1)) u_px_z (.p_i(vps), .m_i(sxp), .gt_o(px_z));
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(1)) u_px_n (.p_i({vps, n}), .m_i(sxp), .gt_o(px_n));
  mmu_adm_sumgt #(.W(SW), .NP(3), .NM(2)) u_px_p (.p_i({vps, vi, n}), .m_i({sxp, ires}), .gt_o(px_p));
  wire pxoff_sh = !g_past ? px_z : !g_below ? px_n : px_p;
  wire [CW-1:0] req_port_sh = !g_past ? CW'(vps) : !g_below ? CW'(vps + n) : CW'(vps + vi + n - ires);

  // -- the release: headroom drains first; it underflows unless n <= ing + hdrm, n <= egr
  // and the headroom part min(n, hdrm) <= the port's insurance cells.
  wire und_i, und_e, h_left, n_gt_h, i_gt_r, n_r_gt, e_gt_r, n_er_gt, ins_n, ins_h;
  mmu_adm_sumgt #(.W(SW), .NP(1), .NM(4)) u_und_i (.p_i(n), .m_i({vi, vh, di, dh}), .gt_o(und_i));
  mmu_adm_sumgt #(.W(SW), .NP(1), .NM(2)) u_und_e (.p_i(n), .m_i({ve, de}), .gt_o(und_e));
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(1)) u_h_left (.p_i({vh, dh}), .m_i(n), .gt_o(h_left));  // headroom left
  mmu_adm_sumgt #(.W(SW), .NP(1), .NM(2)) u_ins_n (.p_i(n), .m_i({vpi, dpi}), .gt_o(ins_n));
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(2)) u_ins_h (.p_i({vh, dh}), .m_i({vpi, dpi}), .gt_o(ins_h));
  wire rel_under = und_i || und_e || (h_left ? ins_n : ins_h);
  // shrink_of(ing + di, hdrm + dh, n, res): none, n - hdrm, or ing - res; eshrink likewise.
  mmu_adm_sumgt #(.W(SW), .NP(1), .NM(2)) u_n_gt_h (.p_i(n), .m_i({vh, dh}), .gt_o(n_gt_h));
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(1)) u_i_gt_r (.p_i({vi, di}), .m_i(ires), .gt_o(i_gt_r));
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(4)) u_n_r_gt (.p_i({n, ires}), .m_i({vi, vh, di, dh}), .gt_o(n_r_gt));
  wire s_zero = !n_gt_h || !i_gt_r;
  wire s_all = !n_r_gt;
  wire [CW-1:0] shrink = s_zero ? '0 : s_all ? CW'(n - vh - dh) : CW'(vi + di - ires);
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(1)) u_e_gt_r (.p_i({ve, de}), .m_i(eres), .gt_o(e_gt_r));
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(2)) u_n_er_gt (.p_i({n, eres}), .m_i({ve, de}), .gt_o(n_er_gt));
  wire [CW-1:0] eshrink = n == '0 || !e_gt_r ? '0 : !n_er_gt ? CW'(n) : CW'(ve + de - eres);
  // The port's counts it leaves: insurance less min(n, hdrm); shared, with the same-cycle
  // request's growth (PIPE 3), less shrink, per case.
  wire [CW-1:0] rel_port_ins = h_left ? CW'(vpi + dpi - n) : CW'(vpi + dpi - vh - dh);
  // XON on what it leaves, m = ing - max(n - hdrm, 0) cells: m == 0, or
  // shared_part(m) + xon_offset < X_qoff iff xon_offset < X_qoff and m + xon_offset < X_qoff + res.
  wire xon_a, xon_b;
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(3)) u_xon_a (.p_i({sxq, ires}), .m_i({vi, di, xoo}), .gt_o(xon_a));
  mmu_adm_sumgt #(.W(SW), .NP(3), .NM(5)) u_xon_b (.p_i({sxq, ires, n}), .m_i({vi, vh, di, dh, xoo}), .gt_o(xon_b));
  wire empties;  // ing + hdrm == n: the release takes all the PG's cells
  mmu_adm_sumeq #(.W(SW), .NP(4), .NM(1)) u_empties (.p_i({vi, vh, di, dh}), .m_i(n), .eq_o(empties));
  wire xon_hit = (h_left ? vi == '0 && di == '0 : empties) || (xoo < sxq && (h_left ? xon_a : xon_b));
  // The same-cycle request's growth of the port's shared cells (PIPE 3: t_d_i's terms, else
  // 0): none, all its cells or ing + cells - res, per case (gc 0, 1, 2), each case's terms
  // operands of the sums below and the case selecting after them, so that no growth is
  // formed in front of a sum.
  wire gx_past, gx_below;  // ing + cells > res; res > ing
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(1)) u_gx_past (.p_i({gvi, gn}), .m_i(gres), .gt_o(gx_past));
  mmu_adm_sumgt #(.W(SW), .NP(1), .NM(1)) u_gx_below (.p_i(gres), .m_i(gvi), .gt_o(gx_below));
  wire [1:0] gc = !gx_past ? 2'd0 : !gx_below ? 2'd1 : 2'd2;
  // Port XON once its insurance cells are gone (ins == min(n, hdrm)): its shared cells left
  // (c, per case of the shrink) zero, or under X_poff by the port's xon_offset. c is never
  // negative, but each zero test is exact all the same (c > 0 and c < 0 both false).
  wire ins_n_eq, ins_h_eq;  // insurance cells == n; == hdrm
  mmu_adm_sumeq #(.W(SW), .NP(2), .NM(1)) u_ins_n_eq (.p_i({vpi, dpi}), .m_i(n), .eq_o(ins_n_eq));
  mmu_adm_sumeq #(.W(SW), .NP(2), .NM(2)) u_ins_h_eq (.p_i({vpi, dpi}), .m_i({vh, dh}), .eq_o(ins_h_eq));
  wire ins_gone = h_left ? ins_n_eq : ins_h_eq;
  logic [2:0] zu0, zu1, zu2;  // per growth case: c zero or under, for each case of the shrink
  logic [3*CW-1:0] sh_keep, sh_n, sh_part, sh_rel;  // per growth case: the shared cells left
  for (genvar g = 0; g < 3; g++) begin : g_gc
    // The growth's terms in case g: + tv + tn - tr; in the values (modulo 2^CW) + tv + tw.
    wire [SW-1:0] tv = g == 2 ? gvi : '0, tn = g != 0 ? gn : '0, tr = g == 2 ? gres : '0;
    wire [SW-1:0] tw = g == 2 ? gnr : tn;
    wire p0, p1, m1, p2, m2, v0, v1, v2;
    // c0 = vps + dps (the shrink none), c1 = c0 + hdrm - n (all n), c2 = c0 + res - ing.
    mmu_adm_sumgt #(.W(SW), .NP(3), .NM(1)) u_p0 (.p_i({vps, tv, tn}), .m_i(tr), .gt_o(p0));
    mmu_adm_sumgt #(.W(SW), .NP(5), .NM(2)) u_p1 (.p_i({vps, tv, tn, vh, dh}), .m_i({n, tr}), .gt_o(p1));
    mmu_adm_sumgt #(.W(SW), .NP(2), .NM(5)) u_m1 (.p_i({n, tr}), .m_i({vps, tv, tn, vh, dh}), .gt_o(m1));
    mmu_adm_sumgt #(.W(SW), .NP(4), .NM(3)) u_p2 (.p_i({vps, tv, tn, ires}), .m_i({vi, di, tr}), .gt_o(p2));
    mmu_adm_sumgt #(.W(SW), .NP(3), .NM(4)) u_m2 (.p_i({vi, di, tr}), .m_i({vps, tv, tn, ires}), .gt_o(m2));
    // X_poff > c + xon_offset.
    mmu_adm_sumgt #(.W(SW), .NP(2), .NM(4)) u_v0 (.p_i({sxp, tr}), .m_i({vps, tv, tn, pxoo}), .gt_o(v0));
    mmu_adm_sumgt #(.W(SW), .NP(3), .NM(6)) u_v1 (.p_i({sxp, n, tr}), .m_i({vps, tv, tn, vh, dh, pxoo}), .gt_o(v1));
    mmu_adm_sumgt #(.W(SW), .NP(4), .NM(5)) u_v2 (.p_i({sxp, vi, di, tr}), .m_i({vps, tv, tn, ires, pxoo}), .gt_o(v2));
    assign zu0[g] = !p0 || v0;
    assign zu1[g] = !p1 && !m1 || v1;
    assign zu2[g] = !p2 && !m2 || v2;
    assign sh_keep[g*CW +: CW] = CW'(vps + tv + tw);
    assign sh_n[g*CW +: CW] = CW'(vps + tv + tw + vh + dh - n);
    assign sh_part[g*CW +: CW] = CW'(vps + tv + tw + ires - vi - di);
    assign sh_rel[g*CW +: CW] = s_zero ? sh_keep[g*CW +: CW] : s_all ? sh_n[g*CW +: CW] : sh_part[g*CW +: CW];
  end
  wire pxon_hit = ins_gone && (s_zero ? zu0[gc] : s_all ? zu1[gc] : zu2[gc]);
  wire [CW-1:0] rel_port_sh = sh_rel[gc*CW +: CW];
  wire [CW-1:0] port_sh_keep = sh_keep[gc*CW +: CW];  // the view and the request's growth

  // A lossless release's refund of the pools, the headroom pool and the total (continuous:
  // Icarus 11 wakes a block that reads a part of a vector it writes without end).
  wire rel_fire = is_rel_i && !rel_under;
  wire [CW-1:0] rf_h = rel_fire ? (h_left ? CW'(n) : CW'(vh + dh)) : '0;
  wire [CW-1:0] rf_t = rel_fire ? CW'(n) : '0;
  wire [NPOOLS*CW-1:0] rf_pool;
  for (genvar p = 0; p < NPOOLS; p++) begin : g_rf
    wire [CW-1:0] ip_part = rel_fire && ipool_i == PLW'(p) ? shrink : '0;
    wire [CW-1:0] ep_part = rel_fire && epool_i == PLW'(p) ? eshrink : '0;
    assign rf_pool[p*CW +: CW] = ip_part + ep_part;
  end
  logic to_h;

  always_comb begin
    verdict = mmu_adm_pkg::VERDICT_DROP;
    pfc = mmu_adm_pkg::PFC_NONE;
    port_pfc = mmu_adm_pkg::PFC_NONE;
    reason = mmu_adm_pkg::REASON_NONE;
    underflow = 1'b0;
    // Unchanged: the view and (PIPE 3's release) the same-cycle request's charge.
    n_ing = CW'(vi + di);
    n_hdrm = CW'(vh + dh);
    n_egr = CW'(ve + de);
    n_paused = v_paused_i;
    n_avg_in = v_avg_in_i;
    n_avg_eg = v_avg_eg_i;
    n_ncong = v_ncong_i;
    n_port_paused = v_port_paused_i;
    n_port_shared = port_sh_keep;
    n_port_ins = CW'(vpi + dpi);
    to_h = 1'b0;

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
          n_hdrm = CW'(vh + n);
          n_port_ins = CW'(vpi + n);
        end else begin
          n_ing = CW'(vi + n);
          n_port_shared = req_port_sh;
        end
        n_egr = CW'(ve + n);
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
        n_hdrm = h_left ? CW'(vh + dh - n) : '0;
        n_ing = h_left ? CW'(vi + di) : CW'(vi + vh + di + dh - n);
        n_egr = CW'(ve + de - n);
        n_port_ins = rel_port_ins;
        n_port_shared = rel_port_sh;
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
      {n_ncong, n_port_paused} = {s_ncong, s_port_paused};
      {n_port_shared, n_port_ins} = {port_sh_keep, CW'(vpi + dpi)};
    end
  end

  // The shared counters' next values: the pools' as mmu_adm_sonic's (mmu_adm_poolnx, the
  // growth summed per case), the others by counter_next. The refund of the release before:
  // the same-cycle one's value (PIPE 0 and 1), or (PIPE 3, t_on_i) the registered one of
  // the cycle before, as its two terms.
  wire [NPOOLS*2*CW-1:0] rf_sub;
  for (genvar p = 0; p < NPOOLS; p++) begin : g_rf_in
    assign rf_sub[p*2*CW +: 2*CW] = !t_on_i ? {CW'(0), rf_pool_used_i[p*CW +: CW]} : !REFUND ? '0 :
                                     rfp_pool_used_i[p*RFP*CW +: 2*CW];
  end
  wire [NPOOLS*CW-1:0] pool_next;
  mmu_adm_poolnx #(.CW(CW), .CELLW(CELLW), .NPOOLS(NPOOLS)) u_poolnx (
    .v_pool_i(v_pool_used_i), .rf_sub_i(rf_sub), .rf_add_i('0), .q_ing_i(v_ing_i), .q_egr_i(v_egr_i),
    .n_i(cells_i), .ires_i, .eres_i, .ipool_i, .epool_i, .verdict_i(verdict), .rf_out_i(rf_pool),
    .pool_next_o(pool_next)
  );
  assign n_pool_used = ll_i ? pool_next : s_pool_used;
  assign n_hdrm_used = ll_i ? counter_next(v_hdrm_used_i, rf_hdrm_used_i, rf_h, '0, CW'(n), verdict) : s_hdrm_used;
  assign n_total = ll_i ? counter_next(v_total_i, rf_total_i, rf_t, CW'(n), CW'(n), verdict) : s_total;
  assign rf_pool_used = ll_i ? rf_pool : s_rf_pool_used;
  assign rf_hdrm_used = ll_i ? rf_h : s_rf_hdrm_used;
  assign rf_total = ll_i ? rf_t : s_rf_total;

  // The refund as terms: RF_PARTS (PIPE 3, which registers them) each pool's ingress and
  // egress parts apart, no adder of the two in front of the registers; else the one value
  // (the dual-issue request adds it in).
  for (genvar p = 0; p < NPOOLS; p++) begin : g_rf_terms
    if (RF_PARTS) begin : g_parts
      assign rfp_pool_used_o[p*RFP*CW +: RFP*CW] = ll_i ? {g_rf[p].ep_part, g_rf[p].ip_part} : s_rfp[p*RFP*CW +: RFP*CW];
    end else begin : g_value
      assign rfp_pool_used_o[p*RFP*CW +: RFP*CW] = (RFP*CW)'(rf_pool_used[p*CW +: CW]);
    end
  end
  assign rfm_pool_used_o = '0;

endmodule

`default_nettype wire
