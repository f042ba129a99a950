#!/usr/bin/env python3
"""Write an N-to-1 incast scenario for mmusim, starting from the default scenario.

Example: traffic/incast.py --senders 31 --burst-bytes 262144 --background 0 -o incast31.json
"""
import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def make_incast(senders, burst_bytes, start_us=100.0, period_us=0.0, count=1,
                background_pairs=0, duration_us=1000.0, dscp=3, seed=1):
    """Scenario dict: h1..hN burst to h0; optional 2:1 lossy background after them."""
    with open(ROOT / "scenarios" / "default.json") as f:
        sc = json.load(f)
    ports = sc["topology"]["ports"]
    needed = 1 + senders + 3 * background_pairs
    if senders < 1 or needed > ports:
        raise ValueError(f"senders={senders}, background_pairs={background_pairs}: "
                         f"needs {needed} ports, the switch has {ports}")
    if count > 1 and period_us <= 0:
        raise ValueError("period_us must be > 0 when count > 1")
    sc["name"] = f"incast-{senders}to1"
    sc["seed"] = seed
    sc["duration_us"] = duration_us
    sc["measure"] = {"start_us": 0, "end_us": duration_us}
    incast = {"type": "incast", "name": "incast", "senders": f"h1-h{senders}", "receiver": "h0",
              "dscp": dscp, "burst_bytes": burst_bytes, "start_us": start_us, "count": count}
    if count > 1:
        incast["period_us"] = period_us
    sc["traffic"] = [incast]
    first = senders + 1
    for k in range(background_pairs):
        dst = f"h{first + 2 * background_pairs + k}"
        src = f"h{first + 2 * k}-h{first + 2 * k + 1}"
        sc["traffic"].append({"type": "constant", "name": f"background{k}", "src": src,
                              "dst": dst, "dscp": 0})
    return sc


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--senders", type=int, default=16,
                    help="hosts h1..hN bursting to h0 (default: %(default)s)")
    ap.add_argument("--burst-bytes", type=int, default=131072,
                    help="bytes each sender sends per burst (default: %(default)s)")
    ap.add_argument("--start-us", type=float, default=100.0,
                    help="first burst's start, us (default: %(default)s)")
    ap.add_argument("--period-us", type=float, default=0.0,
                    help="time between bursts, us; needed with --count > 1 (default: %(default)s)")
    ap.add_argument("--count", type=int, default=1, help="bursts per sender (default: %(default)s)")
    ap.add_argument("--background", type=int, default=0,
                    help="2:1 lossy background pairs after the senders (default: %(default)s)")
    ap.add_argument("--duration-us", type=float, default=1000.0,
                    help="simulated time and measurement window, us (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="scenario seed (default: %(default)s)")
    ap.add_argument("-o", "--output", required=True, help="scenario JSON to write")
    a = ap.parse_args(argv)
    try:
        sc = make_incast(a.senders, a.burst_bytes, a.start_us, a.period_us, a.count,
                         a.background, a.duration_us, seed=a.seed)
    except ValueError as e:
        print(f"incast.py: error: {e}", file=sys.stderr)
        return 1
    with open(a.output, "w") as f:
        json.dump(sc, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
