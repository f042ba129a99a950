// Arithmetic of the admission unit, bit-exact with hw-model/admission (the C++ golden core).
`default_nettype none

package mmu_adm_pkg;

  // Widest intermediate: counters are at most 32 bits, cells 16, alpha shifts 15,
  // EWMA fractions 16; 64 bits hold every sum and shift without loss, as the golden
  // core's uint64_t does. (A literal width: Icarus 11 cannot bind a parameter here.)
  typedef logic [63:0] xw_t;

  localparam logic [1:0] VERDICT_SHARED = 2'd0;
  localparam logic [1:0] VERDICT_HEADROOM = 2'd1;
  localparam logic [1:0] VERDICT_DROP = 2'd2;

  localparam logic [1:0] PFC_NONE = 2'd0;
  localparam logic [1:0] PFC_XOFF = 2'd1;
  localparam logic [1:0] PFC_XON = 2'd2;

  localparam logic [2:0] REASON_NONE = 3'd0;
  localparam logic [2:0] REASON_INGRESS = 3'd1;
  localparam logic [2:0] REASON_EGRESS = 3'd2;
  localparam logic [2:0] REASON_HEADROOM = 3'd3;
  localparam logic [2:0] REASON_BUFFER = 3'd4;

  localparam logic [1:0] POLICY_DT = 2'd0;
  localparam logic [1:0] POLICY_REVERIE = 2'd1;
  localparam logic [1:0] POLICY_DSH = 2'd2;

  // Part of a queue above its reserved cells.
  // (No `return`: yosys 0.23 does not parse it; results go to the function's name.)
  function automatic xw_t shared_part(xw_t q, xw_t reserved);
    shared_part = q > reserved ? q - reserved : '0;
  endfunction

  // alpha * v with alpha = 2^shift (shift -15..15), saturating at cmax like a
  // saturating shifter.
  function automatic xw_t scale(xw_t v, logic signed [4:0] shift, xw_t cmax);
    xw_t wide;
    wide = v << shift;
    if (shift < 0) scale = v >> (-shift);
    else scale = wide > cmax ? cmax : wide;
  endfunction

  // Dynamic Thresholds (reverie Eq. 1) or a static threshold.
  function automatic xw_t dt_threshold(logic dynamic, logic signed [4:0] shift, xw_t static_cells,
                                       xw_t pool_size, xw_t pool_used, xw_t cmax);
    if (!dynamic) dt_threshold = static_cells;
    else dt_threshold = scale(pool_used >= pool_size ? '0 : pool_size - pool_used, shift, cmax);
  endfunction

  // A queue of q cells cannot take n more: over threshold ("equals or exceeds") or pool full.
  function automatic logic over(xw_t q, xw_t n, xw_t reserved, xw_t th, xw_t pool_size, xw_t pool_used);
    xw_t s;
    xw_t grow;
    s = shared_part(q, reserved);
    grow = shared_part(q + n, reserved) - s;
    if (q + n <= reserved) over = 1'b0;
    else if (pool_used + grow > pool_size) over = 1'b1;
    else over = s >= th;
  endfunction

  // One step of the fixed-point low-pass filter (reverie Eq. 5):
  // avg + ((q << F) - avg) >>> k, the arithmetic shift rounding towards minus infinity.
  function automatic xw_t ewma_step(xw_t avg, xw_t q, logic [4:0] k, int frac);
    xw_t target;
    xw_t d;
    xw_t mask;
    target = q << frac;
    d = avg - target;
    mask = (64'(1) << k) - 1;
    if (target >= avg) ewma_step = avg + ((target - avg) >> k);
    else ewma_step = avg - (d >> k) - ((d & mask) != 0 ? 64'(1) : 64'(0));
  endfunction

  function automatic xw_t ewma_update(xw_t avg, xw_t q, logic [4:0] k, logic clamp, int frac);
    xw_t a;
    a = ewma_step(avg, q, k, frac);
    if (clamp && a > (q << frac)) a = q << frac;
    ewma_update = a;
  endfunction

endpackage

`default_nettype wire
