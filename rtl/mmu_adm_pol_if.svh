// The policy interface of the admission unit: every policy module (mmu_pol_*.sv) has these
// parameters and ports, and mmu_adm_op selects among them. In: one operation (a request or
// a release), the configuration it names (looked up by mmu_adm_op) and a view of the state
// entries it names; out: the decision and those entries' next values (equal to the view
// when nothing changes). Bit-exact with the policy classes of hw-model/admission/policies.
`ifndef MMU_ADM_POL_IF_SVH
`define MMU_ADM_POL_IF_SVH

`define MMU_POL_PARAMS \
  parameter int NPORTS = 8,      /* switch ports */ \
  parameter int NPRIO = 8,       /* priorities per port */ \
  parameter int CW = 32,         /* width of every cell counter */ \
  parameter int NPOOLS = 4,      /* buffer pools */ \
  parameter int EWMA_FRAC = 16,  /* fraction bits of the reverie filter state */ \
  parameter int CELLW = 16,      /* width of a packet's cell count */ \
  /* verilator lint_off UNUSEDPARAM */ \
  parameter bit REFUND = 1'b1,   /* rfp/rfm_pool_used_i may be non-zero (dual issue's request) */ \
  /* rfp/rfm_pool_used_o as each pool's ingress and egress refunds, rfm 0 (PIPE 3 registers */ \
  /* them), else as the operands the refunds are formed of (mmu_adm_sonic). */ \
  parameter bit RF_PARTS = 1'b0, \
  /* verilator lint_on UNUSEDPARAM */ \
  localparam int NQ = NPORTS * NPRIO, \
  localparam int QW = NQ > 1 ? $clog2(NQ) : 1, \
  localparam int AW = CW + EWMA_FRAC, \
  localparam int PLW = NPOOLS > 1 ? $clog2(NPOOLS) : 1, \
  localparam int HW = CW + QW,   /* a sum of CW-bit values over the NQ queues */ \
  localparam int RFP = mmu_adm_pkg::RF_ADD, /* a pool's refund as terms: RFP added, RFM subtracted */ \
  localparam int RFM = mmu_adm_pkg::RF_SUB

`define MMU_POL_PORTS \
  input  wire                  clk_i,     /* assertions only (MMU_ASSERT) */ \
  input  wire                  rst_ni, \
  input  wire                  is_req_i,  /* at most one of is_req_i, is_rel_i */ \
  input  wire                  is_rel_i, \
  /* PIPE 3 (mmu_admission's test stage): a request's five tests come registered, t_i = */ \
  /* {buffer, headroom pool, PG headroom, egress, ingress} (t_on_i; dsh's lossless PGs: */ \
  /* the port's insurance for the PG's headroom, the shared segment for ingress); a */ \
  /* release's counts are the view's plus the same-cycle request's charge, t_d_i = */ \
  /* {its cells less reserved modulo 2^CW, reserved cells, ing and cells (dsh: the terms */ \
  /* of its growth of the port's shared cells), port insurance, egr, hdrm, ing} (else 0). */ \
  input  wire                  t_on_i, \
  input  wire [4:0]            t_i, \
  input  wire [8*CW-1:0]       t_d_i, \
  /* PIPE 3 (t_on_i): dsh's {X_poff, X_qoff} of the operation's PG and port, registered by */ \
  /* the test stage from the thresholds it reads. */ \
  input  wire [2*CW-1:0]       t_x_i, \
  input  wire [CELLW-1:0]      cells_i, \
  /* The operation's configuration. */ \
  input  wire                  ll_i,      /* lossless (PFC) ingress queue */ \
  input  wire [PLW-1:0]        ipool_i,   /* pool of the ingress profile */ \
  input  wire [PLW-1:0]        epool_i,   /* pool of the egress profile */ \
  input  wire [PLW-1:0]        rpool_i,   /* reverie's one shared pool */ \
  input  wire                  ip_dynamic_i, \
  input  wire [4:0]            ip_shift_i, \
  input  wire [CW-1:0]         ires_i, \
  input  wire [CW-1:0]         ip_static_i, \
  input  wire [CW-1:0]         ip_xoff_i, \
  input  wire [CW-1:0]         ip_xon_i, \
  input  wire [CW-1:0]         ip_xon_offset_i, \
  input  wire                  ep_dynamic_i, \
  input  wire [4:0]            ep_shift_i, \
  input  wire [CW-1:0]         eres_i, \
  input  wire [CW-1:0]         ep_static_i, \
  input  wire [3:0]            dsh_nq_i,  /* dsh: lossless priorities of the ingress port */ \
  input  wire [CW-1:0]         dsh_ins_i, /* dsh: insurance headroom of the ingress port */ \
  input  wire [HW-1:0]         sih_hdrm_i, /* sih: sum of xoff over the lossless PGs */ \
  /* The threshold calculator's (mmu_adm_thresh): registered, not from the view. */ \
  input  wire [CW-1:0]         ith_i,     /* threshold of the ingress profile (not reverie's) */ \
  input  wire [CW-1:0]         eth_i,     /* threshold of the egress profile */ \
  input  wire                  cfg_ewma_rule_i, \
  input  wire                  cfg_ewma_clamp_i, \
  input  wire [4:0]            cfg_ewma_k_i, \
  input  wire [CW-1:0]         cfg_buffer_i, \
  input  wire [CW-1:0]         cfg_hdrm_pool_i, \
  input  wire [CW-1:0]         cfg_congested_i, \
  input  wire [CW-1:0]         cfg_dsh_port_xon_off_i, \
  input  wire [NPOOLS*CW-1:0]  cfg_pool_size_i, \
  /* View of the state the operation names. */ \
  input  wire [CW-1:0]         v_ing_i, \
  input  wire [CW-1:0]         v_hdrm_i, \
  input  wire                  v_paused_i, \
  input  wire [AW-1:0]         v_avg_in_i, \
  input  wire [CW-1:0]         v_egr_i, \
  input  wire [AW-1:0]         v_avg_eg_i, \
  /* Dual issue's request: its filters before the same-cycle release's step (v_avg_* are */ \
  /* after it) and whether that release stepped each (reverie: both steps in parallel). */ \
  /* Elsewhere v_avg_* and 0. */ \
  input  wire [AW-1:0]         pre_avg_in_i, \
  input  wire [AW-1:0]         pre_avg_eg_i, \
  input  wire                  pre_step_in_i, \
  input  wire                  pre_step_eg_i, \
  /* The request's counts before that release and the release's cells (reverie: the */ \
  /* filter's target q from registers). Elsewhere the view's counts (cells unread). */ \
  input  wire [CW-1:0]         pre_ing_i, \
  input  wire [CW-1:0]         pre_hdrm_i, \
  input  wire [CW-1:0]         pre_egr_i, \
  input  wire [CELLW-1:0]      pre_cells_i, \
  input  wire [NPOOLS*CW-1:0]  v_pool_used_i, \
  input  wire [CW-1:0]         v_hdrm_used_i, \
  input  wire [CW-1:0]         v_total_i, \
  input  wire [QW:0]           v_ncong_i, \
  input  wire                  v_port_paused_i, \
  input  wire [CW-1:0]         v_port_shared_i, \
  input  wire [CW-1:0]         v_port_ins_i, \
  /* Dual issue's request: the same-cycle release's refund of the pools, headroom pool, total. */ \
  /* Zero elsewhere. The view is v - rf, tested as v + charge against limit + rf. */ \
  input  wire [NPOOLS*CW-1:0]  rf_pool_used_i, \
  input  wire [CW-1:0]         rf_hdrm_used_i, \
  input  wire [CW-1:0]         rf_total_i, \
  /* The same refund of each pool p as terms, sum of rfp[p*RFP..] - sum of rfm[p*RFM..], */ \
  /* ready before their sum: mmu_adm_sonic adds them into its tests ("The decide stage"). */ \
  input  wire [NPOOLS*RFP*CW-1:0] rfp_pool_used_i, \
  input  wire [NPOOLS*RFM*CW-1:0] rfm_pool_used_i, \
  /* abm's and reverie's quotients alpha th / n_p of each side's profile, registered */ \
  /* (mmu_adm_quot: abm's over the calculator's entry, reverie's Gamma over its room), */ \
  /* and abm's drain ratios in 1/256ths (mmu_adm_rate). */ \
  input  wire [CW-1:0]         quot_in_i, \
  input  wire [CW-1:0]         quot_eg_i, \
  input  wire [8:0]            abm_ratio_in_i, \
  input  wire [8:0]            abm_ratio_eg_i, \
  /* Decision. */ \
  output logic [1:0]           verdict_o, \
  output logic [1:0]           pfc_o, \
  output logic [1:0]           port_pfc_o, \
  output logic [2:0]           reason_o, \
  output logic                 underflow_o, /* a release of more cells than a counter holds */ \
  /* Next values of the viewed state. */ \
  output logic [CW-1:0]        n_ing_o, \
  output logic [CW-1:0]        n_hdrm_o, \
  output logic                 n_paused_o, \
  output logic [AW-1:0]        n_avg_in_o, \
  output logic [CW-1:0]        n_egr_o, \
  output logic [AW-1:0]        n_avg_eg_o, \
  output logic [NPOOLS*CW-1:0] n_pool_used_o, \
  output logic [CW-1:0]        n_hdrm_used_o, \
  output logic [CW-1:0]        n_total_o, \
  output logic [QW:0]          n_ncong_o, \
  output logic                 n_port_paused_o, \
  output logic [CW-1:0]        n_port_shared_o, \
  output logic [CW-1:0]        n_port_ins_o, \
  /* A release's refund of the pools, headroom pool and total (zero for a request). */ \
  output logic [NPOOLS*CW-1:0] rf_pool_used_o, \
  output logic [CW-1:0]        rf_hdrm_used_o, \
  output logic [CW-1:0]        rf_total_o, \
  output logic [NPOOLS*RFP*CW-1:0] rfp_pool_used_o, \
  output logic [NPOOLS*RFM*CW-1:0] rfm_pool_used_o

