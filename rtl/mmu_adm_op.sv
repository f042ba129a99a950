// One admission operation of the unit: a request's decision or a release's accounting,
// combinational, on a view of the state entries the operation names. It takes the
// configuration its queues name (looked up by mmu_admission: in the read stage with PIPE),
// looks up the run-time profile fields and selects among the policy modules present
// (POLICIES), each one behind the interface of mmu_adm_pol_if.svh. Adding a policy: its
// module (mmu_pol_NAME.sv, in rtl/sources.f) and one line in the list below.
//
// mmu_admission instantiates it once (an operation per cycle) or twice (DUAL_ISSUE: a
// release and a request per cycle, the request's view of its queues forwarded from the
// release's next state, of the pools, headroom pool and total the registers and the
// release's refund). The view is the counters of the operation's ingress queue (ii) and egress queue
// (ei), the pools and totals, n_p of its priority and its ingress port's dsh state; the
// outputs are those entries' next values, the verdict and the PFC events, all bit-exact
// with the golden core (hw-model/admission).
`include "mmu_adm_pol_if.svh"
`default_nettype none

module mmu_adm_op
#(
  parameter int NPORTS = 8,      // switch ports
  parameter int NPRIO = 8,       // priorities per port
  parameter int CW = 32,         // width of every cell counter
  parameter int NPOOLS = 4,      // buffer pools
  parameter int NPROF = 8,       // ingress and egress profile table entries, each
  parameter int EWMA_FRAC = 16,  // fraction bits of the reverie filter state
  parameter int CELLW = 16,      // width of a packet's cell count
  parameter logic [5:0] POLICIES = 6'b111111,  // policies present: bit i = CTRL.policy value i
  parameter bit REFUND = 1'b1,   // a same-cycle release's refund comes in (rf_*, rfp_*, rfm_*)
  parameter bit RF_PARTS = 1'b0, // the refund terms as ingress and egress parts (mmu_adm_pol_if.svh)
  localparam int NQ = NPORTS * NPRIO,
  localparam int PW = NPORTS > 1 ? $clog2(NPORTS) : 1,
  localparam int QW = NQ > 1 ? $clog2(NQ) : 1,
  localparam int AW = CW + EWMA_FRAC,
  localparam int PFW = NPROF > 1 ? $clog2(NPROF) : 1,
  localparam int PLW = NPOOLS > 1 ? $clog2(NPOOLS) : 1,
  localparam int HW = CW + QW,
  localparam int RFP = mmu_adm_pkg::RF_ADD,
  localparam int RFM = mmu_adm_pkg::RF_SUB
) (
  // Clock and reset for the invariant assertions (MMU_ASSERT) only: the datapath is
  // combinational.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire                 clk_i,
  input  wire                 rst_ni,
  /* verilator lint_on UNUSEDSIGNAL */
  // The operation: at most one of is_req_i, is_rel_i.
  input  wire                 is_req_i,
  input  wire                 is_rel_i,
  // PIPE 3: a request's tests, registered by the test stage, and a release's counts less
  // the view's (the same-cycle request's charge): mmu_adm_pol_if.svh. Else 0.
  input  wire                 t_on_i,
  input  wire [4:0]           t_i,
  input  wire [8*CW-1:0]      t_d_i,
  input  wire [2*CW-1:0]      t_x_i,
  input  wire [PW-1:0]        in_port_i,
  // The configuration the operation's queues name (looked up by mmu_admission): the
  // profiles of its ingress queue (PG) and egress queue, their pools and reserved cells,
  // whether the ingress queue is lossless.
  input  wire [PFW-1:0]       ipf_i,
  input  wire [PFW-1:0]       epf_i,
  input  wire                 ll_i,
  input  wire [PLW-1:0]       ipool_i,
  input  wire [PLW-1:0]       epool_i,
  input  wire [CW-1:0]        ires_i,
  input  wire [CW-1:0]        eres_i,
  input  wire [CELLW-1:0]     cells_i,
  // Configuration (mmu_adm_csr) and what the unit derives from it.
  input  wire [2:0]           policy_i,   // CTRL.policy
  input  wire                 cfg_ewma_rule_i,
  input  wire                 cfg_ewma_clamp_i,
  input  wire [4:0]           cfg_ewma_k_i,
  input  wire [CW-1:0]        cfg_buffer_i,
  input  wire [CW-1:0]        cfg_hdrm_pool_i,
  input  wire [CW-1:0]        cfg_congested_i,
  input  wire [CW-1:0]        cfg_dsh_port_xon_off_i,
  input  wire [NPOOLS*CW-1:0] cfg_pool_size_i,
  input  wire [NPROF-1:0]     tab_ip_dynamic_i,
  input  wire [NPROF*5-1:0]   tab_ip_shift_i,
  input  wire [NPROF*CW-1:0]  tab_ip_static_i,
  input  wire [NPROF*CW-1:0]  tab_ip_xoff_i,
  input  wire [NPROF*CW-1:0]  tab_ip_xon_i,
  input  wire [NPROF*CW-1:0]  tab_ip_xon_offset_i,
  input  wire [NPROF-1:0]     tab_ep_dynamic_i,
  input  wire [NPROF*5-1:0]   tab_ep_shift_i,
  input  wire [NPROF*CW-1:0]  tab_ep_static_i,
  input  wire [PLW-1:0]       rev_pool_i,  // reverie's one shared pool
  input  wire [NPORTS*4-1:0]  tab_dsh_nq_i,    // dsh: lossless priorities per port
  input  wire [NPORTS*NPROF-1:0] tab_dsh_pmask_i, // dsh: profiles of each port's lossless PGs
  input  wire [HW-1:0]        sih_hdrm_i,  // sih: sum of xoff over the lossless PGs
  // The threshold calculator's registered values (mmu_adm_thresh): every profile's
  // threshold.
  input  wire [NPROF*CW-1:0]  tab_ith_i,
  input  wire [NPROF*CW-1:0]  tab_eth_i,
  // View of the state the operation reads.
  input  wire [CW-1:0]        v_ing_i,
  input  wire [CW-1:0]        v_hdrm_i,
  input  wire                 v_paused_i,
  input  wire [AW-1:0]        v_avg_in_i,
  input  wire [CW-1:0]        v_egr_i,
  input  wire [AW-1:0]        v_avg_eg_i,
  // Dual issue's request: its filters before the same-cycle release's step and whether the
  // release stepped each (mmu_adm_pol_if.svh); elsewhere v_avg_* and 0. Reverie's only.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire [AW-1:0]        pre_avg_in_i,
  input  wire [AW-1:0]        pre_avg_eg_i,
  input  wire                 pre_step_in_i,
  input  wire                 pre_step_eg_i,
  input  wire [CW-1:0]        pre_ing_i,     // the request's counts before that release
  input  wire [CW-1:0]        pre_hdrm_i,
  input  wire [CW-1:0]        pre_egr_i,
  input  wire [CELLW-1:0]     pre_cells_i,   // that release's cells
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire [NPOOLS*CW-1:0] v_pool_used_i,
  input  wire [CW-1:0]        v_hdrm_used_i,
  input  wire [CW-1:0]        v_total_i,
  input  wire [QW:0]          v_ncong_i,
  input  wire                 v_port_paused_i,
  input  wire [CW-1:0]        v_port_shared_i,
  input  wire [CW-1:0]        v_port_ins_i,
  // The same-cycle release's refund of the pools, headroom pool and total (dual issue's
  // request datapath, its v_* the registers; else zero): the view is v - rf.
  input  wire [NPOOLS*CW-1:0] rf_pool_used_i,
  input  wire [CW-1:0]        rf_hdrm_used_i,
  input  wire [CW-1:0]        rf_total_i,
  // The same refund of each pool as terms (mmu_adm_pol_if.svh), zero where rf_* are.
  input  wire [NPOOLS*RFP*CW-1:0] rfp_pool_used_i,
  input  wire [NPOOLS*RFM*CW-1:0] rfm_pool_used_i,
  // abm's and reverie's quotients (mmu_adm_quot) and abm's drain ratios (mmu_adm_rate),
  // unread without them.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire [CW-1:0]        quot_in_i,
  input  wire [CW-1:0]        quot_eg_i,
  input  wire [8:0]           abm_ratio_in_i,
  input  wire [8:0]           abm_ratio_eg_i,
  /* verilator lint_on UNUSEDSIGNAL */
  // Decision.
  output logic [1:0]          verdict_o,
  output logic [1:0]          pfc_o,
  output logic [1:0]          port_pfc_o,
  output logic [2:0]          reason_o,
  output logic                underflow_o,   // a release of more cells than a counter holds
  // Next values of the viewed state (equal to the view when nothing changes).
  output logic [CW-1:0]       n_ing_o,
  output logic [CW-1:0]       n_hdrm_o,
  output logic                n_paused_o,
  output logic [AW-1:0]       n_avg_in_o,
  output logic [CW-1:0]       n_egr_o,
  output logic [AW-1:0]       n_avg_eg_o,
  output logic [NPOOLS*CW-1:0] n_pool_used_o,
  output logic [CW-1:0]       n_hdrm_used_o,
  output logic [CW-1:0]       n_total_o,
  output logic [QW:0]         n_ncong_o,
  output logic                n_port_paused_o,
  output logic [CW-1:0]       n_port_shared_o,
  output logic [CW-1:0]       n_port_ins_o,
  // A release's refund of the pools, headroom pool and total (zero for a request).
  output logic [NPOOLS*CW-1:0] rf_pool_used_o,
  output logic [CW-1:0]       rf_hdrm_used_o,
  output logic [CW-1:0]       rf_total_o,
  output logic [NPOOLS*RFP*CW-1:0] rfp_pool_used_o,
  output logic [NPOOLS*RFM*CW-1:0] rfm_pool_used_o
);


  // The operation's profile entries and per-port dsh values.
  wire [PFW-1:0] ipf = ipf_i;
  wire [PFW-1:0] epf = epf_i;
  wire [PLW-1:0] rpool_i = rev_pool_i;
  wire ip_dynamic_i = tab_ip_dynamic_i[ipf];
  wire [4:0] ip_shift_i = tab_ip_shift_i[ipf*5 +: 5];
  wire [CW-1:0] ip_static_i = tab_ip_static_i[ipf*CW +: CW];
  wire [CW-1:0] ip_xoff_i = tab_ip_xoff_i[ipf*CW +: CW];
  wire [CW-1:0] ip_xon_i = tab_ip_xon_i[ipf*CW +: CW];
  wire [CW-1:0] ip_xon_offset_i = tab_ip_xon_offset_i[ipf*CW +: CW];
  wire ep_dynamic_i = tab_ep_dynamic_i[epf];
  wire [4:0] ep_shift_i = tab_ep_shift_i[epf*5 +: 5];
  wire [CW-1:0] ep_static_i = tab_ep_static_i[epf*CW +: CW];
  wire [CW-1:0] ith_i = tab_ith_i[ipf*CW +: CW];
  wire [CW-1:0] eth_i = tab_eth_i[epf*CW +: CW];
  wire [3:0] dsh_nq_i = tab_dsh_nq_i[in_port_i*4 +: 4];
  // dsh's insurance headroom: the largest xoff among the port's lossless PGs' profiles (0
  // for none), a balanced tree over the profiles. PIPE 3 tests it in the test stage
  // instead (mmu_admission), and this is left unused.
  function automatic logic [CW-1:0] ins_of(input logic [NPROF-1:0] mask, input logic [NPROF*CW-1:0] xoff);
    logic [NPROF*CW-1:0] m;  // reduced in place
    for (int f = 0; f < NPROF; f++) m[f*CW +: CW] = mask[f] ? xoff[f*CW +: CW] : '0;
    for (int w = 1; w < NPROF; w = w * 2)
      for (int f = 0; f + w < NPROF; f = f + 2 * w)
        if (m[(f+w)*CW +: CW] > m[f*CW +: CW]) m[f*CW +: CW] = m[(f+w)*CW +: CW];
    ins_of = m[0 +: CW];
  endfunction
  wire [CW-1:0] dsh_ins_i = ins_of(tab_dsh_pmask_i[in_port_i*NPROF +: NPROF], tab_ip_xoff_i);

  // Every policy's decision and next state, policy k's at [k*W +: W].
  localparam int NPOL = 6;
  logic [NPOL*2-1:0] o_verdict, o_pfc, o_port_pfc;
  logic [NPOL*3-1:0] o_reason;
  logic [NPOL-1:0] o_underflow, o_paused, o_port_paused;
  logic [NPOL*CW-1:0] o_ing, o_hdrm, o_egr, o_hdrm_used, o_total, o_port_shared, o_port_ins;
  logic [NPOL*AW-1:0] o_avg_in, o_avg_eg;
  logic [NPOL*NPOOLS*CW-1:0] o_pool_used;
  logic [NPOL*(QW+1)-1:0] o_ncong;
  logic [NPOL*NPOOLS*CW-1:0] o_rf_pool_used;
  logic [NPOL*CW-1:0] o_rf_hdrm_used, o_rf_total;
  logic [NPOL*NPOOLS*RFP*CW-1:0] o_rfp_pool_used;
  logic [NPOL*NPOOLS*RFM*CW-1:0] o_rfm_pool_used;

  // The policies, one line each (index = CTRL.policy value, mmu_adm_pkg::POLICY_*).
  if (POLICIES[mmu_adm_pkg::POLICY_DT]) begin : g_dt mmu_pol_dt #(`MMU_POL_PARAM_MAP) u (`MMU_POL_INPUTS, `MMU_POL_OUTPUTS(mmu_adm_pkg::POLICY_DT)); end
  if (POLICIES[mmu_adm_pkg::POLICY_REVERIE]) begin : g_reverie mmu_pol_reverie #(`MMU_POL_PARAM_MAP) u (`MMU_POL_INPUTS, `MMU_POL_OUTPUTS(mmu_adm_pkg::POLICY_REVERIE)); end
  if (POLICIES[mmu_adm_pkg::POLICY_DSH]) begin : g_dsh mmu_pol_dsh #(`MMU_POL_PARAM_MAP) u (`MMU_POL_INPUTS, `MMU_POL_OUTPUTS(mmu_adm_pkg::POLICY_DSH)); end
  if (POLICIES[mmu_adm_pkg::POLICY_STATIC]) begin : g_static mmu_pol_static #(`MMU_POL_PARAM_MAP) u (`MMU_POL_INPUTS, `MMU_POL_OUTPUTS(mmu_adm_pkg::POLICY_STATIC)); end
  if (POLICIES[mmu_adm_pkg::POLICY_SIH]) begin : g_sih mmu_pol_sih #(`MMU_POL_PARAM_MAP) u (`MMU_POL_INPUTS, `MMU_POL_OUTPUTS(mmu_adm_pkg::POLICY_SIH)); end
  if (POLICIES[mmu_adm_pkg::POLICY_ABM]) begin : g_abm mmu_pol_abm #(`MMU_POL_PARAM_MAP) u (`MMU_POL_INPUTS, `MMU_POL_OUTPUTS(mmu_adm_pkg::POLICY_ABM)); end
  for (genvar k = 0; k < NPOL; k++) begin : g_absent
    if (!POLICIES[k]) begin : g_zero
      assign {o_verdict[k*2 +: 2], o_pfc[k*2 +: 2], o_port_pfc[k*2 +: 2], o_reason[k*3 +: 3]} = '0;
      assign {o_underflow[k], o_paused[k], o_port_paused[k]} = '0;
      assign {o_ing[k*CW +: CW], o_hdrm[k*CW +: CW], o_egr[k*CW +: CW], o_hdrm_used[k*CW +: CW]} = '0;
      assign {o_total[k*CW +: CW], o_port_shared[k*CW +: CW], o_port_ins[k*CW +: CW]} = '0;
      assign {o_avg_in[k*AW +: AW], o_avg_eg[k*AW +: AW], o_ncong[k*(QW+1) +: QW+1]} = '0;
      assign {o_pool_used[k*NPOOLS*CW +: NPOOLS*CW], o_rf_pool_used[k*NPOOLS*CW +: NPOOLS*CW]} = '0;
      assign {o_rf_hdrm_used[k*CW +: CW], o_rf_total[k*CW +: CW]} = '0;
      assign o_rfp_pool_used[k*NPOOLS*RFP*CW +: NPOOLS*RFP*CW] = '0;
      assign o_rfm_pool_used[k*NPOOLS*RFM*CW +: NPOOLS*RFM*CW] = '0;
    end
  end

  // The selected policy; a constant when the unit has one (its decode is synthesised away).
  localparam int ONLY = mmu_adm_pkg::only_policy(POLICIES);
  wire [2:0] sel = ONLY >= 0 ? 3'(ONLY) : (policy_i < 3'(NPOL) ? policy_i : 3'd0);

  assign verdict_o = o_verdict[sel*2 +: 2];
  assign pfc_o = o_pfc[sel*2 +: 2];
  assign port_pfc_o = o_port_pfc[sel*2 +: 2];
  assign reason_o = o_reason[sel*3 +: 3];
  assign underflow_o = o_underflow[sel];
  assign n_ing_o = o_ing[sel*CW +: CW];
  assign n_hdrm_o = o_hdrm[sel*CW +: CW];
  assign n_paused_o = o_paused[sel];
  assign n_avg_in_o = o_avg_in[sel*AW +: AW];
  assign n_egr_o = o_egr[sel*CW +: CW];
  assign n_avg_eg_o = o_avg_eg[sel*AW +: AW];
  assign n_pool_used_o = o_pool_used[sel*NPOOLS*CW +: NPOOLS*CW];
  assign n_hdrm_used_o = o_hdrm_used[sel*CW +: CW];
  assign n_total_o = o_total[sel*CW +: CW];
  assign n_ncong_o = o_ncong[sel*(QW+1) +: QW+1];
  assign n_port_paused_o = o_port_paused[sel];
  assign n_port_shared_o = o_port_shared[sel*CW +: CW];
  assign n_port_ins_o = o_port_ins[sel*CW +: CW];
  assign rf_pool_used_o = o_rf_pool_used[sel*NPOOLS*CW +: NPOOLS*CW];
  assign rf_hdrm_used_o = o_rf_hdrm_used[sel*CW +: CW];
  assign rf_total_o = o_rf_total[sel*CW +: CW];
  assign rfp_pool_used_o = o_rfp_pool_used[sel*NPOOLS*RFP*CW +: NPOOLS*RFP*CW];
  assign rfm_pool_used_o = o_rfm_pool_used[sel*NPOOLS*RFM*CW +: NPOOLS*RFM*CW];

