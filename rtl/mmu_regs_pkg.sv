// generated from rtl/regmap.json by scripts/gen_regs.py; do not edit
// mmu_admission: CSR map of the admission unit. 32-bit registers at word addresses. Defined once here; scripts/gen_regs.py generates the register block rtl/mmu_adm_csr.sv, the constants rtl/mmu_regs_pkg.sv and hw-model/admission/regs.h, the C++ field table hw-model/admission/regfile_fields.h and docs/registers.md from it. A field not marked quiesce may be written under traffic: the unit and its golden core (hw-model/admission, every block reading its configuration live) use the new value from the next operation on. CSR write latency: a write is stored at the edge of its cycle, and every operation taken after that cycle sees it; an operation taken in the write's own cycle sees the old values with PIPE 0 (it is decided in that cycle), and with PIPE 1 (decided in the next) the old values in the threshold calculator's fields (CTRL.policy, POOL_SIZE, the profiles' pool, dynamic, shift and static fields: its output registers load from the stored fields) and the new ones in every other field (the read stage's look-up of QMAP and the profiles' pools and reserved cells substitutes the write; the derived registers load at the write's edge; the decide stage reads the rest): docs/rtl.md, "CSR write latency". A write that changes a quiesce field while the buffer holds cells, or while a request is in flight (taken in an earlier cycle and not yet decided; with PIPE 0 the request of the write's cycle), is refused (cfg_error_o), as is a value outside a field's legal values (Legal column: policy 6, ewma_k 31, shift -16, a pool or profile the unit lacks, CONGESTED_CELLS 0; and a policy the unit was built without). A policy change restarts the reverie filters (q_hat 0) and abm's drain-rate state.
// Word addresses; arrays: entry k of REG at REG_ADDR + k * REG_STRIDE.
// bit [31:0] is int unsigned (Icarus 11 does not parse int unsigned localparams).
package mmu_regs_pkg;

  // A package of constants: most are unused by any one design.
  /* verilator lint_off UNUSEDPARAM */

  // Map
  localparam bit [31:0] DATA_WIDTH                     = 32;  // bits per register
  localparam bit [31:0] ADDR_WIDTH                     = 12;  // bits of the word address

  // Largest values of the array count parameters
  localparam bit [31:0] NPORTS_MAX                     = 255;  // PARAMS.nports range
  localparam bit [31:0] NPOOLS_MAX                     = 15;  // PARAMS.npools range
  localparam bit [31:0] NPROF_MAX                      = 16;  // PARAMS.nprof range, limited by the room of its arrays
  localparam bit [31:0] NPRIO_MAX                      = 15;  // PARAMS.nprio range

  // Interleaved arrays (one entry = one stride)
  localparam bit [31:0] IPROF_STRIDE                   = 8;  // IPROF_MODE, IPROF_RESERVED, IPROF_STATIC, IPROF_XOFF, IPROF_XON, IPROF_XON_OFFSET
  localparam bit [31:0] EPROF_STRIDE                   = 4;  // EPROF_MODE, EPROF_RESERVED, EPROF_STATIC

  // ID (ro, 0x000): Identification, ASCII 'MMUA'.
  localparam bit [31:0] ID_ADDR                        = 'h000;
  localparam bit [31:0] ID_RESET                       = 32'h4d4d5541;
  localparam bit [31:0] ID_VALUE                       = 32'h4d4d5541;
  localparam bit [31:0] ID_ID_LSB                      = 0;
  localparam bit [31:0] ID_ID_W                        = 32;
  localparam bit [31:0] ID_ID_MASK                     = 32'hffffffff;

  // PARAMS (ro, 0x001): Elaboration parameters.
  localparam bit [31:0] PARAMS_ADDR                    = 'h001;
  localparam bit [31:0] PARAMS_NPORTS_LSB              = 0;  // ports
  localparam bit [31:0] PARAMS_NPORTS_W                = 8;
  localparam bit [31:0] PARAMS_NPORTS_MASK             = 32'h000000ff;
  localparam bit [31:0] PARAMS_NPRIO_LSB               = 8;  // priorities per port
  localparam bit [31:0] PARAMS_NPRIO_W                 = 4;
  localparam bit [31:0] PARAMS_NPRIO_MASK              = 32'h00000f00;
  localparam bit [31:0] PARAMS_NPOOLS_LSB              = 12;  // pools
  localparam bit [31:0] PARAMS_NPOOLS_W                = 4;
  localparam bit [31:0] PARAMS_NPOOLS_MASK             = 32'h0000f000;
  localparam bit [31:0] PARAMS_NPROF_LSB               = 16;  // profile table entries (ingress and egress each)
  localparam bit [31:0] PARAMS_NPROF_W                 = 5;
  localparam bit [31:0] PARAMS_NPROF_MASK              = 32'h001f0000;
  localparam bit [31:0] PARAMS_CW_LSB                  = 24;  // counter width in bits
  localparam bit [31:0] PARAMS_CW_W                    = 6;
  localparam bit [31:0] PARAMS_CW_MASK                 = 32'h3f000000;

  // CTRL (rw, 0x002): Policy and filter control.
  localparam bit [31:0] CTRL_ADDR                      = 'h002;
  localparam bit [31:0] CTRL_RESET                     = 32'h00000000;
  localparam bit [31:0] CTRL_QUIESCE_MASK              = 32'h00000007;  // changes only with an empty buffer
  localparam bit [31:0] CTRL_POLICY_LSB                = 0;  // 0 dt, 1 reverie, 2 dsh, 3 static, 4 sih, 5 abm
  localparam bit [31:0] CTRL_POLICY_W                  = 3;
  localparam bit [31:0] CTRL_POLICY_MASK               = 32'h00000007;
  localparam bit [31:0] CTRL_POLICY_DT                 = 0;
  localparam bit [31:0] CTRL_POLICY_REVERIE            = 1;
  localparam bit [31:0] CTRL_POLICY_DSH                = 2;
  localparam bit [31:0] CTRL_POLICY_STATIC             = 3;
  localparam bit [31:0] CTRL_POLICY_SIH                = 4;
  localparam bit [31:0] CTRL_POLICY_ABM                = 5;
  localparam bit [31:0] CTRL_EWMA_RULE_LSB             = 4;  // 0 update on dequeue, 1 on enqueue and dequeue
  localparam bit [31:0] CTRL_EWMA_RULE_W               = 1;
  localparam bit [31:0] CTRL_EWMA_RULE_MASK            = 32'h00000010;
  localparam bit [31:0] CTRL_EWMA_RULE_DEQUEUE         = 0;
  localparam bit [31:0] CTRL_EWMA_RULE_ENQUEUE_DEQUEUE = 1;
  localparam bit [31:0] CTRL_EWMA_CLAMP_LSB            = 5;  // keep q_hat <= q
  localparam bit [31:0] CTRL_EWMA_CLAMP_W              = 1;
  localparam bit [31:0] CTRL_EWMA_CLAMP_MASK           = 32'h00000020;
  localparam bit [31:0] CTRL_EWMA_K_LSB                = 8;  // gamma = 1 - 2^-k
  localparam bit [31:0] CTRL_EWMA_K_W                  = 5;
  localparam bit [31:0] CTRL_EWMA_K_MASK               = 32'h00001f00;

  // BUFFER_CELLS (rw, 0x004): Physical buffer in cells.
  localparam bit [31:0] BUFFER_CELLS_ADDR              = 'h004;
  localparam bit [31:0] BUFFER_CELLS_RESET             = 32'h00000000;
  localparam bit [31:0] BUFFER_CELLS_CELLS_LSB         = 0;
  localparam bit [31:0] BUFFER_CELLS_CELLS_W           = 32;
  localparam bit [31:0] BUFFER_CELLS_CELLS_MASK        = 32'hffffffff;

  // HDRM_POOL_CELLS (rw, 0x005): Headroom pool in cells.
  localparam bit [31:0] HDRM_POOL_CELLS_ADDR           = 'h005;
  localparam bit [31:0] HDRM_POOL_CELLS_RESET          = 32'h00000000;
  localparam bit [31:0] HDRM_POOL_CELLS_CELLS_LSB      = 0;
  localparam bit [31:0] HDRM_POOL_CELLS_CELLS_W        = 32;
  localparam bit [31:0] HDRM_POOL_CELLS_CELLS_MASK     = 32'hffffffff;

  // CONGESTED_CELLS (rw, 0x006): A queue with at least this many cells is congested (n_p, reverie).
  localparam bit [31:0] CONGESTED_CELLS_ADDR           = 'h006;
  localparam bit [31:0] CONGESTED_CELLS_RESET          = 32'h00000050;
  localparam bit [31:0] CONGESTED_CELLS_QUIESCE_MASK   = 32'hffffffff;  // changes only with an empty buffer
  localparam bit [31:0] CONGESTED_CELLS_CELLS_LSB      = 0;
  localparam bit [31:0] CONGESTED_CELLS_CELLS_W        = 32;
  localparam bit [31:0] CONGESTED_CELLS_CELLS_MASK     = 32'hffffffff;

  // DSH_PORT_XON_OFFSET (rw, 0x007): delta_p of the DSH port-level XON, cells.
  localparam bit [31:0] DSH_PORT_XON_OFFSET_ADDR       = 'h007;
  localparam bit [31:0] DSH_PORT_XON_OFFSET_RESET      = 32'h00000000;
  localparam bit [31:0] DSH_PORT_XON_OFFSET_CELLS_LSB  = 0;
  localparam bit [31:0] DSH_PORT_XON_OFFSET_CELLS_W    = 32;
  localparam bit [31:0] DSH_PORT_XON_OFFSET_CELLS_MASK = 32'hffffffff;

  // ABM_INTERVAL (rw, 0x008): abm: drain-rate measurement interval of 2^log2 MMU cycles (the interval number is bits log2 and up of now_i).
  localparam bit [31:0] ABM_INTERVAL_ADDR              = 'h008;
  localparam bit [31:0] ABM_INTERVAL_RESET             = 32'h0000000d;
  localparam bit [31:0] ABM_INTERVAL_LOG2_LSB          = 0;
  localparam bit [31:0] ABM_INTERVAL_LOG2_W            = 5;
  localparam bit [31:0] ABM_INTERVAL_LOG2_MASK         = 32'h0000001f;

  // ABM_PORT_CELLS (rw, 0x400 + k*1, k < NPORTS): abm: cells port i can send in one interval (0: every queue counts as full rate).
  localparam bit [31:0] ABM_PORT_CELLS_ADDR            = 'h400;
  localparam bit [31:0] ABM_PORT_CELLS_STRIDE          = 1;
  localparam bit [31:0] ABM_PORT_CELLS_COUNT_MAX       = 255;  // entries the map holds (room, parameter range)
  localparam bit [31:0] ABM_PORT_CELLS_RESET           = 32'h00000000;
  localparam bit [31:0] ABM_PORT_CELLS_CELLS_LSB       = 0;
  localparam bit [31:0] ABM_PORT_CELLS_CELLS_W         = 32;
  localparam bit [31:0] ABM_PORT_CELLS_CELLS_MASK      = 32'hffffffff;

  // THRESH_PERIOD (rw, 0x00e): The threshold calculator (rtl/mmu_adm_thresh.sv) registers the pool occupancies and n_p every this many cycles, counted from reset and restarted by every CSR write; operations compare against thresholds computed from those registers.
  localparam bit [31:0] THRESH_PERIOD_ADDR             = 'h00e;
  localparam bit [31:0] THRESH_PERIOD_RESET            = 32'h00000001;
  localparam bit [31:0] THRESH_PERIOD_CYCLES_LSB       = 0;
  localparam bit [31:0] THRESH_PERIOD_CYCLES_W         = 8;
  localparam bit [31:0] THRESH_PERIOD_CYCLES_MASK      = 32'h000000ff;

  // POOL_SIZE (rw, 0x010 + k*1, k < NPOOLS): Shared size of pool i in cells.
  localparam bit [31:0] POOL_SIZE_ADDR                 = 'h010;
  localparam bit [31:0] POOL_SIZE_STRIDE               = 1;
  localparam bit [31:0] POOL_SIZE_COUNT_MAX            = 15;  // entries the map holds (room, parameter range)
  localparam bit [31:0] POOL_SIZE_RESET                = 32'h00000000;
  localparam bit [31:0] POOL_SIZE_CELLS_LSB            = 0;
  localparam bit [31:0] POOL_SIZE_CELLS_W              = 32;
  localparam bit [31:0] POOL_SIZE_CELLS_MASK           = 32'hffffffff;

  // IPROF_MODE (rw, 0x040 + k*8, k < NPROF): Ingress profile k: pool and threshold mode.
  localparam bit [31:0] IPROF_MODE_ADDR                = 'h040;
  localparam bit [31:0] IPROF_MODE_STRIDE              = 8;
  localparam bit [31:0] IPROF_MODE_COUNT_MAX           = 16;  // entries the map holds (room, parameter range)
  localparam bit [31:0] IPROF_MODE_RESET               = 32'h00000000;
  localparam bit [31:0] IPROF_MODE_QUIESCE_MASK        = 32'h0000000f;  // changes only with an empty buffer
  localparam bit [31:0] IPROF_MODE_POOL_LSB            = 0;
  localparam bit [31:0] IPROF_MODE_POOL_W              = 4;
  localparam bit [31:0] IPROF_MODE_POOL_MASK           = 32'h0000000f;
  localparam bit [31:0] IPROF_MODE_DYNAMIC_LSB         = 8;  // 1: alpha = 2^shift x free; 0: static threshold
  localparam bit [31:0] IPROF_MODE_DYNAMIC_W           = 1;
  localparam bit [31:0] IPROF_MODE_DYNAMIC_MASK        = 32'h00000100;
  localparam bit [31:0] IPROF_MODE_SHIFT_LSB           = 16;  // signed dynamic_th, -15..15
  localparam bit [31:0] IPROF_MODE_SHIFT_W             = 5;
  localparam bit [31:0] IPROF_MODE_SHIFT_MASK          = 32'h001f0000;

  // IPROF_RESERVED (rw, 0x041 + k*8, k < NPROF): Ingress profile k: reserved cells.
  localparam bit [31:0] IPROF_RESERVED_ADDR            = 'h041;
  localparam bit [31:0] IPROF_RESERVED_STRIDE          = 8;
  localparam bit [31:0] IPROF_RESERVED_COUNT_MAX       = 16;  // entries the map holds (room, parameter range)
  localparam bit [31:0] IPROF_RESERVED_RESET           = 32'h00000000;
  localparam bit [31:0] IPROF_RESERVED_QUIESCE_MASK    = 32'hffffffff;  // changes only with an empty buffer
  localparam bit [31:0] IPROF_RESERVED_CELLS_LSB       = 0;
  localparam bit [31:0] IPROF_RESERVED_CELLS_W         = 32;
  localparam bit [31:0] IPROF_RESERVED_CELLS_MASK      = 32'hffffffff;

  // IPROF_STATIC (rw, 0x042 + k*8, k < NPROF): Ingress profile k: static threshold, cells.
  localparam bit [31:0] IPROF_STATIC_ADDR              = 'h042;
  localparam bit [31:0] IPROF_STATIC_STRIDE            = 8;
  localparam bit [31:0] IPROF_STATIC_COUNT_MAX         = 16;  // entries the map holds (room, parameter range)
  localparam bit [31:0] IPROF_STATIC_RESET             = 32'h00000000;
  localparam bit [31:0] IPROF_STATIC_CELLS_LSB         = 0;
  localparam bit [31:0] IPROF_STATIC_CELLS_W           = 32;
  localparam bit [31:0] IPROF_STATIC_CELLS_MASK        = 32'hffffffff;

  // IPROF_XOFF (rw, 0x043 + k*8, k < NPROF): Ingress profile k: per-PG headroom (eta), cells.
  localparam bit [31:0] IPROF_XOFF_ADDR                = 'h043;
  localparam bit [31:0] IPROF_XOFF_STRIDE              = 8;
  localparam bit [31:0] IPROF_XOFF_COUNT_MAX           = 16;  // entries the map holds (room, parameter range)
  localparam bit [31:0] IPROF_XOFF_RESET               = 32'h00000000;
  localparam bit [31:0] IPROF_XOFF_CELLS_LSB           = 0;
  localparam bit [31:0] IPROF_XOFF_CELLS_W             = 32;
  localparam bit [31:0] IPROF_XOFF_CELLS_MASK          = 32'hffffffff;

  // IPROF_XON (rw, 0x044 + k*8, k < NPROF): Ingress profile k: xon, cells.
  localparam bit [31:0] IPROF_XON_ADDR                 = 'h044;
  localparam bit [31:0] IPROF_XON_STRIDE               = 8;
  localparam bit [31:0] IPROF_XON_COUNT_MAX            = 16;  // entries the map holds (room, parameter range)
  localparam bit [31:0] IPROF_XON_RESET                = 32'h00000000;
  localparam bit [31:0] IPROF_XON_CELLS_LSB            = 0;
  localparam bit [31:0] IPROF_XON_CELLS_W              = 32;
  localparam bit [31:0] IPROF_XON_CELLS_MASK           = 32'hffffffff;

  // IPROF_XON_OFFSET (rw, 0x045 + k*8, k < NPROF): Ingress profile k: xon_offset, cells.
  localparam bit [31:0] IPROF_XON_OFFSET_ADDR          = 'h045;
  localparam bit [31:0] IPROF_XON_OFFSET_STRIDE        = 8;
  localparam bit [31:0] IPROF_XON_OFFSET_COUNT_MAX     = 16;  // entries the map holds (room, parameter range)
  localparam bit [31:0] IPROF_XON_OFFSET_RESET         = 32'h00000000;
  localparam bit [31:0] IPROF_XON_OFFSET_CELLS_LSB     = 0;
  localparam bit [31:0] IPROF_XON_OFFSET_CELLS_W       = 32;
  localparam bit [31:0] IPROF_XON_OFFSET_CELLS_MASK    = 32'hffffffff;

  // EPROF_MODE (rw, 0x0c0 + k*4, k < NPROF): Egress profile k: pool and threshold mode.
  localparam bit [31:0] EPROF_MODE_ADDR                = 'h0c0;
  localparam bit [31:0] EPROF_MODE_STRIDE              = 4;
  localparam bit [31:0] EPROF_MODE_COUNT_MAX           = 16;  // entries the map holds (room, parameter range)
  localparam bit [31:0] EPROF_MODE_RESET               = 32'h00000000;
  localparam bit [31:0] EPROF_MODE_QUIESCE_MASK        = 32'h0000000f;  // changes only with an empty buffer
  localparam bit [31:0] EPROF_MODE_POOL_LSB            = 0;
  localparam bit [31:0] EPROF_MODE_POOL_W              = 4;
  localparam bit [31:0] EPROF_MODE_POOL_MASK           = 32'h0000000f;
  localparam bit [31:0] EPROF_MODE_DYNAMIC_LSB         = 8;
  localparam bit [31:0] EPROF_MODE_DYNAMIC_W           = 1;
  localparam bit [31:0] EPROF_MODE_DYNAMIC_MASK        = 32'h00000100;
  localparam bit [31:0] EPROF_MODE_SHIFT_LSB           = 16;  // signed dynamic_th
  localparam bit [31:0] EPROF_MODE_SHIFT_W             = 5;
  localparam bit [31:0] EPROF_MODE_SHIFT_MASK          = 32'h001f0000;

  // EPROF_RESERVED (rw, 0x0c1 + k*4, k < NPROF): Egress profile k: reserved cells.
  localparam bit [31:0] EPROF_RESERVED_ADDR            = 'h0c1;
  localparam bit [31:0] EPROF_RESERVED_STRIDE          = 4;
  localparam bit [31:0] EPROF_RESERVED_COUNT_MAX       = 16;  // entries the map holds (room, parameter range)
  localparam bit [31:0] EPROF_RESERVED_RESET           = 32'h00000000;
  localparam bit [31:0] EPROF_RESERVED_QUIESCE_MASK    = 32'hffffffff;  // changes only with an empty buffer
  localparam bit [31:0] EPROF_RESERVED_CELLS_LSB       = 0;
  localparam bit [31:0] EPROF_RESERVED_CELLS_W         = 32;
  localparam bit [31:0] EPROF_RESERVED_CELLS_MASK      = 32'hffffffff;

  // EPROF_STATIC (rw, 0x0c2 + k*4, k < NPROF): Egress profile k: static threshold, cells.
  localparam bit [31:0] EPROF_STATIC_ADDR              = 'h0c2;
  localparam bit [31:0] EPROF_STATIC_STRIDE            = 4;
  localparam bit [31:0] EPROF_STATIC_COUNT_MAX         = 16;  // entries the map holds (room, parameter range)
  localparam bit [31:0] EPROF_STATIC_RESET             = 32'h00000000;
  localparam bit [31:0] EPROF_STATIC_CELLS_LSB         = 0;
  localparam bit [31:0] EPROF_STATIC_CELLS_W           = 32;
  localparam bit [31:0] EPROF_STATIC_CELLS_MASK        = 32'hffffffff;

  // QMAP (rw, 0x200 + k*1, k < NPORTS*NPRIO): Queue (port*NPRIO+prio): profiles and PFC enable.
  localparam bit [31:0] QMAP_ADDR                      = 'h200;
  localparam bit [31:0] QMAP_STRIDE                    = 1;
  localparam bit [31:0] QMAP_COUNT_MAX                 = 512;  // entries the map holds (room, parameter range)
  localparam bit [31:0] QMAP_RESET                     = 32'h00000000;
  localparam bit [31:0] QMAP_QUIESCE_MASK              = 32'h00011f1f;  // changes only with an empty buffer
  localparam bit [31:0] QMAP_PG_PROFILE_LSB            = 0;
  localparam bit [31:0] QMAP_PG_PROFILE_W              = 5;
  localparam bit [31:0] QMAP_PG_PROFILE_MASK           = 32'h0000001f;
  localparam bit [31:0] QMAP_QUEUE_PROFILE_LSB         = 8;
  localparam bit [31:0] QMAP_QUEUE_PROFILE_W           = 5;
  localparam bit [31:0] QMAP_QUEUE_PROFILE_MASK        = 32'h00001f00;
  localparam bit [31:0] QMAP_LOSSLESS_LSB              = 16;
  localparam bit [31:0] QMAP_LOSSLESS_W                = 1;
  localparam bit [31:0] QMAP_LOSSLESS_MASK             = 32'h00010000;

  // STAT_TOTAL (ro, 0x100): Cells in the buffer.
  localparam bit [31:0] STAT_TOTAL_ADDR                = 'h100;
  localparam bit [31:0] STAT_TOTAL_CELLS_LSB           = 0;
  localparam bit [31:0] STAT_TOTAL_CELLS_W             = 32;
  localparam bit [31:0] STAT_TOTAL_CELLS_MASK          = 32'hffffffff;

  // STAT_HDRM_POOL (ro, 0x101): Cells in the headroom pool.
  localparam bit [31:0] STAT_HDRM_POOL_ADDR            = 'h101;
  localparam bit [31:0] STAT_HDRM_POOL_CELLS_LSB       = 0;
  localparam bit [31:0] STAT_HDRM_POOL_CELLS_W         = 32;
  localparam bit [31:0] STAT_HDRM_POOL_CELLS_MASK      = 32'hffffffff;

  // STAT_POOL_USED (ro, 0x110 + k*1, k < NPOOLS): Shared occupancy of pool i.
  localparam bit [31:0] STAT_POOL_USED_ADDR            = 'h110;
  localparam bit [31:0] STAT_POOL_USED_STRIDE          = 1;
  localparam bit [31:0] STAT_POOL_USED_COUNT_MAX       = 15;  // entries the map holds (room, parameter range)
  localparam bit [31:0] STAT_POOL_USED_CELLS_LSB       = 0;
  localparam bit [31:0] STAT_POOL_USED_CELLS_W         = 32;
  localparam bit [31:0] STAT_POOL_USED_CELLS_MASK      = 32'hffffffff;

  // STAT_DECISIONS (ro, 0x120): Admission decisions since reset (wraps: a statistics counter, not an admission counter).
  localparam bit [31:0] STAT_DECISIONS_ADDR            = 'h120;
  localparam bit [31:0] STAT_DECISIONS_COUNT_LSB       = 0;
  localparam bit [31:0] STAT_DECISIONS_COUNT_W         = 32;
  localparam bit [31:0] STAT_DECISIONS_COUNT_MASK      = 32'hffffffff;

  // STAT_DROPS (ro, 0x121): Drops since reset (wraps). Its increment is registered (the decide stage's verdict ends at a flip-flop) and a read adds the pending one: a read counts every drop decided before its cycle.
  localparam bit [31:0] STAT_DROPS_ADDR                = 'h121;
  localparam bit [31:0] STAT_DROPS_COUNT_LSB           = 0;
  localparam bit [31:0] STAT_DROPS_COUNT_W             = 32;
  localparam bit [31:0] STAT_DROPS_COUNT_MASK          = 32'hffffffff;

  /* verilator lint_on UNUSEDPARAM */

endpackage : mmu_regs_pkg
