"""Workloads: published CDFs, arrival processes, query-response incast, periodic bursts."""
import math
import os
import random
import unittest

import numpy as np

from traffic import workloads


class Cdfs(unittest.TestCase):
    # Mean of the web search CDF with linear interpolation, by hand from its published points:
    # sum over segments of (probability step) x (segment midpoint).
    WEBSEARCH_MEAN = (0.15 * 5000 + 0.05 * 15000 + 0.10 * 25000 + 0.10 * 40000 + 0.13 * 65000
                      + 0.07 * 140000 + 0.10 * 600000 + 0.10 * 1500000 + 0.10 * 3500000
                      + 0.07 * 7500000 + 0.03 * 20000000)

    def test_every_workload_loads_with_its_source_named(self):
        for name in workloads.WORKLOADS:
            cdf = workloads.load_cdf(name)
            self.assertEqual(cdf.probs[0], 0)
            self.assertEqual(cdf.probs[-1], 1)
            with open(workloads.DATA / f"{name}.csv") as f:
                head = f.read(400)
            self.assertRegex(head, r"github\.com/\S+", f"{name}.csv names no source repository")
            self.assertRegex(head, r"(SIGCOMM|NSDI)", f"{name}.csv names no paper")

    def test_websearch_mean_matches_hand_computation(self):
        cdf = workloads.load_cdf("websearch")
        hand = self.WEBSEARCH_MEAN
        print(f"\nwebsearch CDF mean {cdf.mean():.0f} B, hand {hand:.0f} B")
        self.assertAlmostEqual(cdf.mean(), hand, delta=1)
        self.assertAlmostEqual(hand, 1_711_250, delta=1)

    def test_samples_reach_their_cdf_means(self):
        rng = np.random.default_rng(7)
        for name in workloads.WORKLOADS:
            cdf = workloads.load_cdf(name)
            n = 400_000
            x = cdf.sample(rng, n)
            # Standard error from the CDF's own second moment (uniform within each segment:
            # E[X^2] = sum dP (a^2 + ab + b^2) / 3); heavy tails (Google's) get a wide band.
            a, b, dp = cdf.sizes[:-1], cdf.sizes[1:], np.diff(cdf.probs)
            se = math.sqrt((np.sum(dp * (a * a + a * b + b * b) / 3) - cdf.mean() ** 2) / n)
            z = (x.mean() - cdf.mean()) / se
            print(f"{name}: sample mean {x.mean():.0f} B vs CDF mean {cdf.mean():.0f} B "
                  f"({100 * (x.mean() / cdf.mean() - 1):+.2f} %, {z:+.2f} standard errors)")
            self.assertLess(abs(z), 4, name)
            self.assertGreaterEqual(x.min(), 1)
            self.assertLessEqual(x.max(), cdf.sizes[-1])

    def test_sample_quantiles_follow_published_points(self):
        # Web search: 53 % of flows are <= 80 KB, 90 % <= 5 MB (the published points).
        x = workloads.load_cdf("websearch").sample(np.random.default_rng(3), 200_000)
        self.assertAlmostEqual(np.mean(x <= 80_000), 0.53, delta=0.005)
        self.assertAlmostEqual(np.mean(x <= 5_000_000), 0.90, delta=0.005)

    def test_unknown_workload(self):
        with self.assertRaisesRegex(ValueError, "unknown workload 'nope'"):
            workloads.load_cdf("nope")

    def test_bad_cdf(self):
        with self.assertRaisesRegex(ValueError, "0 to 1"):
            workloads.Cdf([1, 2], [0, 0.5])


