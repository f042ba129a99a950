"""Lossless headroom, the same integer arithmetic as hw-model/config/headroom.cc (the loader's
safe xoff when a lossless profile has none; docs/configuration.md, Headroom).
traffic/tests/test_headroom.py checks both agree through `mmusim check`."""

import math

PS_BITS_PER_BYTE = 8_000_000_000_000  # 8 bits x 1e12 ps/s
MIN_FRAME = 64
PFC_FRAME = 64
PFC_RESPONSE = 3840  # 802.1Qbb's cap on the upstream's reaction (DSH Eq. 1)


def bytes_in(rate_bps, t_ps):
    """Bytes a link of rate_bps carries in t_ps, rounded up."""
    return -(-int(rate_bps) * int(t_ps) // PS_BITS_PER_BYTE)


def eta_bytes(rate_bps, delay_ps, mtu):
    """DSH Eq. 1: eta = 2(C*D + MTU) + 3840 bytes, C*D rounded up."""
    return 2 * (bytes_in(rate_bps, delay_ps) + mtu) + PFC_RESPONSE


def worst_cell_occupancy(mtu, overhead, cell):
    """(cells, wire bytes) of the frame of 64..mtu bytes with the most cells per wire byte."""
    best = (0, 1)
    for k in range(-(-MIN_FRAME // cell), -(-mtu // cell) + 1):
        b = max(MIN_FRAME, (k - 1) * cell + 1)
        if k * best[1] > best[0] * (b + overhead):
            best = (k, b + overhead)
    return best


def pipeline_ports(ports, pipelines, port):
    """Ports sharing `port`'s decision pipeline (ports go to pipeline port % pipelines)."""
    return ports // pipelines + (1 if port % pipelines < ports % pipelines else 0)


def headroom_wire_bytes(rate_bps, delay_ps, mtu, overhead=20, clock_period_ps=1000, latency_cycles=4,
                        shared_ports=1):
    """Wire bytes that reach a PG from the arrival of the frame that triggers XOFF until the
    upstream stops: DSH Eq. 1 plus the trigger frame, wire overhead, the PFC frame and the
    MMU's decision latency and backlog."""
    frame = mtu + overhead
    decision_ps = (latency_cycles + shared_ports) * clock_period_ps
    return (bytes_in(rate_bps, 2 * delay_ps + decision_ps) + frame + 2 * frame + PFC_FRAME + overhead
            + PFC_RESPONSE)


def safe_headroom_cells(rate_bps, delay_ps, mtu, cell, overhead=20, clock_period_ps=1000, latency_cycles=4,
                        shared_ports=1):
    """The per-PG xoff, in cells, that makes a headroom_full drop impossible."""
    cells, wire = worst_cell_occupancy(mtu, overhead, cell)
    w = headroom_wire_bytes(rate_bps, delay_ps, mtu, overhead, clock_period_ps, latency_cycles, shared_ports)
    return -(-w * cells // wire)


def clock_period_ps(clock_mhz):
    """The loader's MMU clock period: 1e6 / MHz ps, rounded half away from zero (llround)."""
    return int(math.floor(1e6 / clock_mhz + 0.5))
