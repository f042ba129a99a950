#pragma once
// generated from rtl/regmap.json by scripts/gen_regs.py; do not edit
// mmu_admission: CSR map of the admission unit. 32-bit registers at word addresses. Defined once here; scripts/gen_regs.py generates the register block rtl/mmu_adm_csr.sv, the constants rtl/mmu_regs_pkg.sv and hw-model/admission/regs.h, the C++ field table hw-model/admission/regfile_fields.h and docs/registers.md from it. A field not marked quiesce may be written under traffic: the unit and its golden core (hw-model/admission, every block reading its configuration live) use the new value from the next operation on. CSR write latency: a write is stored at the edge of its cycle, and every operation taken after that cycle sees it; an operation taken in the write's own cycle sees the old values with PIPE 0 (it is decided in that cycle), and with PIPE 1 (decided in the next) the old values in the threshold calculator's fields (CTRL.policy, POOL_SIZE, the profiles' pool, dynamic, shift and static fields: its output registers load from the stored fields) and the new ones in every other field (the read stage's look-up of QMAP and the profiles' pools and reserved cells substitutes the write; the derived registers load at the write's edge; the decide stage reads the rest): docs/rtl.md, "CSR write latency". A write that changes a quiesce field while the buffer holds cells, or while a request is in flight (taken in an earlier cycle and not yet decided; with PIPE 0 the request of the write's cycle), is refused (cfg_error_o), as is a value outside a field's legal values (Legal column: policy 6, ewma_k 31, shift -16, a pool or profile the unit lacks, CONGESTED_CELLS 0; and a policy the unit was built without). A policy change restarts the reverie filters (q_hat 0) and abm's drain-rate state.
// Word addresses; arrays: entry k of REG at REG_ADDR + k * REG_STRIDE.
#include <cstdint>

