#!/usr/bin/env python3
"""Generate the register-map artefacts from rtl/regmap.json (the one definition).

Writes
  rtl/mmu_adm_csr.sv                  the register block (module mmu_adm_csr): decode, storage
                                      with reset values, access rights, field legality, the
                                      quiesce rule; reg2hw_* outputs, hw2reg_* inputs
  rtl/mmu_regs_pkg.sv                 SystemVerilog package mmu_regs_pkg (localparams)
  hw-model/admission/regs.h           the same constants for C++ (mmusim::admission::regs)
  hw-model/admission/regfile_fields.h the C++ field table: one row per field with its
                                      legality and an accessor into admission::CoreConfig
                                      (admission/regfile.cc is driven by it)
  docs/registers.md                   one table per register

Usage: scripts/gen_regs.py                 write the files
       scripts/gen_regs.py --check         exit 1 naming every file that differs from what
                                           would be generated
       scripts/gen_regs.py --out-dir DIR   write them under DIR instead (ctest
                                           regs_generated_up_to_date diffs DIR against the tree)
       scripts/gen_regs.py --map FILE      read FILE instead of rtl/regmap.json

Field keys beyond name/lsb/width/desc:
  enum {key: value}   the legal values (anything else is refused)
  min, max            legal range (signed fields: two's complement values)
  signed              two's complement field
  index_of SYM        the value indexes an array of SYM entries: legal below SYM
  held SYM            the unit keeps the low SYM bits (a parameter, SYM <= width)
  quiesce             may change only while the buffer is empty (a write that changes it
                      while the buffer holds cells is refused)
  hook                the unit may refuse more values (a hand-written check in the unit:
                      hook_<reg>_<field>_o carries the value, hook_..._bad_i refuses it)
  reset_param         the reset value is a parameter <REG>_<FIELD>_RESET of the block
  strobe              reg2hw_<reg>_<field>_set_o: an accepted write changes the field (scalars)
  wport               this cycle's write on its own: reg2hw_<reg>_we_o an accepted write
                      (reg2hw_we_o: an accepted write to any register),
                      reg2hw_<reg>_widx_o its entry (arrays), reg2hw_<reg>_<field>_wd_o its
                      value; for a unit that forms the field's next value only inside a
                      clocked block, so a simulator evaluates it only at such a write;
                      reg2hw_<reg>_wsel_o a write access names the register, accepted or
                      not (no legality or quiesce check: a unit's derived register takes
                      its data path from it and its enable from _we_o, so the data does
                      not wait for the block's refusal logic)
  param SYM           read-only field showing parameter SYM
  cpp                 C++ accessor: cfg.<member path> (a CoreConfig member, [k] for the array
                      entry), params.<member> (RtlParams), or an expression over core
                      (AdmissionCore), stats (CsrStats) and k for a statistics register
  cpp_enum            "string" (a std::string holding the enum key) or a C++ enum class
                      (its enumerators are k + the key in CamelCase)
  cpp_entries         cfg.<vector>: a statistics array reads 0 past the vector's end
Register keys beyond name/addr/access/reset/count/stride/desc/fields:
  hw "counter"        a read-only statistics counter kept in the block (wraps), advanced
                      by hw2reg_<reg>_inc_i
  inc_reg             (a counter) hw2reg_<reg>_inc_i is registered (a pending bit) before
                      it reaches the counter, so it ends at a flip-flop, not at the
                      counter's adder; a read returns the counter plus the pending bit,
                      the value it would read without the register, cycle for cycle
Top level "parameters": {SYM: {default, desc}}: the block's parameters.

Names of the constants (REG = register name, FIELD = field name in upper case):
  REG_ADDR                 word address (array: address of entry 0)
  REG_STRIDE               array: words between entries
  REG_COUNT_MAX            array: entries the map holds (its room, its parameters' range)
  GROUP_STRIDE             arrays interleaved with one stride (IPROF_*, EPROF_*): their
                           common name prefix
  REG_RESET                reset value (registers that have one); REG_VALUE for a
                           read-only register with a fixed value (ID)
  REG_FIELD_LSB / _W / _MASK
  REG_FIELD_KEY            enum value of a field
  SYM_MAX                  largest value of an array count symbol (NPOOLS, NPROF, ...):
                           the range of its PARAMS field and the room of every array it sizes
An optional field key "quiesce": true marks a field that may change only while the buffer
is empty; it adds REG_QUIESCE_MASK constants and a column to the document.

Python standard library only; runs with Debian's /usr/bin/python3.
"""

import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = "rtl/regmap.json"
OUT_SV = "rtl/mmu_regs_pkg.sv"
OUT_H = "hw-model/admission/regs.h"
OUT_MD = "docs/registers.md"
OUT_BLOCK = "rtl/mmu_adm_csr.sv"
OUT_FIELDS = "hw-model/admission/regfile_fields.h"
BANNER = "generated from rtl/regmap.json by scripts/gen_regs.py; do not edit"

IDENT = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


class MapError(Exception):
    pass


def parse_int(v, what):
    if isinstance(v, bool):
        raise MapError(f"{what}: expected a number, got {v!r}")
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        try:
            return int(v, 0)
        except ValueError:
            pass
    raise MapError(f"{what}: expected a number, got {v!r}")


class Field:
    def __init__(self, reg, j, data_width):
        what = f"register {reg}"
        for k in ("name", "lsb", "width"):
            if k not in j:
                raise MapError(f"{what}: a field has no '{k}'")
        self.name = j["name"]
        what = f"{reg}.{self.name}"
        if not IDENT.match(self.name):
            raise MapError(f"{what}: field name is not an identifier")
        self.lsb = parse_int(j["lsb"], what + ".lsb")
        self.width = parse_int(j["width"], what + ".width")
        if self.lsb < 0 or self.width < 1 or self.lsb + self.width > data_width:
            raise MapError(f"{what}: bits {self.lsb + self.width - 1}:{self.lsb} outside the {data_width}-bit register")
        self.desc = j.get("desc", "")
        self.reg = reg
        self.quiesce = bool(j.get("quiesce", False))
        self.signed = bool(j.get("signed", False))
        lo, hi = (-(1 << (self.width - 1)), (1 << (self.width - 1)) - 1) if self.signed else (0, (1 << self.width) - 1)
        self.min = parse_int(j["min"], what + ".min") if "min" in j else None
        self.max = parse_int(j["max"], what + ".max") if "max" in j else None
        for k, v in (("min", self.min), ("max", self.max)):
            if v is not None and not lo <= v <= hi:
                raise MapError(f"{what}: {k} {v} does not fit the {self.width}-bit {'signed ' if self.signed else ''}field")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise MapError(f"{what}: min {self.min} > max {self.max}")
        self.index_of = j.get("index_of")
        self.held = j.get("held")
        self.param = j.get("param")
        for k in ("index_of", "held", "param"):
            v = j.get(k)
            if v is not None and (not isinstance(v, str) or not IDENT.match(v) or v != v.upper()):
                raise MapError(f"{what}: {k} must name an upper-case parameter, got {v!r}")
        self.hook = bool(j.get("hook", False))
        self.reset_param = bool(j.get("reset_param", False))
        self.strobe = bool(j.get("strobe", False))
        self.wport = bool(j.get("wport", False))
        self.cpp = j.get("cpp")
        self.cpp_enum = j.get("cpp_enum")
        self.cpp_entries = j.get("cpp_entries")
        for k in ("cpp", "cpp_enum", "cpp_entries"):
            v = j.get(k)
            if v is not None and (not isinstance(v, str) or not v):
                raise MapError(f"{what}: {k} must be a non-empty string")
        self.enum = []
        for key, val in (j.get("enum") or {}).items():
            if not IDENT.match(key):
                raise MapError(f"{what}: enum key {key!r} is not an identifier")
            v = parse_int(val, f"{what}.enum.{key}")
            if v < 0 or v >= (1 << self.width):
                raise MapError(f"{what}: enum {key} = {v} does not fit {self.width} bits")
            self.enum.append((key, v))
        if len({v for _, v in self.enum}) != len(self.enum):
            raise MapError(f"{what}: two enum keys share a value")
        if self.cpp_enum and not self.enum:
            raise MapError(f"{what}: cpp_enum without enum")
        unknown = set(j) - {"name", "lsb", "width", "desc", "enum", "quiesce", "signed", "min", "max", "index_of",
                            "held", "hook", "reset_param", "strobe", "wport", "param", "cpp", "cpp_enum", "cpp_entries"}
        if unknown:
            raise MapError(f"{what}: unknown keys {sorted(unknown)}")

    @property
    def msb(self):
        return self.lsb + self.width - 1

    @property
    def mask(self):
        return ((1 << self.width) - 1) << self.lsb

    def bits(self):
        return f"{self.msb}:{self.lsb}" if self.width > 1 else f"{self.lsb}"

    @property
    def ident(self):
        return f"{self.reg.lower()}_{self.name}"

    def legal_text(self):
        """The legal values in words (docs), '' when every value is legal."""
        out = []
        if self.enum and len(self.enum) < (1 << self.width):
            out.append(", ".join(str(v) for _, v in self.enum))
        if self.min is not None or self.max is not None:
            lo = "" if self.min is None else str(self.min)
            hi = "" if self.max is None else str(self.max)
            out.append(f"{lo}..{hi}" if lo and hi else (f">= {lo}" if lo else f"<= {hi}"))
        if self.index_of:
            out.append(f"< {self.index_of}")
        if self.hook:
            out.append("unit hook")
        return "; ".join(out)


