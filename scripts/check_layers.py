#!/usr/bin/env python3
"""A lower layer never includes a higher one: every #include "block/..." in hw-model/ must
name a block of a lower layer than the includer's (or its own block). The layers follow the
data flow of docs/architecture.md ("Layers"); a block not listed is an error, so a new
folder must be placed on purpose. Blocks below `switch` (other than `config`) are built from
their typed configuration (config/block_config.h), so they never include the whole
scenario (config/scenario.h).

  /usr/bin/python3 scripts/check_layers.py [REPO]
"""
import pathlib
import re
import sys

LAYERS = [
    ("common", "admission", "stats", "output"),  # frames, counters and policies, files
    ("config", "cosim"),                          # scenario/CONFIG_DB loading; RTL co-sim
    ("pfc",),                                     # PFC frames, timers, generator
    ("bfc", "link"),
    ("mmu",),                                     # admission + buffer accounting
    ("egress",),                                  # scheduler
    ("ingress", "pfcwd"),                         # pipeline -> MMU -> egress; PFC watchdog on egress queues
    ("host",),
    ("switch",),
    ("sim",),                                     # the network of switches, hosts, links
    ("cli",),
]
RANK = {b: i for i, layer in enumerate(LAYERS) for b in layer}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]*)"', re.M)
WHOLE_SCENARIO = "config/scenario.h"


def main(argv):
    root = pathlib.Path(argv[1] if len(argv) > 1 else pathlib.Path(__file__).resolve().parents[1]) / "hw-model"
    errors = []
    for f in sorted(root.rglob("*")):
        if f.suffix not in (".h", ".cc", ".in") or not f.is_file():
            continue
        block = f.relative_to(root).parts[0]
        if block not in RANK:
            errors.append(f"{f.relative_to(root.parent)}: block '{block}' has no layer in scripts/check_layers.py")
            continue
        for n, line in enumerate(f.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if not m or m.group(1) == block:
                continue
            dep = m.group(1)
            if f"{dep}/{m.group(2)}" == WHOLE_SCENARIO and RANK[block] < RANK["switch"]:
                errors.append(f"{f.relative_to(root.parent)}:{n}: {block} includes {WHOLE_SCENARIO}: a block below "
                              "switch takes its typed configuration (config/block_config.h)")
            elif dep not in RANK:
                errors.append(f"{f.relative_to(root.parent)}:{n}: includes unknown block '{dep}'")
            elif RANK[dep] >= RANK[block]:
                errors.append(f"{f.relative_to(root.parent)}:{n}: {block} (layer {RANK[block]}) includes "
                              f"{dep} (layer {RANK[dep]}): a lower layer never includes a higher one")
    for e in errors:
        print(e, file=sys.stderr)
    print(f"check_layers: {'FAIL' if errors else 'ok'} ({len(errors)} violations)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
