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

// The decide stage's arithmetic is written as sums of its operands, each test one
// multi-operand sum (a carry-save tree and one carry chain) rather than a chain of
// differences in series (docs/rtl.md, "The decide stage").
//
// The trees and the carry chain are spelled out (csa_sum): yosys 0.23 maps a sum of more
// than two operands ($macc, maccmap) to two adder stages in series with a rippling carry
// between them, which ABC does not restructure (a 7-operand 21-bit sign test: 710 ps in
// ASAP7 as yosys maps it, 436 ps as written here; docs/ppa.md "v2, step 9").
// Every sum is taken modulo 2^XW, wide enough for each caller's width, which keeps the low
// bits exact; bits above a caller's width are unread and synthesised away.
localparam int XW = SW + 4;
localparam int NOPS = 12;  // operands of the widest sum (over_refund's 5 + 4 refund terms,
                           // their complements' constant)

// A 3:2 compressor: {carry << 1, sum} of three XW-bit operands, modulo 2^XW.
function automatic logic [2*XW-1:0] csa3(input logic [XW-1:0] x, input logic [XW-1:0] y, input logic [XW-1:0] z);
  csa3 = {((x & y) | (x & z) | (y & z)) << 1, x ^ y ^ z};
endfunction

// Sum of NOPS (12) operands modulo 2^XW: a Wallace tree of 3:2 compressors (12 -> 8 -> 6
// -> 4 -> 3 -> 2), then one Kogge-Stone carry chain.
function automatic logic [XW-1:0] csa_sum(input logic [NOPS*XW-1:0] ops);
  logic [8*XW-1:0] l1;
  logic [6*XW-1:0] l2;
  logic [4*XW-1:0] l3;
  logic [3*XW-1:0] l4;
  logic [2*XW-1:0] l5;
  logic [XW-1:0] g, p, gg, pp, g2, p2;
  for (int i = 0; i < 4; i++)
    l1[2*i*XW +: 2*XW] = csa3(ops[3*i*XW +: XW], ops[(3*i+1)*XW +: XW], ops[(3*i+2)*XW +: XW]);
  l2[0 +: 2*XW] = csa3(l1[0 +: XW], l1[XW +: XW], l1[2*XW +: XW]);
  l2[2*XW +: 2*XW] = csa3(l1[3*XW +: XW], l1[4*XW +: XW], l1[5*XW +: XW]);
  l2[4*XW +: 2*XW] = l1[6*XW +: 2*XW];
  l3[0 +: 2*XW] = csa3(l2[0 +: XW], l2[XW +: XW], l2[2*XW +: XW]);
  l3[2*XW +: 2*XW] = csa3(l2[3*XW +: XW], l2[4*XW +: XW], l2[5*XW +: XW]);
  l4[0 +: 2*XW] = csa3(l3[0 +: XW], l3[XW +: XW], l3[2*XW +: XW]);
  l4[2*XW +: XW] = l3[3*XW +: XW];
  l5 = csa3(l4[0 +: XW], l4[XW +: XW], l4[2*XW +: XW]);
  g = l5[0 +: XW] & l5[XW +: XW];
  p = l5[0 +: XW] ^ l5[XW +: XW];
  gg = g;
  pp = p;
  for (int d = 1; d < XW; d = d * 2) begin
    g2 = gg;
    p2 = pp;
    for (int i = d; i < XW; i++) begin
      g2[i] = gg[i] | (pp[i] & gg[i-d]);
      p2[i] = pp[i] & pp[i-d];
    end
    gg = g2;
    pp = p2;
  end
  csa_sum = p ^ {gg[XW-2:0], 1'b0};
endfunction

// The operand list of csa_sum: x added, or subtracted as ~x (+ 1 among the constants).
function automatic logic [XW-1:0] op_add(input logic [SW-1:0] x);
  op_add = (SW+4)'(x);
endfunction
function automatic logic [XW-1:0] op_sub(input logic [SW-1:0] x);
  op_sub = ~((SW+4)'(x));
endfunction

// a + b + c > d + e + f, as the sign of one sum (each operand below 2^SW).
function automatic logic sum_gt(input logic [SW-1:0] a, input logic [SW-1:0] b, input logic [SW-1:0] c,
                                input logic [SW-1:0] d, input logic [SW-1:0] e, input logic [SW-1:0] f);
  logic [XW-1:0] diff;  // below 3 * 2^SW in magnitude: its sign is bit SW + 2
  diff = csa_sum({op_add(d), op_add(e), op_add(f), op_sub(a), op_sub(b), op_sub(c), (SW+4)'(3), {(NOPS-7)*XW{1'b0}}});
  sum_gt = diff[SW+2];
