"""Parameter sweeps over mmusim runs, locally (process pool) or on a Dask cluster.

A sweep spec is JSON:
  {"scenario": "scenarios/default.json",        # path or inline object (a relative path is
                                                #  looked up beside the spec, then in the CWD)
   "set": {"duration_us": 500},                 # fixed overrides (optional)
   "grid": {"admission.policy": ["dt", "reverie"],
            "traffic.0.burst_bytes": [65536, 131072]},
   "seeds": [1, 2]}                             # optional, default [scenario seed]
Every point of grid x seeds is one `mmusim run SCENARIO --set key=value ... --seed N --out
DIR/points/<i>`; the results gather into DIR/results.csv, one row per point: the grid keys,
the seed, then the summary metrics (METRICS). Both back-ends call run_point, so their
tables are identical.

  python3 -m traffic.sweep SPEC.json --out DIR [--jobs N | --dask HOST:PORT] [--mmusim PATH]
"""
import argparse
import concurrent.futures
import csv
import itertools
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Column name -> path in summary.json.
METRICS = {
    "pause_frames": ("pfc", "pause_frames"),
    "resume_frames": ("pfc", "resume_frames"),
    "xoff_events": ("pfc", "xoff_events"),
    "paused_time_ns": ("pfc", "paused_time_ns"),
    "drops_lossless": ("drops", "lossless"),
    "drops_lossy": ("drops", "lossy"),
    "flows_started": ("flows", "started"),
    "flows_completed": ("flows", "completed"),
    "fct_mean_ns": ("flows", "fct_ns", "mean"),
    "fct_p99_ns": ("flows", "fct_ns", "p99"),
    "incast_fct_mean_ns": ("flows", "incast_fct_ns", "mean"),
    "incast_fct_p99_ns": ("flows", "incast_fct_ns", "p99"),
    "background_fct_mean_ns": ("flows", "background_fct_ns", "mean"),
    "lossless_p99_bytes": ("occupancy_bytes", "lossless", "p99"),
    "lossy_p99_bytes": ("occupancy_bytes", "lossy", "p99"),
    "headroom_max_bytes": ("occupancy_bytes", "headroom", "max"),
    "total_mean_bytes": ("occupancy_bytes", "total", "mean"),
}


def mmusim_path(explicit=None):
    """--mmusim, else $MMUSIM, else build/mmusim of this checkout."""
    return str(explicit or os.environ.get("MMUSIM") or ROOT / "build" / "mmusim")


def metrics(summary):
    row = {}
    for col, path in METRICS.items():
        v = summary
        for k in path:
            v = v.get(k, {}) if isinstance(v, dict) else {}
        row[col] = v if isinstance(v, (int, float)) else ""
    return row


def run_point(point):
    """Runs one point (a dict made by `points`); returns its result row. Raises
    RuntimeError with mmusim's message if the run fails."""
    cmd = [point["mmusim"], "run", point["scenario"], "--quiet", "--out", point["out"],
           "--seed", str(point["seed"])] + list(point.get("flags", []))
    for k, v in point["set"]:
        cmd += ["--set", f"{k}={json.dumps(v) if not isinstance(v, str) else v}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"point {point['index']}: {' '.join(cmd)}: exit {p.returncode}: "
                           f"{p.stderr.strip()}")
    with open(os.path.join(point["out"], "summary.json")) as f:
        s = json.load(f)
    row = {"point": point["index"]}
    row.update({k: v for k, v in point["grid"]})
    row["seed"] = point["seed"]
    row.update(metrics(s))
    return row


def load_spec(path):
    with open(path) as f:
        spec = json.load(f)
    for k in spec:
        if k not in ("scenario", "set", "grid", "seeds"):
            raise ValueError(f"{path}: unknown key '{k}' (scenario, set, grid, seeds)")
    if "scenario" not in spec or not isinstance(spec.get("grid", {}), dict):
        raise ValueError(f"{path}: needs 'scenario' and a 'grid' object")
    for k, vals in spec.get("grid", {}).items():
        if not isinstance(vals, list) or not vals:
            raise ValueError(f"{path}: grid.{k}: must be a non-empty list")
    spec["_dir"] = str(pathlib.Path(path).resolve().parent)
    return spec


