"""Workloads: published flow-size CDFs, arrival processes at a target load, the Reverie
query-response incast, and synchronised periodic bursts. Every generator takes a seed and
returns the same flows for the same arguments (numpy's PCG64 generator).

A flow is a `trace.FlowRecord`; `trace.write_trace` writes them for mmusim's "trace"
generator (docs/traces.md).
"""
import math
import pathlib

import numpy as np

from traffic.trace import FlowRecord

DATA = pathlib.Path(__file__).resolve().parent / "data"
WORKLOADS = ("websearch", "datamining", "fb_hadoop", "google_rpc")


def _ephemeral_ports(flows):
    """Source ports 49152 + (flow index mod 16384), as mmusim numbers its own flows."""
    return [f._replace(src_port=49152 + i % 16384) for i, f in enumerate(flows)]


class Cdf:
    """A flow-size CDF given by points, sampled with linear interpolation between them
    (the same rule as mmusim's "cdf" size distribution)."""

    def __init__(self, sizes, probs, name=""):
        self.sizes = np.asarray(sizes, dtype=float)
        self.probs = np.asarray(probs, dtype=float)
        self.name = name
        if len(self.sizes) < 2 or np.any(np.diff(self.sizes) < 0) or np.any(np.diff(self.probs) < 0):
            raise ValueError(f"{name}: sizes and probabilities must be non-decreasing")
        if self.probs[0] != 0 or self.probs[-1] != 1:
            raise ValueError(f"{name}: the CDF must run from 0 to 1")

    def mean(self):
        """Exact mean of the piecewise-linear CDF (uniform within each segment)."""
        return float(np.sum(np.diff(self.probs) * (self.sizes[1:] + self.sizes[:-1]) / 2))

    def sample(self, rng, n):
        """n sizes in bytes (integers >= 1)."""
        u = rng.random(n)
        return np.maximum(1, np.rint(np.interp(u, self.probs, self.sizes))).astype(np.int64)

    def points(self):
        """[[bytes, cdf], ...] for a scenario's {"dist": "cdf", "points": ...}."""
        return [[max(1, int(b)), float(p)] for b, p in zip(self.sizes, self.probs)]


def load_cdf(name):
    """A CDF from traffic/data/<name>.csv (comment lines start with '#')."""
    path = DATA / f"{name}.csv"
    if not path.exists():
        raise ValueError(f"unknown workload '{name}' (known: {', '.join(WORKLOADS)})")
    sizes, probs = [], []
    with open(path) as f:
        lines = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    if lines[0] != "bytes,cdf":
        raise ValueError(f"{path}: header must be 'bytes,cdf'")
    for k, ln in enumerate(lines[1:], start=2):
        b, p = ln.split(",")
        sizes.append(float(b))
        probs.append(float(p))
    return Cdf(sizes, probs, name)


def arrival_gaps(rng, n, mean_gap, process="poisson", sigma=2.0):
    """n inter-arrival gaps with mean `mean_gap`: exponential (Poisson process) or lognormal
    with shape sigma (mu chosen so the mean is exact: mu = ln(mean) - sigma^2 / 2)."""
    if process == "poisson":
        return rng.exponential(mean_gap, n)
    if process == "lognormal":
        return rng.lognormal(math.log(mean_gap) - sigma * sigma / 2, sigma, n)
    raise ValueError(f"arrival process '{process}' (poisson or lognormal)")


def _other_groups(host, groups):
    """The hosts of every group in `groups` (lists of hosts, e.g. per leaf) but host's own."""
    return [h for g in groups if host not in g for h in g]


def background(hosts, load, rate_gbps, duration_us, workload="websearch", process="poisson",
               sigma=2.0, seed=1, dscp=0, start_us=0.0, dsts=None, groups=None):
    """Open-loop flows from every host in `hosts` to a uniformly chosen other host of
    `dsts` (default: `hosts`), each source offering `load` x its line rate on average.
    With `groups` (lists of hosts, e.g. one per leaf) a source's destinations are the hosts
    of the other groups instead, as the ABM/Reverie artifact's senders pick servers of other
    leaves."""
    cdf = workload if isinstance(workload, Cdf) else load_cdf(workload)
    if not 0 < load <= 1:
        raise ValueError(f"load {load} must be in (0, 1]")
    dsts = list(hosts if dsts is None else dsts)
    rng = np.random.default_rng(seed)
    # Mean gap so that mean size / gap = load x rate (bytes per ns = Gb/s / 8).
    mean_gap_ns = cdf.mean() * 8 / (load * rate_gbps)
    flows = []
    end_ns = (start_us + duration_us) * 1000.0
    for src in hosts:
        others = _other_groups(src, groups) if groups else [d for d in dsts if d != src]
        if not others:
            raise ValueError(f"host {src} has no destination other than itself")
        t = start_us * 1000.0
        while True:
            # Draw in blocks: the number of flows is not known in advance.
            gaps = arrival_gaps(rng, 256, mean_gap_ns, process, sigma)
            sizes = cdf.sample(rng, 256)
            picks = rng.integers(0, len(others), 256)
            for g, s, k in zip(gaps, sizes, picks):
                t += g
                if t >= end_ns:
                    break
                flows.append(FlowRecord(round(t, 3), src, others[k], int(s), dscp))
            else:
                continue
            break
    flows.sort(key=lambda f: (f.start_ns, f.src))
    return _ephemeral_ports(flows)


def query_response(servers, file_bytes, requests_per_s, duration_us, seed=1, dscp=3,
                   responders=None, start_us=0.0, groups=None):
    """Reverie §4.1 incast: each server issues queries (Poisson, `requests_per_s` on
    average) to all `responders` (default: every other server); each responder answers
    with file_bytes / len(responders) bytes, so the requester receives a burst of the
    file size from all of them at once. With `groups` (lists of hosts, one per leaf) each
    query goes to all servers of one other group, chosen uniformly at random (§4.1: "all
    servers connected to a different leaf switch, chosen uniformly at random")."""
    rng = np.random.default_rng(seed)
    flows = []
    end_ns = (start_us + duration_us) * 1000.0
    mean_gap_ns = 1e9 / requests_per_s
    for req in servers:
        resp = [s for s in (servers if responders is None else responders) if s != req]
        others = [g for g in groups if req not in g] if groups else None
        if not resp or (groups and not others):
            raise ValueError(f"server {req} has no responder")
        t = start_us * 1000.0 + rng.exponential(mean_gap_ns)
        while t < end_ns:
            if others:
                resp = others[rng.integers(0, len(others))]
            part = max(1, file_bytes // len(resp))
            for r in resp:
                flows.append(FlowRecord(round(t, 3), r, req, part, dscp))
            t += rng.exponential(mean_gap_ns)
    flows.sort(key=lambda f: (f.start_ns, f.dst, f.src))
    return _ephemeral_ports(flows)


def merge(*lists):
    """Flow lists from several generator calls as one trace: in start order, source ports renumbered."""
    flows = sorted((f for fl in lists for f in fl), key=lambda f: (f.start_ns, f.src, f.dst))
    return _ephemeral_ports(flows)


def periodic_bursts(senders, receiver, burst_bytes, period_us, count, start_us=0.0, dscp=3):
    """Synchronised bursts: every sender starts `burst_bytes` to `receiver` at start,
    start + period, ... (count bursts), as in the buffer-bandwidth paper's incast."""
    flows = []
    for k in range(count):
        t = round((start_us + k * period_us) * 1000.0, 3)
        for s in senders:
            flows.append(FlowRecord(t, s, receiver, burst_bytes, dscp))
    return _ephemeral_ports(flows)
