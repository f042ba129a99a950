// dt: the SONiC model with Dynamic Thresholds (reverie-nsdi24 §2.2, Eq. 1), as
// hw-model/admission/policies/dt.cc: alpha x (pool size - pool occupancy), or static_th,
// from the threshold calculator (mmu_adm_thresh).
`include "mmu_adm_pol_if.svh"
`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module mmu_pol_dt #(`MMU_POL_PARAMS) (`MMU_POL_PORTS);
/* verilator lint_on UNUSEDSIGNAL */

  mmu_adm_sonic #(`MMU_POL_PARAM_MAP) u_sonic (
    `MMU_POL_INPUTS,
    `MMU_POL_SONIC_OUTPUTS,
    .hdrm_cap_i(HW'(cfg_hdrm_pool_i))
  );

endmodule

`default_nettype wire