class Arrivals(unittest.TestCase):
    def test_poisson_background_offers_the_target_load(self):
        # 8 hosts at 40 % of 100 Gb/s for 50 ms, fixed 100 KB flows: offered bytes and the
        # exponential gaps' coefficient of variation (1 for Poisson).
        cdf = workloads.Cdf([100_000, 100_000], [0, 1], "fixed")
        hosts = list(range(8))
        fl = workloads.background(hosts, 0.4, 100, 50_000, cdf, "poisson", seed=5)
        offered = sum(f.bytes for f in fl) * 8 / (50e-3 * 100e9 * len(hosts))
        print(f"\nPoisson: offered load {offered:.4f} (target 0.4), {len(fl)} flows")
        self.assertAlmostEqual(offered, 0.4, delta=0.4 * 0.03)
        t = np.array([f.start_ns for f in fl if f.src == 0])
        gaps = np.diff(t)
        self.assertAlmostEqual(gaps.std() / gaps.mean(), 1.0, delta=0.08)
        self.assertTrue(all(f.src != f.dst for f in fl))
        self.assertEqual(fl, workloads.background(hosts, 0.4, 100, 50_000, cdf, "poisson", seed=5))
        self.assertNotEqual(fl, workloads.background(hosts, 0.4, 100, 50_000, cdf, "poisson", seed=6))

    def test_lognormal_gaps_have_sigma_2_and_the_target_mean(self):
        rng = np.random.default_rng(11)
        g = workloads.arrival_gaps(rng, 400_000, 1000.0, "lognormal", sigma=2.0)
        sigma = np.log(g).std()
        print(f"\nlognormal: sigma of ln(gap) {sigma:.4f} (2), median {np.median(g):.1f} ns "
              f"(closed form {1000 * math.exp(-2):.1f}), mean {g.mean():.0f} ns (1000)")
        self.assertAlmostEqual(sigma, 2.0, delta=0.01)
        # Median = exp(mu) = mean x exp(-sigma^2 / 2).
        self.assertAlmostEqual(np.median(g), 1000 * math.exp(-2), delta=1000 * math.exp(-2) * 0.02)
        # The mean of a sigma = 2 lognormal converges slowly (heavy tail): 10 %.
        self.assertAlmostEqual(g.mean(), 1000.0, delta=100)

    def test_bad_process_and_load(self):
        with self.assertRaisesRegex(ValueError, "arrival process"):
            workloads.arrival_gaps(np.random.default_rng(1), 3, 1.0, "pareto")
        with self.assertRaisesRegex(ValueError, "load"):
            workloads.background([0, 1], 1.5, 100, 10)


class Incast(unittest.TestCase):
    def test_query_response_splits_the_file_over_responders(self):
        servers = list(range(4))
        fl = workloads.query_response(servers, 3_000_000, requests_per_s=2000, duration_us=100_000, seed=2)
        # Each query = 3 simultaneous answers of 1 MB, one from every other server.
        by_query = {}
        for f in fl:
            by_query.setdefault((f.start_ns, f.dst), []).append(f)
        self.assertTrue(all(len(v) == 3 and all(f.bytes == 1_000_000 for f in v) for v in by_query.values()))
        self.assertTrue(all({f.src for f in v} == set(servers) - {q[1]} for q, v in by_query.items()))
        # 2000 queries/s/server over 0.1 s: 200 per server on average (Poisson, ~7 % sd).
        n = len(by_query) / len(servers)
        print(f"\nquery-response: {n:.1f} queries per server (expected 200)")
        self.assertAlmostEqual(n, 200, delta=30)

    def test_query_response_asks_one_other_leaf_at_random(self):
        seed = int(os.environ.get("MMUSIM_SEED", random.SystemRandom().randrange(1 << 30)))
        print(f"\nMMUSIM_SEED={seed}")
        leaves = [list(range(3 * k, 3 * k + 3)) for k in range(4)]
        servers = [h for g in leaves for h in g]
        fl = workloads.query_response(servers, 3_000_000, requests_per_s=2000, duration_us=100_000, seed=seed,
                                      groups=leaves)
        by_query = {}
        for f in fl:
            by_query.setdefault((f.start_ns, f.dst), []).append(f)
        picks = [0] * 4
        for (_, req), v in by_query.items():
            srcs = {f.src for f in v}
            # All three servers of one leaf, not the requester's, a third of the file each.
            leaf = next(k for k, g in enumerate(leaves) if srcs == set(g))
            self.assertNotIn(req, leaves[leaf])
            self.assertTrue(all(f.bytes == 1_000_000 for f in v))
            picks[leaf] += 1
        # ~2400 queries, each leaf asked by the 9 servers of the other three, 1/3 of their
        # queries each: ~600 per leaf (binomial sd ~ 21).
        print(f"queries per answering leaf {picks}")
        for p in picks:
            self.assertAlmostEqual(p, sum(picks) / 4, delta=120)

    def test_background_groups_send_to_other_leaves_only(self):
        seed = int(os.environ.get("MMUSIM_SEED", random.SystemRandom().randrange(1 << 30)))
        print(f"\nMMUSIM_SEED={seed}")
        leaves = [[0, 1], [2, 3], [4, 5]]
        fl = workloads.background([0, 1, 2, 3, 4, 5], 0.5, 25, 100_000, "websearch", seed=seed, groups=leaves)
        self.assertTrue(fl)
        self.assertTrue(all(f.dst // 2 != f.src // 2 for f in fl))
        self.assertEqual({f.dst for f in fl if f.src == 0}, {2, 3, 4, 5})

    def test_periodic_bursts(self):
        fl = workloads.periodic_bursts([1, 2, 3], 0, 5000, period_us=10, count=4, start_us=5)
        self.assertEqual(len(fl), 12)
        self.assertEqual(sorted({f.start_ns for f in fl}), [5000.0, 15000.0, 25000.0, 35000.0])
        self.assertTrue(all(f.dst == 0 and f.bytes == 5000 for f in fl))


if __name__ == "__main__":
    unittest.main()
