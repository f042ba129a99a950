#!/bin/sh
# The generated register files are up to date: regenerate from rtl/regmap.json into a
# temporary directory and diff every file against the checked-in one (fails on drift).
# Usage: check_generated.sh <repository root>
set -u
src=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$src/scripts/gen_regs.py" --root "$src" --out-dir "$tmp" >/dev/null || exit 1
fail=0
n=0
for f in $(cd "$tmp" && find . -type f | sort); do
  n=$((n + 1))
  if ! diff -u "$src/$f" "$tmp/$f"; then
    echo "check_generated: ${f#./} differs from what rtl/regmap.json generates; run scripts/gen_regs.py" >&2
    fail=1
  fi
done
[ "$n" -gt 0 ] || { echo "check_generated: the generator wrote no file" >&2; exit 1; }
[ "$fail" = 0 ] && echo "check_generated: $n files match rtl/regmap.json"
exit $fail
