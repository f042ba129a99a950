"""The buffer-bandwidth tradeoff in lossless networks: Figs. 6 and 7."""
import os

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from traffic.experiments.common import pfc_frames, base, run_all, write_csv  # noqa: E402


# Buffer-bandwidth tradeoff in lossless networks (DOMAIN.md §8), the set-up of
# tb/scenario/test_buffer_bandwidth.cc: N synchronised sources paced at C = 40 Gb/s send one
# burst of T/N each into one output; links at alpha * C; per-input buffer = a static ingress
# threshold with XOFF; B = 10^6 bit = 125 000 B (the paper's "1 Mb = 128 KB"); no
# preamble/IFG (fluid model); 500 B frames of 2 x 250 B cells; 10 ns links.

BB_C, BB_B, BB_FRAME = 40e9, 125_000, 500


def bb_period_us(n):
    """Proposition 1: T = B N^2 / (C (N - 1))."""
    return BB_B * 8 * n * n / (BB_C * (n - 1)) * 1e6


def bb_beta4(n, a):
    """Proposition 4: no-pause buffer beta = (N - alpha)/(N - 1)."""
    return (n - a) / (n - 1)


def bb_beta5(n, a):
    """Proposition 5: effective-bandwidth-preserving buffer beta."""
    return (n - a) * (2 * n - a * n - 1) / (n - 1) ** 2


def bb_p_bound(n, a):
    """Largest paused fraction that keeps the effective bandwidth at C (proof of Prop. 5)."""
    return (a - 1) / (a - a / n)


def bb_scenario(n, alpha, per_input_bytes, sample_ns=1000):
    t = bb_period_us(n)
    sc = base(f"bb-N{n}-a{alpha:g}", t * 1.5, sample_ns)
    sc["topology"] = {"switch": "sw0", "ports": n + 1, "rate_gbps": BB_C / 1e9 * alpha, "link_delay_ns": 10,
                      "mtu_bytes": 1500, "wire_overhead_bytes": 0}
    sc["mmu"] = {"buffer_bytes": 16 << 20, "cell_bytes": 250, "clock_mhz": 1000, "pipeline_latency_cycles": 4,
                 "pipelines": 1}
    big = str(8 << 20)
    names = ",".join(f"Ethernet{4 * i}" for i in range(n + 1))
    sc["buffer"] = {
        "BUFFER_POOL": {"ingress_pool": {"size": big, "type": "ingress", "xoff": str(4 << 20)},
                        "egress_pool": {"size": big, "type": "egress", "mode": "static"}},
        "BUFFER_PROFILE": {
            "ingress_lossless_profile": {"pool": "ingress_pool", "size": "0", "static_th": str(round(per_input_bytes))},
            "ingress_lossy_profile": {"pool": "ingress_pool", "size": "0", "static_th": big},
            "egress_lossless_profile": {"pool": "egress_pool", "static_th": big},
            "egress_lossy_profile": {"pool": "egress_pool", "static_th": big}},
        "PORT_QOS_MAP": {names: {"pfc_enable": "3"}}}
    sc["output"] = {"sample_interval_ns": sample_ns, "ingress_peaks": True,
                    "threshold_queues": {"lossless": "Ethernet4|3"}}
    sc["traffic"] = [{"type": "incast", "name": "bursts", "senders": f"h1-h{n}", "receiver": "h0", "dscp": 24,
                      "rate_gbps": BB_C / 1e9, "packet_bytes": BB_FRAME,
                      "burst_bytes": round(BB_C * t * 1e-6 / n / 8)}]
    return sc


def bb_outcome(s, d):
    """Highest per-input peak (bytes), last byte delivered (us), first PAUSE (us, -1 if none)."""
    if s["drops"]["lossless"]:
        raise RuntimeError(f"{d}: {s['drops']['lossless']} lossless drops")
    if s["flows"]["completed"] != s["flows"]["started"]:
        raise RuntimeError(f"{d}: {s['flows']['started'] - s['flows']['completed']} bursts did not complete")
    peak = max(b for sw in s["switches"] for b in sw["ingress_peak_bytes"].values())
    pauses = [t for t, _, q in pfc_frames(os.path.join(d, "pfc.pcap")) if any(q)]
    return {"peak_bytes": peak, "done_us": s["flows"]["fct_ns"]["max"] / 1000,
            "first_pause_us": pauses[0] / 1000 if pauses else -1.0, "pause_frames": s["pfc"]["pause_frames"]}


