#!/usr/bin/env bash
# README command 1: install what is missing, build, run the embedded default scenario.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMMUSIM_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target mmusim
./build/mmusim run --out out/default "$@"
echo "outputs in out/default/"