class Register:
    def __init__(self, j, data_width, addr_width):
        if "name" not in j:
            raise MapError("a register has no name")
        self.name = j["name"]
        if not IDENT.match(self.name) or self.name != self.name.upper():
            raise MapError(f"register {self.name!r}: name must be an upper-case identifier")
        what = f"register {self.name}"
        for k in ("addr", "access", "fields"):
            if k not in j:
                raise MapError(f"{what}: no '{k}'")
        self.addr = parse_int(j["addr"], what + ".addr")
        if not 0 <= self.addr < (1 << addr_width):
            raise MapError(f"{what}: address 0x{self.addr:x} outside the {addr_width}-bit word address space")
        self.access = j["access"]
        if self.access not in ("ro", "rw"):
            raise MapError(f"{what}: access must be ro or rw")
        self.desc = j.get("desc", "")
        self.reset = parse_int(j["reset"], what + ".reset") if "reset" in j else None
        if self.reset is not None and not 0 <= self.reset < (1 << data_width):
            raise MapError(f"{what}: reset does not fit {data_width} bits")
        self.count = j.get("count")
        self.stride = None
        self.factors = []
        if self.count is not None:
            if not isinstance(self.count, str) or not self.count:
                raise MapError(f"{what}: count must be a symbol or a product of symbols")
            self.factors = [s.strip() for s in self.count.split("*")]
            for s in self.factors:
                if not IDENT.match(s) or s != s.upper():
                    raise MapError(f"{what}: count {self.count!r}: {s!r} is not an upper-case symbol")
            if len(set(self.factors)) != len(self.factors):
                raise MapError(f"{what}: count {self.count!r} repeats a symbol")
            if "stride" not in j:
                raise MapError(f"{what}: an array needs a stride")
            self.stride = parse_int(j["stride"], what + ".stride")
            if self.stride < 1 or self.stride & (self.stride - 1):
                raise MapError(f"{what}: stride must be a power of two (the block decodes its low bits)")
        elif "stride" in j:
            raise MapError(f"{what}: stride without count")
        self.fields = [Field(self.name, f, data_width) for f in j["fields"]]
        if not self.fields:
            raise MapError(f"{what}: no fields")
        used = 0
        names = set()
        for f in self.fields:
            if f.name in names:
                raise MapError(f"{what}: two fields named {f.name}")
            names.add(f.name)
            if used & f.mask:
                raise MapError(f"{what}: field {f.name} overlaps another field")
            used |= f.mask
        self.used_mask = used
        if self.reset is not None and self.reset & ~used:
            raise MapError(f"{what}: reset 0x{self.reset:x} sets bits outside every field")
        self.hw = j.get("hw")
        if self.hw not in (None, "counter"):
            raise MapError(f"{what}: hw must be \"counter\" (a statistics counter), got {self.hw!r}")
        if self.hw == "counter" and (self.access != "ro" or self.is_array or len(self.fields) != 1
                                     or self.fields[0].lsb != 0 or self.reset is not None):
            raise MapError(f"{what}: a counter is one read-only register with one field at bit 0 and no reset")
        self.inc_reg = j.get("inc_reg", False)
        if not isinstance(self.inc_reg, bool) or (self.inc_reg and self.hw != "counter"):
            raise MapError(f"{what}: inc_reg must be true or false, and only on a counter (hw \"counter\")")
        for f in self.fields:
            if self.access == "ro" and (f.quiesce or f.hook or f.reset_param or f.strobe or f.wport or f.min is not None
                                        or f.max is not None or f.index_of):
                raise MapError(f"{what}: field {f.name}: quiesce/hook/reset_param/strobe/wport/min/max/index_of "
                               f"apply to read-write registers")
            if f.param and (self.access != "ro" or self.reset is not None):
                raise MapError(f"{what}: field {f.name}: param needs a read-only register without reset")
            if f.strobe and self.is_array:
                raise MapError(f"{what}: field {f.name}: strobe is for single registers")
        unknown = set(j) - {"name", "addr", "access", "desc", "reset", "count", "stride", "fields", "hw", "inc_reg"}
        if unknown:
            raise MapError(f"{what}: unknown keys {sorted(unknown)}")
        self.count_max = None  # filled by RegMap
        self.group = None

    @property
    def is_array(self):
        return self.count is not None

    @property
    def ident(self):
        return self.name.lower()

    @property
    def hw2reg(self):
        """Read-only without a fixed value: the unit supplies it (hw2reg) or the block counts."""
        return self.access == "ro" and self.reset is None

    def field_reset(self, f):
        if self.reset is None:
            return None
        return (self.reset >> f.lsb) & ((1 << f.width) - 1)

    @property
    def quiesce_mask(self):
        m = 0
        for f in self.fields:
            if f.quiesce:
                m |= f.mask
        return m


def common_prefix(names):
    parts = [n.split("_") for n in names]
    out = []
    for tokens in zip(*parts):
        if len(set(tokens)) != 1:
            break
        out.append(tokens[0])
    return "_".join(out)


