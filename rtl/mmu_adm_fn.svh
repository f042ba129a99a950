// Arithmetic shared by the admission policies (as hw-model/admission/policy.cc), included
// in a module body: widths follow the includer's CW, CELLW and EWMA_FRAC. Every value is
// exact: each width holds the largest value its operands can make, so nothing wraps and
// the results equal the golden core's uint64_t ones for counters of CW bits.
// (No `return`: yosys 0.23 does not parse it; results go to the function's name.)
/* verilator lint_off UNUSEDPARAM */

// A counter plus a packet's cells (q + n, pool + grow, hdrm_used + n) or plus another
// CW-bit value (s + xon_offset): max(CW, CELLW) bits and one carry bit.
localparam int SW = (CW > CELLW ? CW : CELLW) + 1;
// q << EWMA_FRAC: a counter with the filter's fraction bits (q_hat never exceeds it).
localparam int FW = CW + EWMA_FRAC;
// {CW{1'b1}}, not '1: yosys 0.23 gives a typed localparam set to '1 the value 1.
localparam logic [CW-1:0] CMAX = {CW{1'b1}};

// Part of a queue above its reserved cells.
function automatic logic [SW-1:0] shared_part(input logic [SW-1:0] q, input logic [CW-1:0] reserved);
  shared_part = q > SW'(reserved) ? q - SW'(reserved) : '0;
endfunction

// alpha * v with alpha = 2^shift (shift -15..15), saturating at CMAX like the golden
// core: CW + 15 bits hold the largest shift before the saturation test.
function automatic logic [CW-1:0] scale(input logic [CW-1:0] v, input logic signed [4:0] shift);
  logic [CW+14:0] wide;
  wide = (CW+15)'(v) << shift;
  if (shift < 0) scale = v >> (-shift);
  else scale = wide > (CW+15)'(CMAX) ? CMAX : wide[CW-1:0];
endfunction

// Dynamic Thresholds (reverie Eq. 1), or a static threshold.
function automatic logic [CW-1:0] dt_threshold(input logic dynamic, input logic signed [4:0] shift,
                                               input logic [CW-1:0] static_cells, input logic [CW-1:0] pool_size,
                                               input logic [CW-1:0] pool_used);
  if (!dynamic) dt_threshold = static_cells;
  else dt_threshold = scale(pool_used >= pool_size ? '0 : pool_size - pool_used, shift);
endfunction

// A queue of q cells cannot take n more: over threshold ("equals or exceeds") or pool full.
function automatic logic over(input logic [CW-1:0] q, input logic [CELLW-1:0] n, input logic [CW-1:0] reserved,
                              input logic [CW-1:0] th, input logic [CW-1:0] pool_size, input logic [CW-1:0] pool_used);
  logic [SW-1:0] s, grow;
  s = shared_part(SW'(q), reserved);
  grow = shared_part(SW'(q) + SW'(n), reserved) - s;  // at most n
  if (SW'(q) + SW'(n) <= SW'(reserved)) over = 1'b0;
  else if (SW'(pool_used) + grow > SW'(pool_size)) over = 1'b1;
  else over = s >= SW'(th);
endfunction

// One step of the fixed-point low-pass filter (reverie Eq. 5):
// avg + ((q << F) - avg) >>> k, the arithmetic shift rounding towards minus infinity.
// avg and q << F both fit FW bits, so their difference does.
function automatic logic [FW-1:0] ewma_step(input logic [FW-1:0] avg, input logic [CW-1:0] q, input logic [4:0] k);
  logic [FW-1:0] target, d, mask;
  target = FW'(q) << EWMA_FRAC;
  d = avg - target;
  mask = (FW'(1) << k) - 1'b1;  // all ones once k >= FW: d has no more bits
  if (target >= avg) ewma_step = avg + ((target - avg) >> k);
  else ewma_step = avg - (d >> k) - FW'((d & mask) != '0);
endfunction

function automatic logic [FW-1:0] ewma_update(input logic [FW-1:0] avg, input logic [CW-1:0] q, input logic [4:0] k,
                                              input logic clamp);
  logic [FW-1:0] a;
  a = ewma_step(avg, q, k);
  if (clamp && a > (FW'(q) << EWMA_FRAC)) a = FW'(q) << EWMA_FRAC;
  ewma_update = a;
endfunction
/* verilator lint_on UNUSEDPARAM */
