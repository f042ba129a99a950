#!/usr/bin/python3
"""`mmusim run --vcd-signals`: the selectable groups of counters.vcd, checked against the
run's own summary.json and against each other (issue 14).

  vcd_signals.py --mmusim build/mmusim
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

MMUSIM = None


def read_vcd(path):
    """({full name: id}, {id: [(time ps, value int)]}) of a SystemC VCD file."""
    names, changes, scope, t = {}, {}, [], 0
    with open(path) as f:
        for line in f:
            tok = line.split()
            if not tok:
                continue
            if tok[0] == "$scope":
                scope.append(tok[2])
            elif tok[0] == "$upscope":
                scope.pop()
            elif tok[0] == "$var":
                names[".".join(scope[1:] + [tok[4]])] = tok[3]  # drop SystemC's top scope
                changes[tok[3]] = []
            elif tok[0].startswith("#"):
                t = int(tok[0][1:])
            elif tok[0][0] == "b":
                changes[tok[1]].append((t, int(tok[0][1:], 2)))
            elif tok[0][0] in "01" and tok[0][1:] in changes:
                changes[tok[0][1:]].append((t, int(tok[0][0])))
    return names, changes


def at(series, t):
    """Value of a change list at time t (the last change at or before t)."""
    v = 0
    for ts, x in series:
        if ts > t:
            break
        v = x
    return v


def run(args, out):
    r = subprocess.run([MMUSIM, "run", *args, "--quiet", "--out", out], capture_output=True, text=True,
                       env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    assert r.returncode == 0, r.stderr
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f), read_vcd(os.path.join(out, "counters.vcd"))


class VcdSignals(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.summary, (cls.names, cls.ch) = run(["--vcd-signals", "queues,ports,pfc,mmu"],
                                               os.path.join(cls.tmp.name, "default"))

    def series(self, name):
        self.assertIn(name, self.names)
        return self.ch[self.names[name]]

    def test_groups_and_names(self):
        for name in ("sw0.mmu.total_bytes", "sw0.mmu.Ethernet0.pg3.ingress_bytes", "sw0.mmu.Ethernet0.pg3.headroom_bytes",
                     "sw0.mmu.Ethernet0.queue3.egress_bytes", "sw0.mmu.Ethernet4.ingress_bytes",
                     "sw0.mmu.Ethernet0.egress_bytes", "sw0.mmu.Ethernet4.pg3.xoff", "sw0.egress_Ethernet4.tx_paused3"):
            self.assertIn(name, self.names)
        # xoff only for lossless PGs (3 and 4 in the default); the default's --vcd is the mmu group.
        self.assertNotIn("sw0.mmu.Ethernet4.pg0.xoff", self.names)
        with tempfile.TemporaryDirectory() as d:
            _, (names, _) = run(["--vcd"], d)
            self.assertIn("sw0.mmu.total_bytes", names)
            self.assertFalse([n for n in names if ".pg" in n or "tx_paused" in n])

    def test_per_port_sums_equal_the_total_at_every_change(self):
        total = self.series("sw0.mmu.total_bytes")
        ports = sorted({m.group(1) for n in self.names for m in [re.match(r"sw0\.mmu\.(Ethernet\d+)\.ingress_bytes$", n)] if m})
        self.assertEqual(len(ports), 32)
        times = sorted({t for n, i in self.names.items() if n.startswith("sw0.mmu.") for t, _ in self.ch[i]})
        self.assertGreater(len(times), 1000)
        series = {p: (self.series(f"sw0.mmu.{p}.ingress_bytes"), self.series(f"sw0.mmu.{p}.egress_bytes")) for p in ports}
        pgs = {p: [(self.series(f"sw0.mmu.{p}.pg{q}.ingress_bytes"), self.series(f"sw0.mmu.{p}.pg{q}.headroom_bytes"))
                   for q in range(8)] for p in ports}
        for t in times[:: max(1, len(times) // 400)]:
            tot = at(total, t)
            self.assertEqual(sum(at(i, t) for i, _ in series.values()), tot, t)
            self.assertEqual(sum(at(e, t) for _, e in series.values()), tot, t)
            p = ports[int(t) % len(ports)]
            self.assertEqual(sum(at(i, t) + at(h, t) for i, h in pgs[p]), at(series[p][0], t), (t, p))

    def test_xoff_edges_and_time_match_the_summary(self):
        pfc = self.summary["switches"][0]["pfc"]
        start, end = (int(x * 1000) for x in self.summary["measure_ns"])
        rises = falls = 0
        paused_ps = 0
        for name, i in self.names.items():
            if not name.endswith(".xoff"):
                continue
            level, since = 0, 0
            for t, v in self.ch[i]:
                if v and not level:
                    rises += 1
                    since = t
                elif level and not v:
                    falls += 1
                    paused_ps += max(0, min(t, end) - max(since, start))
                level = v
            if level:
                paused_ps += max(0, end - max(since, start))
        self.assertGreater(pfc["xoff_events"], 0)
        self.assertEqual(rises, pfc["xoff_events"])
        self.assertEqual(falls, pfc["xon_events"])
        self.assertAlmostEqual(paused_ps / 1000, pfc["paused_time_ns"], delta=0.1)

    def test_transmitter_pause_between_switches(self):
        # The matched incast with 1.6 Tb/s uplinks: the receiver's leaf is the bottleneck and
        # pauses the spine's transmitter towards it, on the incast's priority (3) only.
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        with tempfile.TemporaryDirectory() as d:
            summary, (names, ch) = run([os.path.join(root, "scenarios", "artifact_incast.json"),
                                        "--set", "topology.generator.uplink_rate_gbps=1600",
                                        "--set", "traffic.0.burst_bytes=400000", "--set", "duration_us=1000",
                                        "--set", "measure.end_us=1000", "--vcd-signals", "pfc"], d)
            frames = {sw["name"]: sw["pfc"]["pause_frames"] for sw in summary["switches"]}
            self.assertGreater(frames["leaf0"], 0)
            self.assertEqual(frames["leaf1"] + frames["spine0"], 0)
            paused = {n: [t for t, v in ch[i] if v] for n, i in names.items() if ".tx_paused" in n}
            self.assertEqual(len(paused), (17 + 17 + 2) * 8)  # every egress port: 2 leaves, 1 spine
            hit = {n: len(r) for n, r in paused.items() if r}
            self.assertEqual(list(hit), ["spine0.egress_Ethernet0.tx_paused3"])
            self.assertLessEqual(hit["spine0.egress_Ethernet0.tx_paused3"], frames["leaf0"])

    def test_unknown_group_is_a_usage_error(self):
        r = subprocess.run([MMUSIM, "run", "--vcd-signals", "queues,bogus"], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("unknown signal group 'bogus'", r.stderr)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--mmusim", required=True)
    a, rest = ap.parse_known_args()
    MMUSIM = os.path.abspath(a.mmusim)
    unittest.main(argv=[sys.argv[0]] + rest)
