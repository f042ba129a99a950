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

  wire [CW-1:0] ipool_size = cfg_pool_size_i[ipool_i*CW +: CW];
  wire [CW-1:0] ipool_used = v_pool_used_i[ipool_i*CW +: CW];
  wire [CW-1:0] epool_size = cfg_pool_size_i[epool_i*CW +: CW];
  wire [CW-1:0] epool_used = v_pool_used_i[epool_i*CW +: CW];

  // ---- lossy traffic: SONiC
  logic [1:0] s_verdict, s_pfc, s_port_pfc;
  logic [2:0] s_reason;
  logic s_underflow, s_paused, s_port_paused;
  logic [CW-1:0] s_ing, s_hdrm, s_egr, s_hdrm_used, s_total, s_port_shared, s_port_ins;
  logic [AW-1:0] s_avg_in, s_avg_eg;
  logic [NPOOLS*CW-1:0] s_pool_used;
  logic [QW:0] s_ncong;
  mmu_adm_sonic #(`MMU_POL_PARAM_MAP) u_sonic (
    `MMU_POL_INPUTS,
    .verdict_o(s_verdict), .pfc_o(s_pfc), .port_pfc_o(s_port_pfc), .reason_o(s_reason), .underflow_o(s_underflow),
    .n_ing_o(s_ing), .n_hdrm_o(s_hdrm), .n_paused_o(s_paused), .n_avg_in_o(s_avg_in), .n_egr_o(s_egr),
    .n_avg_eg_o(s_avg_eg), .n_pool_used_o(s_pool_used), .n_hdrm_used_o(s_hdrm_used), .n_total_o(s_total),
    .n_ncong_o(s_ncong), .n_port_paused_o(s_port_paused), .n_port_shared_o(s_port_shared), .n_port_ins_o(s_port_ins),
    .hdrm_cap_i(HW'(cfg_hdrm_pool_i))
  );

  // ---- lossless traffic
  logic [SW-1:0] n, q_ing, q_hdrm, q_egr, grow, egrow, from_h, from_q, shrink, eshrink, s;
  logic [CW-1:0] t, xq, xp;
  logic [CW+3:0] nq_t;  // N_q (4 bits) x T
  logic to_h;

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
    n_pool_used = v_pool_used_i;
    n_hdrm_used = v_hdrm_used_i;
    n_total = v_total_i;
    n_ncong = v_ncong_i;
    n_port_paused = v_port_paused_i;
    n_port_shared = v_port_shared_i;
    n_port_ins = v_port_ins_i;
    to_h = 1'b0;
    from_h = '0;
    from_q = '0;
    shrink = '0;
    eshrink = '0;
    s = '0;
    t = '0;
    xq = '0;
    xp = '0;
    nq_t = '0;

    n = SW'(cells_i);
    q_ing = SW'(v_ing_i);
    q_hdrm = SW'(v_hdrm_i);
    q_egr = SW'(v_egr_i);
    grow = shared_part(q_ing + n, ires_i) - shared_part(q_ing, ires_i);
    egrow = shared_part(q_egr + n, eres_i) - shared_part(q_egr, eres_i);

    if (!ll_i) begin
      verdict = s_verdict;
      pfc = s_pfc;
      port_pfc = s_port_pfc;
      reason = s_reason;
      underflow = s_underflow;
      n_ing = s_ing;
      n_hdrm = s_hdrm;
      n_egr = s_egr;
      n_paused = s_paused;
      n_avg_in = s_avg_in;
      n_avg_eg = s_avg_eg;
      n_pool_used = s_pool_used;
      n_hdrm_used = s_hdrm_used;
      n_total = s_total;
      n_ncong = s_ncong;
      n_port_paused = s_port_paused;
      n_port_shared = s_port_shared;
      n_port_ins = s_port_ins;

    end else if (is_req_i) begin
      // A full shared segment or a paused port sends the packet to insurance headroom.
      to_h = v_port_paused_i || SW'(ipool_used) + grow > SW'(ipool_size);
      if (to_h && (SW'(v_port_ins_i) + n > SW'(dsh_ins_i) || SW'(v_hdrm_used_i) + n > SW'(cfg_hdrm_pool_i))) begin
        reason = mmu_adm_pkg::REASON_HEADROOM;
      end else if (over(v_egr_i, cells_i, eres_i, eth_i, epool_size, epool_used)) begin
        reason = mmu_adm_pkg::REASON_EGRESS;
      end else if (SW'(v_total_i) + n > SW'(cfg_buffer_i)) begin
        reason = mmu_adm_pkg::REASON_BUFFER;
      end else begin
        if (to_h) begin
          n_hdrm = CW'(q_hdrm + n);
          n_hdrm_used = CW'(SW'(v_hdrm_used_i) + n);
          n_port_ins = CW'(SW'(v_port_ins_i) + n);
        end else begin
          n_ing = CW'(q_ing + n);
          n_pool_used[ipool_i*CW +: CW] = CW'(SW'(ipool_used) + grow);
          n_port_shared = CW'(SW'(v_port_shared_i) + grow);
        end
        n_egr = CW'(q_egr + n);
        n_pool_used[epool_i*CW +: CW] = CW'(SW'(n_pool_used[epool_i*CW +: CW]) + egrow);
        n_total = CW'(SW'(v_total_i) + n);
        verdict = to_h ? mmu_adm_pkg::VERDICT_HEADROOM : mmu_adm_pkg::VERDICT_SHARED;
        // Transitions on the occupancy this packet produced.
        t = ith_i;
        xq = t > ip_xoff_i ? t - ip_xoff_i : '0;
        nq_t = (CW+4)'(dsh_nq_i) * (CW+4)'(t);
        xp = nq_t > (CW+4)'(CMAX) ? CMAX : nq_t[CW-1:0];
        if (!v_paused_i && shared_part(SW'(n_ing), ires_i) > SW'(xq)) begin
          n_paused = 1'b1;
          pfc = mmu_adm_pkg::PFC_XOFF;
        end
        if (!v_port_paused_i && (to_h || n_port_shared > xp)) begin
          n_port_paused = 1'b1;
          port_pfc = mmu_adm_pkg::PFC_XOFF;
        end
      end

    end else if (is_rel_i) begin
      from_h = n < q_hdrm ? n : q_hdrm;
      from_q = n - from_h;
      if (from_q > q_ing || n > q_egr || from_h > SW'(v_port_ins_i)) begin
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
        n_port_ins = CW'(SW'(v_port_ins_i) - from_h);
        n_port_shared = CW'(SW'(v_port_shared_i) - shrink);
        s = shared_part(q_ing - from_q, ires_i);
        t = ith_i;
        xq = t > ip_xoff_i ? t - ip_xoff_i : '0;
        nq_t = (CW+4)'(dsh_nq_i) * (CW+4)'(t);
        xp = nq_t > (CW+4)'(CMAX) ? CMAX : nq_t[CW-1:0];
        if (v_paused_i && (q_ing == from_q || s + SW'(ip_xon_offset_i) < SW'(xq))) begin
          n_paused = 1'b0;
          pfc = mmu_adm_pkg::PFC_XON;
        end
        if (v_port_paused_i && n_port_ins == '0 &&
            (n_port_shared == '0 || SW'(n_port_shared) + SW'(cfg_dsh_port_xon_off_i) < SW'(xp))) begin
          n_port_paused = 1'b0;
          port_pfc = mmu_adm_pkg::PFC_XON;
        end
      end
    end
  end

endmodule

`default_nettype wire