class RegMap:
    def __init__(self, j):
        for k in ("name", "data_width", "addr_width", "registers"):
            if k not in j:
                raise MapError(f"regmap: no '{k}'")
        self.name = j["name"]
        self.desc = j.get("description", "")
        self.data_width = parse_int(j["data_width"], "data_width")
        self.addr_width = parse_int(j["addr_width"], "addr_width")
        if self.data_width != 32:
            raise MapError("data_width must be 32 (the C++ side uses uint32_t)")
        if not 1 <= self.addr_width <= 32:
            raise MapError("addr_width must be 1..32")
        self.params = []
        for k, v in (j.get("parameters") or {}).items():
            if not IDENT.match(k) or k != k.upper():
                raise MapError(f"parameter {k!r}: name must be an upper-case identifier")
            if not isinstance(v, dict) or "default" not in v:
                raise MapError(f"parameter {k}: needs a default")
            self.params.append((k, parse_int(v["default"], f"parameter {k}.default"), v.get("desc", "")))
        if not isinstance(j["registers"], list):
            raise MapError("regmap: registers must be a list")
        self.regs = [Register(r, self.data_width, self.addr_width) for r in j["registers"]]
        self._check_names_and_addresses()
        self._symbols()
        self._room()
        self._check_overlap()
        self._check_params()
        self._groups()
        self._check_constant_names()
        self.fields = [f for r in self.regs for f in r.fields]

    def _check_names_and_addresses(self):
        seen = {}
        for r in self.regs:
            if r.name in seen:
                raise MapError(f"two registers named {r.name}")
            seen[r.name] = r
        by_addr = {}
        for r in self.regs:
            if r.addr in by_addr:
                raise MapError(f"registers {by_addr[r.addr].name} and {r.name} share address 0x{r.addr:03x}")
            by_addr[r.addr] = r

    def _symbols(self):
        # A count symbol S is sized by a field named s (lower case) of a read-only register.
        self.symbols = []
        for r in self.regs:
            for s in r.factors:
                if s not in self.symbols:
                    self.symbols.append(s)
        self.symbol_field = {}
        for s in self.symbols:
            hits = [(r, f) for r in self.regs if r.access == "ro" for f in r.fields if f.name == s.lower()]
            if len(hits) != 1:
                raise MapError(f"count symbol {s}: expected one read-only field named {s.lower()}, found {len(hits)}")
            self.symbol_field[s] = hits[0]

    def _room(self):
        # An array occupies base + k*stride for k < count; its room is the number of entries
        # before the next register on its grid (base + k*stride), or the end of the address
        # space. A register between entries (interleaved arrays) does not limit it; one that
        # collides with an entry at the largest parameters is an overlap (_check_overlap).
        top = 1 << self.addr_width
        for r in self.regs:
            if not r.is_array:
                continue
            barrier = top
            for o in self.regs:
                if o is not r and o.addr > r.addr and (o.addr - r.addr) % r.stride == 0:
                    barrier = min(barrier, o.addr)
            r.count_max = -(-(barrier - r.addr) // r.stride)
        self.symbol_max = {}
        for s in self.symbols:
            reg, f = self.symbol_field[s]
            m = (1 << f.width) - 1
            for r in self.regs:
                if r.factors == [s]:
                    m = min(m, r.count_max)
            self.symbol_max[s] = m
        # An array never holds more than its parameters allow.
        for r in self.regs:
            if r.is_array:
                n = 1
                for s in r.factors:
                    n *= self.symbol_max[s]
                r.count_max = min(r.count_max, n)
        # Every array must hold at least one entry at the smallest parameters (1 each).
        for r in self.regs:
            if r.is_array and r.count_max < 1:
                raise MapError(f"register {r.name}: no room for one entry")

    def _entries(self, r):
        """Entries of r at the largest parameters the map allows (its room at most)."""
        if not r.is_array:
            return 1
        n = 1
        for s in r.factors:
            n *= self.symbol_max[s]
        return min(n, r.count_max)

    def _check_overlap(self):
        owner = {}
        for r in self.regs:
            for k in range(self._entries(r)):
                a = r.addr + k * (r.stride or 1)
                if a >= 1 << self.addr_width:
                    break
                if a in owner:
                    o = owner[a]
                    raise MapError(f"registers {o[0].name}{o[1]} and {r.name}"
                                   f"{f'[{k}]' if r.is_array else ''} overlap at address 0x{a:03x}")
                owner[a] = (r, f"[{k}]" if r.is_array else "")

    def _check_params(self):
        known = {k for k, _, _ in self.params}
        for r in self.regs:
            for s in r.factors:
                if s not in known:
                    raise MapError(f"register {r.name}: count symbol {s} is not in \"parameters\"")
            for f in r.fields:
                for key in ("index_of", "held", "param"):
                    v = getattr(f, key)
                    if v is not None and v not in known:
                        raise MapError(f"{r.name}.{f.name}: {key} {v} is not in \"parameters\"")

    def _groups(self):
        self.groups = []  # (prefix, stride, [regs])
        arrays = [r for r in self.regs if r.is_array]
        done = set()
        for r in sorted(arrays, key=lambda x: x.addr):
            if r.name in done:
                continue
            members = [o for o in arrays if o.count == r.count and o.stride == r.stride
                       and r.addr <= o.addr < r.addr + r.stride]
            for o in members:
                done.add(o.name)
            if len(members) > 1:
                prefix = common_prefix([o.name for o in members])
                if not prefix:
                    raise MapError(f"interleaved arrays {[o.name for o in members]} share no name prefix")
                for o in members:
                    o.group = prefix
                self.groups.append((prefix, r.stride, members))

    def constants(self):
        """(name, value, comment) in emission order; sections start with name None."""
        out = [(None, "Map", None),
               ("DATA_WIDTH", self.data_width, "bits per register"),
               ("ADDR_WIDTH", self.addr_width, "bits of the word address")]
        if self.symbols:
            out.append((None, "Largest values of the array count parameters", None))
            for s in self.symbols:
                reg, f = self.symbol_field[s]
                note = f"{reg.name}.{f.name} range"
                if self.symbol_max[s] < (1 << f.width) - 1:
                    note += ", limited by the room of its arrays"
                out.append((f"{s}_MAX", self.symbol_max[s], note))
        if self.groups:
            out.append((None, "Interleaved arrays (one entry = one stride)", None))
            for prefix, stride, members in self.groups:
                out.append((f"{prefix}_STRIDE", stride, ", ".join(m.name for m in members)))
        for r in self.regs:
            where = f"0x{r.addr:03x}"
            if r.is_array:
                where += f" + k*{r.stride}, k < {r.count}"
            out.append((None, f"{r.name} ({r.access}, {where}): {r.desc}", None))
            out.append((f"{r.name}_ADDR", r.addr, None))
            if r.is_array:
                out.append((f"{r.name}_STRIDE", r.stride, None))
                out.append((f"{r.name}_COUNT_MAX", r.count_max, "entries the map holds (room, parameter range)"))
            if r.reset is not None:
                out.append((f"{r.name}_RESET", r.reset, None))
                if r.access == "ro":
                    out.append((f"{r.name}_VALUE", r.reset, None))
            if r.quiesce_mask:
                out.append((f"{r.name}_QUIESCE_MASK", r.quiesce_mask, "changes only with an empty buffer"))
            for f in r.fields:
                fn = f"{r.name}_{f.name.upper()}"
                out.append((f"{fn}_LSB", f.lsb, f.desc or None))
                out.append((f"{fn}_W", f.width, None))
                out.append((f"{fn}_MASK", f.mask, None))
                for key, v in f.enum:
                    out.append((f"{fn}_{key.upper()}", v, None))
        return out

    def _check_constant_names(self):
        seen = set()
        for name, _, _ in self.constants():
            if name is None:
                continue
            if name in seen:
                raise MapError(f"generated constant {name} would be defined twice")
            seen.add(name)


def is_hex_name(name):
    return name.endswith(("_ADDR", "_RESET", "_VALUE", "_MASK"))


def fmt_sv(name, v):
    if name.endswith("_ADDR"):
        return f"'h{v:03x}"
    if is_hex_name(name):
        return f"32'h{v:08x}"
    return str(v)


def fmt_c(name, v):
    if name.endswith("_ADDR"):
        return f"0x{v:03x}"
    if is_hex_name(name):
        return f"0x{v:08x}"
    return str(v)


def gen_sv(m):
    lines = [f"// {BANNER}",
             f"// {m.name}: {m.desc}",
             "// Word addresses; arrays: entry k of REG at REG_ADDR + k * REG_STRIDE.",
             "// bit [31:0] is int unsigned (Icarus 11 does not parse int unsigned localparams).",
             "package mmu_regs_pkg;",
             "",
             "  // A package of constants: most are unused by any one design.",
             "  /* verilator lint_off UNUSEDPARAM */"]
    width = max(len(n) for n, _, _ in m.constants() if n)
    for name, v, comment in m.constants():
        if name is None:
            lines.append("")
            lines.append(f"  // {v}")
            continue
        line = f"  localparam bit [31:0] {name.ljust(width)} = {fmt_sv(name, v)};"
        if comment:
            line += f"  // {comment}"
        lines.append(line)
    lines.append("")
    lines.append("  /* verilator lint_on UNUSEDPARAM */")
    lines.append("")
    lines.append("endpackage : mmu_regs_pkg")
    return "\n".join(lines) + "\n"


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gen_h(m):
    lines = ["#pragma once",
             f"// {BANNER}",
             f"// {m.name}: {m.desc}",
             "// Word addresses; arrays: entry k of REG at REG_ADDR + k * REG_STRIDE.",
             "#include <cstdint>",
             "",
             "namespace mmusim::admission::regs {"]
    width = max(len(n) for n, _, _ in m.constants() if n)
    for name, v, comment in m.constants():
        if name is None:
            lines.append("")
            lines.append(f"// {v}")
            continue
        line = f"inline constexpr uint32_t {name.ljust(width)} = {fmt_c(name, v)};"
        if comment:
            line += f"  // {comment}"
        lines.append(line)
    # Table of registers, for generic decoding.
    lines += ["",
              "// Array count = product of the parameters named by the COUNT_* bits (0: one register).",
              ]
    for i, s in enumerate(m.symbols):
        lines.append(f"inline constexpr uint32_t COUNT_{s} = 1u << {i};")
    lines += ["",
              "enum class Access : uint8_t { kRo, kRw };",
              "",
              "struct RegInfo {",
              "  const char* name;",
              "  uint32_t addr;       // word address of entry 0",
              "  uint32_t stride;     // 0 for a single register",
              "  uint32_t count;      // COUNT_* bits; 0 for a single register",
              "  uint32_t count_max;  // entries that fit in the map (arrays)",
              "  Access access;",
              "  bool has_reset;",
              "  uint32_t reset;",
              "  uint32_t fields_mask;  // bits that belong to a field",
              "  uint16_t first_field;  // its fields: kFields[first_field .. + n_fields) (regfile_fields.h)",
              "  uint16_t n_fields;",
              "};",
              "",
              "inline constexpr RegInfo kRegisters[] = {"]
    first = 0
    for r in m.regs:
        count = " | ".join(f"COUNT_{s}" for s in r.factors) if r.factors else "0"
        lines.append(f"    {{{c_string(r.name)}, {r.name}_ADDR, {r.stride or 0}, {count}, "
                     f"{r.count_max or 0}, Access::{'kRo' if r.access == 'ro' else 'kRw'}, "
                     f"{'true' if r.reset is not None else 'false'}, {fmt_c('_RESET', r.reset or 0)}, "
                     f"{fmt_c('_MASK', r.used_mask)}, {first}, {len(r.fields)}}},")
        first += len(r.fields)
    lines += ["};", "", "}  // namespace mmusim::admission::regs"]
    return "\n".join(lines) + "\n"



# ------------------------------------------------------------------------------ SV block

def sv_w(f):
    """Width of what the unit holds of f: a parameter (held) or the field width."""
    return f.held if f.held else str(f.width)


def sv_range(w):
    """[w-1:0] for a width expression."""
    return f"[{int(w) - 1}:0]" if w.isdigit() else f"[{w}-1:0]"


def sv_count(r):
    return "*".join(r.factors) if len(r.factors) == 1 else "(" + "*".join(r.factors) + ")"


def sv_const(w, v):
    return f"{w}'d{v}" if w.isdigit() else f"{w}'({v})"


def sv_legal(f, v):
    """SV expression: the held value v of f is legal ('' when every value is)."""
    terms = []
    w = sv_w(f)
    if f.enum and len(f.enum) < (1 << f.width):
        terms.append("(" + " || ".join(f"{v} == {sv_const(w, val)}" for _, val in f.enum) + ")")
    if f.signed:
        # Offset binary: flipping the sign bit makes the order unsigned.
        bias = 1 << (f.width - 1)
        flip = f"({v} ^ {f.width}'h{bias:x})"
        if f.min is not None and f.min + bias > 0:
            terms.append(f"{flip} >= {f.width}'d{f.min + bias}")
        if f.max is not None and f.max + bias < (1 << f.width) - 1:
            terms.append(f"{flip} <= {f.width}'d{f.max + bias}")
    else:
        if f.min is not None and f.min > 0:
            terms.append(f"32'({v}) >= 32'd{f.min}")
        if f.max is not None and f.max < (1 << f.width) - 1:
            terms.append(f"32'({v}) <= 32'd{f.max}")
    if f.index_of:
        terms.append(f"32'({v}) < 32'({f.index_of})")
    if f.hook:
        terms.append(f"!hook_{f.ident}_bad_i")
    return " && ".join(terms)


def gen_block(m):
    aw = m.addr_width
    A = lambda v: f"{aw}'h{v:03x}"
    rw = [r for r in m.regs if r.access == "rw"]
    ro = [r for r in m.regs if r.access == "ro"]
    L = [f"// {BANNER}",
         "//",
         f"// Register block of {m.name} (module mmu_adm_csr): address decode, storage with reset",
         "// values, access rights, field legality and the quiesce rule, all from the map. The unit",
         "// reads its configuration from the reg2hw_* outputs (arrays as flat vectors, entry k at",
         "// [k*W +: W]: yosys 0.23 takes neither packed 2-D nor unpacked array ports) and supplies",
         "// the statistics on hw2reg_* inputs. A write is refused (cfg_error_o, nothing stored) when",
         "// it names no register or a read-only one, carries a value a field does not allow, or",
         "// changes a quiesce field while busy_i (the buffer holds cells). Checks the map cannot",
         "// state are the unit's: a field marked hook shows its value on hook_<field>_o and is",
         "// refused by hook_<field>_bad_i (mmu_admission.sv). Reads return data one cycle later.",
         "`default_nettype none",
         "",
         "module mmu_adm_csr",
         "#("]
    plist = [f"  parameter int {k} = {v}{',' if True else ''}  // {d}" for k, v, d in m.params]
    for f in m.fields:
        if f.reset_param:
            reg = next(r for r in m.regs if r.name == f.reg)
            plist.append(f"  parameter logic [{f.width - 1}:0] {f.reg}_{f.name.upper()}_RESET = "
                         f"{f.width}'d{reg.field_reset(f) or 0},  // reset of {f.reg}.{f.name}")
    plist[-1] = plist[-1].replace(",  //", "  //", 1)
    L += plist
    L += [") (",
          "  input  wire clk_i,",
          "  input  wire rst_ni,",
          "  // Bus: one access per cycle.",
          "  input  wire cfg_valid_i,",
          "  output wire cfg_ready_o,",
          "  input  wire cfg_write_i,",
          f"  input  wire [{aw - 1}:0] cfg_addr_i,",
          "  // Bits outside every field, and above what a field holds, are ignored by design.",
          "  /* verilator lint_off UNUSEDSIGNAL */",
          f"  input  wire [{m.data_width - 1}:0] cfg_wdata_i,",
          "  /* verilator lint_on UNUSEDSIGNAL */",
          "  output logic cfg_rvalid_o,",
          f"  output logic [{m.data_width - 1}:0] cfg_rdata_o,",
          "  output logic cfg_error_o,  // the last access was refused",
          "  input  wire busy_i,  // the buffer holds cells: quiesce fields keep their values"]
    ports = []
    if any(f.wport for f in m.fields):
        ports.append("  output wire reg2hw_we_o,  // an accepted write this cycle, to any register")
    for f in m.fields:
        if f.hook:
            ports.append(f"  output wire [{f.width - 1}:0] hook_{f.ident}_o,  // {f.reg}.{f.name} of this cycle's write")
            ports.append(f"  input  wire hook_{f.ident}_bad_i,  // the unit refuses it")
    for r in rw:
        ports.append(f"  // {r.name}: {r.desc}")
        for f in r.fields:
            w = sv_w(f)
            rng = sv_range(f"{sv_count(r)}*{w}" if r.is_array else w)
            ports.append(f"  output logic {rng} reg2hw_{f.ident}_o,")
            if f.strobe:
                ports.append(f"  output wire reg2hw_{f.ident}_set_o,  // an accepted write changes it")
            if f.wport:
                ports.append(f"  output wire {sv_range(w)} reg2hw_{f.ident}_wd_o,  // this cycle's write of it")
        if any(f.wport for f in r.fields):
            ports.append(f"  output wire reg2hw_{r.ident}_we_o,  // an accepted write this cycle")
            ports.append(f"  output wire reg2hw_{r.ident}_wsel_o,  // a write access names it, accepted or not")
            if r.is_array:
                ports.append(f"  output wire [{aw - r.stride.bit_length()}:0] reg2hw_{r.ident}_widx_o,  // its entry")
    for r in ro:
        if not r.hw2reg or all(f.param for f in r.fields):
            continue
        ports.append(f"  // {r.name}: {r.desc}")
        if r.hw == "counter":
            ports.append(f"  input  wire hw2reg_{r.ident}_inc_i,  // count one")
            continue
        for f in r.fields:
            w = sv_w(f)
            rng = sv_range(f"{sv_count(r)}*{w}" if r.is_array else w)
            ports.append(f"  input  wire {rng} hw2reg_{f.ident}_i,")
    ports[-1] = ports[-1].rstrip(",") if ports[-1].endswith(",") else ports[-1].replace(",  //", "  //", 1)
    L += [p if p.startswith("  //") else p for p in ports]
    L += [");", "", "  assign cfg_ready_o = 1'b1;", "",
          "  // Address decode: one hit per register; an array's entry index.",
          f"  wire [{aw - 1}:0] a = cfg_addr_i;"]
    # Arrays on one grid (base rounded down to the stride, the stride, the count: the
    # interleaved IPROF_* share one) share the entry index and the range check; each
    # member matches its offset in the low address bits.
    groups = {}
    for r in m.regs:
        if r.is_array:
            sh = r.stride.bit_length() - 1
            groups.setdefault((r.addr >> sh, sh, r.count), []).append(r)
    gname = {}
    for (b0, sh, count), members in groups.items():
        g = f"g{b0 << sh:03x}" + (f"_s{1 << sh}" if sh else "")
        if g in gname.values():  # another count on the same grid
            g += "_" + members[0].ident
        for r in members:
            gname[r.name] = g
        w = aw - sh
        top = f"a[{aw - 1}:{sh}]" if sh else "a"
        L.append(f"  // {', '.join(r.name for r in members)}: entry index and range.")
        L.append(f"  wire [{w - 1}:0] idx_{g} = {top} - {w}'h{b0:x};")
        conds = [] if b0 == 0 else [f"{top} >= {w}'h{b0:x}"]
        conds.append(f"32'(idx_{g}) < 32'({sv_count(members[0])})")
        L.append(f"  wire in_{g} = {' && '.join(conds)};")
    for r in m.regs:
        if not r.is_array:
            L.append(f"  wire hit_{r.ident} = a == {A(r.addr)};")
            continue
        sh = r.stride.bit_length() - 1
        g = gname[r.name]
        low = f" && a[{sh - 1}:0] == {sh}'d{r.addr & ((1 << sh) - 1)}" if sh else ""
        L.append(f"  wire hit_{r.ident} = in_{g}{low};")
    L.append("  wire rw_hit = " + " || ".join(f"hit_{r.ident}" for r in rw) + ";")
    L.append("  wire ro_hit = " + " || ".join(f"hit_{r.ident}" for r in ro) + ";")
    L += ["", "  // What a write would store: the bits each field holds."]
    for r in rw:
        for f in r.fields:
            L.append(f"  wire {sv_range(sv_w(f))} w_{f.ident} = cfg_wdata_i[{f.lsb} +: {sv_w(f)}];")
    for f in m.fields:
        if f.hook:
            L.append(f"  assign hook_{f.ident}_o = cfg_wdata_i[{f.lsb} +: {f.width}];")
    L += ["", "  // Legal values (enum, min/max, index_of, the unit's hook)."]
    bad = []
    for r in rw:
        legal = [e for e in (sv_legal(f, f"w_{f.ident}") for f in r.fields) if e]
        if legal:
            bad.append(f"(hit_{r.ident} && !({' && '.join(legal)}))")
    L.append("  wire bad_value = " + (" ||\n                   ".join(bad) if bad else "1'b0") + ";")
    L += ["", "  // Quiesce fields: a write changes one when it differs from what the field holds (its",
          "  // own store, not the read mux: the write enables do not wait for the counters' reads)."]
    chg = []
    for r in rw:
        terms = [f"reg2hw_{f.ident}_o" + (f"[idx_{gname[r.name]}*{sv_w(f)} +: {sv_w(f)}]" if r.is_array else "")
                 + f" != w_{f.ident}" for f in r.fields if f.quiesce]
        if terms:
            chg.append(f"(hit_{r.ident} && ({' || '.join(terms)}))")
    L.append("  wire changes_quiesce = " + (" ||\n                         ".join(chg) if chg else "1'b0") + ";")
    L += ["  wire refused = (changes_quiesce && busy_i) || bad_value;",
          "  wire wr_access = cfg_valid_i && cfg_write_i;",
          "  wire do_write = wr_access && rw_hit && !refused;"]
    for f in m.fields:
        if f.strobe:
            L.append(f"  assign reg2hw_{f.ident}_set_o = do_write && hit_{f.reg.lower()} && "
                     f"w_{f.ident} != reg2hw_{f.ident}_o;")
    wp = [(r, f) for r in rw for f in r.fields if f.wport]
    if wp:
        L += ["", "  // This cycle's accepted write, on its own.", "  assign reg2hw_we_o = do_write;"]
    for r, f in wp:
        L.append(f"  assign reg2hw_{f.ident}_wd_o = w_{f.ident};")
    for r in dict.fromkeys(r for r, _ in wp):
        L.append(f"  assign reg2hw_{r.ident}_we_o = do_write && hit_{r.ident};")
        L.append(f"  assign reg2hw_{r.ident}_wsel_o = wr_access && hit_{r.ident};")
        if r.is_array:
            L.append(f"  assign reg2hw_{r.ident}_widx_o = idx_{gname[r.name]};")
    counters = [r for r in ro if r.hw == "counter"]
    for r in counters:
        L.append(f"  logic [{r.fields[0].width - 1}:0] cnt_{r.ident};")
        if r.inc_reg:
            L.append(f"  logic pend_{r.ident};  // last cycle's increment, not yet in cnt_{r.ident}")
    L += ["", "  // Storage.", "  always_ff @(posedge clk_i or negedge rst_ni) begin", "    if (!rst_ni) begin"]
    for r in rw:
        for f in r.fields:
            rv = r.field_reset(f) or 0
            if f.reset_param:
                val = f"{f.reg}_{f.name.upper()}_RESET"
            elif rv == 0:
                val = "'0"
            else:
                val = sv_const(sv_w(f), rv)
                if r.is_array:
                    val = f"{{{sv_count(r)}{{{val}}}}}"
            L.append(f"      reg2hw_{f.ident}_o <= {val};")
    for r in counters:
        L.append(f"      cnt_{r.ident} <= '0;")
        if r.inc_reg:
            L.append(f"      pend_{r.ident} <= 1'b0;")
    L.append("    end else begin")
    for r in rw:
        L.append(f"      if (do_write && hit_{r.ident}) begin")
        for f in r.fields:
            dst = f"reg2hw_{f.ident}_o" + (f"[idx_{gname[r.name]}*{sv_w(f)} +: {sv_w(f)}]" if r.is_array else "")
            L.append(f"        {dst} <= w_{f.ident};")
        L.append("      end")
    if counters:
        L.append("      // Statistics counters wrap by design (software reads differences).")
    for r in counters:
        w = r.fields[0].width
        if r.inc_reg:
            L.append(f"      pend_{r.ident} <= hw2reg_{r.ident}_inc_i;")
            L.append(f"      if (pend_{r.ident}) cnt_{r.ident} <= cnt_{r.ident} + {w}'d1;")
        else:
            L.append(f"      if (hw2reg_{r.ident}_inc_i) cnt_{r.ident} <= cnt_{r.ident} + {w}'d1;")
    # The hits are one-hot (_check_overlap), so the read data is each bit's OR over the
    # registers' masked words: a reduction (a balanced tree), not a priority chain as deep
    # as the map is long. A function called under the read's enable: the same logic in
    # front of the register's enable, and a simulator forms it only in a read's cycle (as an
    # always_comb it was re-evaluated at every edge that moved a counter).
    dw = m.data_width
    nr = len(m.regs)
    L += ["    end", "  end", "",
          "  // Read data of the addressed register: register r's word at [r*W +: W], zero unless",
          "  // it is hit; each bit the OR of its column (one hit at most).",
          f"  function automatic logic [{dw - 1}:0] read_data();",
          f"    logic [{nr}*{dw}-1:0] rd_words;",
          f"    logic [{nr - 1}:0] col;",
          "    rd_words = '0;"]
    for ri, r in enumerate(m.regs):
        body = []
        for f in r.fields:
            w = sv_w(f)
            if r.access == "ro" and r.reset is not None:
                src = f"{f.width}'h{r.field_reset(f):x}"
                w = str(f.width)
            elif f.param:
                src = f"{f.width}'({f.param})"
                w = str(f.width)
            elif r.hw == "counter":
                # With inc_reg the pending increment added (wrapping as the counter does).
                src = f"cnt_{r.ident} + {f.width}'(pend_{r.ident})" if r.inc_reg else f"cnt_{r.ident}"
            elif r.access == "ro":
                src = f"hw2reg_{f.ident}_i" + (f"[idx_{gname[r.name]}*{w} +: {w}]" if r.is_array else "")
            else:
                src = f"reg2hw_{f.ident}_o" + (f"[idx_{gname[r.name]}*{w} +: {w}]" if r.is_array else "")
            body.append(f"rd_words[{ri * dw + f.lsb} +: {w}] = {{{w}{{hit_{r.ident}}}}} & ({src});")
        L += [f"    {b}" for b in body]
    L += [f"    for (int b = 0; b < {dw}; b++) begin",
          f"      for (int r = 0; r < {nr}; r++) col[r] = rd_words[r*{dw} + b];",
          "      read_data[b] = |col;",
          "    end",
          "  endfunction", "",
          "  always_ff @(posedge clk_i or negedge rst_ni) begin",
          "    if (!rst_ni) begin",
          "      cfg_rvalid_o <= 1'b0;",
          "      cfg_rdata_o <= '0;",
          "      cfg_error_o <= 1'b0;",
          "    end else begin",
          "      cfg_rvalid_o <= cfg_valid_i && !cfg_write_i;",
          "      if (cfg_valid_i && !cfg_write_i) cfg_rdata_o <= read_data();",
          "      if (cfg_valid_i) cfg_error_o <= cfg_write_i ? !rw_hit || refused : !(rw_hit || ro_hit);",
          "    end",
          "  end",
          "",
          "endmodule",
          "",
          "`default_nettype wire"]
    return "\n".join(L) + "\n"



# ------------------------------------------------------------------------------ C++ field table

CFG_ARRAY = re.compile(r"^cfg\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\[k\]((?:\.[A-Za-z_]\w*)*)$")
CFG_SCALAR = re.compile(r"^cfg\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$")
PARAMS_MEMBER = re.compile(r"^params\.([A-Za-z_]\w*)$")


def camel(key):
    return "k" + "".join(p[:1].upper() + p[1:] for p in key.split("_"))


def cpp_int(v):
    return f"INT64_C({v})"


def field_source(r, f):
    """(source, parsed accessor) of a field; MapError when a field has no usable accessor."""
    what = f"{r.name}.{f.name}"
    if r.access == "ro" and r.reset is not None:
        return "kConst", None
    if f.cpp is None:
        raise MapError(f"{what}: no 'cpp' accessor (the C++ register file needs one for every field)")
    if r.access == "rw":
        mt = CFG_ARRAY.match(f.cpp)
        if mt:
            if not r.is_array:
                raise MapError(f"{what}: cpp {f.cpp!r} indexes [k] but the register is not an array")
            return "kConfig", ("array", mt.group(1), mt.group(2))
        mt = CFG_SCALAR.match(f.cpp)
        if mt:
            if r.is_array:
                raise MapError(f"{what}: cpp {f.cpp!r}: an array register needs cfg.<vector>[k]")
            return "kConfig", ("scalar", mt.group(1))
        raise MapError(f"{what}: cpp {f.cpp!r}: a read-write field needs cfg.<member> or cfg.<vector>[k].<member>")
    if PARAMS_MEMBER.match(f.cpp):
        return "kParams", None
    if f.cpp.startswith(("core.", "stats.")):
        return "kCore", None
    raise MapError(f"{what}: cpp {f.cpp!r}: a read-only field reads params., core. or stats.")


def gen_fields(m):
    L = ["#pragma once",
         f"// {BANNER}",
         "// The field table of the register map for admission/regfile.cc: every field's place,",
         "// legality, quiesce flag and an accessor into the configuration (or the parameters, the",
         "// core's statistics), so the register file has one read, one write and one quiesce check.",
         "#include <cstddef>",
         "#include <cstdint>",
         "#include <stdexcept>",
         "#include <string>",
         "#include <type_traits>",
         "#include <utility>",
         "#include <vector>",
         "",
         "#include \"admission/regfile.h\"",
         "",
         "namespace mmusim::admission::regs {",
         "",
         "// What an accessor reads. core is null for a configuration alone (no statistics).",
         "struct FieldCtx {",
         "  const CoreConfig& cfg;",
         "  const RtlParams& params;",
         "  const AdmissionCore* core;",
         "  const CsrStats& stats;",
         "};",
         "",
         "// A configuration value the map cannot encode (regfile.cc adds the field's name).",
         "struct FieldValueError : std::invalid_argument {",
         "  using std::invalid_argument::invalid_argument;",
         "};",
         "",
         "// The map's parameters, as RtlParams members.",
         "enum class Param : uint8_t { kNone, " + ", ".join(camel(k.lower()) for k, _, _ in m.params) + " };",
         "inline uint32_t param_value(const RtlParams& p, Param s) {",
         "  switch (s) {"]
    for k, _, _ in m.params:
        L.append(f"    case Param::{camel(k.lower())}: return p.{k.lower()};")
    L += ["    case Param::kNone: break;", "  }", "  return 0;", "}",
          "inline const char* param_name(Param s) {",
          "  switch (s) {"]
    for k, _, _ in m.params:
        L.append(f"    case Param::{camel(k.lower())}: return {c_string(k)};")
    L += ["    case Param::kNone: break;", "  }", "  return \"\";", "}", "",
          "enum class Source : uint8_t {",
          "  kConst,   // the register's reset value (ID)",
          "  kParams,  // an elaboration parameter",
          "  kConfig,  // a CoreConfig member: read-write",
          "  kCore,    // the core's statistics (needs a core)",
          "};",
          "",
          "struct FieldInfo {",
          "  const char* name;",
          "  uint16_t reg;  // index in kRegisters",
          "  uint8_t lsb, width;",
          "  Param held;  // the unit keeps min(width, that parameter) low bits (kNone: width)",
          "  bool is_signed;",
          "  bool quiesce;",
          "  bool has_min, has_max;",
          "  int64_t min, max;",
          "  Param index_of;  // legal below that parameter",
          "  uint8_t n_enum;  // legal values: enum_values[0 .. n_enum) (0: no enum)",
          "  const int64_t* enum_values;",
          "  const char* enum_text;  // \"key value, ...\" for messages",
          "  int64_t reset;",
          "  Source source;",
          "  int64_t (*get)(const FieldCtx&, uint32_t k);     // k: array entry",
          "  void (*set)(CoreConfig&, uint32_t k, int64_t v);  // kConfig only; v legal",
          "  size_t (*entries)(const CoreConfig&);            // array in cfg: its vector's size",
          "};",
          "",
          "namespace field_detail {",
          "template <class T>",
          "void assign(T& dst, int64_t v) {",
          "  if constexpr (std::is_same_v<T, bool>)",
          "    dst = v != 0;",
          "  else",
          "    dst = static_cast<T>(v);",
          "}",
          "// Entry k of v, the vector grown with `fill` entries up to it.",
          "template <class V>",
          "typename V::value_type& grow(V& v, size_t k, const typename V::value_type& fill) {",
          "  if (v.size() <= k) v.resize(k + 1, fill);",
          "  return v[k];",
          "}",
          "}  // namespace field_detail",
          ""]
    # Reset entries of configuration vectors: every field mapped into them at its reset.
    vectors = {}
    parsed = {}
    for r in m.regs:
        for f in r.fields:
            src, acc = field_source(r, f)
            parsed[id(f)] = (src, acc)
            if acc and acc[0] == "array":
                vectors.setdefault(acc[1], []).append((r, f, acc[2]))
    def elem(vec):
        return f"std::decay_t<decltype(std::declval<CoreConfig&>().{vec})>::value_type"

    def vname(vec):
        return vec.replace(".", "_")

    for vec, members in vectors.items():
        struct = any(suffix for _, _, suffix in members)
        if struct and not all(suffix for _, _, suffix in members):
            raise MapError(f"cfg.{vec}: mapped both as a whole entry and by member")
        L.append(f"// An entry of CoreConfig::{vec} as the unit holds it after reset.")
        L.append(f"inline {elem(vec)} reset_{vname(vec)}_entry() {{")
        L.append(f"  {elem(vec)} e{{}};")
        for r, f, suffix in members:
            if f.cpp_enum:
                raise MapError(f"{r.name}.{f.name}: cpp_enum inside a vector is not supported")
            L.append(f"  field_detail::assign(e{suffix}, {cpp_int(field_reset_signed(r, f))});")
        L.append("  return e;")
        L.append("}")
        L.append("")
    # Accessors.
    L.append("// Accessors, one pair per field.")
    for r in m.regs:
        for f in r.fields:
            src, acc = parsed[id(f)]
            fid = f"{r.ident}_{f.name}"
            reset = cpp_int(field_reset_signed(r, f))
            if src == "kConst":
                continue
            if src == "kParams":
                L.append(f"inline int64_t get_{fid}(const FieldCtx& x, uint32_t) {{ return int64_t(x.{f.cpp}); }}")
                continue
            if src == "kCore":
                expr = f.cpp.replace("core.", "x.core->", 1) if f.cpp.startswith("core.") else f.cpp.replace("stats.", "x.stats.", 1)
                kname = "k" if r.is_array else ""
                L.append(f"inline int64_t get_{fid}(const FieldCtx& x, uint32_t {kname}) {{")
                if f.cpp_entries:
                    if not CFG_SCALAR.match(f.cpp_entries):
                        raise MapError(f"{r.name}.{f.name}: cpp_entries must be cfg.<vector>")
                    L.append(f"  if (k >= x.{f.cpp_entries}.size()) return {reset};")
                L.append(f"  return int64_t({expr});")
                L.append("}")
                continue
            if acc[0] == "array":
                vec, suffix = acc[1], acc[2]
                lv_get = f"x.cfg.{vec}[k]{suffix}"
                lv_set = f"field_detail::grow(c.{vec}, k, reset_{vname(vec)}_entry()){suffix}"
                guard = f"  if (k >= x.cfg.{vec}.size()) return {reset};"
                karg = "uint32_t k"
            else:
                lv_get = f"x.cfg.{acc[1]}"
                lv_set = f"c.{acc[1]}"
                guard = None
                karg = "uint32_t"
            L.append(f"inline int64_t get_{fid}(const FieldCtx& x, {karg}) {{")
            if guard:
                L.append(guard)
            if f.cpp_enum == "string":
                for key, v in f.enum:
                    L.append(f"  if ({lv_get} == {c_string(key)}) return {v};")
                L.append(f"  throw FieldValueError(\"'\" + {lv_get} + \"'\");")
            elif f.cpp_enum:
                L.append(f"  switch ({lv_get}) {{")
                for key, v in f.enum:
                    L.append(f"    case {f.cpp_enum}::{camel(key)}: return {v};")
                L.append("    default: break;")
                L.append("  }")
                L.append(f"  throw FieldValueError(std::to_string(int({lv_get})) + \" ({f.cpp_enum})\");")
            else:
                L.append(f"  return int64_t({lv_get});")
            L.append("}")
            L.append(f"inline void set_{fid}(CoreConfig& c, {karg}, int64_t v) {{")
            if f.cpp_enum == "string":
                L.append("  switch (v) {")
                for key, v in f.enum:
                    L.append(f"    case {v}: {lv_set} = {c_string(key)}; return;")
                L.append("  }")
            elif f.cpp_enum:
                L.append("  switch (v) {")
                for key, v in f.enum:
                    L.append(f"    case {v}: {lv_set} = {f.cpp_enum}::{camel(key)}; return;")
                L.append("  }")
            else:
                L.append(f"  field_detail::assign({lv_set}, v);")
            L.append("}")
            if acc[0] == "array":
                L.append(f"inline size_t entries_{fid}(const CoreConfig& c) {{ return c.{vec}.size(); }}")
    L.append("")
    for r in m.regs:
        for f in r.fields:
            if f.enum:
                L.append(f"inline constexpr int64_t kEnum_{r.ident}_{f.name}[] = {{" +
                         ", ".join(str(v) for _, v in f.enum) + "};")
    L += ["", "// In map order; columns as FieldInfo: name, reg, lsb, width, held, is_signed, quiesce,",
          "// has_min, has_max, min, max, index_of, n_enum, enum_values, enum_text, reset, source,",
          "// get, set, entries.",
          "inline constexpr FieldInfo kFields[] = {"]
    for ri, r in enumerate(m.regs):
        for f in r.fields:
            src, acc = parsed[id(f)]
            fid = f"{r.ident}_{f.name}"
            p = lambda s: f"Param::{camel(s.lower())}" if s else "Param::kNone"
            enum_text = ", ".join(f"{k} {v}" for k, v in f.enum)
            cells = [c_string(f.name), str(ri), str(f.lsb), str(f.width), p(f.held),
                     "true" if f.signed else "false", "true" if f.quiesce else "false",
                     "true" if f.min is not None else "false", "true" if f.max is not None else "false",
                     cpp_int(f.min or 0), cpp_int(f.max or 0), p(f.index_of), str(len(f.enum)),
                     f"kEnum_{fid}" if f.enum else "nullptr", c_string(enum_text),
                     cpp_int(field_reset_signed(r, f)), f"Source::{src}",
                     "nullptr" if src == "kConst" else f"get_{fid}",
                     f"set_{fid}" if src == "kConfig" else "nullptr",
                     f"entries_{fid}" if acc and acc[0] == "array" else "nullptr"]
            L.append("    {" + ", ".join(cells) + "},")
    L += ["};", "", "}  // namespace mmusim::admission::regs"]
    return "\n".join(L) + "\n"


def field_reset_signed(r, f):
    v = r.field_reset(f) or 0
    if f.signed and v >> (f.width - 1):
        v -= 1 << f.width
    return v


def md_cell(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def gen_md(m):
    any_q = any(f.quiesce for r in m.regs for f in r.fields)
    out = [f"<!-- {BANNER} -->",
           "",
           f"# Registers of {m.name}",
           "",
           md_cell(m.desc),
           "",
           f"{m.data_width}-bit registers at {m.addr_width}-bit word addresses. Over TLM-2.0 "
           "(`hw-model/mmu/csr_target.h`) the byte address is the word address x 4 and every "
           "access is 4 bytes. Array entry k of a register is at its address + k x stride. "
           "Bits outside every field read 0 and ignore writes.",
           "",
           "Constants: `rtl/mmu_regs_pkg.sv` (package `mmu_regs_pkg`) and "
           "`hw-model/admission/regs.h` (namespace `mmusim::admission::regs`): `REG_ADDR`, "
           "`REG_STRIDE`, `REG_RESET`, `REG_FIELD_LSB`, `REG_FIELD_W`, `REG_FIELD_MASK`, "
           "`REG_FIELD_KEY` for enum values, `SYM_MAX` for the array parameters. In SystemVerilog "
           "refer to them as `mmu_regs_pkg::NAME` (yosys 0.23 does not parse `import` of a package). "
           "The register block `rtl/mmu_adm_csr.sv` (decode, resets, access rights, the Legal and "
           "Quiesce columns below) and the C++ field table `hw-model/admission/regfile_fields.h` "
           "are generated too (`docs/rtl.md`, \"Register block\"). "
           "Regenerate everything with `/usr/bin/python3 scripts/gen_regs.py`; "
           "ctest `regs_generated_up_to_date` fails when a checked-in file is stale.",
           "",
           "A write is refused whole (`cfg_error_o`; the C++ register file throws naming the field) "
           "when a field's value is not in its Legal column; \"< NPOOLS\" and \"< NPROF\" are the "
           "unit's parameters, \"unit hook\" a check of the unit's own (`CTRL.policy`: a policy "
           "the unit was built without, `POLICIES`; the unit resets to its first policy).",
           "",
           "## Map",
           "",
           "| Register | Address | Entries | Stride | Access | Reset | Description |",
           "|---|---|---|---|---|---|---|"]
    for r in sorted(m.regs, key=lambda x: x.addr):
        entries = f"{r.count} (at most {r.count_max})" if r.is_array else "1"
        out.append(f"| [{r.name}](#{r.name.lower()}) | 0x{r.addr:03x} | {entries} | "
                   f"{r.stride if r.is_array else ''} | {r.access} | "
                   f"{'' if r.reset is None else f'0x{r.reset:x}'} | {md_cell(r.desc)} |")
    if m.symbols:
        out += ["", "Array sizes are elaboration parameters read back in "
                + ", ".join(sorted({f'{m.symbol_field[s][0].name}' for s in m.symbols})) + ":", ""]
        for s in m.symbols:
            reg, f = m.symbol_field[s]
            out.append(f"- {s} = {reg.name}.{f.name}, at most {m.symbol_max[s]} "
                       f"({f.width}-bit field{', room in the map' if m.symbol_max[s] < (1 << f.width) - 1 else ''}).")
        for r in m.regs:
            if r.is_array and len(r.factors) > 1:
                out.append(f"- {r.count} at most {r.count_max} (room of {r.name}).")
    out.append("")
    for r in m.regs:
        out.append(f"## {r.name}")
        out.append("")
        where = f"0x{r.addr:03x}"
        if r.is_array:
            where += f" + k x {r.stride}, k < {r.count}"
        reset = "none (value from the unit)" if r.reset is None else f"0x{r.reset:x}"
        out.append(f"Address {where}; access {r.access}; reset {reset}.")
        if r.desc:
            out.append("")
            out.append(md_cell(r.desc))
        out.append("")
        head = "| Bits | Field | Reset | Legal | Description |"
        rule = "|---|---|---|---|---|"
        if any_q:
            head = "| Bits | Field | Reset | Legal | Quiesce | Description |"
            rule = "|---|---|---|---|---|---|"
        out += [head, rule]
        for f in sorted(r.fields, key=lambda x: -x.lsb):
            desc = f.desc
            if f.enum:
                desc = (desc + ". " if desc else "") + "Values: " + ", ".join(
                    f"`{r.name}_{f.name.upper()}_{k.upper()}` = {v}" for k, v in f.enum)
            fr = r.field_reset(f)
            if f.held:
                desc = (desc + ". " if desc else "") + f"Held in the low {f.held} bits"
            if f.signed:
                desc = (desc + ". " if desc else "") + "Two's complement"
            if f.reset_param:
                desc = (desc + ". " if desc else "") + (f"The block resets it to its parameter "
                                                        f"{r.name}_{f.name.upper()}_RESET")
            cells = [f.bits(), f.name, "" if fr is None else f"0x{fr:x}", md_cell(f.legal_text())]
            if any_q:
                cells.append("yes" if f.quiesce else "")
            cells.append(md_cell(desc))
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    if any_q:
        out += ["Quiesce: the field may change only while the buffer is empty.", ""]
    return "\n".join(out)


def generate(map_path):
    try:
        with open(map_path, encoding="utf-8") as fh:
            j = json.load(fh)
    except (OSError, ValueError) as e:
        raise MapError(f"{map_path}: {e}")
    if not isinstance(j, dict):
        raise MapError(f"{map_path}: the map must be a JSON object")
    m = RegMap(j)
    return {OUT_BLOCK: gen_block(m), OUT_SV: gen_sv(m), OUT_H: gen_h(m), OUT_FIELDS: gen_fields(m),
            OUT_MD: gen_md(m)}


def write_atomic(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with the files on disk; exit 1 naming stale files")
    ap.add_argument("--root", default=ROOT, help="repository root (default: this script's ..)")
    ap.add_argument("--map", help=f"register map (default: ROOT/{SRC})")
    ap.add_argument("--out-dir", help="write the generated files under this directory instead of ROOT")
    a = ap.parse_args(argv)
    try:
        files = generate(a.map or os.path.join(a.root, SRC))
    except MapError as e:
        print(f"gen_regs: {e}", file=sys.stderr)
        return 2
    out = a.out_dir or a.root
    stale = []
    for rel, text in files.items():
        path = os.path.join(out, rel)
        try:
            with open(path, encoding="utf-8", newline="") as fh:
                current = fh.read()
        except OSError:
            current = None
        if current == text:
            continue
        if a.check:
            stale.append(rel)
        else:
            write_atomic(path, text)
            print(f"gen_regs: wrote {rel}")
    if stale:
        for rel in stale:
            print(f"gen_regs: {rel} is stale; run scripts/gen_regs.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
