// Self-checking directed test of mmu_admission for a second simulator (Icarus Verilog 11;
// ctest rtl_icarus_directed through tb/rtl/icarus_test.sh). No C++ golden core here: the
// expected outcomes are the hand-computed Dynamic Thresholds case of
// tb/unit/test_admission_core.cc, programmed through the CSR port:
//   buffer 1000 cells; pools: ingress 600, egress lossless 1000, egress lossy 600;
//   headroom pool 100; lossless PG profile alpha 1 (shift 0), xoff 50, xon_offset 10;
//   priority 3 lossless on every port; requests port 0 -> port 1, single cells.
// Expected: 300 shared admits (q >= 600 - q first holds at q = 300), the 301st goes to
// headroom with XOFF, 49 more headroom admits, then a headroom_full drop; on release the
// 50 headroom cells go first (no XON), then XON at the 6th ingress release: the XON test
// compares with the threshold calculator's (THRESH_PERIOD 1; an idle cycle between the
// bench's operations), whose pool occupancy is the one before this release:
// q + 10 <= 600 - (q + 1) <=> q <= 294, i.e. the 56th release.
// Also checked: ID register, one-cycle response latency (one response per accepted
// request), the statistics registers, and with DUAL_ISSUE one request per cycle sustained
// while a release is taken in every cycle too (else req_ready_o low while rel_valid_i is
// high, the request taken the cycle after).
// Prints "PASS" and calls $finish, or prints "FAIL: ..." and calls $fatal.
`default_nettype none

module tb_mmu_admission #(
  parameter int DUAL_ISSUE = 1, // the unit's DUAL_ISSUE: a release and a request per cycle
  parameter int PIPE = 0        // the unit's PIPE: responses PIPE cycles later
);

  localparam int NPORTS = 4;
  localparam int NPRIO = 8;
  localparam int CW = 16;
  localparam int NPOOLS = 3;
  localparam int NPROF = 4;
  localparam int EWMA_FRAC = 16;
  localparam int CELLW = 16;
  localparam int PW = 2;  // $clog2(NPORTS)

  localparam int LL = 3;  // the lossless priority

  // Verdicts, PFC events and drop reasons (mmu_adm_pkg).
  localparam logic [1:0] V_SHARED = 2'd0, V_HEADROOM = 2'd1, V_DROP = 2'd2;
  localparam logic [1:0] P_NONE = 2'd0, P_XOFF = 2'd1, P_XON = 2'd2;
  localparam logic [2:0] R_NONE = 3'd0, R_HEADROOM = 3'd3;

  logic             clk = 1'b0;
  logic             rst_n = 1'b0;
  logic             cfg_valid = 1'b0;
  wire              cfg_ready;
  logic             cfg_write = 1'b0;
  logic [11:0]      cfg_addr = '0;
  logic [31:0]      cfg_wdata = '0;
  wire              cfg_rvalid;
  wire  [31:0]      cfg_rdata;
  wire              cfg_error;
  logic             req_valid = 1'b0;
  wire              req_ready;
  logic [PW-1:0]    req_in = '0;
  logic [PW-1:0]    req_out = '0;
  logic [2:0]       req_prio = '0;
  logic [CELLW-1:0] req_cells = '0;
  wire              rsp_valid;
  wire  [1:0]       rsp_verdict;
  wire  [1:0]       rsp_pfc;
  wire  [1:0]       rsp_port_pfc;
  wire  [2:0]       rsp_reason;
  logic             rel_valid = 1'b0;
  wire              rel_ready;
  logic [PW-1:0]    rel_in = '0;
  logic [PW-1:0]    rel_out = '0;
  logic [2:0]       rel_prio = '0;
  logic [CELLW-1:0] rel_cells = '0;
  wire              rel_rsp_valid;
  wire  [1:0]       rel_rsp_pfc;
  wire  [1:0]       rel_rsp_port_pfc;
  wire  [CW-1:0]    stat_total;
  wire  [CW-1:0]    stat_hdrm_pool;
  wire              stat_underflow;

  mmu_admission #(
    .NPORTS(NPORTS), .NPRIO(NPRIO), .CW(CW), .NPOOLS(NPOOLS), .NPROF(NPROF),
    .EWMA_FRAC(EWMA_FRAC), .CELLW(CELLW), .DUAL_ISSUE(DUAL_ISSUE), .PIPE(PIPE)
  ) dut (
    .clk_i(clk), .rst_ni(rst_n), .now_i(32'd0),
    .cfg_valid_i(cfg_valid), .cfg_ready_o(cfg_ready), .cfg_write_i(cfg_write),
    .cfg_addr_i(cfg_addr), .cfg_wdata_i(cfg_wdata),
    .cfg_rvalid_o(cfg_rvalid), .cfg_rdata_o(cfg_rdata), .cfg_error_o(cfg_error),
    .req_valid_i(req_valid), .req_ready_o(req_ready), .req_in_port_i(req_in),
    .req_out_port_i(req_out), .req_prio_i(req_prio), .req_queue_i(req_prio), .req_cells_i(req_cells),
    .rsp_valid_o(rsp_valid), .rsp_verdict_o(rsp_verdict), .rsp_pfc_o(rsp_pfc),
    .rsp_port_pfc_o(rsp_port_pfc), .rsp_reason_o(rsp_reason),
    .rel_valid_i(rel_valid), .rel_ready_o(rel_ready), .rel_in_port_i(rel_in),
    .rel_out_port_i(rel_out), .rel_prio_i(rel_prio), .rel_queue_i(rel_prio), .rel_cells_i(rel_cells),
    .rel_rsp_valid_o(rel_rsp_valid), .rel_rsp_pfc_o(rel_rsp_pfc),
    .rel_rsp_port_pfc_o(rel_rsp_port_pfc),
    .stat_total_o(stat_total), .stat_hdrm_pool_o(stat_hdrm_pool),
    .stat_underflow_o(stat_underflow)
  );

  always #5 clk = ~clk;

  // A failed check prints "FAIL: <what>" and stops with a non-zero status.
  `define CHECK(cond, what) \
    if (!(cond)) begin \
      $write("FAIL: "); \
      $display what; \
      $fatal(1, "tb_mmu_admission failed"); \
    end

  // Watchdog: the whole test takes about 1000 cycles.
  initial begin
    #200000;
    $display("FAIL: timeout");
    $fatal(1, "tb_mmu_admission timed out");
  end

  // ---------------------------------------------------------------------------------
  // Bus tasks. Inputs change on the falling edge; the unit samples them on the rising
  // edge; registered outputs are looked at just after that rising edge.
  // ---------------------------------------------------------------------------------
  task automatic csr_write(input logic [11:0] addr, input logic [31:0] data);
    @(negedge clk);
    cfg_valid = 1'b1;
    cfg_write = 1'b1;
    cfg_addr = addr;
    cfg_wdata = data;
    `CHECK(cfg_ready, ("cfg_ready_o low for a write to 0x%03h", addr))
    @(posedge clk);
    #1;
    `CHECK(!cfg_error, ("write of 0x%08h to 0x%03h refused (cfg_error_o)", data, addr))
    `CHECK(!cfg_rvalid, ("cfg_rvalid_o after a write to 0x%03h", addr))
    @(negedge clk);
    cfg_valid = 1'b0;
    cfg_write = 1'b0;
  endtask

  task automatic csr_read(input logic [11:0] addr, output logic [31:0] data);
    @(negedge clk);
    cfg_valid = 1'b1;
    cfg_write = 1'b0;
    cfg_addr = addr;
    @(posedge clk);
    #1;
    `CHECK(cfg_rvalid, ("no cfg_rvalid_o one cycle after a read of 0x%03h", addr))
    `CHECK(!cfg_error, ("read of 0x%03h flagged cfg_error_o", addr))
    data = cfg_rdata;
    @(negedge clk);
    cfg_valid = 1'b0;
    @(posedge clk);
    #1;
    `CHECK(!cfg_rvalid, ("cfg_rvalid_o held after a read of 0x%03h", addr))
  endtask

  task automatic expect_reg(input logic [11:0] addr, input logic [31:0] want);
    logic [31:0] got;
    csr_read(addr, got);
    `CHECK(got === want, ("register 0x%03h reads 0x%08h, expected 0x%08h", addr, got, want))
  endtask

  // PIPE more cycles with the operation's inputs withdrawn, and no response until the
  // operation is decided.
  task automatic await_decide;
    for (int k = 0; k < PIPE; k++) begin
      #1;
      `CHECK(!rsp_valid && !rel_rsp_valid, ("a response before the operation was decided"))
      @(negedge clk);
      req_valid = 1'b0;
      rel_valid = 1'b0;
      @(posedge clk);
    end
  endtask

  // One admission request; its verdict is on rsp_* 1 + PIPE cycles after acceptance.
  task automatic admit(input int in_port, input int out_port, input int prio, input int cells,
                       output logic [1:0] verdict, output logic [1:0] pfc, output logic [2:0] reason);
    @(negedge clk);
    req_valid = 1'b1;
    req_in = PW'(in_port);
    req_out = PW'(out_port);
    req_prio = 3'(prio);
    req_cells = CELLW'(cells);
    #1;
    `CHECK(req_ready, ("req_ready_o low with no release offered"))
    @(posedge clk);  // accepted here
    await_decide();
    #1;
    `CHECK(rsp_valid, ("no rsp_valid_o 1 + PIPE cycles after an accepted request"))
    `CHECK(!rel_rsp_valid, ("rel_rsp_valid_o after a request"))
    verdict = rsp_verdict;
    pfc = rsp_pfc;
    reason = rsp_reason;
    `CHECK(rsp_port_pfc == P_NONE, ("port-level PFC event %0d under dt", rsp_port_pfc))
    @(negedge clk);
    req_valid = 1'b0;
  endtask

  // One release; its PFC event is on rel_rsp_* 1 + PIPE cycles later.
  task automatic depart(input int in_port, input int out_port, input int prio, input int cells,
                         output logic [1:0] pfc);
    @(negedge clk);
    rel_valid = 1'b1;
    rel_in = PW'(in_port);
    rel_out = PW'(out_port);
    rel_prio = 3'(prio);
    rel_cells = CELLW'(cells);
    #1;
    `CHECK(rel_ready, ("rel_ready_o low"))
    `CHECK(req_ready == (DUAL_ISSUE != 0), ("req_ready_o %0d while rel_valid_i is high, DUAL_ISSUE %0d", req_ready, DUAL_ISSUE))
    @(posedge clk);
    await_decide();
    #1;
    `CHECK(rel_rsp_valid, ("no rel_rsp_valid_o 1 + PIPE cycles after a release"))
    `CHECK(!rsp_valid, ("rsp_valid_o after a release with no request"))
    `CHECK(!stat_underflow, ("stat_underflow_o after a release"))
    pfc = rel_rsp_pfc;
    @(negedge clk);
    rel_valid = 1'b0;
  endtask

  // ---------------------------------------------------------------------------------
  // The test.
  // ---------------------------------------------------------------------------------
  int i, shared_n, n_rel;
  logic [1:0] v, pfc;
  logic [2:0] reason;
  logic [31:0] rd;

  initial begin
    // Reset.
    repeat (3) @(posedge clk);
    @(negedge clk);
    rst_n = 1'b1;
    @(posedge clk);
    #1;
    `CHECK(!rsp_valid && !rel_rsp_valid && stat_total == '0 && !stat_underflow,
           ("outputs not idle after reset"))

    // Identification and parameters.
    expect_reg(mmu_regs_pkg::ID_ADDR[11:0], 32'h4d4d5541);
    expect_reg(mmu_regs_pkg::PARAMS_ADDR[11:0],
               (32'(CW) << 24) | (32'(NPROF) << 16) | (32'(NPOOLS) << 12) | (32'(NPRIO) << 8) | 32'(NPORTS));

    // Configuration: the dt case of tb/unit/test_admission_core.cc.
    csr_write(mmu_regs_pkg::CTRL_ADDR[11:0], mmu_regs_pkg::CTRL_POLICY_DT);
    csr_write(mmu_regs_pkg::BUFFER_CELLS_ADDR[11:0], 1000);
    csr_write(mmu_regs_pkg::HDRM_POOL_CELLS_ADDR[11:0], 100);
    csr_write(mmu_regs_pkg::POOL_SIZE_ADDR[11:0] + 12'd0, 600);   // ingress
    csr_write(mmu_regs_pkg::POOL_SIZE_ADDR[11:0] + 12'd1, 1000);  // egress lossless
    csr_write(mmu_regs_pkg::POOL_SIZE_ADDR[11:0] + 12'd2, 600);   // egress lossy
    // Ingress profile 0, lossless: pool 0, dynamic, shift 0 (alpha 1), xoff 50, xon_offset 10.
    csr_write(mmu_regs_pkg::IPROF_MODE_ADDR[11:0], (32'd1 << 8) | (32'd0 << 16) | 32'd0);
    csr_write(mmu_regs_pkg::IPROF_RESERVED_ADDR[11:0], 0);
    csr_write(mmu_regs_pkg::IPROF_STATIC_ADDR[11:0], 0);
    csr_write(mmu_regs_pkg::IPROF_XOFF_ADDR[11:0], 50);
    csr_write(mmu_regs_pkg::IPROF_XON_ADDR[11:0], 0);
    csr_write(mmu_regs_pkg::IPROF_XON_OFFSET_ADDR[11:0], 10);
    // Ingress profile 1, lossy: pool 0, static 1000 (never binds).
    csr_write(mmu_regs_pkg::IPROF_MODE_ADDR[11:0] + 12'd8, 32'd0);
    csr_write(mmu_regs_pkg::IPROF_STATIC_ADDR[11:0] + 12'd8, 1000);
    // Egress profile 0, lossless: pool 1, static 1000. Profile 1, lossy: pool 2, alpha 1.
    csr_write(mmu_regs_pkg::EPROF_MODE_ADDR[11:0], 32'd1);
    csr_write(mmu_regs_pkg::EPROF_STATIC_ADDR[11:0], 1000);
    csr_write(mmu_regs_pkg::EPROF_MODE_ADDR[11:0] + 12'd4, (32'd1 << 8) | 32'd2);
    csr_write(mmu_regs_pkg::EPROF_STATIC_ADDR[11:0] + 12'd4, 0);
    // Queue maps: priority 3 lossless on profiles 0/0, everything else lossy on 1/1.
    for (i = 0; i < NPORTS * NPRIO; i++)
      csr_write(mmu_regs_pkg::QMAP_ADDR[11:0] + 12'(i),
                (i % NPRIO == LL) ? (32'd1 << 16) : ((32'd1 << 8) | 32'd1));
    // Read some of it back.
    expect_reg(mmu_regs_pkg::IPROF_MODE_ADDR[11:0], 32'h0000_0100);
    expect_reg(mmu_regs_pkg::IPROF_XOFF_ADDR[11:0], 50);
    expect_reg(mmu_regs_pkg::EPROF_MODE_ADDR[11:0] + 12'd4, 32'h0000_0102);
    expect_reg(mmu_regs_pkg::POOL_SIZE_ADDR[11:0] + 12'd1, 1000);
    expect_reg(mmu_regs_pkg::QMAP_ADDR[11:0] + 12'(NPRIO + LL), 32'h0001_0000);
    expect_reg(mmu_regs_pkg::QMAP_ADDR[11:0] + 12'(NPRIO + 1), 32'h0000_0101);

    // 300 shared admits: q >= 1 * (600 - q) first holds at q = 300.
    shared_n = 0;
    for (i = 1; i <= 300; i++) begin
      admit(0, 1, LL, 1, v, pfc, reason);
      `CHECK(v == V_SHARED && pfc == P_NONE,
             ("request %0d: verdict %0d pfc %0d, expected shared without PFC", i, v, pfc))
      shared_n++;
    end
    // The 301st: headroom, with XOFF.
    admit(0, 1, LL, 1, v, pfc, reason);
    `CHECK(v == V_HEADROOM && pfc == P_XOFF,
           ("request 301: verdict %0d pfc %0d, expected headroom (1) with XOFF (1)", v, pfc))
    // After the last request the response is a single-cycle pulse.
    @(posedge clk);
    #1;
    `CHECK(!rsp_valid, ("rsp_valid_o held with no request"))
    expect_reg(mmu_regs_pkg::STAT_POOL_USED_ADDR[11:0], 300);   // ingress pool
    // Egress lossless pool: every admitted cell, headroom ones included (no reserve).
    expect_reg(mmu_regs_pkg::STAT_POOL_USED_ADDR[11:0] + 12'd1, 301);

    // 49 more headroom admits (50 in all, the PG's xoff), then a headroom_full drop.
    for (i = 1; i <= 49; i++) begin
      admit(0, 1, LL, 1, v, pfc, reason);
      `CHECK(v == V_HEADROOM && pfc == P_NONE,
             ("headroom request %0d: verdict %0d pfc %0d, expected headroom without PFC", i + 1, v, pfc))
    end
    admit(0, 1, LL, 1, v, pfc, reason);
    `CHECK(v == V_DROP && reason == R_HEADROOM && pfc == P_NONE,
           ("request 351: verdict %0d reason %0d pfc %0d, expected drop (2), headroom_full (3)", v, reason, pfc))
    `CHECK(stat_total == CW'(350) && stat_hdrm_pool == CW'(50),
           ("after the drop: total %0d headroom pool %0d, expected 350 and 50", stat_total, stat_hdrm_pool))
    expect_reg(mmu_regs_pkg::STAT_TOTAL_ADDR[11:0], 350);
    expect_reg(mmu_regs_pkg::STAT_HDRM_POOL_ADDR[11:0], 50);
    expect_reg(mmu_regs_pkg::STAT_DECISIONS_ADDR[11:0], 351);
    expect_reg(mmu_regs_pkg::STAT_DROPS_ADDR[11:0], 1);

    // Releases: headroom first (50, no XON), then the 6th ingress release brings XON.
    n_rel = 0;
    for (i = 1; i <= 55; i++) begin
      depart(0, 1, LL, 1, pfc);
      n_rel++;
      `CHECK(pfc == P_NONE, ("release %0d: pfc %0d, expected no event before the 56th", i, pfc))
    end
    expect_reg(mmu_regs_pkg::STAT_HDRM_POOL_ADDR[11:0], 0);
    depart(0, 1, LL, 1, pfc);
    n_rel++;
    `CHECK(pfc == P_XON, ("release 56: pfc %0d, expected XON (2)", pfc))
    expect_reg(mmu_regs_pkg::STAT_TOTAL_ADDR[11:0], 294);
    expect_reg(mmu_regs_pkg::STAT_POOL_USED_ADDR[11:0], 294);

    if (DUAL_ISSUE != 0) begin
      // One request per cycle sustained: for 20 cycles a release and a request on the
      // same queue every cycle, both taken at once and answered 1 + PIPE cycles later;
      // the request sees the release's cell gone (294 - 1 + 1 stays within the threshold).
      @(negedge clk);
      rel_valid = 1'b1;
      rel_in = 0; rel_out = 1; rel_prio = 3'(LL); rel_cells = 1;
      req_valid = 1'b1;
      req_in = 0; req_out = 1; req_prio = 3'(LL); req_cells = 1;
      for (i = 0; i < 20 + PIPE; i++) begin
        if (i == 20) begin  // the pipeline's last pair
          rel_valid = 1'b0;
          req_valid = 1'b0;
        end
        #1;
        `CHECK(i >= 20 || (req_ready && rel_ready), ("cycle %0d of the stream: ready low with both offered", i))
        @(posedge clk);
        #1;
        `CHECK(i < PIPE || (rsp_valid && rsp_verdict == V_SHARED && rsp_pfc == P_NONE),
               ("stream cycle %0d: valid %0d verdict %0d pfc %0d, expected a shared admit", i, rsp_valid, rsp_verdict, rsp_pfc))
        `CHECK(i < PIPE || (rel_rsp_valid && rel_rsp_pfc == P_NONE), ("stream cycle %0d: no release response", i))
        `CHECK(i >= PIPE || (!rsp_valid && !rel_rsp_valid), ("stream cycle %0d: a response before a decision", i))
        `CHECK(stat_total == CW'(294), ("stream cycle %0d: total %0d, expected 294", i, stat_total))
        @(negedge clk);
      end
      rel_valid = 1'b0;
      req_valid = 1'b0;
      expect_reg(mmu_regs_pkg::STAT_DECISIONS_ADDR[11:0], 371);
    end else begin
      // A release and a request offered together: the release goes first, the request
      // waits (req_ready_o low) and is taken the next cycle, answered one cycle after.
      @(negedge clk);
      rel_valid = 1'b1;
      rel_in = 0; rel_out = 1; rel_prio = 3'(LL); rel_cells = 1;
      req_valid = 1'b1;
      req_in = 0; req_out = 1; req_prio = 3'(LL); req_cells = 1;
      #1;
      `CHECK(!req_ready, ("req_ready_o high while rel_valid_i is high"))
      @(posedge clk);
      #1;
      `CHECK(PIPE != 0 || (rel_rsp_valid && rel_rsp_pfc == P_NONE), ("release with a waiting request: no release response"))
      `CHECK(!rsp_valid, ("a request was taken while a release was offered"))
      @(negedge clk);
      rel_valid = 1'b0;
      #1;
      `CHECK(req_ready, ("req_ready_o low after the release"))
      @(posedge clk);
      #1;
      `CHECK(PIPE == 0 || (rel_rsp_valid && rel_rsp_pfc == P_NONE), ("release with a waiting request: no release response"))
      @(negedge clk);
      req_valid = 1'b0;
      if (PIPE != 0) @(posedge clk);
      #1;
      `CHECK(rsp_valid && rsp_verdict == V_SHARED && rsp_pfc == P_NONE,
             ("held request: valid %0d verdict %0d pfc %0d, expected a shared admit", rsp_valid, rsp_verdict, rsp_pfc))
      `CHECK(!rel_rsp_valid, ("rel_rsp_valid_o held"))
      @(negedge clk);
      expect_reg(mmu_regs_pkg::STAT_DECISIONS_ADDR[11:0], 352);
    end
    expect_reg(mmu_regs_pkg::STAT_TOTAL_ADDR[11:0], 294);

    // Drain; every counter returns to zero, no underflow.
    for (i = 0; i < 294; i++) begin
      depart(0, 1, LL, 1, pfc);
      `CHECK(pfc == P_NONE, ("drain release %0d: pfc %0d", i, pfc))
    end
    `CHECK(stat_total == '0 && stat_hdrm_pool == '0, ("buffer not empty after the drain"))
    expect_reg(mmu_regs_pkg::STAT_POOL_USED_ADDR[11:0], 0);
    expect_reg(mmu_regs_pkg::STAT_POOL_USED_ADDR[11:0] + 12'd1, 0);

    $display("tb_mmu_admission: %0d shared, XOFF at request 301, 50 headroom, drop at 351, XON at release %0d",
             shared_n, n_rel);
    $display("PASS");
    $finish;
  end

endmodule

`undef CHECK

`default_nettype wire