// Parameter and input connections of a policy instance, by name.
`define MMU_POL_PARAM_MAP .NPORTS(NPORTS), .NPRIO(NPRIO), .CW(CW), .NPOOLS(NPOOLS), .EWMA_FRAC(EWMA_FRAC), .CELLW(CELLW), \
  .REFUND(REFUND), .RF_PARTS(RF_PARTS)
`define MMU_POL_INPUTS `MMU_POL_INPUTS_BUT_TH, .ith_i, .eth_i
// All but the thresholds, for a policy that hands the SONiC module thresholds of its own.
`define MMU_POL_INPUTS_BUT_TH \
  .clk_i, .rst_ni, .is_req_i, .is_rel_i, .t_on_i, .t_i, .t_d_i, .t_x_i, .cells_i, .ll_i, .ipool_i, .epool_i, .rpool_i, \
  .ip_dynamic_i, .ip_shift_i, .ires_i, .ip_static_i, .ip_xoff_i, .ip_xon_i, .ip_xon_offset_i, \
  .ep_dynamic_i, .ep_shift_i, .eres_i, .ep_static_i, .dsh_nq_i, .dsh_ins_i, .sih_hdrm_i, \
  .cfg_ewma_rule_i, .cfg_ewma_clamp_i, .cfg_ewma_k_i, .cfg_buffer_i, .cfg_hdrm_pool_i, .cfg_congested_i, \
  .cfg_dsh_port_xon_off_i, .cfg_pool_size_i, \
  .v_ing_i, .v_hdrm_i, .v_paused_i, .v_avg_in_i, .v_egr_i, .v_avg_eg_i, .v_pool_used_i, .v_hdrm_used_i, \
  .pre_avg_in_i, .pre_avg_eg_i, .pre_step_in_i, .pre_step_eg_i, .pre_ing_i, .pre_hdrm_i, .pre_egr_i, .pre_cells_i, \
  .v_total_i, .v_ncong_i, .v_port_paused_i, .v_port_shared_i, .v_port_ins_i, \
  .rf_pool_used_i, .rf_hdrm_used_i, .rf_total_i, .rfp_pool_used_i, .rfm_pool_used_i, \
  .quot_in_i, .quot_eg_i, .abm_ratio_in_i, .abm_ratio_eg_i
