"""scripts/ppa's library resolution (a liberty given by path gets the constraints, tie
cells and ABC script of the library it is, or ones derived from its own cells), the area
breakdown from the synthesis hierarchy, and the sweep's run-time estimate."""
import json
import subprocess
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts', 'ppa_lib'))
import flow  # noqa: E402
import sweep  # noqa: E402

# A small liberty in pF: two buffers (the smaller is the driving cell), a dont_use
# smaller one, an inverter, and a two-output tie cell as sky130's conb_1.
LIB = '''library (tiny) {
  time_unit : "1ns";
  capacitive_load_unit(1.0, "pf");
  cell ("buf_small_dont_use") {
    area : 1.0;
    dont_use : true;
    pin ("A") { direction : "input"; capacitance : 0.001; }
    pin ("X") { direction : "output"; function : "A"; }
  }
  cell ("buf_1") {
    area : 3.75;
    pin ("A") { direction : "input"; capacitance : 0.0021; }
    pin ("X") { direction : "output"; function : "(A)"; }
  }
  cell ("buf_4") {
    area : 7.5;
    pin ("A") {
      direction : "input";
      capacitance : 0.0024;
    }
    pin ("X") { direction : "output"; function : "A"; }
  }
  cell ("inv_1") {
    area : 3.0;
    pin ("A") { direction : "input"; capacitance : 0.0023; }
    pin ("Y") { direction : "output"; function : "!A"; }
  }
  cell ("conb_1") {
    area : 3.5;
    pin ("HI") { direction : "output"; function : "1"; }
    pin ("LO") { direction : "output"; function : "0"; }
  }
}
'''


class DerivedConstraints(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, 'tiny.lib')
        with open(self.path, 'w') as f:
            f.write(LIB)

    def tearDown(self):
        self.tmp.cleanup()

    def test_driving_cell_is_the_smallest_usable_buffer_loaded_by_eight_inputs(self):
        lib = flow.resolve_library(self.path, pdk=self.tmp.name)
        cell, load = lib['derived_constr']
        self.assertEqual(cell, 'buf_1')
        self.assertAlmostEqual(load, 8 * 2.1)  # 0.0021 pF = 2.1 fF per input

    def test_tie_cells_from_a_two_output_cell(self):
        lib = flow.resolve_library(self.path, pdk=self.tmp.name)
        self.assertEqual(lib['hilo'], ('conb_1', 'HI', 'conb_1', 'LO'))

    def test_mapping_effort_picks_the_script_and_names_the_point(self):
        self.assertIn('dch,-f;map,{D}', flow.ABC_SCRIPTS['dch'][0][1])
        self.assertNotIn('dch', flow.ABC_SCRIPTS['fast'][0][1])
        base = flow.config_tag(flow.make_config(8, 8, policies='dt', pipe=1, abc='fast'))
        self.assertEqual(base, 'p8x8_cw16_po2_pr2_dt_di1_pipe')
        self.assertEqual(flow.config_tag(flow.make_config(8, 8, policies='dt', pipe=1, abc='dch')), base + '_dch')
        with self.assertRaises(flow.PpaError):
            flow.make_config(8, 8, policies='dt', abc='best')

    def test_pipe_0_leaves_the_parameter_unset_for_v1s_rtl(self):
        s0 = flow.yosys_generic_script(flow.make_config(8, 8, policies='dt', pipe=0), None, self.tmp.name)
        s1 = flow.yosys_generic_script(flow.make_config(8, 8, policies='dt', pipe=1), None, self.tmp.name)
        self.assertNotIn('PIPE', s0)
        self.assertIn('-set PIPE 1 ', s1)

    def test_design_follows_the_rtl(self):
        with tempfile.TemporaryDirectory() as d:
            top = os.path.join(d, 'top.sv')
            with open(top, 'w') as f:
                f.write('module m #(parameter int DUAL_ISSUE = 1) ();\nendmodule\n')
            self.assertEqual(flow.design_of_rtl(top), 'v1')
            with open(top, 'w') as f:
                f.write('module m #(\n  parameter int PIPE = 0,\n) ();\nendmodule\n')
            self.assertEqual(flow.design_of_rtl(top), 'v2')
        self.assertEqual(flow.DESIGN, 'v2')

    def test_mapping_script_uses_the_derived_constraints(self):
        lib = flow.resolve_library(self.path, pdk=self.tmp.name)
        lib = dict(lib, constr=os.path.join(self.tmp.name, 'derived.constr'))
        script = flow.yosys_map_script(lib, 1000, self.tmp.name, 'x.abc')
        self.assertIn(f"-constr {lib['constr']}", script)
        self.assertIn('hilomap -singleton -hicell conb_1 HI -locell conb_1 LO', script)
        # OpenSTA drops an assign to a concatenation: the netlist has none.
        self.assertIn('write_verilog -noattr -simple-lhs', script)


