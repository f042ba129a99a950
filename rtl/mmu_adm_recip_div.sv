// floor(v / n) without a divider: v x m(n) >> S(n) with m(n) = ceil(2^S(n) / n), from a
// constant table of m and S over n = 2..NMAX (n <= 1 passes v through: n_p counts at least
// one queue). S(n) is the smallest S >= VW with e (2^VW - 1) < 2^S, e = n m(n) - 2^S:
// v m(n) / 2^S = v/n + v e / (n 2^S), and v e < 2^S keeps the error below 1/n, which
// floor(v/n)'s fraction (at most (n-1)/n) cannot cross; so exact for every v < 2^VW.
// The smallest such S keeps m to MW bits (VW + 1 at most: at S = VW + clog2(n), e < n
// gives the bound, and m < 2^(VW+1)). The same rule in C++: hw-model/admission/recip.h.
`default_nettype none

module mmu_adm_recip_div #(
  parameter int VW = 32,    // dividend bits
  parameter int NW = 8,     // divisor bits
  parameter int NMAX = 16,  // largest divisor the unit can hold (n_p <= 2 x NPORTS)
  localparam int LN = $clog2(NMAX + 1),
  localparam int MW = VW + 1,                      // m(n) < 2^(VW+1) at the smallest S
  localparam int DW = LN > 1 ? $clog2(LN + 1) : 1  // S(n) - VW in 0..LN
) (
  input  wire [VW-1:0] v_i,
  input  wire [NW-1:0] n_i,
  output wire [VW-1:0] q_o
);
  // S(n) for n >= 2: the smallest S in VW..VW+LN meeting the bound (the last one found
  // counting down; S = VW + clog2(n) always does, e < n).
  function automatic int s_of(input int n);
    logic [63:0] m, e;
    s_of = VW + LN;
    for (int s = VW + LN; s >= VW; s--) begin
      m = ((64'(1) << s) + 64'(n) - 64'(1)) / 64'(n);
      e = m * 64'(n) - (64'(1) << s);
      if (e * ((64'(1) << VW) - 64'(1)) < (64'(1) << s)) s_of = s;
    end
  endfunction

  // m(n) for n = 0..NMAX, entry n at [n*MW +: MW], and S(n) - VW at [n*DW +: DW].
  logic [(NMAX+1)*MW-1:0] tab_m;
  logic [(NMAX+1)*DW-1:0] tab_d;
  for (genvar i = 0; i <= NMAX; i++) begin : g_tab
    localparam int S = i < 2 ? VW : s_of(i);
    localparam logic [63:0] D = 64'(i < 2 ? 2 : i);
    assign tab_m[i*MW +: MW] = i < 2 ? '0 : MW'(((64'(1) << S) + D - 64'(1)) / D);
    assign tab_d[i*DW +: DW] = DW'(S - VW);
  end
  // A divisor beyond NMAX cannot occur (mmu_admission asserts it).
  wire [MW-1:0] m = 32'(n_i) <= 32'(NMAX) ? tab_m[32'(n_i)*MW +: MW] : '0;
  wire [DW-1:0] d = 32'(n_i) <= 32'(NMAX) ? tab_d[32'(n_i)*DW +: DW] : '0;
  // v < 2^VW and m < 2^MW: the product needs VW + MW bits; q is its top bits from S(n) up.
  wire [MW-1:0] hi = MW'(((VW+MW)'(v_i) * (VW+MW)'(m)) >> VW);
  wire [VW-1:0] q = VW'(hi >> d);
  assign q_o = n_i <= NW'(1) ? v_i : q;
endmodule

`default_nettype wire
