#!/usr/bin/python3
"""Scale benchmark (issue 15): the cost of a packet-hop as the network grows.

Points: the default scenario; scenarios/artifact_incast.json (the 16->1 leaf-spine incast
matched with the ns-3 artifact); one switch at 16, 64 and 128 ports (the default's 16->1
lossless incast plus 2:1 lossy background on every other port); leaf-spine 2x1, 4x2, 8x2
and 16x4 with 16 servers per leaf (the Reverie topology at 16x4), one 16->1 lossless incast
per leaf from the next leaf's servers (16 incasts at 16x4). Each point is one `mmusim run`
in a child process; the table gives packet-hops, CPU seconds of the child (user +
system), packet-hops per CPU second, its peak RSS, and with --callgrind / --cachegrind the
instructions and L1 data-cache misses per hop (whole process: start-up and output
included). With --marginal (and --callgrind) each point also runs with half its traffic
(one-shot incasts with half their bytes, else half the duration), and
marginal_instr_per_hop is (instructions - those of the half run) / (hops - those of the
half run): the cost of a further hop, start-up and output excluded, as issue 15 defines
instructions per packet-hop. Not a test: figures go to docs/performance.md with this
command.

  tb/bench/scale.py [--mmusim build/mmusim] [--points a,b,...] [--callgrind [--marginal]] [--cachegrind]
                    [--burst-bytes N] [--out DIR]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load(name):
    with open(os.path.join(ROOT, "scenarios", name)) as f:
        return json.load(f)


def rename_ports(buf, nports):
    """Point the scenario's per-port CONFIG_DB keys at Ethernet0..Ethernet{4(n-1)}."""
    ports = ",".join(f"Ethernet{4 * i}" for i in range(nports))
    for table in ("BUFFER_PG", "BUFFER_QUEUE"):
        buf[table] = {ports + key[key.index("|"):]: v for key, v in buf[table].items()}
    buf["PORT_QOS_MAP"] = {ports: next(iter(buf["PORT_QOS_MAP"].values()))}


def single_switch(ports):
    sc = load("default.json")
    sc["name"] = f"switch-{ports}p"
    sc["topology"]["ports"] = ports
    rename_ports(sc["buffer"], ports)
    # h1..h16 -> h0 as in the default (h1..h15 at 16 ports); h18.. send lossy traffic 2:1
    # onto h1.. .
    senders = min(16, ports - 1)
    sc["traffic"][0]["senders"] = f"h1-h{senders}"
    if ports < 20:
        del sc["traffic"][1]
    else:
        sc["traffic"][1]["src"] = f"h18-h{ports - 1}"
        sc["traffic"][1]["dst"] = [f"h{1 + k // 2}" for k in range(ports - 18)]
    return sc


def leaf_spine(leaves, spines, burst_bytes):
    sc = load("artifact_incast.json")
    sc["name"] = f"leaf-spine-{leaves}x{spines}"
    gen = sc["topology"]["generator"]
    gen.update(leaves=leaves, spines=spines, hosts_per_leaf=16)
    rename_ports(sc["buffer"], max(16 + spines, leaves))
    sc["duration_us"] = 2000
    sc["measure"] = {"start_us": 0, "end_us": 2000}
    incast = sc["traffic"][0]
    sc["traffic"] = []
    for leaf in range(leaves):
        src = (leaf + 1) % leaves
        sc["traffic"].append(dict(incast, name=f"incast{leaf}", senders=f"h{16 * src}-h{16 * src + 15}",
                                  receiver=f"h{16 * leaf}", burst_bytes=burst_bytes, start_us=10,
                                  period_us=1990))
    return sc


POINTS = {
    "default": lambda a: load("default.json"),
    "artifact": lambda a: load("artifact_incast.json"),
    "switch-16p": lambda a: single_switch(16),
    "switch-64p": lambda a: single_switch(64),
    "switch-128p": lambda a: single_switch(128),
    "ls-2x1": lambda a: leaf_spine(2, 1, a.burst_bytes),
    "ls-4x2": lambda a: leaf_spine(4, 2, a.burst_bytes),
    "ls-8x2": lambda a: leaf_spine(8, 2, a.burst_bytes),
    "ls-16x4": lambda a: leaf_spine(16, 4, a.burst_bytes),
}


def halved(sc):
    """The scenario with half its traffic: one-shot incasts (one burst in the run) with half
    their bytes, all delivered as in the full run; otherwise half the duration, the measure
    window cut to it."""
    sc = json.loads(json.dumps(sc))
    d = sc["duration_us"]
    if all(t["type"] == "incast" and t.get("start_us", 0) + t.get("period_us", d) >= d for t in sc["traffic"]):
        for t in sc["traffic"]:
            t["burst_bytes"] //= 2
        return sc
    sc["duration_us"] = d // 2 if isinstance(d, int) else d / 2
    m = sc.get("measure")
    if m:
        m["end_us"] = min(m.get("end_us", sc["duration_us"]), sc["duration_us"])
        m["start_us"] = min(m.get("start_us", 0), m["end_us"])
    return sc


