// abm (reverie-nsdi24 §2.3, §4.1), as hw-model/admission/policies/abm.cc: the SONiC
// bookkeeping on Gamma = alpha_p / n_p x (pool size - occupancy) x mu_q / mu_port for every
// dynamic profile, ingress and egress. Its state (drain rates, n_p of each side) is
// mmu_adm_rate's, which hands this module the view; the division by n_p goes through the
// reciprocal table (mmu_adm_recip_div), the ratio is a 9-bit multiplier.
`include "mmu_adm_pol_if.svh"
`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module mmu_pol_abm #(`MMU_POL_PARAMS) (`MMU_POL_PORTS);
/* verilator lint_on UNUSEDSIGNAL */
`include "mmu_adm_fn.svh"

  wire [CW-1:0] ipool_size = cfg_pool_size_i[ipool_i*CW +: CW];
  wire [CW-1:0] ipool_used = v_pool_used_i[ipool_i*CW +: CW];
  wire [CW-1:0] epool_size = cfg_pool_size_i[epool_i*CW +: CW];
  wire [CW-1:0] epool_used = v_pool_used_i[epool_i*CW +: CW];

  // A release's XON test reads the threshold on the state the release leaves: the ingress
  // pool after both refunds (the egress one too when its profile names the same pool) and
  // n_p after it. (Wires from the view, not the SONiC module's outputs fed back: Icarus 11
  // re-evaluates such a path without end.) Meaningless on an underflow, which tests nothing.
  wire [SW-1:0] n = SW'(cells_i);
  wire [SW-1:0] q_ing = SW'(v_ing_i);
  wire [SW-1:0] q_hdrm = SW'(v_hdrm_i);
  wire [SW-1:0] q_egr = SW'(v_egr_i);
  wire [SW-1:0] from_h = n < q_hdrm ? n : q_hdrm;  // headroom drains first
  wire [SW-1:0] shrink = shared_part(q_ing, ires_i) - shared_part(q_ing - (n - from_h), ires_i);
  wire [SW-1:0] eshrink = shared_part(q_egr, eres_i) - shared_part(q_egr - n, eres_i);
  wire [CW-1:0] ipool_rel = CW'(SW'(ipool_used) - shrink - (epool_i == ipool_i ? eshrink : '0));
  wire [SW-1:0] cnt_in = q_ing + q_hdrm;
  wire [ANW-1:0] np_rel = abm_np_in_i + ANW'(cnt_in - n >= SW'(cfg_congested_i)) - ANW'(cnt_in >= SW'(cfg_congested_i));

  // alpha (b - q) / n_p, ingress (on the view, or as the release leaves it) and egress.
  wire [CW-1:0] idt = dt_threshold(1'b1, ip_shift_i, '0, ipool_size, is_rel_i ? ipool_rel : ipool_used);
  wire [CW-1:0] edt = dt_threshold(1'b1, ep_shift_i, '0, epool_size, epool_used);
  wire [CW-1:0] iper, eper;
  mmu_adm_recip_div #(.VW(CW), .NW(ANW), .NMAX(NPORTS)) u_div_in (.v_i(idt), .n_i(is_rel_i ? np_rel : abm_np_in_i), .q_o(iper));
  mmu_adm_recip_div #(.VW(CW), .NW(ANW), .NMAX(NPORTS)) u_div_eg (.v_i(edt), .n_i(abm_np_eg_i), .q_o(eper));
  // x mu_q / mu_port: the ratio is at most 1 (256), so the product's top CW bits hold it.
  wire [CW+8:0] iprod = (CW+9)'(iper) * (CW+9)'(abm_ratio_in_i);
  wire [CW+8:0] eprod = (CW+9)'(eper) * (CW+9)'(abm_ratio_eg_i);
  wire [CW-1:0] ith = ip_dynamic_i ? CW'(iprod >> 8) : ip_static_i;
  wire [CW-1:0] eth = ep_dynamic_i ? CW'(eprod >> 8) : ep_static_i;

  // XON_DT(0): a release's XON test takes ith_i, here the threshold after the release.
  mmu_adm_sonic #(`MMU_POL_PARAM_MAP, .XON_DT(0)) u_sonic (
    `MMU_POL_INPUTS,
    .verdict_o, .pfc_o, .port_pfc_o, .reason_o, .underflow_o, .n_ing_o, .n_hdrm_o, .n_paused_o, .n_avg_in_o,
    .n_egr_o, .n_avg_eg_o, .n_pool_used_o, .n_hdrm_used_o, .n_total_o, .n_ncong_o, .n_port_paused_o,
    .n_port_shared_o, .n_port_ins_o,
    .ith_i(ith), .eth_i(eth), .hdrm_cap_i(HW'(cfg_hdrm_pool_i))
  );

endmodule

`default_nettype wire
