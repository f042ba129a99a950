#!/bin/sh
# Directed test of the RTL admission unit in a second simulator (Icarus Verilog 11).
# ctest rtl_icarus_directed: icarus_test.sh <source dir> <work dir>
# Compiles rtl/ and tb/rtl/tb_mmu_admission.sv with iverilog -g2012, once per issue width
# (DUAL_ISSUE 1 and 0) and request path (PIPE 0 and 1), runs vvp, and passes only if every simulation exits 0 and prints
# PASS. Exits 77 (ctest SKIP) without iverilog.
set -u
src=${1:?usage: icarus_test.sh <source dir> <work dir>}
work=${2:?usage: icarus_test.sh <source dir> <work dir>}

if ! command -v iverilog >/dev/null 2>&1 || ! command -v vvp >/dev/null 2>&1; then
  echo "SKIP: iverilog/vvp not found (scripts/deps.sh installs Icarus Verilog)"
  exit 77
fi
mkdir -p "$work" || exit 1

for cfg in 1:0 0:0 1:1 0:1; do
  dual=${cfg%:*}
  pipe=${cfg#*:}
  out="$work/tb_mmu_admission_dual${dual}_pipe$pipe.vvp"
  log="$work/tb_mmu_admission_dual${dual}_pipe$pipe.log"
  # Icarus 11 warns ("sorry: constant selects in always_* processes ...") on the RTL's
  # indexed part-selects in always_comb; the warnings are about sensitivity lists only.
  # shellcheck disable=SC2046  # rtl/sources.f: one file name a line, no spaces
  if ! iverilog -g2012 -o "$out" -s tb_mmu_admission -P tb_mmu_admission.DUAL_ISSUE=$dual -P tb_mmu_admission.PIPE=$pipe -I "$src/rtl" \
      "$src/rtl/mmu_regs_pkg.sv" $(sed -n "s|^\([^#].*\)|$src/rtl/\1|p" "$src/rtl/sources.f") \
      "$src/tb/rtl/tb_mmu_admission.sv" >"$work/iverilog.log" 2>&1; then
    cat "$work/iverilog.log"
    echo "FAIL: iverilog could not compile the design (DUAL_ISSUE=$dual PIPE=$pipe)"
    exit 1
  fi
  grep -v "sorry: constant selects in always_\* processes" "$work/iverilog.log"

  echo "-- DUAL_ISSUE=$dual PIPE=$pipe"
  vvp -n "$out" >"$log" 2>&1
  rc=$?
  cat "$log"
  if [ "$rc" -ne 0 ]; then
    echo "FAIL: vvp exited with status $rc (DUAL_ISSUE=$dual PIPE=$pipe)"
    exit 1
  fi
  if ! grep -qx "PASS" "$log"; then
    echo "FAIL: no PASS in the simulation output (DUAL_ISSUE=$dual PIPE=$pipe)"
    exit 1
  fi
done
exit 0
