"""Synthesis (yosys 0.23) and static timing (OpenSTA) of the RTL admission unit.

One run: yosys reads rtl/, sets the parameters, synthesises to generic gates with the
module hierarchy kept (the area breakdown's blocks), flattens all but the CSR block, maps
to a standard-cell liberty with timing-driven
ABC, and writes a netlist; OpenSTA reports the critical path, WNS/TNS and per-endpoint
slack. Without a liberty, yosys alone estimates transistors (`stat -tech cmos`) and logic
depth (`ltp -noff`). Results go to report.json and report.md (docs/ppa.md explains them).
"""
import json
import os
import re
import shutil
import subprocess
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

def _rtl_sources():
    """The unit's sources in order (rtl/sources.f); its *.svh are included from rtl/."""
    with open(os.path.join(REPO, 'rtl', 'sources.f')) as fh:
        return [os.path.join(REPO, 'rtl', l.strip()) for l in fh if l.strip() and not l.startswith('#')]


RTL = _rtl_sources()
RTL_INCLUDES = sorted(os.path.join(REPO, 'rtl', f) for f in os.listdir(os.path.join(REPO, 'rtl')) if f.endswith('.svh'))
TOP = 'mmu_admission'
# CTRL.policy values (rtl/regmap.json): bit i of the POLICIES mask is value i.
POLICY_BITS = {'dt': 1, 'reverie': 2, 'dsh': 4, 'static': 8, 'sih': 16, 'abm': 32}

# Libraries under the shared PDK folder (its README names the files and their pitfalls).
LIBS = {
    'sky130': dict(synth='sky130hd/sky130_fd_sc_hd__tt_025C_1v80.synth.lib',
                   sta='sky130hd/sky130_fd_sc_hd__tt_025C_1v80.synth.lib',
                   constr='constr/sky130hd.constr', hilo=None, clock_ps=5000,
                   title='SkyWater sky130 HD, TT 25 C 1.80 V'),
    'asap7': dict(synth='asap7/asap7sc7p5t_RVT_TT_merged.synth.lib',
                  sta='asap7/asap7sc7p5t_RVT_TT_merged.lib',
                  constr='constr/asap7.constr',
                  hilo=('TIEHIx1_ASAP7_75t_R', 'H', 'TIELOx1_ASAP7_75t_R', 'L'), clock_ps=1000,
                  title='ASAP7 7 nm predictive, RVT TT 0.7 V 25 C'),
}
DEFAULT_CLOCK_PS = 1000

CATEGORIES = ('counters', 'ewma', 'thresholds', 'pfc', 'control', 'csr')
CATEGORY_TITLES = {
    'counters': 'counters (queue, headroom, pool, total; dsh port counters)',
    'ewma': 'per-queue policy state (reverie EWMA filters, abm drain rates)',
    'thresholds': 'thresholds (DT shift, reverie divide by n_p, dsh port threshold, compares)',
    'pfc': 'PFC state (queue and port pause bits, XOFF/XON decisions)',
    'control': 'control (operation select, queue index, profile lookup, verdict, responses)',
    'csr': 'CSR block (configuration registers, statistics, read mux)',
}

# Relative cost of yosys's generic gates (transistors in static CMOS, as `stat -tech cmos`
# counts them), used to weigh the pre-mapping gates of each category.
GATE_COST = {'NOT': 2, 'BUF': 1, 'NAND': 4, 'NOR': 4, 'AND': 6, 'OR': 6, 'ANDNOT': 6, 'ORNOT': 6,
             'XOR': 12, 'XNOR': 12, 'AOI3': 6, 'OAI3': 6, 'AOI4': 8, 'OAI4': 8, 'MUX': 12, 'NMUX': 10}


class PpaError(Exception):
    """A failure to report in one line (missing tool, bad option, tool error)."""


# ------------------------------------------------------------------------------------
# Tools and libraries
# ------------------------------------------------------------------------------------
TOOL_PACKAGES = {'yosys': 'yosys', 'sta': 'opensta', 'iverilog': 'iverilog'}


def require_tool(name):
    path = shutil.which(name)
    if not path:
        raise PpaError(f"'{name}' not found on PATH: install the Debian package "
                       f"'{TOOL_PACKAGES.get(name, name)}' (apt-get install -y {TOOL_PACKAGES.get(name, name)}, "
                       f"or scripts/deps.sh test as root)")
    return path


def default_pdk():
    return os.environ.get('MMUSIM_PDK') or os.path.join(os.path.dirname(REPO), 'shared', 'pdk')


def resolve_library(lib, pdk=None):
    """Library spec from a name (sky130, asap7), a liberty path, or none."""
    pdk = pdk or default_pdk()
    if lib in (None, '', 'auto'):
        lib = 'asap7' if os.path.isfile(os.path.join(pdk, LIBS['asap7']['synth'])) else 'none'
    if lib == 'none':
        return None
    if lib in LIBS:
        d = dict(LIBS[lib])
        d['name'] = lib
        for k in ('synth', 'sta', 'constr'):
            d[k] = os.path.join(pdk, d[k])
            if not os.path.isfile(d[k]):
                raise PpaError(f"library '{lib}': {d[k]} not found (the shared PDK folder; "
                               f"set --pdk DIR or MMUSIM_PDK, pass a liberty by path, or use --lib none)")
        return d
    if not os.path.isfile(lib):
        raise PpaError(f"--lib {lib}: neither sky130, asap7, none nor an existing liberty file")
    if lib.endswith('.gz'):
        raise PpaError(f"--lib {lib}: yosys 0.23 cannot read .lib.gz; decompress it first")
    path = os.path.abspath(lib)
    # A known library given by path is that library: same constraints, tie cells and
    # clock, so `--lib PATH` and `--lib NAME` give the same netlist.
    for name, known in LIBS.items():
        files = {os.path.realpath(os.path.join(pdk, known[k])) for k in ('synth', 'sta')}
        if os.path.realpath(path) in files and os.path.isfile(os.path.join(pdk, known['constr'])):
            d = dict(known, name=name, synth=path, sta=path, constr=os.path.join(pdk, known['constr']))
            d['title'] = f"{known['title']} ({path})"
            return d
    # Any other liberty: ABC's driving cell and load, and the tie cells, from its own cells.
    cells = liberty_cells(path)
    drive = derive_constr(cells)
    return dict(name=os.path.basename(lib), synth=path, sta=path, constr=None, derived_constr=drive,
                hilo=derive_hilo(cells), clock_ps=DEFAULT_CLOCK_PS, title=path)


