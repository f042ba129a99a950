// Co-simulation top (hw-model/cosim/rtl_unit.h): the admission unit with its inputs held
// in registers, each group loaded at the rising edge of its own strobe. Verilator evaluates
// the logic behind a top-level input at every eval() (its input-combinational region);
// behind a register, only when the register is loaded. So the datapaths are evaluated
// when an operation is loaded and after the clock edge, the debug lanes when an address
// is loaded and after the edge, the CSR decode only around a CSR access, instead of each at
// every evaluation. The unit sees the same inputs at the same clock edges as when driven
// directly: an operation's and a CSR access's valid bits clear at the edge that takes
// them, as a driver returns them to idle.
`default_nettype none

module mmu_cosim
#(
  parameter int NPORTS = 8,
  parameter int NPRIO = 8,
  parameter int CW = 32,
  parameter int NPOOLS = 4,
  parameter int NPROF = 8,
  parameter int EWMA_FRAC = 16,
  parameter int CELLW = 16,
  parameter logic [5:0] POLICIES = 6'b111111,
  parameter int DUAL_ISSUE = 1,
  parameter int PIPE = 0,
  parameter int DBG_LANES = 1,
  localparam int DBGW = DBG_LANES > 0 ? DBG_LANES : 1,
  localparam int PW = NPORTS > 1 ? $clog2(NPORTS) : 1
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  // Operations: loaded at op_ld_i's rising edge.
  input  wire              op_ld_i,
  input  wire [31:0]       now_i,
  input  wire              req_valid_i,
  output wire              req_ready_o,
  input  wire [PW-1:0]     req_in_port_i,
  input  wire [PW-1:0]     req_out_port_i,
  input  wire [2:0]        req_prio_i,
  input  wire [2:0]        req_queue_i,
  input  wire [CELLW-1:0]  req_cells_i,
  output wire              rsp_valid_o,
  output wire [1:0]        rsp_verdict_o,
  output wire [1:0]        rsp_pfc_o,
  output wire [1:0]        rsp_port_pfc_o,
  output wire [2:0]        rsp_reason_o,
  input  wire              rel_valid_i,
  input  wire [PW-1:0]     rel_in_port_i,
  input  wire [PW-1:0]     rel_out_port_i,
  input  wire [2:0]        rel_prio_i,
  input  wire [2:0]        rel_queue_i,
  input  wire [CELLW-1:0]  rel_cells_i,
  output wire              rel_rsp_valid_o,
  output wire [1:0]        rel_rsp_pfc_o,
  output wire [1:0]        rel_rsp_port_pfc_o,
  // CSR port: loaded at cfg_ld_i's rising edge.
  input  wire              cfg_ld_i,
  input  wire              cfg_valid_i,
  input  wire              cfg_write_i,
  input  wire [11:0]       cfg_addr_i,
  input  wire [31:0]       cfg_wdata_i,
  output wire              cfg_rvalid_o,
  output wire [31:0]       cfg_rdata_o,
  output wire              cfg_error_o,
  // Statistics.
  output wire [CW-1:0]     stat_total_o,
  output wire [CW-1:0]     stat_hdrm_pool_o,
  output wire              stat_underflow_o,
  // Debug/state read port: addresses loaded at each edge (rising or falling) of dbg_ld_i.
  input  wire              dbg_ld_i,
  input  wire [16*DBGW-1:0] dbg_addr_i,
  output wire [64*DBGW-1:0] dbg_data_o
);

  logic             req_valid, rel_valid, cfg_valid;
  logic [31:0]      now;
  logic [PW-1:0]    req_in_port, req_out_port, rel_in_port, rel_out_port;
  logic [2:0]       req_prio, req_queue, rel_prio, rel_queue;
  logic [CELLW-1:0] req_cells, rel_cells;
  logic             cfg_write;
  logic [11:0]      cfg_addr;
  logic [31:0]      cfg_wdata;
  logic [16*DBGW-1:0] dbg_addr;

  // The valid bits: loaded with their strobe, cleared at the clock edge (a strobe and the
  // edge never rise in one evaluation).
  always_ff @(posedge op_ld_i or posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) {req_valid, rel_valid} <= '0;
    else if (op_ld_i) {req_valid, rel_valid} <= {req_valid_i, rel_valid_i};
    else {req_valid, rel_valid} <= '0;
  end
  always_ff @(posedge cfg_ld_i or posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cfg_valid <= 1'b0;
    else if (cfg_ld_i) cfg_valid <= cfg_valid_i;
    else cfg_valid <= 1'b0;
  end
  always_ff @(posedge op_ld_i) begin
    now <= now_i;
    {req_in_port, req_out_port, req_prio, req_queue, req_cells} <=
        {req_in_port_i, req_out_port_i, req_prio_i, req_queue_i, req_cells_i};
    {rel_in_port, rel_out_port, rel_prio, rel_queue, rel_cells} <=
        {rel_in_port_i, rel_out_port_i, rel_prio_i, rel_queue_i, rel_cells_i};
  end
  always_ff @(posedge cfg_ld_i) {cfg_write, cfg_addr, cfg_wdata} <= {cfg_write_i, cfg_addr_i, cfg_wdata_i};
  // The debug addresses load at either edge of their strobe: a batch of the whole-state read
  // is one evaluation (rtl_unit.h toggles the strobe), not a rise and a fall.
  always_ff @(posedge dbg_ld_i or negedge dbg_ld_i) dbg_addr <= dbg_addr_i;

  /* verilator lint_off PINCONNECTEMPTY */
  mmu_admission #(
    .NPORTS(NPORTS), .NPRIO(NPRIO), .CW(CW), .NPOOLS(NPOOLS), .NPROF(NPROF), .EWMA_FRAC(EWMA_FRAC),
    .CELLW(CELLW), .POLICIES(POLICIES), .DUAL_ISSUE(DUAL_ISSUE), .PIPE(PIPE), .DBG_LANES(DBG_LANES)
  ) u_unit (
    .clk_i, .rst_ni, .now_i(now),
    .cfg_valid_i(cfg_valid), .cfg_ready_o(), .cfg_write_i(cfg_write), .cfg_addr_i(cfg_addr),
    .cfg_wdata_i(cfg_wdata), .cfg_rvalid_o, .cfg_rdata_o, .cfg_error_o,
    .req_valid_i(req_valid), .req_ready_o, .req_in_port_i(req_in_port), .req_out_port_i(req_out_port),
    .req_prio_i(req_prio), .req_queue_i(req_queue), .req_cells_i(req_cells),
    .rsp_valid_o, .rsp_verdict_o, .rsp_pfc_o, .rsp_port_pfc_o, .rsp_reason_o,
    .rel_valid_i(rel_valid), .rel_ready_o(), .rel_in_port_i(rel_in_port), .rel_out_port_i(rel_out_port),
    .rel_prio_i(rel_prio), .rel_queue_i(rel_queue), .rel_cells_i(rel_cells),
    .rel_rsp_valid_o, .rel_rsp_pfc_o, .rel_rsp_port_pfc_o,
    .stat_total_o, .stat_hdrm_pool_o, .stat_underflow_o,
    .dbg_addr_i(dbg_addr), .dbg_data_o
  );
  /* verilator lint_on PINCONNECTEMPTY */

endmodule

`default_nettype wire
