#!/usr/bin/env bash
# Installs the Debian packages mmusim needs that are missing. As root it runs apt-get;
# otherwise it prints the apt-get line and fails. Usage: scripts/deps.sh [build|test]
set -euo pipefail

build_pkgs=(g++ cmake make pkg-config libsystemc-dev nlohmann-json3-dev libcli11-dev
            python3 python3-numpy python3-matplotlib verilator)
test_pkgs=(libgtest-dev libgmock-dev libbenchmark-dev libpcap-dev tshark valgrind iverilog yosys opensta
           python3-dask python3-distributed python3-dpkt)

pkgs=("${build_pkgs[@]}")
if [ "${1:-build}" = test ]; then pkgs+=("${test_pkgs[@]}"); fi

missing=()
for p in "${pkgs[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "mmusim: missing Debian packages; as root run:" >&2
  echo "  apt-get update && $line" >&2
  exit 1
fi
echo "mmusim: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
