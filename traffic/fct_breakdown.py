#!/usr/bin/env python3
"""Where a fabric run's query-response incasts spend their time (Reverie §4.1 on `paper_scenario`'s
leaf-spine): per incast (the answers to one query), its completion against the requester port's
line-rate floor, the share of it during which the requester's egress queue 3 is empty (the port
has none of the answer to send), the mean bytes of queue 3 on the path (responder leaf uplinks,
spine ports toward the requester leaf, the requester port), the share paused by PFC on the
spines and responder uplinks, and how many other incasts overlap it. Needs a run with
`--vcd-signals queues,pfc`.

  python3 -m traffic.fct_breakdown RUN_DIR [--hpl 16] [--spines 4] [--flows-only]
  python3 -m traffic.fct_breakdown --leaf RUN_DIR [RUN_DIR ...] [--pairs]

With --flows-only (any run, no VCD needed) only the completion times and the overlap. With --leaf,
for the one-switch leaf of `reverie_scenario` (host i on Ethernet{4i}), per incast: the mean FCT
of its answers and, for the ports its answers enter by (the requester queue's feeders), the time
their lossless PG was in XOFF (the switch's PFC state, summed over them: port-us), the XOFFs they
raised, and WRED's ECN marks at the requester's egress queue; with --pairs the runs are taken two
by two (A, B: the same traffic under two settings), incasts are matched by start and requester,
and B - A is compared incast by incast, pooled over the pairs.
"""
import argparse
import bisect
import collections
import csv
import json
import os
import sys


def parse_vcd(path, want):
    """{signal name: ([t_ps...], [value...])} for the names want(name) accepts; names are
    switch/scope/.../var below the top SystemC scope."""
    ids, scope, series = {}, [], {}
    t = 0
    with open(path) as f:
        for line in f:
            if line.startswith("$scope"):
                scope.append(line.split()[2])
            elif line.startswith("$upscope"):
                scope.pop()
            elif line.startswith("$var"):
                p = line.split()
                name = "/".join(scope[1:] + [p[4]])
                if want(name):
                    ids.setdefault(p[3], []).append(name)
                    series[name] = ([0], [0])
            elif line.startswith("#"):
                t = int(line[1:])
            elif line[0] == "b":
                v, i = line[1:].split()
                for n in ids.get(i, ()):
                    series[n][0].append(t)
                    series[n][1].append(int(v, 2))
            elif line[0] in "01" and line[1:].strip() in ids:
                for n in ids[line[1:].strip()]:
                    series[n][0].append(t)
                    series[n][1].append(int(line[0]))
    return series


def integrate(s, a, b, pred=None):
    """Integral over [a, b) of the step function s (value, or 1 where pred(value))."""
    ts, vs = s
    i = max(0, bisect.bisect_right(ts, a) - 1)
    total, t = 0.0, a
    while t < b:
        nxt = ts[i + 1] if i + 1 < len(ts) else b
        end = min(nxt, b)
        if end > t:
            v = vs[i]
            total += (end - t) * (pred(v) if pred else v)
        t = max(t, end)
        i += 1
        if i >= len(ts):
            break
    return total


def incasts(flows_csv):
    """{(start_ns, requester): [flow rows]} of the incast generator."""
    q = collections.defaultdict(list)
    with open(flows_csv) as f:
        for r in csv.DictReader(f):
            if r["generator"] == "incast":
                q[(float(r["start_ns"]), int(r["dst"][1:]))].append(r)
    return q


def completed(qs):
    """(start_ns, requester, flows, last finish_ns, start ps, end ps) of each incast whose answers
    all finished, in start order (the VCD's times are ps)."""
    for (t0, req), fl in sorted(qs.items()):
        if all(r["finish_ns"] for r in fl):
            t1 = max(float(r["finish_ns"]) for r in fl)
            yield t0, req, fl, t1, int(t0 * 1000), int(t1 * 1000)


def overlaps(qs):
    """{incast key: other incasts in flight (fabric-wide) at some time during it}, completed ones."""
    spans = sorted((k[0], max(float(r["finish_ns"] or "inf") for r in v)) for k, v in qs.items())
    out = {}
    for k, fl in qs.items():
        if all(r["finish_ns"] for r in fl):
            t0, t1 = k[0], max(float(r["finish_ns"]) for r in fl)
            out[k] = sum(1 for (u0, u1) in spans if u0 < t1 and u1 > t0) - 1
    return out


