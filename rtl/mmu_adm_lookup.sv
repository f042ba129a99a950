// The read stage's look-up for one configuration (with PIPE 1): each slot's ingress and
// egress profile, their pools and reserved cells, and the lossless bit, by queue index. A
// block of its own: mmu_admission instantiates it on the stored fields and on the fields
// after this cycle's write access and selects by the accepted write behind both, so the
// look-up does not wait for the register block's refusal logic (in one module yosys would
// share the two look-ups behind a multiplexer on the accepted write).
`default_nettype none

module mmu_adm_lookup #(
  parameter int NQ = 64,      // queues (ports x priorities)
  parameter int NPOOLS = 4,   // buffer pools
  parameter int NPROF = 8,    // profile table entries per side
  parameter int CW = 32,      // cell counter width
  localparam int QW = NQ > 1 ? $clog2(NQ) : 1,
  localparam int PFW = NPROF > 1 ? $clog2(NPROF) : 1,
  localparam int PLW = NPOOLS > 1 ? $clog2(NPOOLS) : 1
) (
  input  wire [2*QW-1:0]     ii_i,        // slot a's ingress queue at 0, slot b's at QW
  input  wire [2*QW-1:0]     ei_i,        // the egress queues, likewise
  /* verilator lint_off UNUSEDSIGNAL */ // the 5-bit profile and 4-bit pool fields: PFW, PLW bits read
  input  wire [NQ*5-1:0]     q_pg_prof_i,
  input  wire [NQ*5-1:0]     q_queue_prof_i,
  input  wire [NQ-1:0]       q_lossless_i,
  input  wire [NPROF*4-1:0]  ip_pool_i,
  input  wire [NPROF*4-1:0]  ep_pool_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire [NPROF*CW-1:0] ip_res_i,
  input  wire [NPROF*CW-1:0] ep_res_i,
  // Per slot s at s * width: profiles, pools, reserved cells, lossless bit.
  output wire [2*PFW-1:0]    ipf_o,
  output wire [2*PFW-1:0]    epf_o,
  output wire [2*PLW-1:0]    ipool_o,
  output wire [2*PLW-1:0]    epool_o,
  output wire [2*CW-1:0]     ires_o,
  output wire [2*CW-1:0]     eres_o,
  output wire [1:0]          ll_o
);
  for (genvar s = 0; s < 2; s++) begin : g_slot
    wire [QW-1:0]  ii = ii_i[s*QW +: QW], ei = ei_i[s*QW +: QW];
    wire [PFW-1:0] ipf = q_pg_prof_i[ii*5 +: PFW], epf = q_queue_prof_i[ei*5 +: PFW];
    assign ipf_o[s*PFW +: PFW] = ipf;
    assign epf_o[s*PFW +: PFW] = epf;
    assign ipool_o[s*PLW +: PLW] = ip_pool_i[ipf*4 +: PLW];
    assign epool_o[s*PLW +: PLW] = ep_pool_i[epf*4 +: PLW];
    assign ires_o[s*CW +: CW] = ip_res_i[ipf*CW +: CW];
    assign eres_o[s*CW +: CW] = ep_res_i[epf*CW +: CW];
    assign ll_o[s] = q_lossless_i[ii];
  end
endmodule

`default_nettype wire
