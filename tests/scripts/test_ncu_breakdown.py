#!/usr/bin/env python3
"""scripts/ncu_breakdown.py on small synthetic Nsight Compute CSV: the kernels' loops, each loop's
floor (its bytes at the copy bandwidth or its busiest pipe, whichever is longer), the sum over the
launches between the first and the last stage update, and the errors. Standard library only."""
import csv
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                       "scripts", "ncu_breakdown.py"))
METRICS = ["gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
           "launch__registers_per_thread", "sm__warps_active.avg.pct_of_peak_sustained_active",
           "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "smsp__issue_active.avg.pct_of_peak_sustained_elapsed"]
RK = "detail::rk_update<double>"
WENO = "detail::reconstruct<double, 1, 5, c>"
HLLC = "detail::riemann<double, 2, 2, f>"


def launch(name, time_ns, read, write, fp64_pct, fma_pct=10):
    return [name, f"{time_ns:,}", str(read), str(write), "64", "50", str(fp64_pct), str(fma_pct), "60"]


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


class NcuBreakdown(unittest.TestCase):
    def write(self, rows, header=None):
        path = os.path.join(self.dir.name, "ncu.csv")
        with open(path, "w", newline="") as f:
            f.write("==PROF== Connected\nCASE=case.json\n")
            w = csv.writer(f, quoting=csv.QUOTE_ALL)
            w.writerow(header or ["Kernel Name"] + METRICS)
            w.writerow([""] + ["unit"] * len(METRICS))
            w.writerows(rows)
        return path

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def test_floors_and_the_stage_sum(self):
        # Two stages after the first update; before it, a launch the sum leaves out. The WENO
        # loop's floor is its FP64 pipe (80% of 1000 us), the Riemann solver's its FMA pipe (70%
        # of 600 us, more than its 0.3 GB at 1000 GB/s); the update's bytes take 500 us of its 400.
        rows = [launch(WENO, 9_000_000, 1, 1, 0), launch(RK, 400_000, 2e8, 3e8, 0)]
        for _ in range(2):
            rows += [launch(WENO, 1_000_000, 1e8, 1e8, 80), launch(HLLC, 600_000, 2e8, 1e8, 10, 70),
                     launch(RK, 400_000, 2e8, 3e8, 0)]
        out = run(self.write(rows), "--copy-gbs", "1000")
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = {line.split()[0]: line.split() for line in out.stdout.splitlines()[2:]}
        self.assertEqual(set(lines), {"weno_y", "hllc_z", "rk3_stage", "stage"})
        self.assertEqual(lines["weno_y"][-2:], ["800.0", "1.25"])
        self.assertEqual(lines["hllc_z"][-2:], ["420.0", "1.43"])
        self.assertEqual(lines["rk3_stage"][-2:], ["500.0", "0.80"])
        self.assertEqual(lines["stage"][1:], ["2000.0", "1720.0", "1.16"])
        self.assertIn("2 whole stages", out.stdout)

    def test_the_compact_file_gives_the_same_table(self):
        rows = [launch(RK, 400_000, 2e8, 3e8, 0), launch(WENO, 1_000_000, 1e8, 1e8, 80),
                launch(RK, 400_000, 2e8, 3e8, 0)]
        path, compact = self.write(rows), os.path.join(self.dir.name, "compact.csv")
        first = run(path, "--copy-gbs", "1000", "--compact", compact)
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertEqual(run(compact, "--copy-gbs", "1000").stdout, first.stdout)

    def test_errors_name_what_is_wrong(self):
        rows = [launch(RK, 400_000, 2e8, 3e8, 0)]
        one = run(self.write(rows), "--copy-gbs", "1000")
        self.assertEqual(one.returncode, 1)
        self.assertIn("fewer than two stage updates", one.stderr)
        missing = run(self.write(rows, ["Kernel Name"] + METRICS[:-1] + ["other"]), "--copy-gbs", "1")
        self.assertIn("missing columns smsp__issue_active", missing.stderr)
        self.assertEqual(run(self.write(rows), "--copy-gbs", "0").returncode, 2)
        self.assertEqual(run(self.write(rows)).returncode, 2)


if __name__ == "__main__":
    unittest.main()