def bb_fig6(out, mmusim, jobs, full):
    """Fig. 6: buffer saving 1 - beta vs alpha (a) and vs N (b). Per (N, alpha), three runs:
    a large buffer (2B): the peak per input is the no-pause buffer (Prop. 4); buffers of
    beta5 B and (beta4 + beta5)/2 B: the paused fraction p = (t2 - t1)/T measured at each
    (t1 = first PAUSE, t2 = last byte delivered - the buffer's drain time N beta B/(alpha C)),
    and the buffer at which p reaches the bound, by linear interpolation = measured beta (Prop. 5)."""
    ns = [2, 4, 10, 20, 32, 50] if full else [2, 4, 10]
    alphas = [1.05, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.8] if full else [1.1, 1.2, 1.3, 1.4, 1.5]
    runs = []
    for n in ns:
        for a in alphas:
            b4, b5 = bb_beta4(n, a), bb_beta5(n, a)
            runs.append(({"N": n, "alpha": a, "run": "peak", "beta": 2.0}, bb_scenario(n, a, 2 * BB_B)))
            if b5 * BB_B >= 20 * BB_FRAME:   # a buffer of a few frames at least (N = 2, alpha >= 1.5: none needed)
                for tag, b in (("p5", b5), ("pmid", (b4 + b5) / 2)):
                    runs.append(({"N": n, "alpha": a, "run": tag, "beta": b}, bb_scenario(n, a, b * BB_B)))
    res = run_all(runs, out, mmusim, jobs, flags=["--pcap"])
    got = {}
    for label, s, d in res:
        got[label["N"], label["alpha"], label["run"]] = (label["beta"], bb_outcome(s, d))
    rows = []
    for n in ns:
        for a in alphas:
            t = bb_period_us(n)
            b4, b5, bound = bb_beta4(n, a), bb_beta5(n, a), bb_p_bound(n, a)
            _, pk = got[n, a, "peak"]
            row = {"N": n, "alpha": a, "beta4_prop4": b4, "beta4_measured": pk["peak_bytes"] / BB_B,
                   "peak_pause_frames": pk["pause_frames"], "done_us": pk["done_us"], "t3_paper_us": t / a,
                   "beta5_prop5": b5, "p_bound": bound, "p_at_beta5": "", "beta5_measured": ""}
            if (n, a, "p5") in got:
                ps = []
                for tag in ("p5", "pmid"):
                    b, o = got[n, a, tag]
                    drain = n * b * BB_B * 8 / (a * BB_C) * 1e6
                    ps.append((b, (o["done_us"] - drain - o["first_pause_us"]) / t if o["first_pause_us"] >= 0 else 0.0))
                (x0, y0), (x1, y1) = ps
                row["p_at_beta5"] = y0
                row["beta5_measured"] = x0 + (bound - y0) * (x1 - x0) / (y1 - y0) if y1 != y0 else x0
            rows.append(row)
    write_csv(os.path.join(out, "bb-fig6.csv"), rows)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    xa = np.linspace(1.0, max(alphas) + 0.05, 200)
    for i, n in enumerate(ns):
        c = f"C{i}"
        axes[0].plot(xa, 1 - np.clip(bb_beta5(n, xa), 0, None), "-", color=c, label=f"N={n}: Prop. 5")
        axes[0].plot(xa, 1 - bb_beta4(n, xa), ":", color=c, lw=1)
        rs = [r for r in rows if r["N"] == n]
        axes[0].plot([r["alpha"] for r in rs], [1 - r["beta4_measured"] for r in rs], "o", mfc="none", color=c)
        m = [r for r in rs if r["beta5_measured"] != ""]
        axes[0].plot([r["alpha"] for r in m], [1 - r["beta5_measured"] for r in m], "x", color=c)
    axes[0].plot(xa, xa - 1, "k--", lw=0.8, label="alpha - 1 (Prop. 6 limit)")
    axes[0].set_xlabel("link bandwidth factor alpha")
    axes[0].set_ylabel("buffer saving 1 - beta")
    axes[0].set_title("(a) vs alpha; lines Prop. 5 (dotted Prop. 4);\nx measured Prop. 5, o measured Prop. 4 (peak)", fontsize=9)
    xn = np.linspace(2, max(ns), 200)
    for i, a in enumerate(a for a in alphas if round(a * 10) % 2 == 1 or a == alphas[-1]):
        c = f"C{i + len(ns)}"
        axes[1].plot(xn, 1 - np.clip(bb_beta5(xn, a), 0, None), "-", color=c, label=f"alpha={a:g}: Prop. 5")
        axes[1].axhline(a - 1, color=c, ls="--", lw=0.8)
        m = [r for r in rows if r["alpha"] == a and r["beta5_measured"] != ""]
        axes[1].plot([r["N"] for r in m], [1 - r["beta5_measured"] for r in m], "x", color=c)
    axes[1].set_xlabel("number of inputs N")
    axes[1].set_ylabel("buffer saving 1 - beta")
    axes[1].set_title("(b) vs N; dashed: alpha - 1 (limit N -> inf); x measured", fontsize=9)
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
        ax.set_ylim(0, 1.05)
    fig.suptitle("Buffer-bandwidth tradeoff Fig. 6: buffer saving, closed forms and mmusim runs", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "bb-fig6.png"), dpi=110)
    plt.close(fig)

    def fmt(v, f="{:.3f}"):
        return "—" if v == "" else f.format(v)

    lines = ["| N | alpha | 1 - beta Prop. 4 | measured (1 - peak/B) | 1 - beta Prop. 5 | measured | p at beta5 B | bound on p |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['N']} | {r['alpha']:g} | {1 - r['beta4_prop4']:.3f} | {1 - r['beta4_measured']:.3f} | "
                     f"{1 - max(0.0, r['beta5_prop5']):.3f} | {fmt('' if r['beta5_measured'] == '' else 1 - r['beta5_measured'])} | "
                     f"{fmt(r['p_at_beta5'])} | {r['p_bound']:.3f} |")
    err4 = max(abs(r["beta4_measured"] / r["beta4_prop4"] - 1) for r in rows)
    err5 = max(abs(r["beta5_measured"] - r["beta5_prop5"]) for r in rows if r["beta5_measured"] != "")
    unmeasured = ", ".join(f"N = {r['N']} at alpha = {r['alpha']:g}" for r in rows if r["beta5_measured"] == "")
    text = f"""## Buffer-bandwidth tradeoff Fig. 6: buffer saving vs alpha and N

`python3 -m traffic.experiments bb-fig6 ...`: the paper's single switch (as in
`tb/scenario/test_buffer_bandwidth.cc`): N synchronised sources paced at C = 40 Gb/s send one burst of T/N
(T from Prop. 1) into one output, links at alpha x C, per-input buffer B = 10^6 bit = 125 000 B (the paper's
"1 Mb = 128 KB") as a static ingress threshold with XOFF, no preamble/IFG, 500 B frames, 10 ns links.
Per (N, alpha): a 2B buffer gives the peak per input, the no-pause buffer of Prop. 4; buffers of beta5 B and
(beta4 + beta5)/2 B give the paused fraction p = (t2 - t1)/T (t1 = first PAUSE in `pfc.pcap`, t2 = last
byte delivered minus the buffer's drain time N beta B/(alpha C)), and the buffer at which p reaches the
bound (alpha - 1)/(alpha - alpha/N), interpolated, is the measured Prop. 5 beta. The paper's Fig. 6 plots
Prop. 5's closed form only; here the lines are the closed forms and the markers mmusim runs.
Files: `bb-fig6.csv`, `bb-fig6.png`.

![](results/bb-fig6.png)

{chr(10).join(lines)}

Largest deviation: Prop. 4, |peak/B / beta - 1| = {100 * err4:.2f} %; Prop. 5, |beta measured - beta| = {err5:.3f}.
Paper (Fig. 6 text, Prop. 5): alpha = 1.1 saves 0.280 at N = 2 and 0.106 at N = 32; alpha = 1.5 saves 1 at
N = 2, 0.580 / 0.539 / 0.515 at N = 10 / 20 / 50, and 1 - beta >= alpha - 1 for every N >= 2 (Prop. 6).
No measured Prop. 5 value where beta5 B is under 20 frames ({unmeasured}; beta5 <= 0 there: no buffer
needed, saving 1). The no-pause peak sits one 500 B frame (0.004 B) above beta B: the frame that crosses
the fluid peak is charged whole, which is the whole deviation at large N and small alpha.
"""
    return rows, text