def background_to(flows_csv):
    """{destination host: [(start_ns, finish_ns or inf, bytes)]} of the other generators' flows."""
    out = collections.defaultdict(list)
    with open(flows_csv) as f:
        for r in csv.DictReader(f):
            if r["generator"] != "incast":
                out[int(r["dst"][1:])].append((float(r["start_ns"]), float(r["finish_ns"] or "inf"), int(r["bytes"])))
    return out


def shared_bytes(bg, req, t0, t1):
    """Bytes of the flows to the requester that are active at some time in [t0, t1]: they share its port."""
    return sum(b for s, f, b in bg[req] if s < t1 and f > t0)


def flows_only(run, rate_gbps=25):
    qs = incasts(os.path.join(run, "flows.csv"))
    bg = background_to(os.path.join(run, "flows.csv"))
    ov = overlaps(qs)
    rows = []
    for k, n in sorted(ov.items()):
        t1 = max(float(r["finish_ns"]) for r in qs[k])
        rows.append({"start_us": k[0] / 1000, "requester": k[1], "last_fct_us": (t1 - k[0]) / 1000,
                     "floor_us": sum(int(r["bytes"]) for r in qs[k]) * 8 / (rate_gbps * 1e3),
                     "mean_fct_us": sum(float(r["fct_ns"]) for r in qs[k]) / len(qs[k]) / 1000,
                     "overlapping_incasts": n, "background_to_requester_mb": shared_bytes(bg, k[1], k[0], t1) / 1e6})
    return rows


def breakdown(run, hpl=16, spines=4, rate_gbps=25):
    eth = lambda i: f"Ethernet{4 * i}"  # noqa: E731
    series = parse_vcd(os.path.join(run, "counters.vcd"),
                       lambda n: n.endswith("queue3/egress_bytes") or n.endswith("tx_paused3"))
    with open(os.path.join(run, "summary.json")) as f:
        s = json.load(f)
    qs = incasts(os.path.join(run, "flows.csv"))
    bg = background_to(os.path.join(run, "flows.csv"))
    ov = overlaps(qs)
    out = []
    for t0, req, fl, t1, a, b in completed(qs):
        L, port = req // hpl, req % hpl
        R = int(fl[0]["src"][1:]) // hpl
        file_bytes = sum(int(r["bytes"]) for r in fl)
        floor_us = file_bytes * 8 / (rate_gbps * 1e3)
        dur = b - a
        reqq = series[f"leaf{L}/mmu/{eth(port)}/queue3/egress_bytes"]
        up = [series[f"leaf{R}/mmu/{eth(hpl + k)}/queue3/egress_bytes"] for k in range(spines)]
        sp = [series[f"spine{k}/mmu/{eth(L)}/queue3/egress_bytes"] for k in range(spines)]
        up_p = [series[f"leaf{R}/egress_{eth(hpl + k)}/tx_paused3"] for k in range(spines)]
        sp_p = [series[f"spine{k}/egress_{eth(L)}/tx_paused3"] for k in range(spines)]
        out.append({
            "start_us": t0 / 1000, "requester": req, "requester_leaf": L, "responder_leaf": R,
            "last_fct_us": (t1 - t0) / 1000, "floor_us": floor_us,
            "mean_fct_us": sum(float(r["fct_ns"]) for r in fl) / len(fl) / 1000,
            "req_queue_empty_pct": 100 * integrate(reqq, a, b, lambda v: v == 0) / dur,
            "req_queue_kb": integrate(reqq, a, b) / dur / 1000,
            "spine_queue_kb": sum(integrate(x, a, b) for x in sp) / dur / 1000,
            "uplink_queue_kb": sum(integrate(x, a, b) for x in up) / dur / 1000,
            "spine_paused_pct": 100 * sum(integrate(x, a, b) for x in sp_p) / dur / spines,
            "uplink_paused_pct": 100 * sum(integrate(x, a, b) for x in up_p) / dur / spines,
            "overlapping_incasts": ov[(t0, req)], "background_to_requester_mb": shared_bytes(bg, req, t0, t1) / 1e6})
    tr = s.get("transport", {}).get("dcqcn", {})
    return out, {"incast_flows": s["generators"]["incast"]["flows"], "cnps": tr.get("cnps_received", 0),
                 "xoff": s["pfc"]["xoff_events"]}


def _at(s, t):
    """Value of the step function s at time t."""
    return s[1][max(0, bisect.bisect_right(s[0], t) - 1)]


