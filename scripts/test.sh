#!/usr/bin/env bash
# README command 2: install what is missing, build everything, run every test
# (ctest: C++ units, SystemC modules, CLI, scenarios; then the Python tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh test
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMMUSIM_TESTS=ON >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
# Debian's interpreter: it sees python3-numpy and friends.
/usr/bin/python3 -m unittest discover -s traffic/tests -t . -v
