#!/usr/bin/env python3
"""Plot an mmusim timeseries.csv (occupancy per class and thresholds) to a PNG."""
import argparse
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def load(path):
    data = np.genfromtxt(path, delimiter=",", names=True)
    if data.size == 0 or "time_ns" not in data.dtype.names:
        raise ValueError(f"{path}: not an mmusim timeseries.csv (no time_ns column or no rows)")
    return data


def plot(data, out, title=""):
    t_us = data["time_ns"] / 1000.0
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for col, label in (("lossless_bytes", "lossless"), ("lossy_bytes", "lossy"),
                       ("headroom_bytes", "headroom"), ("th_ingress_lossless_bytes", "PFC threshold"),
                       ("th_egress_lossy_bytes", "lossy drop threshold")):
        style = "--" if col.startswith("th_") else "-"
        ax.plot(t_us, data[col] / 2**20, style, label=label)
    ax.set_xlabel("time (us)")
    ax.set_ylabel("MiB")
    ax.set_title(title)
    ax.legend(loc="best")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("timeseries", help="an mmusim run's timeseries.csv")
    ap.add_argument("-o", "--output", required=True, help="PNG to write")
    ap.add_argument("--title", default="", help="plot title (default: none)")
    a = ap.parse_args(argv)
    try:
        plot(load(a.timeseries), a.output, a.title)
    except (OSError, ValueError) as e:
        print(f"plot_timeseries.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
