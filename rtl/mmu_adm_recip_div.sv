// floor(v / n) without a divider: v x m(n) >> S with m(n) = ceil(2^S / n), S = VW + LN,
// from a constant table of m over n = 2..NMAX (n <= 1 passes v through: n_p counts at
// least one queue). Exact for every v < 2^VW and n < 2^LN: m(n) = (2^S + e) / n with
// 0 <= e < n, so v m(n) / 2^S = v/n + v e / (n 2^S) and v e < 2^VW 2^LN = 2^S keeps the
// error below 1/n, which floor(v/n)'s fraction (at most (n-1)/n) cannot cross. The same
// rule in C++: hw-model/admission/recip.h (tested against division exhaustively in n).
`default_nettype none

module mmu_adm_recip_div #(
  parameter int VW = 32,    // dividend bits
  parameter int NW = 8,     // divisor bits
  parameter int NMAX = 16,  // largest divisor the unit can hold (n_p <= 2 x NPORTS)
  localparam int LN = $clog2(NMAX + 1),
  localparam int S = VW + LN
) (
  input  wire [VW-1:0] v_i,
  input  wire [NW-1:0] n_i,
  output wire [VW-1:0] q_o
);
  // m(n) for n = 0..NMAX, entry n at [n*S +: S]; m(2) = 2^(S-1) is the largest.
  logic [(NMAX+1)*S-1:0] tab;
  for (genvar i = 0; i <= NMAX; i++) begin : g_tab
    localparam logic [63:0] D = 64'(i < 2 ? 2 : i);
    assign tab[i*S +: S] = i < 2 ? '0 : S'(((64'(1) << S) + D - 64'(1)) / D);
  end
  // A divisor beyond NMAX cannot occur (mmu_admission asserts it).
  wire [S-1:0] m = 32'(n_i) <= 32'(NMAX) ? tab[32'(n_i)*S +: S] : '0;
  // v < 2^VW and m < 2^S: the product needs VW + S bits, the quotient is its top VW.
  wire [VW-1:0] q = VW'(((VW+S)'(v_i) * (VW+S)'(m)) >> S);
  assign q_o = n_i <= NW'(1) ? v_i : q;
endmodule

`default_nettype wire
