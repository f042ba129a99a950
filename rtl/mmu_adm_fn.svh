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
// core. A left shift saturates when it moves a set bit past CW: v's top `shift` bits,
// masked by the shift alone (a configuration field), so the test runs beside the shifter
// rather than on its output.
function automatic logic [CW-1:0] scale(input logic [CW-1:0] v, input logic signed [4:0] shift);
  logic [CW-1:0] lost;
  lost = ~(CMAX >> shift[3:0]);
  if (shift < 0) scale = v >> (-shift);
  else scale = (v & lost) != '0 ? CMAX : v << shift[3:0];
endfunction

// The decide stage's arithmetic is written as sums of its operands, each test one
// multi-operand sum (a carry-save tree and one carry chain) rather than a chain of
// differences in series (docs/rtl.md, "The decide stage").

// a + b + c > d + e + f, as the sign of one sum (each operand below 2^SW). Compares sharing
// a prefix of operands use mmu_adm_sumgt instead: within one module the synthesis shares
// the prefix as an adder in series.
function automatic logic sum_gt(input logic [SW-1:0] a, input logic [SW-1:0] b, input logic [SW-1:0] c,
                                input logic [SW-1:0] d, input logic [SW-1:0] e, input logic [SW-1:0] f);
  logic [SW+2:0] diff;
  diff = (SW+3)'(d) + (SW+3)'(e) + (SW+3)'(f) - (SW+3)'(a) - (SW+3)'(b) - (SW+3)'(c);
  sum_gt = diff[SW+2];
endfunction

// Fall of a queue's shared part when a release of n cells drains h headroom cells first
// and the rest (n - h <= q) from its q cells: shared_part(q) - shared_part(q - max(n - h, 0)).
function automatic logic [SW-1:0] shrink_of(input logic [SW-1:0] q, input logic [SW-1:0] h, input logic [SW-1:0] n,
                                            input logic [CW-1:0] reserved);
  if (n <= h || q <= SW'(reserved)) shrink_of = '0;
  else if (q + h >= n + SW'(reserved)) shrink_of = n - h;
  else shrink_of = q - SW'(reserved);
endfunction

// A shared counter's next value (a pool, the headroom pool, the total): the view v less
// the same-cycle release's refund rf_in and the operation's own refund rf_out, plus an
// admitted request's charge (ch_shared into the shared pool, ch_hdrm into headroom); each
// candidate one sum, the verdict selecting last.
function automatic logic [CW-1:0] counter_next(input logic [CW-1:0] v, input logic [CW-1:0] rf_in,
                                               input logic [CW-1:0] rf_out, input logic [CW-1:0] ch_shared,
                                               input logic [CW-1:0] ch_hdrm, input logic [1:0] verdict);
  if (verdict == mmu_adm_pkg::VERDICT_SHARED) counter_next = v - rf_in - rf_out + ch_shared;
  else if (verdict == mmu_adm_pkg::VERDICT_HEADROOM) counter_next = v - rf_in - rf_out + ch_hdrm;
  else counter_next = v - rf_in - rf_out;
endfunction

// A queue of q cells cannot take n more: over threshold ("equals or exceeds") or pool full.
// The pool test pool + grow_of(q, n) > size is summed for each of the growth's two cases
// past the reserve (n, or q + n - reserved) and selected by q >= reserved behind both: one
// carry chain, not the growth's compares and select in front. The pool is the register: a
// same-cycle release's refund reaches the test a cycle later ("The pool refund's lag",
// docs/rtl.md).
function automatic logic over(input logic [CW-1:0] q, input logic [CELLW-1:0] n, input logic [CW-1:0] reserved,
                              input logic [CW-1:0] th, input logic [CW-1:0] pool_size, input logic [CW-1:0] pool_used);
  logic full_n, full_part;
  full_n = sum_gt(SW'(pool_used), SW'(n), '0, SW'(pool_size), '0, '0);
  full_part = sum_gt(SW'(pool_used), SW'(q), SW'(n), SW'(pool_size), SW'(reserved), '0);
  if (SW'(q) + SW'(n) <= SW'(reserved)) over = 1'b0;
  else if (SW'(q) >= SW'(reserved) ? full_n : full_part) over = 1'b1;
  else over = th == '0 || SW'(q) >= SW'(reserved) + SW'(th);  // shared_part(q) >= th
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
