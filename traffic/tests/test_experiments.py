"""Paper experiments in quick mode: each writes its CSV, PNG and results section, and its
numbers have the paper's shape."""
import csv
import json
import os
import subprocess
import tempfile
import unittest

from traffic import experiments, sweep
from traffic.experiments import bb, common

MMUSIM = sweep.mmusim_path()


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


@unittest.skipUnless(os.path.exists(MMUSIM), f"{MMUSIM} not built")
class QuickExperiments(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = cls.tmp.name
        cls.doc = os.path.join(cls.out, "results.md")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_exp(self, name):
        self.assertEqual(experiments.main([name, "--out", self.out, "--doc", self.doc, "--jobs", "2"]), 0)
        with open(os.path.join(self.out, f"{name}.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        with open(self.doc) as f:
            doc = f.read()
        self.assertIn(f"<!-- {name} -->", doc)
        self.assertIn(f"<!-- /{name} -->", doc)
        return rows(os.path.join(self.out, f"{name}.csv"))

    def test_fig2_reverie_absorbs_the_burst_dt_pauses(self):
        dt, rv = self.run_exp("reverie-fig2")
        print(f"\nFig. 2: XOFF dt {dt['xoff_events']}, reverie {rv['xoff_events']}; reverie max q "
              f"{float(rv['q_max_kb']):.0f} KiB, max q_hat {float(rv['qhat_max_kb']):.0f} KiB")
        self.assertEqual(int(dt["xoff_events"]), 16)   # every burst sender paused once
        self.assertEqual(int(rv["xoff_events"]), 0)
        # gamma = 1 - 2^-10 keeps q_hat well under the instantaneous peak.
        self.assertLess(float(rv["qhat_max_kb"]), float(rv["q_max_kb"]) / 3)
        self.assertEqual(float(dt["qhat_max_kb"]), float(dt["q_max_kb"]))  # DT compares q itself

    def _pauses(self, avg, policy):
        return sum(float(r["pfc_pauses"]) for r in avg if r["policy"] == policy)

    def test_fig7_reverie_fewest_pauses_across_loads(self):
        avg = self.run_exp("reverie-fig7")
        dt, abm, rv = (self._pauses(avg, p) for p in ("dt", "abm", "reverie"))
        print(f"\nFig. 7 pauses summed over loads: dt {dt:.0f}, abm {abm:.0f}, reverie {rv:.0f} "
              f"(paper: reverie 60 % fewer than dt, 71.2 % fewer than abm)")
        self.assertLess(rv, 0.7 * dt)
        self.assertLess(rv, 0.7 * abm)
        self.assertTrue(all(r["incast_completed"] == r["incast_flows"] for r in avg))

    CLOSED_LOOP_COLUMNS = {"policy", "seed", "pfc_pauses", "incast_fct_mean_us", "incast_flows", "incast_completed",
                           "drops_lossless", "drops_lossy", "short_flows", "short_completed", "short_fct_p99_us",
                           "short_slowdown_p99", "short_slowdown_p90", "tcp_timeouts", "conserved",
                           "lossless_p99_pct", "lossy_p99_pct"}

    def run_closed_loop(self, name, xkey):
        """A closed-loop experiment's quick grid: its columns, and every run conservative (no
        lossless drop, injected = delivered + dropped + buffered) with short flows measured."""
        avg = self.run_exp(name)
        runs = rows(os.path.join(self.out, f"{name}-runs.csv"))
        self.assertLessEqual(self.CLOSED_LOOP_COLUMNS | {xkey}, set(runs[0]))
        self.assertLessEqual(self.CLOSED_LOOP_COLUMNS - {"seed"} | {xkey, "seeds"}, set(avg[0]))
        for r in runs:
            label = (r[xkey], r["policy"], r["seed"])
            self.assertEqual(int(r["drops_lossless"]), 0, label)
            self.assertEqual(int(r["conserved"]), 1, label)
            self.assertGreater(int(r["short_completed"]), 0, label)
            self.assertGreaterEqual(float(r["short_slowdown_p99"]), float(r["short_slowdown_p90"]), label)
            self.assertGreaterEqual(float(r["short_slowdown_p90"]), 1.0, label)   # never faster than ideal
            for col in ("lossless_p99_pct", "lossy_p99_pct"):   # shares of one buffer
                self.assertTrue(0 <= float(r[col]) <= 100, (label, col))
            self.assertLessEqual(float(r["lossless_p99_pct"]) + float(r["lossy_p99_pct"]), 200)
        with open(self.doc) as f:
            self.assertIn("99th percentile buffer occupancy of RDMA", f.read())
        return avg

    def _fct(self, avg, policy):
        return sum(float(r["incast_fct_mean_us"]) for r in avg if r["policy"] == policy)

    def test_fig7_cc_with_dcqcn_and_cubic_reverie_fewest_pauses(self):
        avg = self.run_closed_loop("reverie-fig7-cc", "load")
        dt, abm, rv = (self._pauses(avg, p) for p in ("dt", "abm", "reverie"))
        print(f"\nFig. 7 with DCQCN/Cubic, pauses summed over loads: dt {dt:.0f}, abm {abm:.0f}, reverie {rv:.0f}")
        self.assertLess(rv, 0.7 * dt)
        self.assertLess(rv, 0.7 * abm)
        self.assertTrue(all(r["incast_completed"] == r["incast_flows"] for r in avg))
        self.check_k1("reverie-fig7-cc")

    def test_fig8_cc_reverie_fewest_pauses_and_faster_incast_than_dt(self):
        avg = self.run_closed_loop("reverie-fig8-cc", "burst_bytes")
        dt, abm, rv = (self._pauses(avg, p) for p in ("dt", "abm", "reverie"))
        print(f"\nFig. 8 with DCQCN/Cubic, pauses summed over bursts: dt {dt:.0f}, abm {abm:.0f}, reverie {rv:.0f}; "
              f"incast FCT summed: dt {self._fct(avg, 'dt'):.0f}, reverie {self._fct(avg, 'reverie'):.0f} us")
        self.assertLess(rv, 0.7 * dt)    # paper Fig. 8a: 61.8 % fewer than DT, 57.4 % fewer than ABM
        self.assertLess(rv, 0.7 * abm)
        self.assertLess(self._fct(avg, "reverie"), self._fct(avg, "dt"))   # Fig. 8b's direction
        pauses_dt = [float(r["pfc_pauses"]) for r in avg if r["policy"] == "dt"]
        self.assertEqual(pauses_dt, sorted(pauses_dt))   # more pauses as the burst grows
        self.assertTrue(all(r["incast_completed"] == r["incast_flows"] for r in avg))
        self.check_k1("reverie-fig8-cc")

    def check_k1(self, name):
        """Reverie at gamma = 0.5 on one grid point, every seed: conservative too."""
        k1 = rows(os.path.join(self.out, f"{name}-k1.csv"))
        self.assertEqual(len(k1), len({r["seed"] for r in k1}))
        self.assertTrue(all(r["k"] == "1" and r["conserved"] == "1" and r["drops_lossless"] == "0" for r in k1))

    def test_fig8_pauses_grow_with_burst_reverie_fewest(self):
        avg = self.run_exp("reverie-fig8")
        dt = [float(r["pfc_pauses"]) for r in avg if r["policy"] == "dt"]
        self.assertEqual(dt, sorted(dt))
        self.assertGreater(dt[-1], dt[0])
        for r_dt, r_rv in zip([r for r in avg if r["policy"] == "dt"], [r for r in avg if r["policy"] == "reverie"]):
            self.assertLessEqual(float(r_rv["pfc_pauses"]), float(r_dt["pfc_pauses"]), r_dt["burst_bytes"])
        self.assertLess(self._pauses(avg, "reverie"), 0.5 * self._pauses(avg, "dt"))

    def test_fig9_lossy_pool_moves_dt_not_reverie(self):
        avg = self.run_closed_loop("reverie-fig9", "lossy_pool")
        by = {(float(r["lossy_pool"]), r["policy"]): r for r in avg}
        # Reverie has one shared pool: the egress lossy pool's size changes nothing, run for run.
        for col in ("pfc_pauses", "incast_fct_mean_us", "drops_lossy", "short_slowdown_p99"):
            self.assertEqual(by[0.2, "reverie"][col], by[0.8, "reverie"][col], col)
        print(f"\nFig. 9 DT pauses: lossy pool 20 % {by[0.2, 'dt']['pfc_pauses']}, 80 % {by[0.8, 'dt']['pfc_pauses']}")
        self.assertLess(float(by[0.2, "dt"]["pfc_pauses"]), float(by[0.8, "dt"]["pfc_pauses"]))   # paper Fig. 9a
        self.assertLess(float(by[0.2, "dt"]["lossy_mean_kb"]), float(by[0.8, "dt"]["lossy_mean_kb"]))  # Fig. 9e

    def test_fig10_cc_pauses_fall_from_gamma_0_5_to_0_999(self):
        avg = {int(r["k"]): r for r in self.run_exp("reverie-fig10-cc")}
        runs = rows(os.path.join(self.out, "reverie-fig10-cc-runs.csv"))
        self.assertLessEqual(self.CLOSED_LOOP_COLUMNS - {"policy"} | {"k", "gamma"}, set(runs[0]))
        for r in runs:
            self.assertEqual(int(r["drops_lossless"]), 0, r["k"])
            self.assertEqual(int(r["conserved"]), 1, r["k"])
            self.assertEqual(r["incast_completed"], r["incast_flows"], r["k"])
        p = [float(avg[k]["pfc_pauses"]) for k in (1, 7, 10)]
        print(f"\nFig. 10 with DCQCN, pauses at k = 1, 7, 10: {p}")
        self.assertEqual(p, sorted(p, reverse=True))
        self.assertLess(p[-1], 0.6 * p[0])

    def _tcp_incast(self, name, xkey):
        avg = self.run_closed_loop(name, xkey)
        dt, abm, rv = (self._pauses(avg, p) for p in ("dt", "abm", "reverie"))
        print(f"\n{name}: pauses dt {dt:.1f}, abm {abm:.1f}, reverie {rv:.1f}; incast FCT summed dt "
              f"{self._fct(avg, 'dt'):.0f}, abm {self._fct(avg, 'abm'):.0f}, reverie {self._fct(avg, 'reverie'):.0f} us")
        self.assertEqual(rv, 0)     # paper Figs. 11a, 12a: 100 % fewer than ABM, DT alike
        self.assertGreater(abm, 0)
        self.assertLess(self._fct(avg, "reverie"), self._fct(avg, "abm"))
        self.assertLessEqual(self._fct(avg, "reverie"), self._fct(avg, "dt"))
        self.assertTrue(all(r["incast_completed"] == r["incast_flows"] for r in avg))
        self.check_k1(name)

    def test_fig11_tcp_incast_over_powertcp_reverie_never_pauses(self):
        self._tcp_incast("reverie-fig11", "load")

    def test_fig12_tcp_incast_over_powertcp_reverie_never_pauses(self):
        self._tcp_incast("reverie-fig12", "burst_bytes")

    def test_fig11_fabric_tcp_incast_from_a_leaf_reverie_faster_than_dt(self):
        avg = self.run_closed_loop("reverie-fig11-fabric", "load")
        print(f"\nFig. 11 on the fabric: incast FCT dt {self._fct(avg, 'dt'):.0f}, abm {self._fct(avg, 'abm'):.0f}, "
              f"reverie {self._fct(avg, 'reverie'):.0f} us; pauses reverie {self._pauses(avg, 'reverie'):.0f}")
        self.assertEqual(self._pauses(avg, "reverie"), 0)
        self.assertLess(self._fct(avg, "reverie"), self._fct(avg, "dt"))   # paper Fig. 11b's direction
        self.assertTrue(all(float(r["incast_completed"]) > 0.5 * float(r["incast_flows"]) for r in avg))

    def test_fig8_fabric_reverie_fewest_pauses_across_bursts(self):
        avg = self.run_closed_loop("reverie-fig8-fabric", "burst_bytes")
        dt, abm, rv = (self._pauses(avg, p) for p in ("dt", "abm", "reverie"))
        print(f"\nFig. 8 on the fabric, pauses summed over bursts: dt {dt:.0f}, abm {abm:.0f}, reverie {rv:.0f}")
        self.assertLess(rv, dt)   # paper Fig. 8a's direction: 61.8 % fewer than DT, 57.4 % fewer than ABM
        self.assertLess(rv, abm)
        self.assertTrue(all(float(r["incast_completed"]) > 0.5 * float(r["incast_flows"]) for r in avg))
        self.check_k1("reverie-fig8-fabric")

    def test_fig12_fabric_tcp_incast_reverie_never_pauses_not_slower_than_dt(self):
        avg = self.run_closed_loop("reverie-fig12-fabric", "burst_bytes")
        print(f"\nFig. 12 on the fabric: incast FCT dt {self._fct(avg, 'dt'):.0f}, abm {self._fct(avg, 'abm'):.0f}, "
              f"reverie {self._fct(avg, 'reverie'):.0f} us; pauses abm {self._pauses(avg, 'abm'):.0f}, "
              f"reverie {self._pauses(avg, 'reverie'):.0f}")
        self.assertEqual(self._pauses(avg, "reverie"), 0)   # paper Fig. 12a: 100 % fewer than ABM
        self.assertLessEqual(self._fct(avg, "reverie"), self._fct(avg, "dt"))   # paper Fig. 12b's direction
        self.assertTrue(all(float(r["incast_completed"]) > 0.5 * float(r["incast_flows"]) for r in avg))

    def test_fig10_fabric_pauses_fall_from_gamma_0_5_to_0_999(self):
        avg = {int(r["k"]): r for r in self.run_exp("reverie-fig10-fabric")}
        for r in rows(os.path.join(self.out, "reverie-fig10-fabric-runs.csv")):
            self.assertEqual(int(r["drops_lossless"]), 0, r["k"])
            self.assertEqual(int(r["conserved"]), 1, r["k"])
        p1, p10 = float(avg[1]["pfc_pauses"]), float(avg[10]["pfc_pauses"])
        print(f"\nFig. 10 on the fabric, pauses at gamma 0.5 / 0.999: {p1:.0f} / {p10:.0f}")
        self.assertLess(p10, 0.5 * p1)   # paper Fig. 10: pauses fall dramatically as gamma grows

    def test_fig10_pauses_fall_as_gamma_grows_to_0_9999(self):
        avg = {int(r["k"]): r for r in self.run_exp("reverie-fig10")}
        p = [float(avg[k]["pfc_pauses"]) for k in (1, 4, 7, 10, 14)]
        print(f"\nFig. 10 pauses at k = 1, 4, 7, 10, 14: {p}")
        self.assertEqual(p, sorted(p, reverse=True))
        self.assertLess(p[-1], 0.5 * p[0])

    def test_dsh_fig11b_dsh_pause_free_far_beyond_sih(self):
        rs = self.run_exp("dsh-fig11b")
        by = {(r["policy"], float(r["burst_fraction"])): r for r in rs}
        self.assertTrue(all(r["drops_lossless"] == "0" and r["fanin_completed"] == "16" for r in rs))
        # Paper: DSH pause-free up to ~40 % of the buffer, over 4x SIH (tb/scenario/test_dsh.cc
        # bisects the edges: DSH 38.9 %, SIH 9.6 % with the fluid model).
        self.assertEqual(float(by["dsh", 0.3]["pause_duration_us"]), 0)
        self.assertGreater(float(by["dsh", 0.5]["pause_duration_us"]), 0)
        self.assertGreater(float(by["sih", 0.1]["pause_duration_us"]), 0)
        for fr in (0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 0.9):
            self.assertLess(float(by["dsh", fr]["pause_duration_us"]), float(by["sih", fr]["pause_duration_us"]))

    def test_bb_fig6_closed_forms_are_the_papers(self):
        # Fig. 6 text: savings 1 - beta (Prop. 5) 0.280 / 0.106 at alpha 1.1, N 2 / 32; 0.580, 0.539,
        # 0.515 at alpha 1.5, N 10 / 20 / 50; Example 2: Prop. 4 beta 0.6 (N 2) and 0.95 (N 10) at 1.4.
        for n, a, saving in ((2, 1.1, 0.280), (32, 1.1, 0.106), (10, 1.5, 0.580), (20, 1.5, 0.539), (50, 1.5, 0.515)):
            self.assertAlmostEqual(1 - bb.bb_beta5(n, a), saving, delta=0.0015, msg=(n, a))
        self.assertAlmostEqual(bb.bb_beta4(2, 1.4), 0.6)
        self.assertAlmostEqual(bb.bb_beta4(10, 1.4), 0.955, delta=0.001)
        self.assertAlmostEqual(bb.bb_period_us(2), 100.0)

    def test_bb_fig6_measured_beta_matches_props_4_and_5(self):
        rs = self.run_exp("bb-fig6")
        self.assertEqual(len(rs), 15)
        for r in rs:
            n, a = int(r["N"]), float(r["alpha"])
            b4, m4 = float(r["beta4_prop4"]), float(r["beta4_measured"])
            m5 = f"{float(r['beta5_measured']):.4f}" if r["beta5_measured"] else "-"
            p5 = f"{float(r['p_at_beta5']):.4f}" if r["p_at_beta5"] else "-"
            print(f"\nFig. 6 N={n} alpha={a:g}: peak/B {m4:.4f}, Prop. 4 beta {b4:.4f}; Prop. 5 beta "
                  f"{float(r['beta5_prop5']):.4f}, measured {m5}; p at beta5 B {p5}, bound {float(r['p_bound']):.4f}", end="")
            self.assertLess(abs(m4 / b4 - 1), 0.03, (n, a))          # Prop. 4 peak within 3 %
            self.assertEqual(int(r["peak_pause_frames"]), 0)
            self.assertLess(abs(float(r["done_us"]) / float(r["t3_paper_us"]) - 1), 0.03)  # t3 = T / alpha
            if r["beta5_measured"]:
                self.assertLess(abs(float(r["p_at_beta5"]) - float(r["p_bound"])), 0.03, (n, a))
                self.assertLess(abs(float(r["beta5_measured"]) - float(r["beta5_prop5"])), 0.03, (n, a))
        # Only N = 2 at alpha = 1.5 needs no buffer (beta5 = 0): no Prop. 5 runs there.
        self.assertEqual([(r["N"], r["alpha"]) for r in rs if not r["beta5_measured"]], [("2", "1.5")])

    def test_bb_fig7_examples_1_and_2_occupancy(self):
        r40, r56 = self.run_exp("bb-fig7")
        for r, peak in ((r40, 125000), (r56, 75000)):
            print(f"\nFig. 7 {r['link_gbps']} Gb/s: peak {float(r['peak_bytes']):.0f} B (paper {peak}) at "
                  f"{float(r['peak_time_us']):.1f} us (paper 50), done {float(r['done_us']):.2f} us "
                  f"(paper {float(r['paper_done_us']):.2f}), RMS from fluid {float(r['rms_dev_from_fluid_bytes']):.0f} B", end="")
            self.assertLess(abs(float(r["peak_bytes"]) / peak - 1), 0.03)
            self.assertLess(abs(float(r["peak_time_us"]) - 50), 1.5)
            self.assertLess(abs(float(r["done_us"]) / float(r["paper_done_us"]) - 1), 0.03)
            self.assertLess(float(r["rms_dev_from_fluid_bytes"]), 0.03 * peak)
            self.assertEqual(int(r["pause_frames"]), 0)
        series = rows(os.path.join(self.out, "bb-fig7-series.csv"))
        self.assertGreater(len(series), 200)

    def test_bfc_fig7_queue_near_th_full_utilisation(self):
        rs = {float(r["th_us"]): r for r in self.run_exp("bfc-fig7")}
        self.assertEqual(sorted(rs), [0.5, 1, 2, 4])
        for th, r in sorted(rs.items()):
            u, q, thb = float(r["utilisation"]), float(r["mean_queue_bytes"]), float(r["th_bytes"])
            print(f"\nBFC Fig. 7 Th={th:g} us ({thb:.0f} B): utilisation {u:.4f}, mean queue {q:.0f} B, max "
                  f"{float(r['max_queue_bytes']):.0f} B{'; paper at 2 us: ~100 %, mean 15 KB' if th == 2 else ''}", end="")
            self.assertEqual(int(r["drops"]), 0)
            self.assertEqual(int(r["deadlock"]), 0)
            self.assertGreater(int(r["pause_frames"]), 5)
            self.assertGreaterEqual(q, 0.4 * thb)   # held near Th: neither empty nor far above it
            self.assertLessEqual(q, 1.2 * thb)
            if th >= 2:
                self.assertGreaterEqual(u, 0.95)
        self.assertGreater(float(rs[2]["utilisation"]), float(rs[0.5]["utilisation"]))
        # bfc_queues.csv (output.bfc_queues) against the summary: summed over the port and
        # averaged over the window it is the port's mean_bytes; no sample above the longest queue.
        a = rs[2]
        self.assertEqual(int(a["series_queues"]), 2)   # each flow kept one queue (sticky assignment)
        self.assertLess(abs(float(a["series_mean_port_bytes"]) / float(a["mean_port_bytes"]) - 1), 0.03)
        self.assertLessEqual(float(a["series_max_queue_bytes"]), float(a["max_queue_bytes"]))
        self.assertGreater(float(a["series_max_queue_bytes"]), float(a["th_bytes"]))
        series = rows(os.path.join(self.out, "bfc-fig7-series.csv"))
        self.assertEqual(len(series), 401)   # 20-60 us every 100 ns
        for col in [c for c in series[0] if c.startswith("queue")]:
            qs = [int(r[col]) for r in series]
            self.assertIn(0, qs, f"{col}: the queue runs dry for an HRTT after a resume (paper Fig. 7a)")

    def test_bfc_queues_output_needs_bfc(self):
        with open(os.path.join(common.ROOT, "scenarios", "bfc-two-flows.json")) as f:
            sc = json.load(f)
        sc["output"]["bfc_queues"] = True
        sc["bfc"]["enabled"] = False
        path = os.path.join(self.out, "no-bfc.json")
        with open(path, "w") as f:
            json.dump(sc, f)
        r = subprocess.run([MMUSIM, "check", path], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("output.bfc_queues", r.stdout + r.stderr)

@unittest.skipUnless(os.path.exists(MMUSIM), f"{MMUSIM} not built")
class RunCache(unittest.TestCase):
    def test_kept_runs_are_reused_changed_ones_rerun(self):
        saved = common._WORK
        with tempfile.TemporaryDirectory() as tmp:
            try:
                common.set_work_dir(tmp)
                sc = common.base("cache", 50)
                sc["seed"] = 1
                sc["traffic"] = [{"type": "incast", "name": "incast", "senders": "h1-h2", "receiver": "h0",
                                  "dscp": common.LOSSLESS_DSCP, "burst_bytes": 20000, "start_us": 1}]
                (_, s1, d1), = common.run_all([({}, sc)], tmp, None, 1)
                t1 = os.stat(os.path.join(d1, "summary.json")).st_mtime_ns
                (_, s2, d2), = common.run_all([({}, sc)], tmp, None, 1)
                self.assertEqual((d2, os.stat(os.path.join(d2, "summary.json")).st_mtime_ns), (d1, t1))  # not rerun
                self.assertEqual(s1, s2)
                sc["seed"] = 2
                (_, s3, d3), = common.run_all([({}, sc)], tmp, None, 1)
                self.assertNotEqual(d3, d1)
                self.assertEqual(s3["seed"], 2)
                self.assertEqual(s3["generators"]["incast"]["completed"], 2)
                # Kept runs ahead of a new one in the same batch (reverie-fig7-paper adding a seed).
                sc4 = dict(sc, seed=3)
                res = common.run_all([({}, dict(sc, seed=1)), ({}, sc), ({}, sc4)], tmp, None, 1)
                self.assertEqual([r[1]["seed"] for r in res], [1, 2, 3])
                self.assertEqual([r[2] for r in res[:2]], [d1, d3])
            finally:
                common._WORK = saved


if __name__ == "__main__":
    unittest.main()
