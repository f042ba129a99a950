"""Trace files: round trip through mmusim's "trace" generator, pcap import, command line."""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

import dpkt

from traffic import sweep, trace, workloads
from traffic.trace import FlowRecord

MMUSIM = sweep.mmusim_path()


def default_scenario():
    with open(os.path.join(sweep.ROOT, "scenarios", "default.json")) as f:
        return json.load(f)


class TraceFile(unittest.TestCase):
    def test_write_read_round_trip(self):
        flows = [FlowRecord(1.5, 1, 0, 1000, 3), FlowRecord(0.25, 2, 5, 77, 0, 4, 1234, 80, 6)]
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "t.csv")
            self.assertEqual(trace.write_trace(p, flows), 2)
            with open(p) as f:
                self.assertEqual(f.readline(), "# mmusim-trace 1\n")
                self.assertEqual(f.readline(), trace.HEADER + "\n")
                self.assertEqual(f.readline(), "0.250,2,5,77,0,4,1234,80,6\n")
            self.assertEqual(trace.read_trace(p), sorted(flows, key=lambda r: r.start_ns))

    def test_bad_line_names_file_and_line(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "t.csv")
            with open(p, "w") as f:
                f.write("# mmusim-trace 1\n" + trace.HEADER + "\n0,1,2,3,4,5,6,7,8\n0,1,2\n")
            with self.assertRaisesRegex(ValueError, r"t\.csv:4: 3 fields"):
                trace.read_trace(p)


@unittest.skipUnless(os.path.exists(MMUSIM), f"{MMUSIM} not built")
class TraceThroughMmusim(unittest.TestCase):
    def test_generated_flows_come_back_in_flows_csv(self):
        # 200 websearch-sized flows (capped at 200 KB to finish in the run) between 8 hosts,
        # lognormal arrivals, plus explicit 5-tuples: flows.csv must list exactly them.
        cdf = workloads.Cdf([1000, 200_000], [0, 1], "small")
        fl = workloads.background(list(range(8)), 0.2, 100, 200, cdf, "lognormal", seed=3, dscp=3)
        fl = [f._replace(src_port=1000 + i, dst_port=2000 + i, proto=6 if i % 2 else 17) for i, f in enumerate(fl)]
        self.assertGreater(len(fl), 50)
        with tempfile.TemporaryDirectory() as d:
            tp = os.path.join(d, "trace.csv")
            trace.write_trace(tp, fl)
            sc = default_scenario()
            sc["duration_us"] = 1000
            sc["measure"] = {"start_us": 0, "end_us": 1000}
            sc["traffic"] = [{"type": "trace", "name": "replay", "file": tp}]
            sp = os.path.join(d, "s.json")
            with open(sp, "w") as f:
                json.dump(sc, f)
            subprocess.run([MMUSIM, "run", sp, "--quiet", "--out", d], check=True)
            with open(os.path.join(d, "flows.csv")) as f:
                rows = list(csv.DictReader(f))
        want = sorted(fl, key=lambda r: r.start_ns)
        self.assertEqual(len(rows), len(want))
        for r, w in zip(rows, want):
            got = (float(r["start_ns"]), int(r["src"][1:]), int(r["dst"][1:]), int(r["bytes"]),
                   int(r["src_port"]), int(r["dst_port"]), int(r["proto"]), r["dst_ip"])
            self.assertEqual(got, (round(w.start_ns, 3), w.src, w.dst, w.bytes, w.src_port, w.dst_port,
                                   w.proto, f"10.0.0.{w.dst + 1}"))
            self.assertEqual(r["prio"], "3")  # DSCP 3 -> TC 3 by the AZURE map
        done = sum(1 for r in rows if r["fct_ns"])
        print(f"\ntrace round trip: {len(rows)} flows in flows.csv, {done} completed")
        self.assertEqual(done, len(rows))


    def test_example_scenario_replays_its_traces(self):
        # scenarios/trace-example.json (paths relative to the repository root).
        with tempfile.TemporaryDirectory() as d:
            subprocess.run([MMUSIM, "run", "scenarios/trace-example.json", "--quiet", "--out", d],
                           check=True, cwd=sweep.ROOT)
            with open(os.path.join(d, "summary.json")) as f:
                s = json.load(f)
        n_bg = len(trace.read_trace(os.path.join(sweep.ROOT, "scenarios/traces/websearch-lognormal.csv")))
        n_inc = len(trace.read_trace(os.path.join(sweep.ROOT, "scenarios/traces/query-response-2MB.csv")))
        self.assertEqual(s["generators"]["background"]["flows"], n_bg)
        self.assertEqual(s["generators"]["incast"]["flows"], n_inc)
        self.assertEqual(s["generators"]["incast"]["completed"], n_inc)


def pcap_bytes(packets):
    """A pcap (dpkt writer) of (t_s, frame bytes)."""
    import io
    buf = io.BytesIO()
    w = dpkt.pcap.Writer(buf, nano=True)
    for t, fr in packets:
        w.writepkt(fr, ts=t)
    return buf.getvalue()


