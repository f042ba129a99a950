#!/bin/sh
# Formal check that a module's two forms are one function: the synthesis's (SYNTHESIS
# defined) and the simulators' (-nosynthesis: plain sums). A yosys miter over every output
# whose trigger yosys-abc's iprove must show unsatisfiable; and the same miter against the
# synthesis form with a parameter changed, which it must show satisfiable, so the check
# can fail. Cases:
# - sonic: rtl/mmu_adm_sonic.sv (the pools' next values summed per pair of growth cases,
#   the compares as carry-save trees) at CW 6 (the forms are written for any CW; 6 keeps
#   the proof to about a minute), 2 pools, 2 x 2 queues; the changed form without the
#   refund's terms (REFUND 0).
# - thcalc: rtl/mmu_adm_thcalc.sv (each room's sign as a carry-save compare, the shift as
#   an AND-OR over its decoded field) at the PPA points' CW 16, 2 pools, 4 profiles (about
#   15 s); the changed form static-only (ONLY 3: alpha x size whatever CTRL.policy says).
# ctests rtl_sonic_forms_equiv, rtl_thcalc_forms_equiv: forms_equiv.sh <source dir>
# <work dir> sonic|thcalc. Exits 77 (ctest SKIP) without yosys.
set -u
usage="usage: forms_equiv.sh <source dir> <work dir> sonic|thcalc"
src=${1:?$usage}
work=${2:?$usage}
case ${3:?$usage} in
  sonic)
    top=mmu_adm_sonic
    params="-set CW 6 -set CELLW 6 -set NPOOLS 2 -set NPORTS 2 -set NPRIO 2"
    files="$src/rtl/mmu_adm_pkg.sv $src/rtl/mmu_adm_sumgt.sv $src/rtl/mmu_adm_sumeq.sv $src/rtl/mmu_adm_poolnx.sv $src/rtl/mmu_adm_sonic.sv"
    changed="-set REFUND 0"
    what="a synthesis form without the refund"
    ;;
  thcalc)
    top=mmu_adm_thcalc
    params="-set CW 16 -set NPOOLS 2 -set NPROF 4"
    files="$src/rtl/mmu_adm_pkg.sv $src/rtl/mmu_adm_sumgt.sv $src/rtl/mmu_adm_thcalc.sv"
    changed="-set ONLY 3"
    what="a static-only synthesis form"
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
. "$(dirname "$0")/miter.sh"
miter_setup "$work"

# prove NAME EXTRA: yosys-abc's verdict on the simulators' form against the synthesis's
# form with EXTRA parameters.
prove() {
  miter_verdict "$work/yosys$1.log" "$work/miter$1.aig" "read_verilog -sv -nosynthesis -I $src/rtl $files;
      chparam $params $top; hierarchy -top $top; proc; flatten; opt_clean;
      rename -top form_sim; design -stash sim;
      read_verilog -sv -I $src/rtl $files;
      chparam $params $2 $top; hierarchy -top $top; proc; flatten; opt_clean;
      rename -top $top;
      design -copy-from sim -as form_sim form_sim;
      miter -equiv -flatten form_sim $top miter;"
}

fail=0
v=$(prove _same "")
echo "$top: simulation form against synthesis form: $v"
case $v in UNSATISFIABLE*) ;; *) fail=1 ;; esac
v=$(prove _changed "$changed")
echo "$top: simulation form against $what (must differ): $v"
case $v in SATISFIABLE*) ;; *) fail=1 ;; esac
[ $fail -eq 0 ] && echo PASS || echo FAIL
exit $fail
