"""mmusim flow traces (docs/traces.md): write, read, and import from pcap.

Command line:
  python3 -m traffic.trace gen WORKLOAD --hosts 0-15 --load 0.5 --duration-us 1000 -o T.csv
  python3 -m traffic.trace incast --servers 0-15 --file-bytes 2000000 --rate 2 ... -o T.csv
  python3 -m traffic.trace import CAPTURE.pcap -o T.csv [--idle-us 100]
"""
import argparse
import collections
import ipaddress
import struct
import sys

VERSION_LINE = "# mmusim-trace 1"
HEADER = "start_ns,src,dst,bytes,dscp,pcp,src_port,dst_port,proto"


class FlowRecord(collections.namedtuple(
        "FlowRecord", "start_ns src dst bytes dscp pcp src_port dst_port proto",
        defaults=(0, -1, 0, 4791, 17))):
    """One trace line: start (ns), host indices, bytes, DSCP, PCP (-1 untagged), L4 ports, IP proto."""


def write_trace(path, flows):
    """Writes flows sorted by start time (stable), start with 3 decimals (ps)."""
    flows = sorted(flows, key=lambda f: f.start_ns)
    with open(path, "w") as f:
        f.write(VERSION_LINE + "\n" + HEADER + "\n")
        for r in flows:
            f.write(f"{r.start_ns:.3f},{r.src},{r.dst},{r.bytes},{r.dscp},{r.pcp},"
                    f"{r.src_port},{r.dst_port},{r.proto}\n")
    return len(flows)


def read_trace(path):
    """Flows of a trace file; ValueError naming file:line on a bad line."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, start=1):
            line = line.rstrip("\r\n")
            if n == 1 and line != VERSION_LINE:
                raise ValueError(f"{path}:1: expected '{VERSION_LINE}'")
            if n == 2 and line != HEADER:
                raise ValueError(f"{path}:2: expected '{HEADER}'")
            if n <= 2 or not line or line.startswith("#"):
                continue
            v = line.split(",")
            if len(v) != 9:
                raise ValueError(f"{path}:{n}: {len(v)} fields, expected 9")
            try:
                out.append(FlowRecord(float(v[0]), *(int(x) for x in v[1:])))
            except ValueError as e:
                raise ValueError(f"{path}:{n}: {e}") from None
    return out


def host_of_ip(ip):
    """mmusim's addressing: host h_i is 10.0.0.0 + (i + 1) (docs/outputs.md, flows.csv)."""
    return int(ipaddress.IPv4Address(ip)) - int(ipaddress.IPv4Address("10.0.0.0")) - 1


# Classic pcap magic numbers (as stored) -> (byte order, timestamp fraction unit).
PCAP_MAGIC = {b"\xd4\xc3\xb2\xa1": ("<", 1e-6), b"\xa1\xb2\xc3\xd4": (">", 1e-6),
              b"\x4d\x3c\xb2\xa1": ("<", 1e-9), b"\xa1\xb2\x3c\x4d": (">", 1e-9)}
PCAPNG_MAGIC = b"\x0a\x0d\x0d\x0a"
LINKTYPE_ETHERNET = 1
MAX_RECORD_BYTES = 262144  # libpcap's largest snapshot length


def read_capture(path, f):
    """(packet number, timestamp s, frame bytes, frame length on the wire) of a pcap or pcapng.

    ValueError naming the file (and the packet) on anything but a complete Ethernet capture:
    a text file, an empty or truncated file, another link type.
    """
    head = f.read(24)
    if not head:
        raise ValueError(f"{path}: empty file, not a capture")
    if head[:4] == PCAPNG_MAGIC:
        f.seek(0)
        yield from _read_pcapng(path, f)
        return
    if head[:4] not in PCAP_MAGIC:
        raise ValueError(f"{path}: not a pcap or pcapng capture (starts with 0x{head[:4].hex()})")
    if len(head) < 24:
        raise ValueError(f"{path}: truncated pcap file header ({len(head)} of 24 bytes)")
    order, unit = PCAP_MAGIC[head[:4]]
    link = struct.unpack(order + "I", head[20:24])[0] & 0x0FFFFFFF
    if link != LINKTYPE_ETHERNET:
        raise ValueError(f"{path}: link type {link}; only Ethernet ({LINKTYPE_ETHERNET}) captures are supported")
    n = 0
    while True:
        rec = f.read(16)
        if not rec:
            return
        n += 1
        if len(rec) < 16:
            raise ValueError(f"{path}: packet {n}: truncated record header ({len(rec)} of 16 bytes)")
        sec, frac, caplen, wirelen = struct.unpack(order + "IIII", rec)
        if caplen > MAX_RECORD_BYTES:
            raise ValueError(f"{path}: packet {n}: record of {caplen} bytes (more than {MAX_RECORD_BYTES}): corrupt")
        data = f.read(caplen)
        if len(data) < caplen:
            raise ValueError(f"{path}: packet {n}: truncated ({len(data)} of {caplen} bytes)")
        yield n, sec + frac * unit, data, max(wirelen, caplen)


