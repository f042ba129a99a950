// abm (reverie-nsdi24 §2.3, §4.1), as hw-model/admission/policies/abm.cc: the SONiC
// bookkeeping on Gamma = alpha_p / n_p x (pool size - occupancy) x mu_q / mu_port for every
// dynamic profile, ingress and egress. alpha_p (pool size - occupancy) is the threshold
// calculator's (mmu_adm_thresh, on the registered pool occupancy, as for dt); the drain
// ratios and n_p of each side are mmu_adm_rate's live state, which hands this module the
// view; the division by n_p goes through the reciprocal table (mmu_adm_recip_div), the
// ratio is a 9-bit multiplier.
`include "mmu_adm_pol_if.svh"
`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module mmu_pol_abm #(`MMU_POL_PARAMS) (`MMU_POL_PORTS);
/* verilator lint_on UNUSEDSIGNAL */
`include "mmu_adm_fn.svh"

  // A release's XON test reads n_p as the release leaves it (the C++ updates n_p before
  // the test). Meaningless on an underflow, which tests nothing.
  wire [SW-1:0] n = SW'(cells_i);
  wire [SW-1:0] cnt_in = SW'(v_ing_i) + SW'(v_hdrm_i);
  wire [ANW-1:0] np_rel = abm_np_in_i + ANW'(cnt_in - n >= SW'(cfg_congested_i)) - ANW'(cnt_in >= SW'(cfg_congested_i));

  // alpha (b - q) / n_p, ingress and egress. Dual issue's request: n_p is the register less
  // the same-cycle release's step (abm_np_*_dec_i), so it divides by the register and by one
  // less, and the step selects behind both quotients, not in front of the table and product
  // (a release datapath ties the step to 0 and the second divider is synthesised away).
  wire [CW-1:0] iper0, iper1, eper0, eper1;
  mmu_adm_recip_div #(.VW(CW), .NW(ANW), .NMAX(NPORTS)) u_div_in (.v_i(ith_i), .n_i(is_rel_i ? np_rel : abm_np_in_i), .q_o(iper0));
  mmu_adm_recip_div #(.VW(CW), .NW(ANW), .NMAX(NPORTS)) u_div_in1 (.v_i(ith_i), .n_i(abm_np_in_i - ANW'(1)), .q_o(iper1));
  mmu_adm_recip_div #(.VW(CW), .NW(ANW), .NMAX(NPORTS)) u_div_eg (.v_i(eth_i), .n_i(abm_np_eg_i), .q_o(eper0));
  mmu_adm_recip_div #(.VW(CW), .NW(ANW), .NMAX(NPORTS)) u_div_eg1 (.v_i(eth_i), .n_i(abm_np_eg_i - ANW'(1)), .q_o(eper1));
  wire [CW-1:0] iper = abm_np_in_dec_i ? iper1 : iper0;
  wire [CW-1:0] eper = abm_np_eg_dec_i ? eper1 : eper0;
  // x mu_q / mu_port: the ratio is at most 1 (256), so the product's top CW bits hold it.
  wire [CW+8:0] iprod = (CW+9)'(iper) * (CW+9)'(abm_ratio_in_i);
  wire [CW+8:0] eprod = (CW+9)'(eper) * (CW+9)'(abm_ratio_eg_i);
  // A static profile's entry is its static_th.
  wire [CW-1:0] ith = ip_dynamic_i ? CW'(iprod >> 8) : ith_i;
  wire [CW-1:0] eth = ep_dynamic_i ? CW'(eprod >> 8) : eth_i;

  mmu_adm_sonic #(`MMU_POL_PARAM_MAP) u_sonic (
    `MMU_POL_INPUTS_BUT_TH,
    `MMU_POL_SONIC_OUTPUTS,
    .ith_i(ith), .eth_i(eth), .hdrm_cap_i(HW'(cfg_hdrm_pool_i))
  );

endmodule

`default_nettype wire
