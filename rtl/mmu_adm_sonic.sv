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
  `MMU_POL_NEXT

  // hdrm_used + n against the capacity: wide enough for both.
  localparam int KW = SW > HW ? SW : HW;

  wire [CW-1:0] ipool_size = cfg_pool_size_i[ipool_i*CW +: CW];
  wire [CW-1:0] ipool_used = v_pool_used_i[ipool_i*CW +: CW];
  wire [CW-1:0] epool_size = cfg_pool_size_i[epool_i*CW +: CW];
  wire [CW-1:0] epool_used = v_pool_used_i[epool_i*CW +: CW];

  logic [SW-1:0] n, q_ing, q_hdrm, q_egr, grow, egrow, from_h, from_q, shrink, eshrink;
  logic over_in, over_eg, to_h;
  logic xon_test;     // a release emptied a paused queue's headroom: test XON
  logic paused_book;  // the pause bit before the XON test
  logic [1:0] pfc_book;

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
    n_pool_used = v_pool_used_i;
    n_hdrm_used = v_hdrm_used_i;
    n_total = v_total_i;
    n_ncong = v_ncong_i;
    n_port_paused = v_port_paused_i;
    n_port_shared = v_port_shared_i;
    n_port_ins = v_port_ins_i;
    xon_test = 1'b0;
    to_h = 1'b0;
    from_h = '0;
    from_q = '0;
    shrink = '0;
    eshrink = '0;

    n = SW'(cells_i);
    q_ing = SW'(v_ing_i);
    q_hdrm = SW'(v_hdrm_i);
    q_egr = SW'(v_egr_i);
    grow = shared_part(q_ing + n, ires_i) - shared_part(q_ing, ires_i);
    egrow = shared_part(q_egr + n, eres_i) - shared_part(q_egr, eres_i);
    over_in = over(v_ing_i, cells_i, ires_i, ith_i, ipool_size, ipool_used);
    over_eg = over(v_egr_i, cells_i, eres_i, eth_i, epool_size, epool_used);

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
      if (ll_i && to_h && (q_hdrm + n > SW'(ip_xoff_i) || KW'(v_hdrm_used_i) + KW'(n) > KW'(hdrm_cap_i))) begin
        reason = mmu_adm_pkg::REASON_HEADROOM;
      end else if (!ll_i && over_in) begin
        reason = mmu_adm_pkg::REASON_INGRESS;
      end else if (over_eg) begin
        reason = mmu_adm_pkg::REASON_EGRESS;
      end else if (SW'(v_total_i) + n > SW'(cfg_buffer_i)) begin
        reason = mmu_adm_pkg::REASON_BUFFER;
      end else begin
        if (to_h) begin
          n_hdrm = CW'(q_hdrm + n);
          n_hdrm_used = CW'(SW'(v_hdrm_used_i) + n);
        end else begin
          n_ing = CW'(q_ing + n);
          n_pool_used[ipool_i*CW +: CW] = CW'(SW'(ipool_used) + grow);
        end
        n_egr = CW'(q_egr + n);
        n_pool_used[epool_i*CW +: CW] = CW'(SW'(n_pool_used[epool_i*CW +: CW]) + egrow);
        n_total = CW'(SW'(v_total_i) + n);
        verdict = to_h ? mmu_adm_pkg::VERDICT_HEADROOM : mmu_adm_pkg::VERDICT_SHARED;
      end

    end else if (is_rel_i) begin
      // Headroom drains first, then the ingress share (§2.2.1).
      from_h = n < q_hdrm ? n : q_hdrm;
      from_q = n - from_h;
      if (from_q > q_ing || n > q_egr) begin
        underflow = 1'b1;
      end else begin
        shrink = shared_part(q_ing, ires_i) - shared_part(q_ing - from_q, ires_i);
        eshrink = shared_part(q_egr, eres_i) - shared_part(q_egr - n, eres_i);
        n_hdrm = CW'(q_hdrm - from_h);
        n_hdrm_used = CW'(SW'(v_hdrm_used_i) - from_h);
        n_ing = CW'(q_ing - from_q);
        n_pool_used[ipool_i*CW +: CW] = CW'(SW'(ipool_used) - shrink);
        n_egr = CW'(q_egr - n);
        n_pool_used[epool_i*CW +: CW] = CW'(SW'(n_pool_used[epool_i*CW +: CW]) - eshrink);
        n_total = CW'(SW'(v_total_i) - n);
        xon_test = v_paused_i && q_hdrm == from_h;
      end
    end
  end
  // XON once headroom is empty: the queue empty, below xon, or xon_offset under the
  // threshold (a block of its own: it reads the first block's results).
  logic [SW-1:0] s;
  always_comb begin
    n_paused = paused_book;
    pfc = pfc_book;
    s = shared_part(SW'(n_ing), ires_i);
    if (xon_test && (n_ing == '0 || s < SW'(ip_xon_i) || s + SW'(ip_xon_offset_i) <= SW'(ith_i))) begin
      n_paused = 1'b0;
      pfc = mmu_adm_pkg::PFC_XON;
    end
  end

endmodule

`default_nettype wire
