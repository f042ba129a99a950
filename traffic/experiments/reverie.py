"""Reverie (NSDI'24): Figs. 2, 7, 8 and 10 on the §4.1 leaf, as one switch."""
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


def eta_bytes(rate_gbps, delay_ns=2000, mtu=1500):
    """DSH Eq. 1 / [49]: eta = 2(C*D + MTU) + 3840 bytes."""
    return headroom.eta_bytes(int(rate_gbps * 1e9), int(delay_ns * 1000), mtu)


def leaf_buffer():
    return int(5120 * (SERVERS * SERVER_GBPS + UPLINKS * UPLINK_GBPS))


def leaf_scenario(name, duration_us):
    sc = base(name, duration_us)
    n = SERVERS + UPLINKS
    names = [f"Ethernet{4 * i}" for i in range(n)]
    sc["topology"].update(ports=n, rate_gbps=SERVER_GBPS)
    sc["topology"]["port_overrides"] = {names[i]: {"rate_gbps": UPLINK_GBPS} for i in range(SERVERS, n)}
    buffer = leaf_buffer()
    headroom = SERVERS * eta_bytes(SERVER_GBPS) + UPLINKS * eta_bytes(UPLINK_GBPS)
    ingress = buffer - headroom
    sc["mmu"]["buffer_bytes"] = buffer
    old = next(iter(sc["buffer"]["PORT_QOS_MAP"])).split("|")[0]
    allp = ",".join(names)
    for table in ("BUFFER_PG", "BUFFER_QUEUE", "PORT_QOS_MAP"):
        sc["buffer"][table] = {k.replace(old, allp): v for k, v in sc["buffer"][table].items()}
    pools = sc["buffer"]["BUFFER_POOL"]
    pools["ingress_lossless_pool"].update(size=str(ingress), xoff=str(headroom))
    pools["egress_lossless_pool"]["size"] = str(buffer)
    pools["egress_lossy_pool"]["size"] = str(int(0.8 * ingress))
    prof = sc["buffer"]["BUFFER_PROFILE"]
    prof["ingress_lossy_profile"]["static_th"] = str(buffer)
    prof["egress_lossless_profile"]["static_th"] = str(buffer)
    return sc


def reverie_scenario(name, load, burst_bytes, active_us, seed, bg_dscp=LOSSY_DSCP, queries=4, out=None):
    """Background: websearch Poisson flows at `load`: each server to a random uplink (the
    rest of the fabric) at load x 25G, each uplink to a random server at load x 100G.
    Incast (§4.1 query-response): a server queries the servers of other leaves, whose
    answers (burst_bytes in total) arrive over the 4 uplinks, a quarter each; `queries`
    queries in the first `active_us` (time-compressed from the paper's 2/s/server), then a
    tail of 4 x the burst's time through a 25G port (at least 1.2 ms) so answers complete."""
    duration_us = active_us + max(1200.0, 4 * burst_bytes * 8 / (SERVER_GBPS * 1e3))
    sc = leaf_scenario(name, duration_us)
    sc["seed"] = seed
    servers = list(range(SERVERS))
    uplinks = list(range(SERVERS, SERVERS + UPLINKS))
    bg = (workloads.background(servers, load, SERVER_GBPS, duration_us, "websearch", seed=seed,
                               dscp=bg_dscp, dsts=uplinks)
          + workloads.background(uplinks, load, UPLINK_GBPS, duration_us, "websearch", seed=seed + 500,
                                 dscp=bg_dscp, dsts=servers))
    rate = queries / (len(servers) * active_us * 1e-6)
    inc = workloads.query_response(servers, burst_bytes, rate, active_us, seed=seed + 1000,
                                   dscp=LOSSLESS_DSCP, responders=uplinks)
    d = pathlib.Path(out)
    d.mkdir(parents=True, exist_ok=True)
    trace.write_trace(d / f"{name}-bg.csv", bg)
    trace.write_trace(d / f"{name}-incast.csv", inc)
    sc["traffic"] = [{"type": "trace", "name": "background", "file": str((d / f"{name}-bg.csv").resolve())},
                     {"type": "trace", "name": "incast", "file": str((d / f"{name}-incast.csv").resolve())}]
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


def policy_sweep(name, xs, xkey, make, out, mmusim, jobs, seeds):
    runs = []
    for x in xs:
        for seed in seeds:
            for p in POLICIES:
                sc = make(x, seed)
                sc["admission"] = dict(sc.get("admission", {}), policy=p)
                runs.append(({xkey: x, "policy": p, "seed": seed}, sc))
    rows = [dict(label, **reverie_metrics(s)) for label, s, _ in run_all(runs, out, mmusim, jobs)]
    write_csv(os.path.join(out, f"{name}-runs.csv"), rows)
    keys = [k for k in rows[0] if k not in (xkey, "policy", "seed")]
    avg = average(rows, keys, (xkey, "policy"))
    write_csv(os.path.join(out, f"{name}.csv"), avg)
    return avg


def plot_policies(avg, xkey, xlabel, path, title):
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for p in POLICIES:
        rs = [r for r in avg if r["policy"] == p]
        x = [r[xkey] for r in rs]
        axes[0].plot(x, [r["pfc_pauses"] for r in rs], "o-", label=p)
        axes[1].plot(x, [r["incast_fct_mean_us"] for r in rs], "o-", label=p)
    axes[0].set_ylabel("PFC pauses (XOFF events)")
    axes[1].set_ylabel("incast flow FCT, mean (us)")
    for ax in axes:
        ax.set_xlabel(xlabel)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def compare_table(avg, xkey, xfmt):
    lines = [f"| {xkey} | " + " | ".join(f"pauses {p}" for p in POLICIES) + " | "
             + " | ".join(f"FCT {p} (us)" for p in POLICIES) + " | incast flows done (" + "/".join(POLICIES) + ") |",
             "|" + "---|" * (2 + 2 * len(POLICIES))]
    by = {(r[xkey], r["policy"]): r for r in avg}
    for x in dict.fromkeys(r[xkey] for r in avg):
        lines.append(f"| {xfmt(x)} | " + " | ".join(f"{by[x, p]['pfc_pauses']:.1f}" for p in POLICIES) + " | "
                     + " | ".join(f"{by[x, p]['incast_fct_mean_us']:.1f}" for p in POLICIES) + " | "
                     + "/".join(f"{by[x, p]['incast_completed']:.0f}" for p in POLICIES)
                     + f" of {by[x, POLICIES[0]]['incast_flows']:.0f} |")
    tot = {p: (sum(r["pfc_pauses"] for r in avg if r["policy"] == p),
               np.mean([r["incast_fct_mean_us"] for r in avg if r["policy"] == p])) for p in POLICIES}
    red = {"pauses_vs_dt": pct_less(tot["reverie"][0], tot["dt"][0]),
           "pauses_vs_abm": pct_less(tot["reverie"][0], tot["abm"][0]),
           "fct_vs_dt": pct_less(tot["reverie"][1], tot["dt"][1]),
           "fct_vs_abm": pct_less(tot["reverie"][1], tot["abm"][1])}
    return "\n".join(lines), red


def sizes(full):
    if full:
        return dict(active_us=6000, seeds=list(range(1, 9)), queries=20)
    return dict(active_us=1800, seeds=[1, 2], queries=6)


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
    fig.suptitle("Reverie Fig. 10 shape: gamma sweep, websearch (lossless) 80 % + 2 MB incast", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "reverie-fig10.png"), dpi=110)
    plt.close(fig)
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
