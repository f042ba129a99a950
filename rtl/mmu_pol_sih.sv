// sih: static, independent headroom (dsh-icdcs23, the DSH baseline; policies/sih.cc): dt's
// thresholds (mmu_adm_thresh), and the lossless PGs may hold the sum of their xoff in
// headroom, whatever HDRM_POOL_CELLS says (sih_hdrm_i, derived from the configuration by
// mmu_admission).
`include "mmu_adm_pol_if.svh"
`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module mmu_pol_sih #(`MMU_POL_PARAMS) (`MMU_POL_PORTS);
/* verilator lint_on UNUSEDSIGNAL */

  mmu_adm_sonic #(`MMU_POL_PARAM_MAP) u_sonic (
    `MMU_POL_INPUTS,
    `MMU_POL_SONIC_OUTPUTS,
    .hdrm_cap_i(sih_hdrm_i)
  );

endmodule

`default_nettype wire