def liberty_cells(path):
    """Per cell: area, dont_use, and its pins' direction, function and capacitance in fF."""
    with open(path, errors='replace') as f:
        text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
    token = re.compile(r'(\w+)\s*\(([^)]*)\)\s*(\{|;)|(\})|(\w+)\s*:\s*("[^"]*"|[^;\n{}]*)')
    cells, stack = {}, []  # stack of (group, name)
    cap_ff = 1.0           # the library's capacitive_load_unit in fF
    for m in token.finditer(text):
        group, arg, opener, close, key, val = m.groups()
        if close:
            if stack:
                stack.pop()
        elif group:
            name = arg.strip().strip('"')
            if opener == ';':  # a complex attribute, e.g. capacitive_load_unit (1, pf);
                if group == 'capacitive_load_unit':
                    num, unit = [x.strip().strip('"').lower() for x in arg.split(',')]
                    cap_ff = float(num) * {'ff': 1.0, 'pf': 1e3, 'nf': 1e6}[unit]
                continue
            stack.append((group, name))
            if group == 'cell':
                cells[name] = dict(area=0.0, dont_use=False, pins={})
            elif group == 'pin' and len(stack) >= 2 and stack[-2][0] == 'cell':
                cells[stack[-2][1]]['pins'][name] = {}
        elif key and stack:
            v = val.strip().strip('"').strip()
            top, name = stack[-1]
            if top == 'cell' and key == 'area':
                cells[name]['area'] = float(v)
            elif top == 'cell' and key == 'dont_use':
                cells[name]['dont_use'] = v == 'true'
            elif top == 'pin' and len(stack) >= 2 and stack[-2][0] == 'cell':
                pin = cells[stack[-2][1]]['pins'][name]
                if key == 'capacitance':
                    pin[key] = float(v) * cap_ff
                elif key in ('direction', 'function'):
                    pin[key] = v
    return cells


# ABC's output load in units of the driving buffer's input capacitance: the shared PDK's
# asap7.constr loads BUFx2 (0.534 fF) with 3.898 fF, about 7.3 of them.
LOAD_PER_INPUT_CAP = 8


def derive_constr(cells):
    """(driving cell, load in fF) for ABC: the smallest usable buffer, loaded by 8 of its
    inputs."""
    bufs = []
    for name, c in cells.items():
        ins = {p: d for p, d in c['pins'].items() if d.get('direction') == 'input'}
        outs = [d for d in c['pins'].values() if d.get('direction') == 'output']
        if c['dont_use'] or len(ins) != 1 or len(outs) != 1:
            continue
        (pin, d), = ins.items()
        if outs[0].get('function', '').replace(' ', '') in (pin, f'({pin})') and 'capacitance' in d:
            bufs.append((c['area'], name, d['capacitance']))
    if not bufs:
        return None
    area, name, cap = min(bufs)
    return name, LOAD_PER_INPUT_CAP * cap


def derive_hilo(cells):
    """Tie-high and tie-low cell pins (no input, function 1 / 0), or None."""
    tie = {}
    for name, c in sorted(cells.items(), key=lambda kv: kv[1]['area']):
        if c['dont_use'] or any(d.get('direction') == 'input' for d in c['pins'].values()):
            continue
        for pin, d in c['pins'].items():  # sky130's conb_1 has both, HI and LO
            fn = d.get('function', '').strip()
            if d.get('direction') == 'output' and fn in ('1', '0') and fn not in tie:
                tie[fn] = (name, pin)
    if len(tie) < 2:
        return None
    return tie['1'][0], tie['1'][1], tie['0'][0], tie['0'][1]


_LIB_CACHE = {}


def parse_liberty(path):
    """Cell areas, sequential cells and the time unit (in ps) of a liberty file."""
    if path in _LIB_CACHE:
        return _LIB_CACHE[path]
    areas, seq = {}, set()
    unit_ps = 1000.0
    cell = None
    cell_re = re.compile(r'^\s*cell\s*\(\s*"?([^")\s]+)"?\s*\)')
    area_re = re.compile(r'^\s*area\s*:\s*([0-9.eE+-]+)')
    seq_re = re.compile(r'^\s*(ff|latch|ff_bank|latch_bank)\s*\(')
    unit_re = re.compile(r'^\s*time_unit\s*:\s*"?\s*([0-9.]+)\s*(ps|ns|us)')
    with open(path, errors='replace') as f:
        for line in f:
            m = cell_re.match(line)
            if m:
                cell = m.group(1)
                continue
            if cell is None:
                m = unit_re.match(line)
                if m:
                    unit_ps = float(m.group(1)) * {'ps': 1, 'ns': 1000, 'us': 1e6}[m.group(2)]
                continue
            if cell not in areas:
                m = area_re.match(line)
                if m:
                    areas[cell] = float(m.group(1))
                    continue
            if seq_re.match(line):
                seq.add(cell)
    res = dict(areas=areas, seq=seq, unit_ps=unit_ps)
    _LIB_CACHE[path] = res
    return res


# ------------------------------------------------------------------------------------
# Configuration
# ------------------------------------------------------------------------------------
def make_config(ports=8, prios=2, cw=16, pools=2, prof=2, ewma_frac=16, cellw=16,
                policies=('dt', 'reverie', 'dsh'), dual_issue=1, pipe=0, abc=None):
    if isinstance(policies, str):
        policies = [p.strip() for p in policies.split(',') if p.strip()]
    bad = [p for p in policies if p not in POLICY_BITS]
    if bad or not policies:
        raise PpaError(f"--policies: expected a comma list of {', '.join(POLICY_BITS)}; got {','.join(policies) or 'nothing'}")
    checks = [(ports, 1, 64, '--ports'), (prios, 1, 8, '--prios'), (cw, 8, 32, '--cw'),
              (pools, 1, 16, '--pools'), (prof, 1, 16, '--prof'), (ewma_frac, 0, 16, '--ewma-frac'),
              (cellw, 1, 16, '--cellw'), (dual_issue, 0, 1, '--dual-issue'), (pipe, 0, 3, '--pipe')]
    for v, lo, hi, name in checks:
        if not lo <= v <= hi:
            raise PpaError(f"{name} {v}: must be {lo}..{hi} (the RTL's parameter range)")
    if pipe == 2:
        raise PpaError("--pipe 2: must be 0, 1 or 3 (the RTL's PIPE values)")
    abc = abc or ABC_DEFAULT
    if abc not in ABC_SCRIPTS:
        raise PpaError(f"--abc {abc}: must be one of {', '.join(ABC_SCRIPTS)}")
    mask = 0
    for p in policies:
        mask |= POLICY_BITS[p]
    order = [p for p in POLICY_BITS if mask & POLICY_BITS[p]]
    return dict(ports=ports, prios=prios, cw=cw, pools=pools, prof=prof, ewma_frac=ewma_frac,
                cellw=cellw, policies=order, policies_mask=mask, dual_issue=dual_issue, pipe=pipe, abc=abc)


