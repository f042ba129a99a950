"""Sweeps: the local process pool and a Dask LocalCluster on loopback run the same points
through the same code and give identical result tables."""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

from traffic import sweep

MMUSIM = sweep.mmusim_path()

# 2 policies x 2 burst sizes x 2 seeds on a short default scenario: 8 points.
SPEC = {
    "scenario": os.path.join(sweep.ROOT, "scenarios", "default.json"),
    "set": {"duration_us": 900, "measure.start_us": 0, "measure.end_us": 900, "traffic.0.count": 1},
    "grid": {"admission.policy": ["dt", "reverie"], "traffic.0.burst_bytes": [65536, 400000]},
    "seeds": [1, 2],
}


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


@unittest.skipUnless(os.path.exists(MMUSIM), f"{MMUSIM} not built")
class Sweep(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.spec = os.path.join(cls.tmp.name, "spec.json")
        with open(cls.spec, "w") as f:
            json.dump(SPEC, f)
        # The command line, local pool of 2.
        cls.local_dir = os.path.join(cls.tmp.name, "local")
        r = subprocess.run([sys.executable, "-m", "traffic.sweep", cls.spec, "--out", cls.local_dir, "--jobs", "2"],
                           capture_output=True, text=True, cwd=sweep.ROOT)
        assert r.returncode == 0, r.stderr
        cls.local_stderr = r.stderr
        cls.local = read(os.path.join(cls.local_dir, "results.csv"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_local_table_has_keys_seeds_and_metrics(self):
        self.assertEqual(len(self.local), 8)
        cols = list(self.local[0])
        self.assertEqual(cols[:4], ["point", "admission.policy", "traffic.0.burst_bytes", "seed"])
        for m in ("pause_frames", "xoff_events", "incast_fct_mean_ns", "drops_lossy"):
            self.assertIn(m, cols)
        self.assertIn("sweep: 8/8 points", self.local_stderr)
        # Each point really ran its overrides: its summary names the policy, and the
        # 16 x 400 KB fair-shared burst takes about 16 x 400000 x 8 / 100 ns through the receiver port.
        for r in self.local:
            with open(os.path.join(self.local_dir, "points", r["point"], "summary.json")) as f:
                s = json.load(f)
            self.assertEqual(s["policy"], r["admission.policy"])
            self.assertEqual(s["seed"], int(r["seed"]))
            if r["traffic.0.burst_bytes"] == "400000":
                self.assertEqual(r["flows_completed"], "16")
                self.assertGreater(float(r["incast_fct_mean_ns"]), 0.9 * 16 * 400000 * 8 / 100)

    def test_dask_local_cluster_gives_the_identical_table(self):
        from distributed import Client, LocalCluster

        out = os.path.join(self.tmp.name, "dask")
        out2 = os.path.join(self.tmp.name, "dask-client")
        with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                          processes=True) as cluster:
            # The command line with a scheduler address, as on a real cluster.
            self.assertEqual(sweep.main([self.spec, "--out", out, "--dask", cluster.scheduler_address]), 0)
            # And from Python with a Client.
            with Client(cluster) as client:
                rows = sweep.run_dask(sweep.points(sweep.load_spec(self.spec), out2), client, quiet=True)
        sweep.write_table(rows, os.path.join(out2, "results.csv"))
        with open(os.path.join(self.local_dir, "results.csv")) as f:
            local = f.read()
        for d in (out, out2):
            with open(os.path.join(d, "results.csv")) as f:
                self.assertEqual(f.read(), local, d)
        print(f"\nsweep: local and Dask tables identical ({len(rows)} points)")

    def test_bad_spec_and_failing_point(self):
        bad = os.path.join(self.tmp.name, "bad.json")
        with open(bad, "w") as f:
            json.dump(dict(SPEC, grid={"admission.policy": ["dt", "nosuch"]}), f)
        r = subprocess.run([sys.executable, "-m", "traffic.sweep", bad, "--out", os.path.join(self.tmp.name, "bad")],
                           capture_output=True, text=True, cwd=sweep.ROOT)
        self.assertEqual(r.returncode, 1)
        self.assertIn("unknown policy 'nosuch'", r.stderr)
        with open(bad, "w") as f:
            json.dump(dict(SPEC, grids={}), f)
        with self.assertRaisesRegex(ValueError, "unknown key 'grids'"):
            sweep.load_spec(bad)


if __name__ == "__main__":
    unittest.main()