def _rises(s, a, b):
    """0 -> 1 transitions of the step function s in [a, b)."""
    ts, vs = s
    return sum(1 for i in range(max(1, bisect.bisect_left(ts, a)), len(ts))
               if ts[i] < b and vs[i] == 1 and vs[i - 1] == 0)


def leaf_breakdown(run, switch="sw0", pg=3):
    """Per completed incast of a one-switch run (host i on Ethernet{4i}): mean answer FCT, and the
    XOFF time (port-us, summed), XOFF count of PG `pg` of the ports its answers enter by, and the
    ECN marks at the requester's egress queue `pg`, all over [start, last answer's arrival)."""
    series = parse_vcd(os.path.join(run, "counters.vcd"),
                       lambda n: n.endswith(f"pg{pg}/xoff") or n.endswith(f"queue{pg}/ecn_marked"))
    qs = incasts(os.path.join(run, "flows.csv"))
    bg = background_to(os.path.join(run, "flows.csv"))
    none = ([0], [0])
    out = []
    for t0, req, fl, t1, a, b in completed(qs):
        feeders = sorted({int(r["src"][1:]) for r in fl})
        xo = [series.get(f"{switch}/mmu/Ethernet{4 * i}/pg{pg}/xoff", none) for i in feeders]
        mk = series.get(f"{switch}/mmu/Ethernet{4 * req}/queue{pg}/ecn_marked", none)
        per_answer = [(i, float(r["fct_ns"]) / 1000,
                       integrate(series.get(f"{switch}/mmu/Ethernet{4 * i}/pg{pg}/xoff", none), a, b) / 1e6)
                      for r, i in ((r, int(r["src"][1:])) for r in fl)]
        out.append({"start_us": t0 / 1000, "requester": req, "answers": len(fl),
                    "mean_fct_us": sum(float(r["fct_ns"]) for r in fl) / len(fl) / 1000,
                    "last_fct_us": (t1 - t0) / 1000,
                    "feeders_xoff_us": sum(integrate(x, a, b) for x in xo) / 1e6,
                    "feeders_xoffs": sum(_rises(x, a, b) for x in xo),
                    "requester_ecn_marks": _at(mk, b) - _at(mk, a),
                    "background_to_requester_mb": shared_bytes(bg, req, t0, t1) / 1e6,
                    "_answers": per_answer})
    return out


def _fit(x, y):
    """(Pearson r, least-squares slope) of y on x."""
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((u - mx) * (v - my) for u, v in zip(x, y))
    sxx, syy = sum((u - mx) ** 2 for u in x), sum((v - my) ** 2 for v in y)
    return (sxy / (sxx * syy) ** 0.5 if sxx and syy else float("nan"), sxy / sxx if sxx else float("nan"))


def answer_fits(pairs):
    """Per answer (its own feeder's XOFF time over its incast): within each incast of every run,
    FCT against that time, both less the incast's mean; and B - A of each answer against its change."""
    wx, wy, dx, dy = [], [], [], []
    for ra, rb in pairs:
        for rows in (ra, rb):
            for r in rows:
                ans = r["_answers"]
                mf = sum(x[1] for x in ans) / len(ans)
                mp = sum(x[2] for x in ans) / len(ans)
                wy += [x[1] - mf for x in ans]
                wx += [x[2] - mp for x in ans]
        bk = {(r["start_us"], r["requester"]): {x[0]: x for x in r["_answers"]} for r in rb}
        for r in ra:
            o = bk.get((r["start_us"], r["requester"]), {})
            for x in r["_answers"]:
                if x[0] in o:
                    dy.append(o[x[0]][1] - x[1])
                    dx.append(o[x[0]][2] - x[2])
    return {"answers": len(dx), "within": _fit(wx, wy), "change": _fit(dx, dy)}


