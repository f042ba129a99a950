// abm's state (hw-model/admission/policies/abm.cc), beside the policy datapaths: per
// ingress and per egress queue the cells sent in the current and in the last measurement
// interval and the interval's tag; per priority the congested ingress queues and the
// congested egress queues (n_p of each side, the threshold rule, which the threshold
// calculator registers; mmu_adm_quot divides by them). It hands each operation slot the
// drain ratios mu_q / mu_port of its two queues, and updates itself from the slots' counts
// before and after (the bookkeeping does not depend on the decision beyond those counts),
// so the policy module (mmu_pol_abm) only multiplies and compares.
//
// Intervals: 2^interval_log2 cycles; the interval number is bits interval_log2 and up of
// the cycle count now_i, no divider and no counter of its own, so a gated clock (the
// co-simulation's) loses nothing. A queue keeps its interval number mod 2^TW: the first
// operation in a later interval moves the count to `last` (one interval on) or clears
// both (more). Drain ratio: recip.h's drain_ratio, the capacity cut to its top 8
// significant bits and divided through mmu_adm_recip_div (a 16 x 17-bit product).
//
// PIPE 1: the entries are read in the read stage (stage 1, at the operations' queues as
// taken), with the decide stage's writes of the same cycle forwarded, and registered; the
// drain ratios come from them there, rolled to the operation's own interval, and reach the
// decide stage as registers. So no memory read, roll or division is in front of a verdict,
// and nothing changes in what is decided: the decide stage's write is the only one between
// the read and the decision. The read stage reads ABM_INTERVAL and ABM_PORT_CELLS as
// stored, so an operation taken in the cycle of a write to them takes its ratio from the
// old values (the golden core takes none in a write's cycle; docs/rtl.md, "CSR write
// latency").
`default_nettype none

module mmu_adm_rate
#(
  parameter int NPORTS = 8,
  parameter int NPRIO = 8,
  parameter int CW = 32,
  parameter int CELLW = 16,
  parameter int DUAL_ISSUE = 1,
  parameter int PIPE = 0,        // 1: entries read and ratios computed in the read stage
  parameter int DBG_LANES = 1,
  parameter bit ENABLE = 1'b1,  // abm in the netlist; else constant (ratio 1, n_p 0)
  localparam int DBGW = DBG_LANES > 0 ? DBG_LANES : 1,
  localparam int NQ = NPORTS * NPRIO,
  localparam int PW = NPORTS > 1 ? $clog2(NPORTS) : 1,
  localparam int QW = NQ > 1 ? $clog2(NQ) : 1,
  localparam int NW = PW + 1,  // n_p: up to NPORTS queues of a priority on one side
  localparam int TW = 12,      // interval tag bits (abm.cc kTagBits)
  localparam int EW = TW + 2 * CW
) (
  // All unused without abm.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire              on_i,      // CTRL.policy is abm: the state follows the operations
  input  wire              clear_i,   // a policy change: the state restarts
  input  wire [31:0]       now_i,     // cycle count of this cycle's operations
  input  wire [4:0]        interval_log2_i,
  input  wire [CW-1:0]     cfg_congested_i,
  input  wire [NPORTS*CW-1:0] cap_i, // cells per interval of each port, entry p at [p*CW +: CW]
  // The read stage's operations (PIPE 1; unused with PIPE 0): their cycle count, queues and
  // ports, slot a the release, slot b the request.
  input  wire [31:0]       s_now_i,
  input  wire [QW-1:0]     s_a_ii_i,
  input  wire [QW-1:0]     s_a_ei_i,
  input  wire [PW-1:0]     s_a_in_port_i,
  input  wire [PW-1:0]     s_a_out_port_i,
  input  wire [QW-1:0]     s_b_ii_i,
  input  wire [QW-1:0]     s_b_ei_i,
  input  wire [PW-1:0]     s_b_in_port_i,
  input  wire [PW-1:0]     s_b_out_port_i,
  // The decide stage. Slot a, the release (single issue: the one operation when it is a
  // release).
  input  wire              a_fire_i,  // taken, no underflow
  input  wire [QW-1:0]     a_ii_i,
  input  wire [QW-1:0]     a_ei_i,
  input  wire [2:0]        a_prio_i,  // ingress priority (PG)
  input  wire [2:0]        a_eq_i,    // egress queue
  input  wire [PW-1:0]     a_in_port_i,
  input  wire [PW-1:0]     a_out_port_i,
  input  wire [CELLW-1:0]  a_cells_i,
  input  wire [CW:0]       a_cnt_in_i,  // ingress + headroom cells of the ingress queue, as viewed
  input  wire [CW-1:0]     a_cnt_eg_i,  // egress cells of the egress queue, as viewed
  // Slot b, the request.
  input  wire              b_fire_i,
  input  wire [QW-1:0]     b_ii_i,
  input  wire [QW-1:0]     b_ei_i,
  input  wire [2:0]        b_prio_i,
  input  wire [2:0]        b_eq_i,
  input  wire [PW-1:0]     b_in_port_i,
  input  wire [PW-1:0]     b_out_port_i,
  input  wire [CELLW-1:0]  b_cells_i,
  input  wire              b_acc_i,     // the request is admitted (its verdict is not a drop)
  input  wire [CW:0]       b_cnt_in_i,  // as its datapath views them (forwarded from slot a)
  input  wire [CW-1:0]     b_cnt_eg_i,
  /* verilator lint_on UNUSEDSIGNAL */
  // Each slot's view: drain ratios (1/256ths) of its ingress and egress queue.
  output logic [8:0]       a_ratio_in_o,
  output logic [8:0]       a_ratio_eg_o,
  output logic [8:0]       b_ratio_in_o,
  output logic [8:0]       b_ratio_eg_o,
  // n_p (the registers) for the calculator: ingress priority p at p, egress queue q at 8 + q.
  output logic [16*NW-1:0] np_o,
  // Debug/state read port (mmu_admission's state map, regions 6, 12 and 13): zero for
  // every other address.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire [16*DBGW-1:0] dbg_addr_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [64*DBGW-1:0] dbg_data_o
);

  if (ENABLE) begin : g_on
    localparam logic [CW-1:0] CMAX = {CW{1'b1}};
    localparam int SW = (CW > CELLW ? CW : CELLW) + 1;  // a count plus a packet's cells
    localparam bit RS = PIPE != 0;  // the read stage reads
    wire [TW-1:0] k_now = TW'(now_i >> interval_log2_i);

    // Entries {tag, last, cur}: memories (mmu_adm_qmem, below) with the slots' read and
    // write ports and the debug lanes' reads; an entry reads zero until written after reset
    // or a policy change.
    localparam int NRD = 2 + DBG_LANES;  // read ports: 0 slot a, 1 slot b, 2 + l debug lane l
    wire [NRD*QW-1:0] rd_in_addr, rd_eg_addr;
    logic [NRD*EW-1:0] rd_in, rd_eg;
    assign rd_in_addr[0 +: 2*QW] = RS ? {s_b_ii_i, s_a_ii_i} : {b_ii_i, a_ii_i};
    assign rd_eg_addr[0 +: 2*QW] = RS ? {s_b_ei_i, s_a_ei_i} : {b_ei_i, a_ei_i};
    logic [8*NW-1:0] np_in, np_eg;

    // The entry's last-interval count at interval k: its own at its tag, its current count
    // one interval on, none later.
    function automatic logic [CW-1:0] last_at(input logic [EW-1:0] e, input logic [TW-1:0] k);
      logic [TW-1:0] tag;
      tag = e[2*CW +: TW];
      last_at = tag == k ? e[CW +: CW] : tag + 1'b1 == k ? e[0 +: CW] : '0;
    endfunction
    // The entry at the operation's interval (a later one: that count, nothing sent yet).
    function automatic logic [EW-1:0] roll(input logic [EW-1:0] e, input logic [TW-1:0] k);
      roll = e[2*CW +: TW] == k ? e : {k, last_at(e, k), CW'(0)};
    endfunction
    // A release's cells counted as sent, saturating (the ratio saturates at the capacity).
    function automatic logic [EW-1:0] add_sent(input logic [EW-1:0] e, input logic [CELLW-1:0] n);
      logic [SW-1:0] s;
      s = SW'(e[0 +: CW]) + SW'(n);
      add_sent = {e[CW +: TW + CW], s > SW'(CMAX) ? CMAX : s[CW-1:0]};
    endfunction
    // A queue's n_p step from its count q before the operation and the packet's c cells,
    // each test one sum of registered operands (not the datapath's next count, which a
    // request's has only after its verdict): a release (no underflow: c <= q) leaves the
    // congested set when q >= level > q - c, an admitted request enters it when
    // q < level <= q + c.
    localparam int LW = (CW + 1 > CELLW ? CW + 1 : CELLW) + 1;
    function automatic logic leaves(input logic [CW:0] q, input logic [CELLW-1:0] c, input logic [CW-1:0] level);
      leaves = LW'(q) >= LW'(level) && LW'(q) < LW'(level) + LW'(c);
    endfunction
    function automatic logic enters(input logic [CW:0] q, input logic [CELLW-1:0] c, input logic [CW-1:0] level);
      enters = LW'(q) < LW'(level) && LW'(q) + LW'(c) >= LW'(level);
    endfunction
    // Drain ratio mu_q / mu_port in 1/256ths from a queue's last-interval count s and its
    // port's capacity cap: sh = max(0, bit length of cap - 8), both cut by it.
    function automatic logic [5:0] cap_shift(input logic [CW-1:0] cap);
      cap_shift = '0;
      for (int i = 8; i < CW; i++) if (cap[i]) cap_shift = 6'(i - 7);
    endfunction

    // The decide stage's entries: read there (PIPE 0) or registered by the read stage.
    logic [EW-1:0] e_a_in, e_a_eg, e_b_in, e_b_eg;
    /* verilator lint_off UNUSEDSIGNAL */ // read with PIPE 1 only
    logic cleared;  // with PIPE 1: the operations' entries were cleared after their read
    /* verilator lint_on UNUSEDSIGNAL */

    // Slot a on the entries; slot b on them as slot a leaves them (dual issue; with one
    // operation per cycle only one slot fires and nothing is forwarded).
    localparam bit FWD = DUAL_ISSUE != 0;
    wire [EW-1:0] a_in_r = roll(e_a_in, k_now);
    wire [EW-1:0] a_eg_r = roll(e_a_eg, k_now);
    wire [EW-1:0] a_in_nx = a_fire_i ? add_sent(a_in_r, a_cells_i) : a_in_r;
    wire [EW-1:0] a_eg_nx = a_fire_i ? add_sent(a_eg_r, a_cells_i) : a_eg_r;
    // Slot a's entry is rolled to k_now and a's cells touch only the current count, so
    // slot b's last-interval count (its drain ratio) is its own read's, forwarded or not.
    wire [EW-1:0] b_in_rd = roll(e_b_in, k_now);
    wire [EW-1:0] b_eg_rd = roll(e_b_eg, k_now);
    wire [EW-1:0] b_in_r = FWD && a_ii_i == b_ii_i ? a_in_nx : b_in_rd;
    wire [EW-1:0] b_eg_r = FWD && a_ei_i == b_ei_i ? a_eg_nx : b_eg_rd;

    // n_p: the live registers, stepped by the slots (the thresholds read the calculator's).
    wire [NW-1:0] a_np_in = np_in[a_prio_i*NW +: NW];
    wire [NW-1:0] a_np_eg = np_eg[a_eq_i*NW +: NW];
    wire [NW-1:0] a_np_in_nx = a_np_in - NW'(a_fire_i && leaves(a_cnt_in_i, a_cells_i, cfg_congested_i));
    wire [NW-1:0] a_np_eg_nx = a_np_eg - NW'(a_fire_i && leaves((CW+1)'(a_cnt_eg_i), a_cells_i, cfg_congested_i));
    // Slot b's n_p: the register less slot a's step on the same priority (egress queue).
    wire [NW-1:0] b_np_in_r = np_in[b_prio_i*NW +: NW];
    wire [NW-1:0] b_np_eg_r = np_eg[b_eq_i*NW +: NW];
    wire b_np_in_dec = FWD && a_prio_i == b_prio_i && a_fire_i && leaves(a_cnt_in_i, a_cells_i, cfg_congested_i);
    wire b_np_eg_dec = FWD && a_eq_i == b_eq_i && a_fire_i && leaves((CW+1)'(a_cnt_eg_i), a_cells_i, cfg_congested_i);
    wire [NW-1:0] b_np_in = b_np_in_r - NW'(b_np_in_dec);
    wire [NW-1:0] b_np_eg = b_np_eg_r - NW'(b_np_eg_dec);
    // The verdict selects last.
    wire [NW-1:0] b_np_in_nx = b_np_in + NW'(b_acc_i && enters(b_cnt_in_i, b_cells_i, cfg_congested_i));
    wire [NW-1:0] b_np_eg_nx = b_np_eg + NW'(b_acc_i && enters((CW+1)'(b_cnt_eg_i), b_cells_i, cfg_congested_i));
    assign np_o = {np_eg, np_in};

    // Write-back, as mmu_admission's: an entry both slots name takes slot b's value, which
    // includes slot a's effect.
    wire a_wr = on_i && a_fire_i;
    wire b_wr = on_i && b_fire_i;
    wire a_wr_in = a_wr && !(b_wr && a_ii_i == b_ii_i);
    wire a_wr_eg = a_wr && !(b_wr && a_ei_i == b_ei_i);

    // The entries the drain ratios come from (slot a's, slot b's own read, each rolled to
    // its operation's interval), and the ports whose capacity divides them.
    logic [EW-1:0] r_a_in, r_a_eg, r_b_in, r_b_eg;
    logic [TW-1:0] k_rd;
    logic [4*PW-1:0] port;
    if (RS) begin : g_rs
      // Each entry as the decide stage's writes of this cycle leave it.
      wire [EW-1:0] rd_a_in = rd_in[0 +: EW], rd_b_in = rd_in[EW +: EW];
      wire [EW-1:0] rd_a_eg = rd_eg[0 +: EW], rd_b_eg = rd_eg[EW +: EW];
      assign r_a_in = b_wr && b_ii_i == s_a_ii_i ? b_in_r : a_wr_in && a_ii_i == s_a_ii_i ? a_in_nx : rd_a_in;
      assign r_a_eg = b_wr && b_ei_i == s_a_ei_i ? b_eg_r : a_wr_eg && a_ei_i == s_a_ei_i ? a_eg_nx : rd_a_eg;
      assign r_b_in = b_wr && b_ii_i == s_b_ii_i ? b_in_r : a_wr_in && a_ii_i == s_b_ii_i ? a_in_nx : rd_b_in;
      assign r_b_eg = b_wr && b_ei_i == s_b_ei_i ? b_eg_r : a_wr_eg && a_ei_i == s_b_ei_i ? a_eg_nx : rd_b_eg;
      assign k_rd = TW'(s_now_i >> interval_log2_i);
      assign port = {s_b_out_port_i, s_b_in_port_i, s_a_out_port_i, s_a_in_port_i};
      // A policy change (clear_i, a CSR write's decode) clears the entries at its edge: an
      // operation read in that cycle takes them as zero in the decide stage, through a
      // register rather than with the write's decode in front of the read stage's ratios.
      logic [4*EW-1:0] e_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) cleared <= 1'b0;
        else cleared <= clear_i;
      end
      always_ff @(posedge clk_i) e_q <= {r_a_in, r_a_eg, r_b_in, r_b_eg};
      assign {e_a_in, e_a_eg, e_b_in, e_b_eg} = cleared ? '0 : e_q;
    end else begin : g_no_rs
      assign {r_a_in, r_a_eg, r_b_in, r_b_eg} = {rd_in[0 +: EW], rd_eg[0 +: EW], rd_in[EW +: EW], rd_eg[EW +: EW]};
      assign {e_a_in, e_a_eg, e_b_in, e_b_eg} = {r_a_in, r_a_eg, r_b_in, r_b_eg};
      assign cleared = 1'b0;
      assign k_rd = k_now;
      assign port = {b_out_port_i, b_in_port_i, a_out_port_i, a_in_port_i};
    end

    // Drain ratios of the four queues from their last interval's count and port capacity.
    wire [4*EW-1:0] ent = {r_b_eg, r_b_in, r_a_eg, r_a_in};
    wire [4*9-1:0] ratio;
    for (genvar j = 0; j < 4; j++) begin : g_ratio
      wire [CW-1:0] s = last_at(ent[j*EW +: EW], k_rd);
      wire [CW-1:0] cap = cap_i[port[j*PW +: PW]*CW +: CW];
      wire [5:0] sh = cap_shift(cap);
      wire [7:0] cap8 = 8'(cap >> sh);
      wire [7:0] s8 = 8'(s >> sh);  // at most cap8 when s < cap
      /* verilator lint_off UNUSEDSIGNAL */
      wire [15:0] q;  // at most 256
      /* verilator lint_on UNUSEDSIGNAL */
      mmu_adm_recip_div #(.VW(16), .NW(8), .NMAX(255)) u_div (.v_i({s8, 8'h00}), .n_i(cap8), .q_o(q));
      assign ratio[j*9 +: 9] = s == '0 || s >= cap ? 9'd256 : q[8:0];
    end
    if (RS) begin : g_view_q
      // An entry cleared in the read cycle (g_rs) has ratio 1.
      logic [4*9-1:0] ratio_q;
      always_ff @(posedge clk_i) ratio_q <= ratio;
      assign {b_ratio_eg_o, b_ratio_in_o, a_ratio_eg_o, a_ratio_in_o} = cleared ? {4{9'd256}} : ratio_q;
    end else begin : g_view_c
      assign {b_ratio_eg_o, b_ratio_in_o, a_ratio_eg_o, a_ratio_in_o} = ratio;
    end

    mmu_adm_qmem #(.W(EW), .N(NQ), .NR(NRD)) u_in (
      .clk_i, .rst_ni, .clear_i, .a_we_i(a_wr_in), .a_addr_i(a_ii_i), .a_wd_i(a_in_nx),
      .b_we_i(b_wr), .b_addr_i(b_ii_i), .b_wd_i(b_in_r), .raddr_i(rd_in_addr), .rdata_o(rd_in)
    );
    mmu_adm_qmem #(.W(EW), .N(NQ), .NR(NRD)) u_eg (
      .clk_i, .rst_ni, .clear_i, .a_we_i(a_wr_eg), .a_addr_i(a_ei_i), .a_wd_i(a_eg_nx),
      .b_we_i(b_wr), .b_addr_i(b_ei_i), .b_wd_i(b_eg_r), .raddr_i(rd_eg_addr), .rdata_o(rd_eg)
    );
    for (genvar p = 0; p < 8; p++) begin : g_np
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          np_in[p*NW +: NW] <= '0;
          np_eg[p*NW +: NW] <= '0;
        end else if (clear_i) begin
          np_in[p*NW +: NW] <= '0;
          np_eg[p*NW +: NW] <= '0;
        end else begin
          if (b_wr && b_prio_i == 3'(p)) np_in[p*NW +: NW] <= b_np_in_nx;
          else if (a_wr && a_prio_i == 3'(p)) np_in[p*NW +: NW] <= a_np_in_nx;
          if (b_wr && b_eq_i == 3'(p)) np_eg[p*NW +: NW] <= b_np_eg_nx;
          else if (a_wr && a_eq_i == 3'(p)) np_eg[p*NW +: NW] <= a_np_eg_nx;
        end
      end
    end

    // Debug words: region 12 ingress, 13 egress queues at index f * 512 + queue (f 0 sent
    // this interval, 1 last interval, 2 tag); region 6 at 8 + p the ingress n_p, 16 + p
    // the egress n_p (0..7 are reverie's).
    for (genvar l = 0; l < DBG_LANES; l++) begin : g_dbg
      wire [3:0]  region = dbg_addr_i[16*l+12 +: 4];
      wire [11:0] index = dbg_addr_i[16*l +: 12];
      wire [1:0]  f = index[10:9];
      wire        in_q = !index[11] && f != 2'd3 && 32'(index[8:0]) < NQ;
      wire [QW-1:0] q = in_q ? QW'(index[8:0]) : '0;
      assign rd_in_addr[(2+l)*QW +: QW] = q;
      assign rd_eg_addr[(2+l)*QW +: QW] = q;
      wire [EW-1:0] e_in = rd_in[(2+l)*EW +: EW];
      wire [EW-1:0] e_eg = rd_eg[(2+l)*EW +: EW];
      wire [EW-1:0] e = region == 4'd12 ? e_in : e_eg;
      logic [63:0] w;
      always_comb begin
        w = '0;
        if ((region == 4'd12 || region == 4'd13) && in_q)
          w = f == 2'd0 ? 64'(e[0 +: CW]) : f == 2'd1 ? 64'(e[CW +: CW]) : 64'(e[2*CW +: TW]);
        else if (region == 4'd6 && index >= 12'd8 && index < 12'd16) w = 64'(np_in[index[2:0]*NW +: NW]);
        else if (region == 4'd6 && index >= 12'd16 && index < 12'd24) w = 64'(np_eg[index[2:0]*NW +: NW]);
      end
      assign dbg_data_o[64*l +: 64] = w;
    end
    if (DBG_LANES == 0) begin : g_no_dbg
      assign dbg_data_o = '0;
    end
  end else begin : g_off
    assign {a_ratio_in_o, a_ratio_eg_o, b_ratio_in_o, b_ratio_eg_o} = {4{9'd256}};
    assign np_o = '0;
    assign dbg_data_o = '0;
  end

endmodule

`default_nettype wire