// Output connections of policy k (a genvar) to the flat per-policy buses of mmu_adm_op.
`define MMU_POL_OUTPUTS(k) \
  .verdict_o(o_verdict[k*2 +: 2]), .pfc_o(o_pfc[k*2 +: 2]), .port_pfc_o(o_port_pfc[k*2 +: 2]), \
  .reason_o(o_reason[k*3 +: 3]), .underflow_o(o_underflow[k]), .n_ing_o(o_ing[k*CW +: CW]), \
  .n_hdrm_o(o_hdrm[k*CW +: CW]), .n_paused_o(o_paused[k]), .n_avg_in_o(o_avg_in[k*AW +: AW]), \
  .n_egr_o(o_egr[k*CW +: CW]), .n_avg_eg_o(o_avg_eg[k*AW +: AW]), \
  .n_pool_used_o(o_pool_used[k*NPOOLS*CW +: NPOOLS*CW]), .n_hdrm_used_o(o_hdrm_used[k*CW +: CW]), \
  .n_total_o(o_total[k*CW +: CW]), .n_ncong_o(o_ncong[k*(QW+1) +: QW+1]), .n_port_paused_o(o_port_paused[k]), \
  .n_port_shared_o(o_port_shared[k*CW +: CW]), .n_port_ins_o(o_port_ins[k*CW +: CW]), \
  .rf_pool_used_o(o_rf_pool_used[k*NPOOLS*CW +: NPOOLS*CW]), .rf_hdrm_used_o(o_rf_hdrm_used[k*CW +: CW]), \
  .rf_total_o(o_rf_total[k*CW +: CW]), .rfp_pool_used_o(o_rfp_pool_used[k*NPOOLS*RFP*CW +: NPOOLS*RFP*CW]), \
  .rfm_pool_used_o(o_rfm_pool_used[k*NPOOLS*RFM*CW +: NPOOLS*RFM*CW])
// A policy built on mmu_adm_sonic hands it its outputs, by name.
`define MMU_POL_SONIC_OUTPUTS \
  .verdict_o, .pfc_o, .port_pfc_o, .reason_o, .underflow_o, .n_ing_o, .n_hdrm_o, .n_paused_o, .n_avg_in_o, \
  .n_egr_o, .n_avg_eg_o, .n_pool_used_o, .n_hdrm_used_o, .n_total_o, .n_ncong_o, .n_port_paused_o, \
  .n_port_shared_o, .n_port_ins_o, .rf_pool_used_o, .rf_hdrm_used_o, .rf_total_o, .rfp_pool_used_o, .rfm_pool_used_o

