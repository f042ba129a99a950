// The quotients alpha th / n_p of each operation slot's ingress and egress profile, for the
// policies whose thresholds divide by n_p, through the reciprocal table (mmu_adm_recip_div):
// - abm: the calculator's profile entry (alpha (b - q), alpha applied there) over abm's
//   n_p of the priority (ingress) or of the egress queue;
// - reverie: Gamma_p = alpha_p (b* - q*) / n_p (Eq. 6), its pool's room scaled by the
//   profile's alpha, over reverie's n_p of the priority (a lossy packet's: its egress
//   queue's).
// Every operand is a register or a stored field, none the state an operation changes, so
// with PIPE 1 they are divided in the read stage, on the calculator's values of the next
// cycle, and reach the decide stage as registers: no division in front of a verdict. The
// read stage reads the queue map, the profiles' shift fields and CTRL.policy as stored: an
// operation taken in the cycle of a write to them takes the old values (the golden core
// takes none there; docs/rtl.md, "CSR write latency").
// reverie reads one side per operation (its lossless PG's, or its egress queue's), so
// without abm each slot divides once, on the side of its queue's stored lossless bit, and
// hands that quotient out on both sides.
`default_nettype none

module mmu_adm_quot #(
  parameter int NPORTS = 8,       // switch ports: n_p counts at most 2 NPORTS queues
  parameter int CW = 32,          // width of every cell counter
  parameter int CELLW = 16,       // width of a packet's cell count (mmu_adm_fn.svh)
  parameter int EWMA_FRAC = 16,   // fraction bits of the filter state (mmu_adm_fn.svh)
  parameter int NPROF = 8,        // profile table entries per side
  parameter int NW = 5,           // bits of an n_p entry
  parameter int PIPE = 0,         // 1: computed in the read stage and registered
  parameter logic [5:0] POLICIES = 6'b111111,  // policies present: bit i = CTRL.policy value i
  localparam int PFW = NPROF > 1 ? $clog2(NPROF) : 1
) (
  /* verilator lint_off UNUSEDSIGNAL */ // PIPE 1 only; the fields of an absent policy
  input  wire                  clk_i,
  input  wire [2:0]            policy_i,    // CTRL.policy (stored)
  input  wire [2*NPROF*CW-1:0] th_i,        // abm: profile entries, ingress k at k, egress at NPROF + k
  input  wire [CW-1:0]         room_i,      // reverie: b* - q* of its pool
  input  wire [NPROF*5-1:0]    ip_shift_i,  // reverie: the profiles' alpha (stored)
  input  wire [NPROF*5-1:0]    ep_shift_i,
  input  wire [16*NW-1:0]      np_i,        // reverie: priority p at p; abm: ingress p at p, egress queue q at 8 + q
  // Each slot's profiles, priority and egress queue.
  input  wire [PFW-1:0]        a_ipf_i,
  input  wire [PFW-1:0]        a_epf_i,
  input  wire [2:0]            a_prio_i,
  input  wire [2:0]            a_eq_i,
  input  wire                  a_ll_i,      // the slot's ingress queue is lossless (stored)
  input  wire [PFW-1:0]        b_ipf_i,
  input  wire [PFW-1:0]        b_epf_i,
  input  wire [2:0]            b_prio_i,
  input  wire [2:0]            b_eq_i,
  input  wire                  b_ll_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [CW-1:0]        a_in_o,      // the ingress profile's quotient
  output logic [CW-1:0]        a_eg_o,      // the egress profile's
  output logic [CW-1:0]        b_in_o,
  output logic [CW-1:0]        b_eg_o
);
`include "mmu_adm_fn.svh"
  localparam bit AB = POLICIES[mmu_adm_pkg::POLICY_ABM];
  localparam bit RV = POLICIES[mmu_adm_pkg::POLICY_REVERIE];
  localparam int NMAX = RV ? 2 * NPORTS : NPORTS;

  // abm: four dividers, each slot's ingress (j even) and egress side; reverie alone: one
  // per slot (j), on the side of its queue's lossless bit, its quotient on both sides.
  localparam int ND = AB ? 4 : 2;
  if (AB || RV) begin : g_on
    wire rev = RV && (!AB || policy_i == mmu_adm_pkg::POLICY_REVERIE);
    wire [ND*CW-1:0] quot;
    for (genvar j = 0; j < ND; j++) begin : g_quot
      localparam int SL = AB ? j / 2 : j;  // the slot: 0 a, 1 b
      wire ll = SL == 0 ? a_ll_i : b_ll_i;
      wire eg = AB ? j % 2 == 1 : !ll;
      wire [PFW-1:0] k = eg ? (SL == 0 ? a_epf_i : b_epf_i) : (SL == 0 ? a_ipf_i : b_ipf_i);
      wire [4:0] shift = eg ? ep_shift_i[k*5 +: 5] : ip_shift_i[k*5 +: 5];
      wire [CW-1:0] v = rev ? scale(room_i, shift) : th_i[(eg ? NPROF + 32'(k) : 32'(k))*CW +: CW];
      // reverie's n_p has one entry per priority (a lossy packet's: its egress queue's);
      // abm's egress entries follow its ingress ones.
      wire [2:0] p = eg ? (SL == 0 ? a_eq_i : b_eq_i) : (SL == 0 ? a_prio_i : b_prio_i);
      wire [3:0] e = {eg && !rev, p};
      mmu_adm_recip_div #(.VW(CW), .NW(NW), .NMAX(NMAX)) u_div (
        .v_i(v), .n_i(np_i[e*NW +: NW]), .q_o(quot[j*CW +: CW]));
    end
    // Each slot's ingress and egress quotients.
    wire [4*CW-1:0] out;
    if (AB) begin : g_sides
      assign out = quot;
    end else begin : g_slots
      assign out = {quot[CW +: CW], quot[CW +: CW], quot[0 +: CW], quot[0 +: CW]};
    end
    if (PIPE != 0) begin : g_reg
      always_ff @(posedge clk_i) {b_eg_o, b_in_o, a_eg_o, a_in_o} <= out;
    end else begin : g_comb
      assign {b_eg_o, b_in_o, a_eg_o, a_in_o} = out;
    end
  end else begin : g_off
    assign {a_in_o, a_eg_o, b_in_o, b_eg_o} = '0;
  end
endmodule

`default_nettype wire
