#!/usr/bin/python3
"""Random-scenario campaign (docs/validation.md, "Headroom safety campaign").

Draws scenarios over every topology generator (and the single switch), the six policies, the
admission unit's PIPE 0, 1 and 3 (3 with dt, static, sih and dsh), cells of 64..512 B, MTUs up to 9000, 25..400 Gb/s, 1..4 pipelines, lossless incasts of any frame
size over lossy background; headroom is derived (no xoff), a shared pool sized by the safe
rule, or, in a share of runs, deliberately short (the old DSH Eq. 1 + one cell, a quarter of
the pool); PFC pause times are sometimes short. Each run is checked:
  - it exits 0;
  - conservation: injected = delivered + dropped + buffered at end, and the drop split adds up;
  - no silent lossless drop: lossless drops only in a run whose summary has warnings;
  - XOFF - XON = XOFF states at the end, per switch;
  - FCT >= ideal FCT for every completed flow (flows.csv, in picoseconds);
  - determinism on a sample: a rerun gives byte-identical flows.csv and summary.json but for
    wall_time_s.
A failing scenario is saved as OUT/failures/<index>/scenario.json with its reasons; replay it
with --replay FILE. Scenario i of seed S is the same on every machine (random.Random(S, i)).

  /usr/bin/python3 tb/campaign/campaign.py --count 10000 --jobs 2 --out /tmp/campaign [--seed S]
"""
import argparse
import collections
import concurrent.futures
import csv
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from traffic import headroom  # noqa: E402

POLICIES = ["dt", "static", "sih", "abm", "reverie", "dsh"]
TOPOLOGIES = ["single", "leaf_spine", "bfc_testbed", "dsh_collateral", "incast_cascade"]
LOSSLESS_DSCP = {3: 24, 4: 32}  # class selector: DSCP 24 -> TC 3, 32 -> TC 4
LOSSY_DSCP = 8
MODES = ["derived", "pool", "eq1", "short_pool"]


def topology(rng, kind, rate, delay):
    """(topology generator object or single-switch keys, ports of the largest switch, hosts)."""
    if kind == "single":
        n = rng.randint(3, 16)
        return {"ports": n, "rate_gbps": rate, "link_delay_ns": delay}, n, n, rate
    if kind == "leaf_spine":
        leaves, spines, hpl = rng.randint(2, 3), rng.randint(1, 2), rng.randint(2, 3)
        up = rate * rng.choice([1, 2])
        g = {"type": "leaf_spine", "leaves": leaves, "spines": spines, "hosts_per_leaf": hpl,
             "host_rate_gbps": rate, "uplink_rate_gbps": up, "link_delay_ns": delay}
        return {"generator": g}, max(hpl + spines, leaves), leaves * hpl, max(rate, up)
    if kind == "bfc_testbed":
        n = rng.randint(1, 2)
        g = {"type": "bfc_testbed", "senders_per_group": n, "rate_gbps": rate, "link_delay_ns": delay}
        return {"generator": g}, max(2 * n + 1, 4), 3 * n + 2, rate
    if kind == "dsh_collateral":
        f = rng.randint(2, 5)
        g = {"type": "dsh_collateral", "fanin": f, "rate_gbps": rate, "link_delay_ns": delay}
        return {"generator": g}, 3 + f, f + 4, rate
    ks = [rng.randint(2, 3) for _ in range(rng.randint(1, 2))]
    g = {"type": "incast_cascade", "stages": ks, "rate_gbps": rate, "link_delay_ns": delay}
    hosts = 1
    for k in ks:
        hosts *= k
    return {"generator": g}, max(ks) + 1, hosts + 1, rate