def config_tag(cfg):
    # Reports written before DUAL_ISSUE existed are of the single-issue design.
    return (f"p{cfg['ports']}x{cfg['prios']}_cw{cfg['cw']}_po{cfg['pools']}_pr{cfg['prof']}_"
            f"{'+'.join(cfg['policies'])}_di{cfg.get('dual_issue', 0)}" + ('_pipe' if cfg.get('pipe') == 1 else f"_pipe{cfg['pipe']}" if cfg.get('pipe') else '')
            + ('' if cfg.get('abc', 'fast') == 'fast' else '_' + cfg['abc']))


# ------------------------------------------------------------------------------------
# yosys
# ------------------------------------------------------------------------------------
def _q(p):
    # yosys 0.23 takes file names unquoted (tee -o keeps the quotes): refuse spaces.
    if any(ch.isspace() for ch in p):
        raise PpaError(f"path with white space not supported by the yosys flow: '{p}'")
    return p


# ABC scripts for the mapping step, tried in order. The first is what yosys 0.23 runs for
# `abc -fast -D P -constr C` plus a `topo` after `map`: without it, in the larger netlists
# `map` leaves a network out of topological order with a dangling node, and `buffer` or
# `upsize` stop ("node N has no fanout"). The second, without buffering (gate sizing only),
# is a fallback; the report names the script used.
# By mapping effort (--abc): 'fast' (the default: every figure of docs/ppa.md unless
# marked) maps the AIG as yosys hands it over; 'dch' first computes structural choices
# (dch -f), so the delay-driven `map` picks among equivalent structures. On one generic
# netlist each, 8 x 8 dt dual issue: v2 PIPE 1 713.5 -> 769.4 MHz, v1 268.0 -> 285.5 MHz,
# both about a quarter smaller (docs/ppa.md, "Mapping effort").
ABC_SCRIPTS = {
    'fast': [('fast+buffer', '+strash;dretime;retime,-o,{D};map,{D};topo;buffer;upsize,{D};dnsize,{D};stime,-p'),
             ('fast,no-buffer', '+strash;dretime;retime,-o,{D};map,{D};topo;upsize,{D};dnsize,{D};stime,-p')],
    'dch': [('dch+buffer', '+strash;dch,-f;map,{D};topo;buffer;upsize,{D};dnsize,{D};stime,-p'),
            ('dch,no-buffer', '+strash;dch,-f;map,{D};topo;upsize,{D};dnsize,{D};stime,-p')],
}
ABC_DEFAULT = 'fast'


def yosys_generic_script(cfg, lib, out):
    """Read, parametrise and synthesise to generic gates; checkpoint for the mapping step."""
    q = _q
    chparam = (f"chparam -set NPORTS {cfg['ports']} -set NPRIO {cfg['prios']} -set CW {cfg['cw']} "
               f"-set NPOOLS {cfg['pools']} -set NPROF {cfg['prof']} -set EWMA_FRAC {cfg['ewma_frac']} "
               f"-set CELLW {cfg['cellw']} -set POLICIES {cfg['policies_mask']} "
               f"-set DUAL_ISSUE {cfg['dual_issue']} "
               # PIPE 0 is the RTL's default: left unset, so v1's RTL (no PIPE) synthesises.
               + (f"-set PIPE {cfg['pipe']} " if cfg.get('pipe') else '') + TOP)
    s = [
        'read_verilog -sv -DSYNTHESIS -I' + q(os.path.join(REPO, 'rtl')) + ' ' + ' '.join(q(f) for f in RTL),
        chparam,
        f'hierarchy -check -top {TOP}',
        # The CSR block stays a module of its own: its area is reported exactly.
        'setattr -mod -set keep_hierarchy 1 *mmu_adm_csr',
        # Generic gates with the module hierarchy kept: the breakdown's blocks.
        f'synth -top {TOP} -noabc',
        # Flip-flops take the name of the register bit they hold (for the breakdown and
        # for readable start and end points).
        'rename -wire t:$_*DFF*',
        f'write_verilog -noexpr {q(os.path.join(out, "generic_src.v"))}',
        # Flat for mapping and timing (ABC optimises across the blocks).
        'flatten',
        'opt -fast',
    ]
    if lib is None:
        s += ['abc -fast', 'opt -fast',
              f'tee -q -o {q(os.path.join(out, "yosys_stat.txt"))} stat -tech cmos',
              f'tee -q -o {q(os.path.join(out, "yosys_ltp.txt"))} ltp -noff',
              f'write_verilog -noattr {q(os.path.join(out, "netlist_generic.v"))}']
    else:
        s.append(f'write_rtlil {q(os.path.join(out, "generic.il"))}')
    return '\n'.join(s) + '\n'


def yosys_map_script(lib, clock_ps, out, abc_script):
    q = _q
    abc = f"abc -liberty {q(lib['synth'])} -fast -D {clock_ps:g}"
    if lib.get('constr'):
        abc += f" -constr {q(lib['constr'])} -script {abc_script}"
    s = [f'read_rtlil {q(os.path.join(out, "generic.il"))}',
         f"dfflibmap -liberty {q(lib['synth'])}", abc]
    if lib.get('hilo'):
        hc, hp, lc, lp = lib['hilo']
        s.append(f'hilomap -singleton -hicell {hc} {hp} -locell {lc} {lp}')
    # -simple-lhs: OpenSTA 2.0.17 rejects an assign to a concatenation and drops it.
    s += ['opt_clean',
          f"tee -q -o {q(os.path.join(out, 'yosys_stat.txt'))} stat -liberty {q(lib['synth'])}",
          f'write_verilog -noattr -simple-lhs {q(os.path.join(out, "netlist.v"))}']
    return '\n'.join(s) + '\n'


def _exit_text(code):
    return f"died of signal {-code}" if code < 0 else f"exit {code}"


def _log_tail(log):
    with open(log, errors='replace') as f:
        return ''.join(f.readlines()[-15:])


