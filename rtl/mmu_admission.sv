// Admission unit of the shared-buffer MMU: SONiC counters, dt/reverie/dsh thresholds, PFC state.
//
// One operation per cycle: a release (departure) when rel_valid, else an admission request.
// A request's verdict appears on rsp_* one cycle after it is accepted (latency 1); a
// release's XON events on rel_rsp_* likewise. Configuration through the CSR port
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
  // Policies in the netlist, a mask of 1 << POLICY_*: bit 0 dt, 1 reverie, 2 dsh. A
  // policy left out is refused by the CSR and its logic and state are constant, so
  // synthesis removes them (scripts/ppa measures each policy's cost this way).
  parameter logic [2:0] POLICIES = 3'b111,
  localparam int NQ = NPORTS * NPRIO,
  localparam int PW = NPORTS > 1 ? $clog2(NPORTS) : 1,
  localparam int QW = NQ > 1 ? $clog2(NQ) : 1,
  localparam int AW = CW + EWMA_FRAC
) (
  input  wire              clk_i,
  input  wire              rst_ni,
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
  input  wire [2:0]        req_prio_i,
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
  input  wire [CELLW-1:0]  rel_cells_i,
  output logic             rel_rsp_valid_o,
  output logic [1:0]       rel_rsp_pfc_o,
  output logic [1:0]       rel_rsp_port_pfc_o,
  // Statistics.
  output logic [CW-1:0]    stat_total_o,
  output logic [CW-1:0]    stat_hdrm_pool_o,
  output logic             stat_underflow_o  // sticky: a release exceeded a counter
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
  `MMU_PARAM_CHECK(POLICIES == 3'b000, "POLICIES must name at least one policy")

  localparam logic [63:0] CMAX = (64'(1) << CW) - 1;
  localparam int PFW = NPROF > 1 ? $clog2(NPROF) : 1;   // profile index bits
  localparam int PLW = NPOOLS > 1 ? $clog2(NPOOLS) : 1; // pool index bits

  // ---------------------------------------------------------------------------------
  // Configuration registers.
  // ---------------------------------------------------------------------------------
  logic [1:0]           cfg_policy;
  // Policy decode; with one policy synthesised its decode is a constant.
  wire pol_rev = POLICIES[1] && (POLICIES == 3'b010 || cfg_policy == mmu_adm_pkg::POLICY_REVERIE);
  wire pol_dsh = POLICIES[2] && (POLICIES == 3'b100 || cfg_policy == mmu_adm_pkg::POLICY_DSH);
  logic                 cfg_ewma_rule;   // 0: update on dequeue, 1: on enqueue and dequeue
  logic                 cfg_ewma_clamp;
  logic [4:0]           cfg_ewma_k;
  logic [CW-1:0]        cfg_buffer;
  logic [CW-1:0]        cfg_hdrm_pool;
  logic [CW-1:0]        cfg_congested;
  logic [CW-1:0]        cfg_dsh_port_xon_off;
  // Tables as flat vectors, entry k at [k*W +: W] (see mmu_adm_csr).
  logic [NPOOLS*CW-1:0] cfg_pool_size;
  logic [NPROF*4-1:0]   ip_pool;
  logic [NPROF-1:0]     ip_dynamic;
  logic [NPROF*5-1:0]   ip_shift;
  logic [NPROF*CW-1:0]  ip_reserved, ip_static, ip_xoff, ip_xon, ip_xon_offset;
  logic [NPROF*4-1:0]   ep_pool;
  logic [NPROF-1:0]     ep_dynamic;
  logic [NPROF*5-1:0]   ep_shift;
  logic [NPROF*CW-1:0]  ep_reserved, ep_static;
  logic [NQ*5-1:0]      q_pg_prof, q_queue_prof;
  logic [NQ-1:0]        q_lossless;

  // ---------------------------------------------------------------------------------
  // State: the counter bank (hw-model/admission/counters.h) and policy state.
  // ---------------------------------------------------------------------------------
  // Flat vectors, entry i at [i*W +: W]: one always_ff per entry below keeps every tool
  // (Verilator, yosys 0.23, Icarus 11) on plain registers.
  logic [NQ*CW-1:0]     ing_q;        // ingress (port, PG) cells outside headroom
  logic [NQ*CW-1:0]     hdrm_q;       // ingress (port, PG) cells in headroom
  logic [NQ*CW-1:0]     egr_q;        // egress (port, queue) cells
  logic [NQ-1:0]        paused_q;     // queue-level XOFF
  logic [NQ*AW-1:0]     avg_in_q;     // reverie filter, ingress (lossless) queues
  logic [NQ*AW-1:0]     avg_eg_q;     // reverie filter, egress (lossy) queues
  logic [NPOOLS*CW-1:0] pool_used;
  logic [CW-1:0]        hdrm_used;
  logic [CW-1:0]        total_used;
  logic [8*(QW+1)-1:0]  ncong;        // reverie n_p: congested queues per priority
  logic [NPORTS-1:0]    port_paused;  // dsh port-level XOFF
  logic [NPORTS*CW-1:0] port_shared;  // dsh: lossless shared cells per port
  logic [NPORTS*CW-1:0] port_ins;     // dsh: insurance headroom cells per port

  // ---------------------------------------------------------------------------------
  // Configuration-derived values.
  // ---------------------------------------------------------------------------------
  // reverie's one shared pool: the pool of the first lossless PG (else of PG 0).
  logic [PLW-1:0] rev_pool;
  always_comb begin
    rev_pool = ip_pool[q_pg_prof[0 +: PFW]*4 +: PLW];
    for (int i = NQ - 1; i >= 0; i--) begin
      if (q_lossless[i]) rev_pool = ip_pool[q_pg_prof[i*5 +: PFW]*4 +: PLW];
    end
  end

  // dsh per port: lossless priorities (N_q) and insurance headroom (largest PG xoff).
  logic [NPORTS*4-1:0]  dsh_nq;
  logic [NPORTS*CW-1:0] dsh_ins;
  always_comb begin
    dsh_nq = '0;
    dsh_ins = '0;
    for (int p = 0; p < NPORTS; p++) begin
      for (int q = 0; q < NPRIO; q++) begin
        if (q_lossless[p*NPRIO+q]) begin
          dsh_nq[p*4 +: 4] = dsh_nq[p*4 +: 4] + 4'd1;
          if (ip_xoff[q_pg_prof[(p*NPRIO+q)*5 +: PFW]*CW +: CW] > dsh_ins[p*CW +: CW])
            dsh_ins[p*CW +: CW] = ip_xoff[q_pg_prof[(p*NPRIO+q)*5 +: PFW]*CW +: CW];
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------
  // Operation select: releases first; a request waits while a release is offered.
  // ---------------------------------------------------------------------------------
  assign rel_ready_o = 1'b1;
  assign req_ready_o = !rel_valid_i;
  wire op_rel = rel_valid_i;
  wire op_req = req_valid_i && !rel_valid_i;
  wire [PW-1:0]    op_in   = op_rel ? rel_in_port_i : req_in_port_i;
  wire [PW-1:0]    op_out  = op_rel ? rel_out_port_i : req_out_port_i;
  wire [2:0]       op_prio = op_rel ? rel_prio_i : req_prio_i;
  wire [CELLW-1:0] op_cells = op_rel ? rel_cells_i : req_cells_i;

  // Queue indices (port * NPRIO + prio).
  wire [QW-1:0] ii = QW'(op_in) * QW'(NPRIO) + QW'(op_prio);
  wire [QW-1:0] ei = QW'(op_out) * QW'(NPRIO) + QW'(op_prio);

  // The operation's profiles and their pools.
  wire [PFW-1:0] ipf = q_pg_prof[(ii)*5 +: PFW];
  wire [PFW-1:0] epf = q_queue_prof[ei*5 +: PFW];
  wire [PLW-1:0] ipool = ip_pool[ipf*4 +: PLW];
  wire [PLW-1:0] epool = ep_pool[epf*4 +: PLW];
  wire [PLW-1:0] rpool = rev_pool;
  wire ll = q_lossless[ii];

  // ---------------------------------------------------------------------------------
  // Decision and next state (combinational).
  // ---------------------------------------------------------------------------------
  logic [1:0]    n_verdict, n_pfc, n_port_pfc;
  logic [2:0]    n_reason;
  logic          n_underflow;
  logic [CW-1:0] n_ing_i, n_hdrm_i, n_egr_e;
  logic          n_paused_i;
  logic [NPOOLS*CW-1:0] n_pool_used;  // pool k at [k*CW +: CW]
  logic [CW-1:0] n_hdrm_used, n_total;
  logic [QW:0]   n_ncong;
  logic [CW-1:0] n_port_shared, n_port_ins;
  // Next policy state, unread when its policy is left out (POLICIES).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [AW-1:0] n_avg_in_i, n_avg_eg_e;
  logic          n_port_paused;
  /* verilator lint_on UNUSEDSIGNAL */

  // Shorthands, 64 bits wide like the golden core's integers.
  mmu_adm_pkg::xw_t n, q_ing, q_hdrm, q_egr, ires, eres, ith, eth, grow, egrow, g, t, xq, xp;
  mmu_adm_pkg::xw_t s, s_before, from_h, from_q, shrink, eshrink, avg, cnt_before, cnt_after, qq, res_q;
  logic over_in, over_eg, to_h, fits, is_pool_full;

  always_comb begin
    // Defaults: nothing changes.
    n_verdict = mmu_adm_pkg::VERDICT_DROP;
    n_pfc = mmu_adm_pkg::PFC_NONE;
    n_port_pfc = mmu_adm_pkg::PFC_NONE;
    n_reason = mmu_adm_pkg::REASON_NONE;
    n_underflow = 1'b0;
    n_ing_i = ing_q[ii*CW +: CW];
    n_hdrm_i = hdrm_q[ii*CW +: CW];
    n_egr_e = egr_q[ei*CW +: CW];
    n_paused_i = paused_q[ii];
    n_avg_in_i = avg_in_q[ii*AW +: AW];
    n_avg_eg_e = avg_eg_q[ei*AW +: AW];
    n_pool_used = pool_used;
    n_hdrm_used = hdrm_used;
    n_total = total_used;
    n_ncong = ncong[op_prio*(QW+1) +: (QW+1)];
    n_port_paused = port_paused[op_in];
    n_port_shared = port_shared[op_in*CW +: CW];
    n_port_ins = port_ins[op_in*CW +: CW];

    n = 64'(op_cells);
    q_ing = 64'(ing_q[ii*CW +: CW]);
    q_hdrm = 64'(hdrm_q[ii*CW +: CW]);
    q_egr = 64'(egr_q[ei*CW +: CW]);
    ires = 64'(ip_reserved[ipf*CW +: CW]);
    eres = 64'(ep_reserved[epf*CW +: CW]);
    ith = mmu_adm_pkg::dt_threshold(ip_dynamic[ipf], $signed(ip_shift[ipf*5 +: 5]), 64'(ip_static[ipf*CW +: CW]), 64'(cfg_pool_size[ipool*CW +: CW]),
                       64'(pool_used[ipool*CW +: CW]), CMAX);
    eth = mmu_adm_pkg::dt_threshold(ep_dynamic[epf], $signed(ep_shift[epf*5 +: 5]), 64'(ep_static[epf*CW +: CW]), 64'(cfg_pool_size[epool*CW +: CW]),
                       64'(pool_used[epool*CW +: CW]), CMAX);
    grow = mmu_adm_pkg::shared_part(q_ing + n, ires) - mmu_adm_pkg::shared_part(q_ing, ires);
    egrow = mmu_adm_pkg::shared_part(q_egr + n, eres) - mmu_adm_pkg::shared_part(q_egr, eres);
    over_in = mmu_adm_pkg::over(q_ing, n, ires, ith, 64'(cfg_pool_size[ipool*CW +: CW]), 64'(pool_used[ipool*CW +: CW]));
    over_eg = mmu_adm_pkg::over(q_egr, n, eres, eth, 64'(cfg_pool_size[epool*CW +: CW]), 64'(pool_used[epool*CW +: CW]));
    to_h = 1'b0;
    fits = 1'b0;
    is_pool_full = 1'b0;
    g = '0;
    t = '0;
    xq = '0;
    xp = '0;
    s = '0;
    s_before = '0;
    from_h = '0;
    from_q = '0;
    shrink = '0;
    eshrink = '0;
    avg = '0;
    cnt_before = '0;
    cnt_after = '0;
    qq = '0;
    res_q = '0;

    if (op_req && pol_rev) begin
      // ---------------- reverie admission (hw-model/admission/policies/reverie.cc)
      qq = ll ? q_ing : 64'(egr_q[ei*CW +: CW]);
      res_q = ll ? ires : eres;
      avg = ll ? 64'(avg_in_q[ii*AW +: AW]) : 64'(avg_eg_q[ei*AW +: AW]);
      if (cfg_ewma_rule) begin
        avg = mmu_adm_pkg::ewma_update(avg, mmu_adm_pkg::shared_part(qq, res_q), cfg_ewma_k, cfg_ewma_clamp, EWMA_FRAC);
        if (ll) n_avg_in_i = AW'(avg);
        else n_avg_eg_e = AW'(avg);
      end
      grow = mmu_adm_pkg::shared_part(qq + n, res_q) - mmu_adm_pkg::shared_part(qq, res_q);
      g = ll ? (ip_dynamic[ipf]
                  ? mmu_adm_pkg::dt_threshold(1'b1, $signed(ip_shift[ipf*5 +: 5]), '0, 64'(cfg_pool_size[rpool*CW +: CW]), 64'(pool_used[rpool*CW +: CW]), CMAX)
                    / (ncong[op_prio*(QW+1) +: (QW+1)] == 0 ? 64'(1) : 64'(ncong[op_prio*(QW+1) +: (QW+1)]))
                  : 64'(ip_static[ipf*CW +: CW]))
             : (ep_dynamic[epf]
                  ? mmu_adm_pkg::dt_threshold(1'b1, $signed(ep_shift[epf*5 +: 5]), '0, 64'(cfg_pool_size[rpool*CW +: CW]), 64'(pool_used[rpool*CW +: CW]), CMAX)
                    / (ncong[op_prio*(QW+1) +: (QW+1)] == 0 ? 64'(1) : 64'(ncong[op_prio*(QW+1) +: (QW+1)]))
                  : 64'(ep_static[epf*CW +: CW]));
      fits = (qq + n <= res_q) ||
             (avg <= (g << EWMA_FRAC) && 64'(pool_used[rpool*CW +: CW]) + grow <= 64'(cfg_pool_size[rpool*CW +: CW]));
      if (ll) begin
        if (paused_q[ii]) begin
          to_h = 1'b1;
        end else if (!fits) begin
          n_paused_i = 1'b1;
          n_pfc = mmu_adm_pkg::PFC_XOFF;
          to_h = 1'b1;
        end
      end
      if (ll && to_h && (q_hdrm + n > 64'(ip_xoff[ipf*CW +: CW]) || 64'(hdrm_used) + n > 64'(cfg_hdrm_pool))) begin
        n_reason = mmu_adm_pkg::REASON_HEADROOM;
      end else if (!ll && !fits) begin
        n_reason = mmu_adm_pkg::REASON_EGRESS;
      end else if (64'(total_used) + n > 64'(cfg_buffer)) begin
        n_reason = mmu_adm_pkg::REASON_BUFFER;
      end else begin
        cnt_before = qq + (ll ? q_hdrm : '0);
        if (to_h) begin
          n_hdrm_i = CW'(q_hdrm + n);
          n_hdrm_used = CW'(64'(hdrm_used) + n);
        end else begin
          if (ll) n_ing_i = CW'(q_ing + n);
          else n_egr_e = CW'(64'(egr_q[ei*CW +: CW]) + n);
          n_pool_used[rpool*CW +: CW] = CW'(64'(pool_used[rpool*CW +: CW]) + grow);
        end
        n_total = CW'(64'(total_used) + n);
        cnt_after = cnt_before + n;
        n_ncong = (QW+1)'(64'(ncong[op_prio*(QW+1) +: (QW+1)]) + (cnt_after >= 64'(cfg_congested) ? 1 : 0)
                          - (cnt_before >= 64'(cfg_congested) ? 1 : 0));
        n_verdict = to_h ? mmu_adm_pkg::VERDICT_HEADROOM : mmu_adm_pkg::VERDICT_SHARED;
      end

    end else if (op_rel && pol_rev) begin
      // ---------------- reverie release
      qq = ll ? q_ing : 64'(egr_q[ei*CW +: CW]);
      res_q = ll ? ires : eres;
      cnt_before = qq + (ll ? q_hdrm : '0);
      s_before = mmu_adm_pkg::shared_part(qq, res_q);
      from_h = ll ? (n < q_hdrm ? n : q_hdrm) : '0;
      from_q = n - from_h;
      if (from_q > qq) begin
        n_underflow = 1'b1;
      end else begin
        shrink = s_before - mmu_adm_pkg::shared_part(qq - from_q, res_q);
        n_hdrm_i = CW'(q_hdrm - from_h);
        n_hdrm_used = CW'(64'(hdrm_used) - from_h);
        if (ll) n_ing_i = CW'(qq - from_q);
        else n_egr_e = CW'(qq - from_q);
        n_pool_used[rpool*CW +: CW] = CW'(64'(pool_used[rpool*CW +: CW]) - shrink);
        n_total = CW'(64'(total_used) - n);
        cnt_after = (qq - from_q) + (ll ? q_hdrm - from_h : '0);
        n_ncong = (QW+1)'(64'(ncong[op_prio*(QW+1) +: (QW+1)]) + (cnt_after >= 64'(cfg_congested) ? 1 : 0)
                          - (cnt_before >= 64'(cfg_congested) ? 1 : 0));
        avg = mmu_adm_pkg::ewma_update(ll ? 64'(avg_in_q[ii*AW +: AW]) : 64'(avg_eg_q[ei*AW +: AW]), mmu_adm_pkg::shared_part(qq - from_q, res_q),
                          cfg_ewma_k, cfg_ewma_clamp, EWMA_FRAC);
        if (ll) n_avg_in_i = AW'(avg);
        else n_avg_eg_e = AW'(avg);
        if (ll && paused_q[ii] && q_hdrm - from_h == 0) begin
          s = mmu_adm_pkg::shared_part(qq - from_q, res_q);
          g = ip_dynamic[ipf]
                ? mmu_adm_pkg::dt_threshold(1'b1, $signed(ip_shift[ipf*5 +: 5]), '0, 64'(cfg_pool_size[rpool*CW +: CW]), 64'(n_pool_used[rpool*CW +: CW]), CMAX)
                  / (n_ncong == 0 ? 64'(1) : 64'(n_ncong))
                : 64'(ip_static[ipf*CW +: CW]);
          if (qq - from_q == 0 || s < 64'(ip_xon[ipf*CW +: CW]) ||
              ((avg + (64'(1) << EWMA_FRAC) - 1) >> EWMA_FRAC) + 64'(ip_xon_offset[ipf*CW +: CW]) <= g) begin
            n_paused_i = 1'b0;
            n_pfc = mmu_adm_pkg::PFC_XON;
          end
        end
      end

    end else if (op_req && pol_dsh && ll) begin
      // ---------------- dsh lossless admission (policies/dsh.cc)
      is_pool_full = 64'(pool_used[ipool*CW +: CW]) + grow > 64'(cfg_pool_size[ipool*CW +: CW]);
      to_h = port_paused[op_in] || is_pool_full;
      if (to_h && (64'(port_ins[op_in*CW +: CW]) + n > 64'(dsh_ins[op_in*CW +: CW]) || 64'(hdrm_used) + n > 64'(cfg_hdrm_pool))) begin
        n_reason = mmu_adm_pkg::REASON_HEADROOM;
      end else if (over_eg) begin
        n_reason = mmu_adm_pkg::REASON_EGRESS;
      end else if (64'(total_used) + n > 64'(cfg_buffer)) begin
        n_reason = mmu_adm_pkg::REASON_BUFFER;
      end else begin
        if (to_h) begin
          n_hdrm_i = CW'(q_hdrm + n);
          n_hdrm_used = CW'(64'(hdrm_used) + n);
          n_port_ins = CW'(64'(port_ins[op_in*CW +: CW]) + n);
        end else begin
          n_ing_i = CW'(q_ing + n);
          n_pool_used[ipool*CW +: CW] = CW'(64'(pool_used[ipool*CW +: CW]) + grow);
          n_port_shared = CW'(64'(port_shared[op_in*CW +: CW]) + grow);
        end
        n_egr_e = CW'(q_egr + n);
        n_pool_used[epool*CW +: CW] = CW'(64'(n_pool_used[epool*CW +: CW]) + egrow);
        n_total = CW'(64'(total_used) + n);
        n_verdict = to_h ? mmu_adm_pkg::VERDICT_HEADROOM : mmu_adm_pkg::VERDICT_SHARED;
        // Transitions on the occupancy this packet produced.
        t = mmu_adm_pkg::dt_threshold(ip_dynamic[ipf], $signed(ip_shift[ipf*5 +: 5]), 64'(ip_static[ipf*CW +: CW]), 64'(cfg_pool_size[ipool*CW +: CW]),
                         64'(n_pool_used[ipool*CW +: CW]), CMAX);
        xq = t > 64'(ip_xoff[ipf*CW +: CW]) ? t - 64'(ip_xoff[ipf*CW +: CW]) : '0;
        xp = 64'(dsh_nq[op_in*4 +: 4]) * t;
        if (xp > CMAX) xp = CMAX;
        if (!paused_q[ii] && mmu_adm_pkg::shared_part(64'(n_ing_i), ires) > xq) begin
          n_paused_i = 1'b1;
          n_pfc = mmu_adm_pkg::PFC_XOFF;
        end
        if (!port_paused[op_in] && (to_h || 64'(n_port_shared) > xp)) begin
          n_port_paused = 1'b1;
          n_port_pfc = mmu_adm_pkg::PFC_XOFF;
        end
      end

    end else if (op_rel && pol_dsh && ll) begin
      // ---------------- dsh lossless release
      s_before = mmu_adm_pkg::shared_part(q_ing, ires);
      from_h = n < q_hdrm ? n : q_hdrm;
      from_q = n - from_h;
      if (from_q > q_ing || n > q_egr || from_h > 64'(port_ins[op_in*CW +: CW])) begin
        n_underflow = 1'b1;
      end else begin
        shrink = s_before - mmu_adm_pkg::shared_part(q_ing - from_q, ires);
        eshrink = mmu_adm_pkg::shared_part(q_egr, eres) - mmu_adm_pkg::shared_part(q_egr - n, eres);
        n_hdrm_i = CW'(q_hdrm - from_h);
        n_hdrm_used = CW'(64'(hdrm_used) - from_h);
        n_ing_i = CW'(q_ing - from_q);
        n_pool_used[ipool*CW +: CW] = CW'(64'(pool_used[ipool*CW +: CW]) - shrink);
        n_egr_e = CW'(q_egr - n);
        n_pool_used[epool*CW +: CW] = CW'(64'(n_pool_used[epool*CW +: CW]) - eshrink);
        n_total = CW'(64'(total_used) - n);
        n_port_ins = CW'(64'(port_ins[op_in*CW +: CW]) - from_h);
        n_port_shared = CW'(64'(port_shared[op_in*CW +: CW]) - shrink);
        s = mmu_adm_pkg::shared_part(q_ing - from_q, ires);
        t = mmu_adm_pkg::dt_threshold(ip_dynamic[ipf], $signed(ip_shift[ipf*5 +: 5]), 64'(ip_static[ipf*CW +: CW]), 64'(cfg_pool_size[ipool*CW +: CW]),
                         64'(n_pool_used[ipool*CW +: CW]), CMAX);
        xq = t > 64'(ip_xoff[ipf*CW +: CW]) ? t - 64'(ip_xoff[ipf*CW +: CW]) : '0;
        xp = 64'(dsh_nq[op_in*4 +: 4]) * t;
        if (xp > CMAX) xp = CMAX;
        if (paused_q[ii] && (q_ing - from_q == 0 || s + 64'(ip_xon_offset[ipf*CW +: CW]) < xq)) begin
          n_paused_i = 1'b0;
          n_pfc = mmu_adm_pkg::PFC_XON;
        end
        if (port_paused[op_in] && n_port_ins == 0 &&
            (n_port_shared == 0 || 64'(n_port_shared) + 64'(cfg_dsh_port_xon_off) < xp)) begin
          n_port_paused = 1'b0;
          n_port_pfc = mmu_adm_pkg::PFC_XON;
        end
      end

    end else if (op_req) begin
      // ---------------- SONiC admission: dt, and dsh's lossy traffic (policies/sonic.cc)
      if (ll) begin
        if (paused_q[ii]) begin
          to_h = 1'b1;
        end else if (over_in) begin
          n_paused_i = 1'b1;
          n_pfc = mmu_adm_pkg::PFC_XOFF;
          to_h = 1'b1;
        end
      end
      if (ll && to_h && (q_hdrm + n > 64'(ip_xoff[ipf*CW +: CW]) || 64'(hdrm_used) + n > 64'(cfg_hdrm_pool))) begin
        n_reason = mmu_adm_pkg::REASON_HEADROOM;
      end else if (!ll && over_in) begin
        n_reason = mmu_adm_pkg::REASON_INGRESS;
      end else if (over_eg) begin
        n_reason = mmu_adm_pkg::REASON_EGRESS;
      end else if (64'(total_used) + n > 64'(cfg_buffer)) begin
        n_reason = mmu_adm_pkg::REASON_BUFFER;
      end else begin
        if (to_h) begin
          n_hdrm_i = CW'(q_hdrm + n);
          n_hdrm_used = CW'(64'(hdrm_used) + n);
        end else begin
          n_ing_i = CW'(q_ing + n);
          n_pool_used[ipool*CW +: CW] = CW'(64'(pool_used[ipool*CW +: CW]) + grow);
        end
        n_egr_e = CW'(q_egr + n);
        n_pool_used[epool*CW +: CW] = CW'(64'(n_pool_used[epool*CW +: CW]) + egrow);
        n_total = CW'(64'(total_used) + n);
        n_verdict = to_h ? mmu_adm_pkg::VERDICT_HEADROOM : mmu_adm_pkg::VERDICT_SHARED;
      end

    end else if (op_rel) begin
      // ---------------- SONiC release: headroom first, then the ingress share
      from_h = n < q_hdrm ? n : q_hdrm;
      from_q = n - from_h;
      if (from_q > q_ing || n > q_egr) begin
        n_underflow = 1'b1;
      end else begin
        shrink = mmu_adm_pkg::shared_part(q_ing, ires) - mmu_adm_pkg::shared_part(q_ing - from_q, ires);
        eshrink = mmu_adm_pkg::shared_part(q_egr, eres) - mmu_adm_pkg::shared_part(q_egr - n, eres);
        n_hdrm_i = CW'(q_hdrm - from_h);
        n_hdrm_used = CW'(64'(hdrm_used) - from_h);
        n_ing_i = CW'(q_ing - from_q);
        n_pool_used[ipool*CW +: CW] = CW'(64'(pool_used[ipool*CW +: CW]) - shrink);
        n_egr_e = CW'(q_egr - n);
        n_pool_used[epool*CW +: CW] = CW'(64'(n_pool_used[epool*CW +: CW]) - eshrink);
        n_total = CW'(64'(total_used) - n);
        if (paused_q[ii] && q_hdrm - from_h == 0) begin
          s = mmu_adm_pkg::shared_part(q_ing - from_q, ires);
          t = mmu_adm_pkg::dt_threshold(ip_dynamic[ipf], $signed(ip_shift[ipf*5 +: 5]), 64'(ip_static[ipf*CW +: CW]), 64'(cfg_pool_size[ipool*CW +: CW]),
                           64'(n_pool_used[ipool*CW +: CW]), CMAX);
          if (q_ing - from_q == 0 || s < 64'(ip_xon[ipf*CW +: CW]) || s + 64'(ip_xon_offset[ipf*CW +: CW]) <= t) begin
            n_paused_i = 1'b0;
            n_pfc = mmu_adm_pkg::PFC_XON;
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------
  // State update.
  // ---------------------------------------------------------------------------------
  wire op_fire = (op_req || op_rel) && !n_underflow;

  // Per-queue entries: written when the operation names them (ii on the ingress side,
  // ei on the egress side; the arrays are separate, so ii == ei is no conflict).
  for (genvar i = 0; i < NQ; i++) begin : g_queue
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ing_q[i*CW +: CW] <= '0;
        hdrm_q[i*CW +: CW] <= '0;
        paused_q[i] <= 1'b0;
        egr_q[i*CW +: CW] <= '0;
      end else if (op_fire) begin
        if (ii == QW'(i)) begin
          ing_q[i*CW +: CW] <= n_ing_i;
          hdrm_q[i*CW +: CW] <= n_hdrm_i;
          paused_q[i] <= n_paused_i;
        end
        if (ei == QW'(i)) egr_q[i*CW +: CW] <= n_egr_e;
      end
    end
  end

  // Policy state exists only with its policy (POLICIES): reverie's filters and n_p
  // counters, dsh's port pause state and port counters. Left out, it is constant zero.
  for (genvar i = 0; i < NQ; i++) begin : g_ewma
    if (POLICIES[1]) begin : g_on
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          avg_in_q[i*AW +: AW] <= '0;
          avg_eg_q[i*AW +: AW] <= '0;
        end else if (op_fire) begin
          if (ii == QW'(i)) avg_in_q[i*AW +: AW] <= n_avg_in_i;
          if (ei == QW'(i)) avg_eg_q[i*AW +: AW] <= n_avg_eg_e;
        end
      end
    end else begin : g_off
      assign avg_in_q[i*AW +: AW] = '0;
      assign avg_eg_q[i*AW +: AW] = '0;
    end
  end

  for (genvar p = 0; p < 8; p++) begin : g_prio
    if (POLICIES[1]) begin : g_on
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) ncong[p*(QW+1) +: (QW+1)] <= '0;
        else if (op_fire && op_prio == 3'(p)) ncong[p*(QW+1) +: (QW+1)] <= n_ncong;
      end
    end else begin : g_off
      assign ncong[p*(QW+1) +: (QW+1)] = '0;
    end
  end

  for (genvar p = 0; p < NPORTS; p++) begin : g_port
    if (POLICIES[2]) begin : g_on
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          port_paused[p] <= 1'b0;
          port_shared[p*CW +: CW] <= '0;
          port_ins[p*CW +: CW] <= '0;
        end else if (op_fire && op_in == PW'(p)) begin
          port_paused[p] <= n_port_paused;
          port_shared[p*CW +: CW] <= n_port_shared;
          port_ins[p*CW +: CW] <= n_port_ins;
        end
      end
    end else begin : g_off
      assign port_paused[p] = 1'b0;
      assign port_shared[p*CW +: CW] = '0;
      assign port_ins[p*CW +: CW] = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pool_used <= '0;
      hdrm_used <= '0;
      total_used <= '0;
    end else if (op_fire) begin
      pool_used <= n_pool_used;
      hdrm_used <= n_hdrm_used;
      total_used <= n_total;
    end
  end

  // Responses, one cycle after the operation.
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
      rsp_valid_o <= op_req;
      rsp_verdict_o <= n_verdict;
      rsp_pfc_o <= n_pfc;
      rsp_port_pfc_o <= n_port_pfc;
      rsp_reason_o <= n_reason;
      rel_rsp_valid_o <= op_rel;
      rel_rsp_pfc_o <= op_rel ? n_pfc : mmu_adm_pkg::PFC_NONE;
      rel_rsp_port_pfc_o <= op_rel ? n_port_pfc : mmu_adm_pkg::PFC_NONE;
      if (op_rel && n_underflow) stat_underflow_o <= 1'b1;
    end
  end

  assign stat_total_o = total_used;
  assign stat_hdrm_pool_o = hdrm_used;

  // ---------------------------------------------------------------------------------
  // CSR block.
  // ---------------------------------------------------------------------------------
  mmu_adm_csr #(
    .NPORTS(NPORTS), .NPRIO(NPRIO), .CW(CW), .NPOOLS(NPOOLS), .NPROF(NPROF), .POLICIES(POLICIES)
  ) u_csr (
    .clk_i, .rst_ni,
    .cfg_valid_i, .cfg_ready_o, .cfg_write_i, .cfg_addr_i, .cfg_wdata_i,
    .cfg_rvalid_o, .cfg_rdata_o, .cfg_error_o,
    .cfg_policy_o(cfg_policy), .cfg_ewma_rule_o(cfg_ewma_rule), .cfg_ewma_clamp_o(cfg_ewma_clamp),
    .cfg_ewma_k_o(cfg_ewma_k), .cfg_buffer_o(cfg_buffer), .cfg_hdrm_pool_o(cfg_hdrm_pool),
    .cfg_congested_o(cfg_congested), .cfg_dsh_port_xon_off_o(cfg_dsh_port_xon_off),
    .cfg_pool_size_o(cfg_pool_size),
    .ip_pool_o(ip_pool), .ip_dynamic_o(ip_dynamic), .ip_shift_o(ip_shift), .ip_reserved_o(ip_reserved),
    .ip_static_o(ip_static), .ip_xoff_o(ip_xoff), .ip_xon_o(ip_xon), .ip_xon_offset_o(ip_xon_offset),
    .ep_pool_o(ep_pool), .ep_dynamic_o(ep_dynamic), .ep_shift_o(ep_shift), .ep_reserved_o(ep_reserved),
    .ep_static_o(ep_static),
    .q_pg_prof_o(q_pg_prof), .q_queue_prof_o(q_queue_prof), .q_lossless_o(q_lossless),
    .stat_total_i(total_used), .stat_hdrm_pool_i(hdrm_used), .stat_pool_used_i(pool_used),
    .stat_decision_i(op_req), .stat_drop_i(op_req && n_verdict == mmu_adm_pkg::VERDICT_DROP)
  );

`ifndef SYNTHESIS
`ifdef MMU_ASSERT
  // Invariants (verilator --assert).
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(op_rel && n_underflow)) else $error("release of more cells than a counter holds");
      assert (total_used <= cfg_buffer || cfg_buffer == '0) else $error("buffer occupancy above the buffer size");
      assert (!(n_pfc == mmu_adm_pkg::PFC_XOFF && !op_req)) else $error("XOFF outside an admission");
      // Pause only above threshold: every policy's threshold sits above the queue's reserved
      // cells, so an XOFF needs a lossless, unpaused queue pushed past its reserve.
      assert (!(n_pfc == mmu_adm_pkg::PFC_XOFF) || (ll && !paused_q[ii] && q_ing + n > ires))
        else $error("XOFF for a queue that is paused, lossy or within its reserved cells");
      assert (!(n_pfc == mmu_adm_pkg::PFC_XON) || (op_rel && paused_q[ii]))
        else $error("XON for a queue that is not paused");
      assert (!(n_port_pfc == mmu_adm_pkg::PFC_XOFF) || (pol_dsh && op_req && !port_paused[op_in]))
        else $error("port XOFF outside dsh or for a paused port");
      assert (!(n_port_pfc == mmu_adm_pkg::PFC_XON) || (pol_dsh && op_rel && port_paused[op_in]))
        else $error("port XON for a port that is not paused");
    end
  end
`endif
`endif

endmodule

`undef MMU_PARAM_CHECK
`default_nettype wire