def _read_pcapng(path, f):
    import dpkt

    bad = (dpkt.UnpackError, ValueError, struct.error)
    try:
        reader = dpkt.pcapng.Reader(f)
    except bad as e:
        raise ValueError(f"{path}: bad pcapng header: {str(e) or type(e).__name__}") from None
    if reader.datalink() != LINKTYPE_ETHERNET:
        raise ValueError(f"{path}: link type {reader.datalink()}; only Ethernet ({LINKTYPE_ETHERNET}) captures "
                         "are supported")
    packets = iter(reader)
    n = 0
    while True:
        try:
            ts, buf = next(packets)
        except StopIteration:
            return
        except bad as e:
            raise ValueError(f"{path}: packet {n + 1}: truncated or corrupt pcapng block "
                             f"({str(e) or type(e).__name__})") from None
        n += 1
        yield n, float(ts), buf, len(buf)


ETH_TYPE_MAC_CONTROL = 0x8808
MAC_CONTROL_OPCODES = {0x0001: "802.3x PAUSE", 0x0101: "PFC (802.1Qbb)"}


def _skipped_kind(eth):
    """What a frame that carries no IPv4 flow is, for the import's warnings."""
    if eth.type == ETH_TYPE_MAC_CONTROL:
        data = bytes(eth.data)
        opcode = int.from_bytes(data[:2], "big") if len(data) >= 2 else -1
        return MAC_CONTROL_OPCODES.get(opcode, "MAC control")
    return f"EtherType 0x{eth.type:04x}"


def import_pcap(path, idle_us=None, host_map=None, warnings=None):
    """Flows from a pcap or pcapng (Ethernet, optional 802.1Q; IPv4 with TCP/UDP/other).

    Packets are grouped by 5-tuple; a gap longer than idle_us starts a new flow. A flow's
    start is its first packet's timestamp relative to the capture's first packet, its
    size the sum of frame lengths on the wire, DSCP from the IP header, PCP from the VLAN
    tag. Hosts: host_map {ip string: index}, else in order of first appearance.
    Frames that carry no IPv4 flow (PFC, PAUSE, ARP, IPv6, ...) and flows from a host to
    itself (a loopback capture: mmusim's hosts never send to themselves) are left out and
    counted in `warnings` (a list of strings, when given).
    ValueError naming the file and packet on a capture that is not one, or is cut short,
    and naming the file when nothing in it is a flow mmusim can replay.
    """
    import dpkt

    hosts = dict(host_map or {})
    flows = {}   # 5-tuple -> [start_s, last_s, bytes, dscp, pcp, src, dst]
    done = []
    t0 = None
    skipped = collections.Counter()  # kind of frame without an IPv4 flow -> frames
    frames = 0

    def host(ip):
        if ip not in hosts:
            if host_map is not None:
                raise ValueError(f"{path}: address {ip} is not in the host map")
            hosts[ip] = len(hosts)
        return hosts[ip]

    with open(path, "rb") as f:
        for n, ts, buf, wirelen in read_capture(path, f):
            try:
                eth = dpkt.ethernet.Ethernet(buf)
            except dpkt.UnpackError as e:
                raise ValueError(f"{path}: packet {n}: not an Ethernet frame ({str(e) or type(e).__name__})") from None
            frames += 1
            pcp = -1
            if getattr(eth, "vlan_tags", None):
                pcp = eth.vlan_tags[0].pri
            ip = eth.data
            if not isinstance(ip, dpkt.ip.IP):
                skipped[_skipped_kind(eth)] += 1
                continue
            t0 = ts if t0 is None else t0
            l4 = ip.data
            sport = getattr(l4, "sport", 0)
            dport = getattr(l4, "dport", 0)
            src, dst = ipaddress.IPv4Address(ip.src).compressed, ipaddress.IPv4Address(ip.dst).compressed
            key = (src, dst, sport, dport, ip.p)
            fl = flows.get(key)
            if fl is not None and idle_us is not None and (ts - fl[1]) * 1e6 > idle_us:
                done.append((key, fl))
                fl = None
            if fl is None:
                fl = flows[key] = [ts, ts, 0, ip.tos >> 2, pcp, host(src), host(dst)]
            fl[1] = ts
            fl[2] += wirelen
    done.extend(flows.items())
    loops = [(key, fl) for key, fl in done if fl[5] == fl[6]]
    done = [(key, fl) for key, fl in done if fl[5] != fl[6]]
    notes = []
    if skipped:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0])))
        notes.append(f"{path}: {sum(skipped.values())} of {frames} frames carry no IPv4 flow and are "
                     f"left out ({kinds})")
    if loops:
        addrs = ", ".join(sorted({key[0] for key, _ in loops}))
        notes.append(f"{path}: {len(loops)} flows ({sum(fl[2] for _, fl in loops)} bytes) go from a host "
                     f"to itself ({addrs}; a loopback capture?) and are left out: mmusim's hosts never "
                     f"send to themselves")
    if not done:
        raise ValueError("; ".join(notes) + ": no flow to import" if notes else f"{path}: no frames, no flow to import")
    if warnings is not None:
        warnings.extend(notes)
    out = [FlowRecord(round((fl[0] - t0) * 1e9, 3), fl[5], fl[6], fl[2], fl[3], fl[4],
                      key[2], key[3], key[4]) for key, fl in done]
    out.sort(key=lambda r: (r.start_ns, r.src, r.src_port))
    return out, hosts