@unittest.skipUnless(os.path.isfile(os.path.join(flow.default_pdk(), flow.LIBS['asap7']['synth'])),
                     'no shared PDK beside the repository')
class KnownLibraryByPath(unittest.TestCase):
    def test_asap7_by_path_is_asap7(self):
        pdk = flow.default_pdk()
        named = flow.resolve_library('asap7')
        for f in ('synth', 'sta'):
            by_path = flow.resolve_library(os.path.join(pdk, flow.LIBS['asap7'][f]))
            for k in ('constr', 'hilo', 'clock_ps', 'name'):
                self.assertEqual(by_path[k], named[k], (f, k))
            self.assertEqual(flow.yosys_map_script(by_path, 1000, '/o', 'x.abc').replace(by_path['synth'], 'L'),
                             flow.yosys_map_script(named, 1000, '/o', 'x.abc').replace(named['synth'], 'L'))

    def test_derived_asap7_constraints_are_near_the_shipped_ones(self):
        # asap7.constr: BUFx2_ASAP7_75t_R, 3.898 fF; derived: the same cell, 8 x 0.534 fF.
        cells = flow.liberty_cells(os.path.join(flow.default_pdk(), flow.LIBS['asap7']['synth']))
        cell, load = flow.derive_constr(cells)
        self.assertEqual(cell, 'BUFx2_ASAP7_75t_R')
        self.assertAlmostEqual(load, 8 * 0.534279, places=4)
        self.assertEqual(flow.derive_hilo(cells), flow.LIBS['asap7']['hilo'])


class RunTimeEstimate(unittest.TestCase):
    ROWS = [dict(ports=4, prios=4, policy='dt', dual_issue=1, library='asap7', runtime_s=10.0),
            dict(ports=8, prios=8, policy='dt', dual_issue=1, library='asap7', runtime_s=80.0),
            dict(ports=64, prios=8, policy='dt', dual_issue=0, library='asap7', runtime_s=1.0),
            dict(ports=64, prios=8, policy='dsh', dual_issue=1, library='asap7', runtime_s=1.0)]

    def test_power_law_through_the_same_policy_and_issue_width(self):
        # 16 -> 10 s, 64 -> 80 s: time ~ size^1.5, so 256 -> 640 s.
        cfg = flow.make_config(32, 8, policies='dt', dual_issue=1)
        self.assertAlmostEqual(sweep.estimate_runtime_s(self.ROWS, cfg, 'asap7'), 640.0)

    def test_one_earlier_point_scales_by_size_to_the_1_5(self):
        cfg = flow.make_config(32, 8, policies='dsh', dual_issue=1)  # 256 = 512 / 2
        self.assertAlmostEqual(sweep.estimate_runtime_s(self.ROWS, cfg, 'asap7'), 2 ** -1.5)

    def test_no_estimate_without_a_point_of_that_kind(self):
        cfg = flow.make_config(8, 8, policies='reverie', dual_issue=1)
        self.assertIsNone(sweep.estimate_runtime_s(self.ROWS, cfg, 'asap7'))
        self.assertIsNone(sweep.estimate_runtime_s(self.ROWS, flow.make_config(8, 8, policies='dt'), 'sky130'))