namespace mmusim::admission::regs {

// Map
inline constexpr uint32_t DATA_WIDTH                     = 32;  // bits per register
inline constexpr uint32_t ADDR_WIDTH                     = 12;  // bits of the word address

// Largest values of the array count parameters
inline constexpr uint32_t NPORTS_MAX                     = 255;  // PARAMS.nports range
inline constexpr uint32_t NPOOLS_MAX                     = 15;  // PARAMS.npools range
inline constexpr uint32_t NPROF_MAX                      = 16;  // PARAMS.nprof range, limited by the room of its arrays
inline constexpr uint32_t NPRIO_MAX                      = 15;  // PARAMS.nprio range

// Interleaved arrays (one entry = one stride)
inline constexpr uint32_t IPROF_STRIDE                   = 8;  // IPROF_MODE, IPROF_RESERVED, IPROF_STATIC, IPROF_XOFF, IPROF_XON, IPROF_XON_OFFSET
inline constexpr uint32_t EPROF_STRIDE                   = 4;  // EPROF_MODE, EPROF_RESERVED, EPROF_STATIC

// ID (ro, 0x000): Identification, ASCII 'MMUA'.
inline constexpr uint32_t ID_ADDR                        = 0x000;
inline constexpr uint32_t ID_RESET                       = 0x4d4d5541;
inline constexpr uint32_t ID_VALUE                       = 0x4d4d5541;
inline constexpr uint32_t ID_ID_LSB                      = 0;
inline constexpr uint32_t ID_ID_W                        = 32;
inline constexpr uint32_t ID_ID_MASK                     = 0xffffffff;

// PARAMS (ro, 0x001): Elaboration parameters.
inline constexpr uint32_t PARAMS_ADDR                    = 0x001;
inline constexpr uint32_t PARAMS_NPORTS_LSB              = 0;  // ports
inline constexpr uint32_t PARAMS_NPORTS_W                = 8;
inline constexpr uint32_t PARAMS_NPORTS_MASK             = 0x000000ff;
inline constexpr uint32_t PARAMS_NPRIO_LSB               = 8;  // priorities per port
inline constexpr uint32_t PARAMS_NPRIO_W                 = 4;
inline constexpr uint32_t PARAMS_NPRIO_MASK              = 0x00000f00;
inline constexpr uint32_t PARAMS_NPOOLS_LSB              = 12;  // pools
inline constexpr uint32_t PARAMS_NPOOLS_W                = 4;
inline constexpr uint32_t PARAMS_NPOOLS_MASK             = 0x0000f000;
inline constexpr uint32_t PARAMS_NPROF_LSB               = 16;  // profile table entries (ingress and egress each)
inline constexpr uint32_t PARAMS_NPROF_W                 = 5;
inline constexpr uint32_t PARAMS_NPROF_MASK              = 0x001f0000;
inline constexpr uint32_t PARAMS_CW_LSB                  = 24;  // counter width in bits
inline constexpr uint32_t PARAMS_CW_W                    = 6;
inline constexpr uint32_t PARAMS_CW_MASK                 = 0x3f000000;

// CTRL (rw, 0x002): Policy and filter control.
inline constexpr uint32_t CTRL_ADDR                      = 0x002;
inline constexpr uint32_t CTRL_RESET                     = 0x00000000;
inline constexpr uint32_t CTRL_QUIESCE_MASK              = 0x00000007;  // changes only with an empty buffer
inline constexpr uint32_t CTRL_POLICY_LSB                = 0;  // 0 dt, 1 reverie, 2 dsh, 3 static, 4 sih, 5 abm
inline constexpr uint32_t CTRL_POLICY_W                  = 3;
inline constexpr uint32_t CTRL_POLICY_MASK               = 0x00000007;
inline constexpr uint32_t CTRL_POLICY_DT                 = 0;
inline constexpr uint32_t CTRL_POLICY_REVERIE            = 1;
inline constexpr uint32_t CTRL_POLICY_DSH                = 2;
inline constexpr uint32_t CTRL_POLICY_STATIC             = 3;
inline constexpr uint32_t CTRL_POLICY_SIH                = 4;
inline constexpr uint32_t CTRL_POLICY_ABM                = 5;
inline constexpr uint32_t CTRL_EWMA_RULE_LSB             = 4;  // 0 update on dequeue, 1 on enqueue and dequeue
inline constexpr uint32_t CTRL_EWMA_RULE_W               = 1;
inline constexpr uint32_t CTRL_EWMA_RULE_MASK            = 0x00000010;
inline constexpr uint32_t CTRL_EWMA_RULE_DEQUEUE         = 0;
inline constexpr uint32_t CTRL_EWMA_RULE_ENQUEUE_DEQUEUE = 1;
inline constexpr uint32_t CTRL_EWMA_CLAMP_LSB            = 5;  // keep q_hat <= q
inline constexpr uint32_t CTRL_EWMA_CLAMP_W              = 1;
inline constexpr uint32_t CTRL_EWMA_CLAMP_MASK           = 0x00000020;
inline constexpr uint32_t CTRL_EWMA_K_LSB                = 8;  // gamma = 1 - 2^-k
inline constexpr uint32_t CTRL_EWMA_K_W                  = 5;
inline constexpr uint32_t CTRL_EWMA_K_MASK               = 0x00001f00;

// BUFFER_CELLS (rw, 0x004): Physical buffer in cells.
inline constexpr uint32_t BUFFER_CELLS_ADDR              = 0x004;
inline constexpr uint32_t BUFFER_CELLS_RESET             = 0x00000000;
inline constexpr uint32_t BUFFER_CELLS_CELLS_LSB         = 0;
inline constexpr uint32_t BUFFER_CELLS_CELLS_W           = 32;
inline constexpr uint32_t BUFFER_CELLS_CELLS_MASK        = 0xffffffff;

// HDRM_POOL_CELLS (rw, 0x005): Headroom pool in cells.
inline constexpr uint32_t HDRM_POOL_CELLS_ADDR           = 0x005;
inline constexpr uint32_t HDRM_POOL_CELLS_RESET          = 0x00000000;
inline constexpr uint32_t HDRM_POOL_CELLS_CELLS_LSB      = 0;
inline constexpr uint32_t HDRM_POOL_CELLS_CELLS_W        = 32;
inline constexpr uint32_t HDRM_POOL_CELLS_CELLS_MASK     = 0xffffffff;

// CONGESTED_CELLS (rw, 0x006): A queue with at least this many cells is congested (n_p, reverie).
inline constexpr uint32_t CONGESTED_CELLS_ADDR           = 0x006;
inline constexpr uint32_t CONGESTED_CELLS_RESET          = 0x00000050;
inline constexpr uint32_t CONGESTED_CELLS_QUIESCE_MASK   = 0xffffffff;  // changes only with an empty buffer
inline constexpr uint32_t CONGESTED_CELLS_CELLS_LSB      = 0;
inline constexpr uint32_t CONGESTED_CELLS_CELLS_W        = 32;
inline constexpr uint32_t CONGESTED_CELLS_CELLS_MASK     = 0xffffffff;

// DSH_PORT_XON_OFFSET (rw, 0x007): delta_p of the DSH port-level XON, cells.
inline constexpr uint32_t DSH_PORT_XON_OFFSET_ADDR       = 0x007;
inline constexpr uint32_t DSH_PORT_XON_OFFSET_RESET      = 0x00000000;
inline constexpr uint32_t DSH_PORT_XON_OFFSET_CELLS_LSB  = 0;
inline constexpr uint32_t DSH_PORT_XON_OFFSET_CELLS_W    = 32;
inline constexpr uint32_t DSH_PORT_XON_OFFSET_CELLS_MASK = 0xffffffff;

// ABM_INTERVAL (rw, 0x008): abm: drain-rate measurement interval of 2^log2 MMU cycles (the interval number is bits log2 and up of now_i).
inline constexpr uint32_t ABM_INTERVAL_ADDR              = 0x008;
inline constexpr uint32_t ABM_INTERVAL_RESET             = 0x0000000d;
inline constexpr uint32_t ABM_INTERVAL_LOG2_LSB          = 0;
inline constexpr uint32_t ABM_INTERVAL_LOG2_W            = 5;
inline constexpr uint32_t ABM_INTERVAL_LOG2_MASK         = 0x0000001f;

// ABM_PORT_CELLS (rw, 0x400 + k*1, k < NPORTS): abm: cells port i can send in one interval (0: every queue counts as full rate).
inline constexpr uint32_t ABM_PORT_CELLS_ADDR            = 0x400;
inline constexpr uint32_t ABM_PORT_CELLS_STRIDE          = 1;
inline constexpr uint32_t ABM_PORT_CELLS_COUNT_MAX       = 255;  // entries the map holds (room, parameter range)
inline constexpr uint32_t ABM_PORT_CELLS_RESET           = 0x00000000;
inline constexpr uint32_t ABM_PORT_CELLS_CELLS_LSB       = 0;
inline constexpr uint32_t ABM_PORT_CELLS_CELLS_W         = 32;
inline constexpr uint32_t ABM_PORT_CELLS_CELLS_MASK      = 0xffffffff;

// THRESH_PERIOD (rw, 0x00e): The threshold calculator (rtl/mmu_adm_thresh.sv) registers the pool occupancies and n_p every this many cycles, counted from reset and restarted by every CSR write; operations compare against thresholds computed from those registers.
inline constexpr uint32_t THRESH_PERIOD_ADDR             = 0x00e;
inline constexpr uint32_t THRESH_PERIOD_RESET            = 0x00000001;
inline constexpr uint32_t THRESH_PERIOD_CYCLES_LSB       = 0;
inline constexpr uint32_t THRESH_PERIOD_CYCLES_W         = 8;
inline constexpr uint32_t THRESH_PERIOD_CYCLES_MASK      = 0x000000ff;

// POOL_SIZE (rw, 0x010 + k*1, k < NPOOLS): Shared size of pool i in cells.
inline constexpr uint32_t POOL_SIZE_ADDR                 = 0x010;
inline constexpr uint32_t POOL_SIZE_STRIDE               = 1;
inline constexpr uint32_t POOL_SIZE_COUNT_MAX            = 15;  // entries the map holds (room, parameter range)
inline constexpr uint32_t POOL_SIZE_RESET                = 0x00000000;
inline constexpr uint32_t POOL_SIZE_CELLS_LSB            = 0;
inline constexpr uint32_t POOL_SIZE_CELLS_W              = 32;
inline constexpr uint32_t POOL_SIZE_CELLS_MASK           = 0xffffffff;

// IPROF_MODE (rw, 0x040 + k*8, k < NPROF): Ingress profile k: pool and threshold mode.
inline constexpr uint32_t IPROF_MODE_ADDR                = 0x040;
inline constexpr uint32_t IPROF_MODE_STRIDE              = 8;
inline constexpr uint32_t IPROF_MODE_COUNT_MAX           = 16;  // entries the map holds (room, parameter range)
inline constexpr uint32_t IPROF_MODE_RESET               = 0x00000000;
inline constexpr uint32_t IPROF_MODE_QUIESCE_MASK        = 0x0000000f;  // changes only with an empty buffer
inline constexpr uint32_t IPROF_MODE_POOL_LSB            = 0;
inline constexpr uint32_t IPROF_MODE_POOL_W              = 4;
inline constexpr uint32_t IPROF_MODE_POOL_MASK           = 0x0000000f;
inline constexpr uint32_t IPROF_MODE_DYNAMIC_LSB         = 8;  // 1: alpha = 2^shift x free; 0: static threshold
inline constexpr uint32_t IPROF_MODE_DYNAMIC_W           = 1;
inline constexpr uint32_t IPROF_MODE_DYNAMIC_MASK        = 0x00000100;
inline constexpr uint32_t IPROF_MODE_SHIFT_LSB           = 16;  // signed dynamic_th, -15..15
inline constexpr uint32_t IPROF_MODE_SHIFT_W             = 5;
inline constexpr uint32_t IPROF_MODE_SHIFT_MASK          = 0x001f0000;

// IPROF_RESERVED (rw, 0x041 + k*8, k < NPROF): Ingress profile k: reserved cells.
inline constexpr uint32_t IPROF_RESERVED_ADDR            = 0x041;
inline constexpr uint32_t IPROF_RESERVED_STRIDE          = 8;
inline constexpr uint32_t IPROF_RESERVED_COUNT_MAX       = 16;  // entries the map holds (room, parameter range)
inline constexpr uint32_t IPROF_RESERVED_RESET           = 0x00000000;
inline constexpr uint32_t IPROF_RESERVED_QUIESCE_MASK    = 0xffffffff;  // changes only with an empty buffer
inline constexpr uint32_t IPROF_RESERVED_CELLS_LSB       = 0;
inline constexpr uint32_t IPROF_RESERVED_CELLS_W         = 32;
inline constexpr uint32_t IPROF_RESERVED_CELLS_MASK      = 0xffffffff;

// IPROF_STATIC (rw, 0x042 + k*8, k < NPROF): Ingress profile k: static threshold, cells.
inline constexpr uint32_t IPROF_STATIC_ADDR              = 0x042;
inline constexpr uint32_t IPROF_STATIC_STRIDE            = 8;
inline constexpr uint32_t IPROF_STATIC_COUNT_MAX         = 16;  // entries the map holds (room, parameter range)
inline constexpr uint32_t IPROF_STATIC_RESET             = 0x00000000;
inline constexpr uint32_t IPROF_STATIC_CELLS_LSB         = 0;
inline constexpr uint32_t IPROF_STATIC_CELLS_W           = 32;
inline constexpr uint32_t IPROF_STATIC_CELLS_MASK        = 0xffffffff;

// IPROF_XOFF (rw, 0x043 + k*8, k < NPROF): Ingress profile k: per-PG headroom (eta), cells.
inline constexpr uint32_t IPROF_XOFF_ADDR                = 0x043;
inline constexpr uint32_t IPROF_XOFF_STRIDE              = 8;
inline constexpr uint32_t IPROF_XOFF_COUNT_MAX           = 16;  // entries the map holds (room, parameter range)
inline constexpr uint32_t IPROF_XOFF_RESET               = 0x00000000;
inline constexpr uint32_t IPROF_XOFF_CELLS_LSB           = 0;
inline constexpr uint32_t IPROF_XOFF_CELLS_W             = 32;
inline constexpr uint32_t IPROF_XOFF_CELLS_MASK          = 0xffffffff;

// IPROF_XON (rw, 0x044 + k*8, k < NPROF): Ingress profile k: xon, cells.
inline constexpr uint32_t IPROF_XON_ADDR                 = 0x044;
inline constexpr uint32_t IPROF_XON_STRIDE               = 8;
inline constexpr uint32_t IPROF_XON_COUNT_MAX            = 16;  // entries the map holds (room, parameter range)
inline constexpr uint32_t IPROF_XON_RESET                = 0x00000000;
inline constexpr uint32_t IPROF_XON_CELLS_LSB            = 0;
inline constexpr uint32_t IPROF_XON_CELLS_W              = 32;
inline constexpr uint32_t IPROF_XON_CELLS_MASK           = 0xffffffff;

// IPROF_XON_OFFSET (rw, 0x045 + k*8, k < NPROF): Ingress profile k: xon_offset, cells.
inline constexpr uint32_t IPROF_XON_OFFSET_ADDR          = 0x045;
inline constexpr uint32_t IPROF_XON_OFFSET_STRIDE        = 8;
inline constexpr uint32_t IPROF_XON_OFFSET_COUNT_MAX     = 16;  // entries the map holds (room, parameter range)
inline constexpr uint32_t IPROF_XON_OFFSET_RESET         = 0x00000000;
inline constexpr uint32_t IPROF_XON_OFFSET_CELLS_LSB     = 0;
inline constexpr uint32_t IPROF_XON_OFFSET_CELLS_W       = 32;
inline constexpr uint32_t IPROF_XON_OFFSET_CELLS_MASK    = 0xffffffff;

// EPROF_MODE (rw, 0x0c0 + k*4, k < NPROF): Egress profile k: pool and threshold mode.
inline constexpr uint32_t EPROF_MODE_ADDR                = 0x0c0;
inline constexpr uint32_t EPROF_MODE_STRIDE              = 4;
inline constexpr uint32_t EPROF_MODE_COUNT_MAX           = 16;  // entries the map holds (room, parameter range)
inline constexpr uint32_t EPROF_MODE_RESET               = 0x00000000;
inline constexpr uint32_t EPROF_MODE_QUIESCE_MASK        = 0x0000000f;  // changes only with an empty buffer
inline constexpr uint32_t EPROF_MODE_POOL_LSB            = 0;
inline constexpr uint32_t EPROF_MODE_POOL_W              = 4;
inline constexpr uint32_t EPROF_MODE_POOL_MASK           = 0x0000000f;
inline constexpr uint32_t EPROF_MODE_DYNAMIC_LSB         = 8;
inline constexpr uint32_t EPROF_MODE_DYNAMIC_W           = 1;
inline constexpr uint32_t EPROF_MODE_DYNAMIC_MASK        = 0x00000100;
inline constexpr uint32_t EPROF_MODE_SHIFT_LSB           = 16;  // signed dynamic_th
inline constexpr uint32_t EPROF_MODE_SHIFT_W             = 5;
inline constexpr uint32_t EPROF_MODE_SHIFT_MASK          = 0x001f0000;

// EPROF_RESERVED (rw, 0x0c1 + k*4, k < NPROF): Egress profile k: reserved cells.
inline constexpr uint32_t EPROF_RESERVED_ADDR            = 0x0c1;
inline constexpr uint32_t EPROF_RESERVED_STRIDE          = 4;
inline constexpr uint32_t EPROF_RESERVED_COUNT_MAX       = 16;  // entries the map holds (room, parameter range)
inline constexpr uint32_t EPROF_RESERVED_RESET           = 0x00000000;
inline constexpr uint32_t EPROF_RESERVED_QUIESCE_MASK    = 0xffffffff;  // changes only with an empty buffer
inline constexpr uint32_t EPROF_RESERVED_CELLS_LSB       = 0;
inline constexpr uint32_t EPROF_RESERVED_CELLS_W         = 32;
inline constexpr uint32_t EPROF_RESERVED_CELLS_MASK      = 0xffffffff;

// EPROF_STATIC (rw, 0x0c2 + k*4, k < NPROF): Egress profile k: static threshold, cells.
inline constexpr uint32_t EPROF_STATIC_ADDR              = 0x0c2;
inline constexpr uint32_t EPROF_STATIC_STRIDE            = 4;
inline constexpr uint32_t EPROF_STATIC_COUNT_MAX         = 16;  // entries the map holds (room, parameter range)
inline constexpr uint32_t EPROF_STATIC_RESET             = 0x00000000;
inline constexpr uint32_t EPROF_STATIC_CELLS_LSB         = 0;
inline constexpr uint32_t EPROF_STATIC_CELLS_W           = 32;
inline constexpr uint32_t EPROF_STATIC_CELLS_MASK        = 0xffffffff;

// QMAP (rw, 0x200 + k*1, k < NPORTS*NPRIO): Queue (port*NPRIO+prio): profiles and PFC enable.
inline constexpr uint32_t QMAP_ADDR                      = 0x200;
inline constexpr uint32_t QMAP_STRIDE                    = 1;
inline constexpr uint32_t QMAP_COUNT_MAX                 = 512;  // entries the map holds (room, parameter range)
inline constexpr uint32_t QMAP_RESET                     = 0x00000000;
inline constexpr uint32_t QMAP_QUIESCE_MASK              = 0x00011f1f;  // changes only with an empty buffer
inline constexpr uint32_t QMAP_PG_PROFILE_LSB            = 0;
inline constexpr uint32_t QMAP_PG_PROFILE_W              = 5;
inline constexpr uint32_t QMAP_PG_PROFILE_MASK           = 0x0000001f;
inline constexpr uint32_t QMAP_QUEUE_PROFILE_LSB         = 8;
inline constexpr uint32_t QMAP_QUEUE_PROFILE_W           = 5;
inline constexpr uint32_t QMAP_QUEUE_PROFILE_MASK        = 0x00001f00;
inline constexpr uint32_t QMAP_LOSSLESS_LSB              = 16;
inline constexpr uint32_t QMAP_LOSSLESS_W                = 1;
inline constexpr uint32_t QMAP_LOSSLESS_MASK             = 0x00010000;

// STAT_TOTAL (ro, 0x100): Cells in the buffer.
inline constexpr uint32_t STAT_TOTAL_ADDR                = 0x100;
inline constexpr uint32_t STAT_TOTAL_CELLS_LSB           = 0;
inline constexpr uint32_t STAT_TOTAL_CELLS_W             = 32;
inline constexpr uint32_t STAT_TOTAL_CELLS_MASK          = 0xffffffff;

// STAT_HDRM_POOL (ro, 0x101): Cells in the headroom pool.
inline constexpr uint32_t STAT_HDRM_POOL_ADDR            = 0x101;
inline constexpr uint32_t STAT_HDRM_POOL_CELLS_LSB       = 0;
inline constexpr uint32_t STAT_HDRM_POOL_CELLS_W         = 32;
inline constexpr uint32_t STAT_HDRM_POOL_CELLS_MASK      = 0xffffffff;

// STAT_POOL_USED (ro, 0x110 + k*1, k < NPOOLS): Shared occupancy of pool i.
inline constexpr uint32_t STAT_POOL_USED_ADDR            = 0x110;
inline constexpr uint32_t STAT_POOL_USED_STRIDE          = 1;
inline constexpr uint32_t STAT_POOL_USED_COUNT_MAX       = 15;  // entries the map holds (room, parameter range)
inline constexpr uint32_t STAT_POOL_USED_CELLS_LSB       = 0;
inline constexpr uint32_t STAT_POOL_USED_CELLS_W         = 32;
inline constexpr uint32_t STAT_POOL_USED_CELLS_MASK      = 0xffffffff;

// STAT_DECISIONS (ro, 0x120): Admission decisions since reset (wraps: a statistics counter, not an admission counter).
inline constexpr uint32_t STAT_DECISIONS_ADDR            = 0x120;
inline constexpr uint32_t STAT_DECISIONS_COUNT_LSB       = 0;
inline constexpr uint32_t STAT_DECISIONS_COUNT_W         = 32;
inline constexpr uint32_t STAT_DECISIONS_COUNT_MASK      = 0xffffffff;

// STAT_DROPS (ro, 0x121): Drops since reset (wraps). Its increment is registered (the decide stage's verdict ends at a flip-flop) and a read adds the pending one: a read counts every drop decided before its cycle.
inline constexpr uint32_t STAT_DROPS_ADDR                = 0x121;
inline constexpr uint32_t STAT_DROPS_COUNT_LSB           = 0;
inline constexpr uint32_t STAT_DROPS_COUNT_W             = 32;
inline constexpr uint32_t STAT_DROPS_COUNT_MASK          = 0xffffffff;

// Array count = product of the parameters named by the COUNT_* bits (0: one register).
inline constexpr uint32_t COUNT_NPORTS = 1u << 0;
inline constexpr uint32_t COUNT_NPOOLS = 1u << 1;
inline constexpr uint32_t COUNT_NPROF = 1u << 2;
inline constexpr uint32_t COUNT_NPRIO = 1u << 3;

enum class Access : uint8_t { kRo, kRw };

struct RegInfo {
  const char* name;
  uint32_t addr;       // word address of entry 0
  uint32_t stride;     // 0 for a single register
  uint32_t count;      // COUNT_* bits; 0 for a single register
  uint32_t count_max;  // entries that fit in the map (arrays)
  Access access;
  bool has_reset;
  uint32_t reset;
  uint32_t fields_mask;  // bits that belong to a field
  uint16_t first_field;  // its fields: kFields[first_field .. + n_fields) (regfile_fields.h)
  uint16_t n_fields;
};

inline constexpr RegInfo kRegisters[] = {
    {"ID", ID_ADDR, 0, 0, 0, Access::kRo, true, 0x4d4d5541, 0xffffffff, 0, 1},
    {"PARAMS", PARAMS_ADDR, 0, 0, 0, Access::kRo, false, 0x00000000, 0x3f1fffff, 1, 5},
    {"CTRL", CTRL_ADDR, 0, 0, 0, Access::kRw, true, 0x00000000, 0x00001f37, 6, 4},
    {"BUFFER_CELLS", BUFFER_CELLS_ADDR, 0, 0, 0, Access::kRw, true, 0x00000000, 0xffffffff, 10, 1},
    {"HDRM_POOL_CELLS", HDRM_POOL_CELLS_ADDR, 0, 0, 0, Access::kRw, true, 0x00000000, 0xffffffff, 11, 1},
    {"CONGESTED_CELLS", CONGESTED_CELLS_ADDR, 0, 0, 0, Access::kRw, true, 0x00000050, 0xffffffff, 12, 1},
    {"DSH_PORT_XON_OFFSET", DSH_PORT_XON_OFFSET_ADDR, 0, 0, 0, Access::kRw, true, 0x00000000, 0xffffffff, 13, 1},
    {"ABM_INTERVAL", ABM_INTERVAL_ADDR, 0, 0, 0, Access::kRw, true, 0x0000000d, 0x0000001f, 14, 1},
    {"ABM_PORT_CELLS", ABM_PORT_CELLS_ADDR, 1, COUNT_NPORTS, 255, Access::kRw, true, 0x00000000, 0xffffffff, 15, 1},
    {"THRESH_PERIOD", THRESH_PERIOD_ADDR, 0, 0, 0, Access::kRw, true, 0x00000001, 0x000000ff, 16, 1},
    {"POOL_SIZE", POOL_SIZE_ADDR, 1, COUNT_NPOOLS, 15, Access::kRw, true, 0x00000000, 0xffffffff, 17, 1},
    {"IPROF_MODE", IPROF_MODE_ADDR, 8, COUNT_NPROF, 16, Access::kRw, true, 0x00000000, 0x001f010f, 18, 3},
    {"IPROF_RESERVED", IPROF_RESERVED_ADDR, 8, COUNT_NPROF, 16, Access::kRw, true, 0x00000000, 0xffffffff, 21, 1},
    {"IPROF_STATIC", IPROF_STATIC_ADDR, 8, COUNT_NPROF, 16, Access::kRw, true, 0x00000000, 0xffffffff, 22, 1},
    {"IPROF_XOFF", IPROF_XOFF_ADDR, 8, COUNT_NPROF, 16, Access::kRw, true, 0x00000000, 0xffffffff, 23, 1},
    {"IPROF_XON", IPROF_XON_ADDR, 8, COUNT_NPROF, 16, Access::kRw, true, 0x00000000, 0xffffffff, 24, 1},
    {"IPROF_XON_OFFSET", IPROF_XON_OFFSET_ADDR, 8, COUNT_NPROF, 16, Access::kRw, true, 0x00000000, 0xffffffff, 25, 1},
    {"EPROF_MODE", EPROF_MODE_ADDR, 4, COUNT_NPROF, 16, Access::kRw, true, 0x00000000, 0x001f010f, 26, 3},
    {"EPROF_RESERVED", EPROF_RESERVED_ADDR, 4, COUNT_NPROF, 16, Access::kRw, true, 0x00000000, 0xffffffff, 29, 1},
    {"EPROF_STATIC", EPROF_STATIC_ADDR, 4, COUNT_NPROF, 16, Access::kRw, true, 0x00000000, 0xffffffff, 30, 1},
    {"QMAP", QMAP_ADDR, 1, COUNT_NPORTS | COUNT_NPRIO, 512, Access::kRw, true, 0x00000000, 0x00011f1f, 31, 3},
    {"STAT_TOTAL", STAT_TOTAL_ADDR, 0, 0, 0, Access::kRo, false, 0x00000000, 0xffffffff, 34, 1},
    {"STAT_HDRM_POOL", STAT_HDRM_POOL_ADDR, 0, 0, 0, Access::kRo, false, 0x00000000, 0xffffffff, 35, 1},
    {"STAT_POOL_USED", STAT_POOL_USED_ADDR, 1, COUNT_NPOOLS, 15, Access::kRo, false, 0x00000000, 0xffffffff, 36, 1},
    {"STAT_DECISIONS", STAT_DECISIONS_ADDR, 0, 0, 0, Access::kRo, false, 0x00000000, 0xffffffff, 37, 1},
    {"STAT_DROPS", STAT_DROPS_ADDR, 0, 0, 0, Access::kRo, false, 0x00000000, 0xffffffff, 38, 1},
};

}  // namespace mmusim::admission::regs
