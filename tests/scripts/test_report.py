#!/usr/bin/env python3
"""scripts/report.py, scripts/plot.py and scripts/loopnest_results.py on small synthetic Google
Benchmark JSON: medians of repetitions, the speedup columns, cshift names of both forms, the
command lines and their exit statuses. Standard library only; matplotlib is not needed (the
test that needs it missing hides it)."""
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")
SCRIPTS = os.path.normpath(SCRIPTS)
# The scripts' folder must not fill with __pycache__ from a test run.
sys.dont_write_bytecode = True
sys.path.insert(0, SCRIPTS)

import loopnest_results  # noqa: E402

CONTEXT = {"date": "2026-01-01T00:00:00+00:00", "device": "test device",
           "execution_space": "Serial", "git_commit": "0" * 40,
           "copy_bytes_per_second": "100000000000.0"}


def entry(name, time_us, pct=50.0, **more):
    """One benchmark of a JSON file, as Google Benchmark writes a single run."""
    full = name + "/manual_time"
    b = dict(name=full, run_name=full, run_type="iteration", repetitions=1, real_time=time_us,
             time_unit="us", bytes_per_second=1e9, pct_copy=pct)
    b.update(more)
    return b


def repetitions(name, times, pct=50.0):
    """A benchmark run len(times) times: the runs, then Google Benchmark's aggregates."""
    full = name + "/manual_time"
    runs = [entry(name, t, pct, repetitions=len(times), repetition_index=i)
            for i, t in enumerate(times)]
    ordered = sorted(times)
    aggregates = {"mean": sum(times) / len(times), "median": ordered[len(times) // 2],
                  "stddev": 1.0}
    for kind, value in aggregates.items():
        runs.append(dict(name=f"{full}_{kind}", run_name=full, run_type="aggregate",
                         aggregate_name=kind, repetitions=len(times), real_time=value,
                         time_unit="us", bytes_per_second=1e9, pct_copy=pct))
    return runs


def write_json(directory, file_name, benchmarks):
    path = os.path.join(directory, file_name)
    with open(path, "w") as f:
        json.dump({"context": CONTEXT, "benchmarks": benchmarks}, f)
    return path


def run_script(script, *args, env=None):
    full_env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **(env or {}))
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, script), *args],
                          capture_output=True, text=True, env=full_env)


def markdown_rows(text, title):
    """The rows of the Markdown table under `#### title`, each a list of its cells."""
    lines = text.splitlines()
    start = lines.index(f"#### {title}") + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[0], rows[2:]  # the header, then the rows after the |---| line


def cshift_benchmarks(old_names):
    """rank 3, fp64, layout left, 8^3, dim 0, shifts +1 and -1, three strategies."""
    out = []
    for shift in (1, -1):
        for strategy, time_us in (("device_table", 2.0), ("host_table_copy", 5.0),
                                  ("no_table", 3.0)):
            if old_names:
                name = f"cshift/3d/{strategy}/left/fp64/8x8x8/dim0/shift{shift}"
            else:
                name = (f"cshift/rank3/strategy-{strategy}/layout-left/fp64/8x8x8/dim0/"
                        f"shift{shift}")
            out.append(entry(name, time_us + (shift < 0), pct=10.0 * time_us,
                             table_build_us=1.0, table_us_per_call=0.5, transfers_per_call=1.0))
    return out