class SweepDesigns(unittest.TestCase):
    """v1's rows (a CSV without design or pipe) stay beside v2's points of the same size."""
    V1_CSV = ('ports,prios,policy,dual_issue,library,clock_ps,area_um2,cells,flip_flops,area_counters,'
              'area_ewma,area_thresholds,area_pfc,area_control,area_csr,crit_ps,fmax_mhz,wns_ps,tns_ps,'
              'logic_depth,startpoint,endpoint,transistors,ltp_depth,cw,pools,prof,ewma_frac,cellw,runtime_s\n'
              '8,8,dt,1,asap7,1000.0,8000.0,1,1,0,0,0,0,0,0,3000,333.3,-2000,-1,1,a,b,,,16,2,2,16,16,10\n')

    @staticmethod
    def report(policy, area, fmax, pipe=1, abc='fast'):
        cats = {k: dict(total=1.0) for k in flow.CATEGORIES}
        return dict(config=flow.make_config(8, 8, policies=policy, dual_issue=1, pipe=pipe, abc=abc), design='v2',
                    rtl_revision='abc1234', mode='liberty', breakdown=dict(categories=cats), cells=1, flip_flops=1,
                    area_um2=area, library=dict(name='asap7'), runtime_s=dict(total=5.0),
                    timing=dict(clock_ps=1000.0, fmax_mhz=fmax, wns_ps=0, tns_ps=0,
                                critical_path=dict(delay_ps=1e6 / fmax, logic_depth=9, startpoint='s', endpoint='e')))

    def rows(self, reports):
        with tempfile.TemporaryDirectory() as d:
            csv_path = os.path.join(d, 'sweep.csv')
            with open(csv_path, 'w') as f:
                f.write(self.V1_CSV)
            for i, rep in enumerate(reports):
                os.makedirs(os.path.join(d, 'work', str(i)))
                with open(os.path.join(d, 'work', str(i), 'report.json'), 'w') as f:
                    json.dump(rep, f)
            return sweep.collect(os.path.join(d, 'work'), csv_path)

    def test_a_row_without_design_is_v1s_one_cycle_unit(self):
        rows = self.rows([])
        self.assertEqual([(r['design'], r['pipe']) for r in rows], [('v1', 0)])

    def test_v2_at_the_same_point_is_another_row_and_is_set_beside_v1(self):
        rows = self.rows([self.report('dt', 10000.0, 700.0), self.report('abm', 20000.0, 350.0)])
        self.assertEqual(sorted((r['design'], r['policy']) for r in rows),
                         [('v1', 'dt'), ('v2', 'abm'), ('v2', 'dt')])
        vs = sweep.versus_v1(rows).splitlines()
        # Only dt has a v1 row: area 10000 / 8000, fmax 700 / 333.3.
        self.assertEqual(len(vs), 3)
        self.assertIn('| 8,000 | 10,000 | 1.25× | 333.3 | 700.0 | 2.10× |', vs[2])
        self.assertIn('abc1234', vs[2])

    def test_v1_is_set_beside_v2_only_for_the_same_mapping_effort(self):
        rows = self.rows([self.report('dt', 7000.0, 770.0, abc='dch')])
        self.assertEqual(sorted((r['design'], r['abc']) for r in rows), [('v1', 'fast'), ('v2', 'dch')])
        self.assertEqual(sweep.versus_v1(rows), '')
        self.assertIn('| asap7/dch | v2 |', sweep.table(rows))

    def test_every_policy_against_dt_within_its_design(self):
        rows = self.rows([self.report('dt', 10000.0, 700.0), self.report('abm', 20000.0, 350.0)])
        lines = sweep.deltas(rows).splitlines()
        self.assertEqual(lines[0].count('|'), lines[1].count('|'))
        v2 = [l for l in lines if '| v2 |' in l]
        self.assertEqual(len(v2), 1)
        self.assertIn('| 10,000 | 10,000 (2.00×) | 700.0 | 350.0 |', v2[0])

    def test_run_time_estimate_prefers_this_designs_points(self):
        rows = [dict(ports=8, prios=8, policy='dt', dual_issue=1, library='asap7', runtime_s=1000.0,
                     design='v1', pipe=0),
                dict(ports=8, prios=8, policy='dt', dual_issue=1, library='asap7', runtime_s=100.0,
                     design='v2', pipe=1)]
        cfg = flow.make_config(16, 8, policies='dt', dual_issue=1, pipe=1)
        self.assertAlmostEqual(sweep.estimate_runtime_s(rows, cfg, 'asap7'), 100.0 * 2 ** 1.5)
        # No v2 point with PIPE 0: v1's.
        cfg0 = flow.make_config(16, 8, policies='dt', dual_issue=1, pipe=0)
        self.assertAlmostEqual(sweep.estimate_runtime_s(rows, cfg0, 'asap7'), 1000.0 * 2 ** 1.5)


