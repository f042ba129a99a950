"""Python side: generated scenarios pass mmusim's validator; plots come from real runs."""
import json
import os
import pathlib
import subprocess
import tempfile
import unittest

from traffic import incast, plot_timeseries

ROOT = pathlib.Path(__file__).resolve().parents[2]
MMUSIM = ROOT / "build" / "mmusim"


@unittest.skipUnless(MMUSIM.exists(), "build/mmusim not built")
class IncastScenario(unittest.TestCase):
    def test_generated_scenario_is_valid_and_runs(self):
        sc = incast.make_incast(senders=8, burst_bytes=65536, background_pairs=2, duration_us=300)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.json")
            with open(path, "w") as f:
                json.dump(sc, f)
            subprocess.run([MMUSIM, "check", path], check=True, capture_output=True)
            subprocess.run([MMUSIM, "run", path, "--quiet", "--out", d], check=True)
            with open(os.path.join(d, "summary.json")) as f:
                s = json.load(f)
            inc = s["generators"]["incast"]
            self.assertEqual(inc["flows"], 8)
            self.assertEqual(inc["completed"], 8)
            # 8 x 64 KiB through one 100 Gb/s port cannot finish before 8*65536*8/100 ns.
            self.assertGreater(inc["fct_ns"]["max"], 8 * 65536 * 8 / 100)
            png = os.path.join(d, "ts.png")
            self.assertEqual(plot_timeseries.main([os.path.join(d, "timeseries.csv"), "-o", png]), 0)
            with open(png, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_too_many_senders_is_an_error(self):
        with self.assertRaisesRegex(ValueError, "needs 40 ports"):
            incast.make_incast(senders=39, burst_bytes=1000)

    def test_bad_timeseries_is_an_error(self):
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write("a,b\n1,2\n")
        try:
            self.assertEqual(plot_timeseries.main([f.name, "-o", f.name + ".png"]), 1)
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
