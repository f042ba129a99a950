// generated from rtl/regmap.json by scripts/gen_regs.py; do not edit
//
// Register block of mmu_admission (module mmu_adm_csr): address decode, storage with reset
// values, access rights, field legality and the quiesce rule, all from the map. The unit
// reads its configuration from the reg2hw_* outputs (arrays as flat vectors, entry k at
// [k*W +: W]: yosys 0.23 takes neither packed 2-D nor unpacked array ports) and supplies
// the statistics on hw2reg_* inputs. A write is refused (cfg_error_o, nothing stored) when
// it names no register or a read-only one, carries a value a field does not allow, or
// changes a quiesce field while busy_i (the buffer holds cells). Checks the map cannot
// state are the unit's: a field marked hook shows its value on hook_<field>_o and is
// refused by hook_<field>_bad_i (mmu_admission.sv). Reads return data one cycle later.
`default_nettype none

module mmu_adm_csr
#(
  parameter int NPORTS = 8,  // switch ports
  parameter int NPRIO = 8,  // priorities per port
  parameter int CW = 32,  // counter width: cell-count fields hold their low CW bits
  parameter int NPOOLS = 4,  // pools
  parameter int NPROF = 8,  // profile table entries (ingress and egress each)
  parameter logic [2:0] CTRL_POLICY_RESET = 3'd0  // reset of CTRL.policy
) (
  input  wire clk_i,
  input  wire rst_ni,
  // Bus: one access per cycle.
  input  wire cfg_valid_i,
  output wire cfg_ready_o,
  input  wire cfg_write_i,
  input  wire [11:0] cfg_addr_i,
  // Bits outside every field, and above what a field holds, are ignored by design.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire [31:0] cfg_wdata_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic cfg_rvalid_o,
  output logic [31:0] cfg_rdata_o,
  output logic cfg_error_o,  // the last access was refused
  input  wire busy_i,  // the buffer holds cells: quiesce fields keep their values
  output wire reg2hw_we_o,  // an accepted write this cycle, to any register
  output wire [2:0] hook_ctrl_policy_o,  // CTRL.policy of this cycle's write
  input  wire hook_ctrl_policy_bad_i,  // the unit refuses it
  // CTRL: Policy and filter control.
  output logic [2:0] reg2hw_ctrl_policy_o,
  output wire reg2hw_ctrl_policy_set_o,  // an accepted write changes it
  output logic [0:0] reg2hw_ctrl_ewma_rule_o,
  output logic [0:0] reg2hw_ctrl_ewma_clamp_o,
  output logic [4:0] reg2hw_ctrl_ewma_k_o,
  // BUFFER_CELLS: Physical buffer in cells.
  output logic [CW-1:0] reg2hw_buffer_cells_cells_o,
  // HDRM_POOL_CELLS: Headroom pool in cells.
  output logic [CW-1:0] reg2hw_hdrm_pool_cells_cells_o,
  // CONGESTED_CELLS: A queue with at least this many cells is congested (n_p, reverie).
  output logic [CW-1:0] reg2hw_congested_cells_cells_o,
  // DSH_PORT_XON_OFFSET: delta_p of the DSH port-level XON, cells.
  output logic [CW-1:0] reg2hw_dsh_port_xon_offset_cells_o,
  // ABM_INTERVAL: abm: drain-rate measurement interval of 2^log2 MMU cycles (the interval number is bits log2 and up of now_i).
  output logic [4:0] reg2hw_abm_interval_log2_o,
  // ABM_PORT_CELLS: abm: cells port i can send in one interval (0: every queue counts as full rate).
  output logic [NPORTS*CW-1:0] reg2hw_abm_port_cells_cells_o,
  // THRESH_PERIOD: The threshold calculator (rtl/mmu_adm_thresh.sv) registers the pool occupancies and n_p every this many cycles, counted from reset and restarted by every CSR write; operations compare against thresholds computed from those registers.
  output logic [7:0] reg2hw_thresh_period_cycles_o,
  // POOL_SIZE: Shared size of pool i in cells.
  output logic [NPOOLS*CW-1:0] reg2hw_pool_size_cells_o,
  // IPROF_MODE: Ingress profile k: pool and threshold mode.
  output logic [NPROF*4-1:0] reg2hw_iprof_mode_pool_o,
  output wire [3:0] reg2hw_iprof_mode_pool_wd_o,  // this cycle's write of it
  output logic [NPROF*1-1:0] reg2hw_iprof_mode_dynamic_o,
  output logic [NPROF*5-1:0] reg2hw_iprof_mode_shift_o,
  output wire reg2hw_iprof_mode_we_o,  // an accepted write this cycle
  output wire reg2hw_iprof_mode_wsel_o,  // a write access names it, accepted or not
  output wire [8:0] reg2hw_iprof_mode_widx_o,  // its entry
  // IPROF_RESERVED: Ingress profile k: reserved cells.
  output logic [NPROF*CW-1:0] reg2hw_iprof_reserved_cells_o,
  output wire [CW-1:0] reg2hw_iprof_reserved_cells_wd_o,  // this cycle's write of it
  output wire reg2hw_iprof_reserved_we_o,  // an accepted write this cycle
  output wire reg2hw_iprof_reserved_wsel_o,  // a write access names it, accepted or not
  output wire [8:0] reg2hw_iprof_reserved_widx_o,  // its entry
  // IPROF_STATIC: Ingress profile k: static threshold, cells.
  output logic [NPROF*CW-1:0] reg2hw_iprof_static_cells_o,
  // IPROF_XOFF: Ingress profile k: per-PG headroom (eta), cells.
  output logic [NPROF*CW-1:0] reg2hw_iprof_xoff_cells_o,
  output wire [CW-1:0] reg2hw_iprof_xoff_cells_wd_o,  // this cycle's write of it
  output wire reg2hw_iprof_xoff_we_o,  // an accepted write this cycle
  output wire reg2hw_iprof_xoff_wsel_o,  // a write access names it, accepted or not
  output wire [8:0] reg2hw_iprof_xoff_widx_o,  // its entry
  // IPROF_XON: Ingress profile k: xon, cells.
  output logic [NPROF*CW-1:0] reg2hw_iprof_xon_cells_o,
  // IPROF_XON_OFFSET: Ingress profile k: xon_offset, cells.
  output logic [NPROF*CW-1:0] reg2hw_iprof_xon_offset_cells_o,
  // EPROF_MODE: Egress profile k: pool and threshold mode.
  output logic [NPROF*4-1:0] reg2hw_eprof_mode_pool_o,
  output wire [3:0] reg2hw_eprof_mode_pool_wd_o,  // this cycle's write of it
  output logic [NPROF*1-1:0] reg2hw_eprof_mode_dynamic_o,
  output logic [NPROF*5-1:0] reg2hw_eprof_mode_shift_o,
  output wire reg2hw_eprof_mode_we_o,  // an accepted write this cycle
  output wire reg2hw_eprof_mode_wsel_o,  // a write access names it, accepted or not
  output wire [9:0] reg2hw_eprof_mode_widx_o,  // its entry
  // EPROF_RESERVED: Egress profile k: reserved cells.
  output logic [NPROF*CW-1:0] reg2hw_eprof_reserved_cells_o,
  output wire [CW-1:0] reg2hw_eprof_reserved_cells_wd_o,  // this cycle's write of it
  output wire reg2hw_eprof_reserved_we_o,  // an accepted write this cycle
  output wire reg2hw_eprof_reserved_wsel_o,  // a write access names it, accepted or not
  output wire [9:0] reg2hw_eprof_reserved_widx_o,  // its entry
  // EPROF_STATIC: Egress profile k: static threshold, cells.
  output logic [NPROF*CW-1:0] reg2hw_eprof_static_cells_o,
  // QMAP: Queue (port*NPRIO+prio): profiles and PFC enable.
  output logic [(NPORTS*NPRIO)*5-1:0] reg2hw_qmap_pg_profile_o,
  output wire [4:0] reg2hw_qmap_pg_profile_wd_o,  // this cycle's write of it
  output logic [(NPORTS*NPRIO)*5-1:0] reg2hw_qmap_queue_profile_o,
  output wire [4:0] reg2hw_qmap_queue_profile_wd_o,  // this cycle's write of it
  output logic [(NPORTS*NPRIO)*1-1:0] reg2hw_qmap_lossless_o,
  output wire [0:0] reg2hw_qmap_lossless_wd_o,  // this cycle's write of it
  output wire reg2hw_qmap_we_o,  // an accepted write this cycle
  output wire reg2hw_qmap_wsel_o,  // a write access names it, accepted or not
  output wire [11:0] reg2hw_qmap_widx_o,  // its entry
  // STAT_TOTAL: Cells in the buffer.
  input  wire [CW-1:0] hw2reg_stat_total_cells_i,
  // STAT_HDRM_POOL: Cells in the headroom pool.
  input  wire [CW-1:0] hw2reg_stat_hdrm_pool_cells_i,
  // STAT_POOL_USED: Shared occupancy of pool i.
  input  wire [NPOOLS*CW-1:0] hw2reg_stat_pool_used_cells_i,
  // STAT_DECISIONS: Admission decisions since reset (wraps: a statistics counter, not an admission counter).
  input  wire hw2reg_stat_decisions_inc_i,  // count one
  // STAT_DROPS: Drops since reset (wraps). Its increment is registered (the decide stage's verdict ends at a flip-flop) and a read adds the pending one: a read counts every drop decided before its cycle.
  input  wire hw2reg_stat_drops_inc_i  // count one
);

  assign cfg_ready_o = 1'b1;

  // Address decode: one hit per register; an array's entry index.
  wire [11:0] a = cfg_addr_i;
  // ABM_PORT_CELLS: entry index and range.
  wire [11:0] idx_g400 = a - 12'h400;
  wire in_g400 = a >= 12'h400 && 32'(idx_g400) < 32'(NPORTS);
  // POOL_SIZE: entry index and range.
  wire [11:0] idx_g010 = a - 12'h10;
  wire in_g010 = a >= 12'h10 && 32'(idx_g010) < 32'(NPOOLS);
  // IPROF_MODE, IPROF_RESERVED, IPROF_STATIC, IPROF_XOFF, IPROF_XON, IPROF_XON_OFFSET: entry index and range.
  wire [8:0] idx_g040_s8 = a[11:3] - 9'h8;
  wire in_g040_s8 = a[11:3] >= 9'h8 && 32'(idx_g040_s8) < 32'(NPROF);
  // EPROF_MODE, EPROF_RESERVED, EPROF_STATIC: entry index and range.
  wire [9:0] idx_g0c0_s4 = a[11:2] - 10'h30;
  wire in_g0c0_s4 = a[11:2] >= 10'h30 && 32'(idx_g0c0_s4) < 32'(NPROF);
  // QMAP: entry index and range.
  wire [11:0] idx_g200 = a - 12'h200;
  wire in_g200 = a >= 12'h200 && 32'(idx_g200) < 32'((NPORTS*NPRIO));
  // STAT_POOL_USED: entry index and range.
  wire [11:0] idx_g110 = a - 12'h110;
  wire in_g110 = a >= 12'h110 && 32'(idx_g110) < 32'(NPOOLS);
  wire hit_id = a == 12'h000;
  wire hit_params = a == 12'h001;
  wire hit_ctrl = a == 12'h002;
  wire hit_buffer_cells = a == 12'h004;
  wire hit_hdrm_pool_cells = a == 12'h005;
  wire hit_congested_cells = a == 12'h006;
  wire hit_dsh_port_xon_offset = a == 12'h007;
  wire hit_abm_interval = a == 12'h008;
  wire hit_abm_port_cells = in_g400;
  wire hit_thresh_period = a == 12'h00e;
  wire hit_pool_size = in_g010;
  wire hit_iprof_mode = in_g040_s8 && a[2:0] == 3'd0;
  wire hit_iprof_reserved = in_g040_s8 && a[2:0] == 3'd1;
  wire hit_iprof_static = in_g040_s8 && a[2:0] == 3'd2;
  wire hit_iprof_xoff = in_g040_s8 && a[2:0] == 3'd3;
  wire hit_iprof_xon = in_g040_s8 && a[2:0] == 3'd4;
  wire hit_iprof_xon_offset = in_g040_s8 && a[2:0] == 3'd5;
  wire hit_eprof_mode = in_g0c0_s4 && a[1:0] == 2'd0;
  wire hit_eprof_reserved = in_g0c0_s4 && a[1:0] == 2'd1;
  wire hit_eprof_static = in_g0c0_s4 && a[1:0] == 2'd2;
  wire hit_qmap = in_g200;
  wire hit_stat_total = a == 12'h100;
  wire hit_stat_hdrm_pool = a == 12'h101;
  wire hit_stat_pool_used = in_g110;
  wire hit_stat_decisions = a == 12'h120;
  wire hit_stat_drops = a == 12'h121;
  wire rw_hit = hit_ctrl || hit_buffer_cells || hit_hdrm_pool_cells || hit_congested_cells || hit_dsh_port_xon_offset || hit_abm_interval || hit_abm_port_cells || hit_thresh_period || hit_pool_size || hit_iprof_mode || hit_iprof_reserved || hit_iprof_static || hit_iprof_xoff || hit_iprof_xon || hit_iprof_xon_offset || hit_eprof_mode || hit_eprof_reserved || hit_eprof_static || hit_qmap;
  wire ro_hit = hit_id || hit_params || hit_stat_total || hit_stat_hdrm_pool || hit_stat_pool_used || hit_stat_decisions || hit_stat_drops;

  // What a write would store: the bits each field holds.
  wire [2:0] w_ctrl_policy = cfg_wdata_i[0 +: 3];
  wire [0:0] w_ctrl_ewma_rule = cfg_wdata_i[4 +: 1];
  wire [0:0] w_ctrl_ewma_clamp = cfg_wdata_i[5 +: 1];
  wire [4:0] w_ctrl_ewma_k = cfg_wdata_i[8 +: 5];
  wire [CW-1:0] w_buffer_cells_cells = cfg_wdata_i[0 +: CW];
  wire [CW-1:0] w_hdrm_pool_cells_cells = cfg_wdata_i[0 +: CW];
  wire [CW-1:0] w_congested_cells_cells = cfg_wdata_i[0 +: CW];
  wire [CW-1:0] w_dsh_port_xon_offset_cells = cfg_wdata_i[0 +: CW];
  wire [4:0] w_abm_interval_log2 = cfg_wdata_i[0 +: 5];
  wire [CW-1:0] w_abm_port_cells_cells = cfg_wdata_i[0 +: CW];
  wire [7:0] w_thresh_period_cycles = cfg_wdata_i[0 +: 8];
  wire [CW-1:0] w_pool_size_cells = cfg_wdata_i[0 +: CW];
  wire [3:0] w_iprof_mode_pool = cfg_wdata_i[0 +: 4];
  wire [0:0] w_iprof_mode_dynamic = cfg_wdata_i[8 +: 1];
  wire [4:0] w_iprof_mode_shift = cfg_wdata_i[16 +: 5];
  wire [CW-1:0] w_iprof_reserved_cells = cfg_wdata_i[0 +: CW];
  wire [CW-1:0] w_iprof_static_cells = cfg_wdata_i[0 +: CW];
  wire [CW-1:0] w_iprof_xoff_cells = cfg_wdata_i[0 +: CW];
  wire [CW-1:0] w_iprof_xon_cells = cfg_wdata_i[0 +: CW];
  wire [CW-1:0] w_iprof_xon_offset_cells = cfg_wdata_i[0 +: CW];
  wire [3:0] w_eprof_mode_pool = cfg_wdata_i[0 +: 4];
  wire [0:0] w_eprof_mode_dynamic = cfg_wdata_i[8 +: 1];
  wire [4:0] w_eprof_mode_shift = cfg_wdata_i[16 +: 5];
  wire [CW-1:0] w_eprof_reserved_cells = cfg_wdata_i[0 +: CW];
  wire [CW-1:0] w_eprof_static_cells = cfg_wdata_i[0 +: CW];
  wire [4:0] w_qmap_pg_profile = cfg_wdata_i[0 +: 5];
  wire [4:0] w_qmap_queue_profile = cfg_wdata_i[8 +: 5];
  wire [0:0] w_qmap_lossless = cfg_wdata_i[16 +: 1];
  assign hook_ctrl_policy_o = cfg_wdata_i[0 +: 3];

  // Legal values (enum, min/max, index_of, the unit's hook).
  wire bad_value = (hit_ctrl && !((w_ctrl_policy == 3'd0 || w_ctrl_policy == 3'd1 || w_ctrl_policy == 3'd2 || w_ctrl_policy == 3'd3 || w_ctrl_policy == 3'd4 || w_ctrl_policy == 3'd5) && !hook_ctrl_policy_bad_i && 32'(w_ctrl_ewma_k) <= 32'd30)) ||
                   (hit_congested_cells && !(32'(w_congested_cells_cells) >= 32'd1)) ||
                   (hit_abm_interval && !(32'(w_abm_interval_log2) <= 32'd20)) ||
                   (hit_thresh_period && !(32'(w_thresh_period_cycles) >= 32'd1)) ||
                   (hit_iprof_mode && !(32'(w_iprof_mode_pool) < 32'(NPOOLS) && (w_iprof_mode_shift ^ 5'h10) >= 5'd1)) ||
                   (hit_eprof_mode && !(32'(w_eprof_mode_pool) < 32'(NPOOLS) && (w_eprof_mode_shift ^ 5'h10) >= 5'd1)) ||
                   (hit_qmap && !(32'(w_qmap_pg_profile) < 32'(NPROF) && 32'(w_qmap_queue_profile) < 32'(NPROF)));

  // Quiesce fields: a write changes one when it differs from what the field holds (its
  // own store, not the read mux: the write enables do not wait for the counters' reads).
  wire changes_quiesce = (hit_ctrl && (reg2hw_ctrl_policy_o != w_ctrl_policy)) ||
                         (hit_congested_cells && (reg2hw_congested_cells_cells_o != w_congested_cells_cells)) ||
                         (hit_iprof_mode && (reg2hw_iprof_mode_pool_o[idx_g040_s8*4 +: 4] != w_iprof_mode_pool)) ||
                         (hit_iprof_reserved && (reg2hw_iprof_reserved_cells_o[idx_g040_s8*CW +: CW] != w_iprof_reserved_cells)) ||
                         (hit_eprof_mode && (reg2hw_eprof_mode_pool_o[idx_g0c0_s4*4 +: 4] != w_eprof_mode_pool)) ||
                         (hit_eprof_reserved && (reg2hw_eprof_reserved_cells_o[idx_g0c0_s4*CW +: CW] != w_eprof_reserved_cells)) ||
                         (hit_qmap && (reg2hw_qmap_pg_profile_o[idx_g200*5 +: 5] != w_qmap_pg_profile || reg2hw_qmap_queue_profile_o[idx_g200*5 +: 5] != w_qmap_queue_profile || reg2hw_qmap_lossless_o[idx_g200*1 +: 1] != w_qmap_lossless));
  wire refused = (changes_quiesce && busy_i) || bad_value;
  wire wr_access = cfg_valid_i && cfg_write_i;
  wire do_write = wr_access && rw_hit && !refused;
  assign reg2hw_ctrl_policy_set_o = do_write && hit_ctrl && w_ctrl_policy != reg2hw_ctrl_policy_o;

  // This cycle's accepted write, on its own.
  assign reg2hw_we_o = do_write;
  assign reg2hw_iprof_mode_pool_wd_o = w_iprof_mode_pool;
  assign reg2hw_iprof_reserved_cells_wd_o = w_iprof_reserved_cells;
  assign reg2hw_iprof_xoff_cells_wd_o = w_iprof_xoff_cells;
  assign reg2hw_eprof_mode_pool_wd_o = w_eprof_mode_pool;
  assign reg2hw_eprof_reserved_cells_wd_o = w_eprof_reserved_cells;
  assign reg2hw_qmap_pg_profile_wd_o = w_qmap_pg_profile;
  assign reg2hw_qmap_queue_profile_wd_o = w_qmap_queue_profile;
  assign reg2hw_qmap_lossless_wd_o = w_qmap_lossless;
  assign reg2hw_iprof_mode_we_o = do_write && hit_iprof_mode;
  assign reg2hw_iprof_mode_wsel_o = wr_access && hit_iprof_mode;
  assign reg2hw_iprof_mode_widx_o = idx_g040_s8;
  assign reg2hw_iprof_reserved_we_o = do_write && hit_iprof_reserved;
  assign reg2hw_iprof_reserved_wsel_o = wr_access && hit_iprof_reserved;
  assign reg2hw_iprof_reserved_widx_o = idx_g040_s8;
  assign reg2hw_iprof_xoff_we_o = do_write && hit_iprof_xoff;
  assign reg2hw_iprof_xoff_wsel_o = wr_access && hit_iprof_xoff;
  assign reg2hw_iprof_xoff_widx_o = idx_g040_s8;
  assign reg2hw_eprof_mode_we_o = do_write && hit_eprof_mode;
  assign reg2hw_eprof_mode_wsel_o = wr_access && hit_eprof_mode;
  assign reg2hw_eprof_mode_widx_o = idx_g0c0_s4;
  assign reg2hw_eprof_reserved_we_o = do_write && hit_eprof_reserved;
  assign reg2hw_eprof_reserved_wsel_o = wr_access && hit_eprof_reserved;
  assign reg2hw_eprof_reserved_widx_o = idx_g0c0_s4;
  assign reg2hw_qmap_we_o = do_write && hit_qmap;
  assign reg2hw_qmap_wsel_o = wr_access && hit_qmap;
  assign reg2hw_qmap_widx_o = idx_g200;
  logic [31:0] cnt_stat_decisions;
  logic [31:0] cnt_stat_drops;
  logic pend_stat_drops;  // last cycle's increment, not yet in cnt_stat_drops

  // Storage.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reg2hw_ctrl_policy_o <= CTRL_POLICY_RESET;
      reg2hw_ctrl_ewma_rule_o <= '0;
      reg2hw_ctrl_ewma_clamp_o <= '0;
      reg2hw_ctrl_ewma_k_o <= '0;
      reg2hw_buffer_cells_cells_o <= '0;
      reg2hw_hdrm_pool_cells_cells_o <= '0;
      reg2hw_congested_cells_cells_o <= CW'(80);
      reg2hw_dsh_port_xon_offset_cells_o <= '0;
      reg2hw_abm_interval_log2_o <= 5'd13;
      reg2hw_abm_port_cells_cells_o <= '0;
      reg2hw_thresh_period_cycles_o <= 8'd1;
      reg2hw_pool_size_cells_o <= '0;
      reg2hw_iprof_mode_pool_o <= '0;
      reg2hw_iprof_mode_dynamic_o <= '0;
      reg2hw_iprof_mode_shift_o <= '0;
      reg2hw_iprof_reserved_cells_o <= '0;
      reg2hw_iprof_static_cells_o <= '0;
      reg2hw_iprof_xoff_cells_o <= '0;
      reg2hw_iprof_xon_cells_o <= '0;
      reg2hw_iprof_xon_offset_cells_o <= '0;
      reg2hw_eprof_mode_pool_o <= '0;
      reg2hw_eprof_mode_dynamic_o <= '0;
      reg2hw_eprof_mode_shift_o <= '0;
      reg2hw_eprof_reserved_cells_o <= '0;
      reg2hw_eprof_static_cells_o <= '0;
      reg2hw_qmap_pg_profile_o <= '0;
      reg2hw_qmap_queue_profile_o <= '0;
      reg2hw_qmap_lossless_o <= '0;
      cnt_stat_decisions <= '0;
      cnt_stat_drops <= '0;
      pend_stat_drops <= 1'b0;
    end else begin
      if (do_write && hit_ctrl) begin
        reg2hw_ctrl_policy_o <= w_ctrl_policy;
        reg2hw_ctrl_ewma_rule_o <= w_ctrl_ewma_rule;
        reg2hw_ctrl_ewma_clamp_o <= w_ctrl_ewma_clamp;
        reg2hw_ctrl_ewma_k_o <= w_ctrl_ewma_k;
      end
      if (do_write && hit_buffer_cells) begin
        reg2hw_buffer_cells_cells_o <= w_buffer_cells_cells;
      end
      if (do_write && hit_hdrm_pool_cells) begin
        reg2hw_hdrm_pool_cells_cells_o <= w_hdrm_pool_cells_cells;
      end
      if (do_write && hit_congested_cells) begin
        reg2hw_congested_cells_cells_o <= w_congested_cells_cells;
      end
      if (do_write && hit_dsh_port_xon_offset) begin
        reg2hw_dsh_port_xon_offset_cells_o <= w_dsh_port_xon_offset_cells;
      end
      if (do_write && hit_abm_interval) begin
        reg2hw_abm_interval_log2_o <= w_abm_interval_log2;
      end
      if (do_write && hit_abm_port_cells) begin
        reg2hw_abm_port_cells_cells_o[idx_g400*CW +: CW] <= w_abm_port_cells_cells;
      end
      if (do_write && hit_thresh_period) begin
        reg2hw_thresh_period_cycles_o <= w_thresh_period_cycles;
      end
      if (do_write && hit_pool_size) begin
        reg2hw_pool_size_cells_o[idx_g010*CW +: CW] <= w_pool_size_cells;
      end
      if (do_write && hit_iprof_mode) begin
        reg2hw_iprof_mode_pool_o[idx_g040_s8*4 +: 4] <= w_iprof_mode_pool;
        reg2hw_iprof_mode_dynamic_o[idx_g040_s8*1 +: 1] <= w_iprof_mode_dynamic;
        reg2hw_iprof_mode_shift_o[idx_g040_s8*5 +: 5] <= w_iprof_mode_shift;
      end
      if (do_write && hit_iprof_reserved) begin
        reg2hw_iprof_reserved_cells_o[idx_g040_s8*CW +: CW] <= w_iprof_reserved_cells;
      end
      if (do_write && hit_iprof_static) begin
        reg2hw_iprof_static_cells_o[idx_g040_s8*CW +: CW] <= w_iprof_static_cells;
      end
      if (do_write && hit_iprof_xoff) begin
        reg2hw_iprof_xoff_cells_o[idx_g040_s8*CW +: CW] <= w_iprof_xoff_cells;
      end
      if (do_write && hit_iprof_xon) begin
        reg2hw_iprof_xon_cells_o[idx_g040_s8*CW +: CW] <= w_iprof_xon_cells;
      end
      if (do_write && hit_iprof_xon_offset) begin
        reg2hw_iprof_xon_offset_cells_o[idx_g040_s8*CW +: CW] <= w_iprof_xon_offset_cells;
      end
      if (do_write && hit_eprof_mode) begin
        reg2hw_eprof_mode_pool_o[idx_g0c0_s4*4 +: 4] <= w_eprof_mode_pool;
        reg2hw_eprof_mode_dynamic_o[idx_g0c0_s4*1 +: 1] <= w_eprof_mode_dynamic;
        reg2hw_eprof_mode_shift_o[idx_g0c0_s4*5 +: 5] <= w_eprof_mode_shift;
      end
      if (do_write && hit_eprof_reserved) begin
        reg2hw_eprof_reserved_cells_o[idx_g0c0_s4*CW +: CW] <= w_eprof_reserved_cells;
      end
      if (do_write && hit_eprof_static) begin
        reg2hw_eprof_static_cells_o[idx_g0c0_s4*CW +: CW] <= w_eprof_static_cells;
      end
      if (do_write && hit_qmap) begin
        reg2hw_qmap_pg_profile_o[idx_g200*5 +: 5] <= w_qmap_pg_profile;
        reg2hw_qmap_queue_profile_o[idx_g200*5 +: 5] <= w_qmap_queue_profile;
        reg2hw_qmap_lossless_o[idx_g200*1 +: 1] <= w_qmap_lossless;
      end
      // Statistics counters wrap by design (software reads differences).
      if (hw2reg_stat_decisions_inc_i) cnt_stat_decisions <= cnt_stat_decisions + 32'd1;
      pend_stat_drops <= hw2reg_stat_drops_inc_i;
      if (pend_stat_drops) cnt_stat_drops <= cnt_stat_drops + 32'd1;
    end
  end

  // Read data of the addressed register: register r's word at [r*W +: W], zero unless
  // it is hit; each bit the OR of its column (one hit at most).
  function automatic logic [31:0] read_data();
    logic [26*32-1:0] rd_words;
    logic [25:0] col;
    rd_words = '0;
    rd_words[0 +: 32] = {32{hit_id}} & (32'h4d4d5541);
    rd_words[32 +: 8] = {8{hit_params}} & (8'(NPORTS));
    rd_words[40 +: 4] = {4{hit_params}} & (4'(NPRIO));
    rd_words[44 +: 4] = {4{hit_params}} & (4'(NPOOLS));
    rd_words[48 +: 5] = {5{hit_params}} & (5'(NPROF));
    rd_words[56 +: 6] = {6{hit_params}} & (6'(CW));
    rd_words[64 +: 3] = {3{hit_ctrl}} & (reg2hw_ctrl_policy_o);
    rd_words[68 +: 1] = {1{hit_ctrl}} & (reg2hw_ctrl_ewma_rule_o);
    rd_words[69 +: 1] = {1{hit_ctrl}} & (reg2hw_ctrl_ewma_clamp_o);
    rd_words[72 +: 5] = {5{hit_ctrl}} & (reg2hw_ctrl_ewma_k_o);
    rd_words[96 +: CW] = {CW{hit_buffer_cells}} & (reg2hw_buffer_cells_cells_o);
    rd_words[128 +: CW] = {CW{hit_hdrm_pool_cells}} & (reg2hw_hdrm_pool_cells_cells_o);
    rd_words[160 +: CW] = {CW{hit_congested_cells}} & (reg2hw_congested_cells_cells_o);
    rd_words[192 +: CW] = {CW{hit_dsh_port_xon_offset}} & (reg2hw_dsh_port_xon_offset_cells_o);
    rd_words[224 +: 5] = {5{hit_abm_interval}} & (reg2hw_abm_interval_log2_o);
    rd_words[256 +: CW] = {CW{hit_abm_port_cells}} & (reg2hw_abm_port_cells_cells_o[idx_g400*CW +: CW]);
    rd_words[288 +: 8] = {8{hit_thresh_period}} & (reg2hw_thresh_period_cycles_o);
    rd_words[320 +: CW] = {CW{hit_pool_size}} & (reg2hw_pool_size_cells_o[idx_g010*CW +: CW]);
    rd_words[352 +: 4] = {4{hit_iprof_mode}} & (reg2hw_iprof_mode_pool_o[idx_g040_s8*4 +: 4]);
    rd_words[360 +: 1] = {1{hit_iprof_mode}} & (reg2hw_iprof_mode_dynamic_o[idx_g040_s8*1 +: 1]);
    rd_words[368 +: 5] = {5{hit_iprof_mode}} & (reg2hw_iprof_mode_shift_o[idx_g040_s8*5 +: 5]);
    rd_words[384 +: CW] = {CW{hit_iprof_reserved}} & (reg2hw_iprof_reserved_cells_o[idx_g040_s8*CW +: CW]);
    rd_words[416 +: CW] = {CW{hit_iprof_static}} & (reg2hw_iprof_static_cells_o[idx_g040_s8*CW +: CW]);
    rd_words[448 +: CW] = {CW{hit_iprof_xoff}} & (reg2hw_iprof_xoff_cells_o[idx_g040_s8*CW +: CW]);
    rd_words[480 +: CW] = {CW{hit_iprof_xon}} & (reg2hw_iprof_xon_cells_o[idx_g040_s8*CW +: CW]);
    rd_words[512 +: CW] = {CW{hit_iprof_xon_offset}} & (reg2hw_iprof_xon_offset_cells_o[idx_g040_s8*CW +: CW]);
    rd_words[544 +: 4] = {4{hit_eprof_mode}} & (reg2hw_eprof_mode_pool_o[idx_g0c0_s4*4 +: 4]);
    rd_words[552 +: 1] = {1{hit_eprof_mode}} & (reg2hw_eprof_mode_dynamic_o[idx_g0c0_s4*1 +: 1]);
    rd_words[560 +: 5] = {5{hit_eprof_mode}} & (reg2hw_eprof_mode_shift_o[idx_g0c0_s4*5 +: 5]);
    rd_words[576 +: CW] = {CW{hit_eprof_reserved}} & (reg2hw_eprof_reserved_cells_o[idx_g0c0_s4*CW +: CW]);
    rd_words[608 +: CW] = {CW{hit_eprof_static}} & (reg2hw_eprof_static_cells_o[idx_g0c0_s4*CW +: CW]);
    rd_words[640 +: 5] = {5{hit_qmap}} & (reg2hw_qmap_pg_profile_o[idx_g200*5 +: 5]);
    rd_words[648 +: 5] = {5{hit_qmap}} & (reg2hw_qmap_queue_profile_o[idx_g200*5 +: 5]);
    rd_words[656 +: 1] = {1{hit_qmap}} & (reg2hw_qmap_lossless_o[idx_g200*1 +: 1]);
    rd_words[672 +: CW] = {CW{hit_stat_total}} & (hw2reg_stat_total_cells_i);
    rd_words[704 +: CW] = {CW{hit_stat_hdrm_pool}} & (hw2reg_stat_hdrm_pool_cells_i);
    rd_words[736 +: CW] = {CW{hit_stat_pool_used}} & (hw2reg_stat_pool_used_cells_i[idx_g110*CW +: CW]);
    rd_words[768 +: 32] = {32{hit_stat_decisions}} & (cnt_stat_decisions);
    rd_words[800 +: 32] = {32{hit_stat_drops}} & (cnt_stat_drops + 32'(pend_stat_drops));
    for (int b = 0; b < 32; b++) begin
      for (int r = 0; r < 26; r++) col[r] = rd_words[r*32 + b];
      read_data[b] = |col;
    end
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_rvalid_o <= 1'b0;
      cfg_rdata_o <= '0;
      cfg_error_o <= 1'b0;
    end else begin
      cfg_rvalid_o <= cfg_valid_i && !cfg_write_i;
      if (cfg_valid_i && !cfg_write_i) cfg_rdata_o <= read_data();
      if (cfg_valid_i) cfg_error_o <= cfg_write_i ? !rw_hit || refused : !(rw_hit || ro_hit);
    end
  end

endmodule

`default_nettype wire