def parse_hosts(spec):
    """'0-15' or '1,3,5' or '0-3,8' -> list of ints ('h' prefixes allowed)."""
    out = []
    for part in spec.split(","):
        a, _, b = part.replace("h", "").partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def main(argv=None):
    from traffic import workloads

    ap = argparse.ArgumentParser(prog="python3 -m traffic.trace", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen", help="background flows from a published CDF")
    g.add_argument("workload", choices=workloads.WORKLOADS, help="flow-size CDF (traffic/data/)")
    g.add_argument("--hosts", required=True, help="host indices, e.g. 0-15 or 0,2,4")
    g.add_argument("--load", type=float, required=True, help="offered load per host, fraction of its line rate")
    g.add_argument("--rate-gbps", type=float, default=100.0, help="host line rate, Gb/s (default: %(default)s)")
    g.add_argument("--duration-us", type=float, required=True, help="flow start times span [0, this), us")
    g.add_argument("--arrivals", choices=("poisson", "lognormal"), default="poisson", help="inter-arrival law (default: %(default)s)")
    g.add_argument("--sigma", type=float, default=2.0, help="lognormal inter-arrival sigma (default: %(default)s)")
    g.add_argument("--dscp", type=int, default=0, help="DSCP of every flow (default: %(default)s)")
    g.add_argument("--seed", type=int, default=1, help="random seed (default: %(default)s)")
    q = sub.add_parser("incast", help="Reverie query-response incast")
    q.add_argument("--servers", required=True, help="server host indices, e.g. 0-15")
    q.add_argument("--file-bytes", type=int, required=True, help="bytes per query, split over the responders")
    q.add_argument("--rate", type=float, default=2.0, help="queries per second per server (default: %(default)s)")
    q.add_argument("--duration-us", type=float, required=True, help="query times span [0, this), us")
    q.add_argument("--dscp", type=int, default=3, help="DSCP of every response flow (default: %(default)s)")
    q.add_argument("--seed", type=int, default=1, help="random seed (default: %(default)s)")
    i = sub.add_parser("import", help="flows of a pcap capture")
    i.add_argument("pcap", help="capture file (pcap, Ethernet)")
    i.add_argument("--idle-us", type=float, default=None,
                   help="split a 5-tuple into flows at gaps longer than this, us (default: one flow per 5-tuple)")
    for p in (g, q, i):
        p.add_argument("-o", "--output", required=True, help="trace CSV to write (docs/traces.md)")
    a = ap.parse_args(argv)
    try:
        if a.cmd == "gen":
            flows = workloads.background(parse_hosts(a.hosts), a.load, a.rate_gbps, a.duration_us,
                                         a.workload, a.arrivals, a.sigma, a.seed, a.dscp)
        elif a.cmd == "incast":
            flows = workloads.query_response(parse_hosts(a.servers), a.file_bytes, a.rate,
                                             a.duration_us, a.seed, a.dscp)
        else:
            notes = []
            flows, hosts = import_pcap(a.pcap, a.idle_us, warnings=notes)
            for note in notes:
                print(f"traffic.trace: warning: {note}", file=sys.stderr)
            for ip, h in sorted(hosts.items(), key=lambda kv: kv[1]):
                print(f"h{h} = {ip}", file=sys.stderr)
    except (OSError, ValueError) as e:
        print(f"traffic.trace: error: {e}", file=sys.stderr)
        return 1
    n = write_trace(a.output, flows)
    print(f"{a.output}: {n} flows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
