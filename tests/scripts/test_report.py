#!/usr/bin/env python3
"""scripts/report.py, scripts/plot.py and scripts/loopnest_results.py on small synthetic Google
Benchmark JSON: medians of repetitions, the speedup columns, cshift names of both forms, the
names of the MPI benchmark (halo, halo_reference, scaling) with their tables and the halo
bandwidth plot, the diffusion/advance names (temporal-k<K>) with their table and plots, the command
lines and their exit statuses. Standard library only; matplotlib is
not needed (the test that needs it missing hides it; the plot tests check where it imports that
the plots are drawn, and elsewhere that the scripts say it is missing)."""
import contextlib
import importlib.util
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


def plotted(test, out, files):
    """plot.py's run on files into out, checked to succeed; None, once checked to fail with exit
    status 2 and a message, where matplotlib does not import."""
    result = run_script("plot.py", out, *files)
    if not matplotlib_imports():
        test.assertEqual(result.returncode, 2, result.stderr)
        test.assertIn("matplotlib is missing", result.stderr)
        return None
    test.assertEqual(result.returncode, 0, result.stderr)
    return result


def drawn_figures(test, function, files, out):
    """The paths plot.<function> writes for the rows of files, and its figures by file name, kept
    open (instead of saved) until the test ends."""
    import plot
    rows, context = loopnest_results.load(files)
    figures = {}

    def keep(fig, path):
        figures[os.path.basename(path)] = fig
        return path

    saved, plot.save = plot.save, keep
    try:
        plot.load_matplotlib()
        written = getattr(plot, function)(rows, context, out)
    finally:
        plot.save = saved
    test.addCleanup(lambda: [plot.plt.close(fig) for fig in figures.values()])
    return written, figures


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
        result = run_script("report.py", path, "--markdown", "--full")
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
            old_out = run_script("report.py", old, "--markdown", "--full")
            new_out = run_script("report.py", new, "--markdown", "--full")
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


def matplotlib_imports():
    return importlib.util.find_spec("matplotlib") is not None


def halo_entry(name, gbs, **counters):
    """One entry of bench/halo.cpp: fixed iterations and manual time, as it names them."""
    full = name + "/iterations:50/manual_time"
    b = dict(name=full, run_name=full, run_type="iteration", repetitions=1, real_time=0.1,
             time_unit="ms", bytes_per_second=gbs * 1e9)
    b.update(counters)
    return b


def halo_sweep(n, precisions=("fp64",)):
    """The halo families of one size n (8 variables, 4 ghost layers, 2 GPUs), in the order the
    benchmark writes them: the references, then the transports. GB/s scale with n; the nccl
    transport is 60% of nccl_sendrecv and 250% of mpi_sendrecv, mpi_host 8% and 40%."""
    out = []
    for precision in precisions:
        shape = f"{precision}/{n}x{n}x{n}x8/ghost4/gpus2"
        scale = n / 16
        out += [halo_entry(f"halo_reference/nccl_sendrecv/{shape}", 20.0 * scale),
                halo_entry(f"halo_reference/mpi_sendrecv/{shape}", 4.0 * scale),
                halo_entry(f"halo/mpi_host/{shape}", 2.0 * scale, pct_nccl_sendrecv=8.0,
                           pct_mpi_sendrecv=40.0),
                halo_entry(f"halo/nccl/{shape}", 10.0 * scale, pct_nccl_sendrecv=60.0,
                           pct_mpi_sendrecv=250.0)]
    return out


def scaling_benchmarks():
    """scaling/diffusion fp64 on 64x64: one rank and nccl on two, weak and strong."""
    out = []
    for mode, time2 in (("weak", 1.25), ("strong", 0.625)):
        out.append(halo_entry(f"scaling/diffusion/{mode}/none/fp64/64x64/gpus1", 0.0,
                              gcells_per_second=100.0))
        out.append(halo_entry(f"scaling/diffusion/{mode}/nccl/fp64/64x64/gpus2", 0.0,
                              gcells_per_second=160.0, speedup=1.6, efficiency=0.8))
        out[-1]["real_time"] = time2
    for b in out:
        del b["bytes_per_second"]  # scaling entries count cells, not bytes
    return out


