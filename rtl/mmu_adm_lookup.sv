// The read stage's look-up (with PIPE 1): each slot's ingress and egress profile, their
// pools and reserved cells, and the lossless bit, by queue index, as this cycle's accepted
// CSR write (we_i) leaves the configuration. Read from the stored fields, with the write's
// data substituted where the write names the entry looked up: a queue-map write at the
// slot's queue gives the profile (its pool and reserved cells read from the stored profile
// table at the written profile), a profile-table write at the slot's profile its pool or
// reserved cells. A write names one register, so at most one level changes. The
// substitution is chosen by the write access (wsel, no refusal check) and we_i picks it
// last, so the look-up does not wait for the register block's refusal logic; nor does a
// simulator form the whole tables after the write (the _wnext vectors) every cycle.
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
  // This cycle's write access (the register block's wport outputs): the register it names
  // (wsel), its entry (in range whenever wsel) and data; we_i: the write is accepted.
  input  wire                we_i,
  input  wire                qmap_wsel_i,
  input  wire [QW-1:0]       qmap_widx_i,
  input  wire [PFW-1:0]      q_pg_prof_wd_i,
  input  wire [PFW-1:0]      q_queue_prof_wd_i,
  input  wire                q_lossless_wd_i,
  input  wire                ip_pool_wsel_i,
  input  wire [PFW-1:0]      ip_pool_widx_i,
  input  wire [PLW-1:0]      ip_pool_wd_i,
  input  wire                ep_pool_wsel_i,
  input  wire [PFW-1:0]      ep_pool_widx_i,
  input  wire [PLW-1:0]      ep_pool_wd_i,
  input  wire                ip_res_wsel_i,
  input  wire [PFW-1:0]      ip_res_widx_i,
  input  wire [CW-1:0]       ip_res_wd_i,
  input  wire                ep_res_wsel_i,
  input  wire [PFW-1:0]      ep_res_widx_i,
  input  wire [CW-1:0]       ep_res_wd_i,
  // Per slot s at s * width: profiles, pools, reserved cells, lossless bit.
  output wire [2*PFW-1:0]    ipf_o,
  output wire [2*PFW-1:0]    epf_o,
  output wire [2*PLW-1:0]    ipool_o,
  output wire [2*PLW-1:0]    epool_o,
  output wire [2*CW-1:0]     ires_o,
  output wire [2*CW-1:0]     eres_o,
  output wire [1:0]          ll_o
);
  // The stored profile tables at the written profile (shared by both slots).
  wire [PLW-1:0] ipool_q = ip_pool_i[q_pg_prof_wd_i*4 +: PLW];
  wire [PLW-1:0] epool_q = ep_pool_i[q_queue_prof_wd_i*4 +: PLW];
  wire [CW-1:0]  ires_q = ip_res_i[q_pg_prof_wd_i*CW +: CW];
  wire [CW-1:0]  eres_q = ep_res_i[q_queue_prof_wd_i*CW +: CW];

  for (genvar s = 0; s < 2; s++) begin : g_slot
    wire [QW-1:0]  ii = ii_i[s*QW +: QW], ei = ei_i[s*QW +: QW];
    // Stored.
    wire [PFW-1:0] ipf = q_pg_prof_i[ii*5 +: PFW], epf = q_queue_prof_i[ei*5 +: PFW];
    wire [PLW-1:0] ipool = ip_pool_i[ipf*4 +: PLW], epool = ep_pool_i[epf*4 +: PLW];
    wire [CW-1:0]  ires = ip_res_i[ipf*CW +: CW], eres = ep_res_i[epf*CW +: CW];
    wire           ll = q_lossless_i[ii];
    // After the write access.
    wire iq = qmap_wsel_i && qmap_widx_i == ii, eq = qmap_wsel_i && qmap_widx_i == ei;
    wire [PFW-1:0] ipf_n = iq ? q_pg_prof_wd_i : ipf, epf_n = eq ? q_queue_prof_wd_i : epf;
    wire [PLW-1:0] ipool_n = iq ? ipool_q : ip_pool_wsel_i && ip_pool_widx_i == ipf ? ip_pool_wd_i : ipool;
    wire [PLW-1:0] epool_n = eq ? epool_q : ep_pool_wsel_i && ep_pool_widx_i == epf ? ep_pool_wd_i : epool;
    wire [CW-1:0]  ires_n = iq ? ires_q : ip_res_wsel_i && ip_res_widx_i == ipf ? ip_res_wd_i : ires;
    wire [CW-1:0]  eres_n = eq ? eres_q : ep_res_wsel_i && ep_res_widx_i == epf ? ep_res_wd_i : eres;
    wire           ll_n = iq ? q_lossless_wd_i : ll;
    assign ipf_o[s*PFW +: PFW] = we_i ? ipf_n : ipf;
    assign epf_o[s*PFW +: PFW] = we_i ? epf_n : epf;
    assign ipool_o[s*PLW +: PLW] = we_i ? ipool_n : ipool;
    assign epool_o[s*PLW +: PLW] = we_i ? epool_n : epool;
    assign ires_o[s*CW +: CW] = we_i ? ires_n : ires;
    assign eres_o[s*CW +: CW] = we_i ? eres_n : eres;
    assign ll_o[s] = we_i ? ll_n : ll;
  end
endmodule

`default_nettype wire
