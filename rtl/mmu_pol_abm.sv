// abm (reverie-nsdi24 §2.3, §4.1), as hw-model/admission/policies/abm.cc: the SONiC
// bookkeeping on Gamma = alpha_p / n_p x (pool size - occupancy) x mu_q / mu_port for every
// dynamic profile, ingress and egress. alpha_p (pool size - occupancy) / n_p is the
// threshold calculator's entry over its registered n_p, divided by mmu_adm_quot through the
// reciprocal table (in the read stage with PIPE 1); the drain ratio is mmu_adm_rate's.
// Here: the 9-bit ratio's product.
`include "mmu_adm_pol_if.svh"
`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module mmu_pol_abm #(`MMU_POL_PARAMS) (`MMU_POL_PORTS);
/* verilator lint_on UNUSEDSIGNAL */

  // x mu_q / mu_port: the ratio is at most 1 (256), so the product's top CW bits hold it.
  wire [CW+8:0] iprod = (CW+9)'(quot_in_i) * (CW+9)'(abm_ratio_in_i);
  wire [CW+8:0] eprod = (CW+9)'(quot_eg_i) * (CW+9)'(abm_ratio_eg_i);
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
