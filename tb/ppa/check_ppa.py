#!/usr/bin/python3
"""Checks of scripts/ppa (ctest runs these; see tb/CMakeLists.txt).

  check_ppa.py flow --lib asap7|sky130|none [--pdk DIR] [--dual-issue 0|1] --out DIR
      runs the flow on 8 ports x 2 priorities (dt; without --dual-issue, the RTL default, dual
      issue) and checks the report is complete and sane
  check_ppa.py missing-tool
      without yosys (or OpenSTA) on PATH: one clear message naming the Debian package, exit 2
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PPA = os.path.join(REPO, 'scripts', 'ppa')
PORTS, PRIOS, CW = 8, 2, 16

failures = []


def check(cond, what):
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        failures.append(what)


def flow(lib, pdk, out, dual):
    cmd = [PPA, '--ports', str(PORTS), '--prios', str(PRIOS), '--cw', str(CW), '--policies', 'dt',
           '--lib', lib, '--out', out]
    if pdk:
        cmd += ['--pdk', pdk]
    if dual is not None:
        cmd += ['--dual-issue', dual]
    di = 1 if dual is None else int(dual)
    if os.path.isdir(out):
        shutil.rmtree(out)
    r = subprocess.run(cmd, capture_output=True, text=True)
    print(r.stdout[-3000:])
    print(r.stderr[-3000:], file=sys.stderr)
    check(r.returncode == 0, f'scripts/ppa exits 0 (got {r.returncode})')
    if r.returncode != 0:
        return
    with open(os.path.join(out, 'report.json')) as f:
        rep = json.load(f)
    with open(os.path.join(out, 'report.md')) as f:
        md = f.read()
    nq = PORTS * PRIOS
    min_ff = nq * (3 * CW + 1)  # ingress, headroom, egress counters and a pause bit per queue
    check(rep['config']['ports'] == PORTS and rep['config']['policies'] == ['dt'], 'report names its configuration')
    check(rep['config'].get('dual_issue') == di and f'DUAL_ISSUE={di}' in md,
          f'report names the issue width (DUAL_ISSUE={di})')
    with open(os.path.join(out, 'synth.ys')) as f:
        check(f'-set DUAL_ISSUE {di} ' in f.read(), f'yosys chparam sets DUAL_ISSUE {di}')
    check(rep['flip_flops'] >= min_ff, f"flip-flops {rep['flip_flops']} >= {min_ff} (queue state)")
    check(rep['cells'] > rep['flip_flops'], f"cells {rep['cells']} > flip-flops")
    cats = rep['breakdown']['categories']
    check(set(cats) == {'counters', 'ewma', 'thresholds', 'pfc', 'control', 'csr'}, 'breakdown has every part')
    check(cats['counters']['total'] > 0 and cats['csr']['total'] > 0 and cats['thresholds']['total'] > 0,
          'counters, thresholds and CSR have area')
    check(cats['ewma']['flip_flops'] == 0, 'dt-only netlist holds no EWMA state')
    check(cats['counters']['flip_flops'] >= nq * 3 * CW, 'counter flip-flops by register name')
    if lib == 'none':
        e = rep['estimate']
        check(rep['mode'] == 'estimate-no-liberty', 'labelled as an estimate')
        check(e['transistors_with_ff'] > 0 and e['transistors_logic'] > 0, 'transistor count > 0')
        check(e['logic_depth_gates'] and e['logic_depth_gates'] > 5, f"logic depth {e['logic_depth_gates']} gates")
        check('ESTIMATE' in md and 'no standard-cell library' in md, 'report.md says ESTIMATE')
        return
    t = rep['timing']
    cp = t['critical_path']
    check(rep['mode'] == 'liberty', 'liberty mode')
    check(rep['area_um2'] > 0, f"area {rep['area_um2']} um2 > 0")
    total = sum(v['total'] for v in cats.values())
    check(abs(total - rep['area_um2']) <= 0.01 * rep['area_um2'], f'breakdown adds up to the area ({total:.1f})')
    check(0 < rep['sequential_area_um2'] < rep['area_um2'], 'flip-flop area within the total')
    check(t['min_period_ps'] > 0 and cp['delay_ps'] > 0, f"critical path {cp['delay_ps']} ps > 0")
    check(t['fmax_mhz'] > 0 and abs(t['fmax_mhz'] - 1e6 / t['min_period_ps']) < 1, f"fmax {t['fmax_mhz']} MHz")
    check(bool(cp['startpoint']) and bool(cp['endpoint']), f"critical path named: {cp['startpoint']} -> {cp['endpoint']}")
    check(cp['logic_depth'] > 3, f"logic depth {cp['logic_depth']} cells")
    check(t['wns_ps'] <= 0 and t['tns_ps'] is not None and t['tns_ps'] <= 0, 'WNS and TNS reported')
    check(abs(t['worst_slack_ps'] - (t['clock_ps'] - t['min_period_ps'])) < 0.1, 'slack = period - critical path')
    check(len(t['endpoint_groups']) > 3 and t['endpoints'] >= rep['flip_flops'], 'per-register slack reported')
    check('critical path' in md and cp['endpoint'] in md, 'report.md has the critical path')


def missing_tool():
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, PATH=d)
        r = subprocess.run([PPA, '--lib', 'none', '--out', os.path.join(d, 'o')], capture_output=True, text=True, env=env)
        check(r.returncode == 2, f'no yosys: exit 2 (got {r.returncode})')
        check("'yosys'" in r.stderr and 'Debian package' in r.stderr, 'no yosys: message names the package: ' + r.stderr.strip())
        check('Traceback' not in r.stderr, 'no yosys: no stack trace')
        yosys = shutil.which('yosys')
        pdk = os.path.join(os.path.dirname(REPO), 'shared', 'pdk')
        if yosys and os.path.isdir(pdk):
            os.symlink(yosys, os.path.join(d, 'yosys'))
            r = subprocess.run([PPA, '--lib', 'asap7', '--pdk', pdk, '--out', os.path.join(d, 'o')],
                               capture_output=True, text=True, env=env)
            check(r.returncode == 2 and "'opensta'" in r.stderr and 'Traceback' not in r.stderr,
                  'no sta: message names opensta: ' + r.stderr.strip())
        r = subprocess.run([PPA, '--ports', '100'], capture_output=True, text=True)
        check(r.returncode == 2 and '--ports' in r.stderr and 'Traceback' not in r.stderr,
              'bad parameter: one-line error: ' + r.stderr.strip())
        for args, flag in ((['--dual-issue', '2'], '--dual-issue'), (['sweep', '--dual-issue', '0,2'], '--dual-issue')):
            r = subprocess.run([PPA] + args, capture_output=True, text=True)
            check(r.returncode == 2 and flag in r.stderr and 'Traceback' not in r.stderr,
                  f"bad {' '.join(args)}: one-line error: " + r.stderr.strip().splitlines()[-1])
        r = subprocess.run([PPA, '--lib', os.path.join(d, 'nope.lib')], capture_output=True, text=True)
        check(r.returncode == 2 and 'Traceback' not in r.stderr, 'missing liberty: one-line error: ' + r.stderr.strip())


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    if argv[0] == 'flow':
        args = dict(zip(argv[1::2], argv[2::2]))
        flow(args.get('--lib', 'none'), args.get('--pdk'), args.get('--out', 'ppa-test-out'), args.get('--dual-issue'))
    elif argv[0] == 'missing-tool':
        missing_tool()
    else:
        print(__doc__)
        return 2
    print(f"{len(failures)} failed" if failures else 'all checks passed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
