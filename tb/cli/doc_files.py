#!/usr/bin/python3
"""Every source file README.md and docs/*.md cite (`name.py`, `tb/bench/scale.py`, ...) is in
the repository, or is listed below as another project's (issue 14: docs/performance.md
cited a script that was not). A name matches a tracked file with that path or path ending.

  doc_files.py
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = r"`([A-Za-z0-9_./-]+\.(?:cc|h|hpp|cpp|c|py|sh|sv|svh|v|lua|f|ini|cmake))`"
# Cited, not ours: SONiC's sources (docs/configuration.md gives where they come from),
# yosys's cell libraries, what scripts/ppa writes into its output directory, and a
# file-name pattern.
ELSEWHERE = {
    "buffer_headroom_mellanox.lua", "cfgmgr/buffer_headroom_mellanox.lua", "cfgmgr/buffer_pool_mellanox.lua",
    "cfgmgr/buffermgr.cpp", "cfgmgr/buffermgrdyn.cpp", "orchagent/pfcwdorch.cpp", "pfc_restore.lua",
    "pg_profile_lookup.ini", "simcells.v", "simlib.v", "netlist.v", "generic_src.v", "rtl/mmu_pol_NAME.sv",
}


def tracked():
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        return out.split()
    except (OSError, subprocess.CalledProcessError):  # a copy without .git: the files on disk
        return [os.path.relpath(os.path.join(d, f), ROOT) for d, _, fs in os.walk(ROOT) for f in fs]


def main():
    files = tracked()
    missing = []
    docs = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    for doc in docs:
        with open(doc) as f:
            for n, line in enumerate(f, 1):
                for name in re.findall(SOURCE, line):
                    if name in ELSEWHERE or name.startswith("/"):
                        continue
                    if not any(t == name or t.endswith("/" + name) for t in files):
                        missing.append(f"{os.path.relpath(doc, ROOT)}:{n}: `{name}` is not in the repository")
    for m in missing:
        print(m, file=sys.stderr)
    print(f"{len(docs)} documents checked, {len(missing)} missing files")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