def callgrind(mmusim, path, res, env):
    """Instructions (callgrind, whole process) of one run of `path`."""
    _, _, err = run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={res}.callgrind", mmusim, "run",
                     path, "--quiet", "--out", res + "-cg"], env)
    return int(re.search(r"Collected : (\d+)", err).group(1))


def run(cmd, env):
    """(CPU seconds user + system, peak RSS in MB, stderr) of one child."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"scale: {' '.join(cmd)}: exit {p.returncode}\n{err[-2000:]}")
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, err


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mmusim", default=os.path.join(ROOT, "build", "mmusim"), help="binary (default: %(default)s)")
    ap.add_argument("--points", default=",".join(POINTS), help="comma list (default: all: %(default)s)")
    ap.add_argument("--callgrind", action="store_true", help="also count instructions (valgrind, ~50x slower)")
    ap.add_argument("--marginal", action="store_true",
                    help="with --callgrind: also the instructions of a further hop (a run with half the traffic)")
    ap.add_argument("--cachegrind", action="store_true", help="also count L1 data-cache misses (valgrind)")
    ap.add_argument("--burst-bytes", type=int, default=1000000,
                    help="bytes per incast sender in the leaf-spine points (default: %(default)s)")
    ap.add_argument("--out", default=None, help="keep scenarios and outputs here (default: a temporary dir)")
    a = ap.parse_args()
    if a.marginal and not a.callgrind:
        sys.exit("scale: --marginal needs --callgrind")
    names = [n for n in a.points.split(",") if n]
    for n in names:
        if n not in POINTS:
            sys.exit(f"scale: unknown point '{n}' (points: {', '.join(POINTS)})")
    out = a.out or tempfile.mkdtemp(prefix="mmusim-scale-")
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    cols = ["point", "switches", "hops", "cpu_s", "hops_per_cpu_s", "max_rss_mb"]
    if a.callgrind:
        cols += ["instructions", "instr_per_hop"]
    if a.marginal:
        cols += ["marginal_instr_per_hop"]
    if a.cachegrind:
        cols += ["d1_misses", "d1_misses_per_hop"]
    print("  ".join(cols), flush=True)
    rows = []
    for n in names:
        sc = POINTS[n](a)
        path = os.path.join(out, n + ".json")
        with open(path, "w") as f:
            json.dump(sc, f, indent=1)
        res = os.path.join(out, n)
        cpu, rss, _ = run([a.mmusim, "run", path, "--quiet", "--out", res], env)
        with open(os.path.join(res, "summary.json")) as f:
            s = json.load(f)
        hops = s["packets"]["hops"]
        row = {"point": n, "switches": len(s["switches"]), "hops": hops, "cpu_s": round(cpu, 3),
               "hops_per_cpu_s": round(hops / cpu) if cpu else 0, "max_rss_mb": round(rss, 1)}
        if a.callgrind:
            row["instructions"] = callgrind(a.mmusim, path, res, env)
            row["instr_per_hop"] = round(row["instructions"] / hops)
        if a.marginal:
            short = os.path.join(out, n + "-half.json")
            with open(short, "w") as f:
                json.dump(halved(sc), f, indent=1)
            instr = callgrind(a.mmusim, short, res + "-half", env)
            with open(os.path.join(res + "-half-cg", "summary.json")) as f:
                short_hops = json.load(f)["packets"]["hops"]
            row["marginal_instr_per_hop"] = round((row["instructions"] - instr) / (hops - short_hops))
        if a.cachegrind:
            _, _, err = run(["valgrind", "--tool=cachegrind", "--cache-sim=yes", f"--cachegrind-out-file={res}.cachegrind",
                             a.mmusim, "run", path, "--quiet", "--out", res + "-cachegrind"], env)
            rd = re.search(r"D1  misses:\s+([\d,]+)", err)
            row["d1_misses"] = int(rd.group(1).replace(",", ""))
            row["d1_misses_per_hop"] = round(row["d1_misses"] / hops, 1)
        rows.append(row)
        print("  ".join(str(row[c]) for c in cols), flush=True)
    with open(os.path.join(out, "scale.csv"), "w") as f:
        f.write(",".join(cols) + "\n")
        for r in rows:
            f.write(",".join(str(r[c]) for c in cols) + "\n")
    print(f"scale: {len(rows)} points; scenarios, outputs and scale.csv in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