def run_tool(cmd, log, what, timeout=None, allow_fail=False):
    """Run cmd into log; its run time in s. allow_fail: (run time, exit code) instead of
    an error on a non-zero exit."""
    t0 = time.time()
    with open(log, 'w') as f:
        try:
            r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise PpaError(f"{what} did not finish in {timeout} s (log: {log})")
    if allow_fail:
        return time.time() - t0, r.returncode
    if r.returncode != 0:
        raise PpaError(f"{what} failed ({_exit_text(r.returncode)}); last lines of {log}:\n{_log_tail(log)}")
    return time.time() - t0


# ------------------------------------------------------------------------------------
# Parsing yosys output
# ------------------------------------------------------------------------------------
def parse_stat_modules(text):
    """Per-module cell counts by type and chip area from `stat` output."""
    mods = {}
    cur = None
    for line in text.splitlines():
        m = re.match(r'^=== (.+) ===$', line.strip())
        if m:
            name = m.group(1)
            cur = None if name == 'design hierarchy' else mods.setdefault(name, dict(cells={}, area=None, transistors=None, ncells=0))
            continue
        if cur is None:
            continue
        m = re.match(r'^\s+Number of cells:\s+(\d+)', line)
        if m:
            cur['ncells'] = int(m.group(1))
            continue
        m = re.match(r'^\s+(\S+)\s+(\d+)$', line)
        if m and not line.strip().startswith('Number'):
            cur['cells'][m.group(1)] = int(m.group(2))
            continue
        m = re.search(r'Chip area for module .*: ([0-9.]+)', line)
        if m:
            cur['area'] = float(m.group(1))
        m = re.search(r'Estimated number of transistors:\s+(\d+)', line)
        if m:
            cur['transistors'] = int(m.group(1))
    return mods


def _core_and_csr(mods):
    core = [k for k in mods if 'mmu_adm_csr' not in k]
    csr = [k for k in mods if 'mmu_adm_csr' in k]
    if len(core) != 1 or len(csr) != 1:
        raise PpaError(f"unexpected module list from yosys stat: {list(mods)}")
    return mods[core[0]], mods[csr[0]]


# Category of every block of the unit, by module name (the synthesis hierarchy: a parametrised
# module keeps its name inside yosys's $paramod name). One module, one category, except the
# top's flip-flops, classified by register name (_TOP_REGISTERS).
MODULE_CATEGORY = {
    # The counter bank: the state memories' read and write ports, the debug/state port.
    'mmu_admission': 'counters',
    # SONiC bookkeeping (charge and refund of every counter) with its compares and XOFF/XON.
    'mmu_adm_sonic': 'counters',
    'mmu_adm_poolnx': 'counters',     # the pools' next values (SONiC's and dsh's)
    'mmu_adm_ewma': 'ewma',
    # Per-queue state memories with valid bits: reverie's filters, abm's rate state.
    'mmu_adm_qmem': 'ewma',
    # Per-policy thresholds (reverie's and dsh's modules also hold their own bookkeeping).
    'mmu_pol_dt': 'thresholds', 'mmu_pol_static': 'thresholds', 'mmu_pol_sih': 'thresholds',
    'mmu_pol_reverie': 'thresholds', 'mmu_pol_dsh': 'thresholds', 'mmu_pol_abm': 'thresholds',
    'mmu_adm_recip_div': 'thresholds',  # reverie's and abm's divide by n_p, abm's drain ratio
    'mmu_adm_rate': 'ewma',             # abm's per-queue drain-rate state, n_p, ratios and their update
    'mmu_adm_quot': 'thresholds',       # abm's and reverie's alpha th / n_p per slot (the read stage's with PIPE 1)
    'mmu_adm_derive': 'thresholds',     # configuration-derived tables (pool, N_q, insurance, xoff sum)
    'mmu_adm_thresh': 'thresholds',     # the threshold calculator: registered pools and n_p, per-profile thresholds
    'mmu_adm_thcalc': 'thresholds',     # its combinational half, on the stored configuration
    'mmu_adm_sumgt': 'thresholds',      # one compare as one sum (PIPE 3's test stage)
    'mmu_adm_sumeq': 'thresholds',      # one equality of two sums (the release's XON tests)
    'mmu_adm_op': 'control',            # profile lookup, policy select
    'mmu_adm_lookup': 'control',        # PIPE 1: the read stage's look-up, with the written entry substituted
    'mmu_adm_csr': 'csr',
}

# Registers of the top module (rtl/mmu_admission.sv) by category; any other is 'control'.
_TOP_REGISTERS = {'ing_q': 'counters', 'hdrm_q': 'counters', 'egr_q': 'counters',
                  'pool_used': 'counters', 'hdrm_used': 'counters', 'total_used': 'counters',
                  'port_shared': 'counters', 'port_ins': 'counters',
                  'ncong': 'thresholds',
                  'paused_q': 'pfc', 'port_paused': 'pfc',
                  # the memories' valid bits (an entry reads zero until written)
                  'ing_valid': 'counters', 'egr_valid': 'counters', 'port_valid': 'counters'}


def module_category(module):
    """Category of a module by its name; PpaError for a module not in the table."""
    for name in re.findall(r'mmu_\w+', module):
        if name in MODULE_CATEGORY:
            return MODULE_CATEGORY[name]
    raise PpaError(f"module '{module}' has no category: add it to MODULE_CATEGORY in scripts/ppa_lib/flow.py")


def register_category(name, inst_cat=None):
    """Category of a flip-flop of the flat netlist: its block's when flattening prefixed an
    instance of the top (inst_cat, instance_categories()), else a top register's by name."""
    base = re.split(r'[\[$]', name.lstrip('\\'), 1)[0]
    inst = base.split('.', 1)[0]
    if '.' in base and inst_cat and inst in inst_cat:
        return inst_cat[inst]
    return _TOP_REGISTERS.get(base, 'control')


def instance_categories(path):
    """Category of each instance in the top module of a hierarchical generic netlist."""
    mods = parse_generic_netlist(path)
    top = next((m for m in mods if re.search(rf'\b{TOP}\b', m) and 'csr' not in m), None)
    return {inst: module_category(typ) for typ, inst in mods.get(top, {}).get('insts', [])}


def parse_generic_netlist(path):
    """Modules of a hierarchical generic netlist (yosys write_verilog -noexpr): per module,
    the generic gate counts by type, its flip-flops' names and its submodule instances."""
    mods = {}
    cur = None
    cell_re = re.compile(r'^\s*(\\\$_(\w+?)_|\S+)\s+(\S+)\s*\($')
    with open(path, errors='replace') as f:
        for line in f:
            if line.startswith('module '):
                cur = mods.setdefault(line.split()[1].split('(')[0].lstrip('\\'), dict(gates={}, ffs=[], insts=[]))
                continue
            if cur is None or line.startswith('  (*') or line.lstrip().startswith(('wire ', 'input ', 'output ', 'reg ', 'assign ', '.')):
                continue
            m = cell_re.match(line)
            if not m:
                continue
            typ, kind, inst = m.group(1), m.group(2), m.group(3)
            if kind is None:
                cur['insts'].append((typ, inst))
            elif 'DFF' in kind or 'DLATCH' in kind:
                cur['ffs'].append(inst)
            else:
                cur['gates'][kind] = cur['gates'].get(kind, 0) + 1
    return mods


