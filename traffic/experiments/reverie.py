"""Reverie (NSDI'24): Figs. 2 and 7-12 on the §4.1 leaf as one switch, and on the 256-host fabric."""
import csv
import json
import os
import pathlib

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from traffic import headroom, trace, workloads  # noqa: E402
from traffic.experiments.common import POLICIES, LOSSY_DSCP, LOSSLESS_DSCP, base, run_all, work_dir, write_csv, pct_less  # noqa: E402


# Reverie workload (§4.1): websearch background + query-response incast.

# The leaf of reverie-nsdi24 §4.1 as one switch: 16 servers at 25G, 4 uplinks at 100G
# (oversubscription 4), 5.12 KB buffer per port per Gb/s, 2 us links, alpha = 1; headroom pool
# = sum of eta over the lossless PGs, ingress pool = the rest, egress lossy pool = 80 % of it.
SERVERS, UPLINKS, SERVER_GBPS, UPLINK_GBPS = 16, 4, 25, 100


# int.header_bytes, set in the scenario (paper_transports): with PowerTCP every lossless data
# frame carries it on the wire, so the largest frame the headroom must absorb is MTU + header.
INT_HEADER_BYTES = 42


def frame_mtu(rdma, transports=True):
    return 1500 + (INT_HEADER_BYTES if transports and rdma == "powertcp" else 0)


def eta_bytes(rate_gbps, delay_ns=2000, mtu=1500):
    """DSH Eq. 1 / [49]: eta = 2(C*D + MTU) + 3840 bytes."""
    return headroom.eta_bytes(int(rate_gbps * 1e9), int(delay_ns * 1000), mtu)


def leaf_buffer():
    return int(5120 * (SERVERS * SERVER_GBPS + UPLINKS * UPLINK_GBPS))


def leaf_scenario(name, duration_us, lossy_pool=0.8, mtu=1500):
    sc = base(name, duration_us)
    n = SERVERS + UPLINKS
    names = [f"Ethernet{4 * i}" for i in range(n)]
    sc["topology"].update(ports=n, rate_gbps=SERVER_GBPS)
    sc["topology"]["port_overrides"] = {names[i]: {"rate_gbps": UPLINK_GBPS} for i in range(SERVERS, n)}
    buffer = leaf_buffer()
    headroom = SERVERS * eta_bytes(SERVER_GBPS, mtu=mtu) + UPLINKS * eta_bytes(UPLINK_GBPS, mtu=mtu)
    ingress = buffer - headroom
    sc["mmu"]["buffer_bytes"] = buffer
    old = next(iter(sc["buffer"]["PORT_QOS_MAP"])).split("|")[0]
    allp = ",".join(names)
    for table in ("BUFFER_PG", "BUFFER_QUEUE", "PORT_QOS_MAP"):
        sc["buffer"][table] = {k.replace(old, allp): v for k, v in sc["buffer"][table].items()}
    pools = sc["buffer"]["BUFFER_POOL"]
    pools["ingress_lossless_pool"].update(size=str(ingress), xoff=str(headroom))
    pools["egress_lossless_pool"]["size"] = str(buffer)
    pools["egress_lossy_pool"]["size"] = str(int(lossy_pool * ingress))
    prof = sc["buffer"]["BUFFER_PROFILE"]
    prof["ingress_lossy_profile"]["static_th"] = str(buffer)
    prof["egress_lossless_profile"]["static_th"] = str(buffer)
    return sc


def paper_transports(sc, ports_25g, ports_100g, rdma="dcqcn", tcp="cubic"):
    """Reverie's transports (§4.1) on the lossless class (TC 3) and the lossy one (TC 1,
    Cubic with minRTO 1 ms). DCQCN gets [31]'s (HPCC's) RED-ECN marking per link speed
    (Kmin/Kmax 100/400 KB at 25G, 400/1600 KB at 100G, Pmax 20 %, DOMAIN.md §10) on queue 3;
    PowerTCP gets INT on TC 3 (PowerTCP [2], as the artifact runs it)."""
    if rdma == "dcqcn":
        profiles = {"DCQCN_25G": (100_000, 400_000), "DCQCN_100G": (400_000, 1_600_000)}
        sc["wred"] = {"WRED_PROFILE": {n: {"ecn": "ecn_green", "green_min_threshold": lo, "green_max_threshold": hi,
                                           "green_drop_probability": 20} for n, (lo, hi) in profiles.items()},
                      "QUEUE": {}}
        for ports, prof in ((ports_25g, "DCQCN_25G"), (ports_100g, "DCQCN_100G")):
            if ports:
                sc["wred"]["QUEUE"][",".join(ports) + "|3"] = {"wred_profile": prof}
    elif rdma == "powertcp":
        sc["int"] = {"enabled_classes": [3], "header_bytes": INT_HEADER_BYTES}
    sc["host"] = {"transport": {"classes": {"3": rdma, "1": tcp}}}


def reverie_scenario(name, load, burst_bytes, active_us, seed, bg_dscp=LOSSY_DSCP, queries=4, out=None,
                     transports=False, rdma="dcqcn", incast_dscp=LOSSLESS_DSCP, lossy_pool=0.8):
    """Background: websearch Poisson flows at `load`: each server to a random uplink (the
    rest of the fabric) at load x 25G, each uplink to a random server at load x 100G.
    Incast (§4.1 query-response): a server queries the servers of other leaves, whose
    answers (burst_bytes in total) arrive over the 4 uplinks, a quarter each; `queries`
    queries in the first `active_us` (time-compressed from the paper's 2/s/server), then a
    tail of 4 x the burst's time through a 25G port (at least 1.2 ms) so answers complete.
    With `transports`, TC 3 runs `rdma` and TC 1 Cubic; `incast_dscp` picks the incast's
    class (lossy for Figs. 11 and 12), `lossy_pool` the egress lossy pool as a fraction of
    the ingress pool (Fig. 9)."""
    duration_us = active_us + max(1200.0, 4 * burst_bytes * 8 / (SERVER_GBPS * 1e3))
    sc = leaf_scenario(name, duration_us, lossy_pool, frame_mtu(rdma, transports))
    sc["seed"] = seed
    if transports:
        names = [f"Ethernet{4 * i}" for i in range(SERVERS + UPLINKS)]
        paper_transports(sc, names[:SERVERS], names[SERVERS:], rdma)
    servers = list(range(SERVERS))
    uplinks = list(range(SERVERS, SERVERS + UPLINKS))
    bg = (workloads.background(servers, load, SERVER_GBPS, duration_us, "websearch", seed=seed,
                               dscp=bg_dscp, dsts=uplinks)
          + workloads.background(uplinks, load, UPLINK_GBPS, duration_us, "websearch", seed=seed + 500,
                                 dscp=bg_dscp, dsts=servers))
    rate = queries / (len(servers) * active_us * 1e-6)
    inc = workloads.query_response(servers, burst_bytes, rate, active_us, seed=seed + 1000,
                                   dscp=incast_dscp, responders=uplinks)
    d = pathlib.Path(out)
    d.mkdir(parents=True, exist_ok=True)
    trace.write_trace(d / f"{name}-bg.csv", bg)
    trace.write_trace(d / f"{name}-incast.csv", inc)
    sc["traffic"] = [{"type": "trace", "name": "background", "file": str((d / f"{name}-bg.csv").resolve())},
                     {"type": "trace", "name": "incast", "file": str((d / f"{name}-incast.csv").resolve())}]
    return sc


# Reverie §4.1 at paper scale: 256 hosts on 16 leaves x 4 spines, 25G links of 2 us,
# oversubscription 4, 5.12 KB per port per Gb/s (the leaf's 20 ports; spines get the same
# buffer, as in the ABM/Reverie artifact), alpha = 1, headroom pool per [49] (eta per leaf
# port), ingress pool = the rest, egress lossy pool 80 % of it, DCQCN on the lossless class
# with [31]'s marking (HPCC, 25G: Kmin 100 KB, Kmax 400 KB, Pmax 20 %), Cubic on the lossy one.
PAPER_LEAVES, PAPER_SPINES, PAPER_HPL = 16, 4, 16


def paper_buffer():
    return int(5120 * (PAPER_HPL + PAPER_SPINES) * SERVER_GBPS)


def paper_scenario(name, load, burst_bytes, duration_us, seed, trace_dir, policy="dt", rdma="dcqcn",
                   tcp="cubic", queries_per_s=2.0, tcp_incast=False, all_rdma=False, launch_us=None,
                   next_leaf=False):
    """The §4.1 fabric with websearch background (lossy, `tcp`) at `load` and the query-response
    incast (lossless, `rdma`) of `burst_bytes` files at `queries_per_s` per server; with
    `tcp_incast` the roles swap (Figs. 11, 12: RDMA background, TCP incast), with `all_rdma`
    both are lossless `rdma` (Fig. 10). Load is a
    fraction of a server's share of its leaf's uplinks (25G / oversubscription), as the
    artifact's request rate (load x server rate / oversubscription / mean flow size); every
    flow and query goes to servers of another leaf. Flows start in the first `launch_us` (default:
    the whole run; the artifact launches for 2 s of a 3 s run so that flows can finish). With
    `next_leaf`, the artifact's pattern instead of §4.1's random leaf: leaf l's background goes to
    leaf l + 1 only and its servers query leaf l + 1 only (`incast_rdma`, `workload_tcp`). Traces
    are written to trace_dir and named in the scenario by that path."""
    launch_us = duration_us if launch_us is None else launch_us
    sc = base(name, duration_us)
    sc["seed"] = seed
    sc["topology"] = {"generator": {"type": "leaf_spine", "leaves": PAPER_LEAVES, "spines": PAPER_SPINES,
                                    "hosts_per_leaf": PAPER_HPL, "host_rate_gbps": SERVER_GBPS,
                                    "oversubscription": 4, "link_delay_ns": 2000}}
    ports = PAPER_HPL + PAPER_SPINES
    names = [f"Ethernet{4 * i}" for i in range(ports)]
    buffer = paper_buffer()
    hdrm = ports * eta_bytes(SERVER_GBPS, mtu=frame_mtu(rdma))
    ingress = buffer - hdrm
    sc["mmu"].update(buffer_bytes=buffer, pipelines=1)
    old = next(iter(sc["buffer"]["PORT_QOS_MAP"])).split("|")[0]
    allp = ",".join(names)
    for table in ("BUFFER_PG", "BUFFER_QUEUE", "PORT_QOS_MAP"):
        sc["buffer"][table] = {k.replace(old, allp): v for k, v in sc["buffer"][table].items()}
    pools = sc["buffer"]["BUFFER_POOL"]
    pools["ingress_lossless_pool"].update(size=str(ingress), xoff=str(hdrm))
    pools["egress_lossless_pool"]["size"] = str(buffer)
    pools["egress_lossy_pool"]["size"] = str(int(0.8 * ingress))
    prof = sc["buffer"]["BUFFER_PROFILE"]
    prof["pg_lossless_100000_2m_profile"]["dynamic_th"] = "0"
    prof["egress_lossy_profile"]["dynamic_th"] = "0"
    prof["ingress_lossy_profile"]["static_th"] = str(buffer)
    prof["egress_lossless_profile"]["static_th"] = str(buffer)
    paper_transports(sc, names, [], rdma, tcp)
    sc["admission"] = {"policy": policy}
    if policy == "reverie":
        sc["admission"]["ewma"] = {"k": 10}  # gamma = 1 - 2^-10 = 0.999
    servers = list(range(PAPER_LEAVES * PAPER_HPL))
    leaves = [servers[k * PAPER_HPL:(k + 1) * PAPER_HPL] for k in range(PAPER_LEAVES)]
    bg_dscp, inc_dscp = (LOSSLESS_DSCP, LOSSY_DSCP) if tcp_incast else (LOSSY_DSCP, LOSSLESS_DSCP)
    if all_rdma:
        bg_dscp = inc_dscp = LOSSLESS_DSCP
    if next_leaf:
        pairs = [(leaves[k], [leaves[k], leaves[(k + 1) % PAPER_LEAVES]]) for k in range(PAPER_LEAVES)]
        bg = workloads.merge(*(workloads.background(src, load / 4, SERVER_GBPS, launch_us, "websearch",
                                                    seed=seed + 2000 * k, dscp=bg_dscp, groups=g)
                               for k, (src, g) in enumerate(pairs)))
        inc = workloads.merge(*(workloads.query_response(src, burst_bytes, queries_per_s, launch_us,
                                                         seed=seed + 1000 + 2000 * k, dscp=inc_dscp, groups=g)
                                for k, (src, g) in enumerate(pairs)))
    else:
        bg = workloads.background(servers, load / 4, SERVER_GBPS, launch_us, "websearch", seed=seed,
                                  dscp=bg_dscp, groups=leaves)
        inc = workloads.query_response(servers, burst_bytes, queries_per_s, launch_us, seed=seed + 1000,
                                       dscp=inc_dscp, groups=leaves)
    d = pathlib.Path(trace_dir)
    d.mkdir(parents=True, exist_ok=True)
    trace.write_trace(d / f"{name}-bg.csv", bg)
    trace.write_trace(d / f"{name}-incast.csv", inc)
    sc["traffic"] = [{"type": "trace", "name": "background", "file": str(d / f"{name}-bg.csv")},
                     {"type": "trace", "name": "incast", "file": str(d / f"{name}-incast.csv")}]
    return sc


def reverie_metrics(s):
    inc = s["generators"]["incast"]
    return {"pfc_pauses": s["pfc"]["xoff_events"], "pause_frames": s["pfc"]["pause_frames"],
            "paused_time_us": s["pfc"]["paused_time_ns"] / 1000,
            "incast_fct_mean_us": inc["fct_ns"]["mean"] / 1000, "incast_flows": inc["flows"],
            "incast_completed": inc["completed"], "drops_lossless": s["drops"]["lossless"],
            "drops_lossy": s["drops"]["lossy"],
            "lossless_mean_kb": s["occupancy_bytes"]["lossless"]["mean"] / 1024,
            "lossy_mean_kb": s["occupancy_bytes"]["lossy"]["mean"] / 1024}


# The artifact's (sigcomm-plots.py) short and long background flows: flowsize < 100000, > 1000000.
SHORT_BYTES, LONG_BYTES = 100_000, 1_000_000


def nearest_rank(xs, q):
    """The q-quantile by nearest rank, as summary.json's p99 (0 for no samples)."""
    xs = sorted(xs)
    return xs[max(0, int(np.ceil(q * len(xs))) - 1)] if xs else 0.0


