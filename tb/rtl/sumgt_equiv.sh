#!/bin/sh
# Formal check that rtl/mmu_adm_sumgt.sv's two forms are one compare: the carry-save tree
# the synthesis reads (SYNTHESIS defined, yosys's default) against the plain sums the
# simulators read (-nosynthesis). For each operand count the RTL instantiates up to 4 + 3 (the test
# stage's 5 + 4 takes 5 minutes: docs/rtl.md gives the command), at 17-bit operands and a
# few at 33, a yosys miter whose trigger yosys-abc's iprove must show unsatisfiable; the
# same for the equality form (EQ, mmu_adm_sumeq; NP:NM:W:eq); and a wrong reference (>=,
# and the equality's tree against the compare's sums) that it must show satisfiable, so
# the check can fail.
# ctest rtl_sumgt_equiv: sumgt_equiv.sh <source dir> <work dir> [NP:NM:W[:eq] ...]. Exits 77
# (ctest SKIP) without yosys.
set -u
src=${1:?usage: sumgt_equiv.sh <source dir> <work dir> [NP:NM ...]}
work=${2:?usage: sumgt_equiv.sh <source dir> <work dir> [NP:NM ...]}
shift 2
[ $# -gt 0 ] || set -- 1:2:17 1:3:17 2:1:17 2:2:17 2:3:17 3:1:17 3:2:17 3:3:17 4:3:17 1:2:33 2:2:33 3:1:33 \
  2:1:17:eq 2:2:17:eq 4:1:17:eq 4:1:33:eq
. "$(dirname "$0")/miter.sh"
miter_setup "$work"

# prove NP NM W REF [EQ]: prints yosys-abc's verdict line (UNSATISFIABLE: equal for every
# input) on the tree (EQ 1: the equality's) against REF: "sim", the module's own plain sums
# (read with -nosynthesis, the form simulators run; "simgt": the compare's, EQ 0), or "ge",
# sumgt_ref's p >= m (the wrong reference).
prove() {
  eq=${5:-0}
  aig="$work/miter_$1_$2_$3_$4_$eq.aig"
  if [ "$4" = sim ] || [ "$4" = simgt ]; then
    req=$eq
    [ "$4" = simgt ] && req=0
    ref="read_verilog -sv -nosynthesis $src/rtl/mmu_adm_sumgt.sv;
      chparam -set NP $1 -set NM $2 -set W $3 -set EQ $req mmu_adm_sumgt; rename mmu_adm_sumgt sumgt_sim;"
    top=sumgt_sim
    load=""
  else
    ref=""
    top=sumgt_ref
    load="read_verilog -sv $src/tb/rtl/sumgt_ref.sv; chparam -set NP $1 -set NM $2 -set W $3 -set GE 1 sumgt_ref;"
  fi
  miter_verdict "$work/yosys.log" "$aig" "$ref read_verilog -sv $src/rtl/mmu_adm_sumgt.sv;
      chparam -set NP $1 -set NM $2 -set W $3 -set EQ $eq mmu_adm_sumgt; $load
      proc; flatten; miter -equiv -flatten $top mmu_adm_sumgt miter;"
}

fail=0
for c in "$@"; do
  np=${c%%:*}
  rest=${c#*:}
  nm=${rest%%:*}
  rest=${rest#*:}
  w=${rest%%:*}
  eq=0
  case $c in *:eq) eq=1 ;; esac
  v=$(prove "$np" "$nm" "$w" sim $eq)
  echo "NP=$np NM=$nm W=$w$([ $eq = 1 ] && echo ' equality') tree against the plain sums: $v"
  case $v in UNSATISFIABLE*) ;; *) fail=1 ;; esac
done
v=$(prove 2 2 17 ge)
echo "NP=2 NM=2 W=17 tree against p >= m (must differ): $v"
case $v in SATISFIABLE*) ;; *) fail=1 ;; esac
v=$(prove 2 2 17 simgt 1)
echo "NP=2 NM=2 W=17 equality's tree against p > m (must differ): $v"
case $v in SATISFIABLE*) ;; *) fail=1 ;; esac
[ $fail -eq 0 ] && echo PASS || echo FAIL
exit $fail