# A hierarchical generic netlist as the flow writes it (yosys write_verilog -noexpr): the
# top with two flip-flops and three instances, a policy module instantiating the EWMA
# module twice, and the CSR block.
NETLIST = r'''module \$paramod$ab12\mmu_pol_reverie (a, y);
  (* src = "x.sv:1.1-1.2" *)
  \$_XOR_  _001_ (
    .A(a),
    .B(a),
    .Y(y)
  );
  \$paramod$cd34\mmu_adm_ewma  u_ewma (
    .a(a)
  );
  \$paramod$cd34\mmu_adm_ewma  u_ewma2 (
    .a(a)
  );
endmodule
module \$paramod$cd34\mmu_adm_ewma (a, y);
  \$_AND_  _002_ (
    .A(a),
    .B(a),
    .Y(y)
  );
  \$_NOT_  _003_ (
    .A(a),
    .Y(y)
  );
endmodule
module \$paramod$ef56\mmu_adm_csr (clk);
  \$_DFF_P_  \ctrl[0]$_DFF_P_  (
    .C(clk),
    .D(d),
    .Q(q)
  );
endmodule
module mmu_admission (clk);
  \$_DFF_PN0_  \ing_q[0][1]$_DFF_PN0_  (
    .C(clk),
    .D(d),
    .Q(q),
    .R(r)
  );
  \$_DFF_P_  \paused_q[2]$_DFF_P_  (
    .C(clk),
    .D(d),
    .Q(q)
  );
  \$_MUX_  _004_ (
    .A(a),
    .B(b),
    .S(s),
    .Y(y)
  );
  \$paramod$ab12\mmu_pol_reverie  \g_dual.u_rel.g_reverie.u  (
    .a(a)
  );
  \$paramod$ab12\mmu_pol_reverie  \g_dual.u_req.g_reverie.u  (
    .a(a)
  );
  \$paramod$ef56\mmu_adm_csr  u_csr (
    .clk(clk)
  );
endmodule
'''


class HierarchyBreakdown(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, 'generic_src.v')
        with open(self.path, 'w') as f:
            f.write(NETLIST)

    def tearDown(self):
        self.tmp.cleanup()

    def test_each_block_counts_once_per_instance_in_its_category(self):
        ff, comb = flow.generic_breakdown(self.path)
        # Top: ing_q a counter bit, paused_q a pause bit, its mux counter logic (12).
        self.assertEqual(ff, dict(counters=1, ewma=0, thresholds=0, pfc=1, control=0, csr=1))
        # Two reverie instances: XOR 12 each; each holds two EWMA instances of AND 6 + NOT 2.
        self.assertEqual(comb, dict(counters=12.0, ewma=4 * 8.0, thresholds=2 * 12.0, pfc=0.0, control=0.0, csr=0.0))

    def test_a_module_without_a_category_is_an_error(self):
        with open(self.path, 'w') as f:
            f.write(NETLIST.replace('mmu_adm_ewma', 'mmu_adm_newblock'))
        with self.assertRaisesRegex(flow.PpaError, 'mmu_adm_newblock.*MODULE_CATEGORY'):
            flow.generic_breakdown(self.path)

    def test_flattened_flip_flops_take_their_instance_category(self):
        cats = dict(u_derive='thresholds', u_avg_in='ewma')
        self.assertEqual(flow.register_category('u_derive.dsh_pmask_o[3]$_DFF_PN0_', cats), 'thresholds')
        self.assertEqual(flow.register_category('u_avg_in.g_on.mem[5][0]', cats), 'ewma')
        self.assertEqual(flow.register_category('ing_q[5][0]', cats), 'counters')
        self.assertEqual(flow.register_category('rsp_valid_o', cats), 'control')


# An OpenSTA log of sta_script in ns (unit 1000 ps): the worst path, two endpoints, the
# summary; STA_CRASHED stops where OpenSTA 2.0.17 died (SIGSEGV in report_wns).
STA_PATH = """@@CRIT
Startpoint: a_ires[1]$_DFF_P_ (rising edge-triggered flip-flop clocked by clk)
Endpoint: u_csr/cnt_stat_drops[17]$_DFFE_PN0P_
          (rising edge-triggered flip-flop clocked by clk)
    Delay      Time   Description
-------------------------------------------------------------
   0.0000    0.0000 ^ a_ires[1]$_DFF_P_/CLK (DFFHQNx1_ASAP7_75t_R)
   0.0650    0.0650 ^ a_ires[1]$_DFF_P_/QN (DFFHQNx1_ASAP7_75t_R)
   1.6172    1.6822 ^ u_csr/_35315_/Y (NAND2x1_ASAP7_75t_R)
   0.0000    1.6822 ^ u_csr/cnt_stat_drops[17]$_DFFE_PN0P_/D (DFFASRHQNx1_ASAP7_75t_R)
             1.6822   data arrival time
             0.9772   data required time
            -1.6822   data arrival time
-------------------------------------------------------------
            -0.7050   slack (VIOLATED)

@@ENDS
u_csr/cnt_stat_drops[17]$_DFFE_PN0P_/D (DFFASRHQNx1_ASAP7_75t_R)   0.9772   1.6822   -0.7050 (VIOLATED)
pool_used[3]$_DFF_PN0_/D (DFFASRHQNx1_ASAP7_75t_R)   0.9772   1.1000   -0.1228 (VIOLATED)
@@SUMMARY
"""
STA_CRASHED = STA_PATH
STA_COMPLETE = STA_PATH + """wns -0.7050
tns -0.8278
worst slack -0.7050
@@DONE
"""


