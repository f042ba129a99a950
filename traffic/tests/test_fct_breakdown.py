"""traffic.fct_breakdown on a hand-made run (VCD + flows.csv + summary.json), and paper_scenario's
launch window (reverie-fig7-paper)."""
import csv
import json
import os
import random
import tempfile
import unittest

from traffic import fct_breakdown
from traffic.experiments import reverie

VCD = """$timescale 1 ps $end
$scope module SystemC $end
$scope module leaf0 $end
$scope module egress_Ethernet8 $end
$var wire 1 p tx_paused3 $end
$upscope $end
$scope module mmu $end
$scope module Ethernet0 $end
$scope module queue3 $end
$var wire 64 q egress_bytes $end
$upscope $end
$upscope $end
$scope module Ethernet8 $end
$scope module queue3 $end
$var wire 64 u egress_bytes $end
$upscope $end
$upscope $end
$upscope $end
$upscope $end
$scope module leaf1 $end
$scope module egress_Ethernet8 $end
$var wire 1 r tx_paused3 $end
$upscope $end
$scope module mmu $end
$scope module Ethernet8 $end
$scope module queue3 $end
$var wire 64 w egress_bytes $end
$upscope $end
$upscope $end
$upscope $end
$upscope $end
$scope module spine0 $end
$scope module egress_Ethernet0 $end
$var wire 1 s tx_paused3 $end
$upscope $end
$scope module mmu $end
$scope module Ethernet0 $end
$scope module queue3 $end
$var wire 64 x egress_bytes $end
$upscope $end
$upscope $end
$upscope $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
b0 q
#100000
b111110100000 q
1s
#300000
b0 q
0s
b1111101000000 x
#500000
b11111010000 w
1r
"""


class Breakdown(unittest.TestCase):
    def test_hand_made_run(self):
        # One incast: h0 (leaf 0, port 0) asks leaf 1 (2 hosts per leaf, 1 spine) at 0 us; its two
        # answers (2 x 500 B) finish at 0.5 and 1 us. Over [0, 1000000) ps: requester queue 4000 B
        # on [0.1, 0.3) us and empty the rest (80 %, mean 800 B); spine port toward leaf 0 paused
        # [0.1, 0.3) (20 %), its queue 8000 B from 0.3 us (70 % x 8000 = 5600 B); leaf 1 uplink
        # queue 2000 B and paused from 0.5 us (1000 B, 50 %).
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "counters.vcd"), "w") as f:
                f.write(VCD)
            with open(os.path.join(d, "flows.csv"), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["id", "generator", "src", "dst", "bytes", "start_ns", "finish_ns", "fct_ns"])
                w.writerow([0, "incast", "h2", "h0", 500, "0.000", "500.000", "500.000"])
                w.writerow([1, "incast", "h3", "h0", 500, "0.000", "1000.000", "1000.000"])
                w.writerow([2, "background", "h1", "h2", 9000, "0.000", "", ""])
            with open(os.path.join(d, "summary.json"), "w") as f:
                json.dump({"generators": {"incast": {"flows": 2}}, "pfc": {"xoff_events": 1},
                           "transport": {"dcqcn": {"cnps_received": 3}}}, f)
            rows, tot = fct_breakdown.breakdown(d, hpl=2, spines=1, rate_gbps=1)
            only = fct_breakdown.flows_only(d, rate_gbps=1)
        self.assertEqual(only, [{"start_us": 0.0, "requester": 0, "last_fct_us": 1.0, "floor_us": 8.0,
                                 "mean_fct_us": 0.75, "overlapping_incasts": 0, "background_to_requester_mb": 0.0}])
        self.assertEqual(len(rows), 1)
        r = rows[0]
        self.assertEqual((r["requester"], r["requester_leaf"], r["responder_leaf"]), (0, 0, 1))
        self.assertAlmostEqual(r["last_fct_us"], 1.0)
        self.assertAlmostEqual(r["mean_fct_us"], 0.75)
        self.assertAlmostEqual(r["floor_us"], 8.0)       # 1000 B at 1 Gb/s
        self.assertAlmostEqual(r["req_queue_empty_pct"], 80.0)
        self.assertAlmostEqual(r["req_queue_kb"], 0.8)
        self.assertAlmostEqual(r["spine_queue_kb"], 5.6)
        self.assertAlmostEqual(r["uplink_queue_kb"], 1.0)
        self.assertAlmostEqual(r["spine_paused_pct"], 20.0)
        self.assertAlmostEqual(r["uplink_paused_pct"], 50.0)
        self.assertEqual(r["overlapping_incasts"], 0)
        self.assertEqual(r["background_to_requester_mb"], 0)  # the background flow goes to h2
        self.assertEqual(tot, {"incast_flows": 2, "cnps": 3, "xoff": 1})


