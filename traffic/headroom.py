"""Lossless headroom for the Python tools, computed by the model itself: `mmusim headroom`
runs the loader's arithmetic (hw-model/config/headroom.cc; docs/configuration.md, Headroom),
so there is one definition of eta and of the safe xoff. The binary is $MMUSIM, else
build/mmusim (traffic.sweep.mmusim_path)."""

import functools
import json
import math
import subprocess

from traffic import sweep


@functools.lru_cache(maxsize=None)
def _query(rate_bps, delay_ps, mtu, cell=256, overhead=20, clock_period_ps=1000, latency_cycles=4,
           shared_ports=1, mmusim=None, admission_pipeline=0):
    cmd = [sweep.mmusim_path(mmusim), "headroom", "--rate-bps", str(int(rate_bps)), "--delay-ps", str(int(delay_ps)),
           "--mtu", str(int(mtu)), "--cell", str(int(cell)), "--overhead", str(int(overhead)),
           "--clock-period-ps", str(int(clock_period_ps)), "--latency-cycles", str(int(latency_cycles)),
           "--pipeline-ports", str(int(shared_ports)), "--admission-pipeline", str(int(admission_pipeline))]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise ValueError(f"{' '.join(cmd)}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def eta_bytes(rate_bps, delay_ps, mtu, mmusim=None):
    """DSH Eq. 1: eta = 2(C*D + MTU) + 3840 bytes, C*D rounded up."""
    return _query(rate_bps, delay_ps, mtu, mmusim=mmusim)["eta_bytes"]


def headroom_wire_bytes(rate_bps, delay_ps, mtu, overhead=20, clock_period_ps=1000, latency_cycles=4,
                        shared_ports=1, mmusim=None):
    """Wire bytes that reach a PG from the arrival of the frame that triggers XOFF until the
    upstream stops: DSH Eq. 1 plus the trigger frame, wire overhead, the PFC frame and the
    MMU's decision latency and backlog."""
    return _query(rate_bps, delay_ps, mtu, 256, overhead, clock_period_ps, latency_cycles, shared_ports,
                  mmusim)["wire_bytes"]


def safe_headroom_cells(rate_bps, delay_ps, mtu, cell, overhead=20, clock_period_ps=1000, latency_cycles=4,
                        shared_ports=1, mmusim=None, admission_pipeline=0):
    """The per-PG xoff, in cells, that makes a headroom_full drop impossible (admission_pipeline:
    the unit's PIPE, admission.pipeline)."""
    return _query(rate_bps, delay_ps, mtu, cell, overhead, clock_period_ps, latency_cycles, shared_ports,
                  mmusim, admission_pipeline)["safe_cells"]


def pipeline_ports(ports, pipelines, port):
    """Ports sharing `port`'s decision pipeline (the loader puts port p on pipeline p % pipelines)."""
    return ports // pipelines + (1 if port % pipelines < ports % pipelines else 0)


def clock_period_ps(clock_mhz):
    """The loader's MMU clock period for mmu.clock_mhz: 1e6 / MHz ps, rounded half away from zero."""
    return int(math.floor(1e6 / clock_mhz + 0.5))
