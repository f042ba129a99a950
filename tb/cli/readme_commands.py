#!/usr/bin/python3
"""Every command in README.md's ```sh blocks, pasted as a reader would (issue 14).

Each command line is either run here, in a scratch directory that looks like a fresh clone
(the repository's files linked in, the build directory as `build/`), or listed in SKIP with
the reason it is not: a README command that is neither fails the test, so the README cannot
grow a command nobody runs. A block with a here-document runs whole, as pasted.

  readme_commands.py --build BUILD_DIR [--keep]
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Command prefix -> why this test does not run it.
SKIP = {
    "bash scripts/main.sh": "set-up command 1: CI's own first step on a fresh machine",
    "bash scripts/test.sh": "set-up command 2: CI runs it, and it runs this test",
    "build/mmusim run [": "a synopsis (brackets); the examples after it run",
    "build/mmusim check SCENARIO": "a synopsis; the example after it runs",
    "build/mmusim compare [": "a synopsis; `compare` runs in tb/cli/test_cli*.cc",
    "/usr/bin/python3 -m traffic.experiments all --full": "paper-sized (hours); writes docs/ on purpose",
    "/usr/bin/python3 -m traffic.sweep SPEC.json": "a synopsis; the sweep example below runs whole",
    "scripts/ppa [": "a synopsis; scripts/ppa runs in the ppa ctests",
    "[--dual-issue": "continuation of the scripts/ppa synopsis",
    "scripts/ppa sweep": "hours of synthesis; docs/ppa.md records it",
}
# The quick experiments run in traffic/tests/test_experiments.py through the same
# experiments.main; here one runs as pasted and the rest must name an experiment.
RUN_EXPERIMENT = "bb-fig6"


def sh_blocks(text):
    return re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M)


def commands(block):
    """(command line, whole block if it holds a here-document else None) per command."""
    if "<<'" in block:
        return [(block.strip().splitlines()[0], block)]
    out = []
    for line in block.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.append((line, None))
    return out


def capture(path):
    """A small Ethernet/IPv4/UDP pcap: the README's `capture.pcap`."""
    recs = b""
    for i in range(6):
        udp = struct.pack("!HHHH", 5000 + i % 2, 4791, 8 + 200, 0) + b"\0" * 200
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), i, 0, 64, 17, 0,
                         bytes([10, 0, 0, 2 + i % 2]), bytes([10, 0, 0, 1])) + udp
        frame = b"\x04" * 6 + b"\x02" * 6 + b"\x08\x00" + ip
        recs += struct.pack("<IIII", 1, 10 * i, len(frame), len(frame)) + frame
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1) + recs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True, help="the build directory (holds mmusim)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    a = ap.parse_args()
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    sys.path.insert(0, ROOT)
    from traffic import experiments

    work = tempfile.mkdtemp(prefix="readme-")
    for name in os.listdir(ROOT):
        if name not in (".git", "build") and not name.startswith("build"):
            os.symlink(os.path.join(ROOT, name), os.path.join(work, name))
    os.symlink(os.path.abspath(a.build), os.path.join(work, "build"))
    capture(os.path.join(work, "capture.pcap"))
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")

    ran, skipped, failed = 0, 0, []
    for block in sh_blocks(readme):
        for line, whole in commands(block):
            reason = next((why for pre, why in SKIP.items() if line.startswith(pre)), None)
            m = re.match(r"/usr/bin/python3 -m traffic\.experiments (\S+)$", line)
            if m and m.group(1) != RUN_EXPERIMENT:
                if m.group(1) not in experiments.EXPERIMENTS:
                    failed.append(f"{line}: no experiment named {m.group(1)}")
                else:
                    print(f"checked  {line}  (runs in traffic/tests/test_experiments.py)")
                    skipped += 1
                continue
            if reason:
                print(f"skipped  {line}  ({reason})")
                skipped += 1
                continue
            r = subprocess.run(["bash", "-euo", "pipefail", "-c", whole or line], cwd=work, env=env,
                               capture_output=True, text=True, timeout=600)
            if r.returncode != 0:
                failed.append(f"{line}: exit {r.returncode}\n{r.stderr[-2000:]}")
                print(f"FAILED   {line}")
            else:
                print(f"ran      {line}")
                ran += 1
    # What the runs must have left behind.
    for out in ("mmusim-out/summary.json", "leaf-dsh/summary.json", "bg.csv", "inc.csv", "replay.csv",
                "sweep-out/results.csv", "experiments-out"):
        if not os.path.exists(os.path.join(work, out)):
            failed.append(f"expected output {out} missing")
    if os.path.exists(os.path.join(work, "sweep-out/results.csv")):
        with open(os.path.join(work, "sweep-out/results.csv")) as f:
            rows = len(f.read().strip().splitlines()) - 1
        if rows != 18:
            failed.append(f"sweep-out/results.csv: {rows} rows, the README says 18 points")
    print(f"{ran} commands run, {skipped} not run (reasons above), {len(failed)} failures; scratch {work}")
    for f in failed:
        print("FAIL:", f, file=sys.stderr)
    if not a.keep:
        shutil.rmtree(work)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