def bb_fig7(out, mmusim, jobs, full):
    """Fig. 7: per-input occupancy over one period, N = 2, 40G and 56G (alpha = 1.4), 2B buffer."""
    n, sample = 2, 100 if full else 500
    t = bb_period_us(n)
    runs = [({"alpha": a}, bb_scenario(n, a, 2 * BB_B, sample)) for a in (1.0, 1.4)]
    res = run_all(runs, out, mmusim, jobs, flags=["--pcap"])
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    rows, series = [], {}
    for i, (label, s, d) in enumerate(res):
        a = label["alpha"]
        o = bb_outcome(s, d)
        ts = np.genfromtxt(os.path.join(d, "timeseries.csv"), delimiter=",", names=True)
        tu, q = ts["time_ns"] / 1000, ts["q_ingress_lossless_bytes"]
        beta = bb_beta4(n, a)
        # Fluid model (Fig. 3/4): fills at C - alpha C/N until T/N, drains at alpha C/N until T/alpha.
        fluid = np.where(tu <= t / n, (BB_C - a * BB_C / n) * tu * 1e-6 / 8,
                         np.clip(beta * BB_B - a * BB_C / n * (tu - t / n) * 1e-6 / 8, 0, None))
        series[a] = (tu, q, fluid)
        c = f"C{i}"
        ax.plot(tu, q / 1000, "-", color=c, label=f"{40 * a:g} Gb/s (alpha = {a:g}): mmusim")
        ax.plot(tu, fluid / 1000, "--", color=c, lw=1, label=f"{40 * a:g} Gb/s: fluid model (Prop. 2/4)")
        in_period = tu <= t
        rows.append({"alpha": a, "link_gbps": 40 * a, "peak_bytes": o["peak_bytes"], "paper_peak_bytes": beta * BB_B,
                     "peak_time_us": float(tu[np.argmax(q)]), "paper_peak_time_us": t / n,
                     "done_us": o["done_us"], "paper_done_us": t / a, "pause_frames": o["pause_frames"],
                     "rms_dev_from_fluid_bytes": float(np.sqrt(np.mean((q[in_period] - fluid[in_period]) ** 2)))})
    ax.set_xlim(0, t * 1.1)
    ax.set_xlabel("time (us)")
    ax.set_ylabel("occupancy of one input's buffer (KB = 1000 B)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Buffer-bandwidth Fig. 7: N = 2, C = 40 Gb/s, T = 100 us; 40G vs 56G links", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "bb-fig7.png"), dpi=110)
    plt.close(fig)
    write_csv(os.path.join(out, "bb-fig7.csv"), rows)
    tu = series[1.0][0]
    write_csv(os.path.join(out, "bb-fig7-series.csv"),
              [{"time_us": round(float(x), 3), "q40_bytes": int(series[1.0][1][i]), "fluid40_bytes": round(float(series[1.0][2][i])),
                "q56_bytes": int(series[1.4][1][i]), "fluid56_bytes": round(float(series[1.4][2][i]))}
               for i, x in enumerate(tu) if x <= t * 1.1])
    r40, r56 = rows
    text = f"""## Buffer-bandwidth tradeoff Fig. 7: occupancy over a period, 40G vs 56G

`python3 -m traffic.experiments bb-fig7 ...`: Examples 1 and 2 on the Fig. 6 set-up: N = 2 sources at
C = 40 Gb/s, T = 100 us (bursts of 500 000 B), per-input buffer 2B (never full), links at 40 and 56 Gb/s.
The curve is input 1's ingress occupancy (`timeseries.csv` `q_ingress_lossless_bytes`,
`output.threshold_queues` = Ethernet4|3) every {sample} ns; dashed: the paper's fluid model (fill at
C - alpha C/N until T/N, drain at alpha C/N). Files: `bb-fig7.csv`, `bb-fig7-series.csv`, `bb-fig7.png`.

![](results/bb-fig7.png)

| links | peak per input (B) | paper | peak at (us) | paper | done (us) | paper | RMS from fluid (B) | PAUSE frames |
|---|---|---|---|---|---|---|---|---|
| 40 Gb/s | {r40['peak_bytes']:.0f} | B = 125 000 ("128 KB") | {r40['peak_time_us']:.1f} | 50 | {r40['done_us']:.2f} | T = 100 | {r40['rms_dev_from_fluid_bytes']:.0f} | {r40['pause_frames']} |
| 56 Gb/s | {r56['peak_bytes']:.0f} | 0.6 B = 75 000 ("76.8 KB") | {r56['peak_time_us']:.1f} | 50 | {r56['done_us']:.2f} | T/1.4 = 71.43 | {r56['rms_dev_from_fluid_bytes']:.0f} | {r56['pause_frames']} |

Paper (Fig. 7, OMNeT++/INET, 1.5 KB packets): maximal occupancy B = 128 KB after 0.05 ms at 40 Gb/s and
beta B = 76.8 KB at 56 Gb/s (beta = 0.6), the period's traffic served within 5/70 ≈ 0.071 ms.
"""
    return rows, text
