// CSR block of the admission unit: configuration registers and statistics (rtl/regmap.json).
//
// Arrays leave this block as flat vectors (entry k at [k*W +: W]): yosys 0.23 takes
// neither packed 2-D nor unpacked array ports. Writes that change how queues are
// accounted (policy, pools and reserved sizes of profiles, queue maps, congestion level)
// are refused with cfg_error_o while the buffer holds cells: counters kept under the old
// rule would no longer add up. So are values outside a field's range. Consistency across
// registers (a pool no larger than the buffer, ingress and egress profiles on different
// pools) is software's to keep; the golden core's configuration check states it.
`default_nettype none

module mmu_adm_csr
#(
  parameter int NPORTS = 8,  // switch ports
  parameter int NPRIO = 8,   // priorities per port
  parameter int CW = 32,     // counter width
  parameter int NPOOLS = 4,  // pools
  parameter int NPROF = 8,   // profile table entries (ingress and egress each)
  parameter logic [5:0] POLICIES = 6'b011111,  // policies the unit has (mmu_admission)
  localparam int NQ = NPORTS * NPRIO
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire                 cfg_valid_i,
  output wire                 cfg_ready_o,
  input  wire                 cfg_write_i,
  input  wire [11:0]          cfg_addr_i,
  // Registers narrower than 32 bits (CW < 32, fields) ignore the upper bits by design.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire [31:0]          cfg_wdata_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                cfg_rvalid_o,
  output logic [31:0]         cfg_rdata_o,
  output logic                cfg_error_o,
  output logic [2:0]          cfg_policy_o,
  output wire                 cfg_policy_set_o,  // this cycle's write changes the policy
  output logic                cfg_ewma_rule_o,
  output logic                cfg_ewma_clamp_o,
  output logic [4:0]          cfg_ewma_k_o,
  output logic [CW-1:0]       cfg_buffer_o,
  output logic [CW-1:0]       cfg_hdrm_pool_o,
  output logic [CW-1:0]       cfg_congested_o,
  output logic [CW-1:0]       cfg_dsh_port_xon_off_o,
  output logic [NPOOLS*CW-1:0] cfg_pool_size_o,
  output logic [NPROF*4-1:0]  ip_pool_o,
  output logic [NPROF-1:0]    ip_dynamic_o,
  output logic [NPROF*5-1:0]  ip_shift_o,
  output logic [NPROF*CW-1:0] ip_reserved_o,
  output logic [NPROF*CW-1:0] ip_static_o,
  output logic [NPROF*CW-1:0] ip_xoff_o,
  output logic [NPROF*CW-1:0] ip_xon_o,
  output logic [NPROF*CW-1:0] ip_xon_offset_o,
  output logic [NPROF*4-1:0]  ep_pool_o,
  output logic [NPROF-1:0]    ep_dynamic_o,
  output logic [NPROF*5-1:0]  ep_shift_o,
  output logic [NPROF*CW-1:0] ep_reserved_o,
  output logic [NPROF*CW-1:0] ep_static_o,
  output logic [NQ*5-1:0]     q_pg_prof_o,
  output logic [NQ*5-1:0]     q_queue_prof_o,
  output logic [NQ-1:0]       q_lossless_o,
  input  wire [CW-1:0]        stat_total_i,
  input  wire [CW-1:0]        stat_hdrm_pool_i,
  input  wire [NPOOLS*CW-1:0] stat_pool_used_i,
  input  wire                 stat_decision_i,
  input  wire                 stat_drop_i
);

  localparam logic [31:0] ID_VALUE = 32'h4d4d5541;  // 'MMUA'
  localparam int KW = NPROF > 1 ? $clog2(NPROF) : 1;  // profile index bits
  localparam int QIW = NQ > 1 ? $clog2(NQ) : 1;       // queue index bits

  assign cfg_ready_o = 1'b1;

  // The reset policy: the lowest one the unit has.
  function automatic int first_policy();
    first_policy = 0;
    for (int k = 5; k >= 0; k--) if (POLICIES[k]) first_policy = k;
  endfunction

  logic [31:0] decisions, drops;

  // Address decode.
  wire [11:0] a = cfg_addr_i;
  wire        in_pool  = a >= 12'h010 && a < 12'h010 + 12'(NPOOLS);
  wire        in_iprof = a >= 12'h040 && a < 12'h040 + 12'(NPROF * 8) && a[2:0] <= 3'd5;
  wire        in_eprof = a >= 12'h0c0 && a < 12'h0c0 + 12'(NPROF * 4) && a[1:0] <= 2'd2;
  wire        in_spool = a >= 12'h110 && a < 12'h110 + 12'(NPOOLS);
  wire        in_qmap  = a >= 12'h200 && a < 12'h200 + 12'(NQ);
  wire [11:0] pool_i  = a - 12'h010;
  wire [11:0] iprof_k = (a - 12'h040) >> 3;
  wire [11:0] eprof_k = (a - 12'h0c0) >> 2;
  wire [11:0] spool_i = a - 12'h110;
  wire [11:0] q_i     = a - 12'h200;

  wire rw_reg = a == 12'h002 || (a >= 12'h004 && a <= 12'h007) || in_pool || in_iprof || in_eprof || in_qmap;
  wire ro_reg = a == 12'h000 || a == 12'h001 || a == 12'h100 || a == 12'h101 || in_spool ||
                a == 12'h120 || a == 12'h121;

  // Writes that re-define accounting need an empty buffer.
  wire busy = stat_total_i != '0;
  logic quiesce;
  always_comb begin
    quiesce = 1'b0;
    if (a == 12'h002) quiesce = cfg_wdata_i[2:0] != cfg_policy_o;
    else if (a == 12'h006 || in_qmap) quiesce = 1'b1;
    else if (in_iprof && a[2:0] == 3'd0) quiesce = cfg_wdata_i[3:0] != ip_pool_o[iprof_k*4 +: 4];
    else if (in_iprof && a[2:0] == 3'd1) quiesce = 1'b1;
    else if (in_eprof && a[1:0] == 2'd0) quiesce = cfg_wdata_i[3:0] != ep_pool_o[eprof_k*4 +: 4];
    else if (in_eprof && a[1:0] == 2'd1) quiesce = 1'b1;
  end
  // Field values outside their ranges are refused, as the golden core refuses them:
  // a policy the unit lacks (CTRL.policy value i needs POLICIES[i]), ewma_k 31, dynamic_th
  // -16, a pool or profile the unit does not have, a congestion level of 0 cells (every
  // queue congested, none counted).
  logic bad_value;
  always_comb begin
    bad_value = 1'b0;
    if (a == 12'h002)
      bad_value = cfg_wdata_i[2:0] > mmu_adm_pkg::POLICY_ABM || !POLICIES[cfg_wdata_i[2:0]] || cfg_wdata_i[12:8] == 5'd31;
    else if ((in_iprof && a[2:0] == 3'd0) || (in_eprof && a[1:0] == 2'd0))
      bad_value = cfg_wdata_i[20:16] == 5'b10000 || 32'(cfg_wdata_i[3:0]) >= 32'(NPOOLS);
    else if (a == 12'h006)
      bad_value = cfg_wdata_i[CW-1:0] == '0;
    else if (in_qmap)
      bad_value = 32'(cfg_wdata_i[4:0]) >= 32'(NPROF) || 32'(cfg_wdata_i[12:8]) >= 32'(NPROF);
  end
  wire refused = (quiesce && busy) || bad_value;
  wire do_write = cfg_valid_i && cfg_write_i && rw_reg && !refused;
  assign cfg_policy_set_o = do_write && a == 12'h002 && cfg_wdata_i[2:0] != cfg_policy_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_policy_o <= 3'(first_policy());
      cfg_ewma_rule_o <= 1'b0;
      cfg_ewma_clamp_o <= 1'b0;
      cfg_ewma_k_o <= 5'd0;
      cfg_buffer_o <= '0;
      cfg_hdrm_pool_o <= '0;
      cfg_congested_o <= CW'(80);
      cfg_dsh_port_xon_off_o <= '0;
      cfg_pool_size_o <= '0;
      ip_pool_o <= '0;
      ip_dynamic_o <= '0;
      ip_shift_o <= '0;
      ip_reserved_o <= '0;
      ip_static_o <= '0;
      ip_xoff_o <= '0;
      ip_xon_o <= '0;
      ip_xon_offset_o <= '0;
      ep_pool_o <= '0;
      ep_dynamic_o <= '0;
      ep_shift_o <= '0;
      ep_reserved_o <= '0;
      ep_static_o <= '0;
      q_pg_prof_o <= '0;
      q_queue_prof_o <= '0;
      q_lossless_o <= '0;
    end else if (do_write) begin
      if (a == 12'h002) begin
        cfg_policy_o <= cfg_wdata_i[2:0];
        cfg_ewma_rule_o <= cfg_wdata_i[4];
        cfg_ewma_clamp_o <= cfg_wdata_i[5];
        cfg_ewma_k_o <= cfg_wdata_i[12:8];
      end
      if (a == 12'h004) cfg_buffer_o <= cfg_wdata_i[CW-1:0];
      if (a == 12'h005) cfg_hdrm_pool_o <= cfg_wdata_i[CW-1:0];
      if (a == 12'h006) cfg_congested_o <= cfg_wdata_i[CW-1:0];
      if (a == 12'h007) cfg_dsh_port_xon_off_o <= cfg_wdata_i[CW-1:0];
      if (in_pool) cfg_pool_size_o[pool_i*CW +: CW] <= cfg_wdata_i[CW-1:0];
      if (in_iprof) begin
        case (a[2:0])
          3'd0: begin
            ip_pool_o[iprof_k*4 +: 4] <= cfg_wdata_i[3:0];
            ip_dynamic_o[iprof_k[KW-1:0]] <= cfg_wdata_i[8];
            ip_shift_o[iprof_k*5 +: 5] <= cfg_wdata_i[20:16];
          end
          3'd1: ip_reserved_o[iprof_k*CW +: CW] <= cfg_wdata_i[CW-1:0];
          3'd2: ip_static_o[iprof_k*CW +: CW] <= cfg_wdata_i[CW-1:0];
          3'd3: ip_xoff_o[iprof_k*CW +: CW] <= cfg_wdata_i[CW-1:0];
          3'd4: ip_xon_o[iprof_k*CW +: CW] <= cfg_wdata_i[CW-1:0];
          default: ip_xon_offset_o[iprof_k*CW +: CW] <= cfg_wdata_i[CW-1:0];
        endcase
      end
      if (in_eprof) begin
        case (a[1:0])
          2'd0: begin
            ep_pool_o[eprof_k*4 +: 4] <= cfg_wdata_i[3:0];
            ep_dynamic_o[eprof_k[KW-1:0]] <= cfg_wdata_i[8];
            ep_shift_o[eprof_k*5 +: 5] <= cfg_wdata_i[20:16];
          end
          2'd1: ep_reserved_o[eprof_k*CW +: CW] <= cfg_wdata_i[CW-1:0];
          default: ep_static_o[eprof_k*CW +: CW] <= cfg_wdata_i[CW-1:0];
        endcase
      end
      if (in_qmap) begin
        q_pg_prof_o[q_i*5 +: 5] <= cfg_wdata_i[4:0];
        q_queue_prof_o[q_i*5 +: 5] <= cfg_wdata_i[12:8];
        q_lossless_o[q_i[QIW-1:0]] <= cfg_wdata_i[16];
      end
    end
  end

  // Read data, one cycle after the access.
  logic [31:0] rdata;
  always_comb begin
    rdata = '0;
    if (a == 12'h000) rdata = ID_VALUE;
    else if (a == 12'h001) rdata = {2'b0, 6'(CW), 3'b0, 5'(NPROF), 4'(NPOOLS), 4'(NPRIO), 8'(NPORTS)};
    else if (a == 12'h002)
      rdata = {19'b0, cfg_ewma_k_o, 2'b0, cfg_ewma_clamp_o, cfg_ewma_rule_o, 1'b0, cfg_policy_o};
    else if (a == 12'h004) rdata = 32'(cfg_buffer_o);
    else if (a == 12'h005) rdata = 32'(cfg_hdrm_pool_o);
    else if (a == 12'h006) rdata = 32'(cfg_congested_o);
    else if (a == 12'h007) rdata = 32'(cfg_dsh_port_xon_off_o);
    else if (in_pool) rdata = 32'(cfg_pool_size_o[pool_i*CW +: CW]);
    else if (in_iprof) begin
      case (a[2:0])
        3'd0: rdata = {11'b0, ip_shift_o[iprof_k*5 +: 5], 7'b0, ip_dynamic_o[iprof_k[KW-1:0]], 4'b0, ip_pool_o[iprof_k*4 +: 4]};
        3'd1: rdata = 32'(ip_reserved_o[iprof_k*CW +: CW]);
        3'd2: rdata = 32'(ip_static_o[iprof_k*CW +: CW]);
        3'd3: rdata = 32'(ip_xoff_o[iprof_k*CW +: CW]);
        3'd4: rdata = 32'(ip_xon_o[iprof_k*CW +: CW]);
        default: rdata = 32'(ip_xon_offset_o[iprof_k*CW +: CW]);
      endcase
    end else if (in_eprof) begin
      case (a[1:0])
        2'd0: rdata = {11'b0, ep_shift_o[eprof_k*5 +: 5], 7'b0, ep_dynamic_o[eprof_k[KW-1:0]], 4'b0, ep_pool_o[eprof_k*4 +: 4]};
        2'd1: rdata = 32'(ep_reserved_o[eprof_k*CW +: CW]);
        default: rdata = 32'(ep_static_o[eprof_k*CW +: CW]);
      endcase
    end else if (a == 12'h100) rdata = 32'(stat_total_i);
    else if (a == 12'h101) rdata = 32'(stat_hdrm_pool_i);
    else if (in_spool) rdata = 32'(stat_pool_used_i[spool_i*CW +: CW]);
    else if (a == 12'h120) rdata = decisions;
    else if (a == 12'h121) rdata = drops;
    else if (in_qmap) rdata = {15'b0, q_lossless_o[q_i[QIW-1:0]], 3'b0, q_queue_prof_o[q_i*5 +: 5], 3'b0, q_pg_prof_o[q_i*5 +: 5]};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_rvalid_o <= 1'b0;
      cfg_rdata_o <= '0;
      cfg_error_o <= 1'b0;
      decisions <= '0;
      drops <= '0;
    end else begin
      cfg_rvalid_o <= cfg_valid_i && !cfg_write_i;
      if (cfg_valid_i && !cfg_write_i) cfg_rdata_o <= rdata;
      if (cfg_valid_i)
        cfg_error_o <= cfg_write_i ? !rw_reg || refused : !(rw_reg || ro_reg);
      // Statistics counters wrap by design (software reads differences).
      if (stat_decision_i) decisions <= decisions + 32'd1;
      if (stat_drop_i) drops <= drops + 32'd1;
    end
  end

endmodule

`default_nettype wire
