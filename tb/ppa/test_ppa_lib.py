"""scripts/ppa's library resolution (a liberty given by path gets the constraints, tie
cells and ABC script of the library it is, or ones derived from its own cells) and the
sweep's run-time estimate."""
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

    def test_mapping_script_uses_the_derived_constraints(self):
        lib = flow.resolve_library(self.path, pdk=self.tmp.name)
        lib = dict(lib, constr=os.path.join(self.tmp.name, 'derived.constr'))
        script = flow.yosys_map_script(lib, 1000, self.tmp.name, 'x.abc')
        self.assertIn(f"-constr {lib['constr']}", script)
        self.assertIn('hilomap -singleton -hicell conb_1 HI -locell conb_1 LO', script)


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


if __name__ == '__main__':
    unittest.main()
