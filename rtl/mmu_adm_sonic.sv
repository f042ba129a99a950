// The SONiC buffer model (reverie-nsdi24 §2.2), shared by dt, static, sih, abm and dsh's
// lossy traffic as hw-model/admission/policies/sonic.cc is: ingress and egress admission
// over pools, lossless PGs paused into headroom, the headroom-first release and the XON
// test, on the thresholds of the threshold calculator (ith_i, eth_i: registered, the same
// for the admission and the XON test); the policy gives the headroom capacity.
`include "mmu_adm_pol_if.svh"
`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module mmu_adm_sonic #(`MMU_POL_PARAMS) (
  `MMU_POL_PORTS,
  input  wire [HW-1:0] hdrm_cap_i   // headroom the lossless PGs may use in total
);
/* verilator lint_on UNUSEDSIGNAL */
`include "mmu_adm_fn.svh"
  `MMU_POL_NEXT_BUT_TERMS

  // hdrm_used + n against the capacity: wide enough for both.
  localparam int KW = SW > HW ? SW : HW;

  // The pool tests read the pool registers: a same-cycle release's refund of a pool reaches
  // them a cycle later (dual issue's request; "The pool refund's lag", docs/rtl.md).
  wire [CW-1:0] ipool_size = cfg_pool_size_i[ipool_i*CW +: CW];
  wire [CW-1:0] ipool_used = v_pool_used_i[ipool_i*CW +: CW];
  wire [CW-1:0] epool_size = cfg_pool_size_i[epool_i*CW +: CW];
  wire [CW-1:0] epool_used = v_pool_used_i[epool_i*CW +: CW];

  // Every test and update below is a sum of the view's registers, the operation's cells,
  // the configuration and (dual issue's request) the release's refund of the headroom pool
  // and total, so that no test waits for another's difference ("The decide stage",
  // docs/rtl.md).
  wire [SW-1:0] n = SW'(cells_i);
  wire [SW-1:0] q_ing = SW'(v_ing_i);
  wire [SW-1:0] q_hdrm = SW'(v_hdrm_i);
  wire [SW-1:0] q_egr = SW'(v_egr_i);
  // The request's tests: here, or (PIPE 3) registered by the test stage on its view.
  wire [KW+1:0] hdrm_room = (KW+2)'(hdrm_cap_i) + (KW+2)'(rf_hdrm_used_i) - (KW+2)'(v_hdrm_used_i) - (KW+2)'(n);
  wire over_in = t_on_i ? t_i[0] : over(v_ing_i, cells_i, ires_i, ith_i, ipool_size, ipool_used);
  wire over_eg = t_on_i ? t_i[1] : over(v_egr_i, cells_i, eres_i, eth_i, epool_size, epool_used);
  wire hdrm_over = t_on_i ? t_i[2] : q_hdrm + n > SW'(ip_xoff_i);  // the PG's headroom
  wire hdrm_full = t_on_i ? t_i[3] : hdrm_room[KW+1];  // hdrm_used - rf + n > capacity
  // A release: headroom drains first (§2.2.1), then the ingress share; it underflows
  // unless n <= ing + hdrm and n <= egr. PIPE 3: its counts are the view's plus the
  // same-cycle request's charge (t_d_i), an operand of each sum rather than an adder in
  // front.
  wire [SW-1:0] di = SW'(t_d_i[0 +: CW]), dh = SW'(t_d_i[CW +: CW]), de = SW'(t_d_i[2*CW +: CW]);
  wire [SW-1:0] dsum = di + dh;
  // Each compare an instance of mmu_adm_sumgt (p > m, one sum): compares written as
  // chains with a common prefix of operands would share the prefix as an adder in series.
  wire [SW-1:0] ires = SW'(ires_i), eres = SW'(eres_i);
  wire und_i, und_e, h_left, n_gt_h, i_gt_r, n_r_gt, e_gt_r, n_er_gt, xon_gt, xo_gt;
  mmu_adm_sumgt #(.W(SW), .NP(1), .NM(3)) u_und_i (.p_i(n), .m_i({q_ing, q_hdrm, dsum}), .gt_o(und_i));
  mmu_adm_sumgt #(.W(SW), .NP(1), .NM(2)) u_und_e (.p_i(n), .m_i({q_egr, de}), .gt_o(und_e));
  wire rel_under = und_i || und_e;
  // headroom cells left after the release
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(1)) u_h_left (.p_i({q_hdrm, dh}), .m_i(n), .gt_o(h_left));
  // shrink_of(ing + di, hdrm + dh, n, ires) and shrink_of(egr + de, 0, n, eres), each
  // compare one sum.
  mmu_adm_sumgt #(.W(SW), .NP(1), .NM(2)) u_n_gt_h (.p_i(n), .m_i({q_hdrm, dh}), .gt_o(n_gt_h));
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(1)) u_i_gt_r (.p_i({q_ing, di}), .m_i(ires), .gt_o(i_gt_r));
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(3)) u_n_r_gt (.p_i({n, ires}), .m_i({q_ing, q_hdrm, dsum}), .gt_o(n_r_gt));
  wire s_zero = !n_gt_h || !i_gt_r;
  wire s_all = !n_r_gt;
  wire [CW-1:0] shrink = s_zero ? '0 : s_all ? CW'(n - q_hdrm - dh) : CW'(q_ing + di - ires);
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(1)) u_e_gt_r (.p_i({q_egr, de}), .m_i(eres), .gt_o(e_gt_r));
  mmu_adm_sumgt #(.W(SW), .NP(2), .NM(2)) u_n_er_gt (.p_i({n, eres}), .m_i({q_egr, de}), .gt_o(n_er_gt));
  wire es_zero = n == '0 || !e_gt_r;
  wire es_all = !n_er_gt;
  wire [CW-1:0] eshrink = es_zero ? '0 : es_all ? CW'(n) : CW'(q_egr + de - eres);

  logic over_buf, to_h;
  logic paused_book;  // the pause bit before the XON test
  logic [1:0] pfc_book;
  logic [CW-1:0] rf_h, rf_t;  // this release's refund of the headroom pool and the total
  wire [NPOOLS*CW-1:0] pool_next;
  assign over_buf = t_on_i ? t_i[4] : sum_gt(SW'(v_total_i), n, '0, SW'(cfg_buffer_i), SW'(rf_total_i), '0);

  // Bookkeeping: charge or refund every counter; XOFF.
  always_comb begin
    verdict = mmu_adm_pkg::VERDICT_DROP;
    pfc_book = mmu_adm_pkg::PFC_NONE;
    port_pfc = mmu_adm_pkg::PFC_NONE;
    reason = mmu_adm_pkg::REASON_NONE;
    underflow = 1'b0;
    // Unchanged: the view and (PIPE 3's release) the same-cycle request's charge.
    n_ing = CW'(q_ing + di);
    n_hdrm = CW'(q_hdrm + dh);
    n_egr = CW'(q_egr + de);
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
      if (ll_i && to_h && (hdrm_over || hdrm_full)) begin
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
        n_hdrm = h_left ? CW'(q_hdrm + dh - n) : '0;
        n_ing = h_left ? CW'(q_ing + di) : CW'(q_ing + q_hdrm + dsum - n);
        n_egr = CW'(q_egr + de - n);
        rf_pool_used[ipool_i*CW +: CW] = shrink;
        rf_pool_used[epool_i*CW +: CW] = rf_pool_used[epool_i*CW +: CW] + eshrink;
        rf_h = CW'(h_left ? n : q_hdrm + dh);
        rf_t = CW'(n);
      end
    end
  end
  assign rf_hdrm_used = rf_h;
  assign rf_total = rf_t;

  // The same refund of each pool as terms (mmu_adm_pol_if.svh; PIPE 0 and 1, t_d_i 0): shrink_of's cases as
  // operands selected by its compares, n - hdrm or ing - res of the ingress queue and n or
  // egr - eres of the egress queue, so that the request adds them into its tests and updates
  // as they come rather than their sum.
  wire rel_fire = is_rel_i && !rel_under;
  // RF_PARTS (PIPE 3, which registers the terms): the ingress and egress refunds apart, so
  // that no adder of the two stands in front of the registers.
  for (genvar p = 0; p < NPOOLS; p++) begin : g_rf_terms
    if (RF_PARTS) begin : g_parts
      wire [CW-1:0] ip_part = rel_fire && ipool_i == PLW'(p) ? shrink : '0;
      wire [CW-1:0] ep_part = rel_fire && epool_i == PLW'(p) ? eshrink : '0;
      assign rfp_pool_used_o[p*RFP*CW +: RFP*CW] = {ep_part, ip_part};
      assign rfm_pool_used_o[p*RFM*CW +: RFM*CW] = '0;
    end else begin : g_ops
      wire i_none = n <= q_hdrm || q_ing <= SW'(ires_i);
      wire i_all = !i_none && q_ing + q_hdrm >= n + SW'(ires_i);  // n - hdrm, else ing - res
      wire e_none = n == '0 || q_egr <= SW'(eres_i);
      wire e_all = !e_none && q_egr >= n + SW'(eres_i);           // n, else egr - eres
      wire ip = rel_fire && !i_none && ipool_i == PLW'(p);
      wire ep = rel_fire && !e_none && epool_i == PLW'(p);
      // (Each term a wire of its own: an unsized '0 in a concatenation is sized apart.)
      wire [CW-1:0] ip_add = !ip ? '0 : i_all ? CW'(n) : CW'(q_ing);
      wire [CW-1:0] ip_sub = !ip ? '0 : i_all ? CW'(q_hdrm) : ires_i;
      wire [CW-1:0] ep_add = !ep ? '0 : e_all ? CW'(n) : CW'(q_egr);
      wire [CW-1:0] ep_sub = !ep || e_all ? '0 : eres_i;
      assign rfp_pool_used_o[p*RFP*CW +: RFP*CW] = {ep_add, ip_add};
      assign rfm_pool_used_o[p*RFM*CW +: RFM*CW] = {ep_sub, ip_sub};
    end
  end

  // The pools' next values (mmu_adm_poolnx), the refund's terms as given (REFUND).
  mmu_adm_poolnx #(.CW(CW), .CELLW(CELLW), .NPOOLS(NPOOLS)) u_poolnx (
    .v_pool_i(v_pool_used_i), .rf_sub_i(REFUND ? rfp_pool_used_i : '0), .rf_add_i(REFUND ? rfm_pool_used_i : '0),
    .q_ing_i(v_ing_i), .q_egr_i(v_egr_i), .n_i(cells_i), .ires_i(ires_i), .eres_i(eres_i), .ipool_i(ipool_i),
    .epool_i(epool_i), .verdict_i(verdict),
    .rf_out_i(rf_pool_used), .pool_next_o(pool_next)
  );
  assign n_pool_used = pool_next;
  assign n_hdrm_used = counter_next(v_hdrm_used_i, rf_hdrm_used_i, rf_hdrm_used, '0, CW'(n), verdict);
  assign n_total = counter_next(v_total_i, rf_total_i, rf_total, CW'(n), CW'(n), verdict);

  // XON once headroom is empty (the release takes all of it): the queue empty, below xon,
  // or xon_offset under the threshold, on what the release leaves, ing + hdrm - n cells.
  // With s = shared_part(ing + hdrm - n): s < xon iff xon != 0 and ing + hdrm < n + res + xon;
  // s + xon_offset <= th iff xon_offset <= th and ing + hdrm + xon_offset <= th + n + res.
  // (A block of its own: it reads the first block's results.)
  wire xon_test = is_rel_i && v_paused_i && !rel_under && !h_left;
  // xo_gt: ing + hdrm + xon_offset > th + n + res (the shared part plus xon_offset above th).
  mmu_adm_sumgt #(.W(SW), .NP(4), .NM(3)) u_xo (
    .p_i({q_ing, q_hdrm, dsum, SW'(ip_xon_offset_i)}), .m_i({SW'(ith_i), n, ires}), .gt_o(xo_gt));
  mmu_adm_sumgt #(.W(SW), .NP(3), .NM(3)) u_xon (
    .p_i({n, ires, SW'(ip_xon_i)}), .m_i({q_ing, q_hdrm, dsum}), .gt_o(xon_gt));
  wire empties;  // the PG empties: ing + hdrm == n
  mmu_adm_sumeq #(.W(SW), .NP(4), .NM(1)) u_empties (.p_i({q_ing, q_hdrm, di, dh}), .m_i(n), .eq_o(empties));
  wire xon_hit = empties ||
                 (ip_xon_i != '0 && xon_gt) ||
                 (ip_xon_offset_i <= ith_i && !xo_gt);
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
