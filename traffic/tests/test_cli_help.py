"""The traffic tools' command lines as a new user meets them (issue 14): every option says
what it is, every option with a default gives it; the sweep's progress rewrites one line
on a terminal and writes whole lines into a log."""
import argparse
import importlib
import io
import unittest
from unittest import mock

from traffic import sweep

# Every traffic.* module with a command line (python3 -m traffic.NAME).
TOOLS = ["traffic.trace", "traffic.sweep", "traffic.experiments", "traffic.incast",
         "traffic.plot_timeseries", "traffic.plot_compare"]


class _Parser(Exception):
    pass


def parser_of(module):
    """The parser the module's main() builds, caught before it parses anything."""
    def grab(self, *args, **kwargs):
        raise _Parser(self)
    with mock.patch.object(argparse.ArgumentParser, "parse_args", grab):
        try:
            importlib.import_module(module).main([])
        except _Parser as e:
            return e.args[0]
    raise AssertionError(f"{module}.main() built no parser")


def options(parser, prefix):
    """(name, action) of every argument, subcommands' included."""
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sub in a.choices.items():
                yield from options(sub, f"{prefix} {name}")
        elif not isinstance(a, argparse._HelpAction):
            yield f"{prefix} {a.option_strings[-1] if a.option_strings else a.dest}", a


class HelpTexts(unittest.TestCase):
    def test_every_option_is_explained_and_gives_its_default(self):
        seen = 0
        for module in TOOLS:
            for name, a in options(parser_of(module), module):
                seen += 1
                with self.subTest(option=name):
                    self.assertTrue(a.help and a.help.strip(), "no help text")
                    takes_value = a.nargs != 0 and not isinstance(a, argparse._StoreConstAction)
                    if a.option_strings and takes_value and not a.required:
                        self.assertIn("default", a.help, "an optional value without its default")
        self.assertGreater(seen, 30)


class SweepProgress(unittest.TestCase):
    def report(self, tty, total):
        err = io.StringIO()
        err.isatty = lambda: tty
        with mock.patch("sys.stderr", err):
            for done in range(1, total + 1):
                sweep.progress(done, total)
        return err.getvalue()

    def test_a_log_gets_whole_lines_every_tenth(self):
        out = self.report(False, 40)
        self.assertNotIn("\r", out)
        lines = out.splitlines()
        self.assertEqual(lines[-1], "sweep: 40/40 points")
        self.assertEqual(len(lines), 10)  # 4, 8, ..., 40

    def test_a_terminal_gets_one_rewritten_line(self):
        out = self.report(True, 5)
        self.assertEqual(out.count("\r"), 5)
        self.assertEqual(out.count("\n"), 1)
        self.assertTrue(out.endswith("sweep: 5/5 points\n"))


if __name__ == "__main__":
    unittest.main()
