#!/usr/bin/env python3
"""scripts/diffusion_study.py with a real loopnest-diffusion on tiny grids: the raw and median
CSVs, medians recomputed from the raw rows, the table, failed trials (from a wrapper around the
tool that fails some trials on purpose), runs of separate grids adding up, the missing-matplotlib
path and command-line mistakes. Standard library only.

usage: test_diffusion_study.py --tool PATH/TO/loopnest-diffusion [unittest arguments]
"""
import csv
import math
import os
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

SCRIPT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                       "scripts", "diffusion_study.py"))
TIMINGS = ["TOTAL_S", "LOOP_S", "H2D_S", "D2H_S", "EXIT_S", "PROCESS_S"]
TOOL = None


def study(*args, env=None):
    return subprocess.run([sys.executable, SCRIPT] + [str(a) for a in args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, env=env)


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def text(path):
    with open(path) as f:
        return f.read()


def median(values):
    """Written out here rather than taken from the script: the middle value, or the mean of the
    two middle ones."""
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def matplotlib_imports():
    done = subprocess.run([sys.executable, "-c", "import matplotlib"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    return done.returncode == 0


# Runs the real tool, but: the first measured trial of baseline FP64 (its second call) prints
# CHECK=FAIL and an absurd LOOP_S while exiting 0, so that only CHECK tells; every cpu FP32 trial
# dies with exit status 1 and no output.
WRAPPER = textwrap.dedent("""\
    import os, subprocess, sys
    tool, args = {tool!r}, sys.argv[1:]
    if args[3] == "cpu" and args[5] == "fp32":
        print("wrapper: cpu FP32 crashes", file=sys.stderr)
        sys.exit(1)
    out = subprocess.run([tool] + args, stdout=subprocess.PIPE, universal_newlines=True).stdout
    if args[3] == "baseline" and args[5] == "fp64":
        counter = os.path.join({directory!r}, "baseline_fp64_calls")
        calls = int(open(counter).read()) + 1 if os.path.exists(counter) else 1
        open(counter, "w").write(str(calls))
        if calls == 2:
            out = out.replace("CHECK=PASS", "CHECK=FAIL")
            out = "".join("LOOP_S=999.0\\n" if line.startswith("LOOP_S=") else line
                          for line in out.splitlines(True))
    sys.stdout.write(out)
""")


class DiffusionStudy(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "out")

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.out, name)

    def wrapper(self):
        path = os.path.join(self.dir.name, "failing-tool")
        with open(path, "w") as f:
            f.write(f"#!{sys.executable}\n" + WRAPPER.format(tool=TOOL, directory=self.dir.name))
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def run_tiny(self, tool, sizes="9,12x7", variants="baseline,cpu", env=None):
        return study("--tool", tool, "--sizes", sizes, "--steps", 3, "--variants", variants,
                     "--precisions", "fp32,fp64", "--warmups", 1, "--repeats", 2,
                     "--target", "cpu", "--out", self.out, env=env)

    def test_writes_both_csvs_and_the_table_with_medians_of_the_rows(self):
        done = self.run_tiny(TOOL)
        self.assertEqual(done.returncode, 0, done.stderr)
        table = text(self.path("bench_diffusion_cpu_3steps.md"))
        for nx, ny in [(9, 9), (12, 7)]:
            stem = f"bench_diffusion_cpu_{nx}x{ny}_3steps"
            raw = read(self.path(stem + ".csv"))
            self.assertEqual(len(raw), 2 * 2 * 3)
            self.assertEqual(sum(r["phase"] == "warmup" for r in raw), 4)
            self.assertTrue(all(r["CHECK"] == "PASS" and not r["error"] for r in raw))
            self.assertEqual({(r["nx"], r["ny"], r["steps"]) for r in raw},
                             {(str(nx), str(ny), "3")})
            medians = read(self.path(stem + "_median.csv"))
            self.assertEqual({(m["variant"], m["precision"]) for m in medians},
                             {(v, p) for v in ["baseline", "cpu"] for p in ["fp32", "fp64"]})
            for m in medians:
                rows = [r for r in raw if r["phase"] == "measured" and
                        (r["variant"], r["precision"]) == (m["variant"], m["precision"])]
                self.assertEqual([r["trial"] for r in rows], ["1", "2"])
                self.assertEqual((m["passed"], m["failed"]), ("2", "0"))
                for k in TIMINGS + ["MASS", "CENTRE"]:
                    expected = median(float(r[k]) for r in rows)
                    self.assertTrue(math.isclose(float(m[k]), expected, rel_tol=1e-11),
                                    f"{m['variant']} {m['precision']} {k}: {m[k]} != {expected}")
            self.assertIn(f"## {nx} x {ny}, 3 steps", table)
            base32 = next(m for m in medians if (m["variant"], m["precision"]) ==
                          ("baseline", "fp32"))
            self.assertIn(f"| baseline | {float(base32['TOTAL_S']):.6f} | "
                          f"{float(base32['LOOP_S']):.6f} |", table)
        self.assertIn("| variant | FP32 TOTAL_S | FP32 LOOP_S | FP64 TOTAL_S | FP64 LOOP_S |",
                      table)
        self.assertIn("| cpu (serial reference) |", table)
        self.assertIn("| baseline | 1.00 | 1.00 | 1.00 | 1.00 |", table)
        self.assertNotIn("Failed trials", table)
        png = self.path("bench_diffusion_cpu_3steps_loop_s.png")
        self.assertEqual(os.path.exists(png), matplotlib_imports())

    def test_failed_trials_are_reported_and_left_out_of_the_medians(self):
        done = self.run_tiny(self.wrapper(), sizes="9")
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertIn("trial failed: 9x9 fp64 baseline measured 1: CHECK=FAIL", done.stderr)
        self.assertIn("trial failed: 9x9 fp32 cpu warmup 1: exit status 1; CHECK=(missing)",
                      done.stderr)
        self.assertIn("4 trials failed", done.stderr)  # cpu FP32 warm-up included
        raw = read(self.path("bench_diffusion_cpu_9x9_3steps.csv"))
        base64 = [r for r in raw if (r["variant"], r["precision"], r["phase"]) ==
                  ("baseline", "fp64", "measured")]
        self.assertEqual([(r["CHECK"], r["LOOP_S"]) for r in base64][0], ("FAIL", "999.0"))
        self.assertEqual(base64[1]["CHECK"], "PASS")
        medians = {(m["variant"], m["precision"]): m
                   for m in read(self.path("bench_diffusion_cpu_9x9_3steps_median.csv"))}
        m = medians[("baseline", "fp64")]
        self.assertEqual((m["passed"], m["failed"]), ("1", "1"))
        self.assertEqual(float(m["LOOP_S"]), float(base64[1]["LOOP_S"]))
        m = medians[("cpu", "fp32")]
        self.assertEqual((m["passed"], m["failed"], m["LOOP_S"]), ("0", "2", ""))
        self.assertEqual((medians[("baseline", "fp32")]["failed"],
                          medians[("cpu", "fp64")]["failed"]), ("0", "0"))
        table = text(self.path("bench_diffusion_cpu_3steps.md"))
        self.assertIn(" (1 of 2 failed) |", table)
        self.assertIn("| cpu (serial reference) | FAIL (2 of 2) | FAIL (2 of 2) |", table)
        self.assertIn("Failed trials (4), left out of every median:", table)
        self.assertIn("- baseline FP64 measured trial 1: CHECK=FAIL", table)

    def test_runs_of_separate_grids_add_up_to_one_table(self):
        self.assertEqual(self.run_tiny(TOOL, sizes="9").returncode, 0)
        done = self.run_tiny(TOOL, sizes="12", variants="baseline")
        self.assertEqual(done.returncode, 0, done.stderr)
        table = text(self.path("bench_diffusion_cpu_3steps.md"))
        self.assertIn("## 9 x 9, 3 steps", table)
        self.assertIn("## 12 x 12, 3 steps", table)
        self.assertEqual(table.count("| cpu (serial reference) |"), 2)  # medians, speedups
        os.remove(self.path("bench_diffusion_cpu_3steps.md"))
        done = study("--summary-only", "--steps", 3, "--target", "cpu", "--out", self.out)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(text(self.path("bench_diffusion_cpu_3steps.md")).count("## "), 2)

    def test_without_matplotlib_everything_but_the_plot(self):
        hide = os.path.join(self.dir.name, "hide", "matplotlib")
        os.makedirs(hide)
        with open(os.path.join(hide, "__init__.py"), "w") as f:
            f.write("raise ImportError('hidden by the test')\n")
        env = dict(os.environ, PYTHONPATH=os.path.dirname(hide))
        done = self.run_tiny(TOOL, sizes="9", env=env)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("no plot: matplotlib does not import (hidden by the test)", done.stderr)
        self.assertFalse(os.path.exists(self.path("bench_diffusion_cpu_3steps_loop_s.png")))
        self.assertTrue(os.path.exists(self.path("bench_diffusion_cpu_3steps.md")))

    def test_command_line_mistakes(self):
        done = study("--help")
        self.assertEqual(done.returncode, 0)
        self.assertTrue(done.stdout.startswith("usage: diffusion_study.py"))
        for args, message in [(["--sizes", "4"], "at least 5 cells"),
                              (["--precisions", "fp16"], "'fp16' is not fp32 or fp64"),
                              (["--target", "my_gpu"], "'my_gpu' is not letters"),
                              (["--tool", os.path.join(self.dir.name, "absent")],
                               "no such executable")]:
            done = study("--out", self.out, *args)
            self.assertEqual(done.returncode, 2, args)
            self.assertIn(message, done.stderr)
        # A variant the tool refuses stops the run: exit status 2, no medians.
        done = study("--tool", TOOL, "--sizes", 9, "--steps", 3, "--variants", "fastest",
                     "--out", self.out)
        self.assertEqual(done.returncode, 2)
        self.assertIn("VARIANT = 'fastest' is unknown", done.stderr)
        self.assertFalse(os.path.exists(self.path("bench_diffusion_gpu_9x9_3steps_median.csv")))


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "--tool":
        sys.exit(__doc__.strip().splitlines()[-1])
    TOOL = os.path.abspath(sys.argv[2])
    sys.dont_write_bytecode = True
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:])