LEAF_VCD = """$timescale 1 ps $end
$scope module SystemC $end
$scope module sw0 $end
$scope module mmu $end
$scope module Ethernet0 $end
$scope module queue3 $end
$var wire 64 m ecn_marked $end
$upscope $end
$upscope $end
$scope module Ethernet4 $end
$scope module pg3 $end
$var wire 1 a xoff $end
$upscope $end
$upscope $end
$scope module Ethernet8 $end
$scope module pg3 $end
$var wire 1 b xoff $end
$upscope $end
$upscope $end
$upscope $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
b0 m
0a
0b
#100000
1a
b10 m
#200000
0a
#300000
1a
1b
#400000
0a
b111 m
#{end}
0b
"""


def leaf_run(d, fcts, end_ps):
    # h0 asks h1 and h2 (Ethernet4, Ethernet8) at 0 us; answers' FCTs in ns; Ethernet4's PG 3 in
    # XOFF over [0.1, 0.2) and [0.3, 0.4) us, Ethernet8's from 0.3 us to end_ps; 2 marks at 0.1 us,
    # 7 in all at 0.4 us.
    os.makedirs(d)
    with open(os.path.join(d, "counters.vcd"), "w") as f:
        f.write(LEAF_VCD.replace("{end}", str(end_ps)))
    with open(os.path.join(d, "flows.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "generator", "src", "dst", "bytes", "start_ns", "finish_ns", "fct_ns"])
        w.writerow([0, "incast", "h1", "h0", 500, "0.000", f"{fcts[0]:.3f}", f"{fcts[0]:.3f}"])
        w.writerow([1, "incast", "h2", "h0", 500, "0.000", f"{fcts[1]:.3f}", f"{fcts[1]:.3f}"])
        w.writerow([2, "background", "h1", "h0", 9000, "0.000", "", ""])


class Leaf(unittest.TestCase):
    def test_feeders_xoff_time_count_and_marks(self):
        with tempfile.TemporaryDirectory() as d:
            leaf_run(os.path.join(d, "a"), (500, 1000), 700000)
            leaf_run(os.path.join(d, "b"), (400, 600), 500000)
            ra = fct_breakdown.leaf_breakdown(os.path.join(d, "a"))
            rb = fct_breakdown.leaf_breakdown(os.path.join(d, "b"))
        # A: over [0, 1) us, Ethernet4 0.2 us in XOFF (2 XOFFs), Ethernet8 0.4 us (1): 0.6 port-us.
        self.assertEqual(len(ra), 1)
        a = ra[0]
        self.assertEqual((a["requester"], a["answers"], a["feeders_xoffs"], a["requester_ecn_marks"]), (0, 2, 3, 7))
        self.assertAlmostEqual(a["mean_fct_us"], 0.75)
        self.assertAlmostEqual(a["feeders_xoff_us"], 0.6)
        self.assertEqual(a["background_to_requester_mb"], 0.009)  # unfinished, so active throughout
        # B: over [0, 0.6) us, Ethernet8 in XOFF [0.3, 0.5): 0.2 + 0.2 = 0.4 port-us.
        self.assertAlmostEqual(rb[0]["feeders_xoff_us"], 0.4)
        rows, sm = fct_breakdown.compare([(ra, rb)])
        self.assertEqual((sm["incasts"], sm["fct_fell"], sm["xoff_time_fell"], sm["xoffs_rose"]), (1, 1, 1, 0))
        self.assertAlmostEqual(rows[0]["mean_fct_us_b"], 0.5)
        self.assertAlmostEqual(sm["fct_fell_group"]["feeders_xoff_us"][1], 0.4)
        # Per answer, its own feeder over the incast: A (h1 0.5 us, 0.2; h2 1 us, 0.4), B (h1 0.4, 0.2;
        # h2 0.6, 0.2). Within incasts 2.5 us per us; B - A: h1 (-0.1 us, 0), h2 (-0.4, -0.2): 1.5.
        af = fct_breakdown.answer_fits([(ra, rb)])
        self.assertEqual(af["answers"], 2)
        self.assertAlmostEqual(af["within"][1], 2.5)
        self.assertAlmostEqual(af["change"][0], 1.0)
        self.assertAlmostEqual(af["change"][1], 1.5)


class LaunchWindow(unittest.TestCase):
    def test_flows_start_in_the_launch_window_and_the_run_is_longer(self):
        seed = random.randrange(1, 2**31)
        print(f"\nseed {seed}")
        with tempfile.TemporaryDirectory() as d:
            sc = reverie.paper_scenario("t", 0.8, 2_000_000, 30_000, seed, d, launch_us=20_000, queries_per_s=20.0)
            self.assertEqual(sc["duration_us"], 30_000)
            for name in ("t-bg.csv", "t-incast.csv"):
                with open(os.path.join(d, name)) as f:
                    starts = [float(r["start_ns"]) for r in csv.DictReader(x for x in f if not x.startswith("#"))]
                self.assertTrue(starts)
                self.assertLess(max(starts), 20_000_000.0, name)

    def test_next_leaf_is_the_artifacts_pattern(self):
        # reverie-evaluation-sigcomm2023.cc: leaf l's servers query all 16 servers of leaf l + 1
        # (mod 16), and its background goes to leaf l + 1 only.
        seed = random.randrange(1, 2**31)
        print(f"\nseed {seed}")
        with tempfile.TemporaryDirectory() as d:
            reverie.paper_scenario("n", 0.8, 2_000_000, 5_000, seed, d, queries_per_s=20.0, next_leaf=True)
            rows = {}
            for kind in ("bg", "incast"):
                with open(os.path.join(d, f"n-{kind}.csv")) as f:
                    rows[kind] = list(csv.DictReader(x for x in f if not x.startswith("#")))
        self.assertTrue(rows["bg"] and rows["incast"])
        for r in rows["bg"]:
            self.assertEqual((int(r["dst"]) // 16 - int(r["src"]) // 16) % 16, 1, r)
        queries = {}
        for r in rows["incast"]:
            self.assertEqual((int(r["src"]) // 16 - int(r["dst"]) // 16) % 16, 1, r)
            self.assertEqual(int(r["bytes"]), 2_000_000 // 16)
            queries.setdefault((r["start_ns"], r["dst"]), set()).add(int(r["src"]))
        for (_, dst), srcs in queries.items():
            leaf = (int(dst) // 16 + 1) % 16
            self.assertEqual(srcs, set(range(16 * leaf, 16 * leaf + 16)))
        for kind in rows:
            starts = [float(r["start_ns"]) for r in rows[kind]]
            self.assertEqual(starts, sorted(starts))
            self.assertEqual([int(r["src_port"]) for r in rows[kind]],
                             [49152 + i % 16384 for i in range(len(rows[kind]))])


if __name__ == "__main__":
    unittest.main()