def frame(src, dst, sport, dport, proto, payload, tos=0, pcp=None):
    l4 = (dpkt.udp.UDP(sport=sport, dport=dport, data=payload) if proto == 17
          else dpkt.tcp.TCP(sport=sport, dport=dport, data=payload))
    ip = dpkt.ip.IP(src=bytes(map(int, src.split("."))), dst=bytes(map(int, dst.split("."))), p=proto,
                    tos=tos, data=l4)
    ip.len = len(bytes(ip))
    eth = dpkt.ethernet.Ethernet(src=b"\x02" * 6, dst=b"\x04" * 6, data=ip, type=dpkt.ethernet.ETH_TYPE_IP)
    if pcp is not None:
        eth.vlan_tags = [dpkt.ethernet.VLANtag8021Q(pri=pcp, cfi=0, id=10)]
        eth.type = dpkt.ethernet.ETH_TYPE_8021Q
    return bytes(eth)


def pfc_frame(enable=0x08, quanta=0xffff):
    """An 802.1Qbb PFC frame: MAC control, opcode 0x0101, class-enable vector, 8 timers."""
    body = (0x0101).to_bytes(2, "big") + enable.to_bytes(2, "big") + quanta.to_bytes(2, "big") * 8
    return bytes(dpkt.ethernet.Ethernet(src=b"\x02" * 6, dst=bytes.fromhex("0180c2000001"),
                                        type=0x8808, data=body + b"\0" * 26))