`ifndef SYNTHESIS
`ifdef MMU_ASSERT
  // Invariants of one operation (verilator --assert).
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(is_req_i && is_rel_i)) else $error("two operations in one datapath");
      assert (!(pfc_o == mmu_adm_pkg::PFC_XOFF && !is_req_i)) else $error("XOFF outside an admission");
      // Pause only above threshold: every policy's threshold sits above the queue's reserved
      // cells, so an XOFF needs a lossless, unpaused queue pushed past its reserve.
      // (PIPE 3 tests a view that may hold a release of the cycle before: not v_ing_i.)
      assert (!(pfc_o == mmu_adm_pkg::PFC_XOFF) ||
              (ll_i && !v_paused_i && (t_on_i || 64'(v_ing_i) + 64'(cells_i) > 64'(ires_i))))
        else $error("XOFF for a queue that is paused, lossy or within its reserved cells");
      assert (!(pfc_o == mmu_adm_pkg::PFC_XON) || (is_rel_i && v_paused_i))
        else $error("XON for a queue that is not paused");
      assert (!(port_pfc_o == mmu_adm_pkg::PFC_XOFF) || (sel == mmu_adm_pkg::POLICY_DSH && is_req_i && !v_port_paused_i))
        else $error("port XOFF outside dsh or for a paused port");
      assert (!(port_pfc_o == mmu_adm_pkg::PFC_XON) || (sel == mmu_adm_pkg::POLICY_DSH && is_rel_i && v_port_paused_i))
        else $error("port XON for a port that is not paused");
    end
  end
`endif
`endif

endmodule

`default_nettype wire