def scenario_path(sc, spec_dir):
    """A relative scenario path names a file beside the spec, else one in the CWD."""
    p = pathlib.Path(sc)
    if p.is_absolute():
        return str(p)
    for base in (pathlib.Path(spec_dir), pathlib.Path.cwd()):
        if (base / p).is_file():
            return str((base / p).resolve())
    raise ValueError(f"scenario: '{sc}' is neither beside the spec ({spec_dir}) nor in the "
                     f"current directory ({pathlib.Path.cwd()})")


def points(spec, out_dir, mmusim=None):
    """The run list: scenario file (written to out_dir if inline), overrides, seed, out."""
    out_dir = pathlib.Path(out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    sc = spec["scenario"]
    if isinstance(sc, dict):
        path = out_dir / "scenario.json"
        path.write_text(json.dumps(sc, indent=1, sort_keys=True))
        sc_path = str(path)
        default_seed = sc.get("seed", 1)
    else:
        sc_path = scenario_path(sc, spec.get("_dir", "."))
        with open(sc_path) as f:
            default_seed = json.load(f).get("seed", 1)
    keys = sorted(spec.get("grid", {}))
    fixed = sorted(spec.get("set", {}).items())
    seeds = spec.get("seeds", [default_seed])
    out = []
    for combo in itertools.product(*(spec["grid"][k] for k in keys)):
        for seed in seeds:
            i = len(out)
            grid = list(zip(keys, combo))
            out.append({"index": i, "mmusim": mmusim_path(mmusim), "scenario": sc_path,
                        "set": fixed + grid, "grid": grid, "seed": seed,
                        "out": str(out_dir / "points" / str(i))})
    return out


def progress(done, total):
    # One rewritten line on a terminal; whole lines (every 10 %) into a log.
    if sys.stderr.isatty():
        print(f"\rsweep: {done}/{total} points", end="\n" if done == total else "",
              file=sys.stderr, flush=True)
    elif done == total or done * 10 // total != (done - 1) * 10 // total:
        print(f"sweep: {done}/{total} points", file=sys.stderr, flush=True)


def run_local(pts, jobs=None, quiet=False):
    """Process pool on this machine; rows in point order."""
    rows = [None] * len(pts)
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs or os.cpu_count()) as ex:
        futs = {ex.submit(run_point, p): p["index"] for p in pts}
        for n, fut in enumerate(concurrent.futures.as_completed(futs), start=1):
            rows[futs[fut]] = fut.result()
            if not quiet:
                progress(n, len(pts))
    return rows


def run_dask(pts, address_or_client, quiet=False):
    """The same run_point on a Dask distributed cluster (scheduler address or Client);
    workers need mmusim at the same path and a shared file system for the outputs."""
    from distributed import Client, as_completed

    client = address_or_client if isinstance(address_or_client, Client) else Client(address_or_client)
    try:
        futs = client.map(run_point, pts, pure=False)
        index = {f.key: p["index"] for f, p in zip(futs, pts)}
        rows = [None] * len(pts)
        for n, fut in enumerate(as_completed(futs), start=1):
            rows[index[fut.key]] = fut.result()
            if not quiet:
                progress(n, len(pts))
        return rows
    finally:
        if client is not address_or_client:
            client.close()


def write_table(rows, path):
    cols = list(rows[0].keys())
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m traffic.sweep", description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", help="sweep spec JSON (format: see the module docstring or README); a relative "
                    "scenario path in it is looked up beside the spec, then in the current directory")
    ap.add_argument("--out", required=True, help="output directory: results.csv and points/<i>/")
    ap.add_argument("--jobs", type=int, default=None, help="local worker processes (default: all cores)")
    ap.add_argument("--dask", metavar="HOST:PORT", help="Dask scheduler address (default: none, run locally)")
    ap.add_argument("--mmusim", help="mmusim binary (default: $MMUSIM, else build/mmusim)")
    a = ap.parse_args(argv)
    try:
        pts = points(load_spec(a.spec), a.out, a.mmusim)
        rows = run_dask(pts, a.dask) if a.dask else run_local(pts, a.jobs)
    except (OSError, ValueError, RuntimeError) as e:
        print(f"traffic.sweep: error: {e}", file=sys.stderr)
        return 1
    table = os.path.join(a.out, "results.csv")
    write_table(rows, table)
    print(f"{table}: {len(rows)} points", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