class PcapImport(unittest.TestCase):
    def test_known_capture(self):
        a = frame("10.0.0.2", "10.0.0.1", 5000, 4791, 17, b"x" * 958, tos=3 << 2)      # 1000 B frames
        b = frame("10.0.0.3", "10.0.0.1", 6000, 80, 6, b"y" * 446, tos=26 << 2, pcp=5)
        c = frame("10.0.0.1", "10.0.0.4", 7000, 4791, 17, b"z" * 100)
        pkts = [(10.0, a), (10.000001, a), (10.000002, b), (10.0000025, c), (10.000003, a),
                (10.001, b), (10.003, a)]  # the last `a` follows a 2.997 ms gap
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "cap.pcap")
            with open(p, "wb") as f:
                f.write(pcap_bytes(pkts))
            flows, hosts = trace.import_pcap(p, idle_us=1000)
            self.assertEqual(hosts, {"10.0.0.2": 0, "10.0.0.1": 1, "10.0.0.3": 2, "10.0.0.4": 3})
            la, lb, lc = len(a), len(b), len(c)
            self.assertEqual(la, 1000)
            self.assertEqual(flows, [
                FlowRecord(0.0, 0, 1, 3 * la, 3, -1, 5000, 4791, 17),
                FlowRecord(2000.0, 2, 1, 2 * lb, 26, 5, 6000, 80, 6),
                FlowRecord(2500.0, 1, 3, lc, 0, -1, 7000, 4791, 17),
                FlowRecord(3_000_000.0, 0, 1, la, 3, -1, 5000, 4791, 17),
            ])
            # Without an idle timeout the 5-tuple is one flow.
            flows, _ = trace.import_pcap(p)
            self.assertEqual(flows[0].bytes, 4 * la)
            # mmusim's own addressing maps back to its hosts.
            flows, _ = trace.import_pcap(p, host_map={f"10.0.0.{i + 1}": i for i in range(8)})
            self.assertEqual((flows[0].src, flows[0].dst), (1, 0))
            self.assertEqual(trace.host_of_ip("10.0.0.1"), 0)
            # The command line writes the same flows as a trace.
            out = os.path.join(d, "t.csv")
            r = subprocess.run([sys.executable, "-m", "traffic.trace", "import", p, "--idle-us", "1000", "-o", out],
                               capture_output=True, text=True, cwd=sweep.ROOT)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(len(trace.read_trace(out)), 4)

    def import_error(self, data, needle):
        """`traffic.trace import` of `data`: exit 1, one line on stderr naming the file, no traceback."""
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "cap.pcap")
            with open(p, "wb") as f:
                f.write(data)
            out = os.path.join(d, "t.csv")
            r = subprocess.run([sys.executable, "-m", "traffic.trace", "import", p, "-o", out],
                               capture_output=True, text=True, cwd=sweep.ROOT)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
            self.assertIn(f"traffic.trace: error: {p}: {needle}", r.stderr)
            self.assertFalse(os.path.exists(out))

    def test_not_a_pcap(self):
        self.import_error(b"hello, not a capture at all\n", "not a pcap or pcapng capture")
        self.import_error(b"", "empty file, not a capture")

    def test_truncated_pcap_names_the_packet(self):
        a = frame("10.0.0.2", "10.0.0.1", 5000, 4791, 17, b"x" * 958)
        data = pcap_bytes([(1.0, a), (1.1, a)])
        self.assertEqual(len(data), 24 + 2 * (16 + 1000))
        self.import_error(data[:-100], "packet 2: truncated (900 of 1000 bytes)")
        self.import_error(data[:24 + 16 + 1000 + 6], "packet 2: truncated record header (6 of 16 bytes)")
        self.import_error(data[:20], "truncated pcap file header (20 of 24 bytes)")
        self.import_error(pcap_bytes([(1.0, a), (1.1, a[:5])]), "packet 2: not an Ethernet frame")

    def test_other_link_type(self):
        data = bytearray(pcap_bytes([(1.0, b"\x45" + b"\0" * 40)]))
        data[20:24] = (101).to_bytes(4, "little")  # LINKTYPE_RAW
        self.import_error(bytes(data), "link type 101; only Ethernet (1)")

    def test_pcapng_imports_and_truncated_names_the_packet(self):
        import io
        a = frame("10.0.0.2", "10.0.0.1", 5000, 4791, 17, b"x" * 958)
        buf = io.BytesIO()
        w = dpkt.pcapng.Writer(buf)
        w.writepkt(a, ts=1.0)
        w.writepkt(a, ts=1.5)
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "cap.pcapng")
            with open(p, "wb") as f:
                f.write(buf.getvalue())
            flows, _ = trace.import_pcap(p)
            self.assertEqual(flows, [FlowRecord(0.0, 0, 1, 2000, 0, -1, 5000, 4791, 17)])
        self.import_error(buf.getvalue()[:-50], "packet 2: truncated or corrupt pcapng block")

    def test_wire_length_of_a_snapped_capture(self):
        # A capture cut at 64 bytes per frame still counts the frames' full length.
        a = frame("10.0.0.2", "10.0.0.1", 5000, 4791, 17, b"x" * 958)
        data = bytearray(pcap_bytes([(1.0, a[:64]), (1.1, a[:64])]))
        for off in (24 + 12, 24 + 16 + 64 + 12):  # orig_len of each record
            data[off:off + 4] = (1000).to_bytes(4, "little")
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "cap.pcap")
            with open(p, "wb") as f:
                f.write(bytes(data))
            flows, _ = trace.import_pcap(p)
            self.assertEqual([f.bytes for f in flows], [2000])

    def test_frames_without_a_flow_are_counted_in_a_warning(self):
        a = frame("10.0.0.2", "10.0.0.1", 5000, 4791, 17, b"x" * 958)
        pfc = pfc_frame()
        arp = bytes(dpkt.ethernet.Ethernet(src=b"\x02" * 6, dst=b"\xff" * 6, type=dpkt.ethernet.ETH_TYPE_ARP,
                                           data=b"\0" * 28))
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "cap.pcap")
            with open(p, "wb") as f:
                f.write(pcap_bytes([(1.0, pfc), (1.1, a), (1.2, pfc), (1.3, arp), (1.4, pfc)]))
            notes = []
            flows, _ = trace.import_pcap(p, warnings=notes)
            self.assertEqual([f.bytes for f in flows], [1000])
            self.assertEqual(notes, [f"{p}: 4 of 5 frames carry no IPv4 flow and are left out "
                                     "(PFC (802.1Qbb) 3, EtherType 0x0806 1)"])
            out = os.path.join(d, "t.csv")
            r = subprocess.run([sys.executable, "-m", "traffic.trace", "import", p, "-o", out],
                               capture_output=True, text=True, cwd=sweep.ROOT)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn(f"traffic.trace: warning: {notes[0]}", r.stderr)
            self.assertIn(f"{out}: 1 flows", r.stderr)

    def test_pfc_only_capture_is_an_error(self):
        pfc = pfc_frame()
        self.import_error(pcap_bytes([(1.0, pfc), (1.1, pfc)]),
                          "2 of 2 frames carry no IPv4 flow and are left out (PFC (802.1Qbb) 2): no flow to import")

    def test_loopback_capture(self):
        # A capture on lo: zero MACs, 127.0.0.1 to itself both ways.
        req = frame("127.0.0.1", "127.0.0.1", 40000, 8080, 6, b"q" * 100)
        rsp = frame("127.0.0.1", "127.0.0.1", 8080, 40000, 6, b"r" * 900)
        self.import_error(pcap_bytes([(1.0, req), (1.1, rsp)]),
                          f"2 flows ({len(req) + len(rsp)} bytes) go from a host to itself (127.0.0.1; a "
                          "loopback capture?) and are left out: mmusim's hosts never send to themselves: "
                          "no flow to import")
        # Mixed with real traffic: the self-sends are left out with a warning.
        a = frame("10.0.0.2", "10.0.0.1", 5000, 4791, 17, b"x" * 958)
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "cap.pcap")
            with open(p, "wb") as f:
                f.write(pcap_bytes([(1.0, req), (1.1, a)]))
            notes = []
            flows, hosts = trace.import_pcap(p, warnings=notes)
            self.assertEqual([(f.src, f.dst, f.bytes) for f in flows], [(hosts["10.0.0.2"], hosts["10.0.0.1"], 1000)])
            self.assertEqual(len(notes), 1)
            self.assertIn("1 flows (", notes[0])


if __name__ == "__main__":
    unittest.main()