def cc_metrics(s, d):
    """reverie_metrics plus what the closed-loop figures add: the 99th percentile FCT and
    slowdown of the short (< 100 KB) background flows that completed (Figs. 7c, 8c; from
    flows.csv), their 90th percentile slowdown (queueing, below the timeouts), the mean
    slowdown of the long (> 1 MB) ones that completed (Fig. 9c), the TCP
    retransmission timeouts, whether the run conserved packets (injected = delivered +
    dropped + buffered at the end), and the paper's occupancy metric (Figs. 7d/e, 8d/e, 9e,
    11d, 12d): the 99th percentile buffer occupancy of the lossless (RDMA) and lossy (TCP)
    class, shared part, as % of the switch buffer (of the most loaded switch on a fabric:
    summary.json's element-wise maximum)."""
    m = reverie_metrics(s)
    with open(os.path.join(d, "scenario.json")) as f:
        buffer = json.load(f)["mmu"]["buffer_bytes"]
    occ = s["occupancy_bytes"]
    fct, slow, n, long_slow = [], [], 0, []
    with open(os.path.join(d, "flows.csv")) as f:
        for r in csv.DictReader(f):
            if r["generator"] != "background":
                continue
            if int(r["bytes"]) < SHORT_BYTES:
                n += 1
                if r["fct_ns"]:
                    fct.append(float(r["fct_ns"]) / 1000)
                    slow.append(float(r["slowdown"]))
            elif int(r["bytes"]) > LONG_BYTES and r["fct_ns"]:
                long_slow.append(float(r["slowdown"]))
    pk = s["packets"]
    tr = s.get("transport", {})
    m.update(short_flows=n, short_completed=len(fct), short_fct_p99_us=nearest_rank(fct, 0.99),
             short_slowdown_p99=nearest_rank(slow, 0.99), short_slowdown_p90=nearest_rank(slow, 0.9),
             long_completed=len(long_slow), long_slowdown_mean=float(np.mean(long_slow)) if long_slow else 0.0,
             tcp_timeouts=sum(tr[t]["timeouts"] for t in ("cubic", "dctcp") if t in tr),
             conserved=int(pk["injected"] == pk["delivered"] + pk["dropped"] + pk["buffered_at_end"]),
             lossless_p99_pct=100.0 * occ["lossless"]["p99"] / buffer, lossy_p99_pct=100.0 * occ["lossy"]["p99"] / buffer)
    return m


def average(rows, keys, by):
    """Mean of the metric columns over seeds, grouped by `by` columns, in first-seen order."""
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r[k] for k in by), []).append(r)
    out = []
    for g, rs in groups.items():
        row = dict(zip(by, g))
        row["seeds"] = len(rs)
        for k in keys:
            row[k] = float(np.mean([r[k] for r in rs]))
        out.append(row)
    return out


def policy_sweep(name, xs, xkey, make, out, mmusim, jobs, seeds, metrics=None):
    runs = []
    for x in xs:
        for seed in seeds:
            for p in POLICIES:
                sc = make(x, seed)
                sc["admission"] = dict(sc.get("admission", {}), policy=p)
                runs.append(({xkey: x, "policy": p, "seed": seed}, sc))
    rows = [dict(label, **(metrics(s, d) if metrics else reverie_metrics(s)))
            for label, s, d in run_all(runs, out, mmusim, jobs)]
    write_csv(os.path.join(out, f"{name}-runs.csv"), rows)
    keys = [k for k in rows[0] if k not in (xkey, "policy", "seed")]
    avg = average(rows, keys, (xkey, "policy"))
    write_csv(os.path.join(out, f"{name}.csv"), avg)
    return avg