class Results(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_median_of_repetitions_is_used(self):
        name = "layouts/pack/collapse3/contiguous/fp64/16x16x16x7"
        path = write_json(self.dir, "a.json", repetitions(name, [10.0, 11.0, 40.0]))
        rows, _ = loopnest_results.load([path])
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["time"], 11.0)  # not the mean 20.3, nor the last run 40
        self.assertTrue(rows[0]["median"])
        self.assertEqual(rows[0]["repetitions"], 3)
        # A single run in a later file does not replace the median.
        later = write_json(self.dir, "b.json", [entry(name, 99.0)])
        rows, _ = loopnest_results.load([path, later])
        self.assertEqual(rows[0]["time"], 11.0)

    def test_time_units_become_microseconds(self):
        name = "layouts/pack/collapse3/contiguous/fp64/16x16x16x7"
        path = write_json(self.dir, "a.json", [entry(name, 2500.0, time_unit="ns")])
        rows, _ = loopnest_results.load([path])
        self.assertAlmostEqual(rows[0]["time"], 2.5)

    def test_speedup_columns(self):
        benchmarks = []
        for extents, auto in (("16x16x16x7", 10.4), ("32x32x32x7", 12.0)):
            for schedule, time_us in (("collapse3", 10.0), ("collapse4", 25.0),
                                      ("kokkos_default", 40.0), ("automatic", auto)):
                benchmarks.append(entry(f"layouts/pack/{schedule}/contiguous/fp64/{extents}",
                                        time_us))
        path = write_json(self.dir, "layouts.json", benchmarks)
        result = run_script("report.py", path, "--markdown")
        self.assertEqual(result.returncode, 0, result.stderr)
        header, rows = markdown_rows(result.stdout, "layouts/pack fp64: pct_copy")
        self.assertEqual(header, ["extents", "c3", "c4", "kd", "auto", "c3/c4", "c3/kd",
                                  "auto<=5%"])
        self.assertEqual(rows[0], ["16x16x16x7", "50.0", "50.0", "50.0", "50.0", "2.50", "4.00",
                                   "yes"])
        self.assertEqual(rows[1][5:], ["2.50", "4.00", "NO"])  # automatic 20% slower