// A policy's decision and next state as variables of its own, driving the outputs: a block
// that reads back what it wrote reads these, not its output ports (Icarus 11 makes a block
// reading an output port connected to part of a wider vector sensitive to all of it, and
// the policies' blocks then wake each other without end).
`define MMU_POL_NEXT_BUT_TERMS \
  logic [1:0] verdict, pfc, port_pfc; \
  logic [2:0] reason; \
  logic underflow, n_paused, n_port_paused; \
  logic [CW-1:0] n_ing, n_hdrm, n_egr, n_hdrm_used, n_total, n_port_shared, n_port_ins; \
  logic [AW-1:0] n_avg_in, n_avg_eg; \
  logic [NPOOLS*CW-1:0] n_pool_used; \
  logic [QW:0] n_ncong; \
  logic [NPOOLS*CW-1:0] rf_pool_used; \
  logic [CW-1:0] rf_hdrm_used, rf_total; \
  assign {verdict_o, pfc_o, port_pfc_o, reason_o, underflow_o, n_paused_o, n_port_paused_o} = \
         {verdict, pfc, port_pfc, reason, underflow, n_paused, n_port_paused}; \
  assign {n_ing_o, n_hdrm_o, n_egr_o, n_hdrm_used_o, n_total_o, n_port_shared_o, n_port_ins_o} = \
         {n_ing, n_hdrm, n_egr, n_hdrm_used, n_total, n_port_shared, n_port_ins}; \
  assign {n_avg_in_o, n_avg_eg_o, n_pool_used_o, n_ncong_o} = {n_avg_in, n_avg_eg, n_pool_used, n_ncong}; \
  assign {rf_pool_used_o, rf_hdrm_used_o, rf_total_o} = {rf_pool_used, rf_hdrm_used, rf_total};
// A policy that forms its refund as one value gives it as the one term of each pool.
`define MMU_POL_NEXT \
  `MMU_POL_NEXT_BUT_TERMS \
  for (genvar p_ = 0; p_ < NPOOLS; p_++) begin : g_rf_terms \
    assign rfp_pool_used_o[p_*RFP*CW +: RFP*CW] = (RFP*CW)'(rf_pool_used[p_*CW +: CW]); \
  end \
  assign rfm_pool_used_o = '0;

`endif