def compare(pairs):
    """[(rows A, rows B)] of leaf_breakdown -> per matched incast B - A, and a summary dict."""
    rows = []
    for ra, rb in pairs:
        bk = {(r["start_us"], r["requester"]): r for r in rb}
        for r in ra:
            o = bk.get((r["start_us"], r["requester"]))
            if o:
                rows.append({"start_us": r["start_us"], "requester": r["requester"],
                             **{f"{k}_{x}": v[k] for x, v in (("a", r), ("b", o))
                                for k in ("mean_fct_us", "feeders_xoff_us", "feeders_xoffs", "requester_ecn_marks")}})
    d = lambda r, k: r[f"{k}_b"] - r[f"{k}_a"]  # noqa: E731
    fell = [r for r in rows if d(r, "mean_fct_us") < 0]
    rest = [r for r in rows if d(r, "mean_fct_us") >= 0]

    def corr(k):
        x = [d(r, k) for r in rows]
        y = [d(r, "mean_fct_us") for r in rows]
        mx, my = sum(x) / len(x), sum(y) / len(y)
        sxy = sum((u - mx) * (v - my) for u, v in zip(x, y))
        sxx, syy = sum((u - mx) ** 2 for u in x), sum((v - my) ** 2 for v in y)
        return sxy / (sxx * syy) ** 0.5 if sxx and syy else float("nan")

    def means(g):
        return {k: (sum(r[f"{k}_a"] for r in g) / len(g), sum(r[f"{k}_b"] for r in g) / len(g)) if g else (0, 0)
                for k in ("mean_fct_us", "feeders_xoff_us", "feeders_xoffs", "requester_ecn_marks")}

    x = [d(r, "feeders_xoff_us") for r in rows]
    z = [d(r, "feeders_xoffs") for r in rows]
    y = [d(r, "mean_fct_us") for r in rows]
    r1, slope = _fit(x, y)
    mx, mz, my = sum(x) / len(x), sum(z) / len(z), sum(y) / len(y)
    sxx = sum((u - mx) ** 2 for u in x)
    szz = sum((u - mz) ** 2 for u in z)
    sxz = sum((u - mx) * (v - mz) for u, v in zip(x, z))
    sxy = sum((u - mx) * (v - my) for u, v in zip(x, y))
    szy = sum((u - mz) * (v - my) for u, v in zip(z, y))
    syy = sum((v - my) ** 2 for v in y)
    det = sxx * szz - sxz ** 2
    # R^2 of y on (x, z) by least squares (normal equations on the centred values)
    r2_both = (((szz * sxy - sxz * szy) * sxy + (sxx * szy - sxz * sxy) * szy) / det / syy
               if det and syy else float("nan"))
    order = sorted(range(len(rows)), key=lambda i: x[i])
    quarters = []
    for q in range(4):
        idx = order[q * len(rows) // 4:(q + 1) * len(rows) // 4]
        if idx:
            quarters.append({"dxoff_us_max": x[idx[-1]], "incasts": len(idx),
                             "dfct_us": sum(y[i] for i in idx) / len(idx), "fct_fell": sum(y[i] < 0 for i in idx)})
    summary = {"incasts": len(rows), "fct_fell": len(fell),
               "fit_xoff_time": {"slope": slope, "intercept": my - slope * mx, "r2": r1 * r1},
               "r2_xoff_time_and_count": r2_both,
               "quarters_by_dxoff_time": quarters,
               "xoff_time_fell": sum(d(r, "feeders_xoff_us") < 0 for r in rows),
               "xoff_time_fell_where_fct_fell": sum(d(r, "feeders_xoff_us") < 0 for r in fell),
               "xoffs_rose": sum(d(r, "feeders_xoffs") > 0 for r in rows),
               "all": means(rows), "fct_fell_group": means(fell), "fct_not_fell_group": means(rest),
               "r_fct_xoff_time": corr("feeders_xoff_us"), "r_fct_xoffs": corr("feeders_xoffs"),
               "r_fct_ecn_marks": corr("requester_ecn_marks")}
    return rows, summary


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", nargs="+", help="run directory (mmusim run --out); several only with --leaf")
    ap.add_argument("--leaf", action="store_true", help="one-switch leaf: feeders' XOFF time and count per incast")
    ap.add_argument("--pairs", action="store_true", help="with --leaf: runs two by two (A, B), B - A per incast")
    ap.add_argument("--hpl", type=int, default=16)
    ap.add_argument("--spines", type=int, default=4)
    ap.add_argument("--csv", help="write the per-incast rows here")
    ap.add_argument("--flows-only", action="store_true", help="from flows.csv alone: completion and overlap")
    a = ap.parse_args(argv)
    if a.leaf:
        return leaf_main(a)
    if len(a.run) != 1:
        ap.error("one RUN_DIR without --leaf")
    a.run = a.run[0]
    if a.flows_only:
        rows, tot = flows_only(a.run), None
    else:
        rows, tot = breakdown(a.run, a.hpl, a.spines)
    if not rows:
        print("fct_breakdown: error: no completed incast in the run", file=sys.stderr)
        return 1
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    n = len(rows)
    alone = [r for r in rows if r["background_to_requester_mb"] == 0]
    if alone:
        print(f"incasts whose requester receives no other flow meanwhile: {len(alone)}, mean FCT of their answers "
              f"{sum(r['mean_fct_us'] for r in alone) / len(alone):.1f} us; the others "
              f"{sum(r['mean_fct_us'] for r in rows if r not in alone) / max(1, n - len(alone)):.1f} us")
    print(f"incasts completed {n}" + (f"; DCQCN CNPs per incast flow {tot['cnps'] / tot['incast_flows']:.2f}; "
                                      f"XOFF {tot['xoff']}" if tot else ""))
    for k in rows[0]:
        if k in ("start_us", "requester", "requester_leaf", "responder_leaf"):
            continue
        v = sorted(r[k] for r in rows)
        print(f"{k:22s} mean {sum(v) / n:9.2f}  min {v[0]:9.2f}  max {v[-1]:9.2f}")
    return 0


def leaf_main(a):
    per = [leaf_breakdown(r) for r in a.run]
    if not a.pairs:
        rows = [dict(run=r, **{k: v for k, v in x.items() if k != "_answers"}) for r, rs in zip(a.run, per) for x in rs]
        if not rows:
            print("fct_breakdown: error: no completed incast in the run", file=sys.stderr)
            return 1
        keys = [k for k in rows[0] if k not in ("run", "start_us", "requester")]
        print(f"incasts completed {len(rows)}")
        for k in keys:
            v = sorted(r[k] for r in rows)
            print(f"{k:28s} mean {sum(v) / len(v):9.2f}  min {v[0]:9.2f}  max {v[-1]:9.2f}")
    else:
        if len(per) % 2:
            print("fct_breakdown: error: --pairs needs an even number of runs (A B A B ...)", file=sys.stderr)
            return 1
        rows, sm = compare(list(zip(per[0::2], per[1::2])))
        if not rows:
            print("fct_breakdown: error: no incast completed in both runs of a pair", file=sys.stderr)
            return 1
        print(f"incasts matched {sm['incasts']}; FCT fell (B < A) in {sm['fct_fell']}; feeders' XOFF time fell in "
              f"{sm['xoff_time_fell']} ({sm['xoff_time_fell_where_fct_fell']} of the {sm['fct_fell']} whose FCT fell); "
              f"feeders' XOFFs rose in {sm['xoffs_rose']}")
        for g in ("all", "fct_fell_group", "fct_not_fell_group"):
            m = sm[g]
            print(f"{g:19s} FCT {m['mean_fct_us'][0]:7.1f} -> {m['mean_fct_us'][1]:7.1f} us; feeders XOFF "
                  f"{m['feeders_xoff_us'][0]:7.1f} -> {m['feeders_xoff_us'][1]:7.1f} port-us, "
                  f"{m['feeders_xoffs'][0]:6.1f} -> {m['feeders_xoffs'][1]:6.1f} XOFFs "
                  f"({m['feeders_xoff_us'][0] / max(m['feeders_xoffs'][0], 1e-9):.1f} -> "
                  f"{m['feeders_xoff_us'][1] / max(m['feeders_xoffs'][1], 1e-9):.1f} us each); ECN marks "
                  f"{m['requester_ecn_marks'][0]:6.0f} -> {m['requester_ecn_marks'][1]:6.0f}")
        print(f"r(dFCT, dXOFF time) {sm['r_fct_xoff_time']:.2f}; r(dFCT, dXOFFs) {sm['r_fct_xoffs']:.2f}; "
              f"r(dFCT, dECN marks) {sm['r_fct_ecn_marks']:.2f}")
        f = sm["fit_xoff_time"]
        print(f"dFCT = {f['slope']:.3f} x dXOFF time {f['intercept']:+.1f} us (R2 {f['r2']:.2f}; with dXOFFs too, "
              f"R2 {sm['r2_xoff_time_and_count']:.2f})")
        for q in sm["quarters_by_dxoff_time"]:
            print(f"  quarter by dXOFF time (up to {q['dxoff_us_max']:.0f} port-us): {q['incasts']} incasts, "
                  f"dFCT {q['dfct_us']:+.1f} us, FCT fell in {q['fct_fell']}")
        af = answer_fits(list(zip(per[0::2], per[1::2])))
        print(f"per answer ({af['answers']}), its own feeder's XOFF time over the incast: within an incast "
              f"r {af['within'][0]:.2f}, {af['within'][1]:.3f} us FCT per us; B - A r {af['change'][0]:.2f}, "
              f"{af['change'][1]:.3f} us per us")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
