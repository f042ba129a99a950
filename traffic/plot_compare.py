#!/usr/bin/env python3
"""Plot buffer occupancy over time per policy from mmusim timeseries.csv files.

Usage: plot_compare.py -o OUT.png POLICY=timeseries.csv [POLICY=timeseries.csv ...]
"""
import argparse
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", required=True, help="PNG to write")
    ap.add_argument("runs", nargs="+", help="POLICY=path/to/timeseries.csv")
    a = ap.parse_args(argv)
    fig, axes = plt.subplots(3, 1, figsize=(9, 8), sharex=True)
    for run in a.runs:
        name, sep, path = run.partition("=")
        if not sep:
            print(f"plot_compare.py: error: '{run}' is not POLICY=PATH", file=sys.stderr)
            return 1
        try:
            d = np.genfromtxt(path, delimiter=",", names=True)
        except OSError as e:
            print(f"plot_compare.py: error: {e}", file=sys.stderr)
            return 1
        if d.size == 0 or "time_ns" not in (d.dtype.names or ()):
            print(f"plot_compare.py: error: {path}: not an mmusim timeseries.csv", file=sys.stderr)
            return 1
        t = d["time_ns"] / 1000.0
        for ax, col in zip(axes, ("lossless_bytes", "lossy_bytes", "headroom_bytes")):
            ax.plot(t, d[col] / 2**20, label=name, linewidth=1)
    for ax, title in zip(axes, ("lossless (shared)", "lossy", "headroom")):
        ax.set_ylabel("MiB")
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
    axes[0].legend(loc="upper right", ncol=len(a.runs))
    axes[-1].set_xlabel("time (us)")
    fig.tight_layout()
    fig.savefig(a.output, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
