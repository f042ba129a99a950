// Admission unit of the shared-buffer MMU: SONiC counters, dt/reverie/dsh/static/sih/abm
// thresholds, PFC state.
//
// A release (departure) and an admission request per cycle (DUAL_ISSUE; else one of them,
// the release first), the request deciding on the state the release leaves. A request's
// verdict appears on rsp_* 1 + PIPE cycles after it is accepted; a release's XON events
// on rel_rsp_* likewise. Configuration through the CSR port
// (rtl/regmap.json); counters, filter state and pause states are the golden core's
// (hw-model/admission), bit for bit.
`default_nettype none

`ifdef __ICARUS__
`define MMU_PARAM_CHECK(bad, msg) initial if (bad) $fatal(1, msg);
`else
`define MMU_PARAM_CHECK(bad, msg) if (bad) begin $error(msg); end
`endif

module mmu_admission
#(
  parameter int NPORTS = 8,      // switch ports
  parameter int NPRIO = 8,       // priorities (PGs, egress queues) per port
  parameter int CW = 32,         // width of every cell counter
  parameter int NPOOLS = 4,      // buffer pools
  parameter int NPROF = 8,       // ingress and egress profile table entries, each
  parameter int EWMA_FRAC = 16,  // fraction bits of the reverie filter state
  parameter int CELLW = 16,      // width of a packet's cell count
  // Policies in the netlist, a mask of 1 << POLICY_* (the CTRL.policy values): bit 0 dt,
  // 1 reverie, 2 dsh, 3 static, 4 sih, 5 abm. A policy left out is refused by the CSR and
  // its logic and state are constant, so synthesis removes them (scripts/ppa measures each
  // policy's cost this way).
  parameter logic [5:0] POLICIES = 6'b111111,
  // 1: a release and a request are taken in the same cycle (two datapaths, the request's
  // view forwarded from the release's next state); 0: one operation per cycle, a request
  // waiting while a release is offered (the two datapaths on one view, the release's
  // selected behind them: smaller, shorter path).
  parameter int DUAL_ISSUE = 1,
  // 1: a two-stage request path (read, then decide and write, with the entries the
  // decide stage writes forwarded into the read stage's view): responses two cycles after
  // acceptance, the same verdicts and states as 0 a cycle later; 0: read, decide and write
  // in the cycle of acceptance (response latency 1); 3: look-up, memory, test and decide
  // stages (response latency 4), the request's tests registered by the test stage for
  // each outcome of the request before it, the decide stage selecting ("PIPE 3" below;
  // dual issue, dt, static, sih and dsh only).
  parameter int PIPE = 0,
  // Read lanes of the debug/state port: a simulation's lockstep reads every word an
  // operation touches in the same evaluation (hw-model/cosim/rtl_unit.h). 0: no port (one
  // lane's pins, reading zero), for an area figure without it (docs/ppa.md).
  parameter int DBG_LANES = 1,
  localparam int DBGW = DBG_LANES > 0 ? DBG_LANES : 1,
  localparam int NQ = NPORTS * NPRIO,
  localparam int PW = NPORTS > 1 ? $clog2(NPORTS) : 1,
  localparam int QW = NQ > 1 ? $clog2(NQ) : 1,
  localparam int AW = CW + EWMA_FRAC
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  // Cycle count of this cycle's operations (the MMU's timestamp; abm takes its interval
  // number from it, mmu_adm_rate).
  input  wire [31:0]       now_i,
  // CSR port: one access per cycle, read data one cycle later.
  input  wire              cfg_valid_i,
  output wire              cfg_ready_o,
  input  wire              cfg_write_i,
  input  wire [11:0]       cfg_addr_i,
  input  wire [31:0]       cfg_wdata_i,
  output logic             cfg_rvalid_o,
  output logic [31:0]      cfg_rdata_o,
  output logic             cfg_error_o,   // last access hit no register or a read-only one
  // Admission requests.
  input  wire              req_valid_i,
  output wire              req_ready_o,
  input  wire [PW-1:0]     req_in_port_i,
  input  wire [PW-1:0]     req_out_port_i,
  input  wire [2:0]        req_prio_i,      // ingress priority (PG)
  input  wire [2:0]        req_queue_i,     // egress queue (tc_to_queue_map; the PG when they agree)
  input  wire [CELLW-1:0]  req_cells_i,
  output logic             rsp_valid_o,
  output logic [1:0]       rsp_verdict_o,
  output logic [1:0]       rsp_pfc_o,
  output logic [1:0]       rsp_port_pfc_o,
  output logic [2:0]       rsp_reason_o,
  // Releases: a packet admitted with these ports, priority and cells left the buffer.
  input  wire              rel_valid_i,
  output wire              rel_ready_o,
  input  wire [PW-1:0]     rel_in_port_i,
  input  wire [PW-1:0]     rel_out_port_i,
  input  wire [2:0]        rel_prio_i,
  input  wire [2:0]        rel_queue_i,
  input  wire [CELLW-1:0]  rel_cells_i,
  output logic             rel_rsp_valid_o,
  output logic [1:0]       rel_rsp_pfc_o,
  output logic [1:0]       rel_rsp_port_pfc_o,
  // Statistics.
  output logic [CW-1:0]    stat_total_o,
  output logic [CW-1:0]    stat_hdrm_pool_o,
  output logic             stat_underflow_o, // sticky: a release exceeded a counter
  // Debug/state read port: lane l reads the architectural state word at
  // dbg_addr_i[16l +: 16] (the state map, "Debug/state read port" below) to
  // dbg_data_o[64l +: 64], combinationally.
  input  wire [16*DBGW-1:0] dbg_addr_i,
  output logic [64*DBGW-1:0] dbg_data_o
);

  // ---------------------------------------------------------------------------------
  // Parameter checks at elaboration.
  // ---------------------------------------------------------------------------------
  // Icarus 11 has no elaboration-time $error; it fails at time 0 instead.
  `MMU_PARAM_CHECK(NPORTS < 1 || NPORTS > 64, "NPORTS must be 1..64")
  `MMU_PARAM_CHECK(NPRIO < 1 || NPRIO > 8, "NPRIO must be 1..8")
  `MMU_PARAM_CHECK(CW < 8 || CW > 32, "CW must be 8..32")
  `MMU_PARAM_CHECK(NPOOLS < 1 || NPOOLS > 16, "NPOOLS must be 1..16")
  `MMU_PARAM_CHECK(NPROF < 1 || NPROF > 16, "NPROF must be 1..16")
  `MMU_PARAM_CHECK(EWMA_FRAC < 0 || EWMA_FRAC > 16, "EWMA_FRAC must be 0..16")
  `MMU_PARAM_CHECK(CELLW < 1 || CELLW > 16, "CELLW must be 1..16")
  `MMU_PARAM_CHECK(POLICIES == 6'b000000, "POLICIES must name at least one policy")
  `MMU_PARAM_CHECK(DUAL_ISSUE < 0 || DUAL_ISSUE > 1, "DUAL_ISSUE must be 0 or 1")
  `MMU_PARAM_CHECK(PIPE != 0 && PIPE != 1 && PIPE != 3, "PIPE must be 0, 1 or 3")
  `MMU_PARAM_CHECK(PIPE == 3 && DUAL_ISSUE != 1, "PIPE 3 needs DUAL_ISSUE 1")
  `MMU_PARAM_CHECK(PIPE == 3 && (POLICIES & 6'b100010) != 0, "PIPE 3 has dt, static, sih and dsh only (POLICIES)")
  `MMU_PARAM_CHECK(DBG_LANES < 0 || DBG_LANES > 32, "DBG_LANES must be 0..32")

  localparam int PLW = NPOOLS > 1 ? $clog2(NPOOLS) : 1; // pool index bits

  // ---------------------------------------------------------------------------------
  // Configuration registers.
  // ---------------------------------------------------------------------------------
  logic [2:0]           cfg_policy;      // decoded by mmu_adm_op (a constant with one policy)
  /* verilator lint_off UNUSEDSIGNAL */
  logic                 cfg_policy_set;  // a CSR write changes the policy this cycle (read with reverie)
  /* verilator lint_on UNUSEDSIGNAL */
  logic                 cfg_ewma_rule;   // 0: update on dequeue, 1: on enqueue and dequeue
  logic                 cfg_ewma_clamp;
  logic [4:0]           cfg_ewma_k;
  logic [CW-1:0]        cfg_buffer;
  logic [CW-1:0]        cfg_hdrm_pool;
  logic [CW-1:0]        cfg_congested;
  logic [CW-1:0]        cfg_dsh_port_xon_off;
  logic [7:0]           cfg_thresh_period;
  logic [4:0]           cfg_abm_interval;  // abm: interval of 2^cfg_abm_interval cycles
  logic [NPORTS*CW-1:0] cfg_abm_cap;       // abm: cells per interval of each port
  // Tables as flat vectors, entry k at [k*W +: W] (see mmu_adm_csr).
  logic [NPOOLS*CW-1:0] cfg_pool_size;
  logic [NPROF*4-1:0]   ip_pool;
  logic [NPROF-1:0]     ip_dynamic;
  logic [NPROF*5-1:0]   ip_shift;
  logic [NPROF*CW-1:0]  ip_static, ip_xoff, ip_xon, ip_xon_offset;
  logic [NPROF*4-1:0]   ep_pool;
  logic [NPROF-1:0]     ep_dynamic;
  logic [NPROF*5-1:0]   ep_shift;
  logic [NPROF*CW-1:0]  ep_static;
  // Read by the operations' look-up with PIPE 0 only (PIPE 1 reads their next values).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NPROF*CW-1:0]  ip_reserved, ep_reserved;
  logic [NQ*5-1:0]      q_pg_prof, q_queue_prof;
  logic [NQ-1:0]        q_lossless;
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------------
  // State: the counter bank (hw-model/admission/counters.h) and policy state.
  // ---------------------------------------------------------------------------------
  // Per-queue and per-port entries are memories (unpacked arrays) with one write per
  // operation slot, so a simulator touches only the entries an operation addresses. An
  // entry reads zero until written after reset or a policy change (its valid bit), so
  // reset clears bit vectors only, as for a register file without reset. yosys keeps
  // them as registers (mem2reg), named entry by entry (scripts/ppa).
  (* mem2reg *) logic [CW-1:0] ing_q [0:NQ-1];      // ingress (port, PG) cells outside headroom
  (* mem2reg *) logic [CW-1:0] hdrm_q [0:NQ-1];     // ingress (port, PG) cells in headroom
  (* mem2reg *) logic [CW-1:0] egr_q [0:NQ-1];      // egress (port, queue) cells
  // Policy state, never written when its policy is left out (POLICIES).
  /* verilator lint_off UNDRIVEN */
  (* mem2reg *) logic [CW-1:0] port_shared [0:NPORTS-1];  // dsh: lossless shared cells per port
  (* mem2reg *) logic [CW-1:0] port_ins [0:NPORTS-1];     // dsh: insurance headroom cells per port
  /* verilator lint_on UNDRIVEN */
  logic [NQ-1:0]        ing_valid, egr_valid;
  // reverie's filters, ingress (lossless) and egress (lossy) queues: mmu_adm_qmem (below).
  logic [NPORTS-1:0]    port_valid;
  logic [NQ-1:0]        paused_q;     // queue-level XOFF
  // PIPE 3: the release's write of its queue's pause bit, pending a cycle (a register in
  // front of the NQ bits, so that the XON test does not also drive their fan-out); every
  // reader of paused_q takes it over the array.
  logic                 pw_we, pw_bit;
  logic [QW-1:0]        pw_ii;
  logic [NPORTS-1:0]    port_paused;  // dsh port-level XOFF
  logic [NPOOLS*CW-1:0] pool_used;
  logic [CW-1:0]        hdrm_used;
  logic [CW-1:0]        total_used;
  logic [8*(QW+1)-1:0]  ncong;        // reverie n_p: congested queues per priority
  // PIPE 3: the release's refund of the pools, headroom pool and total, registered and
  // taken off a cycle later (so that a request's charge does not wait for the release's
  // compares; zero otherwise); each pool's as its ingress and egress parts (RFP terms, so
  // that no adder of the two stands in front of the registers). pool_now, hdrm_now and
  // total_now are the counters as every operation decided so far leaves them: what the
  // statistics, the quiesce rule and the debug port read (the calculator adds the terms
  // into its own sum).
  localparam int RFP = mmu_adm_pkg::RF_ADD, RFM = mmu_adm_pkg::RF_SUB;  // the refund's terms per pool
  logic [NPOOLS*RFP*CW-1:0] rfq_pool;
  logic [CW-1:0]        rfq_h, rfq_t;
  wire [NPOOLS*CW-1:0]  pool_now;
  wire [CW-1:0]         hdrm_now = hdrm_used - rfq_h;
  wire [CW-1:0]         total_now = total_used - rfq_t;
  for (genvar p = 0; p < NPOOLS; p++) begin : g_pool_now
    assign pool_now[p*CW +: CW] = pool_used[p*CW +: CW] - rfq_pool[p*RFP*CW +: CW] - rfq_pool[p*RFP*CW + CW +: CW];
  end

  // ---------------------------------------------------------------------------------
  // Operations: slot a is the release, slot b the request; the request sees the state the
  // release leaves, the order in which the golden core is told.
  //
  // Pipeline (PIPE = 1): an operation is read in the cycle it is taken (stage 1: queue
  // indices, the memory entries it names) and decided in the next (stage 2: the policy
  // datapaths on the registered view, the pools, totals, n_p, thresholds and the
  // configuration of that cycle; the writes at its end). An entry the operation in stage 2
  // writes in the same cycle is forwarded from its next value into the view, so every
  // operation decides on the state its predecessors leave: the verdicts and states are
  // those of PIPE = 0 one cycle later (response latency 2), with one request and one
  // release taken every cycle, the same queue in consecutive cycles included.
  // ---------------------------------------------------------------------------------
  assign rel_ready_o = 1'b1;
  assign req_ready_o = DUAL_ISSUE != 0 || !rel_valid_i;

  // Stage 1: the operations as offered. Queue indices: ingress port * NPRIO + PG, egress
  // port * NPRIO + egress queue.
  wire          i_a_valid = rel_valid_i;
  wire          i_b_valid = req_valid_i && req_ready_o;
  wire [QW-1:0] i_a_ii = QW'(rel_in_port_i) * QW'(NPRIO) + QW'(rel_prio_i);
  wire [QW-1:0] i_a_ei = QW'(rel_out_port_i) * QW'(NPRIO) + QW'(rel_queue_i);
  wire [QW-1:0] i_b_ii = QW'(req_in_port_i) * QW'(NPRIO) + QW'(req_prio_i);
  wire [QW-1:0] i_b_ei = QW'(req_out_port_i) * QW'(NPRIO) + QW'(req_queue_i);

  // The configuration each slot's operation names, looked up by queue index (below): its
  // ingress and egress profiles, their pools and reserved cells, the lossless bit.
  localparam int PFW = NPROF > 1 ? $clog2(NPROF) : 1;
  logic [PFW-1:0] a_ipf, a_epf;
  logic [PLW-1:0] a_ipool, a_epool;
  logic [CW-1:0]  a_ires, a_eres;
  logic           a_ll, b_ll;
  /* verilator lint_off UNUSEDSIGNAL */ // slot b's: dual issue only
  logic [PFW-1:0] b_ipf, b_epf;
  logic [PLW-1:0] b_ipool, b_epool;
  logic [CW-1:0]  b_ires, b_eres;
  /* verilator lint_on UNUSEDSIGNAL */

  // Stage 2: the operations being decided (stage 1's of the cycle before, or with PIPE 0
  // the same).
  logic             a_valid, b_valid;
  logic [QW-1:0]    a_ii, a_ei, b_ii, b_ei;
  logic [PW-1:0]    a_in, a_out, b_in, b_out;
  logic [2:0]       a_prio, a_queue, b_prio, b_queue;
  logic [CELLW-1:0] a_cells, b_cells;
  logic [31:0]      d_now;  // the cycle count the operations were taken with (abm's interval)
  // PIPE 3: the operations of the look-up stage (l_*, taken the cycle before) and of the
  // memory stage (m_*), the test stage's being the decide stage's inputs (s_*); PIPE 1:
  // stage 1's as offered.
  localparam bit P3 = PIPE == 3;
  localparam int OPW = 2*QW + 2*PW + 6 + CELLW;  // an operation's fields
  /* verilator lint_off UNUSEDSIGNAL */ // PIPE 0 reads none, PIPE 1 the memory stage's (stage 1's)
  logic           l_a_valid, l_b_valid, m_a_valid, m_b_valid;
  logic [OPW-1:0] l_a_op, l_b_op, m_a_op, m_b_op;
  /* verilator lint_on UNUSEDSIGNAL */
  wire [OPW-1:0]  i_a_op = {i_a_ii, i_a_ei, rel_in_port_i, rel_out_port_i, rel_prio_i, rel_queue_i, rel_cells_i};
  wire [OPW-1:0]  i_b_op = {i_b_ii, i_b_ei, req_in_port_i, req_out_port_i, req_prio_i, req_queue_i, req_cells_i};
  /* verilator lint_off UNUSEDSIGNAL */ // the fields the stages read (PIPE 3 only)
  wire [QW-1:0]   l_a_ii = l_a_op[OPW-1 -: QW], l_b_ii = l_b_op[OPW-1 -: QW];
  wire [QW-1:0]   l_a_ei = l_a_op[OPW-QW-1 -: QW], l_b_ei = l_b_op[OPW-QW-1 -: QW];
  wire [PW-1:0]   l_a_in = l_a_op[OPW-2*QW-1 -: PW], l_b_in = l_b_op[OPW-2*QW-1 -: PW];
  wire [PW-1:0]   m_a_in = m_a_op[OPW-2*QW-1 -: PW], m_b_in = m_b_op[OPW-2*QW-1 -: PW];
  wire [QW-1:0]   m_a_ii = m_a_op[OPW-1 -: QW], m_b_ii = m_b_op[OPW-1 -: QW];
  wire [QW-1:0]   m_a_ei = m_a_op[OPW-QW-1 -: QW], m_b_ei = m_b_op[OPW-QW-1 -: QW];
  wire [CELLW-1:0] m_b_cells = m_b_op[CELLW-1:0];
  /* verilator lint_on UNUSEDSIGNAL */
  if (P3) begin : g_front
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) {l_a_valid, l_b_valid, m_a_valid, m_b_valid} <= '0;
      else {l_a_valid, l_b_valid, m_a_valid, m_b_valid} <= {i_a_valid, i_b_valid, l_a_valid, l_b_valid};
    end
    always_ff @(posedge clk_i) {l_a_op, l_b_op, m_a_op, m_b_op} <= {i_a_op, i_b_op, l_a_op, l_b_op};
  end else begin : g_no_front
    assign {l_a_valid, l_b_valid, m_a_valid, m_b_valid} = {i_a_valid, i_b_valid, i_a_valid, i_b_valid};
    assign {l_a_op, l_b_op, m_a_op, m_b_op} = {i_a_op, i_b_op, i_a_op, i_b_op};
  end
  if (PIPE != 0) begin : g_pipe_op
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) {a_valid, b_valid} <= '0;
      else {a_valid, b_valid} <= {m_a_valid, m_b_valid};
    end
    always_ff @(posedge clk_i) begin
      {a_ii, a_ei, a_in, a_out, a_prio, a_queue, a_cells} <= m_a_op;
      {b_ii, b_ei, b_in, b_out, b_prio, b_queue, b_cells} <= m_b_op;
      d_now <= now_i;  // abm's: PIPE 1 only
    end
  end else begin : g_comb_op
    assign {a_valid, b_valid} = {i_a_valid, i_b_valid};
    assign {a_ii, a_ei, a_in, a_out, a_prio, a_queue, a_cells} =
        {i_a_ii, i_a_ei, rel_in_port_i, rel_out_port_i, rel_prio_i, rel_queue_i, rel_cells_i};
    assign {b_ii, b_ei, b_in, b_out, b_prio, b_queue, b_cells} =
        {i_b_ii, i_b_ei, req_in_port_i, req_out_port_i, req_prio_i, req_queue_i, req_cells_i};
    assign d_now = now_i;
  end
  // reverie's n_p counts the queue a packet is accounted in: the PG if lossless, else the
  // egress queue.
  wire [2:0] a_np = a_ll ? a_prio : a_queue;
  wire [2:0] b_np = (DUAL_ISSUE != 0 ? b_ll : a_ll) ? b_prio : b_queue;

  // The view each slot decides on: the entries its queues and ingress port name, port a
  // the release's (single issue: the one operation's), port b the request's (dual issue
  // only). An entry reads zero until written after reset (the filters: or a policy change).
  /* verilator lint_off UNUSEDSIGNAL */ // port b: dual issue only; policy state: its policy only
  logic [CW-1:0] va_ing, va_hdrm, va_egr, va_port_shared, va_port_ins;
  logic [CW-1:0] vb_ing, vb_hdrm, vb_egr, vb_port_shared, vb_port_ins;
  logic [AW-1:0] va_avg_in, va_avg_eg, vb_avg_in, vb_avg_eg;
  logic          va_paused, vb_paused, va_port_paused, vb_port_paused;
  /* verilator lint_on UNUSEDSIGNAL */
  // The read indices: the memory stage's operations (PIPE 3: the look-up stage's registers),
  // stage 1's (PIPE 1) or stage 2's (PIPE 0).
  wire          r_a_first = DUAL_ISSUE != 0 || (PIPE != 0 ? rel_valid_i : a_valid);
  wire [QW-1:0] r_a_ii = P3 ? l_a_ii : PIPE != 0 ? (r_a_first ? i_a_ii : i_b_ii) : (r_a_first ? a_ii : b_ii);
  wire [QW-1:0] r_a_ei = P3 ? l_a_ei : PIPE != 0 ? (r_a_first ? i_a_ei : i_b_ei) : (r_a_first ? a_ei : b_ei);
  wire [PW-1:0] r_a_port = P3 ? l_a_in : PIPE != 0 ? (r_a_first ? rel_in_port_i : req_in_port_i) :
                           (r_a_first ? a_in : b_in);
  wire [QW-1:0] r_b_ii = P3 ? l_b_ii : PIPE != 0 ? i_b_ii : b_ii;
  wire [QW-1:0] r_b_ei = P3 ? l_b_ei : PIPE != 0 ? i_b_ei : b_ei;
  wire [PW-1:0] r_b_port = P3 ? l_b_in : PIPE != 0 ? req_in_port_i : b_in;
  // Each slot's profiles in the stored queue map: the look-up's with PIPE 0, and what abm's
  // quotients read under both PIPE values (with PIPE 1 not the look-up's, whose write
  // substitution is selected by the register block's accepted write, late in the cycle: an
  // operation taken in the cycle of a QMAP write to its queue takes the old profile's
  // quotient, as the threshold registers; the golden core takes none there).
  wire [PFW-1:0] st_a_ipf = q_pg_prof[r_a_ii*5 +: PFW], st_a_epf = q_queue_prof[r_a_ei*5 +: PFW];
  wire [PFW-1:0] st_b_ipf = q_pg_prof[r_b_ii*5 +: PFW], st_b_epf = q_queue_prof[r_b_ei*5 +: PFW];
  // The single-issue request's are slot a's (r_a names it when no release is offered).
  wire [PFW-1:0] q_b_ipf = DUAL_ISSUE != 0 ? st_b_ipf : st_a_ipf;
  wire [PFW-1:0] q_b_epf = DUAL_ISSUE != 0 ? st_b_epf : st_a_epf;
  // Likewise the lossless bit, which side reverie's one quotient per slot divides on.
  wire st_a_ll = q_lossless[r_a_ii];
  wire q_b_ll = DUAL_ISSUE != 0 ? q_lossless[r_b_ii] : st_a_ll;
  /* verilator lint_off UNUSEDSIGNAL */ // policy state: its policy only
  wire [CW-1:0] rd_ing_a = ing_valid[r_a_ii] ? ing_q[r_a_ii] : '0;
  wire [CW-1:0] rd_ing_b = ing_valid[r_b_ii] ? ing_q[r_b_ii] : '0;
  wire [CW-1:0] rd_hdrm_a = ing_valid[r_a_ii] ? hdrm_q[r_a_ii] : '0;
  wire [CW-1:0] rd_hdrm_b = ing_valid[r_b_ii] ? hdrm_q[r_b_ii] : '0;
  wire [CW-1:0] rd_egr_a = egr_valid[r_a_ei] ? egr_q[r_a_ei] : '0;
  wire [CW-1:0] rd_egr_b = egr_valid[r_b_ei] ? egr_q[r_b_ei] : '0;
  // The filters' read ports: 0 slot a, 1 slot b, 2 + l debug lane l.
  localparam int NRD = 2 + DBG_LANES;
  wire [NRD*QW-1:0]  rd_avg_in_addr, rd_avg_eg_addr;  // the debug lanes' in the debug port
  logic [NRD*AW-1:0] rd_avg_in, rd_avg_eg;
  assign rd_avg_in_addr[0 +: 2*QW] = {r_b_ii, r_a_ii};
  assign rd_avg_eg_addr[0 +: 2*QW] = {r_b_ei, r_a_ei};
  wire [AW-1:0] rd_avg_in_a = rd_avg_in[0 +: AW];
  wire [AW-1:0] rd_avg_in_b = rd_avg_in[AW +: AW];
  wire [AW-1:0] rd_avg_eg_a = rd_avg_eg[0 +: AW];
  wire [AW-1:0] rd_avg_eg_b = rd_avg_eg[AW +: AW];
  wire [CW-1:0] rd_port_shared_a = port_valid[r_a_port] ? port_shared[r_a_port] : '0;
  wire [CW-1:0] rd_port_shared_b = port_valid[r_b_port] ? port_shared[r_b_port] : '0;
  wire [CW-1:0] rd_port_ins_a = port_valid[r_a_port] ? port_ins[r_a_port] : '0;
  wire [CW-1:0] rd_port_ins_b = port_valid[r_b_port] ? port_ins[r_b_port] : '0;
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------------
  // Configuration-derived values (mmu_adm_derive): registers loaded after a CSR write (at
  // its edge from the fields it leaves; with PIPE 1 at the next, from the stored fields).
  // ---------------------------------------------------------------------------------
  localparam int HW = CW + QW;
  logic                 ip_pool_we, ip_xoff_we, qmap_we, ip_pool_wsel, ip_xoff_wsel, qmap_wsel;
  logic [3:0]           ip_pool_wd;
  logic [CW-1:0]        ip_xoff_wd;
  logic [4:0]           q_pg_prof_wd;
  logic                 q_lossless_wd;
  logic [8:0]           ip_pool_widx, ip_xoff_widx;
  logic [11:0]          qmap_widx;
  // The rest of this cycle's write access for the look-up (read with PIPE 1 only, low bits).
  /* verilator lint_off UNUSEDSIGNAL */
  logic                 ep_pool_wsel, ip_res_wsel, ep_res_wsel;
  logic [3:0]           ep_pool_wd;
  logic [4:0]           q_queue_prof_wd;
  logic [CW-1:0]        ip_res_wd, ep_res_wd;
  logic [8:0]           ip_res_widx;
  logic [9:0]           ep_pool_widx, ep_res_widx;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [PLW-1:0]       rev_pool;
  /* verilator lint_off UNUSEDSIGNAL */ // PIPE 1 only
  logic [PLW-1:0]       rev_pool_nx;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NPORTS*4-1:0]  dsh_nq;
  logic [NPORTS*NPROF-1:0] dsh_pmask;
  logic [HW-1:0]        sih_hdrm;
  mmu_adm_derive #(
    .NPORTS(NPORTS), .NPRIO(NPRIO), .CW(CW), .NPOOLS(NPOOLS), .NPROF(NPROF), .POLICIES(POLICIES), .PIPE(PIPE)
  ) u_derive (
    .clk_i, .rst_ni,
    .ip_pool_i(ip_pool), .ip_pool_we_i(ip_pool_we), .ip_pool_wsel_i(ip_pool_wsel), .ip_pool_widx_i(ip_pool_widx),
    .ip_pool_wd_i(ip_pool_wd),
    .ip_xoff_i(ip_xoff), .ip_xoff_we_i(ip_xoff_we), .ip_xoff_wsel_i(ip_xoff_wsel), .ip_xoff_widx_i(ip_xoff_widx),
    .ip_xoff_wd_i(ip_xoff_wd),
    .q_pg_prof_i(q_pg_prof), .q_lossless_i(q_lossless), .qmap_we_i(qmap_we), .qmap_wsel_i(qmap_wsel),
    .qmap_widx_i(qmap_widx),
    .q_pg_prof_wd_i(q_pg_prof_wd), .q_lossless_wd_i(q_lossless_wd),
    .rev_pool_o(rev_pool), .rev_pool_nx_o(rev_pool_nx), .dsh_nq_o(dsh_nq), .dsh_pmask_o(dsh_pmask), .sih_hdrm_o(sih_hdrm)
  );

  // ---------------------------------------------------------------------------------
  // Threshold calculator (mmu_adm_thresh): every profile's threshold and n_p per priority
  // from the pool counters and n_p registered every THRESH_PERIOD cycles, off the packet
  // path. With PIPE 1 its thresholds leave through registers loaded from the stored
  // configuration (the decide stage starting at a flip-flop; a CSR write reaches them a
  // cycle after the fields).
  // ---------------------------------------------------------------------------------
  logic [NPROF*CW-1:0]  th_ing, th_egr;
  logic [16*(PW+1)-1:0] abm_np_live;  // abm's n_p: the live registers (mmu_adm_rate)
  // The calculator's n_p, reverie's room and the profiles' entries as registered and as they
  // will be next cycle: the quotients' operands (mmu_adm_quot), in the decide stage with
  // PIPE 0, in the read stage with PIPE 1.
  localparam int NCW = mmu_adm_pkg::np_width(NPORTS, QW);  // an n_p register
  /* verilator lint_off UNUSEDSIGNAL */ // the next values: PIPE 1 only; the registers: PIPE 0 only
  logic [16*NCW-1:0]    np_reg, np_nx;
  logic [CW-1:0]        room, room_nx;
  logic [2*NPROF*CW-1:0] th_nx;
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator lint_off UNUSEDSIGNAL */ // read with PIPE 1 only (the look-up)
  logic                 cfg_we;
  /* verilator lint_on UNUSEDSIGNAL */
  mmu_adm_thresh #(
    .NPORTS(NPORTS), .NPRIO(NPRIO), .CW(CW), .NPOOLS(NPOOLS), .NPROF(NPROF), .POLICIES(POLICIES), .REG_OUT(PIPE != 0)
  ) u_thresh (
    .clk_i, .rst_ni, .period_i(cfg_thresh_period), .restart_i(cfg_valid_i && cfg_write_i),
    .pool_used_i(pool_used), .pool_rf_i(rfq_pool), .ncong_i(ncong), .abm_np_i(abm_np_live), .rev_pool_i(rev_pool), .rev_pool_nx_i(rev_pool_nx),
    .cfg_i({cfg_policy, cfg_pool_size, ip_static, ip_shift, ip_dynamic, ip_pool, ep_static, ep_shift, ep_dynamic, ep_pool}),
    .ith_o(th_ing), .eth_o(th_egr), .room_o(room), .np_o(np_reg), .th_nx_o(th_nx), .room_nx_o(room_nx),
    .np_nx_o(np_nx)
  );


  // Each slot's decision and the next values of the entries it names (mmu_adm_op).
  logic [1:0]           a_pfc, a_port_pfc, b_verdict, b_pfc, b_port_pfc;
  logic [2:0]           b_reason;
  logic                 a_underflow;
  logic [CW-1:0]        a_ing, a_hdrm, a_egr, b_ing, b_hdrm, b_egr;
  logic                 a_paused, b_paused;
  /* verilator lint_off UNUSEDSIGNAL */ // the release's: PIPE 3 takes its refund (a_rf_*) instead
  logic [NPOOLS*CW-1:0] a_pool_used;
  logic [CW-1:0]        a_hdrm_used, a_total;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NPOOLS*CW-1:0] b_pool_used;
  logic [CW-1:0]        b_hdrm_used, b_total;
  // Policy state, unread when its policy is left out (POLICIES).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [AW-1:0]        a_avg_in, a_avg_eg, b_avg_in, b_avg_eg;
  logic [QW:0]          a_ncong, b_ncong;
  logic                 a_port_paused, b_port_paused;
  logic [CW-1:0]        a_port_shared, a_port_ins, b_port_shared, b_port_ins;
  // The release's refund of the shared counters (read by dual issue's request).
  logic [NPOOLS*CW-1:0] a_rf_pool_used;
  logic [CW-1:0]        a_rf_hdrm_used, a_rf_total;
  logic [NPOOLS*RFP*CW-1:0] a_rfp_pool_used;
  logic [NPOOLS*RFM*CW-1:0] a_rfm_pool_used;
  // No refund into a datapath that sees the registers as they are (named nets, not
  // constants on the ports: yosys 0.23 otherwise re-derives the top module, as csr_busy).
  wire [NPOOLS*CW-1:0]  no_rf_pool = '0;
  wire [CW-1:0]         no_rf = '0;
  wire [NPOOLS*RFP*CW-1:0] no_rfp = '0;
  wire [NPOOLS*RFM*CW-1:0] no_rfm = '0;
  wire                  no_step = 1'b0;  // no same-cycle release in front (pre_step)
  wire [8*CW-1:0]       no_d = '0;       // no same-cycle request in front (t_d_i)
  /* verilator lint_on UNUSEDSIGNAL */
  // Each slot's quotients (mmu_adm_quot) and abm's drain ratios (mmu_adm_rate), below.
  logic [CW-1:0]        a_quot_in, a_quot_eg, b_quot_in, b_quot_eg;
  logic [8:0]           a_abm_ratio_in, a_abm_ratio_eg, b_abm_ratio_in, b_abm_ratio_eg;

  // Configuration ports common to every datapath instance, but for the XON fields and the
  // ingress thresholds (PIPE 3's release takes them from the test stage).
  `define MMU_OP_CFG(xon, xon_offset, ith, pxoo) \
    .clk_i, .rst_ni, .policy_i(cfg_policy), \
    .cfg_ewma_rule_i(cfg_ewma_rule), .cfg_ewma_clamp_i(cfg_ewma_clamp), .cfg_ewma_k_i(cfg_ewma_k), \
    .cfg_buffer_i(cfg_buffer), .cfg_hdrm_pool_i(cfg_hdrm_pool), .cfg_congested_i(cfg_congested), \
    .cfg_dsh_port_xon_off_i(pxoo), .cfg_pool_size_i(cfg_pool_size), \
    .tab_ip_dynamic_i(ip_dynamic), .tab_ip_shift_i(ip_shift), .tab_ip_static_i(ip_static), \
    .tab_ip_xoff_i(ip_xoff), .tab_ip_xon_i(xon), .tab_ip_xon_offset_i(xon_offset), \
    .tab_ep_dynamic_i(ep_dynamic), .tab_ep_shift_i(ep_shift), .tab_ep_static_i(ep_static), \
    .rev_pool_i(rev_pool), .tab_dsh_nq_i(dsh_nq), .tab_dsh_pmask_i(dsh_pmask), .sih_hdrm_i(sih_hdrm), \
    .tab_ith_i(ith), .tab_eth_i(th_egr)

  // A datapath's next state and PFC events, by name: the release's (rl_*), the request's
  // (rq_*) and each slot's (a_*, b_*).
  `define MMU_OP_NEXT(p) \
    p``_pfc, p``_port_pfc, p``_ing, p``_hdrm, p``_paused, p``_avg_in, p``_egr, p``_avg_eg, p``_pool_used, \
    p``_hdrm_used, p``_total, p``_ncong, p``_port_paused, p``_port_shared, p``_port_ins
  `define MMU_OP_NEXT_OUT(p) \
    .pfc_o(p``_pfc), .port_pfc_o(p``_port_pfc), .n_ing_o(p``_ing), .n_hdrm_o(p``_hdrm), .n_paused_o(p``_paused), \
    .n_avg_in_o(p``_avg_in), .n_egr_o(p``_egr), .n_avg_eg_o(p``_avg_eg), .n_pool_used_o(p``_pool_used), \
    .n_hdrm_used_o(p``_hdrm_used), .n_total_o(p``_total), .n_ncong_o(p``_ncong), \
    .n_port_paused_o(p``_port_paused), .n_port_shared_o(p``_port_shared), .n_port_ins_o(p``_port_ins)
  /* verilator lint_off UNUSEDSIGNAL */ // policy state: its policy only
  logic [1:0]           rl_pfc, rl_port_pfc, rq_pfc, rq_port_pfc;
  logic [CW-1:0]        rl_ing, rl_hdrm, rl_egr, rl_hdrm_used, rl_total, rl_port_shared, rl_port_ins;
  logic [CW-1:0]        rq_ing, rq_hdrm, rq_egr, rq_hdrm_used, rq_total, rq_port_shared, rq_port_ins;
  logic [AW-1:0]        rl_avg_in, rl_avg_eg, rq_avg_in, rq_avg_eg;
  logic [NPOOLS*CW-1:0] rl_pool_used, rq_pool_used;
  logic [QW:0]          rl_ncong, rq_ncong;
  logic                 rl_paused, rl_port_paused, rq_paused, rq_port_paused;
  /* verilator lint_on UNUSEDSIGNAL */

  // PIPE 3's test stage (below): the request's five tests for each outcome of the request
  // before it, selected in the decide stage by that request's verdict (t_sel); whether the
  // release names the request's queues; the release's XON fields and threshold.
  /* verilator lint_off UNUSEDSIGNAL */ // PIPE 3 only
  logic [4:0]    t_sel;
  logic          rs_iq, rs_eq, rs_pt;
  // The request's cells where it names the release's ingress queue, egress queue, port, and
  // port with a lossless PG (else 0): registered so, no select in front of the release's sums.
  logic [CW-1:0] dq_iq, dq_eq, dq_pt, dq_ptl;
  logic [CW-1:0] dq_nr;  // the request's cells less its reserve, modulo 2^CW (dsh's growth values)
  logic [CW-1:0] a_xon_q, a_xoff_q, a_ith_q;
  logic [CW-1:0] a_xq_q, a_xpn_q, b_xq_q, b_xp_q;  // dsh's X_qoff and X_poff of each slot (the
                                                   // release's X_poff less the port xon_offset)
  logic [CW-1:0] m_vb_port_ins;  // the test stage's request's port's insurance cells (dsh)
  logic [CW-1:0] m_vb_ing, m_vb_hdrm, m_vb_egr;  // the test stage's request's view
  /* verilator lint_on UNUSEDSIGNAL */

  // Release datapath (slot a) on the registers. A release has no verdict, a request no
  // underflow. PIPE 3: after the same-cycle request, once for each of its outcomes (its
  // charge of the release's queues an operand of the release's sums: t_d_i), the request's
  // verdict selecting; its XON fields and threshold registered by the test stage (the
  // threshold one cycle old, as the request's tests read it).
  localparam int NOUT = P3 ? 3 : 1;  // outcome o: the request's verdict (VERDICT_*; 2 also none)
  localparam int RLW = 4 + 7*CW + 2 + 2*AW + NPOOLS*CW + (QW+1) + 1 + NPOOLS*CW + 2*CW + NPOOLS*(RFP+RFM)*CW;
  wire [NPROF*CW-1:0] rel_xon = P3 ? {NPROF{a_xon_q}} : ip_xon;
  wire [NPROF*CW-1:0] rel_xon_offset = P3 ? {NPROF{a_xoff_q}} : ip_xon_offset;
  wire [NPROF*CW-1:0] rel_ith = P3 ? {NPROF{a_ith_q}} : th_ing;
  // dsh's port XON: PIPE 3's test stage registers X_poff less the port's xon_offset (a_xpn_q).
  wire [CW-1:0] rel_pxoo = P3 ? '0 : cfg_dsh_port_xon_off;
  wire [NOUT*RLW-1:0] ro_bus;
  /* verilator lint_off PINCONNECTEMPTY */
  for (genvar o = 0; o < NOUT; o++) begin : g_rel
    logic [1:0]           x_pfc, x_port_pfc;
    logic [CW-1:0]        x_ing, x_hdrm, x_egr, x_hdrm_used, x_total, x_port_shared, x_port_ins;
    logic [AW-1:0]        x_avg_in, x_avg_eg;
    logic [NPOOLS*CW-1:0] x_pool_used, x_rf_pool_used;
    logic [QW:0]          x_ncong;
    logic                 x_paused, x_port_paused, x_underflow;
    logic [CW-1:0]        x_rf_hdrm_used, x_rf_total;
    logic [NPOOLS*RFP*CW-1:0] x_rfp;
    logic [NPOOLS*RFM*CW-1:0] x_rfm;
    wire [CW-1:0] d_i = o == 0 ? dq_iq : '0;
    wire [CW-1:0] d_h = o == 1 ? dq_iq : '0;
    wire [CW-1:0] d_e = o != 2 ? dq_eq : '0;
    // dsh's port counters: a lossless request's cells into insurance, or its growth of the
    // shared segment, grow_of on its exact view, as terms (cells, ing, reserved): the
    // release's sums take each case's (mmu_pol_dsh), no growth formed in front of them. Its
    // cells are 0 unless it names the release's port (a growth of 0 cells is 0 on every
    // ing and reserve), so its ing and reserve need no select.
    wire [CW-1:0] d_pi = o == 1 ? dq_pt : '0;
    wire [CW-1:0] g_n = o == 0 ? dq_ptl : '0, g_vi = P3 && o == 0 ? vb_ing : '0, g_res = P3 && o == 0 ? b_ires : '0;
    wire [CW-1:0] g_nr = P3 && o == 0 ? dq_nr : '0;  // cells - res, for the growth's value
    mmu_adm_op #(
      .NPORTS(NPORTS), .NPRIO(NPRIO), .CW(CW), .NPOOLS(NPOOLS), .NPROF(NPROF), .EWMA_FRAC(EWMA_FRAC), .CELLW(CELLW),
      .POLICIES(POLICIES), .REFUND(1'b0), .RF_PARTS(P3)
    ) u_rel (
      `MMU_OP_CFG(rel_xon, rel_xon_offset, rel_ith, rel_pxoo),
      .is_req_i(1'b0), .is_rel_i(a_valid), .t_on_i(P3), .t_i(5'b0), .t_d_i({g_nr, g_res, g_vi, g_n, d_pi, d_e, d_h, d_i}),
      .t_x_i({a_xpn_q, a_xq_q}), .in_port_i(a_in),
      .cells_i(a_cells),
      .ipf_i(a_ipf), .epf_i(a_epf), .ll_i(a_ll), .ipool_i(a_ipool), .epool_i(a_epool), .ires_i(a_ires), .eres_i(a_eres),
      .v_ing_i(va_ing), .v_hdrm_i(va_hdrm), .v_paused_i(P3 && rs_iq ? rq_paused : va_paused),
      .v_avg_in_i(va_avg_in), .v_egr_i(va_egr), .v_avg_eg_i(va_avg_eg),
      .pre_avg_in_i(va_avg_in), .pre_avg_eg_i(va_avg_eg), .pre_step_in_i(no_step), .pre_step_eg_i(no_step),
      .pre_ing_i(va_ing), .pre_hdrm_i(va_hdrm), .pre_egr_i(va_egr), .pre_cells_i(a_cells),
      .v_pool_used_i(pool_used), .v_hdrm_used_i(hdrm_used), .v_total_i(total_used),
      .v_ncong_i(ncong[a_np*(QW+1) +: (QW+1)]), .v_port_paused_i(P3 && rs_pt ? rq_port_paused : va_port_paused),
      .v_port_shared_i(va_port_shared), .v_port_ins_i(va_port_ins),
      .rf_pool_used_i(no_rf_pool), .rf_hdrm_used_i(no_rf), .rf_total_i(no_rf),
      .rfp_pool_used_i(no_rfp), .rfm_pool_used_i(no_rfm),
      .quot_in_i(a_quot_in), .quot_eg_i(a_quot_eg), .abm_ratio_in_i(a_abm_ratio_in), .abm_ratio_eg_i(a_abm_ratio_eg),
      .verdict_o(), .reason_o(), .underflow_o(x_underflow), `MMU_OP_NEXT_OUT(x),
      .rf_pool_used_o(x_rf_pool_used), .rf_hdrm_used_o(x_rf_hdrm_used), .rf_total_o(x_rf_total),
      .rfp_pool_used_o(x_rfp), .rfm_pool_used_o(x_rfm)
    );
    assign ro_bus[o*RLW +: RLW] = {`MMU_OP_NEXT(x), x_underflow, x_rf_pool_used, x_rf_hdrm_used, x_rf_total, x_rfp, x_rfm};
  end
  wire [1:0] ro_sel = !P3 ? 2'd0 : b_valid && b_verdict != 2'd3 ? b_verdict : 2'd2;
  assign {`MMU_OP_NEXT(rl), a_underflow, a_rf_pool_used, a_rf_hdrm_used, a_rf_total, a_rfp_pool_used, a_rfm_pool_used}
      = ro_bus[ro_sel*RLW +: RLW];

  // Request datapath (slot b). Dual issue: on its own configuration and the registers as
  // the release leaves them: a queue, priority or port entry the release names is
  // forwarded from its next value (its view when no release is offered); the pools,
  // headroom pool and total are the registers and the release's refund, which the
  // request's tests and updates add in ("The decide stage"). Single issue: on the one
  // operation's configuration and view (slot a's look-up and read), beside the release's
  // datapath; a_valid selects behind both (only one of the slots fires) instead of
  // selecting the cells in front of every sum. PIPE 3: before the release, on its view,
  // its tests from the test stage (t_sel), the pools, headroom pool and total the registers
  // less the refund of the release of the cycle before (rfq_*, applied a cycle late).
  wire dual = DUAL_ISSUE != 0;
  wire fwd = dual && !P3;  // the release's next state forwarded into the request's view
  wire same_iq = fwd && a_ii == b_ii;
  wire same_eq = fwd && a_ei == b_ei;
  wire same_prio = fwd && a_np == b_np;
  wire same_port = fwd && a_in == b_in;
  // The release steps the filter of its queue (reverie: ingress if lossless, else egress)
  // unless it underflows: the request on that queue steps it again, from the view before
  // the release (pre_*), both steps in parallel (mmu_pol_reverie).
  wire rl_step = a_valid && !a_underflow;
  mmu_adm_op #(
    .NPORTS(NPORTS), .NPRIO(NPRIO), .CW(CW), .NPOOLS(NPOOLS), .NPROF(NPROF), .EWMA_FRAC(EWMA_FRAC), .CELLW(CELLW),
    .POLICIES(POLICIES), .REFUND(DUAL_ISSUE != 0)
  ) u_req (
    `MMU_OP_CFG(ip_xon, ip_xon_offset, th_ing, cfg_dsh_port_xon_off),
    .is_req_i(b_valid), .is_rel_i(1'b0), .t_on_i(P3), .t_i(t_sel), .t_d_i(no_d), .t_x_i({b_xp_q, b_xq_q}),
    .in_port_i(b_in), .cells_i(b_cells),
    .ipf_i(dual ? b_ipf : a_ipf), .epf_i(dual ? b_epf : a_epf), .ll_i(dual ? b_ll : a_ll),
    .ipool_i(dual ? b_ipool : a_ipool), .epool_i(dual ? b_epool : a_epool),
    .ires_i(dual ? b_ires : a_ires), .eres_i(dual ? b_eres : a_eres),
    .v_ing_i(same_iq ? rl_ing : dual ? vb_ing : va_ing), .v_hdrm_i(same_iq ? rl_hdrm : dual ? vb_hdrm : va_hdrm),
    .v_paused_i(same_iq ? rl_paused : dual ? vb_paused : va_paused),
    .v_avg_in_i(same_iq ? rl_avg_in : dual ? vb_avg_in : va_avg_in),
    .v_egr_i(same_eq ? rl_egr : dual ? vb_egr : va_egr), .v_avg_eg_i(same_eq ? rl_avg_eg : dual ? vb_avg_eg : va_avg_eg),
    .pre_avg_in_i(same_iq ? va_avg_in : dual ? vb_avg_in : va_avg_in),
    .pre_avg_eg_i(same_eq ? va_avg_eg : dual ? vb_avg_eg : va_avg_eg),
    .pre_step_in_i(same_iq && rl_step && a_ll), .pre_step_eg_i(same_eq && rl_step && !a_ll),
    .pre_ing_i(same_iq ? va_ing : dual ? vb_ing : va_ing), .pre_hdrm_i(same_iq ? va_hdrm : dual ? vb_hdrm : va_hdrm),
    .pre_egr_i(same_eq ? va_egr : dual ? vb_egr : va_egr), .pre_cells_i(a_cells),
    .v_pool_used_i(pool_used), .v_hdrm_used_i(hdrm_used), .v_total_i(total_used),
    .v_ncong_i(same_prio ? rl_ncong : ncong[b_np*(QW+1) +: (QW+1)]),
    .v_port_paused_i(same_port ? rl_port_paused : dual ? vb_port_paused : va_port_paused),
    .v_port_shared_i(same_port ? rl_port_shared : dual ? vb_port_shared : va_port_shared),
    .v_port_ins_i(same_port ? rl_port_ins : dual ? vb_port_ins : va_port_ins),
    .rf_pool_used_i(fwd ? a_rf_pool_used : no_rf_pool), .rf_hdrm_used_i(P3 ? rfq_h : dual ? a_rf_hdrm_used : no_rf),
    .rf_total_i(P3 ? rfq_t : dual ? a_rf_total : no_rf),
    .rfp_pool_used_i(P3 ? rfq_pool : dual ? a_rfp_pool_used : no_rfp), .rfm_pool_used_i(fwd ? a_rfm_pool_used : no_rfm),
    .quot_in_i(b_quot_in), .quot_eg_i(b_quot_eg), .abm_ratio_in_i(b_abm_ratio_in), .abm_ratio_eg_i(b_abm_ratio_eg),
    .verdict_o(b_verdict), .reason_o(b_reason), .underflow_o(), `MMU_OP_NEXT_OUT(rq),
    .rf_pool_used_o(), .rf_hdrm_used_o(), .rf_total_o(), .rfp_pool_used_o(), .rfm_pool_used_o()
  );
  /* verilator lint_on PINCONNECTEMPTY */
  if (DUAL_ISSUE != 0) begin : g_dual
    assign {`MMU_OP_NEXT(a)} = {`MMU_OP_NEXT(rl)};
    assign {`MMU_OP_NEXT(b)} = {`MMU_OP_NEXT(rq)};
  end else begin : g_single
    assign {`MMU_OP_NEXT(a)} = a_valid ? {`MMU_OP_NEXT(rl)} : {`MMU_OP_NEXT(rq)};
    assign {`MMU_OP_NEXT(b)} = {`MMU_OP_NEXT(a)};
  end
  `undef MMU_OP_NEXT
  `undef MMU_OP_NEXT_OUT
  `undef MMU_OP_CFG


  // ---------------------------------------------------------------------------------
  // State update: an entry both slots name takes the request's value, which already
  // includes the release's effect.
  // ---------------------------------------------------------------------------------
  wire a_fire = a_valid && !a_underflow;  // a release beyond a counter changes nothing
  wire b_fire = b_valid;

  // abm's state (mmu_adm_rate; with PIPE 1 its entries and drain ratios come from the read
  // stage): each slot's drain ratios and n_p from its queues' counts before the operation
  // (slot b's as its datapath views them: after a release on the same queue, taken from
  // the view, not from the release's datapath) and its cells.
  wire [CW:0] abm_a_cnt_in = (CW+1)'(va_ing) + (CW+1)'(va_hdrm);
  wire [CW:0] abm_a_nx_in = a_fire ? abm_a_cnt_in - (CW+1)'(a_cells) : abm_a_cnt_in;
  wire [CW-1:0] abm_a_nx_eg = a_fire ? va_egr - CW'(a_cells) : va_egr;
  wire [CW:0] abm_b_cnt_in = DUAL_ISSUE == 0 ? abm_a_cnt_in :
                             a_ii == b_ii ? abm_a_nx_in : (CW+1)'(vb_ing) + (CW+1)'(vb_hdrm);
  wire [CW-1:0] abm_b_cnt_eg = DUAL_ISSUE == 0 ? va_egr : a_ei == b_ei ? abm_a_nx_eg : vb_egr;
  logic [64*DBGW-1:0] abm_dbg;
  mmu_adm_rate #(
    .NPORTS(NPORTS), .NPRIO(NPRIO), .CW(CW), .CELLW(CELLW), .DUAL_ISSUE(DUAL_ISSUE), .PIPE(PIPE),
    .DBG_LANES(DBG_LANES), .ENABLE(POLICIES[mmu_adm_pkg::POLICY_ABM])
  ) u_rate (
    .clk_i, .rst_ni, .on_i(cfg_policy == mmu_adm_pkg::POLICY_ABM), .clear_i(cfg_policy_set), .now_i(d_now),
    .interval_log2_i(cfg_abm_interval), .cfg_congested_i(cfg_congested), .cap_i(cfg_abm_cap),
    .s_now_i(now_i), .s_a_ii_i(i_a_ii), .s_a_ei_i(i_a_ei), .s_a_in_port_i(rel_in_port_i),
    .s_a_out_port_i(rel_out_port_i), .s_b_ii_i(i_b_ii), .s_b_ei_i(i_b_ei), .s_b_in_port_i(req_in_port_i),
    .s_b_out_port_i(req_out_port_i),
    .a_fire_i(a_fire), .a_ii_i(a_ii), .a_ei_i(a_ei), .a_prio_i(a_prio), .a_eq_i(a_queue),
    .a_in_port_i(a_in), .a_out_port_i(a_out), .a_cells_i(a_cells),
    .a_cnt_in_i(abm_a_cnt_in), .a_cnt_eg_i(va_egr),
    .b_fire_i(b_fire), .b_ii_i(b_ii), .b_ei_i(b_ei), .b_prio_i(b_prio), .b_eq_i(b_queue),
    .b_in_port_i(b_in), .b_out_port_i(b_out),
    .b_cells_i(b_cells), .b_acc_i(b_verdict != mmu_adm_pkg::VERDICT_DROP),
    .b_cnt_in_i(abm_b_cnt_in), .b_cnt_eg_i(abm_b_cnt_eg),
    .a_ratio_in_o(a_abm_ratio_in), .a_ratio_eg_o(a_abm_ratio_eg),
    .b_ratio_in_o(b_abm_ratio_in), .b_ratio_eg_o(b_abm_ratio_eg),
    .np_o(abm_np_live),
    .dbg_addr_i, .dbg_data_o(abm_dbg)
  );

  // Each slot's quotients alpha th / n_p (abm's, reverie's Gamma): with PIPE 1 divided in
  // the read stage, on the calculator's values of the next cycle, at the profiles of the
  // stored queue map, and registered.
  mmu_adm_quot #(
    .NPORTS(NPORTS), .CW(CW), .CELLW(CELLW), .EWMA_FRAC(EWMA_FRAC), .NPROF(NPROF), .NW(NCW), .PIPE(PIPE),
    .POLICIES(POLICIES)
  ) u_quot (
    .clk_i, .policy_i(cfg_policy), .th_i(PIPE != 0 ? th_nx : {th_egr, th_ing}), .room_i(PIPE != 0 ? room_nx : room),
    .ip_shift_i(ip_shift), .ep_shift_i(ep_shift), .np_i(PIPE != 0 ? np_nx : np_reg),
    .a_ipf_i(st_a_ipf), .a_epf_i(st_a_epf), .a_prio_i(PIPE != 0 ? rel_prio_i : a_prio),
    .a_eq_i(PIPE != 0 ? rel_queue_i : a_queue), .a_ll_i(st_a_ll), .b_ipf_i(q_b_ipf), .b_epf_i(q_b_epf),
    .b_prio_i(PIPE != 0 ? req_prio_i : b_prio), .b_eq_i(PIPE != 0 ? req_queue_i : b_queue), .b_ll_i(q_b_ll),
    .a_in_o(a_quot_in), .a_eg_o(a_quot_eg), .b_in_o(b_quot_in), .b_eg_o(b_quot_eg)
  );

  // Memory writes: of two slots naming the same entry the one decided second writes, its
  // value including the other's effect: the request (PIPE 0 and 1), or the release (PIPE 3).
  // PIPE 3: every release writes, an underflowing one its view with the request's charge
  // (what it leaves), so that the underflow compares, late, drive no write enable.
  wire a_wr_iq = P3 ? a_valid : a_fire && !(b_fire && b_ii == a_ii);
  wire a_wr_eq = P3 ? a_valid : a_fire && !(b_fire && b_ei == a_ei);
  wire b_wr_iq = b_fire && !(P3 && a_valid && b_ii == a_ii);
  wire b_wr_eq = b_fire && !(P3 && a_valid && b_ei == a_ei);
  /* verilator lint_off UNUSEDSIGNAL */ // dsh's port state only
  wire a_wr_port = P3 ? a_valid : a_fire && !(b_fire && b_in == a_in);
  wire b_wr_port = b_fire && !(P3 && a_valid && b_in == a_in);
  /* verilator lint_on UNUSEDSIGNAL */
  // The look-up: with PIPE 1 in stage 1, registered, from the fields as this cycle's CSR
  // write leaves them, so that stage 2 has its own cycle's values (the fields are quiesce
  // fields: a write changes them only on an empty buffer, but an operation may be in
  // flight): the stored fields with the write's data substituted (mmu_adm_lookup); else in
  // stage 2 from the fields.
  if (PIPE != 0) begin : g_lookup_reg
    localparam int LW = 2 * (2*PFW + 2*PLW + 2*CW + 1);
    wire [LW-1:0] look;
    mmu_adm_lookup #(.NQ(NQ), .NPOOLS(NPOOLS), .NPROF(NPROF), .CW(CW)) u_look (
      .ii_i(P3 ? {i_b_ii, i_a_ii} : {r_b_ii, r_a_ii}), .ei_i(P3 ? {i_b_ei, i_a_ei} : {r_b_ei, r_a_ei}),
      .q_pg_prof_i(q_pg_prof), .q_queue_prof_i(q_queue_prof), .q_lossless_i(q_lossless),
      .ip_pool_i(ip_pool), .ep_pool_i(ep_pool), .ip_res_i(ip_reserved), .ep_res_i(ep_reserved),
      .we_i(cfg_we), .qmap_wsel_i(qmap_wsel), .qmap_widx_i(QW'(qmap_widx)),
      .q_pg_prof_wd_i(q_pg_prof_wd[PFW-1:0]), .q_queue_prof_wd_i(q_queue_prof_wd[PFW-1:0]),
      .q_lossless_wd_i(q_lossless_wd),
      .ip_pool_wsel_i(ip_pool_wsel), .ip_pool_widx_i(PFW'(ip_pool_widx)), .ip_pool_wd_i(ip_pool_wd[PLW-1:0]),
      .ep_pool_wsel_i(ep_pool_wsel), .ep_pool_widx_i(PFW'(ep_pool_widx)), .ep_pool_wd_i(ep_pool_wd[PLW-1:0]),
      .ip_res_wsel_i(ip_res_wsel), .ip_res_widx_i(PFW'(ip_res_widx)), .ip_res_wd_i(ip_res_wd),
      .ep_res_wsel_i(ep_res_wsel), .ep_res_widx_i(PFW'(ep_res_widx)), .ep_res_wd_i(ep_res_wd),
      .ipf_o(look[0 +: 2*PFW]), .epf_o(look[2*PFW +: 2*PFW]), .ipool_o(look[4*PFW +: 2*PLW]),
      .epool_o(look[4*PFW+2*PLW +: 2*PLW]), .ires_o(look[4*PFW+4*PLW +: 2*CW]),
      .eres_o(look[4*PFW+4*PLW+2*CW +: 2*CW]), .ll_o(look[LW-2 +: 2])
    );
    // PIPE 3: registered in the look-up stage and again in the memory stage (m_look, the
    // test stage's).
    /* verilator lint_off UNUSEDSIGNAL */ // l_look: PIPE 3 only
    logic [LW-1:0] l_look, m_look;
    /* verilator lint_on UNUSEDSIGNAL */
    if (P3) begin : g_look3
      always_ff @(posedge clk_i) {m_look, l_look} <= {l_look, look};

      // The test stage (PIPE 3). The request here (X: m_b_*, the memory stage's view
      // m_vb_*, the profiles m_look names) runs its five tests once for each outcome of the
      // request in the decide stage (Q: b_*), each compare one flat sum of registered
      // operands: the queue counts plus Q's charge when Q names X's queue, the pools,
      // headroom pool and total less the refund of the release decided the cycle before
      // (rfq_*), plus Q's cells, in full, in each pool it charges (a bound of its charge,
      // which would otherwise put Q's reserve compares in front). The release decided with
      // Q is not seen (its refund reaches the next request's tests a cycle late), nor its
      // refund of X's queue. The thresholds are the calculator's registers of this cycle.
      // The golden core's rules: hw-model/admission/admission_core.h (pipe 3).
      localparam int TW = (CW > CELLW ? CW : CELLW) + 1;  // a counter plus cells
      localparam int KW = (TW > HW ? TW : HW) + 3;         // the headroom pool's compare
      wire [PFW-1:0] s_a_ipf = m_look[0 +: PFW];
      wire [PFW-1:0] s_ipf = m_look[PFW +: PFW];
      wire [PFW-1:0] s_epf = m_look[3*PFW +: PFW];
      wire [PLW-1:0] s_ipool = m_look[4*PFW+PLW +: PLW];
      wire [PLW-1:0] s_epool = m_look[4*PFW+3*PLW +: PLW];
      wire [TW-1:0]  s_ires = TW'(m_look[4*PFW+4*PLW+CW +: CW]);
      wire [TW-1:0]  s_eres = TW'(m_look[4*PFW+4*PLW+3*CW +: CW]);
      // The release's XON fields and threshold, and whether it names the request's queues.
      wire s_iq = m_b_valid && m_a_ii == m_b_ii, s_eq = m_b_valid && m_a_ei == m_b_ei;
      wire s_pt = m_b_valid && m_a_in == m_b_in;
      always_ff @(posedge clk_i) begin
        a_xon_q <= ip_xon[s_a_ipf*CW +: CW];
        a_xoff_q <= ip_xon_offset[s_a_ipf*CW +: CW];
        a_ith_q <= th_ing[s_a_ipf*CW +: CW];
        {rs_iq, rs_eq, rs_pt} <= {s_iq, s_eq, s_pt};
        dq_iq <= s_iq ? CW'(m_b_cells) : '0;
        dq_eq <= s_eq ? CW'(m_b_cells) : '0;
        dq_pt <= s_pt ? CW'(m_b_cells) : '0;
        dq_ptl <= s_pt && m_look[LW-1] ? CW'(m_b_cells) : '0;
        dq_nr <= CW'(m_b_cells) - s_ires[CW-1:0];
      end
      // dsh's X_qoff = T - eta and X_poff = N_q T (saturated) of each slot's PG and port,
      // from the thresholds the test stage reads: off the decide stage's paths.
      if (POLICIES[mmu_adm_pkg::POLICY_DSH]) begin : g_dsh_x
        wire [CW-1:0] ta = th_ing[s_a_ipf*CW +: CW], tb = th_ing[s_ipf*CW +: CW];
        wire [CW-1:0] xa = ip_xoff[s_a_ipf*CW +: CW], xb = ip_xoff[s_ipf*CW +: CW];
        /* verilator lint_off UNUSEDSIGNAL */ // pa: its top bits only (whether N_q T saturates)
        wire [CW+3:0] pa = (CW+4)'(dsh_nq[m_a_in*4 +: 4]) * (CW+4)'(ta);
        /* verilator lint_on UNUSEDSIGNAL */
        wire [CW+3:0] pb = (CW+4)'(dsh_nq[m_b_in*4 +: 4]) * (CW+4)'(tb);
        // The release tests its port's XON, X_poff > c + xon_offset, as max(X_poff -
        // xon_offset, 0) > c (c, its shared cells left, is never negative): N_q T less the
        // offset as one sum beside the product (CMAX less it where the product saturates).
        wire [CW+5:0] pd = (CW+6)'(dsh_nq[m_a_in*4 +: 4]) * (CW+6)'(ta) - (CW+6)'(cfg_dsh_port_xon_off);
        always_ff @(posedge clk_i) begin
          a_xq_q <= ta > xa ? ta - xa : '0;
          b_xq_q <= tb > xb ? tb - xb : '0;
          a_xpn_q <= pa[CW+3:CW] != '0 ? ~cfg_dsh_port_xon_off : pd[CW+5] ? '0 : pd[CW-1:0];
          b_xp_q <= pb > (CW+4)'({CW{1'b1}}) ? {CW{1'b1}} : pb[CW-1:0];
        end
      end else begin : g_no_dsh_x
        assign {a_xq_q, a_xpn_q, b_xq_q, b_xp_q} = '0;
      end
      wire sq_i = b_valid && b_ii == m_b_ii;  // Q names X's ingress queue
      wire sq_e = b_valid && b_ei == m_b_ei;  // ... X's egress queue
      wire [TW-1:0] n = TW'(m_b_cells), qn = TW'(b_cells);
      wire [TW-1:0] ith = TW'(th_ing[s_ipf*CW +: CW]), eth = TW'(th_egr[s_epf*CW +: CW]);
      wire [TW-1:0] xoff = TW'(ip_xoff[s_ipf*CW +: CW]);
      wire [HW-1:0] hcap = cfg_policy == mmu_adm_pkg::POLICY_SIH ? sih_hdrm : HW'(cfg_hdrm_pool);
      logic [14:0] t_q;  // outcome o's tests at [5o +: 5]
      for (genvar o = 0; o < 3; o++) begin : g_out
        // o: Q's verdict (mmu_adm_pkg::VERDICT_*: 0 shared, 1 headroom, 2 dropped or none).
        localparam bit SH = o == 0, HD = o == 1, ADM = o != 2;
        wire [TW-1:0] di = SH && sq_i ? qn : '0;
        wire [TW-1:0] dh = HD && sq_i ? qn : '0;
        wire [TW-1:0] de = ADM && sq_e ? qn : '0;
        // The ingress and egress tests on each pool, X's pools selecting the results: the
        // select drives a bit per test rather than every operand of the sums.
        logic [NPOOLS-1:0] t_in_p, t_eg_p;
        /* verilator lint_off UNUSEDSIGNAL */ // dsh only
        logic [NPOOLS-1:0] t_seg_p;
        /* verilator lint_on UNUSEDSIGNAL */
        for (genvar p = 0; p < NPOOLS; p++) begin : g_pool
          wire [TW-1:0] size = TW'(cfg_pool_size[p*CW +: CW]), used = TW'(pool_used[p*CW +: CW]);
          wire [TW-1:0] rf = TW'(rfq_pool[p*RFP*CW +: CW]), rf2 = TW'(rfq_pool[p*RFP*CW + CW +: CW]);
          // Q's cells in pool p: its ingress pool if shared, its egress pool if admitted.
          wire f1 = SH && b_ipool == PLW'(p), f2 = ADM && b_epool == PLW'(p);
          wire [TW-1:0] g1 = f1 ? qn : '0, g2 = f2 ? qn : '0;
          // With X's queue's own charge (di, de): Q's cells times the count of the three flags.
          wire [1:0] ci = 2'(f1) + 2'(f2) + 2'(SH && sq_i), ce = 2'(f1) + 2'(f2) + 2'(ADM && sq_e);
          wire [TW-1:0] si1 = ci[0] ? qn : '0, si2 = ci[1] ? qn << 1 : '0;
          wire [TW-1:0] se1 = ce[0] ? qn : '0, se2 = ce[1] ? qn << 1 : '0;
          // The golden core's over() on X's queue of q + dq cells (ingress, egress) and
          // pool p of used - rf - rf2 + g1 + g2 cells; s1 + s2 = g1 + g2 + dq. Each
          // compare one sum (mmu_adm_sumgt).
          for (genvar sd = 0; sd < 2; sd++) begin : g_side
            wire [TW-1:0] q = sd == 0 ? TW'(m_vb_ing) : TW'(m_vb_egr), dq = sd == 0 ? di : de;
            wire [TW-1:0] res = sd == 0 ? s_ires : s_eres, th = sd == 0 ? ith : eth;
            wire [TW-1:0] s1 = sd == 0 ? si1 : se1, s2 = sd == 0 ? si2 : se2;
            wire past_res, below_res, full_n, full_part, th_above;
            // q + n > reserved; reserved > q; pool + n > size; pool + q + n - reserved > size;
            // reserved + th > q (the shared part below th).
            mmu_adm_sumgt #(.W(TW), .NP(3), .NM(1)) u_past (.p_i({q, dq, n}), .m_i(res), .gt_o(past_res));
            mmu_adm_sumgt #(.W(TW), .NP(1), .NM(2)) u_below (.p_i(res), .m_i({q, dq}), .gt_o(below_res));
            mmu_adm_sumgt #(.W(TW), .NP(4), .NM(3)) u_full_n (
              .p_i({used, g1, g2, n}), .m_i({size, rf, rf2}), .gt_o(full_n));
            mmu_adm_sumgt #(.W(TW), .NP(5), .NM(4)) u_full_part (
              .p_i({used, s1, s2, q, n}), .m_i({size, res, rf, rf2}), .gt_o(full_part));
            mmu_adm_sumgt #(.W(TW), .NP(2), .NM(2)) u_th (.p_i({res, th}), .m_i({q, dq}), .gt_o(th_above));
            wire over = !past_res ? 1'b0 : (below_res ? full_part : full_n) ? 1'b1 : th == '0 || !th_above;
            if (sd == 0) begin : g_in
              assign t_in_p[p] = over;
              // dsh's shared segment: pool + grow_of(q + dq, n, res) > size (the growth 0:
              // pool > size).
              if (POLICIES[mmu_adm_pkg::POLICY_DSH]) begin : g_seg
                wire full_0;
                mmu_adm_sumgt #(.W(TW), .NP(3), .NM(3)) u_full_0 (
                  .p_i({used, g1, g2}), .m_i({size, rf, rf2}), .gt_o(full_0));
                assign t_seg_p[p] = past_res ? (below_res ? full_part : full_n) : full_0;
              end else begin : g_no_seg
                assign t_seg_p[p] = 1'b0;
              end
            end else begin : g_eg
              assign t_eg_p[p] = over;
            end
          end
        end
        wire t_eg = t_eg_p[s_epool];
        wire t_px;
        mmu_adm_sumgt #(.W(TW), .NP(3), .NM(1)) u_hx (.p_i({TW'(m_vb_hdrm), dh, n}), .m_i(xoff), .gt_o(t_px));
        // dsh's lossless PGs: the shared segment for the ingress test, the port's insurance
        // headroom for the PG's (its cells plus Q's when Q went there from X's port).
        wire t_in, t_hx;
        if (POLICIES[mmu_adm_pkg::POLICY_DSH]) begin : g_dsh
          wire sq_p = b_valid && b_in == m_b_in;  // Q names X's ingress port
          // X is a lossless PG under dsh (m_look's top bit: X's lossless bit).
          wire s_dsh_ll = cfg_policy == mmu_adm_pkg::POLICY_DSH && m_look[LW-1];
          wire [TW-1:0] dpi = HD && sq_p ? qn : '0;
          // Over the insurance headroom, the largest xoff of the port's lossless PGs'
          // profiles (0 for none): over 0 and over each such xoff, one compare per profile
          // in parallel with the read of the port's profiles (no maximum in front).
          wire [NPROF-1:0] pmask = dsh_pmask[m_b_in*NPROF +: NPROF];
          wire [TW-1:0] ins_sum_0 = TW'(m_vb_port_ins) | dpi | n;  // non-zero iff the sum is
          logic [NPROF-1:0] ins_gt;
          for (genvar f = 0; f < NPROF; f++) begin : g_ins
            mmu_adm_sumgt #(.W(TW), .NP(3), .NM(1)) u_ins (
              .p_i({TW'(m_vb_port_ins), dpi, n}), .m_i(TW'(ip_xoff[f*CW +: CW])), .gt_o(ins_gt[f]));
          end
          wire t_ins = ins_sum_0 != '0 && &(ins_gt | ~pmask);
          assign t_in = s_dsh_ll ? t_seg_p[s_ipool] : t_in_p[s_ipool];
          assign t_hx = s_dsh_ll ? t_ins : t_px;
        end else begin : g_no_dsh
          assign {t_in, t_hx} = {t_in_p[s_ipool], t_px};
        end
        wire [TW-1:0] hq = HD ? qn : '0;
        wire [KW-1:0] hf_d = KW'(hcap) + KW'(rfq_h) - KW'(hdrm_used) - KW'(hq) - KW'(n);
        wire t_hf = hf_d[KW-1];
        wire [TW-1:0] bq = ADM ? qn : '0;
        wire t_bf;
        mmu_adm_sumgt #(.W(TW), .NP(3), .NM(2)) u_bf (
          .p_i({TW'(total_used), bq, n}), .m_i({TW'(cfg_buffer), TW'(rfq_t)}), .gt_o(t_bf));
        always_ff @(posedge clk_i) t_q[o*5 +: 5] <= {t_bf, t_hf, t_hx, t_eg, t_in};
      end
      // The decide stage: Q's registered verdict selects.
      wire [1:0] t_o = rsp_valid_o && rsp_verdict_o != 2'd3 ? rsp_verdict_o : 2'd2;
      assign t_sel = t_q[t_o*5 +: 5];
    end else begin : g_look1
      assign {m_look, l_look} = {look, look};
      assign {t_sel, rs_iq, rs_eq, rs_pt, a_xon_q, a_xoff_q, a_ith_q, dq_iq, dq_eq, dq_pt, dq_ptl, dq_nr} = '0;
      assign {a_xq_q, a_xpn_q, b_xq_q, b_xp_q} = '0;
    end
    always_ff @(posedge clk_i)
      {b_ll, a_ll, b_eres, a_eres, b_ires, a_ires, b_epool, a_epool, b_ipool, a_ipool, b_epf, a_epf, b_ipf, a_ipf}
          <= m_look;
  end else begin : g_lookup_comb
    assign {t_sel, rs_iq, rs_eq, rs_pt, a_xon_q, a_xoff_q, a_ith_q, dq_iq, dq_eq, dq_pt, dq_ptl, dq_nr} = '0;
    assign {a_xq_q, a_xpn_q, b_xq_q, b_xp_q} = '0;
    assign {a_ipf, a_epf, b_ipf, b_epf} = {st_a_ipf, st_a_epf, st_b_ipf, st_b_epf};
    assign {a_ll, b_ll} = {st_a_ll, q_lossless[r_b_ii]};
    assign {a_ipool, a_epool} = {ip_pool[a_ipf*4 +: PLW], ep_pool[a_epf*4 +: PLW]};
    assign {a_ires, a_eres} = {ip_reserved[a_ipf*CW +: CW], ep_reserved[a_epf*CW +: CW]};
    assign {b_ipool, b_epool} = {ip_pool[b_ipf*4 +: PLW], ep_pool[b_epf*4 +: PLW]};
    assign {b_ires, b_eres} = {ip_reserved[b_ipf*CW +: CW], ep_reserved[b_epf*CW +: CW]};
  end

  // The view: with PIPE 1 registered at the end of stage 1 from the entries as this
  // cycle's stage-2 writes leave them (slot b's write wins, as in the memories; a policy
  // change clears the filters), else the entries read in stage 2.
  // PIPE 3: registered so by the memory stage (m_v*), and again by the test stage with the
  // decide stage's writes of its cycle.
  if (PIPE != 0) begin : g_view_reg
    /* verilator lint_off UNUSEDSIGNAL */ // the port flags: dsh only
    wire fa_a_iq = a_wr_iq && a_ii == r_a_ii, fb_a_iq = b_wr_iq && b_ii == r_a_ii;
    wire fa_b_iq = a_wr_iq && a_ii == r_b_ii, fb_b_iq = b_wr_iq && b_ii == r_b_ii;
    wire fa_a_eq = a_wr_eq && a_ei == r_a_ei, fb_a_eq = b_wr_eq && b_ei == r_a_ei;
    wire fa_b_eq = a_wr_eq && a_ei == r_b_ei, fb_b_eq = b_wr_eq && b_ei == r_b_ei;
    wire fa_a_pt = a_wr_port && a_in == r_a_port, fb_a_pt = b_wr_port && b_in == r_a_port;
    wire fa_b_pt = a_wr_port && a_in == r_b_port, fb_b_pt = b_wr_port && b_in == r_b_port;
    /* verilator lint_on UNUSEDSIGNAL */
    // PIPE 3: the pause bits are registered without the release's forward (its XON test
    // ends at pw_bit and a flag instead, m_fa_*), which the next cycle selects.
    logic m_va_paused, m_vb_paused;
    /* verilator lint_off UNUSEDSIGNAL */ // PIPE 3 only
    logic m_fa_a, m_fa_b;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [CW-1:0] m_va_ing, m_va_hdrm, m_va_egr;
    always_ff @(posedge clk_i) begin
      m_fa_a <= P3 && fa_a_iq;
      m_fa_b <= P3 && fa_b_iq;
      m_va_ing <= fb_a_iq ? b_ing : fa_a_iq ? a_ing : rd_ing_a;
      m_va_hdrm <= fb_a_iq ? b_hdrm : fa_a_iq ? a_hdrm : rd_hdrm_a;
      m_va_paused <= fb_a_iq ? b_paused : !P3 && fa_a_iq ? a_paused : (pw_we && pw_ii == r_a_ii ? pw_bit : paused_q[r_a_ii]);
      m_va_egr <= fb_a_eq ? b_egr : fa_a_eq ? a_egr : rd_egr_a;
      m_vb_ing <= fb_b_iq ? b_ing : fa_b_iq ? a_ing : rd_ing_b;
      m_vb_hdrm <= fb_b_iq ? b_hdrm : fa_b_iq ? a_hdrm : rd_hdrm_b;
      m_vb_paused <= fb_b_iq ? b_paused : !P3 && fa_b_iq ? a_paused : (pw_we && pw_ii == r_b_ii ? pw_bit : paused_q[r_b_ii]);
      m_vb_egr <= fb_b_eq ? b_egr : fa_b_eq ? a_egr : rd_egr_b;
    end
    if (P3) begin : g_view3
      wire ta_a_iq = a_wr_iq && a_ii == m_a_ii, tb_a_iq = b_wr_iq && b_ii == m_a_ii;
      wire ta_b_iq = a_wr_iq && a_ii == m_b_ii, tb_b_iq = b_wr_iq && b_ii == m_b_ii;
      wire ta_a_eq = a_wr_eq && a_ei == m_a_ei, tb_a_eq = b_wr_eq && b_ei == m_a_ei;
      wire ta_b_eq = a_wr_eq && a_ei == m_b_ei, tb_b_eq = b_wr_eq && b_ei == m_b_ei;
      // The pause bits likewise: the registers without the release's forward, its flag
      // (t_fa_*) selecting pw_bit (the release's bit, a cycle later) in the decide stage.
      logic va_pq, vb_pq, t_fa_a, t_fa_b;
      always_ff @(posedge clk_i) begin
        va_pq <= tb_a_iq ? b_paused : m_fa_a ? pw_bit : m_va_paused;
        vb_pq <= tb_b_iq ? b_paused : m_fa_b ? pw_bit : m_vb_paused;
        t_fa_a <= ta_a_iq;
        t_fa_b <= ta_b_iq;
      end
      assign va_paused = t_fa_a ? pw_bit : va_pq;
      assign vb_paused = t_fa_b ? pw_bit : vb_pq;
      always_ff @(posedge clk_i) begin
        va_ing <= tb_a_iq ? b_ing : ta_a_iq ? a_ing : m_va_ing;
        va_hdrm <= tb_a_iq ? b_hdrm : ta_a_iq ? a_hdrm : m_va_hdrm;
        va_egr <= tb_a_eq ? b_egr : ta_a_eq ? a_egr : m_va_egr;
        vb_ing <= tb_b_iq ? b_ing : ta_b_iq ? a_ing : m_vb_ing;
        vb_hdrm <= tb_b_iq ? b_hdrm : ta_b_iq ? a_hdrm : m_vb_hdrm;
        vb_egr <= tb_b_eq ? b_egr : ta_b_eq ? a_egr : m_vb_egr;
      end
    end else begin : g_view1
      assign {va_ing, va_hdrm, va_paused, va_egr} = {m_va_ing, m_va_hdrm, m_va_paused, m_va_egr};
      assign {vb_ing, vb_hdrm, vb_paused, vb_egr} = {m_vb_ing, m_vb_hdrm, m_vb_paused, m_vb_egr};
    end
    if (POLICIES[mmu_adm_pkg::POLICY_REVERIE]) begin : g_avg
      always_ff @(posedge clk_i) begin
        va_avg_in <= cfg_policy_set ? '0 : fb_a_iq ? b_avg_in : fa_a_iq ? a_avg_in : rd_avg_in_a;
        va_avg_eg <= cfg_policy_set ? '0 : fb_a_eq ? b_avg_eg : fa_a_eq ? a_avg_eg : rd_avg_eg_a;
        vb_avg_in <= cfg_policy_set ? '0 : fb_b_iq ? b_avg_in : fa_b_iq ? a_avg_in : rd_avg_in_b;
        vb_avg_eg <= cfg_policy_set ? '0 : fb_b_eq ? b_avg_eg : fa_b_eq ? a_avg_eg : rd_avg_eg_b;
      end
    end else begin : g_no_avg
      assign {va_avg_in, va_avg_eg, vb_avg_in, vb_avg_eg} = '0;
    end
    if (POLICIES[mmu_adm_pkg::POLICY_DSH]) begin : g_port
      logic m_va_port_paused, m_vb_port_paused;
      logic [CW-1:0] m_va_port_shared, m_va_port_ins, m_vb_port_shared;
      always_ff @(posedge clk_i) begin
        m_va_port_paused <= fb_a_pt ? b_port_paused : fa_a_pt ? a_port_paused : port_paused[r_a_port];
        m_va_port_shared <= fb_a_pt ? b_port_shared : fa_a_pt ? a_port_shared : rd_port_shared_a;
        m_va_port_ins <= fb_a_pt ? b_port_ins : fa_a_pt ? a_port_ins : rd_port_ins_a;
        m_vb_port_paused <= fb_b_pt ? b_port_paused : fa_b_pt ? a_port_paused : port_paused[r_b_port];
        m_vb_port_shared <= fb_b_pt ? b_port_shared : fa_b_pt ? a_port_shared : rd_port_shared_b;
        m_vb_port_ins <= fb_b_pt ? b_port_ins : fa_b_pt ? a_port_ins : rd_port_ins_b;
      end
      // PIPE 3: registered again by the test stage with the decide stage's writes.
      if (P3) begin : g_port3
        wire ta_a_pt = a_wr_port && a_in == m_a_in, tb_a_pt = b_wr_port && b_in == m_a_in;
        wire ta_b_pt = a_wr_port && a_in == m_b_in, tb_b_pt = b_wr_port && b_in == m_b_in;
        always_ff @(posedge clk_i) begin
          va_port_paused <= tb_a_pt ? b_port_paused : ta_a_pt ? a_port_paused : m_va_port_paused;
          va_port_shared <= tb_a_pt ? b_port_shared : ta_a_pt ? a_port_shared : m_va_port_shared;
          va_port_ins <= tb_a_pt ? b_port_ins : ta_a_pt ? a_port_ins : m_va_port_ins;
          vb_port_paused <= tb_b_pt ? b_port_paused : ta_b_pt ? a_port_paused : m_vb_port_paused;
          vb_port_shared <= tb_b_pt ? b_port_shared : ta_b_pt ? a_port_shared : m_vb_port_shared;
          vb_port_ins <= tb_b_pt ? b_port_ins : ta_b_pt ? a_port_ins : m_vb_port_ins;
        end
      end else begin : g_port1
        assign {va_port_paused, va_port_shared, va_port_ins} = {m_va_port_paused, m_va_port_shared, m_va_port_ins};
        assign {vb_port_paused, vb_port_shared, vb_port_ins} = {m_vb_port_paused, m_vb_port_shared, m_vb_port_ins};
      end
    end else begin : g_no_port
      assign {va_port_paused, va_port_shared, va_port_ins, vb_port_paused, vb_port_shared, vb_port_ins} = '0;
      assign m_vb_port_ins = '0;
    end
  end else begin : g_view_comb
    assign {va_ing, va_hdrm, va_paused, va_egr} = {rd_ing_a, rd_hdrm_a, paused_q[r_a_ii], rd_egr_a};
    assign {vb_ing, vb_hdrm, vb_paused, vb_egr} = {rd_ing_b, rd_hdrm_b, paused_q[r_b_ii], rd_egr_b};
    assign {m_vb_ing, m_vb_hdrm, m_vb_egr, m_vb_port_ins} = '0;  // PIPE 3's
    assign {va_avg_in, va_avg_eg, vb_avg_in, vb_avg_eg} = {rd_avg_in_a, rd_avg_eg_a, rd_avg_in_b, rd_avg_eg_b};
    assign {va_port_paused, va_port_shared, va_port_ins} = {port_paused[r_a_port], rd_port_shared_a, rd_port_ins_a};
    assign {vb_port_paused, vb_port_shared, vb_port_ins} = {port_paused[r_b_port], rd_port_shared_b, rd_port_ins_b};
  end
  always_ff @(posedge clk_i) begin
    if (a_wr_iq) begin
      ing_q[a_ii] <= a_ing;
      hdrm_q[a_ii] <= a_hdrm;
    end
    if (b_wr_iq) begin
      ing_q[b_ii] <= b_ing;
      hdrm_q[b_ii] <= b_hdrm;
    end
    if (a_wr_eq) egr_q[a_ei] <= a_egr;
    if (b_wr_eq) egr_q[b_ei] <= b_egr;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ing_valid <= '0;
      egr_valid <= '0;
      paused_q <= '0;
      {pw_we, pw_bit, pw_ii} <= '0;
    end else begin
      // The pending write lands before the request's of this cycle, which is newer.
      if (P3 && pw_we) paused_q[pw_ii] <= pw_bit;
      {pw_we, pw_bit, pw_ii} <= P3 ? {a_wr_iq, a_paused, a_ii} : '0;
      if (a_wr_iq) begin
        ing_valid[a_ii] <= 1'b1;
        if (!P3) paused_q[a_ii] <= a_paused;
      end
      if (b_wr_iq) begin
        ing_valid[b_ii] <= 1'b1;
        paused_q[b_ii] <= b_paused;
      end
      if (a_wr_eq) egr_valid[a_ei] <= 1'b1;
      if (b_wr_eq) egr_valid[b_ei] <= 1'b1;
    end
  end

  // Policy state exists only with its policy (POLICIES): reverie's filters and n_p
  // counters, dsh's port pause state and port counters. Left out, it reads constant zero.
  // A policy change (on an empty buffer: the CSR's rule) restarts the filters, as the
  // golden core builds a new policy; n_p and the dsh port counters are zero already then.
  mmu_adm_qmem #(.W(AW), .N(NQ), .NR(NRD), .ENABLE(POLICIES[mmu_adm_pkg::POLICY_REVERIE])) u_avg_in (
    .clk_i, .rst_ni, .clear_i(cfg_policy_set),
    .a_we_i(a_wr_iq), .a_addr_i(a_ii), .a_wd_i(a_avg_in), .b_we_i(b_fire), .b_addr_i(b_ii), .b_wd_i(b_avg_in),
    .raddr_i(rd_avg_in_addr), .rdata_o(rd_avg_in)
  );
  mmu_adm_qmem #(.W(AW), .N(NQ), .NR(NRD), .ENABLE(POLICIES[mmu_adm_pkg::POLICY_REVERIE])) u_avg_eg (
    .clk_i, .rst_ni, .clear_i(cfg_policy_set),
    .a_we_i(a_wr_eq), .a_addr_i(a_ei), .a_wd_i(a_avg_eg), .b_we_i(b_fire), .b_addr_i(b_ei), .b_wd_i(b_avg_eg),
    .raddr_i(rd_avg_eg_addr), .rdata_o(rd_avg_eg)
  );

  // n_p is at most 2 NPORTS (a priority's ingress and egress queues): stored in NCW bits.
  for (genvar p = 0; p < 8; p++) begin : g_prio
    if (POLICIES[1]) begin : g_on
      logic [NCW-1:0] n_r;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) n_r <= '0;
        else if (b_fire && b_np == 3'(p)) n_r <= NCW'(b_ncong);
        else if (a_fire && a_np == 3'(p)) n_r <= NCW'(a_ncong);
      end
      assign ncong[p*(QW+1) +: (QW+1)] = (QW+1)'(n_r);
    end else begin : g_off
      assign ncong[p*(QW+1) +: (QW+1)] = '0;
    end
  end

  if (POLICIES[2]) begin : g_port
    always_ff @(posedge clk_i) begin
      if (a_wr_port) begin
        port_shared[a_in] <= a_port_shared;
        port_ins[a_in] <= a_port_ins;
      end
      if (b_wr_port) begin
        port_shared[b_in] <= b_port_shared;
        port_ins[b_in] <= b_port_ins;
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        port_valid <= '0;
        port_paused <= '0;
      end else begin
        if (a_wr_port) begin
          port_valid[a_in] <= 1'b1;
          port_paused[a_in] <= a_port_paused;
        end
        if (b_wr_port) begin
          port_valid[b_in] <= 1'b1;
          port_paused[b_in] <= b_port_paused;
        end
      end
    end
  end else begin : g_no_port
    assign port_valid = '0;
    assign port_paused = '0;
  end

  // The shared counters. PIPE 3: the release's refund is registered (rfq_*) and taken off
  // a cycle later, by the request's next values (its view is the registers less rfq_*) or
  // alone.
  if (P3) begin : g_shared3
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        pool_used <= '0;
        hdrm_used <= '0;
        total_used <= '0;
        {rfq_pool, rfq_h, rfq_t} <= '0;
      end else begin
        {rfq_pool, rfq_h, rfq_t} <= a_fire ? {a_rfp_pool_used, a_rf_hdrm_used, a_rf_total} : '0;
        if (b_fire) begin
          pool_used <= b_pool_used;
          hdrm_used <= b_hdrm_used;
          total_used <= b_total;
        end else begin
          pool_used <= pool_now;
          hdrm_used <= hdrm_now;
          total_used <= total_now;
        end
      end
    end
  end else begin : g_shared
    assign {rfq_pool, rfq_h, rfq_t} = '0;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        pool_used <= '0;
        hdrm_used <= '0;
        total_used <= '0;
      end else if (b_fire) begin
        pool_used <= b_pool_used;
        hdrm_used <= b_hdrm_used;
        total_used <= b_total;
      end else if (a_fire) begin
        pool_used <= a_pool_used;
        hdrm_used <= a_hdrm_used;
        total_used <= a_total;
      end
    end
  end

  // Responses, registered at the end of the decide stage.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_valid_o <= 1'b0;
      rsp_verdict_o <= mmu_adm_pkg::VERDICT_DROP;
      rsp_pfc_o <= mmu_adm_pkg::PFC_NONE;
      rsp_port_pfc_o <= mmu_adm_pkg::PFC_NONE;
      rsp_reason_o <= mmu_adm_pkg::REASON_NONE;
      rel_rsp_valid_o <= 1'b0;
      rel_rsp_pfc_o <= mmu_adm_pkg::PFC_NONE;
      rel_rsp_port_pfc_o <= mmu_adm_pkg::PFC_NONE;
      stat_underflow_o <= 1'b0;
    end else begin
      rsp_valid_o <= b_valid;
      rsp_verdict_o <= b_verdict;
      rsp_pfc_o <= b_pfc;
      rsp_port_pfc_o <= b_port_pfc;
      rsp_reason_o <= b_reason;
      rel_rsp_valid_o <= a_valid;
      rel_rsp_pfc_o <= a_valid ? a_pfc : mmu_adm_pkg::PFC_NONE;
      rel_rsp_port_pfc_o <= a_valid ? a_port_pfc : mmu_adm_pkg::PFC_NONE;
      if (a_valid && a_underflow) stat_underflow_o <= 1'b1;
    end
  end

  assign stat_total_o = total_now;
  assign stat_hdrm_pool_o = hdrm_now;

  // ---------------------------------------------------------------------------------
  // Debug/state read port: a lane's address is {region, index}, its word one zero-extended
  // entry; an index past the region reads zero. The state map (hw-model/cosim/state_map.h
  // holds the same table): region and index range
  //   0 ing_q, 1 hdrm_q, 2 egr_q, 3 paused_q, 4 avg_in_q, 5 avg_eg_q   queue 0..NQ-1
  //   6 ncong                                                           priority 0..7
  //   7 port_paused, 8 port_shared, 9 port_ins                          port 0..NPORTS-1
  //   10 pool_used                                                      pool 0..NPOOLS-1
  //   11 0: total_used, 1: hdrm_used, 2: stat_underflow_o
  // ---------------------------------------------------------------------------------
  for (genvar l = 0; l < DBG_LANES; l++) begin : g_dbg
    wire [3:0]    dbg_region = dbg_addr_i[16*l+12 +: 4];
    wire [11:0]   dbg_index = dbg_addr_i[16*l +: 12];
    wire          dbg_in_q = 32'(dbg_index) < NQ;
    wire          dbg_in_port = 32'(dbg_index) < NPORTS;
    wire [QW-1:0] dbg_q = dbg_in_q ? dbg_index[QW-1:0] : '0;
    wire [PW-1:0] dbg_p = dbg_in_port ? dbg_index[PW-1:0] : '0;
    logic [63:0]  dbg_word;
    wire          dbg_paused = pw_we && pw_ii == dbg_q ? pw_bit : paused_q[dbg_q];
    assign rd_avg_in_addr[(2+l)*QW +: QW] = dbg_q;
    assign rd_avg_eg_addr[(2+l)*QW +: QW] = dbg_q;
    always_comb begin
      dbg_word = '0;
      case (dbg_region)
        4'd0: if (dbg_in_q && ing_valid[dbg_q]) dbg_word = 64'(ing_q[dbg_q]);
        4'd1: if (dbg_in_q && ing_valid[dbg_q]) dbg_word = 64'(hdrm_q[dbg_q]);
        4'd2: if (dbg_in_q && egr_valid[dbg_q]) dbg_word = 64'(egr_q[dbg_q]);
        4'd3: if (dbg_in_q) dbg_word = 64'(dbg_paused);
        4'd4: if (dbg_in_q) dbg_word = 64'(rd_avg_in[(2+l)*AW +: AW]);
        4'd5: if (dbg_in_q) dbg_word = 64'(rd_avg_eg[(2+l)*AW +: AW]);
        4'd6: if (dbg_index < 12'd8) dbg_word = 64'(ncong[dbg_index[2:0]*(QW+1) +: (QW+1)]);
        4'd7: if (dbg_in_port) dbg_word = 64'(port_paused[dbg_p]);
        4'd8: if (dbg_in_port && port_valid[dbg_p]) dbg_word = 64'(port_shared[dbg_p]);
        4'd9: if (dbg_in_port && port_valid[dbg_p]) dbg_word = 64'(port_ins[dbg_p]);
        4'd10: if (32'(dbg_index) < NPOOLS) dbg_word = 64'(pool_now[dbg_index[PLW-1:0]*CW +: CW]);
        4'd11:
          case (dbg_index)
            12'd0: dbg_word = 64'(total_now);
            12'd1: dbg_word = 64'(hdrm_now);
            12'd2: dbg_word = 64'(stat_underflow_o);
            default: ;
          endcase
        default: ;
      endcase
    end
    assign dbg_data_o[64*l +: 64] = dbg_word | abm_dbg[64*l +: 64];  // mmu_adm_rate's words
  end
  if (DBG_LANES == 0) begin : g_no_dbg
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_dbg = ^dbg_addr_i ^ ^abm_dbg;
    /* verilator lint_on UNUSEDSIGNAL */
    assign dbg_data_o = '0;
  end

  // ---------------------------------------------------------------------------------
  // CSR block, generated from rtl/regmap.json (scripts/gen_regs.py), and the unit's hook.
  // ---------------------------------------------------------------------------------
  // Hook: the block refuses what the map states (enum values, ranges, quiesce); the unit
  // also refuses a policy it was built without, and resets to the first one it has.
  localparam logic [31:0] POLICY_MASK = 32'(POLICIES);
  wire [2:0] csr_hook_policy;
  wire       csr_hook_policy_bad = !POLICY_MASK[5'(csr_hook_policy)];
  // The first policy the unit has.
  localparam logic [2:0] POLICY_RESET = POLICIES[0] ? mmu_adm_pkg::POLICY_DT :
                                        POLICIES[1] ? mmu_adm_pkg::POLICY_REVERIE :
                                        POLICIES[2] ? mmu_adm_pkg::POLICY_DSH :
                                        POLICIES[3] ? mmu_adm_pkg::POLICY_STATIC :
                                        POLICIES[4] ? mmu_adm_pkg::POLICY_SIH : mmu_adm_pkg::POLICY_ABM;
  // A named net, not an expression on the port: yosys 0.23 otherwise re-derives the top
  // module under a $paramod name and loses it.
  // Quiesce fields keep their values while the buffer holds cells or a request is in
  // flight: looked up on the old fields and not yet written back (PIPE 0: the request of
  // the write's cycle; PIPE 1 and 3: every one taken in an earlier cycle), it would charge
  // what its release, looked up on the new ones, does not refund. A request taken in the
  // write's cycle by a pipelined unit is looked up on the written value (mmu_adm_lookup).
  wire req_in_flight = b_valid || (P3 && (l_b_valid || m_b_valid));
  wire csr_busy = total_now != '0 || req_in_flight;

  mmu_adm_csr #(
    .NPORTS(NPORTS), .NPRIO(NPRIO), .CW(CW), .NPOOLS(NPOOLS), .NPROF(NPROF), .CTRL_POLICY_RESET(POLICY_RESET)
  ) u_csr (
    .clk_i, .rst_ni,
    .cfg_valid_i, .cfg_ready_o, .cfg_write_i, .cfg_addr_i, .cfg_wdata_i,
    .cfg_rvalid_o, .cfg_rdata_o, .cfg_error_o,
    .busy_i(csr_busy),
    .hook_ctrl_policy_o(csr_hook_policy), .hook_ctrl_policy_bad_i(csr_hook_policy_bad),
    .reg2hw_ctrl_policy_o(cfg_policy), .reg2hw_ctrl_policy_set_o(cfg_policy_set),
    .reg2hw_ctrl_ewma_rule_o(cfg_ewma_rule), .reg2hw_ctrl_ewma_clamp_o(cfg_ewma_clamp),
    .reg2hw_ctrl_ewma_k_o(cfg_ewma_k), .reg2hw_buffer_cells_cells_o(cfg_buffer),
    .reg2hw_hdrm_pool_cells_cells_o(cfg_hdrm_pool), .reg2hw_congested_cells_cells_o(cfg_congested),
    .reg2hw_dsh_port_xon_offset_cells_o(cfg_dsh_port_xon_off), .reg2hw_thresh_period_cycles_o(cfg_thresh_period), .reg2hw_pool_size_cells_o(cfg_pool_size),
    .reg2hw_abm_interval_log2_o(cfg_abm_interval), .reg2hw_abm_port_cells_cells_o(cfg_abm_cap),
    .reg2hw_iprof_mode_pool_o(ip_pool), .reg2hw_iprof_mode_dynamic_o(ip_dynamic),
    .reg2hw_iprof_mode_shift_o(ip_shift), .reg2hw_iprof_reserved_cells_o(ip_reserved),
    .reg2hw_iprof_static_cells_o(ip_static), .reg2hw_iprof_xoff_cells_o(ip_xoff),
    .reg2hw_iprof_xon_cells_o(ip_xon), .reg2hw_iprof_xon_offset_cells_o(ip_xon_offset),
    .reg2hw_eprof_mode_pool_o(ep_pool), .reg2hw_eprof_mode_dynamic_o(ep_dynamic),
    .reg2hw_eprof_mode_shift_o(ep_shift), .reg2hw_eprof_reserved_cells_o(ep_reserved),
    .reg2hw_eprof_static_cells_o(ep_static),
    .reg2hw_qmap_pg_profile_o(q_pg_prof), .reg2hw_qmap_queue_profile_o(q_queue_prof),
    .reg2hw_qmap_lossless_o(q_lossless),
    .reg2hw_we_o(cfg_we),
    .reg2hw_iprof_mode_we_o(ip_pool_we), .reg2hw_iprof_mode_wsel_o(ip_pool_wsel),
    .reg2hw_iprof_xoff_wsel_o(ip_xoff_wsel), .reg2hw_qmap_wsel_o(qmap_wsel), .reg2hw_iprof_mode_widx_o(ip_pool_widx),
    .reg2hw_iprof_mode_pool_wd_o(ip_pool_wd), .reg2hw_iprof_xoff_we_o(ip_xoff_we),
    .reg2hw_iprof_xoff_widx_o(ip_xoff_widx), .reg2hw_iprof_xoff_cells_wd_o(ip_xoff_wd),
    .reg2hw_qmap_we_o(qmap_we), .reg2hw_qmap_widx_o(qmap_widx), .reg2hw_qmap_pg_profile_wd_o(q_pg_prof_wd),
    .reg2hw_qmap_lossless_wd_o(q_lossless_wd), .reg2hw_qmap_queue_profile_wd_o(q_queue_prof_wd),
    .reg2hw_eprof_mode_wsel_o(ep_pool_wsel), .reg2hw_eprof_mode_widx_o(ep_pool_widx),
    .reg2hw_eprof_mode_pool_wd_o(ep_pool_wd),
    .reg2hw_iprof_reserved_wsel_o(ip_res_wsel),
    .reg2hw_iprof_reserved_widx_o(ip_res_widx), .reg2hw_iprof_reserved_cells_wd_o(ip_res_wd),
    .reg2hw_eprof_reserved_wsel_o(ep_res_wsel),
    .reg2hw_eprof_reserved_widx_o(ep_res_widx), .reg2hw_eprof_reserved_cells_wd_o(ep_res_wd),
    /* verilator lint_off PINCONNECTEMPTY */ // the look-up takes the accepted write from reg2hw_we_o
    .reg2hw_eprof_mode_we_o(), .reg2hw_iprof_reserved_we_o(), .reg2hw_eprof_reserved_we_o(),
    /* verilator lint_on PINCONNECTEMPTY */
    .hw2reg_stat_total_cells_i(total_now), .hw2reg_stat_hdrm_pool_cells_i(hdrm_now),
    .hw2reg_stat_pool_used_cells_i(pool_now),
    .hw2reg_stat_decisions_inc_i(b_valid),
    .hw2reg_stat_drops_inc_i(b_valid && b_verdict == mmu_adm_pkg::VERDICT_DROP)
  );

`ifndef SYNTHESIS
`ifdef MMU_ASSERT
  // Invariants of the whole unit (verilator --assert); each datapath checks its own
  // operation (mmu_adm_op). (Verilator 5.006 mis-generates an assertion on the request
  // datapath's outputs in SystemC mode, hence the registered response here.)
  // The buffer size the responding operation was tested on: the last cycle's (its decide
  // stage's), or with PIPE 3 the cycle's before (its test stage's).
  logic [CW-1:0] buffer_prev, buffer_prev2;
  always_ff @(posedge clk_i) {buffer_prev2, buffer_prev} <= {buffer_prev, cfg_buffer};
  wire [CW-1:0] buffer_tested = P3 ? buffer_prev2 : buffer_prev;
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(a_valid && a_underflow)) else $error("release of more cells than a counter holds");
      // An admission never takes the buffer past the size it was tested on (the occupancy
      // may sit above BUFFER_CELLS after software shrinks it under load).
      assert (!(rsp_valid_o && rsp_verdict_o != mmu_adm_pkg::VERDICT_DROP) || total_used <= buffer_tested)
        else $error("admission beyond the buffer size");
    end
  end
`endif
`endif

endmodule

`undef MMU_PARAM_CHECK
`default_nettype wire