def plot_policies(avg, xkey, xlabel, path, title):
    """Pauses and incast FCT per policy; with cc_metrics' columns also the short background
    flows' 99th percentile slowdown (Figs. 7c, 8c) and the RDMA and TCP p99 occupancy
    (Figs. 7d/e, 8d/e)."""
    short = "short_slowdown_p99" in avg[0]
    panels = [("pfc_pauses", "PFC pauses (XOFF events)"), ("incast_fct_mean_us", "incast flow FCT, mean (us)")]
    if short:
        panels += [("short_slowdown_p99", "short (< 100 KB) background flows,\n99th pct FCT slowdown"),
                   ("lossless_p99_pct", "RDMA (lossless) p99 occupancy,\n% of the buffer"),
                   ("lossy_p99_pct", "TCP (lossy) p99 occupancy,\n% of the buffer")]
    rows = 2 if short else 1
    fig, axes = plt.subplots(rows, 3 if short else 2, figsize=(14 if short else 10, 3.8 * rows), squeeze=False)
    axes = axes.ravel()
    for ax, (col, label) in zip(axes, panels):
        for p in POLICIES:
            rs = [r for r in avg if r["policy"] == p]
            ax.plot([r[xkey] for r in rs], [r[col] for r in rs], "o-", label=p)
        ax.set_ylabel(label)
        ax.set_xlabel(xlabel)
        ax.grid(alpha=0.3)
        ax.legend()
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_gamma_sweep(avg, path, title):
    """Fig. 10's two panels (pauses, incast FCT) over k, gamma = 1 - 2^-k, from the averaged rows."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    x = [r["k"] for r in avg]
    axes[0].plot(x, [r["pfc_pauses"] for r in avg], "o-")
    axes[1].plot(x, [r["incast_fct_mean_us"] for r in avg], "o-")
    axes[0].set_ylabel("PFC pauses (XOFF events)")
    axes[1].set_ylabel("incast flow FCT, mean (us)")
    for ax in axes:
        ax.set_xlabel("k  (gamma = 1 - 2^-k)")
        ax.set_xticks(x)
        ax.set_xticklabels([f"{k}\n{1 - 2.0 ** -k:.6g}" for k in x], fontsize=7)
        ax.grid(alpha=0.3)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def compare_table(avg, xkey, xfmt):
    """Markdown table per x and policy, and Reverie's reductions vs DT and ABM: pauses summed
    over the grid, incast FCT (and, with cc_metrics, the short flows' p99 slowdown) averaged."""
    short = "short_slowdown_p99" in avg[0]
    lines = [f"| {xkey} | " + " | ".join(f"pauses {p}" for p in POLICIES) + " | "
             + " | ".join(f"FCT {p} (us)" for p in POLICIES) + " | "
             + ("".join(f"short p99 slowdown {p} | " for p in POLICIES) if short else "")
             + "incast flows done (" + "/".join(POLICIES) + ") |",
             "|" + "---|" * (2 + (3 if short else 2) * len(POLICIES))]
    by = {(r[xkey], r["policy"]): r for r in avg}
    for x in dict.fromkeys(r[xkey] for r in avg):
        lines.append(f"| {xfmt(x)} | " + " | ".join(f"{by[x, p]['pfc_pauses']:.1f}" for p in POLICIES) + " | "
                     + " | ".join(f"{by[x, p]['incast_fct_mean_us']:.1f}" for p in POLICIES) + " | "
                     + ("".join(f"{by[x, p]['short_slowdown_p99']:.2f} | " for p in POLICIES) if short else "")
                     + "/".join(f"{by[x, p]['incast_completed']:.0f}" for p in POLICIES)
                     + f" of {by[x, POLICIES[0]]['incast_flows']:.0f} |")

    def total(p, key, f):
        return f([r[key] for r in avg if r["policy"] == p])
    red = {}
    for key, col, f in (("pauses", "pfc_pauses", sum), ("fct", "incast_fct_mean_us", np.mean),
                        ("short", "short_slowdown_p99", np.mean)):
        if col in avg[0]:
            for other in ("dt", "abm"):
                red[f"{key}_vs_{other}"] = pct_less(total("reverie", col, f), total(other, col, f))
    return "\n".join(lines), red


def grid_mean(avg, policy, col):
    return float(np.mean([r[col] for r in avg if r["policy"] == policy]))


def short_flow_text(avg, red, name, xkey, xfmt, gamma):
    """What sets the short background flows' p99 (Figs. 7c, 8c), from the runs' counters;
    gamma = (grid point, gamma_k1's means there)."""
    m = {p: {c: grid_mean(avg, p, c) for c in ("short_slowdown_p90", "tcp_timeouts", "drops_lossy",
                                               "lossless_mean_kb", "short_flows")} for p in POLICIES}
    dt, abm, rv = m["dt"], m["abm"], m["reverie"]

    def cmp(a, b):
        return "below" if a < b else "above"
    text = f"""Short flows (the background's completed flows under 100 KB, the artifact's `flowsize < 100000`;
99th percentile, nearest rank, of FCT / ideal FCT per run, averaged over seeds): Reverie's p99
slowdown is {abs(red['short_vs_dt']):.1f} % {cmp(0, red['short_vs_dt'])} DT's and {abs(red['short_vs_abm']):.1f} % {cmp(0, red['short_vs_abm'])} ABM's.
The p99 of a run's ~{rv['short_flows']:.0f} short flows is its second or third slowest, and a short flow
that waits out one TCP timeout (minRTO 1 ms against an ideal FCT of a few us) has a slowdown
≥ 100. Reverie's runs have {rv['tcp_timeouts']:.1f} Cubic timeouts
on average against DT's {dt['tcp_timeouts']:.1f} and ABM's {abm['tcp_timeouts']:.1f}, from {rv['drops_lossy']:.0f} lossy drops against
{dt['drops_lossy']:.0f} and {abm['drops_lossy']:.0f}. Below the timeouts, at the 90th percentile (queueing), Reverie's
slowdown ({rv['short_slowdown_p90']:.2f}) is {cmp(rv['short_slowdown_p90'], dt['short_slowdown_p90'])} DT's ({dt['short_slowdown_p90']:.2f}; ABM {abm['short_slowdown_p90']:.2f})"""
    if rv["short_slowdown_p90"] < dt["short_slowdown_p90"]:
        text += ",\nthe paper's point that DT's lossy buffering delays short flows"
    text += "."
    x, k1 = gamma
    at = {p: next(r for r in avg if r["policy"] == p and r[xkey] == x) for p in POLICIES}
    extra = at["reverie"]["drops_lossy"] - at["dt"]["drops_lossy"]
    if extra <= 0:
        return text
    share = 100.0 * (at["reverie"]["drops_lossy"] - k1["drops_lossy"]) / extra
    part = (f"{share:.0f} % of them" if share < 100 else "all of them (with k = 1 Reverie drops fewer than DT)")
    text += f"""
At {xfmt(x)} Reverie drops {extra:.0f} more lossy packets per run than DT; the filter accounts for
{part}: with k = 1 (gamma = 0.5, q̂ ≈ q; `{name}-k1.csv`) Reverie drops {k1['drops_lossy']:.0f} per run, has
{k1['tcp_timeouts']:.1f} Cubic timeouts and a short-flow p99 slowdown of {k1['short_slowdown_p99']:.1f}, against {at['reverie']['drops_lossy']:.0f}, {at['reverie']['tcp_timeouts']:.1f} and
{at['reverie']['short_slowdown_p99']:.1f} at the default k = 10 (gamma 0.999; DT {at['dt']['drops_lossy']:.0f}, {at['dt']['tcp_timeouts']:.1f}, {at['dt']['short_slowdown_p99']:.1f}). A lossy
packet is dropped while q̂ > Γ; with gamma = 0.999 q̂ trails q, so a lossy queue overshoots Γ
before drops start, and as q̂ ≤ q (`clamp`) they go on until q itself is back at Γ: whole windows
lost, which fast retransmit cannot repair (the rule's consequence, not traced packet by packet)."""
    if share < 100:
        text += """ The rest comes with Reverie's Γ = α (b* − q*) / n_p over one shared pool against DT's own
lossy pool (not separated here)."""
    return text


def gamma_k1(name, x, make, out, mmusim, jobs, seeds):
    """Reverie with gamma = 0.5 (k = 1) at one grid point, every seed: what the filter does to
    the lossy class. Writes NAME-k1.csv; returns the means of cc_metrics over the seeds."""
    runs = []
    for seed in seeds:
        sc = make(x, seed)
        sc["admission"] = {"policy": "reverie", "ewma": {"k": 1}}
        runs.append(({"k": 1, "seed": seed}, sc))
    rows = [dict(label, **cc_metrics(s, d)) for label, s, d in run_all(runs, out, mmusim, jobs)]
    write_csv(os.path.join(out, f"{name}-k1.csv"), rows)
    return {c: float(np.mean([r[c] for r in rows])) for c in rows[0] if c not in ("k", "seed")}


# Occupancy statements (the paper's Figs. 7d/e, 8d/e, 9e, 11d, 12d) are checked on the 99th
# percentile occupancy of each class as % of the switch buffer (cc_metrics), averaged over seeds.
# Criteria ours, not the paper's: "small" = p99 under SMALL_PCT % of the buffer in every grid
# point; "grows" / "falls" = the last grid point's value above / below the first's by more than
# TREND_PP percentage points; "grows most" = grows by TREND_PP more than every other policy;
# "more buffer" = a higher mean over the grid; "unchanged" = equal at every grid point.
SMALL_PCT, TREND_PP = 25.0, 1.0
OCC = {"lossless_p99_pct": "RDMA", "lossy_p99_pct": "TCP"}


def occ_series(avg, policy, col):
    return [r[col] for r in avg if r["policy"] == policy]


def occ_trend(avg, xkey, policy, col, up):
    """(matches, ours) for "policy's col grows (up) / falls from the first grid point to the last"."""
    v = occ_series(avg, policy, col)
    ok = v[-1] > v[0] + TREND_PP if up else v[-1] < v[0] - TREND_PP
    return ok, f"{policy} {OCC[col]} p99 {v[0]:.1f} % → {v[-1]:.1f} %"


MEAN_COL = {"lossless_p99_pct": "lossless_mean_kb", "lossy_p99_pct": "lossy_mean_kb"}


def occ_more(avg, xkey, a, b, col):
    """(matches, ours) for "a gives col's class more buffer than b" (grid means of the p99; the
    time-average occupancy beside it)."""
    va, vb = (float(np.mean(occ_series(avg, p, col))) for p in (a, b))
    ma, mb = (float(np.mean(occ_series(avg, p, MEAN_COL[col]))) for p in (a, b))
    return va > vb, (f"{OCC[col]} p99, mean over the grid: {a} {va:.1f} %, {b} {vb:.1f} % (time-average occupancy: "
                     f"{a} {ma:.0f} KiB, {b} {mb:.0f} KiB)")


def tcp_more_why(avg, xkey):
    """Why DT does not give TCP more buffer than Reverie by the p99 (OCC_WHY["tcp-more"]): the
    model's reason, and the time-average occupancy where it does agree with the paper."""
    dt, rv = (float(np.mean(occ_series(avg, p, "lossy_mean_kb"))) for p in ("dt", "reverie"))
    text = TCP_MORE_WHY
    if dt > rv:
        text += f""" On the time average DT does hold more TCP bytes ({dt:.0f} against {rv:.0f} KiB, same
cell), as the paper says; the p99 is set by the peaks, where Reverie's late drops let the lossy
queues overshoot."""
    return text


def occ_small(avg, xkey, col):
    """(matches, ours) for "every policy keeps col's class under SMALL_PCT % of the buffer"."""
    top = {p: max(occ_series(avg, p, col)) for p in POLICIES}
    return (all(v < SMALL_PCT for v in top.values()),
            f"largest {OCC[col]} p99 over the grid: " + ", ".join(f"{p} {v:.1f} %" for p, v in top.items()))


def occ_grows_most(avg, xkey, col, policy):
    """(matches, ours) for "policy's col grows over the grid, by TREND_PP more than every other policy's"."""
    d = {p: occ_series(avg, p, col)[-1] - occ_series(avg, p, col)[0] for p in POLICIES}
    ok = d[policy] > TREND_PP and all(d[policy] > v + TREND_PP for p, v in d.items() if p != policy)
    return ok, f"{OCC[col]} p99 change, first to last point: " + ", ".join(f"{p} {v:+.1f} pp" for p, v in d.items())


def occ_unchanged(avg, xkey, policy, col):
    v = occ_series(avg, policy, col)
    return all(x == v[0] for x in v), f"{policy} {OCC[col]} p99 " + ", ".join(f"{x:.1f}" for x in v) + " %"


def occ_last_more(avg, xkey, a, b, col):
    """(matches, ours) for "at the last grid point a gives col's class more buffer than b"."""
    va, vb = occ_series(avg, a, col)[-1], occ_series(avg, b, col)[-1]
    return va > vb, f"{OCC[col]} p99 at the last point: {a} {va:.1f} %, {b} {vb:.1f} %"


def fig7_occupancy(avg, xkey):
    return [("7d-dt", "Fig. 7d", "DT's buffer for RDMA falls as the TCP load grows",
             occ_trend(avg, xkey, "dt", "lossless_p99_pct", False)),
            ("7e-dt", "Fig. 7e", "DT's buffer for TCP grows with the TCP load", occ_trend(avg, xkey, "dt", "lossy_p99_pct", True)),
            ("7d-rv", "Fig. 7d", "Reverie gives RDMA its fair share even at high TCP load (more than DT there)",
             occ_last_more(avg, xkey, "reverie", "dt", "lossless_p99_pct")),
            ("tcp-more", "Figs. 7c, 7e", "DT gives TCP more buffer than Reverie", occ_more(avg, xkey, "dt", "reverie", "lossy_p99_pct"))]


def fig8_occupancy(avg, xkey):
    return [("8d-rv", "Fig. 8d", "Reverie gives RDMA increasingly more buffer as the burst grows; DT and ABM fail to",
             occ_grows_most(avg, xkey, "lossless_p99_pct", "reverie")),
            ("tcp-more", "Fig. 8e", "DT gives TCP more buffer than Reverie", occ_more(avg, xkey, "dt", "reverie", "lossy_p99_pct"))]


def fig9_occupancy(avg, xkey):
    return [("9e-dt", "Fig. 9e", "a smaller lossy pool leaves TCP less buffer under DT", occ_trend(avg, xkey, "dt", "lossy_p99_pct", True)),
            ("9e-abm", "Fig. 9e", "a smaller lossy pool leaves TCP less buffer under ABM",
             occ_trend(avg, xkey, "abm", "lossy_p99_pct", True)),
            ("9e-rv", "Fig. 9e", "Reverie's buffer for TCP does not depend on the lossy pool",
             occ_unchanged(avg, xkey, "reverie", "lossy_p99_pct"))]


def tcp_incast_occupancy(avg, xkey, fig):
    return [("small", fig, "RDMA (PowerTCP) occupies a small portion of the buffer under every policy",
             occ_small(avg, xkey, "lossless_p99_pct"))]


# Why Reverie's TCP p99 can exceed DT's, from the model (tcp_more_why adds the time average).
TCP_MORE_WHY = """with α = 1 for both classes (§4.1), Reverie admits a lossy queue against
Γ = α (b* − q*) / n_p over its one shared pool b* (the whole ingress pool), DT against the egress
lossy pool, 80 % of it (docs/policies.md). So where the lossless class holds little of the pool,
Reverie's ceiling for n congested lossy queues, n / (n + 1) of b*, is above DT's, n / (n + 1) of
0.8 b*; only lossless occupancy, which lowers Reverie's b* − q* and not DT's lossy pool, turns it
round. Reverie also compares the filtered q̂ (γ = 0.999), which trails a growing lossy queue, so the
queue overshoots Γ before drops start (the short-flow paragraph)."""
def rdma_growth_why(avg, xkey):
    """Why DT's RDMA p99 grows with the burst about as Reverie's does (Fig. 8d, OCC_WHY["8d-rv"])."""
    d = {p: occ_series(avg, p, "lossless_p99_pct")[-1] - occ_series(avg, p, "lossless_p99_pct")[0] for p in POLICIES}
    return f"""DT's RDMA p99 grows with the burst about as much as Reverie's ({d['dt']:+.1f} against
{d['reverie']:+.1f} pp; ABM {d['abm']:+.1f} pp). With α = 1 (§4.1) and an incast's bytes in a few ingress PGs, DT's
Γ = α (b − q) and Reverie's α (b − q) / n_p (n_p small) are alike, so under both the burst's PGs take
a growing part of the pool; ABM's is also multiplied by its PGs' drain-rate share (docs/policies.md)
and grows least. What differs between DT and Reverie is how often that costs a pause (Reverie
compares q̂; the pauses table), not the occupancy reached."""


# Why an occupancy statement does not hold here, from the model (said only where it does not).
OCC_WHY = {"tcp-more": tcp_more_why, "8d-rv": rdma_growth_why}


def fabric_pool_edge(avg, xkey):
    """Why the fabric's RDMA p99 cannot separate DT and Reverie: both sit at the shared pool's edge."""
    pool = 100.0 * (paper_buffer() - (PAPER_HPL + PAPER_SPINES) * eta_bytes(SERVER_GBPS)) / paper_buffer()
    v = {p: occ_series(avg, p, "lossless_p99_pct") for p in ("dt", "reverie")}
    return f"""on the fabric the most loaded switch is the requester's leaf during a 2 MB
incast, and there the RDMA p99 of both DT ({', '.join(f'{x:.1f}' for x in v['dt'])} %) and Reverie
({', '.join(f'{x:.1f}' for x in v['reverie'])} %) sits near the edge of the shared (ingress) pool, {pool:.1f} % of the
buffer: the incast fills the pool under either policy, so the 99th percentile measures the pool's
size rather than either policy's allocation; the two differ in how often filling it pauses (the
table above)."""


def occupancy_text(avg, xkey, statements, why):
    """statements: [(key, figure, paper's statement, (matches, ours))]; why: {key: text, or a
    function of (avg, xkey) giving it} said for a statement that does not match (from the
    model), else nothing is claimed."""
    lines = ["| figure | paper | mmusim (p99 occupancy, % of the buffer) | match |", "|---|---|---|---|"]
    notes = []
    for key, fig, paper, (ok, ours) in statements:
        lines.append(f"| {fig} | {paper} | {ours} | {'yes' if ok else 'no'} |")
        if not ok:
            w = why.get(key, "not explained here.")
            notes.append(f"{fig} ({paper.rstrip('.')}): " + (w(avg, xkey) if callable(w) else w))
    text = ("Occupancy (the paper's metric: 99th percentile buffer occupancy of RDMA (lossless) and TCP\n"
            "(lossy) traffic, as % of the buffer; ours is the shared part, headroom excluded; criteria ours:\n"
            f"\"small\" = p99 under {SMALL_PCT:g} % at every grid point, \"grows\"/\"falls\" = last grid point vs first\n"
            f"by more than {TREND_PP:g} percentage point (\"grows most\": {TREND_PP:g} pp more than every other policy),\n"
            "\"more buffer\" = higher mean over the grid):\n\n" + "\n".join(lines))
    if notes:
        text += "\n\nWhere ours differs: " + "\n\n".join(notes)
    return text


def within_band(red, paper):
    """Every headline of `paper` in the paper's direction and within ±50 % of it."""
    return all(red[k] * v > 0 and abs(red[k] / v - 1) <= 0.5 for _, k, v in paper)


def paper_comparison(red, paper):
    """Rows setting our reductions beside the paper's: (label, key, paper %) -> markdown."""
    lines = ["| headline | paper | mmusim | relative difference | same direction, within ±50 % |",
             "|---|---|---|---|---|"]
    for label, key, p in paper:
        ours = red[key]
        if np.isnan(ours):   # nothing to reduce: the baseline is 0 as well
            lines.append(f"| {label} | {p:.1f} % | — (0 vs 0) | — | no |")
            continue
        rel = 100.0 * (ours / p - 1)
        ok = "yes" if ours * p > 0 and abs(rel) <= 50 else "no"
        lines.append(f"| {label} | {p:.1f} % | {ours:.1f} % | {rel:+.0f} % | {ok} |")
    return "\n".join(lines)


def sizes(full):
    if full:
        return dict(active_us=6000, seeds=list(range(1, 9)), queries=20)
    return dict(active_us=1800, seeds=[1, 2], queries=6)


FIG7_PAPER = [("Fig. 7a pauses, Reverie vs DT", "pauses_vs_dt", 60.0),
              ("Fig. 7a pauses, Reverie vs ABM", "pauses_vs_abm", 71.2),
              ("Fig. 7b incast FCT, Reverie vs DT", "fct_vs_dt", 18.5),
              ("Fig. 7b incast FCT, Reverie vs ABM", "fct_vs_abm", 18.2)]
# §4 (Q3): "improves the 99-percentile FCT for short flows of TCP by 42.7 % on average across
# various loads compared to DT" (Fig. 7c); fig7-cc only, the paper gives no number for Fig. 8c.
FIG7C_PAPER = [("Fig. 7c short-flow p99 FCT slowdown, Reverie vs DT", "short_vs_dt", 42.7)]
FIG8_PAPER = [("Fig. 8a pauses, Reverie vs DT", "pauses_vs_dt", 61.8),
              ("Fig. 8a pauses, Reverie vs ABM", "pauses_vs_abm", 57.4),
              ("Fig. 8b incast FCT, Reverie vs DT", "fct_vs_dt", 10.0),
              ("Fig. 8b incast FCT, Reverie vs ABM", "fct_vs_abm", 17.0)]


def pause_time_text(avg):
    """Reverie's XOFF count against its paused time (queue-us, summed over the grid) vs DT's:
    the pauses it saves are events, not necessarily time."""
    def tot(p, col):
        return sum(r[col] for r in avg if r["policy"] == p)
    n = {p: tot(p, "pfc_pauses") for p in ("dt", "reverie")}
    t = {p: tot(p, "paused_time_us") for p in ("dt", "reverie")}
    fewer = pct_less(t["reverie"], t["dt"])
    if not n["reverie"] or not n["dt"]:
        return f"""Summed over the grid Reverie has {n['reverie']:.0f} XOFFs and DT {n['dt']:.0f}."""
    return (f"""Summed over the grid Reverie's XOFFs are {pct_less(n['reverie'], n['dt']):.1f} % fewer than DT's but its paused time
(`paused_time_us`, queue-us) {'only ' if fewer >= 0 else ''}{abs(fewer):.1f} % {'less' if fewer >= 0 else 'more'}: its pauses last {t['reverie'] / n['reverie']:.1f} us on average against DT's
{t['dt'] / n['dt']:.1f} us, so it saves pause events more than paused time.""")


def reverie_fig7_cc(out, mmusim, jobs, full):
    """Fig. 7 with the paper's transports: DCQCN on the incast, Cubic on the background."""
    z = sizes(full)
    loads = [0.2, 0.4, 0.6, 0.8]
    name = "reverie-fig7-cc"

    def make(x, s):
        return reverie_scenario(f"fig7cc-l{int(x * 100)}-s{s}", x, 2_000_000, z["active_us"], s, queries=z["queries"],
                                out=os.path.join(work_dir(out), "traces"), transports=True)
    avg = policy_sweep(name, loads, "load", make, out, mmusim, jobs, z["seeds"], cc_metrics)
    k1 = gamma_k1(name, loads[-1], make, out, mmusim, jobs, z["seeds"])
    plot_policies(avg, "load", "websearch (lossy, Cubic) load", os.path.join(out, f"{name}.png"),
                  "Reverie Fig. 7 with DCQCN (incast) and Cubic (background)")

    def xfmt(x):
        return f"{int(x * 100)} % load"
    table, red = compare_table(avg, "load", lambda x: f"{int(x * 100)} %")
    fcts = [r["incast_fct_mean_us"] for r in avg]
    floor_us = 2_000_000 * 8 / (SERVER_GBPS * 1e3)
    by_load = {(r["load"], r["policy"]): r for r in avg}
    dt0, dtn = (next(r for r in avg if r["policy"] == "dt" and r["load"] == x) for x in (loads[0], loads[-1]))
    up = [p for p in POLICIES if by_load[loads[-1], p]["incast_fct_mean_us"] > by_load[loads[0], p]["incast_fct_mean_us"]]
    grows = "every policy" if len(up) == len(POLICIES) else ("policies " + ", ".join(up) if up else "no policy")
    text = f"""## Reverie Fig. 7 with DCQCN and Cubic: PFC pauses and incast FCT vs background load

`python3 -m traffic.experiments {name} --out docs/results --doc docs/results.md{' --full' if full else ''}`:
Fig. 7's set-up below (the §4.1 leaf as one switch, 2 MB query-response incast, websearch background),
now closed loop as the paper runs it: the incast (lossless TC 3) with DCQCN at Reverie's parameters
(`host.transport.dcqcn` defaults) and [31]'s RED-ECN marking on queue 3 (Kmin/Kmax 100/400 KB on the
25G server ports, 400/1600 KB on the 100G uplinks, Pmax 20 %), the background (lossy TC 1) with Cubic
(minRTO 1 ms); {z['queries']} queries in the first {z['active_us']} us, seeds {z['seeds']}.
Files: `{name}.csv`, `{name}-runs.csv`, `{name}-k1.csv`, `{name}.png`.

![](results/{name}.png)

{table}

{paper_comparison(red, FIG7_PAPER + FIG7C_PAPER)}

Relative difference = mmusim's reduction / the paper's − 1. The pause reductions are sums over
the grid, the FCT ones means over it (as the open-loop section).

{short_flow_text(avg, red, name, "load", xfmt, (loads[-1], k1))}

{occupancy_text(avg, "load", fig7_occupancy(avg, "load"), OCC_WHY)}

The pauses match the paper. The incast FCT gain has the paper's direction but is smaller. A
requester's 2 MB arrive through its one 25G port, which takes {floor_us:.0f} us at line rate, and
the mean answer FCT here is {min(fcts):.0f}–{max(fcts):.0f} us, so most of it is that port draining,
which no buffer policy changes. The rest is what the fabric breakdown measured (section "Why the
fabric's incast FCT does not move" below): websearch flows to the same host share the requester's
port, and a pause is short against the requester's queue. Here the FCT grows with the websearch
load under {grows} (DT {dt0['incast_fct_mean_us']:.0f} → {dtn['incast_fct_mean_us']:.0f} us from {int(loads[0] * 100)} to {int(loads[-1] * 100)} % load, as DT's mean
lossy occupancy grows {dt0['lossy_mean_kb']:.0f} → {dtn['lossy_mean_kb']:.0f} KiB). {pause_time_text(avg)} Neither is traced incast by incast in this
one-switch leaf. The fabric, where a pause can also spread to spines and other leaves, does not move
the FCT either: `reverie-fig7-fabric` below runs Fig. 7 on it (`scenarios/reverie_paper.json`,
docs/performance.md).
"""
    return avg, text


def reverie_fig8_cc(out, mmusim, jobs, full):
    """Fig. 8 with the paper's transports: 80 % websearch (Cubic, lossy), the DCQCN incast's
    file size varied (the artifact's 0.5, 1, 1.5 and 2 MB)."""
    z = sizes(full)
    bursts = [500_000, 1_000_000, 1_500_000, 2_000_000] if full else [500_000, 1_000_000, 2_000_000]
    name = "reverie-fig8-cc"

    def make(x, s):
        return reverie_scenario(f"fig8cc-b{x}-s{s}", 0.8, x, z["active_us"], s, queries=z["queries"],
                                out=os.path.join(work_dir(out), "traces"), transports=True)
    avg = policy_sweep(name, bursts, "burst_bytes", make, out, mmusim, jobs, z["seeds"], cc_metrics)
    k1 = gamma_k1(name, bursts[-1], make, out, mmusim, jobs, z["seeds"])

    def xfmt(x):
        return f"a {x / 1e6:g} MB burst"
    plot_policies(avg, "burst_bytes", "incast (DCQCN) burst (file) size, bytes", os.path.join(out, f"{name}.png"),
                  "Reverie Fig. 8 with DCQCN (incast) and Cubic (background, 80 % load)")
    table, red = compare_table(avg, "burst_bytes", lambda x: f"{x / 1e6:g} MB")
    by = {(r["burst_bytes"], r["policy"]): r for r in avg}
    b0 = {p: by[bursts[0], p] for p in POLICIES}
    text = f"""## Reverie Fig. 8 with DCQCN and Cubic: PFC pauses and incast FCT vs burst size

`python3 -m traffic.experiments {name} --out docs/results --doc docs/results.md{' --full' if full else ''}`:
the closed-loop Fig. 7 set-up above at 80 % websearch (Cubic, lossy) load, the DCQCN incast's file
(burst) size varied over {', '.join(f'{b / 1e6:g}' for b in bursts)} MB (`--full`: the artifact's 0.5–2 MB);
{z['queries']} queries in the first {z['active_us']} us, seeds {z['seeds']}.
Files: `{name}.csv`, `{name}-runs.csv`, `{name}-k1.csv`, `{name}.png`.

![](results/{name}.png)

{table}

{paper_comparison(red, FIG8_PAPER)}

{'The pauses match the paper.' if within_band(red, FIG8_PAPER[:2]) else 'The pauses miss the paper (table).'} Incast FCT: as in Fig. 7 above, an answer's FCT is mostly its
requester's 25G port draining the file ({', '.join(f'{b * 8 / (SERVER_GBPS * 1e3):.0f}' for b in bursts)} us at line rate for
{', '.join(f'{b / 1e6:g}' for b in bursts)} MB; mean FCT under ABM {', '.join(f"{by[b, 'abm']['incast_fct_mean_us']:.0f}" for b in bursts)} us), and an XOFF in this one-switch
leaf stops only the paused uplink's or server's NIC while the 25G port keeps draining what its
queue holds: at {bursts[0] / 1e6:g} MB ABM pauses {b0['abm']['pfc_pauses']:.0f} times and Reverie {b0['reverie']['pfc_pauses']:.0f}, and ABM's mean incast FCT is
{abs(pct_less(b0['abm']['incast_fct_mean_us'], b0['reverie']['incast_fct_mean_us'])):.1f} % {'below' if b0['abm']['incast_fct_mean_us'] < b0['reverie']['incast_fct_mean_us'] else 'above'} Reverie's. {pause_time_text(avg)} The fabric
breakdown (section "Why the fabric's incast FCT does not move" above) measured why pauses hardly
move the FCT there, where a pause can also spread to spines and other leaves: a pause is short
against the requester's queue, and what slows an incast is websearch to the same host sharing the
requester's port; not traced incast by incast in this one-switch leaf.

{short_flow_text(avg, red, name, "burst_bytes", xfmt, (bursts[-1], k1))}

{occupancy_text(avg, "burst_bytes", fig8_occupancy(avg, "burst_bytes"), OCC_WHY)}
"""
    return avg, text


def reverie_fig9(out, mmusim, jobs, full):
    """Fig. 9: egress lossy pool size (fraction of the ingress pool) varied; 80 % websearch
    (Cubic, lossy), 2 MB DCQCN incast."""
    z = sizes(full)
    fracs = [0.2, 0.4, 0.6, 0.8] if full else [0.2, 0.8]
    name = "reverie-fig9"
    avg = policy_sweep(name, fracs, "lossy_pool",
                       lambda x, s: reverie_scenario(f"fig9-p{int(x * 100)}-s{s}", 0.8, 2_000_000, z["active_us"], s,
                                                     queries=z["queries"], out=os.path.join(work_dir(out), "traces"),
                                                     transports=True, lossy_pool=x),
                       out, mmusim, jobs, z["seeds"], cc_metrics)
    plot_policies(avg, "lossy_pool", "egress lossy pool (fraction of the ingress pool)", os.path.join(out, f"{name}.png"),
                  "Reverie Fig. 9: egress lossy pool size, 80 % websearch (Cubic) + 2 MB DCQCN incast")
    table, red = compare_table(avg, "lossy_pool", lambda x: f"{int(x * 100)} %")
    by = {(r["lossy_pool"], r["policy"]): r for r in avg}
    lo, hi = fracs[0], fracs[-1]
    lines = ["| lossy pool | " + " | ".join(f"long-flow slowdown {p}" for p in POLICIES) + " | "
             + " | ".join(f"lossy mean KiB {p}" for p in POLICIES) + " |", "|" + "---|" * (1 + 2 * len(POLICIES))]
    for x in fracs:
        lines.append(f"| {int(x * 100)} % | " + " | ".join(f"{by[x, p]['long_slowdown_mean']:.2f}" for p in POLICIES) + " | "
                     + " | ".join(f"{by[x, p]['lossy_mean_kb']:.0f}" for p in POLICIES) + " |")

    same_rv = ("Reverie's runs are identical at every pool size: it admits lossy queues against its one\nshared pool."
               if all(by[x, "reverie"][c] == by[hi, "reverie"][c] for x in fracs
                      for c in ("pfc_pauses", "incast_fct_mean_us", "drops_lossy"))
               else "Reverie's runs differ between pool sizes.")

    def change(p, col):
        return 100.0 * (by[lo, p][col] / by[hi, p][col] - 1) if by[hi, p][col] else float("nan")
    text = f"""## Reverie Fig. 9 with DCQCN and Cubic: egress lossy pool size

`python3 -m traffic.experiments {name} --out docs/results --doc docs/results.md{' --full' if full else ''}`:
the closed-loop Fig. 7 set-up at 80 % websearch (Cubic, lossy) load and a 2 MB DCQCN incast, the
egress lossy pool set to {', '.join(f'{int(x * 100)}' for x in fracs)} % of the ingress pool (`BUFFER_POOL.egress_lossy_pool.size`;
Reverie has one shared pool and does not use it); {z['queries']} queries in the first {z['active_us']} us, seeds {z['seeds']}.
Files: `{name}.csv`, `{name}-runs.csv`, `{name}.png`.

![](results/{name}.png)

{table}

Long background (TCP) flows, > 1 MB, completed (the artifact's `flowsize > 1000000`; Fig. 9c), mean
slowdown, and the mean lossy occupancy (Fig. 9e):

{chr(10).join(lines)}

Paper: shrinking the lossy pool lets DT and ABM pause less (Fig. 9a) and finish RDMA incasts sooner,
at the cost of TCP's long flows (Fig. 9c); Reverie does not depend on it. Ours, from {int(hi * 100)} % to
{int(lo * 100)} %: pauses DT {change('dt', 'pfc_pauses'):+.1f} %, ABM {change('abm', 'pfc_pauses'):+.1f} %, Reverie {change('reverie', 'pfc_pauses'):+.1f} %; incast FCT DT
{change('dt', 'incast_fct_mean_us'):+.1f} %, ABM {change('abm', 'incast_fct_mean_us'):+.1f} %, Reverie {change('reverie', 'incast_fct_mean_us'):+.1f} %; long-flow slowdown DT
{change('dt', 'long_slowdown_mean'):+.1f} %, ABM {change('abm', 'long_slowdown_mean'):+.1f} %, Reverie {change('reverie', 'long_slowdown_mean'):+.1f} %. {same_rv}

{occupancy_text(avg, "lossy_pool", fig9_occupancy(avg, "lossy_pool"), OCC_WHY)}
"""
    return avg, text


def gamma_sweep(name, runs, out, mmusim, jobs, title, extra=lambda s: {}):
    """Runs a Fig. 10 sweep (labels k, gamma, seed) with cc_metrics plus extra(summary);
    writes NAME-runs.csv, NAME.csv (means over seeds) and NAME.png; returns the means."""
    rows = [dict(label, **cc_metrics(s, d), **extra(s)) for label, s, d in run_all(runs, out, mmusim, jobs)]
    write_csv(os.path.join(out, f"{name}-runs.csv"), rows)
    avg = average(rows, [c for c in rows[0] if c not in ("k", "gamma", "seed")], ("k", "gamma"))
    write_csv(os.path.join(out, f"{name}.csv"), avg)
    plot_gamma_sweep(avg, os.path.join(out, f"{name}.png"), title)
    return avg


def gamma_table(avg, occ_header, occ_cell):
    """Markdown rows of a Fig. 10 sweep; occ_cell(row) fills the occupancy column."""
    lines = [f"| k | gamma | PFC pauses | incast FCT mean (us) | incast flows done | {occ_header} | "
             "lossless drops | conserved |", "|---|---|---|---|---|---|---|---|"]
    for r in avg:
        lines.append(f"| {r['k']} | {r['gamma']:.6f} | {r['pfc_pauses']:.1f} | {r['incast_fct_mean_us']:.1f} | "
                     f"{r['incast_completed']:.0f} of {r['incast_flows']:.0f} | {occ_cell(r)} | "
                     f"{r['drops_lossless']:.0f} | {r['conserved']:.0%} |")
    return lines


def gamma_headlines(avg):
    """Fig. 10's two statements as headline rows: pauses fall as gamma grows (the paper gives no
    number), and the incast FCT is 9 % higher at gamma 0.999999 (k = 20) than at 0.999 (k = 10)."""
    by = {r["k"]: r for r in avg}
    first, last = avg[0], avg[-1]
    k10 = by.get(10, last)
    lines = ["| headline | paper | mmusim (change) | relative difference | same direction, within ±50 % |",
             "|---|---|---|---|---|"]
    for r in (k10, last):
        ch = 100 * (r["pfc_pauses"] / first["pfc_pauses"] - 1)
        lines.append(f"| Fig. 10 pauses, k = {r['k']} vs k = {first['k']} (gamma {r['gamma']:.6g} vs {first['gamma']:.3g}) | fall (no number) "
                     f"| {ch:+.1f} % | — | {'yes (direction)' if ch < 0 else 'no'} |")
    ch = 100 * (last["incast_fct_mean_us"] / k10["incast_fct_mean_us"] - 1)
    rel = 100 * (ch / 9.0 - 1)
    lines.append(f"| Fig. 10 incast FCT, k = {last['k']} vs k = {k10['k']} (gamma {last['gamma']:.6g} vs {k10['gamma']:.6g}) | +9.0 % "
                 f"| {ch:+.1f} % | {rel:+.0f} % | {'yes' if ch > 0 and abs(rel) <= 50 else 'no'} |")
    return "\n".join(lines)


def paused_time_fct_text(name, out, k10, last):
    """Fig. 10 closed loop: the incast FCT against the run's paused time over the sweep, seed by
    seed (the same traffic at every k), from NAME-runs.csv."""
    with open(os.path.join(out, f"{name}-runs.csv")) as f:
        runs = [{c: float(v) for c, v in r.items()} for r in csv.DictReader(f)]
    seeds = sorted({r["seed"] for r in runs})
    rs, fall_t, fall_f = [], 0, 0
    for sd in seeds:
        rr = sorted((r for r in runs if r["seed"] == sd), key=lambda r: r["k"])
        rs.append(float(np.corrcoef([r["paused_time_us"] for r in rr], [r["incast_fct_mean_us"] for r in rr])[0, 1]))
        a = next(r for r in rr if r["k"] == k10["k"])
        b = next(r for r in rr if r["k"] == last["k"])
        fall_t += b["paused_time_us"] < a["paused_time_us"]
        fall_f += b["incast_fct_mean_us"] < a["incast_fct_mean_us"]
    strong = sum(r >= 0.7 for r in rs)
    floor = 2_000_000 * 8 / (SERVER_GBPS * 1e3)
    per = {r["k"]: r["paused_time_us"] / r["pfc_pauses"] for r in (k10, last)}
    text = f"""The incast FCT follows the paused time (`paused_time_us`, queue-us), not the XOFF count. Seed by
seed (the same traffic at every k), the FCT over the sweep correlates with the run's paused time
with r ≥ 0.7 in {strong} of {len(seeds)} seeds (r from {min(rs):.2f} to {max(rs):.2f}; `{name}-runs.csv`). From k = {k10['k']} to
k = {last['k']} the XOFFs rise ({k10['pfc_pauses']:.0f} → {last['pfc_pauses']:.0f}) but the paused time falls in {fall_t} of {len(seeds)} seeds
({k10['paused_time_us']:.0f} → {last['paused_time_us']:.0f} queue-us on average) and the FCT in {fall_f} of {len(seeds)}: with the pool full a
pause ends at the paused queue's next departure (the open-loop section's XON), {per[last['k']]:.1f} us per XOFF at k = {last['k']}
against {per[k10['k']]:.1f} us at k = {k10['k']}."""
    if last["incast_fct_mean_us"] < k10["incast_fct_mean_us"]:
        text += f""" So the extra pauses at large gamma cost the answers less paused time than
the longer ones they replace, and the paper's +9 % does not appear. The FCT stays
{min(r['incast_fct_mean_us'] for r in (k10, last)) - floor:.0f}–{max(r['incast_fct_mean_us'] for r in (k10, last)) - floor:.0f} us above the {floor:.0f} us a 2 MB answer takes through the requester's 25G port."""
    text += """ That a pause costs the answers by its length (it holds them at the
paused NIC) is a reading of these counters, not traced incast by incast."""
    return text


def reverie_fig10_cc(out, mmusim, jobs, full):
    """Fig. 10 closed loop: Reverie, websearch RDMA (DCQCN, lossless) at 80 % + the 2 MB DCQCN
    incast, gamma = 1 - 2^-k."""
    z = sizes(full)
    ks = [1, 3, 5, 7, 10, 13, 17, 20] if full else [1, 7, 10, 20]
    name = "reverie-fig10-cc"
    runs = []
    for k in ks:
        for s in z["seeds"]:
            sc = reverie_scenario(f"fig10cc-s{s}", 0.8, 2_000_000, z["active_us"], s, bg_dscp=LOSSLESS_DSCP,
                                  queries=z["queries"], out=os.path.join(work_dir(out), "traces"), transports=True)
            sc["admission"] = {"policy": "reverie", "ewma": {"k": k}}
            runs.append(({"k": k, "gamma": 1 - 2.0 ** -k, "seed": s}, sc))
    pool = int(runs[0][1]["buffer"]["BUFFER_POOL"]["ingress_lossless_pool"]["size"])
    avg = gamma_sweep(name, runs, out, mmusim, jobs,
                      "Reverie Fig. 10 with DCQCN: gamma sweep, websearch RDMA 80 % + 2 MB RDMA incast",
                      lambda s: {"pool_p99_pct": 100.0 * s["pools_bytes"]["ingress_lossless_pool"]["p99"] / pool,
                                 "pool_max_pct": 100.0 * s["pools_bytes"]["ingress_lossless_pool"]["max"] / pool})
    lines = gamma_table(avg, "shared pool p99 / max (%)", lambda r: f"{r['pool_p99_pct']:.0f} / {r['pool_max_pct']:.0f}")
    first, k10, last = avg[0], next(r for r in avg if r["k"] == 10), avg[-1]
    best = min(avg, key=lambda r: r["incast_fct_mean_us"])
    fewest = min(avg, key=lambda r: r["pfc_pauses"])
    text = f"""## Reverie Fig. 10 with DCQCN: gamma (admission.ewma.k) sweep

`python3 -m traffic.experiments {name} --out docs/results --doc docs/results.md{' --full' if full else ''}`:
the paper's Fig. 10 set-up closed loop: Reverie, websearch background on the lossless class (TC 3) at
80 % with DCQCN and the 2 MB query-response incast on the same class, also DCQCN (WRED/ECN as in
Fig. 7 with DCQCN); gamma = 1 - 2^-k; {z['queries']} queries in the first {z['active_us']} us, seeds {z['seeds']}.
Files: `{name}.csv`, `{name}-runs.csv`, `{name}.png`.

![](results/{name}.png)

{chr(10).join(lines)}

Paper: PFC pauses fall dramatically as gamma grows; incast FCT falls until gamma = 0.999 and is
9 % higher at 0.999999. Ours: pauses {first['pfc_pauses']:.0f} at k = {first['k']} (gamma {first['gamma']:.3g}),
{k10['pfc_pauses']:.0f} at k = 10 (0.999), {last['pfc_pauses']:.0f} at k = {last['k']} (gamma {last['gamma']:.7f});
incast FCT lowest at k = {best['k']} ({best['incast_fct_mean_us']:.0f} us); at k = {last['k']} vs k = 10:
{100 * (last['incast_fct_mean_us'] / k10['incast_fct_mean_us'] - 1):+.1f} % (paper: +9 %){f", vs k = {best['k']}: {100 * (last['incast_fct_mean_us'] / best['incast_fct_mean_us'] - 1):+.1f} %" if best is not last else ""}.

{gamma_headlines(avg)}

Pauses are fewest at k = {fewest['k']}; past it they rise again as the shared pool stays full (pool p99
{fewest['pool_p99_pct']:.0f} % at k = {fewest['k']}, {last['pool_p99_pct']:.0f} % at k = {last['k']}): q̂ hardly moves, so the lossless queues grow until the
pool is full and each arrival then fails the pool check (XOFF), the open-loop section's mechanism,
which DCQCN's marking (100–400 KB per 25G queue) does not prevent here.

{paused_time_fct_text(name, out, k10, last)}
"""
    return avg, text


# Figs. 11 and 12 swap the classes' roles: websearch RDMA with PowerTCP (INT) on the lossless
# class, the query-response incast as TCP (Cubic, lossy).
FIG11_PAPER = [("Fig. 11a pauses, Reverie vs ABM", "pauses_vs_abm", 100.0),
               ("Fig. 11b incast FCT, Reverie vs DT", "fct_vs_dt", 33.7)]
FIG12_PAPER = [("Fig. 12a pauses, Reverie vs ABM", "pauses_vs_abm", 100.0),
               ("Fig. 12b incast FCT, Reverie vs DT, largest reduction over the bursts", "fct_vs_dt_max", 30.0)]


def tcp_incast_scenario(name, load, burst_bytes, z, seed, out):
    return reverie_scenario(name, load, burst_bytes, z["active_us"], seed, bg_dscp=LOSSLESS_DSCP, queries=z["queries"],
                            out=os.path.join(work_dir(out), "traces"), transports=True, rdma="powertcp",
                            incast_dscp=LOSSY_DSCP)


def tcp_incast_text(out, name, xkey, k1=None, avg=None):
    """What sets the TCP incast's FCT in Figs. 11 and 12, from every run: losses and timeouts;
    k1 = (grid point, its label, gamma_k1's means there) adds Reverie at gamma = 0.5."""
    with open(os.path.join(out, f"{name}-runs.csv")) as f:
        rows = list(csv.DictReader(f))
    by = {(r[xkey], r["seed"], r["policy"]): r for r in rows}
    keys = sorted({(r[xkey], r["seed"]) for r in rows})
    st = {p: {"drop_runs": sum(int(by[k + (p,)]["drops_lossy"]) > 0 for k in keys),
              "timeouts": sum(int(by[k + (p,)]["tcp_timeouts"]) for k in keys),
              "drops": np.mean([int(by[k + (p,)]["drops_lossy"]) for k in keys])} for p in POLICIES}
    same = [k for k in keys if by[k + ("dt",)]["incast_fct_mean_us"] == by[k + ("reverie",)]["incast_fct_mean_us"]]
    clean = [k for k in keys if int(by[k + ("dt",)]["drops_lossy"]) == 0 == int(by[k + ("reverie",)]["drops_lossy"])]
    dt, abm, rv = st["dt"], st["abm"], st["reverie"]
    ll = np.mean([float(r["lossless_mean_kb"]) for r in rows])
    n_paused = sum(float(r["pfc_pauses"]) > 0 for r in rows if r["policy"] in ("dt", "reverie"))
    pauses = (f"DT and Reverie pause in {n_paused} of their {2 * len(keys)} runs" if n_paused
              else "neither DT nor Reverie pauses")
    text = f"""What sets the TCP incast's FCT here is loss: PowerTCP keeps the lossless class's queues short (mean
lossless occupancy {ll:.0f} KiB over the runs) and {pauses}, so little else
differs between them, and a lost answer packet that fast retransmit does not
repair waits out a 1 ms minRTO (a 1.5 MB file takes 480 us through the requester's 25G port).
Over the {len(keys)} ({xkey}, seed) runs, DT dropped lossy packets in {dt['drop_runs']} ({dt['timeouts']} TCP timeouts in all),
Reverie in {rv['drop_runs']} ({rv['timeouts']} timeouts), ABM in {abm['drop_runs']} ({abm['timeouts']} timeouts, {abm['drops']:.0f} drops per run against
DT's {dt['drops']:.0f} and Reverie's {rv['drops']:.0f})."""
    if clean:
        text += f""" In the {len(clean)} runs where neither DT nor Reverie dropped, {sum(k in same for k in clean)} have
identical incast FCTs under both; the differences come from the other runs."""
    if dt["drop_runs"] and rv["drop_runs"] and rv["timeouts"] / rv["drop_runs"] > dt["timeouts"] / dt["drop_runs"]:
        text += f"""
A run with drops cost DT {dt['timeouts'] / dt['drop_runs']:.1f} timeouts and Reverie {rv['timeouts'] / rv['drop_runs']:.1f} on average (Reverie drops while
its filtered q̂ stays above Γ, and q̂ follows q slowly, so its losses may come in longer runs that
fast retransmit cannot repair; not traced further here)."""
    if k1:
        x, label, m = k1
        at = {p: next(r for r in avg if r["policy"] == p and r[xkey] == x) for p in POLICIES}
        text += f"""
At {label}, Reverie with k = 1 (gamma = 0.5, q̂ ≈ q; `{name}-k1.csv`) drops {m['drops_lossy']:.0f} lossy packets per run,
has {m['tcp_timeouts']:.1f} TCP timeouts and a mean incast FCT of {m['incast_fct_mean_us']:.0f} us, against {at['reverie']['drops_lossy']:.0f}, {at['reverie']['tcp_timeouts']:.1f} and
{at['reverie']['incast_fct_mean_us']:.0f} us at the default k = 10 (DT {at['dt']['drops_lossy']:.0f}, {at['dt']['tcp_timeouts']:.1f}, {at['dt']['incast_fct_mean_us']:.0f} us)."""
        gain = pct_less(at["reverie"]["incast_fct_mean_us"], m["incast_fct_mean_us"])
        if gain > 0 and at["dt"]["incast_fct_mean_us"] <= 1.02 * at["reverie"]["incast_fct_mean_us"]:
            text += f""" So the filter does absorb the
answers (incast FCT {gain:.1f} % below gamma = 0.5's, the paper's burst absorption), but DT's lossy
queues, each drawing on the egress lossy pool at α = 1, absorb them as well in this leaf."""
    fct = {p: np.mean([float(by[k + (p,)]["incast_fct_mean_us"]) for k in keys]) for p in POLICIES}
    if max(fct, key=fct.get) == "abm":
        text += """ ABM is the slowest because it drops most: its lossy threshold is divided by the number of
congested queues and scaled by the queue's drain rate, and the larger α ABM gives a flow's first
BDP (what lets ABM absorb TCP incasts in its paper) is not modelled (docs/policies.md)."""
    return text


def reverie_fig11(out, mmusim, jobs, full):
    """Fig. 11: websearch RDMA (PowerTCP, lossless) at loads 20-80 %, 1.5 MB TCP (Cubic) incast."""
    z = sizes(full)
    loads = [0.2, 0.4, 0.6, 0.8] if full else [0.2, 0.8]
    name = "reverie-fig11"
    def make(x, s):
        return tcp_incast_scenario(f"fig11-l{int(x * 100)}-s{s}", x, 1_500_000, z, s, out)
    avg = policy_sweep(name, loads, "load", make, out, mmusim, jobs, z["seeds"], cc_metrics)
    k1 = (loads[-1], f"{int(loads[-1] * 100)} % load", gamma_k1(name, loads[-1], make, out, mmusim, jobs, z["seeds"]))
    plot_policies(avg, "load", "websearch (lossless, PowerTCP) load", os.path.join(out, f"{name}.png"),
                  "Reverie Fig. 11: 1.5 MB TCP (Cubic, lossy) incast over websearch RDMA (PowerTCP)")
    table, red = compare_table(avg, "load", lambda x: f"{int(x * 100)} %")
    text = f"""## Reverie Fig. 11: TCP incast over PowerTCP RDMA, vs RDMA load

`python3 -m traffic.experiments {name} --out docs/results --doc docs/results.md{' --full' if full else ''}`:
the §4.1 leaf of Fig. 7 with the classes' roles swapped as in the paper: websearch background on the
lossless class (TC 3) with PowerTCP (`host.transport.powertcp` defaults, INT on TC 3: `int.enabled_classes`),
load varied over {', '.join(f'{int(x * 100)}' for x in loads)} %; the query-response incast of a 1.5 MB file on the lossy class
(TC 1) with Cubic (minRTO 1 ms); {z['queries']} queries in the first {z['active_us']} us, seeds {z['seeds']}.
"Short p99 slowdown" is here that of the RDMA background's flows under 100 KB (the paper's Fig. 11c).
Files: `{name}.csv`, `{name}-runs.csv`, `{name}-k1.csv`, `{name}.png`.

![](results/{name}.png)

{table}

{paper_comparison(red, FIG11_PAPER)}

{occupancy_text(avg, "load", tcp_incast_occupancy(avg, "load", "Fig. 11d"), OCC_WHY)}

Reverie vs ABM incast FCT {red['fct_vs_abm']:.1f} % (paper: 1.08 %, Reverie and ABM alike); DT and Reverie pause
{'alike' if abs(sum(r['pfc_pauses'] for r in avg if r['policy'] == 'dt') - sum(r['pfc_pauses'] for r in avg if r['policy'] == 'reverie')) < 1 else 'differently'} (paper: similar).

{tcp_incast_text(out, name, "load", k1, avg)}
Here each answer comes over the leaf's 4 uplinks (4 flows); `reverie-fig11-fabric` below answers
from the 16 servers of another leaf as the paper does, with the same outcome.
"""
    return avg, text


def reverie_fig12(out, mmusim, jobs, full):
    """Fig. 12: websearch RDMA (PowerTCP, lossless) at 80 %, TCP (Cubic) incast size varied."""
    z = sizes(full)
    bursts = [250_000, 500_000, 1_000_000, 1_500_000] if full else [250_000, 1_500_000]
    name = "reverie-fig12"
    def make(x, s):
        return tcp_incast_scenario(f"fig12-b{x}-s{s}", 0.8, x, z, s, out)
    avg = policy_sweep(name, bursts, "burst_bytes", make, out, mmusim, jobs, z["seeds"], cc_metrics)
    k1 = (bursts[-1], f"{bursts[-1] / 1e6:g} MB", gamma_k1(name, bursts[-1], make, out, mmusim, jobs, z["seeds"]))
    plot_policies(avg, "burst_bytes", "TCP incast burst (file) size, bytes", os.path.join(out, f"{name}.png"),
                  "Reverie Fig. 12: TCP (Cubic, lossy) incast over websearch RDMA (PowerTCP) at 80 %")
    table, red = compare_table(avg, "burst_bytes", lambda x: f"{x / 1e6:g} MB")
    by = {(r["burst_bytes"], r["policy"]): r for r in avg}
    per = {b: pct_less(by[b, "reverie"]["incast_fct_mean_us"], by[b, "dt"]["incast_fct_mean_us"]) for b in bursts}
    red["fct_vs_dt_max"] = max(per.values())
    text = f"""## Reverie Fig. 12: TCP incast over PowerTCP RDMA, vs TCP burst size

`python3 -m traffic.experiments {name} --out docs/results --doc docs/results.md{' --full' if full else ''}`:
as Fig. 11 above at 80 % RDMA (PowerTCP, lossless) load, the TCP (Cubic, lossy) incast's file size
varied over {', '.join(f'{b / 1e6:g}' for b in bursts)} MB (the paper's axis; the artifact's first point is 12.5 KB, labelled 0.25);
{z['queries']} queries in the first {z['active_us']} us, seeds {z['seeds']}.
Files: `{name}.csv`, `{name}-runs.csv`, `{name}-k1.csv`, `{name}.png`.

![](results/{name}.png)

{table}

{paper_comparison(red, FIG12_PAPER)}

{occupancy_text(avg, "burst_bytes", tcp_incast_occupancy(avg, "burst_bytes", "Fig. 12d"), OCC_WHY)}

Reverie vs DT incast FCT per burst: {', '.join(f'{b / 1e6:g} MB {v:+.1f} %' for b, v in per.items())} (reduction; paper: up to 30 %
for large bursts, Reverie and ABM alike).

{tcp_incast_text(out, name, "burst_bytes", k1, avg)}
"""
    return avg, text


def fabric_sweep(name, xs, xkey, seeds, make, out, mmusim, jobs, xlabel, title, xfmt):
    """A policy sweep on the fabric (make(x, seed) -> scenario) with cc_metrics: CSVs, PNG, and
    compare_table's (table, reductions). Returns (avg, table, reductions)."""
    avg = policy_sweep(name, xs, xkey, make, out, mmusim, jobs, seeds, cc_metrics)
    plot_policies(avg, xkey, xlabel, os.path.join(out, f"{name}.png"), title)
    table, red = compare_table(avg, xkey, xfmt)
    return avg, table, red


def tcp_incast_fabric(tag, load, burst_bytes, duration_us, seed, out, qps):
    """Figs. 11 and 12 on the fabric: websearch RDMA (PowerTCP, lossless), TCP (Cubic) incast."""
    return paper_scenario(tag, load, burst_bytes, duration_us, seed, os.path.join(work_dir(out), "traces"),
                          rdma="powertcp", queries_per_s=qps, tcp_incast=True)


def reverie_fig7_fabric(out, mmusim, jobs, full):
    """Fig. 7 points on the paper's 256-host fabric (paper_scenario), DCQCN and Cubic."""
    loads = [0.4, 0.8] if full else [0.8]
    seeds = [1, 2, 3, 4] if full else [1]
    duration_us, qps = 6000, 20.0
    name = "reverie-fig7-fabric"
    def make(x, s):
        return paper_scenario(f"fab-l{int(x * 100)}-s{s}", x, 2_000_000, duration_us, s,
                              os.path.join(work_dir(out), "traces"), queries_per_s=qps)
    avg, table, red = fabric_sweep(
        name, loads, "load", seeds, make, out, mmusim, jobs, "websearch (lossy, Cubic) load",
        "Reverie Fig. 7 points on the 256-host fabric (DCQCN incast, Cubic background)", lambda x: f"{int(x * 100)} %")
    k1 = (f"{int(loads[-1] * 100)} % load", "load", loads[-1], gamma_k1(name, loads[-1], make, out, mmusim, jobs, seeds))
    text = f"""## Reverie Fig. 7 on the 256-host fabric (DCQCN and Cubic)

`python3 -m traffic.experiments {name} --out docs/results --doc docs/results.md{' --full' if full else ''}`:
`paper_scenario`, the §4.1 fabric of `scenarios/reverie_paper.json` (16 leaves x 4 spines, 256 hosts at
25G, docs/performance.md), {duration_us} us per run, the query rate time-compressed to {qps:g} queries/s/server
(the paper's 2 would give about 6 queries fabric-wide in a run) so that each run holds some 28 incasts
of a 2 MB file from the 16 servers of a random other leaf; loads {loads}, seeds {seeds}; flows started
late in the run may not finish. Files: `{name}.csv`, `{name}-runs.csv`, `{name}-k1.csv`, `{name}.png`.

![](results/{name}.png)

{table}

{paper_comparison(red, FIG7_PAPER + FIG7C_PAPER)}

Unlike the one-switch leaf above, a pause here can spread: a leaf's XOFF stops a spine's egress,
whose queue fills and pauses the other leaves' uplinks. {fabric_pause_text(red, avg, FIG7_PAPER)}

{fabric_fct_text(avg, "load", lambda x: 2_000_000, lambda x: f"{int(x * 100)} % load, 2 MB")}

{short_flow_fabric_text(avg, red, name, k1)}

{occupancy_text(avg, "load", fig7_occupancy(avg, "load"), dict(OCC_WHY, **dict.fromkeys(("7d-dt", "7d-rv"), fabric_pool_edge(avg, "load"))))}
"""
    return avg, text


def paper_rate_metrics(s, d):
    """cc_metrics plus the incast's 99th percentile FCT and mean slowdown (the paper's metric, FCT
    over the flow alone on its path), the queries, and the run's speed (summary.json's simulation
    loop wall time, packet-hops and their ratio)."""
    m = cc_metrics(s, d)
    inc = s["generators"]["incast"]
    m.update(incast_fct_p99_us=inc["fct_ns"]["p99"] / 1000, incast_slowdown_mean=inc["slowdown"]["mean"],
             queries=inc["flows"] / PAPER_HPL, wall_s=s["wall_time_s"], hops=s["packets"]["hops"],
             hops_per_s=s["packets"]["hops"] / s["wall_time_s"])
    return m


def reverie_fig7_paper(out, mmusim, jobs, full):
    """Fig. 7 at 80 % load on the fabric at the paper's query rate, 2 queries/s/server (the
    -fabric experiments compress time 10 x): flows start in the first `launch` ms, the run goes on
    for a tail so that they finish; one run at a time (each is long)."""
    return fig7_at_paper_rate(out, mmusim, "reverie-fig7-paper", "pap", 300_000 if full else 10_000, 10_000,
                              [1, 2] if full else [1], full,
                              "Reverie Fig. 7 on the 256-host fabric at the paper's query rate", "below")


def reverie_fig7_artifact(out, mmusim, jobs, full):
    """reverie-fig7-paper for as long as the artifact simulates: flows launched for 2 s, 1 s more
    for them to finish (quick: 10 ms and 10 ms); one seed, one run at a time."""
    return fig7_at_paper_rate(out, mmusim, "reverie-fig7-artifact", "art", 2_000_000 if full else 10_000,
                              1_000_000 if full else 10_000, [1], full,
                              "Reverie Fig. 7 on the 256-host fabric for the artifact's length", "above")


def count(x):
    """A large count as the doc writes it: 2.12 M, 39 737."""
    return f"{x / 1e6:.2f} M" if x >= 1e6 else f"{x:,.0f}".replace(",", " ")


def paper_rate_short_text(by, red):
    """Fig. 7c at the paper's rate: the short flows' p99 and what the runs' counters say sets it."""
    dt, abm, rv = by["dt"], by["abm"], by["reverie"]

    def rel(a, b):
        return f"{abs(100 * (a / b - 1)):.1f} % {'above' if a > b else 'below'}"
    text = f"""Short flows (Fig. 7c; the background's completed flows under 100 KB, {count(rv['short_completed'])} per run, so some
{rv['short_completed'] / 100:.0f} flows are slower than the p99): Reverie's p99 slowdown ({rv['short_slowdown_p99']:.1f}) is {rel(rv['short_slowdown_p99'], dt['short_slowdown_p99'])} DT's
({dt['short_slowdown_p99']:.1f}; ABM {abm['short_slowdown_p99']:.1f}), its p90 ({rv['short_slowdown_p90']:.1f}) {rel(rv['short_slowdown_p90'], dt['short_slowdown_p90'])} DT's ({dt['short_slowdown_p90']:.1f}; ABM {abm['short_slowdown_p90']:.1f}).
Reverie's runs drop {count(rv['drops_lossy'])} lossy packets and have {count(rv['tcp_timeouts'])} Cubic timeouts, against DT's
{count(dt['drops_lossy'])} and {count(dt['tcp_timeouts'])} (ABM {count(abm['drops_lossy'])} and {count(abm['tcp_timeouts'])}): {rv['drops_lossy'] / max(dt['drops_lossy'], 1):.1f} x DT's drops and {rv['tcp_timeouts'] / max(dt['tcp_timeouts'], 1):.1f} x its
timeouts, and a short flow that waits out one 1 ms minRTO has a slowdown in the tens to hundreds."""
    if rv["drops_lossy"] > dt["drops_lossy"]:
        text += """
This is the mechanism the one-switch and fabric sections measure with k = 1 (q̂ trails a growing
lossy queue, so drops start late and come in runs that fast retransmit cannot repair; the filter
makes most of Reverie's extra drops there); how much of it is the filter at this rate is not
measured (no k = 1 run here)."""
    return text


def paper_rate_abm_text(by, red):
    """Where Reverie's incast FCT is above ABM's: the policies' FCTs against their mean lossy
    occupancy (the breakdown's port-sharing mechanism); a reading of three means."""
    if red["fct_vs_abm"] >= 0:
        return ""
    order_f = sorted(POLICIES, key=lambda p: by[p]["incast_fct_mean_us"])
    order_l = sorted(POLICIES, key=lambda p: by[p]["lossy_mean_kb"])
    fct = "/".join(f"{by[p]['incast_fct_mean_us']:.0f}" for p in POLICIES)
    lossy = "/".join(f"{by[p]['lossy_mean_kb']:.0f}" for p in POLICIES)
    text = f"""

Incast FCT against ABM (Reverie's {abs(red['fct_vs_abm']):.1f} % above): """
    if order_f == order_l:
        text += f"""the three policies' mean incast FCTs ({fct} us, dt/abm/reverie) are
in the order of their mean lossy occupancy ({lossy} KiB): ABM keeps the websearch queues
shortest, and the breakdown found that what lengthens an incast is websearch to the same host
sharing the requester's port (DWRR between the answers' queue 3 and the websearch queue 1). That
this is why ABM's answers are faster is a reading of three means, not traced incast by incast in
these runs."""
    else:
        text += f"""the three policies' mean incast FCTs ({fct} us, dt/abm/reverie) are not
in the order of their mean lossy occupancy ({lossy} KiB); not explained by these counters."""
    return text


def fig7_at_paper_rate(out, mmusim, name, prefix, launch_us, tail_us, seeds, full, title, where):
    """Fig. 7's 80 % point on the fabric at 2 queries/s/server, flows launched for launch_us and
    tail_us more simulated; scenario and trace names start with prefix; `where` places the
    breakdown section ("above"/"below") against this one in docs/results.md."""
    qps = 2.0

    def make(x, s):
        return paper_scenario(f"{prefix}-l{int(x * 100)}-s{s}", x, 2_000_000, launch_us + tail_us, s,
                              os.path.join(work_dir(out), "traces"), queries_per_s=qps, launch_us=launch_us)
    runs = []
    for seed in seeds:
        for p in POLICIES:
            sc = make(0.8, seed)
            sc["admission"] = dict(sc.get("admission", {}), policy=p)
            runs.append(({"load": 0.8, "policy": p, "seed": seed}, sc))
    rows = [dict(label, **paper_rate_metrics(s, d)) for label, s, d in run_all(runs, out, mmusim, 1)]
    write_csv(os.path.join(out, f"{name}-runs.csv"), rows)
    avg = average(rows, [k for k in rows[0] if k not in ("load", "policy", "seed")], ("load", "policy"))
    write_csv(os.path.join(out, f"{name}.csv"), avg)
    by = {r["policy"]: r for r in avg}
    comp_path = os.path.join(out, "reverie-fig7-fabric.csv")
    comp = {}
    if os.path.exists(comp_path):
        with open(comp_path) as f:
            comp = {r["policy"]: r for r in csv.DictReader(f) if float(r["load"]) == 0.8}
    lines = ["| run | policy | queries (incasts) | PFC pauses | pauses per incast | incast FCT mean (us) | incast FCT p99 (us) "
             "| incast slowdown mean | short-flow p99 FCT (us) | incast flows done | lossless drops | conserved |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows + (avg if len(seeds) > 1 else []):
        label = f"seed {r['seed']}" if "seed" in r else f"mean of {r['seeds']} seeds"
        lines.append(f"| paper rate, {launch_us / 1000:g} ms, {label} | {r['policy']} | {r['queries']:.0f} | {r['pfc_pauses']:.0f} | "
                     f"{r['pfc_pauses'] / r['queries']:.2f} | {r['incast_fct_mean_us']:.1f} | {r['incast_fct_p99_us']:.1f} | "
                     f"{r['incast_slowdown_mean']:.2f} | {r['short_fct_p99_us']:.0f} | {r['incast_completed']:.0f}/{r['incast_flows']:.0f} | "
                     f"{r['drops_lossless']:.0f} | {'yes' if r['conserved'] == 1 else 'no'} |")
    for p in POLICIES if comp else ():
        r = comp[p]
        q = float(r["incast_flows"]) / PAPER_HPL
        lines.append(f"| 10 x rate, 6 ms, mean of {float(r['seeds']):.0f} seeds (`reverie-fig7-fabric`) | {p} | {q:.0f} | {float(r['pfc_pauses']):.0f} | "
                     f"{float(r['pfc_pauses']) / q:.2f} | {float(r['incast_fct_mean_us']):.1f} | — | — | "
                     f"{float(r['short_fct_p99_us']):.0f} | {float(r['incast_completed']):.0f}/{float(r['incast_flows']):.0f} | "
                     f"{float(r['drops_lossless']):.0f} | {'yes' if float(r['conserved']) == 1 else 'no'} |")
    red = {}
    for key, col, other in (("pauses_vs_dt", "pfc_pauses", "dt"), ("pauses_vs_abm", "pfc_pauses", "abm"),
                            ("fct_vs_dt", "incast_fct_mean_us", "dt"), ("fct_vs_abm", "incast_fct_mean_us", "abm"),
                            ("short_vs_dt", "short_slowdown_p99", "dt")):
        red[key] = pct_less(by["reverie"][col], by[other][col])
    text = f"""## {title}

`python3 -m traffic.experiments {name} --out docs/results --doc docs/results.md{' --full' if full else ''}`:
`paper_scenario` as `reverie-fig7-fabric` (80 % websearch, Cubic, lossy; 2 MB DCQCN query-response
incast, each query to the 16 servers of a random other leaf, file / 16 per answer) at the paper's
{qps:g} queries/s/server: flows start in the first {launch_us / 1000:g} ms, the run lasts {(launch_us + tail_us) / 1000:g} ms so that
they finish (the artifact launches for 2 s and stops 1 s later); seeds {seeds}; the runs go one after
the other. Files: `{name}.csv` (means over seeds), `{name}-runs.csv` (each run, with its simulation
wall time and packet-hops/s, docs/performance.md "Reverie §4.1 at paper scale").

{chr(10).join(lines)}

{paper_comparison(red, FIG7_PAPER + FIG7C_PAPER)}

{paper_rate_text(by, comp, where)}

{paper_rate_short_text(by, red)}{paper_rate_abm_text(by, red)}
"""
    return rows, text


def paper_rate_text(by, comp, where):
    """The paper-rate runs against the time-compressed ones and the FCT floor; `where` ("above" or
    "below") places the breakdown section against this one in docs/results.md."""
    floor = 2_000_000 * 8 / (SERVER_GBPS * 1e3)
    fct = "/".join(f"{by[p]['incast_fct_mean_us']:.0f}" for p in POLICIES)
    text = f"""At the paper's query rate the incast FCT (dt/abm/reverie) is {fct} us on average against the
{floor:.0f} us a 2 MB file takes through the requester's 25G port"""
    if max(by[p]["incast_fct_mean_us"] for p in POLICIES) < 1.1 * floor:
        text += """, as in the time-compressed runs: the
answers drain at that port's line rate under every policy, and what lengthens an incast is lossy
background to the same host sharing the port, not a pause (section "Why the fabric's incast FCT
does not move" """ + where + """, which also counts the overlap: fewer incasts in flight at this rate)"""
    text += f""". Every
run is conservative: lossless drops {'/'.join(f"{by[p]['drops_lossless']:.0f}" for p in POLICIES)}, conservation {'held' if all(by[p]['conserved'] == 1 for p in POLICIES) else 'FAILED'}."""
    if comp:
        per = {p: by[p]["pfc_pauses"] / by[p]["queries"] for p in POLICIES}
        cper = {p: float(comp[p]["pfc_pauses"]) / (float(comp[p]["incast_flows"]) / PAPER_HPL) for p in POLICIES}
        text += f""" Pauses per incast, dt/abm/reverie: {'/'.join(f'{per[p]:.1f}' for p in POLICIES)} here,
{'/'.join(f'{cper[p]:.1f}' for p in POLICIES)} at 10 x the rate (6 ms runs, means over {float(comp['dt']['seeds']):.0f} seeds)."""
    return text


def reverie_fig11_fabric(out, mmusim, jobs, full):
    """Fig. 11 points on the 256-host fabric: websearch RDMA (PowerTCP, lossless), 1.5 MB TCP
    (Cubic, lossy) incasts from the 16 servers of another leaf."""
    loads = [0.4, 0.8] if full else [0.8]
    seeds = [1, 2] if full else [1]
    duration_us, qps = (6000, 20.0) if full else (2000, 20.0)
    name = "reverie-fig11-fabric"
    avg, table, red = fabric_sweep(
        name, loads, "load", seeds,
        lambda x, s: tcp_incast_fabric(f"fab11-l{int(x * 100)}-s{s}", x, 1_500_000, duration_us, s, out, qps),
        out, mmusim, jobs, "websearch (lossless, PowerTCP) load",
        "Reverie Fig. 11 points on the 256-host fabric (TCP incast, PowerTCP background)", lambda x: f"{int(x * 100)} %")
    text = f"""## Reverie Fig. 11 on the 256-host fabric (PowerTCP and Cubic)

`python3 -m traffic.experiments {name} --out docs/results --doc docs/results.md{' --full' if full else ''}`:
Fig. 11's set-up on `paper_scenario`'s fabric (as `reverie-fig7-fabric`, classes' roles swapped):
websearch RDMA with PowerTCP on the lossless class, 1.5 MB TCP (Cubic, lossy) incasts, each answered
by the 16 servers of a random other leaf as in the paper (the one-switch leaf above answers over 4
uplinks), {duration_us} us per run, {qps:g} queries/s/server; loads {loads}, seeds {seeds}.
Files: `{name}.csv`, `{name}-runs.csv`, `{name}.png`.

![](results/{name}.png)

{table}

{paper_comparison(red, FIG11_PAPER)}

{occupancy_text(avg, "load", tcp_incast_occupancy(avg, "load", "Fig. 11d"), OCC_WHY)}

{tcp_incast_text(out, name, "load")}
"""
    return avg, text


def reverie_fig8_fabric(out, mmusim, jobs, full):
    """Fig. 8 points on the 256-host fabric: 80 % websearch (Cubic, lossy), the DCQCN incast's
    file size varied (the artifact's 0.5-2 MB), each answered by the 16 servers of another leaf."""
    bursts = [500_000, 1_000_000, 1_500_000, 2_000_000] if full else [500_000, 2_000_000]
    seeds = [1, 2, 3] if full else [1]
    duration_us, qps = (6000, 20.0) if full else (3000, 20.0)
    name = "reverie-fig8-fabric"
    def make(x, s):
        return paper_scenario(f"fab8-b{x}-s{s}", 0.8, x, duration_us, s, os.path.join(work_dir(out), "traces"),
                              queries_per_s=qps)
    avg, table, red = fabric_sweep(
        name, bursts, "burst_bytes", seeds, make, out, mmusim, jobs, "incast (DCQCN) burst (file) size, bytes",
        "Reverie Fig. 8 points on the 256-host fabric (DCQCN incast, Cubic background at 80 %)", lambda x: f"{x / 1e6:g} MB")
    k1 = (f"{bursts[-1] / 1e6:g} MB", "burst_bytes", bursts[-1], gamma_k1(name, bursts[-1], make, out, mmusim, jobs, seeds))
    by = {(r["burst_bytes"], r["policy"]): r for r in avg}
    def cut(b, other):
        v = pct_less(by[b, "reverie"]["pfc_pauses"], by[b, other]["pfc_pauses"])
        return "— (0 vs 0)" if np.isnan(v) else f"{v:.0f} %"
    per = ", ".join(f"{b / 1e6:g} MB {cut(b, 'dt')} / {cut(b, 'abm')}" for b in bursts)
    text = f"""## Reverie Fig. 8 on the 256-host fabric (DCQCN and Cubic)

`python3 -m traffic.experiments {name} --out docs/results --doc docs/results.md{' --full' if full else ''}`:
as `reverie-fig7-fabric` at 80 % websearch (Cubic, lossy) load, the DCQCN incast's file size varied
over {', '.join(f'{b / 1e6:g}' for b in bursts)} MB, each query answered by the 16 servers of a random other
leaf; {duration_us} us per run, {qps:g} queries/s/server, seeds {seeds}; flows started late in the run may not
finish. Files: `{name}.csv`, `{name}-runs.csv`, `{name}-k1.csv`, `{name}.png`.

![](results/{name}.png)

{table}

{paper_comparison(red, FIG8_PAPER)}

Reverie's pause reduction per burst, vs DT / vs ABM: {per}.{more_pauses_text(by, bursts)}

Fig. 8c (the paper gives no number for it). {short_flow_fabric_text(avg, red, name, k1)}

{fabric_pause_text(red, avg, FIG8_PAPER)}

{fabric_fct_text(avg, "burst_bytes", lambda b: b, lambda b: f"{b / 1e6:g} MB")}

{occupancy_text(avg, "burst_bytes", fig8_occupancy(avg, "burst_bytes"), OCC_WHY)}
"""
    return avg, text


def more_pauses_text(by, bursts):
    """Where Reverie pauses more than DT at a burst size, what in the same runs goes with it."""
    worse = [b for b in bursts if by[b, "reverie"]["pfc_pauses"] > by[b, "dt"]["pfc_pauses"]]
    if not worse:
        return ""
    b = worse[0]
    rv, dt = by[b, "reverie"], by[b, "dt"]
    return f"""
At {b / 1e6:g} MB Reverie pauses more than DT ({rv['pfc_pauses']:.1f} vs {dt['pfc_pauses']:.1f} per run). In the same runs Reverie's
TCP p99 occupancy is {rv['lossy_p99_pct']:.1f} % against DT's {dt['lossy_p99_pct']:.1f} % (occupancy table below): the lossy share of its one
pool lowers the lossless Γ = α (b* − q*) / n_p a burst meets, while DT's lossy queues stop at their
own, smaller egress lossy pool; at larger bursts the filter's absorption outweighs it (a reading of
the rule against these counters, not traced queue by queue)."""


def reverie_fig12_fabric(out, mmusim, jobs, full):
    """Fig. 12 points on the 256-host fabric: websearch RDMA (PowerTCP, lossless) at 80 %, TCP
    (Cubic, lossy) incasts of varied size from the 16 servers of another leaf."""
    bursts = [250_000, 500_000, 1_000_000, 1_500_000] if full else [250_000, 1_500_000]
    seeds = [1, 2] if full else [1]
    duration_us, qps = (6000, 20.0) if full else (2000, 20.0)
    name = "reverie-fig12-fabric"
    avg, table, red = fabric_sweep(
        name, bursts, "burst_bytes", seeds,
        lambda x, s: tcp_incast_fabric(f"fab12-b{x}-s{s}", 0.8, x, duration_us, s, out, qps),
        out, mmusim, jobs, "TCP incast burst (file) size, bytes",
        "Reverie Fig. 12 points on the 256-host fabric (TCP incast, PowerTCP background at 80 %)", lambda x: f"{x / 1e6:g} MB")
    by = {(r["burst_bytes"], r["policy"]): r for r in avg}
    per = {b: pct_less(by[b, "reverie"]["incast_fct_mean_us"], by[b, "dt"]["incast_fct_mean_us"]) for b in bursts}
    red["fct_vs_dt_max"] = max(per.values())
    text = f"""## Reverie Fig. 12 on the 256-host fabric (PowerTCP and Cubic)

`python3 -m traffic.experiments {name} --out docs/results --doc docs/results.md{' --full' if full else ''}`:
as `reverie-fig11-fabric` at 80 % websearch RDMA (PowerTCP, lossless) load, the TCP (Cubic, lossy)
incast's file size varied over {', '.join(f'{b / 1e6:g}' for b in bursts)} MB, each answered by the 16 servers of
a random other leaf; {duration_us} us per run, {qps:g} queries/s/server, seeds {seeds}.
Files: `{name}.csv`, `{name}-runs.csv`, `{name}.png`.

![](results/{name}.png)

{table}

{paper_comparison(red, FIG12_PAPER)}

Reverie vs DT incast FCT per burst: {', '.join(f'{b / 1e6:g} MB {v:+.1f} %' for b, v in per.items())} (reduction; paper: up to 30 %
for large bursts, Reverie and ABM alike).

{occupancy_text(avg, "burst_bytes", tcp_incast_occupancy(avg, "burst_bytes", "Fig. 12d"), OCC_WHY)}

{tcp_incast_text(out, name, "burst_bytes")}
"""
    return avg, text


def fabric_pause_text(red, avg, paper):
    """Why a fabric run's pause reductions leave the ±50 % band, from the model."""
    tot = {p: sum(r["pfc_pauses"] for r in avg if r["policy"] == p) for p in POLICIES}
    (_, _, p_dt), (_, _, p_abm) = paper[:2]
    # The paper's ABM : DT pause ratio follows from its two reductions of Reverie's count.
    paper_ratio = (1 - p_dt / 100) / (1 - p_abm / 100)
    out = []
    if not within_band(red, paper[1:2]):
        out.append(f"""Reverie's reduction vs ABM is outside the band because ABM pauses far more here than in the
paper: ABM {tot['abm']:.0f} pauses summed over the grid against DT's {tot['dt']:.0f} ({tot['abm'] / tot['dt']:.1f} x; the paper's two
reductions put ABM at {paper_ratio:.2f} x DT). ABM scales a lossless PG's threshold by its queue's drain rate
over its port's (μ_q / μ_port, docs/policies.md): an answer reaches the requester's leaf over its 4
spine uplinks of 25G while the requester's one 25G port drains them all, so each uplink's PG drains
at about a quarter of its port's rate and ABM's threshold is about a quarter of α (b − q) / n_p, which
DT and Reverie do not cut (the rule's consequence, not traced queue by queue).""")
    if not within_band(red, paper[:1]):
        out.append(f"""Reverie's reduction vs DT ({red['pauses_vs_dt']:.1f} %) is outside the band (paper {p_dt:.1f} %).""")
    return "\n\n".join(out) or "Both pause reductions are within ±50 % of the paper's."


def short_flow_fabric_text(avg, red, name, k1):
    """Figs. 7c, 8c on the fabric: the short (< 100 KB) Cubic flows' p99 FCT and slowdown, and
    what sets them (timeouts, lossy drops), averaged over the grid; k1 = (label, xkey, x,
    gamma_k1's means there): Reverie at gamma = 0.5 on the last grid point."""
    m = {p: {c: grid_mean(avg, p, c) for c in ("short_fct_p99_us", "short_slowdown_p99", "short_slowdown_p90",
                                               "tcp_timeouts", "drops_lossy")} for p in POLICIES}
    dt, abm, rv = m["dt"], m["abm"], m["reverie"]

    def rel(v):
        return f"{abs(v):.1f} % {'below' if v > 0 else 'above'}"
    return f"""Short background flows (Cubic, < 100 KB; means over the grid of each run's 99th percentile, nearest
rank): p99 FCT dt {dt['short_fct_p99_us']:.0f} us, abm {abm['short_fct_p99_us']:.0f} us, reverie {rv['short_fct_p99_us']:.0f} us; p99 slowdown
dt {dt['short_slowdown_p99']:.1f}, abm {abm['short_slowdown_p99']:.1f}, reverie {rv['short_slowdown_p99']:.1f} (Reverie's {rel(red['short_vs_dt'])} DT's, {rel(red['short_vs_abm'])}
ABM's); p90 slowdown dt {dt['short_slowdown_p90']:.2f}, abm {abm['short_slowdown_p90']:.2f}, reverie {rv['short_slowdown_p90']:.2f}. A short flow's p99 is set by
losses: a flow that waits out one 1 ms minRTO has a slowdown in the tens to hundreds, and the runs
have {dt['tcp_timeouts']:.1f} (dt), {abm['tcp_timeouts']:.1f} (abm) and {rv['tcp_timeouts']:.1f} (reverie) Cubic timeouts and {dt['drops_lossy']:.0f}, {abm['drops_lossy']:.0f} and {rv['drops_lossy']:.0f}
lossy drops on average.""" + ("" if red["short_vs_dt"] > 0 else """ Reverie's p99 is not below DT's as in the paper (Figs. 7c, 8c: DT
"severely penalizes" short TCP flows; 42.7 % in Fig. 7c) because Reverie drops more lossy packets and its Cubic flows time out more often, the
mechanism the one-switch sections trace (q̂ trails a growing lossy queue, so drops start late and
come in runs that fast retransmit cannot repair).""" + filter_share_text(avg, name, k1)
        if rv["tcp_timeouts"] > dt["tcp_timeouts"] and rv["drops_lossy"] > dt["drops_lossy"]
        else " Reverie's p99 is not below DT's as in the paper (Fig. 7c: 42.7 % below); not explained here.")


def filter_share_text(avg, name, k1):
    """The gamma = 0.5 run beside gamma = 0.999 and DT at one grid point: how much of Reverie's
    extra lossy drops the filter makes on the fabric."""
    label, xkey, x, m = k1
    at = {p: next(r for r in avg if r["policy"] == p and r[xkey] == x) for p in POLICIES}
    rv, dt = at["reverie"], at["dt"]
    text = f"""
At {label}, Reverie with k = 1 (gamma = 0.5, q̂ ≈ q; `{name}-k1.csv`) drops {m['drops_lossy']:.0f} lossy packets per run,
has {m['tcp_timeouts']:.1f} Cubic timeouts and a short-flow p99 slowdown of {m['short_slowdown_p99']:.1f}, against {rv['drops_lossy']:.0f}, {rv['tcp_timeouts']:.1f} and
{rv['short_slowdown_p99']:.1f} at k = 10 (DT {dt['drops_lossy']:.0f}, {dt['tcp_timeouts']:.1f}, {dt['short_slowdown_p99']:.1f})"""
    extra = rv["drops_lossy"] - dt["drops_lossy"]
    if extra > 0 and m["drops_lossy"] < rv["drops_lossy"]:
        share = min(100.0, 100.0 * (rv["drops_lossy"] - m["drops_lossy"]) / extra)
        text += f""": the filter makes {share:.0f} % of Reverie's extra drops over
DT's here (the rest, Reverie's one shared pool against DT's lossy pool, is not separated)."""
    else:
        text += ": the filter is not what adds Reverie's drops here."
    return text


def fabric_fct_text(avg, xkey, burst, xfmt):
    """The fabric's incast FCT against its floor, a file through the requester's 25G port."""
    xs = list(dict.fromkeys(r[xkey] for r in avg))
    per = ", ".join(f"{xfmt(x)}: floor {burst(x) * 8 / (SERVER_GBPS * 1e3):.0f} us, mean "
                    + "/".join(f"{r['incast_fct_mean_us']:.0f}" for r in avg if r[xkey] == x) + " us" for x in xs)
    return f"""Incast FCT (dt/abm/reverie) against the time a file takes through the requester's one 25G port at
line rate: {per}. The answers already arrive at about that port's line rate under every policy, so
the pauses Reverie saves do not hold them back in these runs, and the paper's FCT gain does not appear
(section "Why the fabric's incast FCT does not move" measures it; the paper's query rate, `reverie-fig7-paper`, does not change it)."""




def reverie_fig10_fabric(out, mmusim, jobs, full):
    """Fig. 10 on the 256-host fabric: Reverie only, websearch RDMA (DCQCN, lossless) at 80 % and
    the 2 MB DCQCN incast from another leaf, gamma = 1 - 2^-k from 0.5 (k = 1) up."""
    ks = [1, 4, 7, 10, 13, 17, 20] if full else [1, 10]
    seeds = [1, 2] if full else [1]
    duration_us, qps = (6000, 20.0) if full else (3000, 20.0)
    name = "reverie-fig10-fabric"
    runs = []
    for k in ks:
        for s in seeds:
            sc = paper_scenario(f"fab10-s{s}", 0.8, 2_000_000, duration_us, s, os.path.join(work_dir(out), "traces"),
                                policy="reverie", queries_per_s=qps, all_rdma=True)
            sc["admission"]["ewma"] = {"k": k}
            runs.append(({"k": k, "gamma": 1 - 2.0 ** -k, "seed": s}, sc))
    avg = gamma_sweep(name, runs, out, mmusim, jobs,
                      "Reverie Fig. 10 on the 256-host fabric: websearch RDMA 80 % + 2 MB RDMA incast (DCQCN)")
    lines = gamma_table(avg, "RDMA p99 occupancy (%)", lambda r: f"{r['lossless_p99_pct']:.1f}")
    first, last = avg[0], avg[-1]
    k10 = next((r for r in avg if r["k"] == 10), last)
    best = min(avg, key=lambda r: r["incast_fct_mean_us"])
    fewest = min(avg, key=lambda r: r["pfc_pauses"])
    fcts = [r["incast_fct_mean_us"] for r in avg]
    pool = 100.0 * (paper_buffer() - (PAPER_HPL + PAPER_SPINES) * eta_bytes(SERVER_GBPS)) / paper_buffer()
    rise = ""
    if last["pfc_pauses"] > fewest["pfc_pauses"]:
        rise = f""" Past k = {fewest['k']} pauses rise again ({fewest['pfc_pauses']:.0f} → {last['pfc_pauses']:.0f}) while the RDMA
p99 approaches the shared pool's size ({fewest['lossless_p99_pct']:.1f} → {last['lossless_p99_pct']:.1f} % of the buffer; the pool is {pool:.1f} %):
q̂ hardly moves, so the lossless queues grow until the pool is full and arrivals then fail the
pool check, the mechanism of the one-switch sections (not traced queue by queue here)."""
    text = f"""## Reverie Fig. 10 on the 256-host fabric (DCQCN): gamma sweep

`python3 -m traffic.experiments {name} --out docs/results --doc docs/results.md{' --full' if full else ''}`:
the paper's Fig. 10 set-up on `paper_scenario`'s fabric: Reverie, websearch RDMA (DCQCN, lossless TC 3)
at 80 % and the 2 MB query-response incast on the same class from the 16 servers of another leaf,
gamma = 1 - 2^-k, k = {', '.join(str(k) for k in ks)} (k = 1: gamma = 0.5, q̂ ≈ q, the instantaneous queue DT
compares); {duration_us} us per run, {qps:g} queries/s/server, seeds {seeds}.
Files: `{name}.csv`, `{name}-runs.csv`, `{name}.png`.

![](results/{name}.png)

{chr(10).join(lines)}

Paper: PFC pauses fall dramatically as gamma grows; incast FCT falls until gamma = 0.999 and is
9 % higher at 0.999999. Ours: pauses {first['pfc_pauses']:.0f} at gamma 0.5, {k10['pfc_pauses']:.0f} at k = {k10['k']}
({pct_less(k10['pfc_pauses'], first['pfc_pauses']):.0f} % fewer than at gamma 0.5), {last['pfc_pauses']:.0f} at k = {last['k']}; fewest at
k = {fewest['k']}. Incast FCT {first['incast_fct_mean_us']:.0f} us at gamma 0.5, {k10['incast_fct_mean_us']:.0f} us at k = {k10['k']}, {last['incast_fct_mean_us']:.0f} us
at k = {last['k']} ({100 * (last['incast_fct_mean_us'] / k10['incast_fct_mean_us'] - 1):+.1f} % vs k = {k10['k']}; paper +9 %); lowest at k = {best['k']}.

{gamma_headlines(avg)}

The FCT spans {min(fcts):.0f}–{max(fcts):.0f} us over the sweep against the {2_000_000 * 8 / (SERVER_GBPS * 1e3):.0f} us a 2 MB answer takes
through the requester's 25G port at line rate: the answers arrive at about that rate whatever gamma,
so neither the pauses saved nor the extra ones at large k move it by more than {100 * (max(fcts) / min(fcts) - 1):.1f} %, and the
paper's +9 % at gamma 0.999999 does not appear in these runs.{rise}
"""
    return avg, text


def reverie_fig7(out, mmusim, jobs, full):
    z = sizes(full)
    loads = [0.2, 0.4, 0.6, 0.8]
    burst = 2_000_000
    avg = policy_sweep("reverie-fig7", loads, "load",
                       lambda x, s: reverie_scenario(f"fig7-l{int(x * 100)}-s{s}", x, burst, z["active_us"], s,
                                                     queries=z["queries"], out=os.path.join(work_dir(out), "traces")),
                       out, mmusim, jobs, z["seeds"])
    plot_policies(avg, "load", "websearch (lossy) load", os.path.join(out, "reverie-fig7.png"),
                  "Reverie Fig. 7 shape: 2 MB query-response incast (lossless) + websearch (lossy)")
    table, red = compare_table(avg, "load", lambda x: f"{int(x * 100)} %")
    text = f"""## Reverie Fig. 7: PFC pauses and incast FCT vs background load

`python3 -m traffic.experiments reverie-fig7 --out docs/results --doc docs/results.md{' --full' if full else ''}`:
the §4.1 leaf as one switch (16 servers at 25G, 4 uplinks at 100G, {leaf_buffer()} B = 5.12 KB/port/Gbps,
alpha = 1, headroom pool = sum of eta, egress lossy pool = 80 % of the ingress pool); websearch (DCTCP CDF)
Poisson background on lossy TC 1 (servers -> uplinks at load x 25G, uplinks -> servers at load x 100G);
query-response incast of a 2 MB file on lossless TC 3, answered over the 4 uplinks (a quarter each),
{z['queries']} queries in the first {z['active_us']} us (time-compressed from 2/s/server), seeds {z['seeds']}.
Open-loop hosts (no DCQCN/Cubic). Files: `reverie-fig7.csv`, `reverie-fig7-runs.csv`, `reverie-fig7.png`.

![](results/reverie-fig7.png)

{table}

| Reverie vs | PFC pauses (paper Fig. 7a) | incast FCT (paper Fig. 7b) |
|---|---|---|
| DT | {red['pauses_vs_dt']:.1f} % fewer, summed over the grid (paper: 60 % fewer on average) | {red['fct_vs_dt']:.1f} % lower, mean over the grid (paper: 18.5 % lower) |
| ABM | {red['pauses_vs_abm']:.1f} % fewer (paper: 71.2 % fewer) | {red['fct_vs_abm']:.1f} % lower (paper: 18.2 % lower) |
"""
    return avg, text


def reverie_fig8(out, mmusim, jobs, full):
    z = sizes(full)
    bursts = [500_000, 1_000_000, 2_000_000, 4_000_000] + ([6_000_000, 8_000_000] if full else [])
    avg = policy_sweep("reverie-fig8", bursts, "burst_bytes",
                       lambda x, s: reverie_scenario(f"fig8-b{x}-s{s}", 0.8, x, z["active_us"], s,
                                                     queries=z["queries"], out=os.path.join(work_dir(out), "traces")),
                       out, mmusim, jobs, z["seeds"])
    plot_policies(avg, "burst_bytes", "incast burst (file) size, bytes", os.path.join(out, "reverie-fig8.png"),
                  "Reverie Fig. 8 shape: websearch (lossy) 80 % load, query-response incast (lossless)")
    table, red = compare_table(avg, "burst_bytes", lambda x: f"{x / 1e6:g} MB")
    text = f"""## Reverie Fig. 8: PFC pauses and incast FCT vs burst size

`python3 -m traffic.experiments reverie-fig8 ...`: as Fig. 7 at 80 % websearch load, file (burst) size varied.
Files: `reverie-fig8.csv`, `reverie-fig8-runs.csv`, `reverie-fig8.png`.

![](results/reverie-fig8.png)

{table}

| Reverie vs | PFC pauses (paper Fig. 8a) | incast FCT (paper Fig. 8b) |
|---|---|---|
| DT | {red['pauses_vs_dt']:.1f} % fewer, summed over the grid (paper: 61.8 % fewer on average) | {red['fct_vs_dt']:.1f} % lower, mean over the grid (paper: 10 % lower) |
| ABM | {red['pauses_vs_abm']:.1f} % fewer (paper: 57.4 % fewer) | {red['fct_vs_abm']:.1f} % lower (paper: 17 % lower) |
"""
    return avg, text


def reverie_fig10(out, mmusim, jobs, full):
    """gamma = 1 - 2^-k; websearch RDMA (lossless) 80 % + 2 MB incast, Reverie only."""
    z = sizes(full)
    ks = [1, 3, 5, 7, 10, 13, 17, 20] if full else [1, 4, 7, 10, 14, 20]
    runs = []
    for k in ks:
        for s in z["seeds"]:
            sc = reverie_scenario(f"fig10-s{s}", 0.8, 2_000_000, z["active_us"], s, bg_dscp=LOSSLESS_DSCP,
                                  queries=z["queries"], out=os.path.join(work_dir(out), "traces"))
            sc["admission"] = {"policy": "reverie", "ewma": {"k": k}}
            runs.append(({"k": k, "gamma": 1 - 2.0 ** -k, "seed": s}, sc))
    rows = [dict(label, **reverie_metrics(s)) for label, s, _ in run_all(runs, out, mmusim, jobs)]
    write_csv(os.path.join(out, "reverie-fig10-runs.csv"), rows)
    keys = [k for k in rows[0] if k not in ("k", "gamma", "seed")]
    avg = average(rows, keys, ("k", "gamma"))
    write_csv(os.path.join(out, "reverie-fig10.csv"), avg)
    plot_gamma_sweep(avg, os.path.join(out, "reverie-fig10.png"),
                     "Reverie Fig. 10 shape: gamma sweep, websearch (lossless) 80 % + 2 MB incast")
    lines = ["| k | gamma | PFC pauses | incast FCT mean (us) | lossless drops |", "|---|---|---|---|---|"]
    for r in avg:
        lines.append(f"| {r['k']} | {r['gamma']:.6f} | {r['pfc_pauses']:.1f} | {r['incast_fct_mean_us']:.1f} | "
                     f"{r['drops_lossless']:.0f} |")
    first, k10, last = avg[0], next(r for r in avg if r["k"] == 10), avg[-1]
    text = f"""## Reverie Fig. 10: gamma (admission.ewma.k) sweep

`python3 -m traffic.experiments reverie-fig10 ...`: Reverie, websearch background on the lossless class
(80 %) plus the 2 MB query-response incast, gamma = 1 - 2^-k. Files: `reverie-fig10.csv`,
`reverie-fig10-runs.csv`, `reverie-fig10.png`.

![](results/reverie-fig10.png)

{chr(10).join(lines)}

Paper: PFC pauses fall dramatically as gamma grows; incast FCT falls until gamma = 0.999 and is
9 % higher at 0.999999. Ours: pauses {first['pfc_pauses']:.0f} at k = {first['k']} (gamma {first['gamma']:.3g}),
{k10['pfc_pauses']:.0f} at k = 10 (0.999), {last['pfc_pauses']:.0f} at k = {last['k']} (gamma {last['gamma']:.7f});
FCT at k = {last['k']} vs k = 10: {100 * (last['incast_fct_mean_us'] / k10['incast_fct_mean_us'] - 1):+.1f} %.
Where pauses rise again at large k, it is the paper's "insensitive to queue length" case
without congestion control: q̂ hardly moves, so lossless queues grow until the shared pool is
full; then each arrival fails the pool check (XOFF) and q̂ + xon_offset <= Γ lets the queue resume
at its next departure (XON), so the pool edge toggles pauses. The paper's DCQCN senders slow down
before the pool fills.
"""
    return avg, text


# --------------------------------------------------------------------------------------
# Reverie Fig. 2: queue, EWMA and threshold over one burst.

FIG2_BURST, FIG2_DYNAMIC_TH = 800_000, -2


def reverie_fig2(out, mmusim, jobs, full):
    dur = 1200
    runs = []
    for p in ("dt", "reverie"):
        sc = base(f"fig2-{p}", dur, sample_ns=100 if full else 500)
        # One lossless 16:1 burst of 800 KB per sender into h0, alpha = 1/4 for the lossless PGs.
        sc["traffic"] = [{"type": "incast", "name": "incast", "senders": "h1-h16", "receiver": "h0",
                          "dscp": LOSSLESS_DSCP, "burst_bytes": FIG2_BURST, "start_us": 100}]
        sc["buffer"]["BUFFER_PROFILE"]["pg_lossless_100000_2m_profile"]["dynamic_th"] = str(FIG2_DYNAMIC_TH)
        sc["output"]["threshold_queues"] = {"lossless": "Ethernet4|3"}
        sc["admission"] = {"policy": p}
        runs.append(({"policy": p}, sc))
    res = run_all(runs, out, mmusim, jobs)
    fig, axes = plt.subplots(2, 1, figsize=(9, 6.5), sharex=True)
    rows = []
    for ax, (label, s, d) in zip(axes, res):
        ts = np.genfromtxt(os.path.join(d, "timeseries.csv"), delimiter=",", names=True)
        t = ts["time_ns"] / 1000
        ax.plot(t, ts["q_ingress_lossless_bytes"] / 1024, label="(4) queue length q (instantaneous)")
        if label["policy"] == "reverie":
            ax.plot(t, ts["qhat_ingress_lossless_bytes"] / 1024, label="(5) low-pass-filtered q̂ (EWMA)")
        ax.plot(t, ts["th_ingress_lossless_bytes"] / 1024, "--", label="(1) threshold Γ")
        ax.set_ylabel("KiB")
        ax.set_title(f"{label['policy']}: ingress (Ethernet4, PG 3) of one of 16 burst senders", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper right")
        over = ts["q_ingress_lossless_bytes"] >= ts["th_ingress_lossless_bytes"]
        rows.append({"policy": label["policy"], "xoff_events": s["pfc"]["xoff_events"],
                     "paused_time_us": s["pfc"]["paused_time_ns"] / 1000,
                     "q_max_kb": float(ts["q_ingress_lossless_bytes"].max() / 1024),
                     "qhat_max_kb": float(ts["qhat_ingress_lossless_bytes"].max() / 1024),
                     "q_over_threshold_us": float(over.sum() * (t[1] - t[0])),
                     "incast_fct_mean_us": s["generators"]["incast"]["fct_ns"]["mean"] / 1000})
    axes[-1].set_xlabel("time (us)")
    fig.suptitle("Reverie Fig. 2: thresholds vs instantaneous and low-pass-filtered queue lengths", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "reverie-fig2.png"), dpi=110)
    plt.close(fig)
    write_csv(os.path.join(out, "reverie-fig2.csv"), rows)
    dt, rv = rows
    text = f"""## Reverie Fig. 2: instantaneous queue, EWMA and threshold on one burst

`python3 -m traffic.experiments reverie-fig2 ...`: the default switch (16 MiB, 32 x 100G) with one 16:1
lossless burst of {FIG2_BURST // 1000} KB per sender (h1-h16 -> h0) at 100 us, lossless PG alpha = 2^{FIG2_DYNAMIC_TH};
the plotted queue is sender h1's ingress PG 3
(`output.threshold_queues`); `timeseries.csv` columns `q_ingress_lossless_bytes` (shared part),
`qhat_ingress_lossless_bytes` (what admission compares: q̂ for Reverie, q otherwise) and
`th_ingress_lossless_bytes`. gamma = 1 - 2^-10. Files: `reverie-fig2.csv`, `reverie-fig2.png`.

![](results/reverie-fig2.png)

| policy | XOFF events | paused (queue-us) | max q (KiB) | max q̂ (KiB) | time q ≥ Γ (us) | incast FCT (us) |
|---|---|---|---|---|---|---|
| DT | {dt['xoff_events']} | {dt['paused_time_us']:.1f} | {dt['q_max_kb']:.0f} | — | {dt['q_over_threshold_us']:.1f} | {dt['incast_fct_mean_us']:.1f} |
| Reverie | {rv['xoff_events']} | {rv['paused_time_us']:.1f} | {rv['q_max_kb']:.0f} | {rv['qhat_max_kb']:.0f} | {rv['q_over_threshold_us']:.1f} | {rv['incast_fct_mean_us']:.1f} |

Paper (Fig. 2, illustration): comparing Γ with the instantaneous queue (DT) overreacts to the burst;
comparing it with the filtered q̂ lets Reverie absorb the transient burst.
"""
    return rows, text
