#!/bin/bash
# Runs every scenarios/*.json with two mmusim binaries and names every output that
# differs (summary.json less wall_time_s; every other file byte for byte, a VCD less its
# date line), or a differing exit code or file set: the "outputs unchanged" check of the
# optimisation passes (docs/performance.md). Prints "same" when nothing differs.
#   tb/bench/cmp_scen.sh OLD_MMUSIM NEW_MMUSIM [REPO (default: .)]
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 OLD_MMUSIM NEW_MMUSIM [REPO]" >&2
  exit 2
fi
old=$(realpath "$1") new=$(realpath "$2") repo=${3:-.}
t=$(mktemp -d /tmp/cmp_scen.XXXXXX)
trap 'rm -rf "$t"' EXIT
cd "$repo" || exit 2
differ=0
strip() { awk 'date { date = 0; next } /^\$date/ { date = 1; next } !/wall_time_s/' "$1"; }
for s in scenarios/*.json; do
  n=$(basename "$s" .json)
  "$old" run "$s" --quiet --out "$t/A/$n" >/dev/null 2>&1; a=$?
  "$new" run "$s" --quiet --out "$t/B/$n" >/dev/null 2>&1; b=$?
  if [ "$a" != "$b" ]; then echo "$n: exit $a vs $b"; differ=1; continue; fi
  if [ "$(ls "$t/A/$n" 2>/dev/null)" != "$(ls "$t/B/$n" 2>/dev/null)" ]; then echo "$n: other files"; differ=1; continue; fi
  for f in $(ls "$t/A/$n" 2>/dev/null); do
    cmp -s <(strip "$t/A/$n/$f") <(strip "$t/B/$n/$f") || { echo "$n/$f differs"; differ=1; }
  done
done
[ $differ = 0 ] && echo same
exit $differ
