#!/usr/bin/env python3
"""scripts/gen_regs.py on good and bad register maps (ctest regs_generator_unit).

A bad map is a clear error on stderr naming the register or field and exit status 2, with
no file written; the real map generates; widening CTRL.policy is a pure map edit (the
policies branch widens it to 3 bits with six values) and changes the block and the table.
"""

import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEN = os.path.join(ROOT, "scripts", "gen_regs.py")
with open(os.path.join(ROOT, "rtl", "regmap.json"), encoding="utf-8") as fh:
    MAP = json.load(fh)


def reg(m, name):
    return next(r for r in m["registers"] if r["name"] == name)


def field(m, rname, fname):
    return next(f for f in reg(m, rname)["fields"] if f["name"] == fname)


class GenRegs(unittest.TestCase):
    def run_gen(self, m):
        """(exit status, stderr, {relative path: text}) of a generation into a temp dir."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "map.json")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(m if isinstance(m, str) else json.dumps(m))
            out = os.path.join(d, "out")
            p = subprocess.run([sys.executable, GEN, "--map", path, "--out-dir", out],
                               capture_output=True, text=True, timeout=60)
            files = {}
            for base, _, names in os.walk(out):
                for n in names:
                    full = os.path.join(base, n)
                    with open(full, encoding="utf-8") as fh:
                        files[os.path.relpath(full, out)] = fh.read()
            return p.returncode, p.stderr, files

    def bad(self, edit, *needles):
        m = copy.deepcopy(MAP)
        edit(m)
        rc, err, files = self.run_gen(m)
        self.assertEqual(rc, 2, err)
        self.assertEqual(files, {}, "a bad map must not write files")
        self.assertEqual(len(err.splitlines()), 1, err)
        for n in needles:
            self.assertIn(n, err)

    def test_the_map_generates(self):
        rc, err, files = self.run_gen(copy.deepcopy(MAP))
        self.assertEqual(rc, 0, err)
        self.assertEqual(sorted(files), sorted([
            "rtl/mmu_adm_csr.sv", "rtl/mmu_regs_pkg.sv", "hw-model/admission/regs.h",
            "hw-model/admission/regfile_fields.h", "docs/registers.md"]))
        sv = files["rtl/mmu_adm_csr.sv"]
        # Decode of an interleaved array, a legality check, the quiesce comparison.
        self.assertIn("wire in_g040_s8 = a[11:3] >= 9'h8 && 32'(idx_g040_s8) < 32'(NPROF);", sv)
        self.assertIn("wire hit_iprof_xoff = in_g040_s8 && a[2:0] == 3'd3;", sv)
        self.assertIn("32'(w_ctrl_ewma_k) <= 32'd30", sv)
        self.assertIn("(w_iprof_mode_shift ^ 5'h10) >= 5'd1", sv)
        # The quiesce test reads each field's own store, not the read mux.
        self.assertIn("(hit_congested_cells && (reg2hw_congested_cells_cells_o != w_congested_cells_cells))", sv)
        self.assertIn("reg2hw_qmap_lossless_o[idx_g200*1 +: 1] != w_qmap_lossless", sv)
        self.assertNotIn("rdata[0 +: CW] != w_", sv)
        self.assertIn("reg2hw_congested_cells_cells_o <= CW'(80);", sv)
        # A field marked wport: this cycle's accepted write, entry and value on their own.
        self.assertIn("output wire reg2hw_iprof_xoff_we_o,", sv)
        self.assertIn("assign reg2hw_iprof_xoff_we_o = do_write && hit_iprof_xoff;", sv)
        self.assertIn("assign reg2hw_iprof_xoff_widx_o = idx_g040_s8;", sv)
        self.assertIn("assign reg2hw_qmap_widx_o = idx_g200;", sv)
        self.assertIn("assign reg2hw_iprof_xoff_cells_wd_o = w_iprof_xoff_cells;", sv)
        self.assertNotIn("reg2hw_buffer_cells_we_o", sv)
        self.assertIn("output wire reg2hw_we_o,", sv)
        self.assertIn("assign reg2hw_we_o = do_write;", sv)
        # A counter with inc_reg: the increment registered, and a read adds it.
        self.assertIn("pend_stat_drops <= hw2reg_stat_drops_inc_i;", sv)
        self.assertIn("if (pend_stat_drops) cnt_stat_drops <= cnt_stat_drops + 32'd1;", sv)
        self.assertIn("rd_words[800 +: 32] = {32{hit_stat_drops}} & (cnt_stat_drops + 32'(pend_stat_drops));", sv)
        self.assertIn("if (hw2reg_stat_decisions_inc_i) cnt_stat_decisions <= cnt_stat_decisions + 32'd1;", sv)
        self.assertNotIn("pend_stat_decisions", sv)
        # No field with a write port: no accepted-write output.
        m = copy.deepcopy(MAP)
        for r in m["registers"]:
            for f in r["fields"]:
                f.pop("wport", None)
        self.assertNotIn("reg2hw_we_o", self.run_gen(m)[2]["rtl/mmu_adm_csr.sv"])

    def test_overlapping_addresses(self):
        # An array interleaved badly with IPROF_* (0x47 + 2 x 4 = IPROF_MODE[2]'s 0x4f? no:
        # 0x47 + 1 x 4 = 0x4b = IPROF_XON[1]) and a second register at an address in use.
        self.bad(lambda m: m["registers"].append(
            {"name": "BADARR", "addr": "0x047", "count": "NPROF", "stride": 4, "access": "rw", "reset": 0,
             "fields": [{"name": "x", "lsb": 0, "width": 1, "cpp": "cfg.pool_cells[k]"}]}),
            "overlap at address 0x", "BADARR")
        self.bad(lambda m: m["registers"].append(
            {"name": "DUP", "addr": "0x006", "access": "rw", "reset": 0,
             "fields": [{"name": "x", "lsb": 0, "width": 1, "cpp": "cfg.ewma.clamp"}]}),
            "CONGESTED_CELLS", "DUP", "0x006")

    def test_field_past_32_bits(self):
        self.bad(lambda m: field(m, "CTRL", "ewma_k").update({"lsb": 30}),
                 "CTRL.ewma_k", "bits 34:30 outside the 32-bit register")

    def test_unknown_access(self):
        self.bad(lambda m: reg(m, "BUFFER_CELLS").update({"access": "wo"}),
                 "register BUFFER_CELLS", "access must be ro or rw")

    def test_other_mistakes_name_their_place(self):
        self.bad(lambda m: field(m, "CTRL", "ewma_k").update({"max": 40}), "CTRL.ewma_k", "max 40")
        self.bad(lambda m: field(m, "QMAP", "pg_profile").update({"index_of": "NPROFS"}),
                 "QMAP.pg_profile", "NPROFS")
        self.bad(lambda m: field(m, "HDRM_POOL_CELLS", "cells").pop("cpp"), "HDRM_POOL_CELLS.cells", "cpp")
        self.bad(lambda m: reg(m, "QMAP").update({"stride": 3}), "register QMAP", "power of two")
        self.bad(lambda m: field(m, "CTRL", "ewma_rule").update({"colour": 1}), "CTRL.ewma_rule", "colour")
        self.bad(lambda m: field(m, "CTRL", "policy").update({"enum": {"dt": 0, "x": 8}}), "CTRL.policy", "enum x")
        self.bad(lambda m: field(m, "IPROF_MODE", "shift").update({"min": -17}), "IPROF_MODE.shift", "min -17")
        self.bad(lambda m: field(m, "STAT_TOTAL", "cells").update({"wport": True}), "STAT_TOTAL", "wport")
        self.bad(lambda m: reg(m, "STAT_TOTAL").update({"inc_reg": True}), "STAT_TOTAL", "inc_reg")
        self.bad(lambda m: reg(m, "STAT_DROPS").update({"inc_reg": 1}), "STAT_DROPS", "inc_reg")
        rc, err, files = self.run_gen('{"registers": [')
        self.assertEqual(rc, 2)
        self.assertIn("map.json", err)
        self.assertEqual(files, {})

    def test_widening_the_policy_and_adding_a_register_are_map_edits(self):
        m = copy.deepcopy(MAP)
        field(m, "CTRL", "policy").update(
            {"width": 3, "enum": {"dt": 0, "reverie": 1, "dsh": 2, "static": 3, "sih": 4, "abm": 5}})
        # A per-port register for abm, its C++ accessor a nested vector.
        m["registers"].append({"name": "ABM_PORT_RATE", "addr": "0x300", "count": "NPORTS", "stride": 1,
                               "access": "rw", "reset": 0, "fields": [
                                   {"name": "cells", "lsb": 0, "width": 32, "held": "CW",
                                    "cpp": "cfg.abm.port_cells_per_interval[k]"}]})
        rc, err, files = self.run_gen(m)
        self.assertEqual(rc, 0, err)
        sv = files["rtl/mmu_adm_csr.sv"]
        self.assertIn("output logic [2:0] reg2hw_ctrl_policy_o,", sv)
        self.assertIn("parameter logic [2:0] CTRL_POLICY_RESET = 3'd0", sv)
        self.assertIn("w_ctrl_policy == 3'd5)", sv)
        self.assertNotIn("3'd6", sv)
        h = files["hw-model/admission/regfile_fields.h"]
        self.assertIn("kEnum_ctrl_policy[] = {0, 1, 2, 3, 4, 5};", h)
        self.assertIn('case 5: c.policy = "abm"; return;', h)
        self.assertIn("CTRL_POLICY_ABM", files["hw-model/admission/regs.h"])
        self.assertIn("output logic [NPORTS*CW-1:0] reg2hw_abm_port_rate_cells_o,", sv)
        self.assertIn("field_detail::grow(c.abm.port_cells_per_interval, k, "
                      "reset_abm_port_cells_per_interval_entry())", h)


if __name__ == "__main__":
    unittest.main()