def scenario(seed, index, force_mode=None):
    """Scenario `index` of campaign `seed`, and what it was drawn from (for the tally)."""
    rng = random.Random(seed * 1_000_003 + index)
    kind = rng.choice(TOPOLOGIES)
    policy = rng.choice(POLICIES)
    rate = rng.choice([25, 40, 50, 100, 200, 400])
    delay = rng.choice([0, 10, 100, 500, 1000, 2000])
    cell = rng.choice([64, 96, 128, 144, 176, 192, 256, 384, 512, rng.randint(64, 512)])
    mtu = rng.choice([1500, 1500, 4096, 9000, rng.randint(256, 9000)])
    ovh = rng.choice([20, 20, 0])
    pipelines = rng.randint(1, 4)
    mhz = rng.choice([1000, 1500, 2000, 3000])
    lat = rng.randint(0, 8)
    topo, ports, hosts, max_rate = topology(rng, kind, rate, delay)
    pipelines = min(pipelines, ports)
    topo.update(mtu_bytes=mtu, wire_overhead_bytes=ovh)
    lossless = rng.choice([[3], [3], [3, 4]])
    # The admission unit's PIPE (admission.pipeline; 3 for dt, static, sih and dsh only), from a
    # generator of its own so that the other draws stay those of earlier campaigns.
    prng = random.Random(seed * 1_000_003 + index + (1 << 40))
    apipe = prng.choice([0, 1, 3] if policy in ("dt", "static", "sih", "dsh") else [0, 1])

    # Headroom budget: the safe xoff of the fastest port in the fullest pipeline, per lossless
    # PG (dt, static, abm, reverie, sih) or per port (dsh's insurance) of the largest switch.
    safe = headroom.safe_headroom_cells(max_rate * 10**9, delay * 1000, mtu, cell, ovh,
                                        headroom.clock_period_ps(mhz), lat, -(-ports // pipelines),
                                        admission_pipeline=apipe)
    pgs = ports * (1 if policy == "dsh" else len(lossless))
    hdrm_cells = pgs * safe
    mode = rng.choices(MODES, weights=[40, 35, 15, 10])[0]
    mode = force_mode or mode
    ingress_pool = rng.randint(32, 512) << 10
    lossy_pool = rng.randint(64, 1024) << 10
    buffer = ingress_pool + lossy_pool + hdrm_cells * cell + (64 << 10)
    pool_in = {"size": str(ingress_pool), "type": "ingress", "mode": "dynamic"}
    if mode == "pool":
        pool_in["xoff"] = str(hdrm_cells * cell)
    elif mode == "short_pool":
        pool_in["xoff"] = str(hdrm_cells * cell // 4)
    pg = {"pool": "ingress_pool", "size": "0", "dynamic_th": rng.randint(-4, 1), "xon_offset": str(rng.choice([0, 2496]))}
    if mode == "eq1":  # issue 12's rule: DSH Eq. 1 plus one cell
        pg["xoff"] = str(headroom.eta_bytes(max_rate * 10**9, delay * 1000, mtu) + cell)
    names = ",".join(f"Ethernet{4 * i}" for i in range(ports))
    buf = {
        "BUFFER_POOL": {"ingress_pool": pool_in,
                        "egress_lossless_pool": {"size": str(buffer), "type": "egress", "mode": "static"},
                        "egress_lossy_pool": {"size": str(lossy_pool), "type": "egress"}},
        "BUFFER_PROFILE": {
            "ingress_lossless_profile": pg,
            "ingress_lossy_profile": {"pool": "ingress_pool", "size": "0", "static_th": str(buffer)},
            "egress_lossless_profile": {"pool": "egress_lossless_pool", "size": "0", "static_th": str(buffer)},
            "egress_lossy_profile": {"pool": "egress_lossy_pool", "size": "0", "dynamic_th": rng.randint(-2, 1)}},
        "PORT_QOS_MAP": {names: {"pfc_enable": ",".join(str(p) for p in lossless)}},
    }
    # Mostly the longest pause; sometimes one short enough that refresh timing matters.
    pfc = {"pause_quanta": 65535 if rng.random() < 0.9 else rng.choice([100, 500, 2000, 10000]),
           "refresh_fraction": rng.choice([0.5, 0.5, 0.9])}
    duration = rng.choice([100, 200, 300])
    traffic = []
    for i in range(rng.randint(1, 2)):
        rx = rng.randrange(hosts)
        others = [h for h in range(hosts) if h != rx]
        senders = rng.sample(others, rng.randint(1, len(others)))
        traffic.append({"type": "incast", "name": f"incast{i}", "senders": [f"h{h}" for h in senders],
                        "receiver": f"h{rx}", "dscp": LOSSLESS_DSCP[rng.choice(lossless)],
                        "burst_bytes": rng.randint(32, 1024) << 10, "packet_bytes": rng.randint(64, mtu),
                        "start_us": rng.randint(0, 10)})
    if rng.random() < 0.7:
        src = rng.randrange(hosts)
        dst = rng.choice([h for h in range(hosts) if h != src])
        traffic.append({"type": "constant", "name": "lossy", "src": f"h{src}", "dst": f"h{dst}",
                        "dscp": LOSSY_DSCP, "packet_bytes": rng.randint(64, mtu),
                        "stop_us": duration // 2})
    sc = {"name": f"campaign-{seed}-{index}", "seed": rng.randrange(2**32), "duration_us": duration,
          "topology": topo,
          "mmu": {"buffer_bytes": buffer, "cell_bytes": cell, "clock_mhz": mhz, "pipeline_latency_cycles": lat,
                  "pipelines": pipelines},
          "buffer": buf, "admission": {"policy": policy, "pipeline": apipe}, "pfc": pfc,
          "output": {"sample_interval_ns": 10000}, "traffic": traffic}
    meta = {"index": index, "topology": kind, "policy": policy, "admission_pipeline": apipe, "cell": cell, "mtu": mtu,
            "rate": rate,
            "pipelines": pipelines, "headroom": mode}
    return sc, meta


def ps(field):
    """'123.456' ns as integer picoseconds."""
    whole, _, frac = field.partition(".")
    return int(whole) * 1000 + int((frac + "000")[:3])


def run(mmusim, sc, out):
    path = os.path.join(out, "scenario.json")
    with open(path, "w") as f:
        json.dump(sc, f)
    r = subprocess.run([mmusim, "run", path, "--quiet", "--out", os.path.join(out, "o")],
                       capture_output=True, text=True)
    return r


def check(mmusim, sc, rerun):
    """(violations, summary or None) of one scenario."""
    bad = []
    with tempfile.TemporaryDirectory(prefix="mmusim-campaign-") as tmp:
        r = run(mmusim, sc, tmp)
        if r.returncode != 0:
            return [f"exit {r.returncode}: {r.stderr.strip()[-400:]}"], None
        o = os.path.join(tmp, "o")
        with open(os.path.join(o, "summary.json")) as f:
            text = f.read()
        s = json.loads(text)
        p, d = s["packets"], s["drops"]
        if p["injected"] != p["delivered"] + p["dropped"] + p["buffered_at_end"]:
            bad.append(f"conservation: injected {p['injected']} != delivered {p['delivered']} + dropped "
                       f"{p['dropped']} + buffered {p['buffered_at_end']}")
        if d["lossless"] + d["lossy"] + d["no_route"] != p["dropped"]:
            bad.append(f"drop split {d} does not add up to {p['dropped']}")
        if d["lossless"] > 0 and not s["warnings"]:
            bad.append(f"silent lossless drops: {d['lossless']} ({d['by_reason']})")
        for sw in s["switches"]:
            q = sw["pfc"]
            if q["xoff_events"] - q["xon_events"] != q["xoff_states_at_end"]:
                bad.append(f"switch {sw['name']}: XOFF {q['xoff_events']} - XON {q['xon_events']} != "
                           f"{q['xoff_states_at_end']} XOFF states at end")
        with open(os.path.join(o, "flows.csv")) as f:
            flows = f.read()
        for row in csv.DictReader(flows.splitlines()):
            if row["fct_ns"] and ps(row["fct_ns"]) < ps(row["ideal_fct_ns"]):
                bad.append(f"flow {row['id']}: FCT {row['fct_ns']} ns < ideal {row['ideal_fct_ns']} ns")
        if rerun:
            os.makedirs(os.path.join(tmp, "again"))
            r2 = run(mmusim, sc, os.path.join(tmp, "again"))
            o2 = os.path.join(tmp, "again", "o")
            if r2.returncode != 0:
                bad.append(f"rerun exit {r2.returncode}")
            else:
                with open(os.path.join(o2, "summary.json")) as f:
                    s2 = json.load(f)
                with open(os.path.join(o2, "flows.csv")) as f:
                    flows2 = f.read()
                s.pop("wall_time_s")
                s2.pop("wall_time_s")
                if s != s2 or flows != flows2:
                    bad.append("rerun differs (summary.json or flows.csv)")
        return bad, s


def one(args, index):
    sc, meta = scenario(args.seed, index, args.headroom)
    rerun = args.rerun_every > 0 and index % args.rerun_every == 0
    bad, s = check(args.mmusim, sc, rerun)
    meta.update(warned=bool(s and s["warnings"]), lossless_drops=s["drops"]["lossless"] if s else -1,
                xoff=s["pfc"]["xoff_events"] if s else -1, rerun=rerun, violations="; ".join(bad))
    if bad:
        d = os.path.join(args.out, "failures", str(index))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "scenario.json"), "w") as f:
            json.dump(sc, f, indent=1)
        with open(os.path.join(d, "reasons.txt"), "w") as f:
            f.write(f"campaign seed {args.seed} index {index}\n" + "\n".join(bad) + "\n")
    return meta


def progress(done, total, bad, t0, last):
    now = time.monotonic()
    if sys.stderr.isatty():
        sys.stderr.write(f"\r{done}/{total} scenarios, {bad} failing, {now - t0:.0f} s")
        if done == total:
            sys.stderr.write("\n")
        return last
    if done == total or now - last >= 30:
        sys.stderr.write(f"{done}/{total} scenarios, {bad} failing, {now - t0:.0f} s\n")
        return now
    return last


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=None, help="campaign seed (default: fresh, printed)")
    ap.add_argument("--count", type=int, default=200, help="scenarios")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default="campaign-out", help="results.csv and failures/ go here")
    ap.add_argument("--rerun-every", type=int, default=10, help="determinism rerun of every Nth scenario (0: none)")
    ap.add_argument("--headroom", choices=MODES, help="every scenario with this headroom (default: a mix)")
    ap.add_argument("--replay", metavar="SCENARIO_JSON", help="check one saved scenario (with a rerun) and exit")
    ap.add_argument("--mmusim", default=os.environ.get("MMUSIM", str(ROOT / "build" / "mmusim")))
    args = ap.parse_args()
    if not os.access(args.mmusim, os.X_OK):
        sys.exit(f"campaign: {args.mmusim}: not an executable (build it, or give --mmusim)")
    os.environ["MMUSIM"] = args.mmusim  # traffic.headroom (the safe xoff) asks the same binary
    if args.replay:
        with open(args.replay) as f:
            sc = json.load(f)
        bad, _ = check(args.mmusim, sc, True)
        print("\n".join(bad) if bad else f"{args.replay}: all invariants hold")
        return 1 if bad else 0
    if args.count < 1 or args.jobs < 1:
        sys.exit("campaign: --count and --jobs must be >= 1")
    if args.seed is None:
        args.seed = int.from_bytes(os.urandom(4), "little")
    print(f"campaign seed {args.seed}: {args.count} scenarios, {args.jobs} jobs, out {args.out}", flush=True)
    shutil.rmtree(os.path.join(args.out, "failures"), ignore_errors=True)
    os.makedirs(args.out, exist_ok=True)
    t0 = last = time.monotonic()
    rows = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(one, args, i) for i in range(args.count)]
        for fut in concurrent.futures.as_completed(futs):
            rows.append(fut.result())
            last = progress(len(rows), args.count, sum(1 for r in rows if r["violations"]), t0, last)
    wall = time.monotonic() - t0
    rows.sort(key=lambda r: r["index"])
    tmp = os.path.join(args.out, "results.csv.tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, os.path.join(args.out, "results.csv"))

    failing = [r for r in rows if r["violations"]]
    by = collections.Counter((r["topology"], r["policy"]) for r in rows)
    print(f"seed {args.seed}: {len(rows)} scenarios in {wall:.0f} s wall, {args.jobs} jobs")
    print("runs per topology x policy:")
    print("  " + " ".join(f"{p:>8}" for p in ["topology"] + POLICIES))
    for t in TOPOLOGIES:
        print(f"  {t:>14} " + " ".join(f"{by[(t, p)]:>8}" for p in POLICIES))
    print(f"headroom modes: {dict(collections.Counter(r['headroom'] for r in rows))}")
    print(f"admission.pipeline: {dict(sorted(collections.Counter(r['admission_pipeline'] for r in rows).items()))}")
    print(f"runs that paused (XOFF > 0): {sum(1 for r in rows if r['xoff'] > 0)}")
    print(f"warned runs: {sum(1 for r in rows if r['warned'])}, of which with lossless drops: "
          f"{sum(1 for r in rows if r['warned'] and r['lossless_drops'] > 0)}")
    print(f"lossless drops in unwarned runs: {sum(r['lossless_drops'] for r in rows if not r['warned'] and r['lossless_drops'] > 0)}")
    print(f"determinism reruns: {sum(1 for r in rows if r['rerun'])}")
    print(f"failing scenarios: {len(failing)}")
    for r in failing[:20]:
        print(f"  #{r['index']}: {r['violations'][:300]}  ({args.out}/failures/{r['index']}/scenario.json)")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
