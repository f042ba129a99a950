#!/bin/sh
# Formal check that rtl/mmu_adm_sonic.sv's two forms are one function: the synthesis's
# (SYNTHESIS defined: the pools' next values summed per pair of growth cases, the compares
# as carry-save trees) and the simulators' (-nosynthesis: plain sums). A yosys miter over
# every output, at CW 6 (the forms are written for any CW; 6 keeps the proof to about a
# minute), 2 pools, 2 x 2 queues, whose trigger yosys-abc's iprove must show
# unsatisfiable; and the same miter against a form without the refund's terms (REFUND 0),
# which it must show satisfiable, so the check can fail.
# ctest rtl_sonic_forms_equiv: sonic_forms_equiv.sh <source dir> <work dir>. Exits 77
# (ctest SKIP) without yosys.
set -u
src=${1:?usage: sonic_forms_equiv.sh <source dir> <work dir>}
work=${2:?usage: sonic_forms_equiv.sh <source dir> <work dir>}
if ! command -v yosys >/dev/null 2>&1 || ! command -v yosys-abc >/dev/null 2>&1; then
  echo "SKIP: yosys/yosys-abc not found (scripts/deps.sh test installs yosys)"
  exit 77
fi
mkdir -p "$work" || exit 1
params="-set CW 6 -set CELLW 6 -set NPOOLS 2 -set NPORTS 2 -set NPRIO 2"
files="$src/rtl/mmu_adm_pkg.sv $src/rtl/mmu_adm_sumgt.sv $src/rtl/mmu_adm_sumeq.sv $src/rtl/mmu_adm_poolnx.sv $src/rtl/mmu_adm_sonic.sv"

# prove EXTRA: yosys-abc's verdict on the simulators' form against the synthesis's form
# with EXTRA parameters.
prove() {
  aig="$work/miter$1.aig"
  if ! yosys -q -p "read_verilog -sv -nosynthesis -I $src/rtl $files;
      chparam $params mmu_adm_sonic; hierarchy -top mmu_adm_sonic; proc; flatten; opt_clean;
      rename -top sonic_sim; design -stash sim;
      read_verilog -sv -I $src/rtl $files;
      chparam $params $2 mmu_adm_sonic; hierarchy -top mmu_adm_sonic; proc; flatten; opt_clean;
      rename -top mmu_adm_sonic;
      design -copy-from sim -as sonic_sim sonic_sim;
      miter -equiv -flatten sonic_sim mmu_adm_sonic miter; hierarchy -top miter;
      synth -flatten -top miter -noabc; aigmap; opt_clean; write_aiger -zinit $aig" \
      >"$work/yosys$1.log" 2>&1; then
    cat "$work/yosys$1.log"
    return 1
  fi
  yosys-abc -c "read $aig; strash; iprove" 2>&1 | grep -E '^(UN)?SATISFIABLE'
}

fail=0
v=$(prove _same "")
echo "simulation form against synthesis form: $v"
case $v in UNSATISFIABLE*) ;; *) fail=1 ;; esac
v=$(prove _norefund "-set REFUND 0")
echo "simulation form against a synthesis form without the refund (must differ): $v"
case $v in SATISFIABLE*) ;; *) fail=1 ;; esac
[ $fail -eq 0 ] && echo PASS || echo FAIL
exit $fail