class StaLog(unittest.TestCase):
    def test_a_complete_log_takes_report_worst_slack(self):
        sta = flow.parse_sta(STA_COMPLETE, 1000.0)
        self.assertTrue(sta['complete'])
        slack, how = flow.sta_worst_slack(sta, 0)
        self.assertAlmostEqual(slack, -705.0, places=6)
        self.assertEqual(how, 'report_worst_slack')
        self.assertAlmostEqual(sta['tns_ps'], -827.8, places=6)

    def test_a_crash_after_report_checks_takes_its_worst_path(self):
        sta = flow.parse_sta(STA_CRASHED, 1000.0)
        self.assertFalse(sta['complete'])
        self.assertIsNone(sta['worst_slack_ps'])
        slack, how = flow.sta_worst_slack(sta, -11)
        self.assertAlmostEqual(slack, -705.0, places=6)
        self.assertEqual(how, 'the worst path of report_checks (OpenSTA died of signal 11 before report_worst_slack)')
        self.assertAlmostEqual(sta['arrival_ps'], 1682.2, places=6)
        self.assertEqual(sta['endpoint'], 'u_csr/cnt_stat_drops[17]$_DFFE_PN0P_')
        # The endpoint list printed before the summary.
        self.assertEqual([e for e, _ in sta['endpoints']],
                         ['u_csr/cnt_stat_drops[17]$_DFFE_PN0P_/D', 'pool_used[3]$_DFF_PN0_/D'])

    def test_a_crash_before_any_path_has_no_slack(self):
        sta = flow.parse_sta('@@CRIT\n', 1000.0)
        self.assertEqual(flow.sta_worst_slack(sta, -11), (None, None))

    def test_netlist_statements_sta_skipped_are_found(self):
        log = ("Error: /x/netlist.v, line 4024748 syntax error, unexpected '{', expecting ID.\n"
               + STA_COMPLETE)
        self.assertEqual(flow.sta_netlist_errors(log),
                         ["Error: /x/netlist.v, line 4024748 syntax error, unexpected '{', expecting ID."])
        self.assertEqual(flow.sta_netlist_errors(STA_COMPLETE), [])

    def test_the_script_lists_the_endpoints_before_the_summary(self):
        tcl = flow.sta_script(dict(sta='x.lib'), 'netlist.v', 1.0)
        self.assertLess(tcl.index('@@ENDS'), tcl.index('report_wns'))
        self.assertLess(tcl.index('@@CRIT'), tcl.index('@@ENDS'))


class BlockScript(unittest.TestCase):
    """scripts/ppa-block refuses bad arguments and a missing PDK with exit 2 and a message."""
    SCRIPT = os.path.join(os.path.dirname(__file__), '..', '..', 'scripts', 'ppa-block')

    def run_block(self, args, env=None):
        return subprocess.run([self.SCRIPT] + args, capture_output=True, text=True, env=env, timeout=30)

    def test_wrong_argument_count_is_a_usage_error(self):
        r = self.run_block(['out'])
        self.assertEqual(r.returncode, 2)
        self.assertIn('usage: scripts/ppa-block', r.stderr)

    def test_a_missing_pdk_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, PDK=os.path.join(d, 'nopdk'))
            r = self.run_block([os.path.join(d, 'out'), 'mmu_adm_derive', '-set NPORTS 8'], env)
        self.assertEqual(r.returncode, 2)
        self.assertIn('nopdk', r.stderr)
        self.assertIn('set PDK', r.stderr)


if __name__ == '__main__':
    unittest.main()
