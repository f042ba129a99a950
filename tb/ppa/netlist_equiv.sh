#!/usr/bin/env bash
# Netlist against RTL by simulation: yosys synthesises mmu_admission to its generic cells
# (synth -flatten, no liberty), the netlist (renamed mmu_admission_net) and the RTL run
# side by side in Icarus on the same random stimulus (netlist_equiv_tb.sv), with yosys's
# simcells.v/simlib.v as the cell models.
# Usage: tb/ppa/netlist_equiv.sh WORKDIR [KEY=VALUE parameters...]
#   e.g. NPORTS=2 NPRIO=2 CW=10 NPOOLS=2 NPROF=2 EWMA_FRAC=8 CELLW=4 POLICIES=7 DUAL_ISSUE=1 PIPE=0 CYCLES=6000 SEED=1
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${1:?usage: netlist_equiv.sh WORKDIR [KEY=VALUE...]}
shift
declare -A P=([NPORTS]=2 [NPRIO]=2 [CW]=10 [NPOOLS]=2 [NPROF]=2 [EWMA_FRAC]=8 [CELLW]=4 [POLICIES]=7
              [DUAL_ISSUE]=1 [PIPE]=0 [CYCLES]=6000 [SEED]=1)
for kv in "$@"; do P[${kv%%=*}]=${kv#*=}; done

for t in yosys:yosys iverilog:iverilog vvp:iverilog; do
  if ! command -v "${t%%:*}" >/dev/null; then
    echo "netlist_equiv: '${t%%:*}' not found: install the Debian package '${t#*:}'" >&2
    exit 2
  fi
done
datdir=$(yosys-config --datdir 2>/dev/null || echo "$(dirname "$(command -v yosys)")/../share/yosys")
[ -f "$datdir/simcells.v" ] || { echo "netlist_equiv: simcells.v not in $datdir" >&2; exit 2; }

mkdir -p "$work"
mapfile -t rtl < <(sed -n "s|^\([^#].*\)|$repo/rtl/\1|p" "$repo/rtl/sources.f")
chparam=""
for k in NPORTS NPRIO CW NPOOLS NPROF EWMA_FRAC CELLW POLICIES DUAL_ISSUE PIPE; do chparam+=" -set $k ${P[$k]}"; done
cat > "$work/equiv.ys" <<EOF
read_verilog -sv -DSYNTHESIS -I$repo/rtl ${rtl[*]}
chparam$chparam mmu_admission
synth -top mmu_admission -flatten
rename mmu_admission mmu_admission_net
stat
write_verilog -noattr $work/netlist_generic.v
EOF
echo "netlist_equiv: yosys (parameters:$chparam)"
yosys -q -l "$work/equiv_yosys.log" "$work/equiv.ys" >/dev/null

tbdefs=()
for k in NPORTS NPRIO CW NPOOLS NPROF EWMA_FRAC CELLW POLICIES DUAL_ISSUE PIPE CYCLES SEED; do
  tbdefs+=("-Pnetlist_equiv_tb.$k=${P[$k]}")
done
echo "netlist_equiv: iverilog"
iverilog -g2012 -I "$repo/rtl" -o "$work/equiv.vvp" -s netlist_equiv_tb "${tbdefs[@]}" \
  "${rtl[@]}" "$here/netlist_equiv_tb.sv" "$work/netlist_generic.v" "$datdir/simcells.v" "$datdir/simlib.v" \
  2> >(grep -v 'sorry: constant selects' >&2)
echo "netlist_equiv: simulation"
vvp -n "$work/equiv.vvp" | tee "$work/equiv_sim.log"
grep -qx PASS "$work/equiv_sim.log"