def generic_breakdown(path, top=None):
    """Generic gates of the unit by category, from the synthesis hierarchy.

    Every module's own gates go to its category (MODULE_CATEGORY), weighted by transistor
    cost (GATE_COST), times the number of its instances; flip-flops likewise, the top
    module's by register name. Returns (flip-flop bits, weighted logic) per category.
    """
    mods = parse_generic_netlist(path)
    top = top or next((m for m in mods if re.search(rf'\b{TOP}\b', m) and 'csr' not in m), None)
    ff = {c: 0 for c in CATEGORIES}
    comb = {c: 0.0 for c in CATEGORIES}

    def walk(name, mult, depth):
        if name not in mods:
            raise PpaError(f"generic netlist {path}: module '{name}' instantiated but not defined")
        if depth > 32:
            raise PpaError(f"generic netlist {path}: hierarchy deeper than 32 at '{name}'")
        m = mods[name]
        cat = module_category(name)
        comb[cat] += mult * sum(GATE_COST.get(k, 6) * n for k, n in m['gates'].items())
        for r in m['ffs']:
            ff[register_category(r) if name == top else cat] += mult
        for typ, _inst in m['insts']:
            walk(typ.lstrip('\\'), mult, depth + 1)

    if top is None:
        raise PpaError(f"generic netlist {path}: no module {TOP}")
    if all('mmu_adm_csr' in typ for typ, _ in mods[top]['insts']):
        raise PpaError(f"generic netlist {path} is flat (a run before the breakdown by hierarchy): re-run the point")
    walk(top, 1, 0)
    return ff, comb


def parse_ltp(text):
    m = re.search(r'Longest topological path in (\S+) \(length=(\d+)\)', text)
    depths = {mm.group(1): int(mm.group(2)) for mm in re.finditer(r'Longest topological path in (\S+) \(length=(\d+)\)', text)}
    return depths


# ------------------------------------------------------------------------------------
# OpenSTA
# ------------------------------------------------------------------------------------
def sta_script(lib, netlist, period_lib):
    q = lambda p: '"' + p + '"'
    return f"""read_liberty {q(lib['sta'])}
read_verilog {q(netlist)}
link_design {TOP}
create_clock -name clk -period {period_lib:.6g} [get_ports clk_i]
set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports clk_i]]
set_output_delay 0 -clock clk [all_outputs]
set_false_path -from [get_ports rst_ni]
puts "@@CRIT"
report_checks -path_delay max -digits 4
puts "@@ENDS"
report_checks -path_delay max -group_count 1000000 -endpoint_count 1 -format end -digits 4
puts "@@SUMMARY"
report_wns -digits 4
report_tns -digits 4
report_worst_slack -digits 4
puts "@@DONE"
"""


def _sections(text):
    out = {}
    cur = None
    for line in text.splitlines():
        if line.startswith('@@'):
            cur = line[2:].strip()
            out[cur] = []
        elif cur:
            out[cur].append(line)
    return out


def sta_netlist_errors(text):
    """OpenSTA's errors reading the netlist (it skips such a statement and goes on)."""
    return [ln.strip() for ln in text.splitlines() if ln.startswith('Error:') and 'syntax error' in ln]


def parse_sta(text, unit_ps):
    """What an OpenSTA log (sta_script) reports; a section the tool did not reach is
    missing (complete: it reached the end)."""
    sec = _sections(text)
    crit = '\n'.join(sec.get('CRIT', []))
    res = {'complete': 'DONE' in sec}
    m = re.search(r'Startpoint:\s*(\S+)\s*\(([^)]*)\)', crit)
    res['startpoint'] = m.group(1) if m else None
    res['startpoint_kind'] = m.group(2) if m else None
    m = re.search(r'Endpoint:\s*(\S+)\s*\(([^)]*)\)', crit)
    res['endpoint'] = m.group(1) if m else None
    res['endpoint_kind'] = m.group(2) if m else None
    cells = []
    arrival = None
    for line in crit.splitlines():
        m = re.match(r'^\s*(-?[0-9.]+)\s+(-?[0-9.]+)\s+[\^v]\s+(\S+)\s+\(([^)]+)\)\s*$', line)
        if m and m.group(4) not in ('in', 'out', 'net'):
            cells.append(m.group(4))
        m = re.match(r'^\s*(-?[0-9.]+)\s+data arrival time', line)
        if m and arrival is None:
            arrival = float(m.group(1))
        m = re.match(r'^\s*(-?[0-9.]+)\s+slack\b', line)
        if m:
            res['crit_slack_ps'] = float(m.group(1)) * unit_ps
    starts_at_reg = bool(res['startpoint_kind'] and 'flip-flop' in res['startpoint_kind'])
    res['logic_depth'] = max(0, len(cells) - (1 if starts_at_reg else 0))
    res['path_cells'] = cells
    res['arrival_ps'] = arrival * unit_ps if arrival is not None else None
    summ = '\n'.join(sec.get('SUMMARY', []))
    for key, rx in (('wns', r'wns\s+(-?[0-9.eE+-]+)'), ('tns', r'tns\s+(-?[0-9.eE+-]+)'),
                    ('worst_slack', r'worst slack\s+(-?[0-9.eE+-]+)')):
        m = re.search(rx, summ)
        res[key + '_ps'] = float(m.group(1)) * unit_ps if m else None
    ends = []
    for line in sec.get('ENDS', []):
        m = re.match(r'^\s*(\S+)(?:\s+\([^)]*\))?\s+(-?[0-9.]+)\s+(-?[0-9.]+)\s+(-?[0-9.]+)\s*\((?:MET|VIOLATED)\)', line)
        if m:
            ends.append((m.group(1), float(m.group(4)) * unit_ps))
    res['endpoints'] = ends
    res.setdefault('crit_slack_ps', None)
    return res


