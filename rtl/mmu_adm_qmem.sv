// A per-queue state memory of the admission unit: N entries of W bits with the two write
// ports of the unit's operation slots (a, the release; b, the request, which wins when both
// name one entry), NR combinational read ports, and a valid bit per entry: an entry reads
// zero until written after reset or a clear, so reset and clear touch the bit vector only,
// as for a register file without reset. reverie's filters (mmu_admission) and abm's
// per-queue rate state (mmu_adm_rate) are instances; one module, so the area breakdown
// finds each as a block of the hierarchy (scripts/ppa) and yosys keeps the entries as
// registers named entry by entry (mem2reg). ENABLE 0: no state, every read zero.
`default_nettype none

module mmu_adm_qmem
#(
  parameter int W = 32,          // entry bits
  parameter int N = 64,          // entries
  parameter int NR = 2,          // read ports
  parameter bit ENABLE = 1'b1,
  localparam int AW = N > 1 ? $clog2(N) : 1
) (
  // All unused without ENABLE.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire            clk_i,
  input  wire            rst_ni,
  input  wire            clear_i,   // every entry reads zero from the next cycle on
  input  wire            a_we_i,
  input  wire [AW-1:0]   a_addr_i,
  input  wire [W-1:0]    a_wd_i,
  input  wire            b_we_i,
  input  wire [AW-1:0]   b_addr_i,
  input  wire [W-1:0]    b_wd_i,
  input  wire [NR*AW-1:0] raddr_i,  // port r at [r*AW +: AW]
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [NR*W-1:0] rdata_o
);

  if (ENABLE) begin : g_on
    (* mem2reg *) logic [W-1:0] mem [0:N-1];
    logic [N-1:0] valid;
    always_ff @(posedge clk_i) begin
      if (a_we_i) mem[a_addr_i] <= a_wd_i;
      if (b_we_i) mem[b_addr_i] <= b_wd_i;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) valid <= '0;
      else if (clear_i) valid <= '0;
      else begin
        if (a_we_i) valid[a_addr_i] <= 1'b1;
        if (b_we_i) valid[b_addr_i] <= 1'b1;
      end
    end
    for (genvar r = 0; r < NR; r++) begin : g_rd
      wire [AW-1:0] ra = raddr_i[r*AW +: AW];
      assign rdata_o[r*W +: W] = valid[ra] ? mem[ra] : '0;
    end
  end else begin : g_off
    assign rdata_o = '0;
  end

endmodule

`default_nettype wire