endfunction

// Growth of a queue's shared part when it takes n cells: shared_part(q + n) - shared_part(q).
function automatic logic [SW-1:0] grow_of(input logic [SW-1:0] q, input logic [SW-1:0] n, input logic [CW-1:0] reserved);
  if (q + n <= SW'(reserved)) grow_of = '0;
  else if (q >= SW'(reserved)) grow_of = n;
  else grow_of = q + n - SW'(reserved);
endfunction

// grow_of's operands masked by its cases (q + n <= reserved: none; q >= reserved: n; else
// q + n - reserved), as {reserved, q, n}, the first to subtract, each zero unless `on`: a
// sum that takes them waits for grow_of's compares only, not for its difference and select.
function automatic logic [3*CW-1:0] grow_terms(input logic on, input logic [SW-1:0] q, input logic [SW-1:0] n,
                                               input logic [CW-1:0] reserved);
  logic grows, part;
  grows = on && sum_gt(q, n, '0, SW'(reserved), '0, '0);
  part = q < SW'(reserved);
  grow_terms = '0;
  if (grows) begin
    grow_terms[0 +: CW] = CW'(n);
    if (part) grow_terms[CW +: 2*CW] = {reserved, CW'(q)};
  end
endfunction

// A pool's next value (modulo 2^CW) as one sum: the view v less the same-cycle release's
// refund as terms (refund: rfp, rfm) or else this operation's own refund, plus the growths'
// operands of its ingress and egress queues (grow_terms; zero where they do not charge it).
function automatic logic [CW-1:0] pool_sum(input logic [CW-1:0] v, input logic refund,
                                           input logic [mmu_adm_pkg::RF_ADD*CW-1:0] rfp,
                                           input logic [mmu_adm_pkg::RF_SUB*CW-1:0] rfm,
                                           input logic [CW-1:0] own, input logic [3*CW-1:0] ig,
                                           input logic [3*CW-1:0] eg);
  logic [NOPS*XW-1:0] ops;
  logic [XW-1:0] r;
  ops = '0;
  ops[0 +: XW] = op_add(SW'(v));
  if (refund) begin
    for (int i = 0; i < mmu_adm_pkg::RF_ADD; i++) ops[(1+i)*XW +: XW] = op_sub(SW'(rfp[i*CW +: CW]));
    for (int i = 0; i < mmu_adm_pkg::RF_SUB; i++)
      ops[(1+mmu_adm_pkg::RF_ADD+i)*XW +: XW] = op_add(SW'(rfm[i*CW +: CW]));
  end else begin
    ops[XW +: XW] = op_sub(SW'(own));
  end
  ops[5*XW +: 6*XW] = {op_add(SW'(ig[0 +: CW])), op_add(SW'(ig[CW +: CW])), op_sub(SW'(ig[2*CW +: CW])),
                       op_add(SW'(eg[0 +: CW])), op_add(SW'(eg[CW +: CW])), op_sub(SW'(eg[2*CW +: CW]))};
  ops[11*XW +: XW] = (SW+4)'(refund ? 2 + mmu_adm_pkg::RF_ADD : 3);
  r = csa_sum(ops);
  pool_sum = r[CW-1:0];
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
  logic [XW-1:0] c_shared, c_hdrm, c_none;
  c_shared = csa_sum({op_add(SW'(v)), op_sub(SW'(rf_in)), op_sub(SW'(rf_out)), op_add(SW'(ch_shared)),
                      (SW+4)'(2), {(NOPS-5)*XW{1'b0}}});
  c_hdrm = csa_sum({op_add(SW'(v)), op_sub(SW'(rf_in)), op_sub(SW'(rf_out)), op_add(SW'(ch_hdrm)),
                    (SW+4)'(2), {(NOPS-5)*XW{1'b0}}});
  c_none = csa_sum({op_add(SW'(v)), op_sub(SW'(rf_in)), op_sub(SW'(rf_out)), (SW+4)'(2), {(NOPS-4)*XW{1'b0}}});
  if (verdict == mmu_adm_pkg::VERDICT_SHARED) counter_next = c_shared[CW-1:0];
  else if (verdict == mmu_adm_pkg::VERDICT_HEADROOM) counter_next = c_hdrm[CW-1:0];
  else counter_next = c_none[CW-1:0];
endfunction

// a + b + c > d + e + refund, the refund given as terms (the sum of rfp's
// mmu_adm_pkg::RF_ADD values less rfm's RF_SUB values, mmu_adm_pol_if.svh): one sum of all of
// them and its sign, so the refund's terms enter the test as they come, not as their sum.
function automatic logic over_refund(input logic [SW-1:0] a, input logic [SW-1:0] b, input logic [SW-1:0] c,
                                     input logic [SW-1:0] d, input logic [SW-1:0] e,
                                     input logic [mmu_adm_pkg::RF_ADD*CW-1:0] rfp,
                                     input logic [mmu_adm_pkg::RF_SUB*CW-1:0] rfm);
  logic [XW-1:0] diff;  // each side below 6 * 2^SW (RF_ADD, RF_SUB <= 3): the sign is bit SW + 3
  logic [NOPS*XW-1:0] ops;
  ops = '0;
  ops[0 +: 6*XW] = {op_add(d), op_add(e), op_sub(a), op_sub(b), op_sub(c), (SW+4)'(3 + mmu_adm_pkg::RF_SUB)};
  for (int i = 0; i < mmu_adm_pkg::RF_ADD; i++) ops[(6+i)*XW +: XW] = op_add(SW'(rfp[i*CW +: CW]));
  for (int i = 0; i < mmu_adm_pkg::RF_SUB; i++)
    ops[(6+mmu_adm_pkg::RF_ADD+i)*XW +: XW] = op_sub(SW'(rfm[i*CW +: CW]));
  diff = csa_sum(ops);
  over_refund = diff[SW+3];
endfunction

// A counter less a refund given as terms (modulo 2^CW, as the counters).
function automatic logic [CW-1:0] less_refund(input logic [CW-1:0] v, input logic [mmu_adm_pkg::RF_ADD*CW-1:0] rfp,
                                              input logic [mmu_adm_pkg::RF_SUB*CW-1:0] rfm);
  logic [CW-1:0] r;
  r = v;
  for (int i = 0; i < mmu_adm_pkg::RF_ADD; i++) r = r - rfp[i*CW +: CW];
  for (int i = 0; i < mmu_adm_pkg::RF_SUB; i++) r = r + rfm[i*CW +: CW];
  less_refund = r;
endfunction

// A queue of q cells cannot take n more: over threshold ("equals or exceeds") or pool full,
// the pool's occupancy being pool_used - refund (dual issue: the release's refund, as
// terms; "The decide stage"). The pool test pool + grow_of(q, n) > size + refund is summed
// for each of the growth's two cases past the reserve (n, or q + n - reserved) and
// selected by q >= reserved behind both: one carry chain, not the growth's compares and
// select in front.
function automatic logic over(input logic [CW-1:0] q, input logic [CELLW-1:0] n, input logic [CW-1:0] reserved,
                              input logic [CW-1:0] th, input logic [CW-1:0] pool_size, input logic [CW-1:0] pool_used,
                              input logic [mmu_adm_pkg::RF_ADD*CW-1:0] rfp,
                              input logic [mmu_adm_pkg::RF_SUB*CW-1:0] rfm, input logic refund);
  logic full_n, full_part;
  // Without a refund (a constant: the module's REFUND), the sums without its terms (yosys
  // does not drop zero operands of a sum).
  if (refund) begin
    full_n = over_refund(SW'(pool_used), SW'(n), '0, SW'(pool_size), '0, rfp, rfm);
    full_part = over_refund(SW'(pool_used), SW'(q), SW'(n), SW'(pool_size), SW'(reserved), rfp, rfm);
  end else begin
    full_n = sum_gt(SW'(pool_used), SW'(n), '0, SW'(pool_size), '0, '0);
    full_part = sum_gt(SW'(pool_used), SW'(q), SW'(n), SW'(pool_size), SW'(reserved), '0);
  end
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
