// One admission operation of the unit: a request's decision or a release's accounting,
// combinational, on a view of the state entries the operation names.
//
// mmu_admission instantiates it once (an operation per cycle) or twice (DUAL_ISSUE: a
// release and a request per cycle, the request's view forwarded from the release's next
// state). The view is the counters of the operation's ingress queue (ii) and egress queue
// (ei), the pools and totals, n_p of its priority and its ingress port's dsh state; the
// outputs are those entries' next values, the verdict and the PFC events, all bit-exact
// with the golden core (hw-model/admission).
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
  localparam int NQ = NPORTS * NPRIO,
  localparam int PW = NPORTS > 1 ? $clog2(NPORTS) : 1,
  localparam int QW = NQ > 1 ? $clog2(NQ) : 1,
  localparam int AW = CW + EWMA_FRAC,
  localparam int PFW = NPROF > 1 ? $clog2(NPROF) : 1,
  localparam int PLW = NPOOLS > 1 ? $clog2(NPOOLS) : 1
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
  input  wire [QW-1:0]        ii_i,       // ingress queue: in_port * NPRIO + prio
  input  wire [QW-1:0]        ei_i,       // egress queue: out_port * NPRIO + prio
  input  wire [PW-1:0]        in_port_i,
  input  wire [CELLW-1:0]     cells_i,
  // Configuration (mmu_adm_csr) and what the unit derives from it.
  input  wire                 pol_rev_i,
  input  wire                 pol_dsh_i,
  input  wire                 cfg_ewma_rule_i,
  input  wire                 cfg_ewma_clamp_i,
  input  wire [4:0]           cfg_ewma_k_i,
  input  wire [CW-1:0]        cfg_buffer_i,
  input  wire [CW-1:0]        cfg_hdrm_pool_i,
  input  wire [CW-1:0]        cfg_congested_i,
  input  wire [CW-1:0]        cfg_dsh_port_xon_off_i,
  input  wire [NPOOLS*CW-1:0] cfg_pool_size_i,
  // Profile tables hold 4-bit pool and 5-bit shift fields; the unit reads the low bits
  // its NPOOLS needs.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire [NPROF*4-1:0]   ip_pool_i,
  input  wire [NPROF*4-1:0]   ep_pool_i,
  input  wire [NQ*5-1:0]      q_pg_prof_i,
  input  wire [NQ*5-1:0]      q_queue_prof_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire [NPROF-1:0]     ip_dynamic_i,
  input  wire [NPROF*5-1:0]   ip_shift_i,
  input  wire [NPROF*CW-1:0]  ip_reserved_i,
  input  wire [NPROF*CW-1:0]  ip_static_i,
  input  wire [NPROF*CW-1:0]  ip_xoff_i,
  input  wire [NPROF*CW-1:0]  ip_xon_i,
  input  wire [NPROF*CW-1:0]  ip_xon_offset_i,
  input  wire [NPROF-1:0]     ep_dynamic_i,
  input  wire [NPROF*5-1:0]   ep_shift_i,
  input  wire [NPROF*CW-1:0]  ep_reserved_i,
  input  wire [NPROF*CW-1:0]  ep_static_i,
  input  wire [NQ-1:0]        q_lossless_i,
  input  wire [PLW-1:0]       rev_pool_i,  // reverie's one shared pool
  input  wire [NPORTS*4-1:0]  dsh_nq_i,    // dsh: lossless priorities per port
  input  wire [NPORTS*CW-1:0] dsh_ins_i,   // dsh: insurance headroom per port
  // View of the state the operation reads.
  input  wire [CW-1:0]        v_ing_i,
  input  wire [CW-1:0]        v_hdrm_i,
  input  wire                 v_paused_i,
  input  wire [AW-1:0]        v_avg_in_i,
  input  wire [CW-1:0]        v_egr_i,
  input  wire [AW-1:0]        v_avg_eg_i,
  input  wire [NPOOLS*CW-1:0] v_pool_used_i,
  input  wire [CW-1:0]        v_hdrm_used_i,
  input  wire [CW-1:0]        v_total_i,
  input  wire [QW:0]          v_ncong_i,
  input  wire                 v_port_paused_i,
  input  wire [CW-1:0]        v_port_shared_i,
  input  wire [CW-1:0]        v_port_ins_i,
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
  output logic [CW-1:0]       n_port_ins_o
);

  localparam logic [63:0] CMAX = (64'(1) << CW) - 1;

  // The operation's profiles and their pools.
  wire [PFW-1:0] ipf = q_pg_prof_i[ii_i*5 +: PFW];
  wire [PFW-1:0] epf = q_queue_prof_i[ei_i*5 +: PFW];
  wire [PLW-1:0] ipool = ip_pool_i[ipf*4 +: PLW];
  wire [PLW-1:0] epool = ep_pool_i[epf*4 +: PLW];
  wire [PLW-1:0] rpool = rev_pool_i;
  wire ll = q_lossless_i[ii_i];

  // Shorthands, 64 bits wide like the golden core's integers.
  mmu_adm_pkg::xw_t n, q_ing, q_hdrm, q_egr, ires, eres, ith, eth, grow, egrow, g, t, xq, xp;
  mmu_adm_pkg::xw_t s, s_before, from_h, from_q, shrink, eshrink, avg, cnt_before, cnt_after, qq, res_q;
  logic over_in, over_eg, to_h, fits, is_pool_full;

  always_comb begin
    // Defaults: nothing changes.
    verdict_o = mmu_adm_pkg::VERDICT_DROP;
    pfc_o = mmu_adm_pkg::PFC_NONE;
    port_pfc_o = mmu_adm_pkg::PFC_NONE;
    reason_o = mmu_adm_pkg::REASON_NONE;
    underflow_o = 1'b0;
    n_ing_o = v_ing_i;
    n_hdrm_o = v_hdrm_i;
    n_egr_o = v_egr_i;
    n_paused_o = v_paused_i;
    n_avg_in_o = v_avg_in_i;
    n_avg_eg_o = v_avg_eg_i;
    n_pool_used_o = v_pool_used_i;
    n_hdrm_used_o = v_hdrm_used_i;
    n_total_o = v_total_i;
    n_ncong_o = v_ncong_i;
    n_port_paused_o = v_port_paused_i;
    n_port_shared_o = v_port_shared_i;
    n_port_ins_o = v_port_ins_i;

    n = 64'(cells_i);
    q_ing = 64'(v_ing_i);
    q_hdrm = 64'(v_hdrm_i);
    q_egr = 64'(v_egr_i);
    ires = 64'(ip_reserved_i[ipf*CW +: CW]);
    eres = 64'(ep_reserved_i[epf*CW +: CW]);
    ith = mmu_adm_pkg::dt_threshold(ip_dynamic_i[ipf], $signed(ip_shift_i[ipf*5 +: 5]), 64'(ip_static_i[ipf*CW +: CW]), 64'(cfg_pool_size_i[ipool*CW +: CW]),
                       64'(v_pool_used_i[ipool*CW +: CW]), CMAX);
    eth = mmu_adm_pkg::dt_threshold(ep_dynamic_i[epf], $signed(ep_shift_i[epf*5 +: 5]), 64'(ep_static_i[epf*CW +: CW]), 64'(cfg_pool_size_i[epool*CW +: CW]),
                       64'(v_pool_used_i[epool*CW +: CW]), CMAX);
    grow = mmu_adm_pkg::shared_part(q_ing + n, ires) - mmu_adm_pkg::shared_part(q_ing, ires);
    egrow = mmu_adm_pkg::shared_part(q_egr + n, eres) - mmu_adm_pkg::shared_part(q_egr, eres);
    over_in = mmu_adm_pkg::over(q_ing, n, ires, ith, 64'(cfg_pool_size_i[ipool*CW +: CW]), 64'(v_pool_used_i[ipool*CW +: CW]));
    over_eg = mmu_adm_pkg::over(q_egr, n, eres, eth, 64'(cfg_pool_size_i[epool*CW +: CW]), 64'(v_pool_used_i[epool*CW +: CW]));
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

    if (is_req_i && pol_rev_i) begin
      // ---------------- reverie admission (hw-model/admission/policies/reverie.cc)
      qq = ll ? q_ing : 64'(v_egr_i);
      res_q = ll ? ires : eres;
      avg = ll ? 64'(v_avg_in_i) : 64'(v_avg_eg_i);
      if (cfg_ewma_rule_i) begin
        avg = mmu_adm_pkg::ewma_update(avg, mmu_adm_pkg::shared_part(qq, res_q), cfg_ewma_k_i, cfg_ewma_clamp_i, EWMA_FRAC);
        if (ll) n_avg_in_o = AW'(avg);
        else n_avg_eg_o = AW'(avg);
      end
      grow = mmu_adm_pkg::shared_part(qq + n, res_q) - mmu_adm_pkg::shared_part(qq, res_q);
      g = ll ? (ip_dynamic_i[ipf]
                  ? mmu_adm_pkg::dt_threshold(1'b1, $signed(ip_shift_i[ipf*5 +: 5]), '0, 64'(cfg_pool_size_i[rpool*CW +: CW]), 64'(v_pool_used_i[rpool*CW +: CW]), CMAX)
                    / (v_ncong_i == 0 ? 64'(1) : 64'(v_ncong_i))
                  : 64'(ip_static_i[ipf*CW +: CW]))
             : (ep_dynamic_i[epf]
                  ? mmu_adm_pkg::dt_threshold(1'b1, $signed(ep_shift_i[epf*5 +: 5]), '0, 64'(cfg_pool_size_i[rpool*CW +: CW]), 64'(v_pool_used_i[rpool*CW +: CW]), CMAX)
                    / (v_ncong_i == 0 ? 64'(1) : 64'(v_ncong_i))
                  : 64'(ep_static_i[epf*CW +: CW]));
      fits = (qq + n <= res_q) ||
             (avg <= (g << EWMA_FRAC) && 64'(v_pool_used_i[rpool*CW +: CW]) + grow <= 64'(cfg_pool_size_i[rpool*CW +: CW]));
      if (ll) begin
        if (v_paused_i) begin
          to_h = 1'b1;
        end else if (!fits) begin
          n_paused_o = 1'b1;
          pfc_o = mmu_adm_pkg::PFC_XOFF;
          to_h = 1'b1;
        end
      end
      if (ll && to_h && (q_hdrm + n > 64'(ip_xoff_i[ipf*CW +: CW]) || 64'(v_hdrm_used_i) + n > 64'(cfg_hdrm_pool_i))) begin
        reason_o = mmu_adm_pkg::REASON_HEADROOM;
      end else if (!ll && !fits) begin
        reason_o = mmu_adm_pkg::REASON_EGRESS;
      end else if (64'(v_total_i) + n > 64'(cfg_buffer_i)) begin
        reason_o = mmu_adm_pkg::REASON_BUFFER;
      end else begin
        cnt_before = qq + (ll ? q_hdrm : '0);
        if (to_h) begin
          n_hdrm_o = CW'(q_hdrm + n);
          n_hdrm_used_o = CW'(64'(v_hdrm_used_i) + n);
        end else begin
          if (ll) n_ing_o = CW'(q_ing + n);
          else n_egr_o = CW'(64'(v_egr_i) + n);
          n_pool_used_o[rpool*CW +: CW] = CW'(64'(v_pool_used_i[rpool*CW +: CW]) + grow);
        end
        n_total_o = CW'(64'(v_total_i) + n);
        cnt_after = cnt_before + n;
        n_ncong_o = (QW+1)'(64'(v_ncong_i) + (cnt_after >= 64'(cfg_congested_i) ? 1 : 0)
                          - (cnt_before >= 64'(cfg_congested_i) ? 1 : 0));
        verdict_o = to_h ? mmu_adm_pkg::VERDICT_HEADROOM : mmu_adm_pkg::VERDICT_SHARED;
      end

    end else if (is_rel_i && pol_rev_i) begin
      // ---------------- reverie release
      qq = ll ? q_ing : 64'(v_egr_i);
      res_q = ll ? ires : eres;
      cnt_before = qq + (ll ? q_hdrm : '0);
      s_before = mmu_adm_pkg::shared_part(qq, res_q);
      from_h = ll ? (n < q_hdrm ? n : q_hdrm) : '0;
      from_q = n - from_h;
      if (from_q > qq) begin
        underflow_o = 1'b1;
      end else begin
        shrink = s_before - mmu_adm_pkg::shared_part(qq - from_q, res_q);
        n_hdrm_o = CW'(q_hdrm - from_h);
        n_hdrm_used_o = CW'(64'(v_hdrm_used_i) - from_h);
        if (ll) n_ing_o = CW'(qq - from_q);
        else n_egr_o = CW'(qq - from_q);
        n_pool_used_o[rpool*CW +: CW] = CW'(64'(v_pool_used_i[rpool*CW +: CW]) - shrink);
        n_total_o = CW'(64'(v_total_i) - n);
        cnt_after = (qq - from_q) + (ll ? q_hdrm - from_h : '0);
        n_ncong_o = (QW+1)'(64'(v_ncong_i) + (cnt_after >= 64'(cfg_congested_i) ? 1 : 0)
                          - (cnt_before >= 64'(cfg_congested_i) ? 1 : 0));
        avg = mmu_adm_pkg::ewma_update(ll ? 64'(v_avg_in_i) : 64'(v_avg_eg_i), mmu_adm_pkg::shared_part(qq - from_q, res_q),
                          cfg_ewma_k_i, cfg_ewma_clamp_i, EWMA_FRAC);
        if (ll) n_avg_in_o = AW'(avg);
        else n_avg_eg_o = AW'(avg);
        if (ll && v_paused_i && q_hdrm - from_h == 0) begin
          s = mmu_adm_pkg::shared_part(qq - from_q, res_q);
          g = ip_dynamic_i[ipf]
                ? mmu_adm_pkg::dt_threshold(1'b1, $signed(ip_shift_i[ipf*5 +: 5]), '0, 64'(cfg_pool_size_i[rpool*CW +: CW]), 64'(n_pool_used_o[rpool*CW +: CW]), CMAX)
                  / (n_ncong_o == 0 ? 64'(1) : 64'(n_ncong_o))
                : 64'(ip_static_i[ipf*CW +: CW]);
          if (qq - from_q == 0 || s < 64'(ip_xon_i[ipf*CW +: CW]) ||
              ((avg + (64'(1) << EWMA_FRAC) - 1) >> EWMA_FRAC) + 64'(ip_xon_offset_i[ipf*CW +: CW]) <= g) begin
            n_paused_o = 1'b0;
            pfc_o = mmu_adm_pkg::PFC_XON;
          end
        end
      end

    end else if (is_req_i && pol_dsh_i && ll) begin
      // ---------------- dsh lossless admission (policies/dsh.cc)
      is_pool_full = 64'(v_pool_used_i[ipool*CW +: CW]) + grow > 64'(cfg_pool_size_i[ipool*CW +: CW]);
      to_h = v_port_paused_i || is_pool_full;
      if (to_h && (64'(v_port_ins_i) + n > 64'(dsh_ins_i[in_port_i*CW +: CW]) || 64'(v_hdrm_used_i) + n > 64'(cfg_hdrm_pool_i))) begin
        reason_o = mmu_adm_pkg::REASON_HEADROOM;
      end else if (over_eg) begin
        reason_o = mmu_adm_pkg::REASON_EGRESS;
      end else if (64'(v_total_i) + n > 64'(cfg_buffer_i)) begin
        reason_o = mmu_adm_pkg::REASON_BUFFER;
      end else begin
        if (to_h) begin
          n_hdrm_o = CW'(q_hdrm + n);
          n_hdrm_used_o = CW'(64'(v_hdrm_used_i) + n);
          n_port_ins_o = CW'(64'(v_port_ins_i) + n);
        end else begin
          n_ing_o = CW'(q_ing + n);
          n_pool_used_o[ipool*CW +: CW] = CW'(64'(v_pool_used_i[ipool*CW +: CW]) + grow);
          n_port_shared_o = CW'(64'(v_port_shared_i) + grow);
        end
        n_egr_o = CW'(q_egr + n);
        n_pool_used_o[epool*CW +: CW] = CW'(64'(n_pool_used_o[epool*CW +: CW]) + egrow);
        n_total_o = CW'(64'(v_total_i) + n);
        verdict_o = to_h ? mmu_adm_pkg::VERDICT_HEADROOM : mmu_adm_pkg::VERDICT_SHARED;
        // Transitions on the occupancy this packet produced.
        t = mmu_adm_pkg::dt_threshold(ip_dynamic_i[ipf], $signed(ip_shift_i[ipf*5 +: 5]), 64'(ip_static_i[ipf*CW +: CW]), 64'(cfg_pool_size_i[ipool*CW +: CW]),
                         64'(n_pool_used_o[ipool*CW +: CW]), CMAX);
        xq = t > 64'(ip_xoff_i[ipf*CW +: CW]) ? t - 64'(ip_xoff_i[ipf*CW +: CW]) : '0;
        xp = 64'(dsh_nq_i[in_port_i*4 +: 4]) * t;
        if (xp > CMAX) xp = CMAX;
        if (!v_paused_i && mmu_adm_pkg::shared_part(64'(n_ing_o), ires) > xq) begin
          n_paused_o = 1'b1;
          pfc_o = mmu_adm_pkg::PFC_XOFF;
        end
        if (!v_port_paused_i && (to_h || 64'(n_port_shared_o) > xp)) begin
          n_port_paused_o = 1'b1;
          port_pfc_o = mmu_adm_pkg::PFC_XOFF;
        end
      end

    end else if (is_rel_i && pol_dsh_i && ll) begin
      // ---------------- dsh lossless release
      s_before = mmu_adm_pkg::shared_part(q_ing, ires);
      from_h = n < q_hdrm ? n : q_hdrm;
      from_q = n - from_h;
      if (from_q > q_ing || n > q_egr || from_h > 64'(v_port_ins_i)) begin
        underflow_o = 1'b1;
      end else begin
        shrink = s_before - mmu_adm_pkg::shared_part(q_ing - from_q, ires);
        eshrink = mmu_adm_pkg::shared_part(q_egr, eres) - mmu_adm_pkg::shared_part(q_egr - n, eres);
        n_hdrm_o = CW'(q_hdrm - from_h);
        n_hdrm_used_o = CW'(64'(v_hdrm_used_i) - from_h);
        n_ing_o = CW'(q_ing - from_q);
        n_pool_used_o[ipool*CW +: CW] = CW'(64'(v_pool_used_i[ipool*CW +: CW]) - shrink);
        n_egr_o = CW'(q_egr - n);
        n_pool_used_o[epool*CW +: CW] = CW'(64'(n_pool_used_o[epool*CW +: CW]) - eshrink);
        n_total_o = CW'(64'(v_total_i) - n);
        n_port_ins_o = CW'(64'(v_port_ins_i) - from_h);
        n_port_shared_o = CW'(64'(v_port_shared_i) - shrink);
        s = mmu_adm_pkg::shared_part(q_ing - from_q, ires);
        t = mmu_adm_pkg::dt_threshold(ip_dynamic_i[ipf], $signed(ip_shift_i[ipf*5 +: 5]), 64'(ip_static_i[ipf*CW +: CW]), 64'(cfg_pool_size_i[ipool*CW +: CW]),
                         64'(n_pool_used_o[ipool*CW +: CW]), CMAX);
        xq = t > 64'(ip_xoff_i[ipf*CW +: CW]) ? t - 64'(ip_xoff_i[ipf*CW +: CW]) : '0;
        xp = 64'(dsh_nq_i[in_port_i*4 +: 4]) * t;
        if (xp > CMAX) xp = CMAX;
        if (v_paused_i && (q_ing - from_q == 0 || s + 64'(ip_xon_offset_i[ipf*CW +: CW]) < xq)) begin
          n_paused_o = 1'b0;
          pfc_o = mmu_adm_pkg::PFC_XON;
        end
        if (v_port_paused_i && n_port_ins_o == 0 &&
            (n_port_shared_o == 0 || 64'(n_port_shared_o) + 64'(cfg_dsh_port_xon_off_i) < xp)) begin
          n_port_paused_o = 1'b0;
          port_pfc_o = mmu_adm_pkg::PFC_XON;
        end
      end

    end else if (is_req_i) begin
      // ---------------- SONiC admission: dt, and dsh's lossy traffic (policies/sonic.cc)
      if (ll) begin
        if (v_paused_i) begin
          to_h = 1'b1;
        end else if (over_in) begin
          n_paused_o = 1'b1;
          pfc_o = mmu_adm_pkg::PFC_XOFF;
          to_h = 1'b1;
        end
      end
      if (ll && to_h && (q_hdrm + n > 64'(ip_xoff_i[ipf*CW +: CW]) || 64'(v_hdrm_used_i) + n > 64'(cfg_hdrm_pool_i))) begin
        reason_o = mmu_adm_pkg::REASON_HEADROOM;
      end else if (!ll && over_in) begin
        reason_o = mmu_adm_pkg::REASON_INGRESS;
      end else if (over_eg) begin
        reason_o = mmu_adm_pkg::REASON_EGRESS;
      end else if (64'(v_total_i) + n > 64'(cfg_buffer_i)) begin
        reason_o = mmu_adm_pkg::REASON_BUFFER;
      end else begin
        if (to_h) begin
          n_hdrm_o = CW'(q_hdrm + n);
          n_hdrm_used_o = CW'(64'(v_hdrm_used_i) + n);
        end else begin
          n_ing_o = CW'(q_ing + n);
          n_pool_used_o[ipool*CW +: CW] = CW'(64'(v_pool_used_i[ipool*CW +: CW]) + grow);
        end
        n_egr_o = CW'(q_egr + n);
        n_pool_used_o[epool*CW +: CW] = CW'(64'(n_pool_used_o[epool*CW +: CW]) + egrow);
        n_total_o = CW'(64'(v_total_i) + n);
        verdict_o = to_h ? mmu_adm_pkg::VERDICT_HEADROOM : mmu_adm_pkg::VERDICT_SHARED;
      end

    end else if (is_rel_i) begin
      // ---------------- SONiC release: headroom first, then the ingress share
      from_h = n < q_hdrm ? n : q_hdrm;
      from_q = n - from_h;
      if (from_q > q_ing || n > q_egr) begin
        underflow_o = 1'b1;
      end else begin
        shrink = mmu_adm_pkg::shared_part(q_ing, ires) - mmu_adm_pkg::shared_part(q_ing - from_q, ires);
        eshrink = mmu_adm_pkg::shared_part(q_egr, eres) - mmu_adm_pkg::shared_part(q_egr - n, eres);
        n_hdrm_o = CW'(q_hdrm - from_h);
        n_hdrm_used_o = CW'(64'(v_hdrm_used_i) - from_h);
        n_ing_o = CW'(q_ing - from_q);
        n_pool_used_o[ipool*CW +: CW] = CW'(64'(v_pool_used_i[ipool*CW +: CW]) - shrink);
        n_egr_o = CW'(q_egr - n);
        n_pool_used_o[epool*CW +: CW] = CW'(64'(n_pool_used_o[epool*CW +: CW]) - eshrink);
        n_total_o = CW'(64'(v_total_i) - n);
        if (v_paused_i && q_hdrm - from_h == 0) begin
          s = mmu_adm_pkg::shared_part(q_ing - from_q, ires);
          t = mmu_adm_pkg::dt_threshold(ip_dynamic_i[ipf], $signed(ip_shift_i[ipf*5 +: 5]), 64'(ip_static_i[ipf*CW +: CW]), 64'(cfg_pool_size_i[ipool*CW +: CW]),
                           64'(n_pool_used_o[ipool*CW +: CW]), CMAX);
          if (q_ing - from_q == 0 || s < 64'(ip_xon_i[ipf*CW +: CW]) || s + 64'(ip_xon_offset_i[ipf*CW +: CW]) <= t) begin
            n_paused_o = 1'b0;
            pfc_o = mmu_adm_pkg::PFC_XON;
          end
        end
      end
    end
  end


`ifndef SYNTHESIS
`ifdef MMU_ASSERT
  // Invariants of one operation (verilator --assert).
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(is_req_i && is_rel_i)) else $error("two operations in one datapath");
      assert (!(pfc_o == mmu_adm_pkg::PFC_XOFF && !is_req_i)) else $error("XOFF outside an admission");
      // Pause only above threshold: every policy's threshold sits above the queue's reserved
      // cells, so an XOFF needs a lossless, unpaused queue pushed past its reserve.
      assert (!(pfc_o == mmu_adm_pkg::PFC_XOFF) || (ll && !v_paused_i && q_ing + n > ires))
        else $error("XOFF for a queue that is paused, lossy or within its reserved cells");
      assert (!(pfc_o == mmu_adm_pkg::PFC_XON) || (is_rel_i && v_paused_i))
        else $error("XON for a queue that is not paused");
      assert (!(port_pfc_o == mmu_adm_pkg::PFC_XOFF) || (pol_dsh_i && is_req_i && !v_port_paused_i))
        else $error("port XOFF outside dsh or for a paused port");
      assert (!(port_pfc_o == mmu_adm_pkg::PFC_XON) || (pol_dsh_i && is_rel_i && v_port_paused_i))
        else $error("port XON for a port that is not paused");
    end
  end
`endif
`endif

endmodule

`default_nettype wire