class HaloNames(unittest.TestCase):
    def fields(self, name, keys):
        fields = loopnest_results.parse_name(name)
        self.assertIsNotNone(fields, name)
        return {k: fields[k] for k in keys}

    def test_halo_name_fields(self):
        keys = ("family", "kernel", "schedule", "transport", "precision", "extents", "n", "nvar",
                "ghost", "gpus", "message_bytes")
        self.assertEqual(self.fields("halo/nccl/fp64/16x16x16x8/ghost4/gpus2", keys),
                         dict(family="halo", kernel="exchange", schedule="nccl", transport="nccl",
                              precision="fp64", extents="16x16x16x8", n=16, nvar=8, ghost=4,
                              gpus=2, message_bytes=4 * 16 * 16 * 8 * 8))
        # One x face: ghost x ny x nz x nvar values of 4 bytes.
        self.assertEqual(self.fields("halo/mpi_host/fp32/9x10x11x3/ghost2/gpus4", keys),
                         dict(family="halo", kernel="exchange", schedule="mpi_host",
                              transport="mpi_host", precision="fp32", extents="9x10x11x3", n=9,
                              nvar=3, ghost=2, gpus=4, message_bytes=2 * 10 * 11 * 3 * 4))
        self.assertIsNone(loopnest_results.parse_name(
            "halo/nccl/fp16/16x16x16x8/ghost4/gpus2")["message_bytes"])

    def test_halo_reference_name_fields(self):
        keys = ("family", "kernel", "transport", "precision", "extents", "ghost", "gpus",
                "message_bytes")
        self.assertEqual(
            self.fields("halo_reference/mpi_sendrecv/fp32/201x201x201x8/ghost4/gpus2", keys),
            dict(family="halo_reference", kernel="sendrecv", transport="mpi_sendrecv",
                 precision="fp32", extents="201x201x201x8", ghost=4, gpus=2,
                 message_bytes=4 * 201 * 201 * 8 * 4))

    def test_scaling_name_fields(self):
        keys = ("family", "kernel", "schedule", "transport", "mode", "precision", "extents",
                "gpus")
        self.assertEqual(
            self.fields("scaling/diffusion/strong/mpi_host/fp64/16384x16384/gpus8", keys),
            dict(family="scaling", kernel="diffusion", schedule="mpi_host",
                 transport="mpi_host", mode="strong", precision="fp64", extents="16384x16384",
                 gpus=8))

    def test_names_of_no_known_form_are_reported(self):
        for name in ("halo/nccl/fp64/16x16x16/ghost4/gpus2",
                     "halo_reference/nccl_sendrecv/fp64/16x16x16x8/gpus2",
                     "scaling/diffusion/sideways/nccl/fp64/64x64/gpus2"):
            self.assertIsNone(loopnest_results.parse_name(name), name)
        with tempfile.TemporaryDirectory() as tmp:
            path = write_json(tmp, "h.json", [halo_entry("halo/nccl/fp64/16x16x16/ghost4/gpus2",
                                                         1.0)])
            stderr = io.StringIO()
            with contextlib.redirect_stderr(stderr):
                rows, _ = loopnest_results.load([path])
            self.assertEqual(rows, [])
            self.assertIn("skipped halo/nccl/fp64/16x16x16/ghost4/gpus2: not a halo name",
                          stderr.getvalue())

    def test_rows_have_the_counters_and_no_iterations_suffix(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_json(tmp, "halo.json", halo_sweep(16) + scaling_benchmarks())
            rows, _ = loopnest_results.load([path])
        by_name = {r["name"]: r for r in rows}
        nccl = by_name["halo/nccl/fp64/16x16x16x8/ghost4/gpus2"]
        self.assertEqual((nccl["gbs"], nccl["pct_nccl"], nccl["pct_mpi"]), (10.0, 60.0, 250.0))
        self.assertAlmostEqual(nccl["time"], 100.0)  # 0.1 ms
        strong = by_name["scaling/diffusion/strong/nccl/fp64/64x64/gpus2"]
        self.assertEqual((strong["gcells"], strong["speedup"], strong["efficiency"]),
                         (160.0, 1.6, 0.8))
        self.assertIsNone(by_name["scaling/diffusion/weak/none/fp64/64x64/gpus1"]["speedup"])
        self.assertEqual(len(rows), 8)


class HaloReport(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        # One file per size, as a sweep writes them, the larger first; scaling with the largest.
        self.files = [write_json(self.dir, "halo_n32.json",
                                 halo_sweep(32, ("fp64", "fp32")) + scaling_benchmarks()),
                      write_json(self.dir, "halo_n16.json", halo_sweep(16, ("fp64", "fp32")))]

    def tearDown(self):
        self.tmp.cleanup()

    def test_halo_and_scaling_tables(self):
        result = run_script("report.py", *self.files, "--markdown")
        self.assertEqual(result.returncode, 0, result.stderr)
        header, rows = markdown_rows(result.stdout,
                                     "halo fp64, 2 GPUs: exchange bandwidth (GB/s sent per rank)")
        self.assertEqual(header, ["extents/ghost", "message", "mpi_host", "nccl",
                                  "ref nccl_sendrecv", "ref mpi_sendrecv", "mpi_host %ref",
                                  "nccl %ref"])
        # By message size; each transport against the reference of its own kind.
        self.assertEqual(rows, [["16x16x16x8/ghost4", "64 KiB", "2.0", "10.0", "20.0", "4.0",
                                 "40.0", "60.0"],
                                ["32x32x32x8/ghost4", "256 KiB", "4.0", "20.0", "40.0", "8.0",
                                 "40.0", "60.0"]])
        _, rows = markdown_rows(result.stdout,
                                "halo fp32, 2 GPUs: exchange bandwidth (GB/s sent per rank)")
        self.assertEqual([row[:2] for row in rows], [["16x16x16x8/ghost4", "32 KiB"],
                                                     ["32x32x32x8/ghost4", "128 KiB"]])
        header, rows = markdown_rows(result.stdout,
                                     "scaling/diffusion fp64: weak and strong scaling")
        self.assertEqual(header, ["mode extents", "transport", "gpus", "time_us", "Gcells/s",
                                  "speedup", "efficiency"])
        self.assertEqual(rows, [["weak 64x64", "none", "1", "100.0", "100.0", "-", "-"],
                                ["weak 64x64", "nccl", "2", "1250.0", "160.0", "1.60", "0.800"],
                                ["strong 64x64", "none", "1", "100.0", "100.0", "-", "-"],
                                ["strong 64x64", "nccl", "2", "625.0", "160.0", "1.60",
                                 "0.800"]])
        # None of the per-schedule tables, whose columns these families do not have.
        self.assertNotIn("pct_copy", result.stdout)
        self.assertNotIn("every variant at the largest extents", result.stdout)
        plain = run_script("report.py", *self.files)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        self.assertIn("ref nccl_sendrecv ref mpi_sendrecv", plain.stdout)

    def test_write_report_of_halo_json(self):
        result = run_script("report.py", "--write", self.dir)
        self.assertEqual(result.returncode, 0 if matplotlib_imports() else 3, result.stderr)
        with open(os.path.join(self.dir, "report.md")) as f:
            text = f.read()
        self.assertIn("#### halo fp64, 2 GPUs: exchange bandwidth (GB/s sent per rank)", text)
        self.assertIn("#### halo_reference fp32, 2 GPUs: exchange bandwidth", text)
        self.assertIn("#### scaling/diffusion fp64: weak and strong scaling", text)
        self.assertNotIn(": pct_copy", text)
        self.assertNotIn("every variant at the largest extents", text)
        plots = sorted(os.listdir(os.path.join(self.dir, "plots"))) if matplotlib_imports() else []
        if matplotlib_imports():
            self.assertEqual(plots, ["halo_fp32_gpus2_bandwidth.png",
                                     "halo_fp64_gpus2_bandwidth.png"])
            self.assertIn("- halo: [fp64 gpus2](plots/halo_fp64_gpus2_bandwidth.png), "
                          "[fp32 gpus2](plots/halo_fp32_gpus2_bandwidth.png)", text)
            self.assertIn("\n\nThe bandwidth of the halo exchange against the message size of one "
                          "face, a line per transport and a dashed line per plain-message "
                          "reference; drawn from", text)
        else:
            self.assertNotIn("## Plots", text)


class HaloPlot(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.files = [write_json(self.dir, f"halo_n{n}.json", halo_sweep(n, ("fp64", "fp32")))
                      for n in (16, 32, 64)]
        # A family of the usual names beside them keeps its plot; the halo families get only
        # theirs (no pct_copy plot of halo, halo_reference or scaling).
        self.files.append(write_json(
            self.dir, "more.json",
            scaling_benchmarks() + [entry("layouts/pack/collapse3/contiguous/fp64/8x8x8x5", 1.0),
                                    entry("layouts/pack/collapse3/contiguous/fp64/16x16x16x5",
                                          1.0)]))

    def tearDown(self):
        self.tmp.cleanup()

    def test_command_line(self):
        out = os.path.join(self.dir, "plots")
        result = plotted(self, out, self.files)
        if result is None:
            return
        self.assertEqual(sorted(os.listdir(out)),
                         ["halo_fp32_gpus2_bandwidth.png", "halo_fp64_gpus2_bandwidth.png",
                          "layouts_pack-x5_fp64_bandwidth.png"])
        self.assertEqual(sorted(result.stdout.split()), sorted(os.path.join(out, f)
                                                               for f in os.listdir(out)))

    @unittest.skipUnless(matplotlib_imports(), "matplotlib does not import")
    def test_lines_axes_and_title(self):
        written, figures = drawn_figures(self, "halo_plots", self.files, self.dir)
        self.assertEqual(len(written), 2)
        ax = figures["halo_fp64_gpus2_bandwidth.png"].axes[0]
        lines = {line.get_label(): line for line in ax.get_lines()}
        self.assertEqual(list(lines), ["halo/mpi_host", "halo/nccl",
                                       "halo_reference/nccl_sendrecv",
                                       "halo_reference/mpi_sendrecv"])
        face = [4 * n * n * 8 * 8 for n in (16, 32, 64)]
        self.assertEqual(list(lines["halo/nccl"].get_xdata()), face)
        self.assertEqual(list(lines["halo/nccl"].get_ydata()), [10.0, 20.0, 40.0])
        self.assertEqual(list(lines["halo_reference/mpi_sendrecv"].get_ydata()), [4.0, 8.0, 16.0])
        for label, line in lines.items():
            self.assertEqual(line.get_linestyle(), "--" if "reference" in label else "-", label)
        # A reference in the colour of its transport.
        self.assertEqual(lines["halo_reference/nccl_sendrecv"].get_color(),
                         lines["halo/nccl"].get_color())
        self.assertNotEqual(lines["halo/nccl"].get_color(), lines["halo/mpi_host"].get_color())
        self.assertEqual(ax.get_xscale(), "log")
        self.assertIn("message size", ax.get_xlabel())
        self.assertIn("GB/s", ax.get_ylabel())
        self.assertIn("fp64", ax.get_title())
        self.assertIn("test device", ax.get_title())
        fp32 = figures["halo_fp32_gpus2_bandwidth.png"].axes[0]
        self.assertEqual(list(fp32.get_lines()[0].get_xdata()), [f // 2 for f in face])


def advance_entry(variant, precision, n, steps, gcell_steps, steps_per_pass=1.0, **counters):
    """One diffusion/advance entry of bench/diffusion.cpp with its counters."""
    return entry(f"diffusion/advance/{variant}/contiguous/{precision}/{n}x{n}/steps{steps}", 1.0,
                 gcell_steps_per_second=gcell_steps, us_per_step=0.5,
                 steps_per_pass=steps_per_pass, **counters)


def advance_benchmarks(precision="fp64"):
    """Stepwise variants and temporal (default K = 2) on 64^2 and 128^2 at 100 steps and 64^2 at
    1000, and temporal-k1..k4 on 64^2 at 100 and at 1000 steps. G cell-steps/s: vectorized 150,
    flat 120, collapse 110 (collapse best at 1000 steps: 300), temporal-k<K> 100 K (10 K at 1000
    steps), temporal 200; 128^2 doubles them."""
    out = []
    for n, steps in ((64, 100), (128, 100), (64, 1000)):
        scale = n / 64
        stepwise = {"vectorized": 150.0, "flat": 120.0, "collapse": 110.0}
        if steps == 1000:
            stepwise["collapse"] = 300.0
        for variant, value in stepwise.items():
            out.append(advance_entry(variant, precision, n, steps, value * scale))
        out.append(advance_entry("temporal", precision, n, steps, 200.0 * scale, 2.0,
                                 x_single=200.0 / max(stepwise.values())))
        if n == 64:
            for k in range(1, 5):
                per_k = 100.0 if steps == 100 else 10.0
                out.append(advance_entry(f"temporal-k{k}", precision, n, steps, per_k * k,
                                         float(k), x_single=per_k * k / max(stepwise.values())))
    return out


class AdvanceNames(unittest.TestCase):
    def fields(self, name):
        fields = loopnest_results.parse_name(name)
        self.assertIsNotNone(fields, name)
        return {k: fields[k] for k in ("family", "kernel", "schedule", "variant", "k", "mapping",
                                       "precision", "extents", "n", "steps")}

    def test_temporal_k_gives_the_variant_and_k(self):
        self.assertEqual(
            self.fields("diffusion/advance/temporal-k7/contiguous/fp32/8192x8192/steps1000"),
            dict(family="diffusion", kernel="advance", schedule="temporal-k7",
                 variant="temporal", k=7, mapping="contiguous", precision="fp32",
                 extents="8192x8192/steps1000", n=8192, steps=1000))
        self.assertEqual(
            self.fields("diffusion/advance/temporal-k12/contiguous/fp64/256x256/steps10000")["k"],
            12)

    def test_variants_without_k(self):
        for variant in ("temporal", "vectorized", "flat", "collapse"):
            fields = self.fields(
                f"diffusion/advance/{variant}/contiguous/fp64/1024x1024/steps10000")
            self.assertEqual((fields["variant"], fields["k"], fields["n"], fields["steps"]),
                             (variant, None, 1024, 10000))

    def test_other_diffusion_names_keep_their_fields(self):
        fields = loopnest_results.parse_name("diffusion/step/flat/contiguous/fp64/256x256")
        self.assertEqual((fields["kernel"], fields["schedule"], fields["extents"]),
                         ("step", "flat", "256x256"))
        self.assertNotIn("k", fields)

    def test_names_of_no_known_form_are_reported(self):
        name = "diffusion/advance/temporal-kx/contiguous/fp64/64x64/steps100"
        self.assertIsNone(loopnest_results.parse_name(name))
        with tempfile.TemporaryDirectory() as tmp:
            path = write_json(tmp, "a.json", [entry(name, 1.0)])
            stderr = io.StringIO()
            with contextlib.redirect_stderr(stderr):
                rows, _ = loopnest_results.load([path])
            self.assertEqual(rows, [])
            self.assertIn(f"skipped {name}: not a diffusion/advance name", stderr.getvalue())

    def test_rows_have_the_counters(self):
        with tempfile.TemporaryDirectory() as tmp:
            rows, _ = loopnest_results.load([write_json(tmp, "a.json", advance_benchmarks())])
        by_name = {r["name"]: r for r in rows}
        row = by_name["diffusion/advance/temporal-k3/contiguous/fp64/64x64/steps100"]
        self.assertEqual((row["gcell_steps"], row["steps_per_pass"], row["k"]), (300.0, 3.0, 3))
        self.assertAlmostEqual(row["x_single"], 2.0)
        self.assertIsNone(by_name["diffusion/advance/flat/contiguous/fp64/64x64/steps100"]
                          ["x_single"])


class AdvanceReport(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.path = write_json(self.dir, "diffusion.json", advance_benchmarks())

    def tearDown(self):
        self.tmp.cleanup()

    def test_table(self):
        result = run_script("report.py", self.path, "--markdown")
        self.assertEqual(result.returncode, 0, result.stderr)
        header, rows = markdown_rows(result.stdout, "diffusion/advance fp64: G cell-steps/s")
        self.assertEqual(header, ["grid/steps", "vectorized", "flat", "collapse", "temporal",
                                  "k1", "k2", "k3", "k4", "best stepwise", "temporal K",
                                  "x_single"])
        # By step count, then n; the best stepwise variant of each shape.
        self.assertEqual(rows, [
            ["64x64/steps100", "150.0", "120.0", "110.0", "200.0", "100.0", "200.0", "300.0",
             "400.0", "vectorized", "2", "1.33"],
            ["128x128/steps100", "300.0", "240.0", "220.0", "400.0", "-", "-", "-", "-",
             "vectorized", "2", "1.33"],
            ["64x64/steps1000", "150.0", "120.0", "300.0", "200.0", "10.0", "20.0", "30.0",
             "40.0", "collapse", "2", "0.67"]])

    def test_write_describes_the_plots(self):
        result = run_script("report.py", "--write", self.dir)
        self.assertEqual(result.returncode, 0 if matplotlib_imports() else 3, result.stderr)
        with open(os.path.join(self.dir, "report.md")) as f:
            text = f.read()
        if not matplotlib_imports():
            self.assertNotIn("## Plots", text)
            return
        self.assertIn("\n\nDiffusion/advance in G cell-steps/s against the steps per pass K",
                      text)
        self.assertNotIn("Share of the copy bandwidth", text)
        self.assertIn("[advance fp64 by k](plots/diffusion_advance_fp64_by_k.png)", text)


class AdvancePlot(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        # fp32 without a K sweep: no by_k plot for it. A diffusion/step entry beside them keeps
        # its pct_copy plot, which the advance entries stay out of.
        fp32 = [b for b in advance_benchmarks("fp32") if "temporal-k" not in b["name"]]
        self.files = [write_json(self.dir, "advance.json", advance_benchmarks() + fp32),
                      write_json(self.dir, "step.json",
                                 [entry(f"diffusion/step/flat/contiguous/fp64/{n}x{n}", 1.0)
                                  for n in (64, 128)])]

    def tearDown(self):
        self.tmp.cleanup()

    def test_command_line(self):
        out = os.path.join(self.dir, "plots")
        if plotted(self, out, self.files) is None:
            return
        self.assertEqual(sorted(os.listdir(out)),
                         ["diffusion_advance_fp32_by_size.png", "diffusion_advance_fp64_by_k.png",
                          "diffusion_advance_fp64_by_size.png",
                          "diffusion_step_fp64_bandwidth.png"])
        for name in os.listdir(out):
            self.assertGreater(os.path.getsize(os.path.join(out, name)), 1000, name)

    def figures(self, function):
        written, figures = drawn_figures(self, function, self.files, self.dir)
        return figures

    @unittest.skipUnless(matplotlib_imports(), "matplotlib does not import")
    def test_by_k_lines(self):
        figures = self.figures("advance_k_plots")
        self.assertEqual(list(figures), ["diffusion_advance_fp64_by_k.png"])
        ax = figures["diffusion_advance_fp64_by_k.png"].axes[0]
        lines = {line.get_label(): line for line in ax.get_lines()}
        sweep = lines["64x64/steps100: temporal-k<K>"]
        self.assertEqual(list(sweep.get_xdata()), [1, 2, 3, 4])
        self.assertEqual(list(sweep.get_ydata()), [100.0, 200.0, 300.0, 400.0])
        self.assertEqual(list(lines["64x64/steps1000: temporal-k<K>"].get_ydata()),
                         [10.0, 20.0, 30.0, 40.0])
        # The best stepwise variant of each shape: dashed, level, in the colour of its sweep.
        best = lines["64x64/steps100: best stepwise (vectorized, 150)"]
        self.assertEqual(best.get_linestyle(), "--")
        self.assertEqual(set(best.get_ydata()), {150.0})
        self.assertEqual(best.get_color(), sweep.get_color())
        self.assertEqual(set(lines["64x64/steps1000: best stepwise (collapse, 300)"].get_ydata()),
                         {300.0})
        default = lines["64x64/steps100: temporal (default K = 2)"]
        self.assertEqual((list(default.get_xdata()), list(default.get_ydata())), ([2.0], [200.0]))
        # 128^2 has no sweep, so no line.
        self.assertFalse(any(label.startswith("128x128") for label in lines))
        self.assertIn("K", ax.get_xlabel())
        self.assertIn("G cell-steps/s", ax.get_ylabel())
        self.assertIn("fp64", ax.get_title())
        self.assertIn("test device", ax.get_title())

    @unittest.skipUnless(matplotlib_imports(), "matplotlib does not import")
    def test_by_size_lines(self):
        figures = self.figures("advance_size_plots")
        self.assertEqual(sorted(figures), ["diffusion_advance_fp32_by_size.png",
                                           "diffusion_advance_fp64_by_size.png"])
        ax = figures["diffusion_advance_fp64_by_size.png"].axes[0]
        lines = {line.get_label(): line for line in ax.get_lines()}
        # A line per variant and step count; temporal at its default K, no temporal-k<K>.
        self.assertEqual(list(lines), ["vectorized, 100 steps", "vectorized, 1000 steps",
                                       "flat, 100 steps", "flat, 1000 steps",
                                       "collapse, 100 steps", "collapse, 1000 steps",
                                       "temporal (K = 2), 100 steps",
                                       "temporal (K = 2), 1000 steps"])
        self.assertEqual(list(lines["vectorized, 100 steps"].get_xdata()), [64, 128])
        self.assertEqual(list(lines["vectorized, 100 steps"].get_ydata()), [150.0, 300.0])
        self.assertEqual(list(lines["temporal (K = 2), 100 steps"].get_ydata()), [200.0, 400.0])
        self.assertEqual(list(lines["collapse, 1000 steps"].get_ydata()), [300.0])
        self.assertEqual(lines["flat, 100 steps"].get_linestyle(), "-")
        self.assertEqual(lines["flat, 1000 steps"].get_linestyle(), "--")
        self.assertEqual(lines["flat, 100 steps"].get_color(),
                         lines["flat, 1000 steps"].get_color())
        self.assertEqual(ax.get_xscale(), "log")
        self.assertIn("n", ax.get_xlabel())


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
        for script, options in (("report.py", ["RESULT.json", "--markdown", "--write", "--no-plots",
                                               "--full"]),
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
            first = run_script("report.py", "--markdown", a, b, "--full")
            between = run_script("report.py", a, "--markdown", "--full", b)
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
            result = run_script("report.py", "--write", results, "--full",
                                env={"PYTHONPATH": hidden})
            self.assertEqual(result.returncode, 3, result.stderr)
            with open(os.path.join(results, "report.md")) as f:
                text = f.read()
            self.assertIn("#### cshift/3d fp64 left: pct_copy", text)
            self.assertNotIn("## Plots", text)
            result = run_script("report.py", "--write", results, "--no-plots",
                                env={"PYTHONPATH": hidden})
            self.assertEqual(result.returncode, 0, result.stderr)

    def test_the_short_report_opens_with_the_headline_and_full_adds_the_tables(self):
        with tempfile.TemporaryDirectory() as tmp:
            benchmarks = []
            for extents in ("16x16x16x7", "32x32x32x7"):
                for schedule, time_us in (("collapse3", 10.0), ("collapse4", 25.0)):
                    benchmarks.append(entry(f"layouts/pack/{schedule}/contiguous/fp64/{extents}",
                                            time_us))
            write_json(tmp, "layouts.json", benchmarks)
            write_json(tmp, "cshift.json", cshift_benchmarks(old_names=False))
            texts = {}
            for options in ([], ["--full"]):
                result = run_script("report.py", "--write", tmp, "--no-plots", *options)
                self.assertEqual(result.returncode, 0, result.stderr)
                with open(os.path.join(tmp, "report.md")) as f:
                    texts[bool(options)] = f.read()
            short, full = texts[False], texts[True]
            # The first table of the short report is the headline, before the file table.
            first = short.index("\n| ")
            self.assertLess(short.index("#### headline: each kernel at its largest extents"),
                            first)
            self.assertLess(first, short.index("| file | family |"))
            header, rows = markdown_rows(short, "headline: each kernel at its largest extents, "
                                         "pct_copy (% of the same run's copy bandwidth), "
                                         "contiguous mapping")
            self.assertEqual(header[:5], ["family/kernel", "precision", "extents", "collapse3",
                                          "collapse4"])
            self.assertEqual(rows, [["layouts/pack", "fp64", "32x32x32x7", "50.0", "50.0", "-",
                                     "-", "-", "2.50"]])
            self.assertIn("#### headline: cshift at the largest extents", short)
            for table in ("#### layouts/pack fp64: pct_copy", "#### cshift/3d fp64 left: pct_copy"):
                self.assertNotIn(table, short)
                self.assertIn(table, full)
            self.assertIn("every variant at the largest extents", short)
            self.assertIn("--full` gives every table", short)
            self.assertLess(len(short.splitlines()), len(full.splitlines()))

    def test_diffusion_advance_is_a_family_of_its_own_in_a_written_report(self):
        with tempfile.TemporaryDirectory() as tmp:
            write_json(tmp, "diffusion.json",
                       [entry("diffusion/step/vectorized/contiguous/fp64/64x64", 1.0)])
            other = dict(CONTEXT, git_commit="1" * 40)
            with open(os.path.join(tmp, "diffusion_advance.json"), "w") as f:
                json.dump({"context": other, "benchmarks": [entry(
                    "diffusion/advance/temporal/contiguous/fp64/64x64/steps8", 2.0,
                    gcell_steps_per_second=1e9, steps_per_pass=8)]}, f)
            result = run_script("report.py", "--write", tmp, "--no-plots")
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(tmp, "report.md")) as f:
                text = f.read()
            self.assertIn("### diffusion_advance: `diffusion_advance.json`\n", text)
            self.assertNotIn("a separate run, not plotted", text)

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
