// Netlist against RTL: the yosys generic netlist of mmu_admission (module renamed
// mmu_admission_net, simulated with yosys's simcells.v/simlib.v) and the RTL get the same
// random stimulus; every output is compared every cycle. Per policy: reset, a random
// legal configuration, then random requests, releases of admitted packets, CSR reads
// and writes (some refused, some out of range) and one reset in the middle of traffic.
// Icarus (-g2012). Prints "PASS <cycles> cycles <admitted> admitted ..." or the first
// mismatches and "FAIL".
`timescale 1ns / 1ps
`default_nettype none

module netlist_equiv_tb;
  parameter int NPORTS = 2;
  parameter int NPRIO = 2;
  parameter int CW = 10;
  parameter int NPOOLS = 2;
  parameter int NPROF = 2;
  parameter int EWMA_FRAC = 8;
  parameter int CELLW = 4;
  parameter int POLICIES = 7;
  parameter int DUAL_ISSUE = 1;  // 1: a request is taken in the same cycle as a release
  parameter int PIPE = 0;        // 1: the two-stage request path, responses a cycle later
  parameter int CYCLES = 6000;   // per policy
  parameter int SEED = 1;
  localparam int PW = NPORTS > 1 ? $clog2(NPORTS) : 1;
  localparam int NQ = NPORTS * NPRIO;
  localparam int OW = 1 + 1 + 32 + 1 + 1 + 1 + 2 + 2 + 2 + 3 + 1 + 1 + 2 + 2 + CW + CW + 1 + 64;

  reg clk = 1'b0;
  reg rst_n = 1'b0;
  reg cfg_valid = 1'b0, cfg_write = 1'b0;
  reg [11:0] cfg_addr = '0;
  reg [31:0] cfg_wdata = '0;
  reg req_valid = 1'b0;
  reg [PW-1:0] req_in = '0, req_out = '0;
  reg [2:0] req_prio = '0, req_queue = '0;
  reg [CELLW-1:0] req_cells = '0;
  reg rel_valid = 1'b0;
  reg [PW-1:0] rel_in = '0, rel_out = '0;
  reg [2:0] rel_prio = '0, rel_queue = '0;
  reg [CELLW-1:0] rel_cells = '0;

  wire [OW-1:0] o_rtl, o_net;
  // The debug/state port reads a random state word every cycle (set after the rising
  // edge, compared at the falling one with the other outputs): every entry of the memories.
  reg [15:0] dbg_addr = '0;
  integer dbg_seed = SEED + 1;
  always @(posedge clk) #2 dbg_addr = {4'($unsigned($random(dbg_seed)) % 14), 12'($unsigned($random(dbg_seed)) % (NQ + 1))};
  // The cycle count (abm's intervals) advances by 0..3 a cycle.
  reg [31:0] now = '0;
  always @(posedge clk) #2 now = now + 32'($unsigned($random(dbg_seed)) % 4);

  mmu_admission #(
    .NPORTS(NPORTS), .NPRIO(NPRIO), .CW(CW), .NPOOLS(NPOOLS), .NPROF(NPROF),
    .EWMA_FRAC(EWMA_FRAC), .CELLW(CELLW), .POLICIES(6'(POLICIES)), .DUAL_ISSUE(DUAL_ISSUE),
    .PIPE(PIPE)
  ) u_rtl (
    .clk_i(clk), .rst_ni(rst_n), .now_i(now),
    .cfg_valid_i(cfg_valid), .cfg_ready_o(o_rtl[0]), .cfg_write_i(cfg_write), .cfg_addr_i(cfg_addr),
    .cfg_wdata_i(cfg_wdata), .cfg_rvalid_o(o_rtl[1]), .cfg_rdata_o(o_rtl[33:2]), .cfg_error_o(o_rtl[34]),
    .req_valid_i(req_valid), .req_ready_o(o_rtl[35]), .req_in_port_i(req_in), .req_out_port_i(req_out),
    .req_prio_i(req_prio), .req_queue_i(req_queue), .req_cells_i(req_cells), .rsp_valid_o(o_rtl[36]), .rsp_verdict_o(o_rtl[38:37]),
    .rsp_pfc_o(o_rtl[40:39]), .rsp_port_pfc_o(o_rtl[42:41]), .rsp_reason_o(o_rtl[45:43]),
    .rel_valid_i(rel_valid), .rel_ready_o(o_rtl[46]), .rel_in_port_i(rel_in), .rel_out_port_i(rel_out),
    .rel_prio_i(rel_prio), .rel_queue_i(rel_queue), .rel_cells_i(rel_cells), .rel_rsp_valid_o(o_rtl[47]),
    .rel_rsp_pfc_o(o_rtl[49:48]), .rel_rsp_port_pfc_o(o_rtl[51:50]),
    .stat_total_o(o_rtl[52 +: CW]), .stat_hdrm_pool_o(o_rtl[52 + CW +: CW]), .stat_underflow_o(o_rtl[52 + 2*CW]),
    .dbg_addr_i(dbg_addr), .dbg_data_o(o_rtl[53 + 2*CW +: 64])
  );

  mmu_admission_net u_net (
    .clk_i(clk), .rst_ni(rst_n), .now_i(now),
    .cfg_valid_i(cfg_valid), .cfg_ready_o(o_net[0]), .cfg_write_i(cfg_write), .cfg_addr_i(cfg_addr),
    .cfg_wdata_i(cfg_wdata), .cfg_rvalid_o(o_net[1]), .cfg_rdata_o(o_net[33:2]), .cfg_error_o(o_net[34]),
    .req_valid_i(req_valid), .req_ready_o(o_net[35]), .req_in_port_i(req_in), .req_out_port_i(req_out),
    .req_prio_i(req_prio), .req_queue_i(req_queue), .req_cells_i(req_cells), .rsp_valid_o(o_net[36]), .rsp_verdict_o(o_net[38:37]),
    .rsp_pfc_o(o_net[40:39]), .rsp_port_pfc_o(o_net[42:41]), .rsp_reason_o(o_net[45:43]),
    .rel_valid_i(rel_valid), .rel_ready_o(o_net[46]), .rel_in_port_i(rel_in), .rel_out_port_i(rel_out),
    .rel_prio_i(rel_prio), .rel_queue_i(rel_queue), .rel_cells_i(rel_cells), .rel_rsp_valid_o(o_net[47]),
    .rel_rsp_pfc_o(o_net[49:48]), .rel_rsp_port_pfc_o(o_net[51:50]),
    .stat_total_o(o_net[52 +: CW]), .stat_hdrm_pool_o(o_net[52 + CW +: CW]), .stat_underflow_o(o_net[52 + 2*CW]),
    .dbg_addr_i(dbg_addr), .dbg_data_o(o_net[53 + 2*CW +: 64])
  );

  always #5 clk = ~clk;

  // Packets in the buffer (admitted by the RTL), released in random order.
  localparam int MAXPK = 4096;
  reg [PW-1:0] pk_in[MAXPK];
  reg [PW-1:0] pk_out[MAXPK];
  reg [2:0] pk_prio[MAXPK];
  reg [2:0] pk_queue[MAXPK];
  reg [CELLW-1:0] pk_cells[MAXPK];
  integer npk = 0;

  integer seed = SEED;
  integer cycles = 0, errors = 0, admitted = 0, dropped = 0, xoffs = 0, xons = 0, port_xoffs = 0;
  integer released = 0, refused_writes = 0, reads = 0;
  reg last_req = 1'b0;
  reg [PW-1:0] last_in, last_out;
  reg [2:0] last_prio, last_queue;
  reg [CELLW-1:0] last_cells;
  // The request taken a cycle before the last edge (PIPE 1: the one decided at it).
  reg prev_req = 1'b0;
  reg [PW-1:0] prev_in, prev_out;
  reg [2:0] prev_prio, prev_queue;
  reg [CELLW-1:0] prev_cells;

  function automatic integer urand(input integer n);  // 0 .. n-1
    urand = $unsigned($random(seed)) % n;
  endfunction

  // Compare at the falling edge: outputs have settled since the rising edge.
  task automatic compare;
    if (o_rtl !== o_net) begin
      errors = errors + 1;
      if (errors <= 10)
        $display("MISMATCH t=%0t cycle %0d: rtl %h net %h diff %h", $time, cycles, o_rtl, o_net, o_rtl ^ o_net);
    end
  endtask

  task automatic idle_inputs;
    cfg_valid = 1'b0;
    cfg_write = 1'b0;
    req_valid = 1'b0;
    rel_valid = 1'b0;
  endtask

  task automatic step;  // one clock: compare, bookkeeping, then inputs for the next edge are set by the caller
    @(negedge clk);
    compare();
    cycles = cycles + 1;
    // The request offered at the last edge (PIPE 1: the one before) was accepted if no
    // release was offered with it.
    if (PIPE != 0) begin
      {prev_req, last_req} = {last_req, prev_req};
      {prev_in, last_in, prev_out, last_out} = {last_in, prev_in, last_out, prev_out};
      {prev_prio, last_prio, prev_queue, last_queue} = {last_prio, prev_prio, last_queue, prev_queue};
      {prev_cells, last_cells} = {last_cells, prev_cells};
    end
    if (last_req && o_rtl[36]) begin
      if (o_rtl[38:37] != 2'd2 && npk < MAXPK) begin
        pk_in[npk] = last_in; pk_out[npk] = last_out; pk_prio[npk] = last_prio; pk_cells[npk] = last_cells;
        pk_queue[npk] = last_queue;
        npk = npk + 1;
        admitted = admitted + 1;
      end else if (o_rtl[38:37] == 2'd2) dropped = dropped + 1;
      if (o_rtl[40:39] == 2'd1) xoffs = xoffs + 1;
      if (o_rtl[42:41] == 2'd1) port_xoffs = port_xoffs + 1;
    end
    if (o_rtl[47] && o_rtl[49:48] == 2'd2) xons = xons + 1;
    if (cfg_valid && o_rtl[34]) refused_writes = refused_writes + 1;  // this edge's access failed
    last_req = 1'b0;
  endtask

  task automatic csr_write(input [11:0] addr, input [31:0] data);
    idle_inputs();
    cfg_valid = 1'b1; cfg_write = 1'b1; cfg_addr = addr; cfg_wdata = data;
    step();
    idle_inputs();
  endtask

  task automatic do_reset;
    idle_inputs();
    @(negedge clk);
    rst_n = 1'b0;
    npk = 0;
    last_req = 1'b0;
    prev_req = 1'b0;
    repeat (3) @(negedge clk);
    compare();
    rst_n = 1'b1;
  endtask

  function automatic [31:0] shift_field(input integer s);  // signed 5-bit at [20:16]
    shift_field = 32'((s & 31) << 16);
  endfunction

  task automatic configure(input integer policy);
    integer k, q;
    csr_write(12'h002, 32'(policy) | (32'(urand(2)) << 4) | (32'(urand(2)) << 5) | (32'(1 + urand(4)) << 8));
    // A small buffer (a few dozen packets): thresholds, XOFF, headroom and drops come
    // within tens of cycles, so a short (netlist-speed) run reaches them.
    csr_write(12'h004, 32'(96 + urand(96)));                     // buffer
    csr_write(12'h005, 32'(8 + urand(24)));                      // headroom pool
    csr_write(12'h006, 32'(2 + urand(12)));                      // congested level
    csr_write(12'h007, 32'(urand(8)));                           // dsh port xon offset
    csr_write(12'h008, 32'(urand(4)));                           // abm interval: 1..8 cycles
    for (k = 0; k < NPORTS; k++) csr_write(12'h400 + 12'(k), 32'(urand(40)));  // abm port capacity
    // Ingress profiles on pool 0, egress profiles on the last pool.
    csr_write(12'h010, 32'(48 + urand(64)));
    if (NPOOLS > 1) csr_write(12'h010 + 12'(NPOOLS - 1), 32'(48 + urand(64)));
    for (k = 0; k < NPROF; k++) begin
      csr_write(12'h040 + 12'(k * 8), (urand(4) != 0 ? 32'h100 : 32'h0) | shift_field(urand(7) - 3));
      csr_write(12'h041 + 12'(k * 8), 32'(urand(4)));            // reserved
      csr_write(12'h042 + 12'(k * 8), 32'(4 + urand(32)));       // static threshold
      csr_write(12'h043 + 12'(k * 8), 32'(4 + urand(16)));       // xoff (headroom per PG)
      csr_write(12'h044 + 12'(k * 8), 32'(urand(6)));            // xon
      csr_write(12'h045 + 12'(k * 8), 32'(urand(6)));            // xon offset
      csr_write(12'h0c0 + 12'(k * 4), 32'(NPOOLS - 1) | (urand(4) != 0 ? 32'h100 : 32'h0) | shift_field(urand(7) - 3));
      csr_write(12'h0c1 + 12'(k * 4), 32'(urand(4)));
      csr_write(12'h0c2 + 12'(k * 4), 32'(4 + urand(32)));
    end
    for (q = 0; q < NQ; q++)
      csr_write(12'h200 + 12'(q), 32'(urand(NPROF)) | (32'(urand(NPROF)) << 8) | (32'(urand(3) != 0) << 16));
  endtask

  // Addresses a random CSR access picks from: every register and a few holes.
  function automatic [11:0] rand_addr;
    integer r;
    r = urand(10);
    case (r)
      0: rand_addr = urand(4) == 0 ? 12'h400 + 12'(urand(NPORTS + 1)) : 12'(urand(9));
      1: rand_addr = 12'h010 + 12'(urand(NPOOLS + 1));
      2, 3: rand_addr = 12'h040 + 12'(urand(NPROF * 8 + 2));
      4: rand_addr = 12'h0c0 + 12'(urand(NPROF * 4 + 2));
      5: rand_addr = 12'h100 + 12'(urand(2));
      6: rand_addr = 12'h110 + 12'(urand(NPOOLS + 1));
      7: rand_addr = 12'h120 + 12'(urand(3));
      8: rand_addr = 12'h200 + 12'(urand(NQ + 1));
      default: rand_addr = 12'(urand(4096));
    endcase
  endfunction

  task automatic traffic(input integer n);
    integer i, j, r;
    for (i = 0; i < n; i++) begin
      idle_inputs();
      r = urand(100);
      if (r < 2) begin
        cfg_valid = 1'b1; cfg_write = 1'b1; cfg_addr = rand_addr();
        // Mostly small values; sometimes a policy field, an out-of-range shift or pool.
        cfg_wdata = urand(3) == 0 ? $random(seed) : 32'(urand(1 << (CW - 2)));
      end else if (r < 5) begin
        cfg_valid = 1'b1; cfg_write = 1'b0; cfg_addr = rand_addr();
        reads = reads + 1;
      end
      // Releases: more often when the buffer is full of packets.
      if (npk > 0 && urand(100) < (npk > 12 ? 55 : 30)) begin
        j = urand(npk);
        rel_valid = 1'b1;
        rel_in = pk_in[j]; rel_out = pk_out[j]; rel_prio = pk_prio[j]; rel_cells = pk_cells[j];
        rel_queue = pk_queue[j];
        pk_in[j] = pk_in[npk - 1]; pk_out[j] = pk_out[npk - 1];
        pk_prio[j] = pk_prio[npk - 1]; pk_cells[j] = pk_cells[npk - 1]; pk_queue[j] = pk_queue[npk - 1];
        npk = npk - 1;
        released = released + 1;
      end else if (urand(100) < 3) begin
        // A release of something never admitted: an underflow (sticky) or a wrong account.
        rel_valid = 1'b1;
        rel_in = PW'(urand(NPORTS)); rel_out = PW'(urand(NPORTS)); rel_prio = 3'(urand(NPRIO));
        rel_queue = 3'(urand(NPRIO));
        rel_cells = CELLW'(urand(1 << CELLW));
      end
      if (urand(100) < 75) begin
        req_valid = 1'b1;
        req_in = PW'(urand(NPORTS));
        req_out = urand(3) == 0 ? PW'(urand(NPORTS)) : '0;     // incast towards port 0
        req_prio = 3'(urand(NPRIO));
        req_queue = urand(4) == 0 ? 3'(urand(NPRIO)) : req_prio;  // TC -> queue other than its PG
        req_cells = CELLW'(1 + urand((1 << CELLW) - 1));
        last_req = DUAL_ISSUE != 0 || !rel_valid;
        last_in = req_in; last_out = req_out; last_prio = req_prio; last_cells = req_cells; last_queue = req_queue;
      end
      step();
    end
    idle_inputs();
  endtask

  initial begin
    integer p;
    idle_inputs();
    for (p = 0; p < 6; p++) begin
      if (POLICIES[p]) begin
        do_reset();
        configure(p);
        traffic(CYCLES / 2);
        do_reset();                          // reset in the middle of traffic
        configure(p);
        traffic(CYCLES - CYCLES / 2);
      end
    end
    $display("%0d cycles: %0d admitted, %0d dropped, %0d released, %0d XOFF, %0d XON, %0d port XOFF, %0d CSR errors, %0d reads",
             cycles, admitted, dropped, released, xoffs, xons, port_xoffs, refused_writes, reads);
    if (errors == 0 && admitted > 0 && dropped > 0) $display("PASS");
    else begin
      if (errors == 0) $display("stimulus too weak: nothing admitted or nothing dropped");
      $display("FAIL: %0d mismatching cycles", errors);
    end
    $finish;
  end
endmodule

`default_nettype wire