class CshiftNames(unittest.TestCase):
    NEW = "cshift/rank3/strategy-host_table_copy/layout-right/fp32/64x64x64/dim2/shift-1"
    OLD = "cshift/3d/host_table_copy/right/fp32/64x64x64/dim2/shift-1"

    def test_new_name_fields(self):
        fields = loopnest_results.parse_name(self.NEW)
        self.assertEqual({k: fields[k] for k in ("family", "rank", "strategy", "layout",
                                                 "precision", "extents", "dim", "shift")},
                         dict(family="cshift", rank=3, strategy="host_table_copy",
                              layout="right", precision="fp32", extents="64x64x64", dim=2,
                              shift=-1))

    def test_old_name_is_read_as_the_new(self):
        self.assertEqual(loopnest_results.normalise_name(self.OLD), self.NEW)
        self.assertEqual(loopnest_results.normalise_name("layouts/pack/flat/contiguous/fp64/8"),
                         "layouts/pack/flat/contiguous/fp64/8")

    def test_old_and_new_files_give_the_same_tables(self):
        with tempfile.TemporaryDirectory() as tmp:
            old = write_json(tmp, "old.json", cshift_benchmarks(old_names=True))
            new = write_json(tmp, "new.json", cshift_benchmarks(old_names=False))
            old_out = run_script("report.py", old, "--markdown")
            new_out = run_script("report.py", new, "--markdown")
            self.assertEqual(new_out.returncode, 0, new_out.stderr)
            self.assertEqual(old_out.stdout, new_out.stdout)
            header, rows = markdown_rows(new_out.stdout, "cshift/3d fp64 left: pct_copy")
            self.assertEqual(header, ["extents/dim/shift", "dt", "htc", "none", "htc/dt"])
            # shift -1 sorts first; host_table_copy over device_table is 6/3 there, 5/2 else.
            self.assertEqual(rows, [["8x8x8/dim0/shift-1", "20.0", "50.0", "30.0", "2.00"],
                                    ["8x8x8/dim0/shift1", "20.0", "50.0", "30.0", "2.50"]])
            # Both files hold the same six benchmarks, so together they are six rows.
            rows, _ = loopnest_results.load([old, new])
            self.assertEqual(len(rows), 6)

    def test_unknown_cshift_name_is_reported(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_json(tmp, "c.json", [entry("cshift/rank3/device_table/left/fp64/8x8x8/"
                                                    "dim0/shift1", 1.0)])
            stderr = io.StringIO()
            with contextlib.redirect_stderr(stderr):
                rows, _ = loopnest_results.load([path])
            self.assertEqual(rows, [])
            self.assertIn("skipped cshift/rank3/device_table", stderr.getvalue())


class CommandLines(unittest.TestCase):
    def option_help(self, text, option):
        """The help text argparse prints for an option: its line and the indented ones after."""
        lines = text.splitlines()
        for i, line in enumerate(lines):
            words = line.split()
            if line.startswith("  ") and words and words[0].rstrip(",") == option:
                own = line.strip()[len(option):].strip()
                for more in lines[i + 1:]:
                    if not more.startswith(" " * 6):
                        break
                    own += " " + more.strip()
                return own
        self.fail(f"{option} is not in --help:\n{text}")

    def test_help_documents_every_option(self):
        for script, options in (("report.py", ["RESULT.json", "--markdown", "--write", "--no-plots"]),
                                ("plot.py", ["OUT_DIR", "RESULT.json"])):
            result = run_script(script, "--help")
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn(f"usage: {script}", result.stdout)
            for option in options:
                text = self.option_help(result.stdout, option)
                self.assertGreater(len(text.split()), 4, f"{script} {option}: '{text}'")

    def test_usage_errors_exit_2(self):
        for script, args in (("report.py", []), ("report.py", ["--write"]),
                             ("report.py", ["--write", "results", "x.json"]),
                             ("report.py", ["x.json", "--no-plots"]), ("plot.py", ["out"])):
            result = run_script(script, *args)
            self.assertEqual(result.returncode, 2, f"{script} {args}: {result.stderr}")
            self.assertIn("usage:", result.stderr)

    def test_markdown_may_stand_among_the_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            a = write_json(tmp, "a.json", [entry("layouts/pack/flat/contiguous/fp64/8x8x8x5", 1)])
            b = write_json(tmp, "b.json", [entry("layouts/copy/flat/contiguous/fp64/8x8x8x5", 1)])
            first = run_script("report.py", "--markdown", a, b)
            between = run_script("report.py", a, "--markdown", b)
            self.assertEqual(between.returncode, 0, between.stderr)
            self.assertEqual(first.stdout, between.stdout)
            self.assertIn("#### layouts/copy fp64: pct_copy", between.stdout)

    def test_write_without_matplotlib_exits_3(self):
        with tempfile.TemporaryDirectory() as tmp:
            hidden = os.path.join(tmp, "hide")
            os.makedirs(os.path.join(hidden, "matplotlib"))
            with open(os.path.join(hidden, "matplotlib", "__init__.py"), "w") as f:
                f.write("raise ImportError('matplotlib hidden by the test')\n")
            results = os.path.join(tmp, "results")
            os.makedirs(results)
            write_json(results, "cshift.json", cshift_benchmarks(old_names=False))
            result = run_script("report.py", "--write", results, env={"PYTHONPATH": hidden})
            self.assertEqual(result.returncode, 3, result.stderr)
            with open(os.path.join(results, "report.md")) as f:
                text = f.read()
            self.assertIn("#### cshift/3d fp64 left: pct_copy", text)
            self.assertNotIn("## Plots", text)
            result = run_script("report.py", "--write", results, "--no-plots",
                                env={"PYTHONPATH": hidden})
            self.assertEqual(result.returncode, 0, result.stderr)

    def test_scripts_do_not_import_each_other(self):
        # plot.py must load without report.py, and the shared module without either script.
        probe = ("import sys; sys.path.insert(0, sys.argv[1]); import plot; "
                 "print(sorted(m for m in ('report', 'plot', 'loopnest_results') "
                 "if m in sys.modules))")
        result = subprocess.run([sys.executable, "-B", "-c", probe, SCRIPTS], capture_output=True,
                                text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), "['loopnest_results', 'plot']")
        with open(os.path.join(SCRIPTS, "loopnest_results.py")) as f:
            source = f.read()
        self.assertNotIn("import report", source)
        self.assertNotIn("import plot", source)


if __name__ == "__main__":
    unittest.main(verbosity=2)
