"""DSH (ICDCS'23): Fig. 11b, the fan-in senders' total pause duration vs burst size."""
import os

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from traffic import headroom  # noqa: E402
from traffic.experiments.common import pfc_frames, base, run_all, write_csv  # noqa: E402


# DSH Fig. 11b: total pause duration of the fan-in senders vs burst size, DSH and SIH.

MB_PORTS, MB_NQ, MB_BUFFER, MB_PRIVATE, MB_T0 = 32, 7, 16 << 20, 3072, 200.0


def dsh_eta_bytes(rate_bps=100e9, delay_ps=2e6, mtu=1500, cell=256):
    """DSH Eq. 1, eta = 2(C*D + MTU) + 3840, in whole cells (as test_dsh.cc)."""
    return -(-headroom.eta_bytes(int(rate_bps), int(delay_ps), mtu) // cell) * cell


def send_us(nbytes):
    return nbytes * 1520 / 1500 * 8 / 100e9 * 1e6


def dsh_microbench(dsh, total):
    """dsh-icdcs23 §V-A (DOMAIN.md §5): 32 x 100G, 16 MiB, 7 lossless priorities, 2 us links,
    alpha = 1/16, 3 KiB private per PG; background h0, h1 -> h31; 16 fan-in h2-h17 -> h30 at t0."""
    cell = 256
    eta = dsh_eta_bytes()
    priv = MB_PORTS * MB_NQ * (-(-MB_PRIVATE // cell) * cell)
    headroom = MB_PORTS * (1 if dsh else MB_NQ) * eta
    pool = MB_BUFFER - priv - headroom
    dur = MB_T0 + send_us(total) * 1.6 + 50
    sc = base("dsh" if dsh else "sih", dur, sample_ns=100000)
    ports = ",".join(f"Ethernet{4 * i}" for i in range(MB_PORTS))
    sc["mmu"].update(buffer_bytes=MB_BUFFER, pipelines=1)
    pool_in = {"size": str(pool), "type": "ingress", "mode": "dynamic"}
    if dsh:
        pool_in["xoff"] = str(headroom)
    sc["buffer"] = {
        "BUFFER_POOL": {"ingress_pool": pool_in,
                        "egress_lossless_pool": {"size": str(MB_BUFFER), "type": "egress", "mode": "static"},
                        "egress_lossy_pool": {"size": str(pool), "type": "egress"}},
        "BUFFER_PROFILE": {
            "ingress_lossless_profile": {"pool": "ingress_pool", "size": str(MB_PRIVATE), "dynamic_th": -4,
                                         "xon": "0", "xon_offset": "0", "xoff": str(eta)},  # the paper's eta
            "ingress_lossy_profile": {"pool": "ingress_pool", "size": "0", "static_th": str(MB_BUFFER)},
            "egress_lossless_profile": {"pool": "egress_lossless_pool", "static_th": str(MB_BUFFER)},
            "egress_lossy_profile": {"pool": "egress_lossy_pool", "size": "0", "dynamic_th": 0}},
        "PORT_QOS_MAP": {ports: {"pfc_enable": "0-6"}}}
    sc["admission"] = {"policy": "dsh" if dsh else "sih", "dsh": {"port_xon_offset_bytes": 0}}
    sc["traffic"] = [
        {"type": "constant", "name": "background", "src": ["h0", "h1"], "dst": "h31", "dscp": 24},
        {"type": "incast", "name": "fanin", "senders": "h2-h17", "receiver": "h30", "dscp": 24,
         "burst_bytes": max(1, total // 16), "start_us": MB_T0}]
    return sc


def pause_duration_ns(frames, ports, end_ns):
    """Σ over (port, priority) in `ports` of the time from a PAUSE to the RESUME (or run end)."""
    since, total = {}, 0.0
    for t, port, times in frames:
        if port not in ports:
            continue
        for prio, q in enumerate(times):
            if q is None:
                continue
            if q and (port, prio) not in since:
                since[port, prio] = t
            elif not q and (port, prio) in since:
                total += t - since.pop((port, prio))
    return total + sum(end_ns - t for t in since.values())


def dsh_fig11b(out, mmusim, jobs, full):
    fracs = [0.05 * i for i in range(1, 21)] if full else [0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 0.9]
    runs = []
    for dsh in (False, True):
        for fr in fracs:
            runs.append(({"policy": "dsh" if dsh else "sih", "burst_fraction": round(fr, 3)},
                         dsh_microbench(dsh, int(fr * MB_BUFFER))))
    res = run_all(runs, out, mmusim, jobs, flags=["--pcap"])
    fanin = set(range(2, 18))
    rows = []
    for label, s, d in res:
        frames = pfc_frames(os.path.join(d, "pfc.pcap"))
        rows.append(dict(label, burst_bytes=int(label["burst_fraction"] * MB_BUFFER),
                         pause_duration_us=pause_duration_ns(frames, fanin, s["sim_time_ns"]) / 1000,
                         fanin_pause_frames=sum(1 for _, p, ts in frames if p in fanin and any(ts)),
                         drops_lossless=s["drops"]["lossless"],
                         fanin_completed=s["generators"]["fanin"]["completed"]))
    write_csv(os.path.join(out, "dsh-fig11b.csv"), rows)
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for p in ("sih", "dsh"):
        rs = [r for r in rows if r["policy"] == p]
        ax.plot([100 * r["burst_fraction"] for r in rs], [r["pause_duration_us"] for r in rs], "o-", label=p.upper())
    ax.set_xlabel("burst size (% of buffer, 16 senders in total)")
    ax.set_ylabel("total pause duration of fan-in queues (us)")
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title("DSH Fig. 11b shape: PFC avoidance", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "dsh-fig11b.png"), dpi=110)
    plt.close(fig)

    def free(p):
        ok = [r["burst_fraction"] for r in rows if r["policy"] == p and r["pause_duration_us"] == 0]
        return max(ok) if ok else 0.0

    lines = ["| burst (% of buffer) | SIH pause (us) | DSH pause (us) | SIH / DSH lossless drops |", "|---|---|---|---|"]
    by = {(r["policy"], r["burst_fraction"]): r for r in rows}
    for fr in fracs:
        fr = round(fr, 3)
        a, b = by["sih", fr], by["dsh", fr]
        lines.append(f"| {100 * fr:.0f} | {a['pause_duration_us']:.1f} | {b['pause_duration_us']:.1f} | "
                     f"{a['drops_lossless']} / {b['drops_lossless']} |")
    text = f"""## DSH Fig. 11b: pause duration vs burst size

`python3 -m traffic.experiments dsh-fig11b ...`: the §V-A microbenchmark (32 x 100G, 16 MiB, 7 lossless
priorities, eta = {dsh_eta_bytes()} B, alpha = 1/16, 3 KiB private; background h0, h1 -> h31; 16 fan-in
senders h2-h17 -> h30 at {MB_T0:.0f} us). Pause duration: Σ over the fan-in senders' (port, priority) of
PAUSE-to-RESUME time, from `pfc.pcap`. Files: `dsh-fig11b.csv`, `dsh-fig11b.png`.

![](results/dsh-fig11b.png)

{chr(10).join(lines)}

Largest pause-free burst on this grid: DSH {100 * free('dsh'):.0f} %, SIH {100 * free('sih'):.0f} % of the buffer
(paper: DSH avoids PAUSE up to 40 %, over 4x SIH; the bisection in tb/scenario/test_dsh.cc finds the exact edges).
"""
    return rows, text
