"""`mmusim headroom` (traffic/headroom.py) and the loader's warnings agree on the safe headroom
of every port: on random single-switch scenarios, xoff = safe cells raises no PG warning in
`mmusim check`, one cell less on one port raises exactly one, naming that port. The hand case
checks DSH Eq. 1 and the model's terms by hand."""
import json
import os
import random
import subprocess
import tempfile
import time
import unittest

from traffic import headroom, sweep

MMUSIM = sweep.mmusim_path()


def random_case(rng):
    ports = rng.randint(1, 40)
    pipelines = rng.randint(1, min(4, ports))
    rate = rng.choice([10, 25, 40, 50, 100, 200, 400])
    delay = rng.randint(0, 5000)
    cell = rng.choice([1, 64, 96, 144, 176, 192, 256, 384, 512, rng.randint(1, 1024)])
    mtu = rng.choice([1500, 4096, 9000, rng.randint(64, 9216)])
    ovh = rng.randint(0, 64)
    mhz = rng.choice([500, 800, 1000, 1250, 2500])
    lat = rng.randint(0, 12)
    names = [f"Ethernet{4 * i}" for i in range(ports)]
    overrides = {}
    for n in rng.sample(names, rng.randint(0, ports)):
        overrides[n] = {"rate_gbps": rng.choice([25, 100, 400]), "link_delay_ns": rng.randint(0, 3000)}
    period = headroom.clock_period_ps(mhz)
    safe = []
    for p, n in enumerate(names):
        r = overrides.get(n, {}).get("rate_gbps", rate) * 10**9
        d = overrides.get(n, {}).get("link_delay_ns", delay) * 1000
        safe.append(headroom.safe_headroom_cells(r, d, mtu, cell, ovh, period, lat,
                                                 headroom.pipeline_ports(ports, pipelines, p)))
    buffer = 64 << 20
    sc = {"name": "headroom-agreement", "duration_us": 1,
          "topology": {"ports": ports, "rate_gbps": rate, "link_delay_ns": delay, "mtu_bytes": mtu,
                       "wire_overhead_bytes": ovh, "port_overrides": overrides},
          "mmu": {"buffer_bytes": buffer, "cell_bytes": cell, "clock_mhz": mhz, "pipeline_latency_cycles": lat,
                  "pipelines": pipelines, "counter_bits": 40},
          "buffer": {
              "BUFFER_POOL": {"ingress_pool": {"size": str(buffer // 2), "type": "ingress"},
                              "egress_pool": {"size": str(buffer), "type": "egress", "mode": "static"}},
              "BUFFER_PROFILE": {"ingress_lossy_profile": {"pool": "ingress_pool", "static_th": str(buffer)},
                                 "egress_lossless_profile": {"pool": "egress_pool", "static_th": str(buffer)},
                                 "egress_lossy_profile": {"pool": "egress_pool", "static_th": str(buffer)}},
              "BUFFER_PG": {},
              "PORT_QOS_MAP": {",".join(names): {"pfc_enable": "3"}}},
          "traffic": []}
    for p, n in enumerate(names):
        sc["buffer"]["BUFFER_PROFILE"][f"pg{p}"] = {"pool": "ingress_pool", "dynamic_th": 0,
                                                   "xoff": str(safe[p] * cell)}
        sc["buffer"]["BUFFER_PG"][f"{n}|3"] = {"profile": f"pg{p}"}
    return sc, names, safe


def pg_warnings(sc):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(sc, f)
    try:
        r = subprocess.run([MMUSIM, "check", f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode != 0:
        raise AssertionError(r.stderr + json.dumps(sc))
    return [line for line in r.stderr.splitlines() if "is below the safe headroom" in line]


@unittest.skipUnless(os.path.exists(MMUSIM), f"{MMUSIM} not built")
class Agreement(unittest.TestCase):
    def test_python_and_loader_agree(self):
        seed = int(os.environ.get("MMUSIM_SEED", time.time_ns() % 2**32))
        print(f"\nseed {seed} (MMUSIM_SEED to replay)")
        rng = random.Random(seed)
        for _ in range(25):
            sc, names, safe = random_case(rng)
            self.assertEqual(pg_warnings(sc), [], f"seed {seed}")
            p = rng.randrange(len(names))
            cell = sc["mmu"]["cell_bytes"]
            sc["buffer"]["BUFFER_PROFILE"][f"pg{p}"]["xoff"] = str((safe[p] - 1) * cell)
            w = pg_warnings(sc)
            self.assertEqual(len(w), 1, f"seed {seed}: {w}")
            self.assertIn(f"{names[p]}|3: xoff {(safe[p] - 1) * cell} B ({safe[p] - 1} cells) is below the safe "
                          f"headroom of {safe[p]} cells", w[0])

    def test_hand_case(self):
        # DSH Eq. 1 at 100 Gb/s, 2 us, MTU 1500: C*D = 25000 B, eta = 2 (25000 + 1500) + 3840 = 56840 B.
        # With the model's terms (1 port per pipeline, 1 GHz, 4 cycles): bytes in 2 D + 5 ns = 50063
        # (4 005 000 ps at 100 Gb/s, rounded up) + trigger frame 1520 + 2 x 1520 + PFC 64 + 20 + 3840
        # = 58547 wire bytes; at the worst occupancy, 1 cell (256 B) per 84 wire bytes (a 64 B frame),
        # ceil(58547 / 84) = 697 cells (tb/scenario/test_headroom.cc).
        self.assertEqual(headroom.headroom_wire_bytes(100 * 10**9, 2 * 10**6, 1500), 58547)
        self.assertEqual(headroom.safe_headroom_cells(100 * 10**9, 2 * 10**6, 1500, 256), 697)
        self.assertEqual(headroom.eta_bytes(100 * 10**9, 2 * 10**6, 1500), 56840)


if __name__ == "__main__":
    unittest.main()
