"""Paper figures reproduced with mmusim: one command each, CSV + PNG, and a section of a
results page that puts our numbers beside the paper's.

  python3 -m traffic.experiments NAME [--out DIR (default experiments-out)] [--doc docs/results.md] [--full] [--jobs N]

NAME: reverie-fig2, reverie-fig7, reverie-fig7-cc (Fig. 7 with DCQCN and Cubic), reverie-fig7-fabric
(the same on the paper's 256-host fabric), reverie-fig7-paper (that at the paper's query rate), reverie-fig7-artifact (that for the artifact's 3 s), reverie-fig8, reverie-fig8-cc, reverie-fig8-fabric, reverie-fig9, reverie-fig10,
reverie-fig10-cc, reverie-fig10-fabric, reverie-fig11, reverie-fig11-fabric, reverie-fig12, reverie-fig12-fabric, dsh-fig11b, bb-fig6, bb-fig7, bfc-fig7, or all.
Default size is quick (CI); --full runs longer, finer grids and more seeds. Hosts are
open loop except in the -cc, -fabric, fig9, fig11 and fig12 experiments (the paper's DCQCN
or PowerTCP and Cubic), so the open-loop ones are the figures' shapes, not their absolute
values; docs/results.md says what differs.
"""
import argparse
import os
import sys

from traffic.experiments.bb import bb_fig6, bb_fig7
from traffic.experiments.bfc import bfc_fig7
from traffic.experiments.common import set_work_dir, update_doc
from traffic.experiments.dsh import dsh_fig11b
from traffic.experiments.reverie import (reverie_fig2, reverie_fig7, reverie_fig7_cc, reverie_fig7_fabric, reverie_fig7_paper,
                                         reverie_fig7_artifact, reverie_fig8,
                                         reverie_fig8_cc, reverie_fig8_fabric, reverie_fig9, reverie_fig10, reverie_fig10_cc, reverie_fig10_fabric,
                                         reverie_fig11, reverie_fig11_fabric, reverie_fig12,
                                         reverie_fig12_fabric)

EXPERIMENTS = {"reverie-fig2": reverie_fig2, "reverie-fig7": reverie_fig7, "reverie-fig7-cc": reverie_fig7_cc,
               "reverie-fig7-fabric": reverie_fig7_fabric, "reverie-fig7-paper": reverie_fig7_paper,
               "reverie-fig7-artifact": reverie_fig7_artifact,
               "reverie-fig8": reverie_fig8,
               "reverie-fig8-cc": reverie_fig8_cc, "reverie-fig9": reverie_fig9, "reverie-fig10-cc": reverie_fig10_cc,
               "reverie-fig10-fabric": reverie_fig10_fabric,
               "reverie-fig11": reverie_fig11, "reverie-fig11-fabric": reverie_fig11_fabric,
               "reverie-fig12": reverie_fig12, "reverie-fig8-fabric": reverie_fig8_fabric,
               "reverie-fig12-fabric": reverie_fig12_fabric,
               "reverie-fig10": reverie_fig10, "dsh-fig11b": dsh_fig11b,
               "bb-fig6": bb_fig6, "bb-fig7": bb_fig7, "bfc-fig7": bfc_fig7}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m traffic.experiments", description=__doc__.split("\n\n")[0])
    ap.add_argument("name", choices=list(EXPERIMENTS) + ["all"], help="experiment (paper figure), or all")
    ap.add_argument("--out", default="experiments-out",
                    help="CSV + PNG output directory (default: %(default)s; docs/results only to refresh the "
                         "committed results on purpose)")
    ap.add_argument("--doc", help="results page whose section per experiment is rewritten (default: none; "
                                  "docs/results.md to refresh the docs)")
    ap.add_argument("--full", action="store_true", help="paper-sized grid (slow; default: the quick grid)")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    ap.add_argument("--work", help="keep per-run outputs and traces here (default: a temporary directory); "
                                   "rerun with the same DIR, a run whose scenario, traces and binary are "
                                   "unchanged is not simulated again (one DIR per experiment)")
    ap.add_argument("--mmusim", help="mmusim binary (default: $MMUSIM, else build/mmusim)")
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    if a.work:
        set_work_dir(a.work)
    if a.mmusim:  # traffic.headroom asks the same binary
        os.environ["MMUSIM"] = a.mmusim
    names = list(EXPERIMENTS) if a.name == "all" else [a.name]
    try:
        for n in names:
            _, text = EXPERIMENTS[n](a.out, a.mmusim, a.jobs, a.full)
            update_doc(a.doc, n, text)
            print(f"{n}: done ({a.out})", file=sys.stderr)
    except (OSError, ValueError, RuntimeError) as e:
        print(f"traffic.experiments: error: {e}", file=sys.stderr)
        return 1
    return 0
