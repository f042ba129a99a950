// static: fixed per-queue thresholds (hw-model/admission/policies/static.cc): a dynamic
// profile's limit is alpha x its pool's size, independent of load (the threshold
// calculator computes it, mmu_adm_thresh); SONiC bookkeeping.
`include "mmu_adm_pol_if.svh"
`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module mmu_pol_static #(`MMU_POL_PARAMS) (`MMU_POL_PORTS);
/* verilator lint_on UNUSEDSIGNAL */

  mmu_adm_sonic #(`MMU_POL_PARAM_MAP) u_sonic (
    `MMU_POL_INPUTS,
    `MMU_POL_SONIC_OUTPUTS,
    .hdrm_cap_i(HW'(cfg_hdrm_pool_i))
  );

endmodule

`default_nettype wire
