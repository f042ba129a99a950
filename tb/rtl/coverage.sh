#!/bin/sh
# Line coverage of rtl/ (ctest rtl_line_coverage).
# coverage.sh <rtl_coverage_tests binary> <source dir> <output dir> [minimum %] [verilator_coverage]
# Runs the coverage build of the lockstep suite (each unit writes a .dat file when it is
# freed, tb/rtl/rtl_coverage_hook.cc), merges the files with verilator_coverage, and writes
# to <output dir>: merged.dat, coverage.info (lcov), annotated/ (sources with counts; lines
# marked %000000 were never reached), uncovered.txt and summary.txt. Fails if the suite
# fails or if fewer than <minimum> % of the instrumented lines under <source dir>/rtl/ ran.
# A line counts as covered when any coverage point on it (line or branch) was reached.
# Known Verilator 5.006 artifact: the branch point of a saturating self-assignment such as
# `if (xp > CMAX) xp = CMAX;` is counted after the assignment, so it reads 0 even when the
# saturation happens (3 lines of rtl/ at the time of writing).
set -u
bin=${1:?usage: coverage.sh <binary> <source dir> <output dir> [min %] [verilator_coverage]}
src=${2:?source dir}
out=${3:?output dir}
min=${4:-90}
vcov=${5:-}
[ -n "$vcov" ] && [ -x "$vcov" ] || vcov=$(command -v verilator_coverage 2>/dev/null || true)
if [ -z "$vcov" ]; then
  echo "SKIP: verilator_coverage not found"
  exit 77
fi
src=$(cd "$src" && pwd) || exit 1

rm -rf "$out"
mkdir -p "$out/dat" || exit 1

# The big unit's random suite (32 x 8 ports, 360 000 requests, ~10x the mid unit's time)
# is left out here: ctest rtl_tests runs it, and its parameters differ from the mid unit's
# only in the port count (the same lines run).
echo "running $bin"
if ! MMU_COV_DIR="$out/dat" "$bin" --gtest_filter=-RandomLockstep.BigUnit32x8Counters32 >"$out/tests.log" 2>&1; then
  tail -n 60 "$out/tests.log"
  echo "FAIL: the coverage build of the RTL suite failed (log: $out/tests.log)"
  exit 1
fi
grep -E '^\[  (PASSED|FAILED) |tests? from .* ran' "$out/tests.log"
n=$(ls "$out/dat" | grep -c '\.dat$')
if [ "$n" -eq 0 ]; then
  echo "FAIL: no coverage data written to $out/dat"
  exit 1
fi
echo "$n coverage files (one per unit instance)"

"$vcov" --write "$out/merged.dat" "$out"/dat/*.dat >"$out/vcov.log" 2>&1 &&
  "$vcov" --write-info "$out/coverage.info" "$out/merged.dat" >>"$out/vcov.log" 2>&1 &&
  "$vcov" --annotate "$out/annotated" --annotate-min 1 "$out/merged.dat" >>"$out/vcov.log" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
  cat "$out/vcov.log"
  echo "FAIL: verilator_coverage failed"
  exit 1
fi
rm -rf "$out/dat"

# Lines found / hit per file under rtl/, from the lcov records (DA:<line>,<count>).
awk -v root="$src/rtl/" -v min="$min" -v unc="$out/uncovered.txt" '
  /^SF:/ { f = substr($0, 4); keep = index(f, root) == 1; next }
  keep && /^DA:/ {
    split(substr($0, 4), d, ",")
    key = f SUBSEP d[1]
    if (!(key in cnt)) { files[f] = 1; lf[f]++; order[f, lf[f]] = d[1]; cnt[key] = 0 }
    cnt[key] += d[2]
  }
  END {
    printf "" > unc
    for (f in files) {
      h = 0
      for (i = 1; i <= lf[f]; i++) {
        l = order[f, i]
        if (cnt[f SUBSEP l] > 0) h++
        else printf "%s:%d\n", substr(f, length(root) + 1), l >> unc
      }
      LF += lf[f]; LH += h
      printf "  rtl/%-22s %5d / %5d lines  %6.2f %%\n", substr(f, length(root) + 1), h, lf[f], 100 * h / lf[f]
    }
    if (LF == 0) { print "no instrumented lines under " root; exit 2 }
    pct = 100 * LH / LF
    printf "RTL line coverage: %d / %d lines = %.2f %% (minimum %s %%)\n", LH, LF, pct, min
    exit pct + 0 >= min + 0 ? 0 : 1
  }' "$out/coverage.info" >"$out/summary.txt"
rc=$?
# uncovered.txt: rtl/<file>:<line>: <source text>
sort -t: -k1,1 -k2,2n "$out/uncovered.txt" | while IFS=: read -r f l; do
  printf 'rtl/%s:%s: %s\n' "$f" "$l" "$(sed -n "${l}p" "$src/rtl/$f" | sed 's/^ *//')"
done >"$out/uncovered.tmp" && mv "$out/uncovered.tmp" "$out/uncovered.txt"
cat "$out/summary.txt"
echo "report: $out/summary.txt, $out/coverage.info, $out/annotated/, $out/uncovered.txt"
if [ "$rc" -ne 0 ]; then
  echo "uncovered lines:"
  cat "$out/uncovered.txt"
  echo "FAIL: RTL line coverage below $min %"
  exit 1
fi
exit 0
