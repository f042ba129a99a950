#!/bin/sh
# The co-simulation's cost against the C++ core on one scenario, per policy, in one run
# (issue 13: --impl rtl within 5x the core's wall time, instruction counts beside it):
#   - instructions of both whole processes (callgrind);
#   - the outputs compared (summary.json less wall_time_s and impl, flows.csv, timeseries.csv);
#   - the wall-time ratio over alternating pairs (farm-bench, median and range).
# Usage: cosim_ratio.sh MMUSIM [PAIRS] [POLICY ...] (default: 8 pairs, all six policies).
# Extra mmusim arguments (a scenario file, --set ...) go in COSIM_ARGS.
# Exits 1 when a pair of outputs differs.
set -u
bin=${1:?usage: cosim_ratio.sh MMUSIM [PAIRS] [POLICY ...]}
shift
pairs=${1:-8}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- dt reverie dsh static sih abm
extra=${COSIM_ARGS:-}
work=$(mktemp -d /tmp/cosim_ratio.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
command -v valgrind >/dev/null || { echo "cosim_ratio: valgrind not found" >&2; exit 1; }
command -v farm-bench >/dev/null || echo "cosim_ratio: farm-bench not found: no wall times" >&2

instr() {  # instr IMPL POLICY: the run's instruction count
  # shellcheck disable=SC2086
  valgrind --tool=callgrind --dump-instr=no --callgrind-out-file="$work/cg.$1" \
    "$bin" run --quiet --impl "$1" --policy "$2" $extra --out "$work/$1" 2>&1 |
    sed -n 's/.*Collected : *//p'
}
same() {  # the two runs' outputs, less the run's own fields
  for f in flows.csv timeseries.csv; do cmp -s "$work/cpp/$f" "$work/rtl/$f" || return 1; done
  grep -v '"wall_time_s"\|"impl"' "$work/cpp/summary.json" >"$work/a"
  grep -v '"wall_time_s"\|"impl"' "$work/rtl/summary.json" >"$work/b"
  cmp -s "$work/a" "$work/b"
}

status=0
echo "| policy | cpp instructions | rtl instructions | rtl/cpp instructions | outputs | rtl/cpp wall, median (min-max) |"
echo "|---|---|---|---|---|---|"
for p in "$@"; do
  c=$(instr cpp "$p")
  r=$(instr rtl "$p")
  ratio=$(awk -v r="${r:-0}" -v c="${c:-0}" 'BEGIN { gsub(",", "", r); gsub(",", "", c); if (c > 0) printf "%.2fx", r / c; else print "n/a" }')
  if same; then out=identical; else out=DIFFER; status=1; fi
  wall=n/a
  if command -v farm-bench >/dev/null; then
    # shellcheck disable=SC2086
    wall=$(farm-bench -n "$pairs" --timeout 1800 --vs "$bin run --quiet --impl cpp --policy $p $extra --out $work/wc" \
             -- "$bin" run --quiet --impl rtl --policy "$p" $extra --out "$work/wr" 2>&1 |
           awk '/^A\/B wall/ { printf "%.2fx (%.2f-%.2f)", $4, $3, $5 }')
  fi
  echo "| $p | $c | $r | $ratio | $out | ${wall:-n/a} |"
done
exit $status
