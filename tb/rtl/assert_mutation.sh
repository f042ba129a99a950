#!/bin/sh
# The RTL's invariant assertions (MMU_ASSERT) can fail: a mutant of the SONiC bookkeeping
# (dt's) that resumes a queue on every release, paused or not, must trip "XON for a queue
# that is not paused" in the directed Icarus bench, while the unmodified RTL runs it clean
# with the same assertions.
# ctest rtl_assert_mutation: assert_mutation.sh <source dir> <work dir>; exits 77 without iverilog.
set -u
src=${1:?usage: assert_mutation.sh <source dir> <work dir>}
work=${2:?usage: assert_mutation.sh <source dir> <work dir>}
command -v iverilog >/dev/null 2>&1 && command -v vvp >/dev/null 2>&1 || { echo "SKIP: no iverilog"; exit 77; }
mkdir -p "$work" || exit 1

site="$src/rtl/mmu_adm_sonic.sv"
guard='  wire xon_test = is_rel_i && v_paused_i && !rel_under && !h_left;'
[ "$(grep -cxF "$guard" "$site")" = 1 ] || { echo "FAIL: mutation site not found once"; exit 1; }
sed 's/^  wire xon_test = is_rel_i \&\& v_paused_i \&\& !rel_under \&\& !h_left;$/  wire xon_test = is_rel_i \&\& !rel_under \&\& !h_left;/' "$site" >"$work/mutant.sv"

run() {  # $1: the SONiC module's source (mmu_adm_sonic), $2: log
  # shellcheck disable=SC2046  # rtl/sources.f: one file name a line, no spaces
  iverilog -g2012 -DMMU_ASSERT -I "$src/rtl" -o "$work/t.vvp" -s tb_mmu_admission "$src/rtl/mmu_regs_pkg.sv" \
    $(sed -n "s|^\([^#].*\)|$src/rtl/\1|p" "$src/rtl/sources.f" | sed "s|^$site\$|$1|") "$src/tb/rtl/tb_mmu_admission.sv" \
    >"$work/iverilog.log" 2>&1 || { cat "$work/iverilog.log"; echo "FAIL: iverilog"; exit 1; }
  vvp -n "$work/t.vvp" >"$2" 2>&1
}
run "$site" "$work/clean.log"
if grep -q "^ERROR:" "$work/clean.log"; then cat "$work/clean.log"; echo "FAIL: assertion on the real RTL"; exit 1; fi
run "$work/mutant.sv" "$work/mutant.log"
if grep -q "XON for a queue that is not paused" "$work/mutant.log"; then
  echo "PASS: the mutant trips the assertion; the real RTL does not"
  exit 0
fi
cat "$work/mutant.log"
echo "FAIL: the mutant did not trip the XON assertion"
exit 1