def sta_worst_slack(sta, exit_code):
    """The worst slack in ps and how it was derived: from report_worst_slack, or, when
    OpenSTA stopped before it (2.0.17 has died in report_wns), from the worst path that
    report_checks printed (the same figure: it reports the path of least slack)."""
    if exit_code == 0 and sta['complete'] and sta['worst_slack_ps'] is not None:
        return sta['worst_slack_ps'], 'report_worst_slack'
    if sta['crit_slack_ps'] is not None:
        return sta['crit_slack_ps'], (f"the worst path of report_checks (OpenSTA {_exit_text(exit_code)} "
                                      f"before report_worst_slack)")
    return None, None


def endpoint_groups(ends, inst_cat=None):
    """Worst slack per register (or output port) name, worst first."""
    groups = {}
    for name, slack in ends:
        base = re.split(r'[\[$/]', name.lstrip('\\'), 1)[0]
        if name.startswith('u_csr') or 'u_csr/' in name:
            base = 'u_csr.' + re.split(r'[\[$]', name.split('/', 1)[-1], 1)[0]
        cat = 'csr' if base.startswith('u_csr.') else register_category(base, inst_cat)
        g = groups.setdefault(base, dict(worst_slack_ps=slack, endpoints=0, category=cat))
        g['worst_slack_ps'] = min(g['worst_slack_ps'], slack)
        g['endpoints'] += 1
    return dict(sorted(groups.items(), key=lambda kv: kv[1]['worst_slack_ps']))


# ------------------------------------------------------------------------------------
# One run
# ------------------------------------------------------------------------------------
# The unit's generation: 'v1' was the one-cycle unit (docs/ppa.md measures it at 2a5948a),
# v2 has the pipelined request path (the PIPE parameter). A report or CSV row without the
# key is v1's.
def design_of_rtl(top=None):
    with open(top or os.path.join(REPO, 'rtl', 'mmu_admission.sv')) as f:
        return 'v2' if re.search(r'parameter\s+int\s+PIPE\b', f.read()) else 'v1'


DESIGN = design_of_rtl()


