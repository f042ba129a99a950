// Configuration-derived values of the threshold calculator: registers loaded after a CSR
// write to a field they come from, so the packet path reads a register (the golden core
// recomputes them on every write, Policy::config_changed). With PIPE 0 they load at the
// write's own edge from the values the write leaves (the stored fields, the written entry
// replaced by the CSR block's write port): an operation decided in the next cycle reads
// them. With PIPE 1 an operation taken in cycle t is decided in t + 1, so they load at the
// edge after the write's from the stored fields alone: the first operation taken after the
// write's cycle reads them, as it reads the threshold registers, and the CSR address and
// write data are off their path. The tables are computed by functions called in the
// clocked blocks under the load's enable: in hardware the same logic in front of registers
// with an enable; a simulator evaluates the loops over the queues only at such a load,
// not on every input change. Each exists only with its policy. Reset: every field they
// come from resets to 0, which gives 0 for each.
`default_nettype none

module mmu_adm_derive
#(
  parameter int NPORTS = 8,
  parameter int NPRIO = 8,
  parameter int CW = 32,
  parameter int NPOOLS = 4,
  parameter int NPROF = 8,
  parameter logic [5:0] POLICIES = 6'b011111,
  parameter int PIPE = 0,  // 1: load a cycle after the write, from the stored fields
  localparam int NQ = NPORTS * NPRIO,
  localparam int QW = NQ > 1 ? $clog2(NQ) : 1,
  localparam int PFW = NPROF > 1 ? $clog2(NPROF) : 1,
  localparam int PLW = NPOOLS > 1 ? $clog2(NPOOLS) : 1,
  localparam int HW = CW + QW  // a sum of CW-bit values over the NQ queues
) (
  // All unused when the policies with derived values are left out.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire                  clk_i,
  input  wire                  rst_ni,
  // The stored fields, and this cycle's accepted write of each (enable, entry, value; the
  // entry at the CSR block's index width, below NPROF or NQ) and whether a write access
  // names it (wsel, accepted or not).
  input  wire [NPROF*4-1:0]    ip_pool_i,
  input  wire                  ip_pool_we_i,
  input  wire                  ip_pool_wsel_i,
  input  wire [8:0]            ip_pool_widx_i,
  input  wire [3:0]            ip_pool_wd_i,
  input  wire [NPROF*CW-1:0]   ip_xoff_i,
  input  wire                  ip_xoff_we_i,
  input  wire                  ip_xoff_wsel_i,
  input  wire [8:0]            ip_xoff_widx_i,
  input  wire [CW-1:0]         ip_xoff_wd_i,
  input  wire [NQ*5-1:0]       q_pg_prof_i,
  input  wire [NQ-1:0]         q_lossless_i,
  input  wire                  qmap_we_i,
  input  wire                  qmap_wsel_i,
  input  wire [11:0]           qmap_widx_i,
  input  wire [4:0]            q_pg_prof_wd_i,
  input  wire                  q_lossless_wd_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [PLW-1:0]       rev_pool_o,  // reverie's one shared pool
  output logic [PLW-1:0]       rev_pool_nx_o, // and its value in the next cycle (PIPE 1's read stage)
  output logic [NPORTS*4-1:0]  dsh_nq_o,    // dsh: lossless priorities per port
  // dsh: the ingress profiles of each port's lossless PGs, a bit per profile (port p's at
  // [p*NPROF +: NPROF]). Its insurance headroom, the largest xoff among them, is taken where
  // it is read, from the stored xoff: a table of the maxima cost NPORTS x NPRIO profile
  // selects and compares (most of dsh's area over dt's at 64 x 8, docs/ppa.md step 22).
  output logic [NPORTS*NPROF-1:0] dsh_pmask_o,
  output logic [HW-1:0]        sih_hdrm_o   // sih: sum of xoff over the lossless PGs
);

  /* verilator lint_off UNUSEDSIGNAL */
  wire we = ip_pool_we_i || ip_xoff_we_i || qmap_we_i;
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator lint_off UNUSEDSIGNAL */ // no derived register without reverie, dsh and sih
  logic load;  // the registers' enable
  /* verilator lint_on UNUSEDSIGNAL */
  if (PIPE != 0) begin : g_load_late
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) load <= 1'b0;
      else load <= we;
    end
  end else begin : g_load_now
    assign load = we;
  end

  // The fields the registers load from: with PIPE 0 those after this cycle's write, the
  // stored entries with the written one replaced. Used under `load` only (an accepted
  // write), so the entry is replaced when a write names its register (wsel): the
  // registers' data then does not wait for the CSR block's refusal logic, only their enable
  // does. With PIPE 1 the stored fields, which hold the write by then.
  function automatic logic [NPROF*4-1:0] pools_after();
    pools_after = ip_pool_i;
    if (PIPE == 0 && ip_pool_wsel_i) pools_after[PFW'(ip_pool_widx_i)*4 +: 4] = ip_pool_wd_i;
  endfunction
  function automatic logic [NPROF*CW-1:0] xoff_after();
    xoff_after = ip_xoff_i;
    if (PIPE == 0 && ip_xoff_wsel_i) xoff_after[PFW'(ip_xoff_widx_i)*CW +: CW] = ip_xoff_wd_i;
  endfunction
  function automatic logic [NQ*5-1:0] prof_after();
    prof_after = q_pg_prof_i;
    if (PIPE == 0 && qmap_wsel_i) prof_after[QW'(qmap_widx_i)*5 +: 5] = q_pg_prof_wd_i;
  endfunction
  function automatic logic [NQ-1:0] ll_after();
    ll_after = q_lossless_i;
    if (PIPE == 0 && qmap_wsel_i) ll_after[QW'(qmap_widx_i)] = q_lossless_wd_i;
  endfunction

  // reverie's one shared pool: the pool of the first lossless PG (else of PG 0), found by a
  // balanced tree (log2 NQ levels of "the left one if lossless, else the right one", not a
  // chain over the NQ queues).
  localparam int NQP = 1 << QW;  // NQ rounded up to a power of two
  function automatic logic [PLW-1:0] rev_pool_of(input logic [NPROF*4-1:0] pools, input logic [NQ*5-1:0] prof,
                                                 input logic [NQ-1:0] ll);
    logic [NQP-1:0] v;       // reduced in place: entry i stands for queues i .. i + 2w - 1
    logic [NQP*PLW-1:0] pl;
    v = '0;
    pl = '0;
    for (int i = 0; i < NQ; i++) begin
      v[i] = ll[i];
      pl[i*PLW +: PLW] = pools[prof[i*5 +: PFW]*4 +: PLW];
    end
    for (int w = 1; w < NQP; w = w * 2)
      for (int i = 0; i + w < NQP; i = i + 2 * w)
        if (!v[i]) begin
          v[i] = v[i+w];
          pl[i*PLW +: PLW] = pl[(i+w)*PLW +: PLW];
        end
    rev_pool_of = v[0] ? pl[0 +: PLW] : pools[prof[0 +: PFW]*4 +: PLW];
  endfunction

  // dsh per port: lossless priorities (N_q) and the profiles of its lossless PGs.
  function automatic logic [NPORTS*4-1:0] dsh_nq_of(input logic [NQ-1:0] ll);
    dsh_nq_of = '0;
    for (int p = 0; p < NPORTS; p++) begin
      for (int q = 0; q < NPRIO; q++) begin
        if (ll[p*NPRIO+q]) dsh_nq_of[p*4 +: 4] = dsh_nq_of[p*4 +: 4] + 4'd1;
      end
    end
  endfunction
  function automatic logic [NPORTS*NPROF-1:0] dsh_pmask_of(input logic [NQ*5-1:0] prof, input logic [NQ-1:0] ll);
    dsh_pmask_of = '0;
    for (int p = 0; p < NPORTS; p++)
      for (int q = 0; q < NPRIO; q++)
        for (int f = 0; f < NPROF; f++)
          if (ll[p*NPRIO+q] && prof[(p*NPRIO+q)*5 +: PFW] == PFW'(f)) dsh_pmask_of[p*NPROF+f] = 1'b1;
  endfunction

  // sih: the headroom all lossless PGs may hold, the sum of their xoff (a sum over NQ
  // CW-bit values: CW + QW bits). Each term selected first, then one sum of all of them:
  // yosys makes one multi-operand sum (a carry-save tree), where a select between the
  // additions kept a chain of NQ adders (262 generic cells deep at 8 x 8).
  function automatic logic [HW-1:0] sih_hdrm_of(input logic [NPROF*CW-1:0] xoff, input logic [NQ*5-1:0] prof,
                                                input logic [NQ-1:0] ll);
    sih_hdrm_of = '0;
    for (int i = 0; i < NQ; i++)
      sih_hdrm_of = sih_hdrm_of + (ll[i] ? HW'(xoff[prof[i*5 +: PFW]*CW +: CW]) : HW'(0));
  endfunction

  if (POLICIES[mmu_adm_pkg::POLICY_REVERIE]) begin : g_rev_pool
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) rev_pool_o <= '0;
      else if (load) rev_pool_o <= rev_pool_of(pools_after(), prof_after(), ll_after());
    end
    // The read stage's reverie quotients (mmu_adm_quot) take the room of the pool the
    // decide stage will read: with PIPE 1 the register's input in a load's cycle, from the
    // stored fields (no CSR decode in front; they change only at a write). Written as an
    // `if (load)`, not a select of the tree's result: the same mux in hardware, but the
    // Verilated model then walks the queues only in a load's cycle, not after every edge.
    if (PIPE != 0) begin : g_nx
      always_comb begin
        rev_pool_nx_o = rev_pool_o;
        if (load) rev_pool_nx_o = rev_pool_of(ip_pool_i, q_pg_prof_i, q_lossless_i);
      end
    end else begin : g_nx_reg
      assign rev_pool_nx_o = rev_pool_o;
    end
  end else begin : g_no_rev_pool
    assign {rev_pool_o, rev_pool_nx_o} = '0;
  end

  if (POLICIES[mmu_adm_pkg::POLICY_DSH]) begin : g_dsh_cfg
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        dsh_nq_o <= '0;
        dsh_pmask_o <= '0;
      end else if (load) begin
        dsh_nq_o <= dsh_nq_of(ll_after());
        dsh_pmask_o <= dsh_pmask_of(prof_after(), ll_after());
      end
    end
  end else begin : g_no_dsh_cfg
    assign dsh_nq_o = '0;
    assign dsh_pmask_o = '0;
  end

  if (POLICIES[mmu_adm_pkg::POLICY_SIH] && PIPE != 0) begin : g_sih_hdrm_cnt
    // With PIPE 1 the same sum as sum over the profiles of (lossless PGs on the profile) x
    // (its xoff): NPROF counts, stepped at a queue map write's edge by the entry it replaces
    // and the one it writes, and NPROF narrow products at the next edge. A sum over the NQ
    // queues is log2(NQ) adder levels deep and grows with NQ in area (12,570 um2 at
    // 64 x 8, ASAP7, the block alone); this is NPROF * (QW + 1) flip-flops, the NQ:1 read
    // of the replaced entry and NPROF products.
    localparam int NW = QW + 1;
    logic [NPROF*NW-1:0] cnt;  // lossless PGs per ingress profile
    function automatic logic [NPROF*NW-1:0] cnt_after(input logic [NPROF*NW-1:0] c);
      logic [PFW-1:0] old_pf, new_pf;
      logic old_ll, dec, inc;
      old_pf = q_pg_prof_i[QW'(qmap_widx_i)*5 +: PFW];
      old_ll = q_lossless_i[QW'(qmap_widx_i)];
      new_pf = q_pg_prof_wd_i[PFW-1:0];
      // Each count steps by -1, 0 or +1: one adder, not a decrement and an increment in series.
      for (int p = 0; p < NPROF; p++) begin
        dec = old_ll && old_pf == PFW'(p);
        inc = q_lossless_wd_i && new_pf == PFW'(p);
        cnt_after[p*NW +: NW] = c[p*NW +: NW] + (inc && !dec ? NW'(1) : dec && !inc ? {NW{1'b1}} : NW'(0));
      end
    endfunction
    function automatic logic [NPROF*HW-1:0] products(input logic [NPROF*NW-1:0] c,
                                                      input logic [NPROF*CW-1:0] xoff);
      for (int p = 0; p < NPROF; p++)
        products[p*HW +: HW] = HW'(c[p*NW +: NW]) * HW'(xoff[p*CW +: CW]);
    endfunction
    function automatic logic [HW-1:0] sum_of(input logic [NPROF*HW-1:0] prod);
      sum_of = '0;
      for (int p = 0; p < NPROF; p++) sum_of = sum_of + prod[p*HW +: HW];
    endfunction
    if (PIPE == 3) begin : g_two
      // PIPE 3 reads the capacity in the test stage, two cycles after the first operation
      // taken after the write: the products registered at the load, summed at the edge
      // after it (one multiply and a four-operand sum were 4.7 ps over 1 ns at 64 x 8).
      logic [NPROF*HW-1:0] prod_q;
      logic load_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          cnt <= '0;
          prod_q <= '0;
          load_q <= 1'b0;
          sih_hdrm_o <= '0;
        end else begin
          if (qmap_we_i) cnt <= cnt_after(cnt);
          if (load) prod_q <= products(cnt, ip_xoff_i);
          load_q <= load;
          if (load_q) sih_hdrm_o <= sum_of(prod_q);
        end
      end
    end else begin : g_one
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          cnt <= '0;
          sih_hdrm_o <= '0;
        end else begin
          if (qmap_we_i) cnt <= cnt_after(cnt);
          if (load) sih_hdrm_o <= sum_of(products(cnt, ip_xoff_i));
        end
      end
    end
  end else if (POLICIES[mmu_adm_pkg::POLICY_SIH]) begin : g_sih_hdrm
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) sih_hdrm_o <= '0;
      else if (load) sih_hdrm_o <= sih_hdrm_of(xoff_after(), prof_after(), ll_after());
    end
  end else begin : g_sih_hdrm_off
    assign sih_hdrm_o = '0;
  end

endmodule

`default_nettype wire
