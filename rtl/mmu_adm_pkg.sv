// Encodings of the admission unit, shared by its modules and the golden core
// (hw-model/admission/types.h). The arithmetic lives in mmu_adm_fn.svh, at the widths
// of the module that includes it.
`default_nettype none

package mmu_adm_pkg;

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

  // CTRL.policy (rtl/regmap.json); bit i of a POLICIES mask is value i.
  localparam logic [2:0] POLICY_DT = 3'd0;
  localparam logic [2:0] POLICY_REVERIE = 3'd1;
  localparam logic [2:0] POLICY_DSH = 3'd2;
  localparam logic [2:0] POLICY_STATIC = 3'd3;
  localparam logic [2:0] POLICY_SIH = 3'd4;
  localparam logic [2:0] POLICY_ABM = 3'd5;

  // A release's refund of one pool as terms, RF_ADD added and RF_SUB subtracted
  // (mmu_adm_pol_if.svh, "The decide stage" in docs/rtl.md; mmu_adm_sonic's pool sums take
  // two of each).
  localparam int RF_ADD = 2;
  localparam int RF_SUB = 2;

  // The one policy of a POLICIES mask, or -1: a unit built with one policy decodes none.
  function automatic int only_policy(input logic [5:0] policies);
    only_policy = -1;
    for (int k = 0; k < 6; k++) if (policies == 6'(1 << k)) only_policy = k;
  endfunction

  // Bits of an n_p register (mmu_adm_thresh): n_p counts at most 2 nports queues (reverie:
  // a priority's ingress and egress queues), and never more than the qw + 1 bits of the
  // congestion counters it is taken from.
  function automatic int np_width(input int nports, input int qw);
    np_width = $clog2(2 * nports + 1) < qw + 1 ? $clog2(2 * nports + 1) : qw + 1;
  endfunction

endpackage

`default_nettype wire