def rtl_revision():
    """The last commit that changed rtl/, '+dirty' when rtl/ differs from it; None outside git."""
    try:
        rev = subprocess.run(['git', '-C', REPO, 'log', '-1', '--format=%h', '--', 'rtl'],
                             capture_output=True, text=True, timeout=30)
        dirty = subprocess.run(['git', '-C', REPO, 'status', '--porcelain', '--', 'rtl'],
                               capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if rev.returncode != 0 or not rev.stdout.strip():
        return None
    return rev.stdout.strip() + ('+dirty' if dirty.stdout.strip() else '')


def run(cfg, lib=None, clock_ps=None, out='ppa-out', yosys_timeout=None, log=print):
    """Synthesise and time one configuration; returns the report dictionary."""
    require_tool('yosys')
    if lib is not None:
        require_tool('sta')
    os.makedirs(out, exist_ok=True)
    out = os.path.abspath(out)
    clock_ps = float(clock_ps or (lib['clock_ps'] if lib else DEFAULT_CLOCK_PS))
    if clock_ps <= 0:
        raise PpaError(f'--clock-ps {clock_ps:g}: must be positive')
    t0 = time.time()
    ys = os.path.join(out, 'synth.ys')
    script = yosys_generic_script(cfg, lib, out)
    # A generic netlist from the same script and RTL is reused (a stopped sweep resumes).
    mtimes = lambda: ''.join(f'{f} {os.path.getmtime(f)}\n' for f in RTL + RTL_INCLUDES)
    stamp = script + mtimes()
    # The revision yosys reads (a working tree may change during a long run).
    rev = rtl_revision()
    stamp_file = os.path.join(out, 'generic.stamp')
    reuse = (lib is not None and os.path.isfile(os.path.join(out, 'generic.il')) and os.path.isfile(stamp_file)
             and open(stamp_file).read() == stamp)
    if reuse:
        log(f"ppa: yosys {config_tag(cfg)}: generic netlist of an earlier run reused")
        t_yosys = 0.0
    else:
        if os.path.isfile(stamp_file):
            os.remove(stamp_file)
        with open(ys, 'w') as f:
            f.write(script)
        log(f"ppa: yosys {config_tag(cfg)} ({lib['name'] if lib else 'no liberty'}) ...")
        t_yosys = run_tool(['yosys', '-q', '-l', os.path.join(out, 'yosys.log'), ys],
                           os.path.join(out, 'yosys.stdout'), 'yosys', timeout=yosys_timeout)
        with open(stamp_file, 'w') as f:
            f.write(stamp)
    if mtimes() != stamp[len(script):]:
        rev = (rev or 'unknown') + '+changed'
        log('ppa: rtl/ changed while yosys read it: the revision is marked +changed')
    abc_used = None
    if lib is not None and not lib.get('constr') and lib.get('derived_constr'):
        lib = dict(lib, constr=os.path.join(out, 'derived.constr'))
        with open(lib['constr'], 'w') as f:
            f.write('set_driving_cell {}\nset_load {:.6g}\n'.format(*lib['derived_constr']))
    if lib is not None:
        scripts = ABC_SCRIPTS[cfg.get('abc', 'fast')] if lib.get('constr') else [('fast', None)]
        for i, (name, script) in enumerate(scripts):
            ms = os.path.join(out, 'map.ys')
            with open(ms, 'w') as f:
                f.write(yosys_map_script(lib, clock_ps, out, script))
            log(f'ppa: technology mapping, ABC script {name} ...')
            try:
                t_yosys += run_tool(['yosys', '-q', '-l', os.path.join(out, 'yosys_map.log'), ms],
                                    os.path.join(out, 'yosys_map.stdout'), 'yosys mapping', timeout=yosys_timeout)
                abc_used = name
                break
            except PpaError as e:
                if i + 1 == len(scripts) or 'ABC' not in str(e):
                    raise
                log(f'ppa: ABC script {name} failed, trying the next one')
    with open(os.path.join(out, 'yosys_stat.txt')) as f:
        mods = parse_stat_modules(f.read())
    core, csr = _core_and_csr(mods)
    ff_bits, comb_w = generic_breakdown(os.path.join(out, 'generic_src.v'))
    rep = dict(tool='scripts/ppa', config=cfg, clock_ps=clock_ps, design=DESIGN,
               rtl_revision=rev, rtl=[os.path.relpath(f, REPO) for f in RTL])
    if lib is None:
        rep['mode'] = 'estimate-no-liberty'
        rep['note'] = ('ESTIMATE without a standard-cell library: transistor count from yosys '
                       '`stat -tech cmos` (flip-flops not counted by yosys; added here at 24 '
                       'transistors per bit) and logic depth from `ltp -noff` in generic gates. '
                       'No area in um2, no timing.')
        with open(os.path.join(out, 'yosys_ltp.txt')) as f:
            depths = parse_ltp(f.read())
        nff = sum(v for m in (core, csr) for k, v in m['cells'].items() if 'DFF' in k)
        tr = (core['transistors'] or 0) + (csr['transistors'] or 0)
        rep['estimate'] = dict(
            transistors_logic=tr, flip_flops=nff, transistors_with_ff=tr + 24 * nff,
            generic_cells=core['ncells'] + csr['ncells'],
            logic_depth_gates=max(depths.values()) if depths else None,
            logic_depth_by_module={('csr' if 'csr' in k else 'core'): v for k, v in depths.items()})
        rep['cells'] = rep['estimate']['generic_cells']
        rep['flip_flops'] = nff
        total = tr + 24 * nff
        rep['breakdown'] = _split(core_total=(core['transistors'] or 0) + 24 * sum(
            v for k, v in core['cells'].items() if 'DFF' in k),
            core_ff=24 * sum(v for k, v in core['cells'].items() if 'DFF' in k),
            csr_total=(csr['transistors'] or 0) + 24 * sum(v for k, v in csr['cells'].items() if 'DFF' in k),
            ff_bits=ff_bits, comb_w=comb_w, unit='transistors')
        rep['runtime_s'] = dict(yosys=round(t_yosys, 1), total=round(time.time() - t0, 1))
        write_reports(rep, out)
        return rep

    libinfo = parse_liberty(lib['synth'])
    unit_ps = parse_liberty(lib['sta'])['unit_ps']
    rep['mode'] = 'liberty'
    rep['library'] = dict(name=lib['name'], title=lib.get('title'), synth_lib=lib['synth'], sta_lib=lib['sta'],
                          constr=lib.get('constr'), time_unit_ps=unit_ps, abc_script=abc_used)

    def seq_area(m):
        return sum(n * libinfo['areas'].get(c, 0.0) for c, n in m['cells'].items() if c in libinfo['seq'])

    def seq_count(m):
        return sum(n for c, n in m['cells'].items() if c in libinfo['seq'])

    area = (core['area'] or 0.0) + (csr['area'] or 0.0)
    rep['area_um2'] = round(area, 3)
    rep['cells'] = core['ncells'] + csr['ncells']
    rep['flip_flops'] = seq_count(core) + seq_count(csr)
    rep['area_by_module'] = dict(core=round(core['area'] or 0, 3), csr=round(csr['area'] or 0, 3))
    rep['sequential_area_um2'] = round(seq_area(core) + seq_area(csr), 3)
    rep['breakdown'] = _split(core_total=core['area'] or 0.0, core_ff=seq_area(core), csr_total=csr['area'] or 0.0,
                              ff_bits=ff_bits, comb_w=comb_w, unit='um2')

    tcl = os.path.join(out, 'sta.tcl')
    with open(tcl, 'w') as f:
        f.write(sta_script(lib, os.path.join(out, 'netlist.v'), clock_ps / unit_ps))
    log('ppa: OpenSTA ...')
    sta_log = os.path.join(out, 'sta.log')
    t_sta, sta_exit = run_tool(['sta', '-no_init', '-no_splash', '-exit', tcl], sta_log, 'OpenSTA', allow_fail=True)
    with open(sta_log, errors='replace') as f:
        sta_text = f.read()
    # A netlist statement OpenSTA could not read is left out of the timing graph.
    sta_errors = sta_netlist_errors(sta_text)
    if sta_errors:
        raise PpaError(f"OpenSTA could not read {len(sta_errors)} statement(s) of the netlist; the first: "
                       f"{sta_errors[0]} (log: {sta_log})")
    sta = parse_sta(sta_text, unit_ps)
    worst_slack, slack_source = sta_worst_slack(sta, sta_exit)
    if worst_slack is None or not sta['endpoint']:
        raise PpaError(f"OpenSTA reported no timing path ({_exit_text(sta_exit)}); last lines of {sta_log}:\n"
                       f"{_log_tail(sta_log)}")
    if sta_exit != 0:
        log(f"ppa: OpenSTA {_exit_text(sta_exit)}; worst slack from {slack_source}")
    min_period = clock_ps - worst_slack
    groups = endpoint_groups(sta['endpoints'], instance_categories(os.path.join(out, 'generic_src.v')))
    rep['timing'] = dict(
        clock_ps=clock_ps,
        critical_path=dict(delay_ps=round(min_period, 2), arrival_ps=sta['arrival_ps'],
                           startpoint=sta['startpoint'], startpoint_kind=sta['startpoint_kind'],
                           endpoint=sta['endpoint'], endpoint_kind=sta['endpoint_kind'],
                           logic_depth=sta['logic_depth']),
        worst_slack_ps=round(worst_slack, 2),
        slack_source=slack_source,
        wns_ps=round(min(0.0, worst_slack), 2),
        tns_ps=round(sta['tns_ps'], 2) if sta['tns_ps'] is not None and slack_source == 'report_worst_slack' else None,
        met=worst_slack >= 0,
        min_period_ps=round(min_period, 2),
        fmax_mhz=round(1e6 / min_period, 1) if min_period > 0 else None,
        endpoints=len(sta['endpoints']),
        endpoint_groups={k: dict(v, worst_slack_ps=round(v['worst_slack_ps'], 2)) for k, v in list(groups.items())[:12]},
        method='fmax = 1 / (clock period - worst slack); ideal clock, zero wire load, '
               'inputs and outputs at 0 delay from the clock edge')
    rep['runtime_s'] = dict(yosys=round(t_yosys, 1), sta=round(t_sta, 1), total=round(time.time() - t0, 1))
    write_reports(rep, out)
    return rep


def _split(core_total, core_ff, csr_total, ff_bits, comb_w, unit):
    """Core area split by category: flip-flops by bit count, logic by weighted generic gates."""
    core_comb = max(0.0, core_total - core_ff)
    nbits = sum(v for k, v in ff_bits.items() if k != 'csr')
    wsum = sum(v for k, v in comb_w.items() if k != 'csr')
    res = {}
    for c in CATEGORIES:
        if c == 'csr':
            a_ff = a_comb = None
            a = csr_total
        else:
            a_ff = core_ff * ff_bits[c] / nbits if nbits else 0.0
            a_comb = core_comb * comb_w[c] / wsum if wsum else 0.0
            a = a_ff + a_comb
        res[c] = dict(total=round(a, 2), flip_flops=ff_bits[c],
                      ff=None if a_ff is None else round(a_ff, 2),
                      logic=None if a_comb is None else round(a_comb, 2))
    tot = sum(v['total'] for v in res.values())
    for v in res.values():
        v['share'] = round(v['total'] / tot, 4) if tot else 0.0
    return dict(unit=unit, categories=res,
                method=('CSR: its own module in the netlist (exact). Core: every block of the '
                        'synthesis hierarchy (generic gates before flattening) has one category '
                        '(MODULE_CATEGORY in scripts/ppa_lib/flow.py), the top module\'s flip-flops '
                        'by register name. Core flip-flops: exact bit counts, mean mapped '
                        'flip-flop area. Core logic: mapped area shared by the generic gates of '
                        'each category, weighted by transistor cost (an estimate: ABC restructures '
                        'across blocks after flattening).'))


# ------------------------------------------------------------------------------------
# Reports
# ------------------------------------------------------------------------------------
def fmt(v, nd=1):
    if v is None:
        return 'n/a'
    if isinstance(v, float):
        return f'{v:,.{nd}f}'
    return f'{v:,}'


def markdown(rep):
    c = rep['config']
    lines = [f"# Area and timing of mmu_admission ({config_tag(c)})", '']
    lines.append(f"Parameters: NPORTS={c['ports']}, NPRIO={c['prios']}, CW={c['cw']}, NPOOLS={c['pools']}, "
                 f"NPROF={c['prof']}, EWMA_FRAC={c['ewma_frac']}, CELLW={c['cellw']}, "
                 f"policies {', '.join(c['policies'])} (POLICIES={c['policies_mask']}), "
                 f"DUAL_ISSUE={c.get('dual_issue', 0)} "
                 f"({'a release and a request per cycle' if c.get('dual_issue', 0) else 'one operation per cycle'}).")
    lines.append('')
    if rep['mode'] != 'liberty':
        e = rep['estimate']
        lines += ['**ESTIMATE, no standard-cell library** (yosys only). ' + rep['note'], '',
                  '| figure | value |', '|---|---|',
                  f"| transistors, logic (`stat -tech cmos`) | {fmt(e['transistors_logic'])} |",
                  f"| flip-flops | {fmt(e['flip_flops'])} |",
                  f"| transistors incl. flip-flops (24 per bit) | {fmt(e['transistors_with_ff'])} |",
                  f"| generic cells | {fmt(e['generic_cells'])} |",
                  f"| longest path, generic gates (`ltp -noff`) | {fmt(e['logic_depth_gates'])} |", '']
    else:
        t = rep['timing']
        cp = t['critical_path']
        lib = rep['library']
        lines += [f"Library: {lib['title']} (`{os.path.basename(lib['synth_lib'])}`); "
                  f"clock {t['clock_ps']:g} ps; yosys 0.23 `abc -fast -D {t['clock_ps']:g}` "
                  f"(ABC script {lib.get('abc_script')}), OpenSTA.", '',
                  '| figure | value |', '|---|---|',
                  f"| area | {fmt(rep['area_um2'])} um2 (core {fmt(rep['area_by_module']['core'])}, CSR {fmt(rep['area_by_module']['csr'])}) |",
                  f"| cells | {fmt(rep['cells'])} |",
                  f"| flip-flops | {fmt(rep['flip_flops'])} ({fmt(rep['sequential_area_um2'])} um2) |",
                  f"| critical path | {fmt(cp['delay_ps'])} ps, {cp['logic_depth']} cells deep |",
                  f"| start point | `{cp['startpoint']}` ({cp['startpoint_kind']}) |",
                  f"| end point | `{cp['endpoint']}` ({cp['endpoint_kind']}) |",
                  f"| highest frequency met | {fmt(t['fmax_mhz'])} MHz (min period {fmt(t['min_period_ps'])} ps) |",
                  f"| WNS / TNS at {t['clock_ps']:g} ps | {fmt(t['wns_ps'], 2)} / {fmt(t['tns_ps'], 2)} ps ({'met' if t['met'] else 'violated'}) |",
                  f"| worst slack from | {t.get('slack_source', 'report_worst_slack')} |",
                  '', t['method'] + '.', '',
                  '## Worst slack by register', '', '| register / port | category | endpoints | worst slack (ps) |',
                  '|---|---|---|---|']
        for k, v in t['endpoint_groups'].items():
            lines.append(f"| `{k}` | {v['category']} | {v['endpoints']} | {fmt(v['worst_slack_ps'])} |")
        lines.append('')
    b = rep['breakdown']
    u = 'um2' if b['unit'] == 'um2' else 'transistors'
    lines += ['## Breakdown', '', f"| part | flip-flops | flip-flop {u} | logic {u} | total {u} | share |",
              '|---|---|---|---|---|---|']
    for k, v in b['categories'].items():
        lines.append(f"| {CATEGORY_TITLES[k]} | {fmt(v['flip_flops'])} | {fmt(v['ff'])} | {fmt(v['logic'])} | "
                     f"{fmt(v['total'])} | {100 * v['share']:.1f} % |")
    lines += ['', 'Method: ' + b['method'], '', f"Run time: {rep['runtime_s']}", '']
    return '\n'.join(lines)


def write_reports(rep, out):
    with open(os.path.join(out, 'report.json'), 'w') as f:
        json.dump(rep, f, indent=2)
        f.write('\n')
    with open(os.path.join(out, 'report.md'), 'w') as f:
        f.write(markdown(rep))


def refresh_breakdown(out):
    """Recompute the breakdown of a finished run from its files (after a change of method)."""
    with open(os.path.join(out, 'report.json')) as f:
        rep = json.load(f)
    with open(os.path.join(out, 'yosys_stat.txt')) as f:
        core, csr = _core_and_csr(parse_stat_modules(f.read()))
    ff_bits, comb_w = generic_breakdown(os.path.join(out, 'generic_src.v'))
    if rep['mode'] == 'liberty':
        libinfo = parse_liberty(rep['library']['synth_lib'])
        core_ff = sum(n * libinfo['areas'].get(c, 0.0) for c, n in core['cells'].items() if c in libinfo['seq'])
        rep['breakdown'] = _split(core['area'] or 0.0, core_ff, csr['area'] or 0.0, ff_bits, comb_w, 'um2')
    else:
        nff = lambda m: sum(v for k, v in m['cells'].items() if 'DFF' in k)
        rep['breakdown'] = _split((core['transistors'] or 0) + 24 * nff(core), 24 * nff(core),
                                  (csr['transistors'] or 0) + 24 * nff(csr), ff_bits, comb_w, 'transistors')
    write_reports(rep, out)
    return rep
