#!/usr/bin/env python3
"""Generate the register-map artefacts from rtl/regmap.json (the one definition).

Writes
  rtl/mmu_regs_pkg.sv          SystemVerilog package mmu_regs_pkg (localparams)
  hw-model/admission/regs.h    the same constants for C++ (mmusim::admission::regs)
  docs/registers.md            one table per register

Usage: scripts/gen_regs.py            write the three files
       scripts/gen_regs.py --check    exit 1 naming every file that differs from what
                                      would be generated (the ctest regs_generated_up_to_date)

Names of the constants (REG = register name, FIELD = field name in upper case):
  REG_ADDR                 word address (array: address of entry 0)
  REG_STRIDE               array: words between entries
  REG_COUNT_MAX            array: entries that fit before the next register
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
        self.quiesce = bool(j.get("quiesce", False))
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
        unknown = set(j) - {"name", "lsb", "width", "desc", "enum", "quiesce"}
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
            if self.stride < 1:
                raise MapError(f"{what}: stride must be >= 1")
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
        unknown = set(j) - {"name", "addr", "access", "desc", "reset", "count", "stride", "fields"}
        if unknown:
            raise MapError(f"{what}: unknown keys {sorted(unknown)}")
        self.count_max = None  # filled by RegMap
        self.group = None

    @property
    def is_array(self):
        return self.count is not None

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
        self.regs = [Register(r, self.data_width, self.addr_width) for r in j["registers"]]
        self._check_names_and_addresses()
        self._symbols()
        self._room()
        self._groups()
        self._check_constant_names()

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
        # that fit before the next register that is not one of its interleaved partners (or
        # the end of the address space).
        top = 1 << self.addr_width
        for r in self.regs:
            if not r.is_array:
                continue
            barrier = top
            for o in self.regs:
                if o is r or o.addr <= r.addr:
                    continue
                partner = (o.is_array and o.count == r.count and o.stride == r.stride
                           and abs(o.addr - r.addr) < r.stride)
                if not partner:
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
        # Every array must hold at least one entry at the smallest parameters (1 each).
        for r in self.regs:
            if r.is_array and r.count_max < 1:
                raise MapError(f"register {r.name}: no room for one entry")

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
                out.append((f"{r.name}_COUNT_MAX", r.count_max, "entries before the next register"))
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
              "};",
              "",
              "inline constexpr RegInfo kRegisters[] = {"]
    for r in m.regs:
        count = " | ".join(f"COUNT_{s}" for s in r.factors) if r.factors else "0"
        lines.append(f"    {{{c_string(r.name)}, {r.name}_ADDR, {r.stride or 0}, {count}, "
                     f"{r.count_max or 0}, Access::{'kRo' if r.access == 'ro' else 'kRw'}, "
                     f"{'true' if r.reset is not None else 'false'}, {fmt_c('_RESET', r.reset or 0)}, "
                     f"{fmt_c('_MASK', r.used_mask)}}},")
    lines += ["};", "", "}  // namespace mmusim::admission::regs"]
    return "\n".join(lines) + "\n"


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
           "Regenerate all three with `/usr/bin/python3 scripts/gen_regs.py`; "
           "`--check` (ctest `regs_generated_up_to_date`) fails when one is stale.",
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
        head = "| Bits | Field | Reset | Description |"
        rule = "|---|---|---|---|"
        if any_q:
            head = "| Bits | Field | Reset | Quiesce | Description |"
            rule = "|---|---|---|---|---|"
        out += [head, rule]
        for f in sorted(r.fields, key=lambda x: -x.lsb):
            desc = f.desc
            if f.enum:
                desc = (desc + ". " if desc else "") + "Values: " + ", ".join(
                    f"`{r.name}_{f.name.upper()}_{k.upper()}` = {v}" for k, v in f.enum)
            fr = r.field_reset(f)
            cells = [f.bits(), f.name, "" if fr is None else f"0x{fr:x}"]
            if any_q:
                cells.append("yes" if f.quiesce else "")
            cells.append(md_cell(desc))
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    if any_q:
        out += ["Quiesce: the field may change only while the buffer is empty.", ""]
    return "\n".join(out)


def generate(root):
    path = os.path.join(root, SRC)
    try:
        with open(path, encoding="utf-8") as fh:
            j = json.load(fh)
    except (OSError, ValueError) as e:
        raise MapError(f"{SRC}: {e}")
    m = RegMap(j)
    return {OUT_SV: gen_sv(m), OUT_H: gen_h(m), OUT_MD: gen_md(m)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with the files on disk; exit 1 naming stale files")
    ap.add_argument("--root", default=ROOT, help="repository root (default: this script's ..)")
    a = ap.parse_args(argv)
    try:
        files = generate(a.root)
    except MapError as e:
        print(f"gen_regs: {e}", file=sys.stderr)
        return 2
    stale = []
    for rel, text in files.items():
        path = os.path.join(a.root, rel)
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
            with open(path, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
            print(f"gen_regs: wrote {rel}")
    if stale:
        for rel in stale:
            print(f"gen_regs: {rel} is stale; run scripts/gen_regs.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
