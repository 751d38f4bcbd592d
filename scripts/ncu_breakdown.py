#!/usr/bin/env python3
"""Where a right-hand side of loopnest-mfc goes, loop by loop, against each loop's floor.

Reads Nsight Compute's per-kernel metrics of a loopnest-mfc run (`ncu --csv --page raw
--metrics ...`, the metrics below) and names each kernel by the loop of the tool's `--profile`
(weno_x, hllc_y, weno_hllc_z for a sweep, flux_difference, ...). For every loop it prints the
median kernel time and DRAM bytes, the time of its bytes at the copy bandwidth, the time its
FP64 and FMA pipes were busy, and its floor: the longest of those, with the loop's own bytes
(GB_per_call of a `--profile` run of the same case) in place of the DRAM bytes when given, since
the DRAM bytes include what spills and re-reads cost. Then the sum over one stage (the launches
between the first and the last stage update, per stage) against the sum of the floors.

  ncu_breakdown.py NCU.csv --profile PROFILE.txt [--compact OUT.csv]
  ncu_breakdown.py NCU.csv --copy-gbs GBS [--compact OUT.csv]

NCU.csv: ncu's output with these metrics (other lines, the tool's own, are skipped), or a file
--compact wrote:
  gpu__time_duration.sum, dram__bytes_read.sum, dram__bytes_write.sum,
  launch__registers_per_thread, sm__warps_active.avg.pct_of_peak_sustained_active,
  sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_elapsed,
  sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed,
  smsp__issue_active.avg.pct_of_peak_sustained_elapsed
PROFILE.txt: the output of `loopnest-mfc ... --profile` (PROFILE_COPY_BANDWIDTH_GBS and each
loop's GB_per_call); --copy-gbs gives the copy bandwidth (GB/s, bytes read plus written) instead.
--compact writes one row per launch: the loop, its grid and block, and the metrics above.
"""
import argparse
import csv
import re
import statistics
import sys

METRICS = {
    "time_ns": "gpu__time_duration.sum",
    "dram_read": "dram__bytes_read.sum",
    "dram_write": "dram__bytes_write.sum",
    "registers": "launch__registers_per_thread",
    "warps_active_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "fp64_pipe_pct": "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_elapsed",
    "fma_pipe_pct": "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed",
    "issue_active_pct": "smsp__issue_active.avg.pct_of_peak_sustained_elapsed",
}
AXES = "xyz"
# A kernel's loop, by its functor (the demangled name); the first match wins.
LOOPS = [
    (r"weno_riemann<[^,]+, (\d)", lambda m: "weno_hllc_" + AXES[int(m.group(1))]),
    (r"reconstruct<[^,]+, (\d)", lambda m: "weno_" + AXES[int(m.group(1))]),
    (r"riemann<[^,]+, (\d)", lambda m: "hllc_" + AXES[int(m.group(1))]),
    (r"characteristic_face<[^,]+, (\d)", lambda m: "cbc_%s_end" % AXES[int(m.group(1))]),
    (r"inverse_widths_of", lambda m: "flux_difference"),
    (r"rk_update", lambda m: "rk3_stage"),
    (r"to_primitive", lambda m: "convert"),
    (r"ghost_fill", lambda m: "boundaries"),
    (r"max_icfl|Max<(double|float)", lambda m: "icfl"),
    (r"first_unphysical|Min<long long", lambda m: "state_check"),
]


def loop_of(name):
    for pattern, label in LOOPS:
        m = re.search(pattern, name)
        if m:
            return label(m)
    return "other"


def read_compact(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return [dict({k: float(r[k]) for k in METRICS}, loop=r["loop"], grid=r["grid"], block=r["block"]) for r in rows]


def read_ncu(path):
    with open(path) as f:
        if f.readline().startswith("launch,loop,"):
            return read_compact(path)
    with open(path) as f:
        rows = list(csv.reader(line for line in f if line.startswith('"')))
    if len(rows) < 3:
        sys.exit(f"ncu_breakdown.py: {path}: no ncu CSV rows (ncu --csv --page raw)")
    header, data = rows[0], rows[2:]
    missing = [m for m in list(METRICS.values()) + ["Kernel Name"] if m not in header]
    if missing:
        sys.exit(f"ncu_breakdown.py: {path}: missing columns {', '.join(missing)}")
    ix = {h: i for i, h in enumerate(header)}
    launches = []
    for r in data:
        row = {k: float(r[ix[m]].replace(",", "")) for k, m in METRICS.items()}
        row["loop"] = loop_of(r[ix["Kernel Name"]])
        row["grid"] = r[ix["Grid Size"]] if "Grid Size" in ix else ""
        row["block"] = r[ix["Block Size"]] if "Block Size" in ix else ""
        launches.append(row)
    return launches


def read_profile(path):
    copy, gb = None, {}
    for line in open(path):
        if line.startswith("PROFILE_COPY_BANDWIDTH_GBS="):
            copy = float(line.split("=", 1)[1])
        f = line.split()
        if len(f) == 8 and f[0] == "PROFILE" and f[2].isdigit():
            name = "rk3_stage" if f[1].startswith("rk3_stage") else f[1]
            gb.setdefault(name, []).append(float(f[5]))
    if copy is None:
        sys.exit(f"ncu_breakdown.py: {path}: no PROFILE_COPY_BANDWIDTH_GBS line (a --profile run)")
    return copy, {k: statistics.mean(v) for k, v in gb.items()}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("ncu_csv")
    p.add_argument("--profile")
    p.add_argument("--copy-gbs", type=float)
    p.add_argument("--compact")
    a = p.parse_args()
    if (a.profile is None) == (a.copy_gbs is None):
        p.error("give one of --profile and --copy-gbs")
    if a.copy_gbs is not None and a.copy_gbs <= 0:
        p.error(f"--copy-gbs = {a.copy_gbs} must be positive")
    copy, ideal = (a.copy_gbs, {}) if a.profile is None else read_profile(a.profile)
    launches = read_ncu(a.ncu_csv)
    stages = [i for i, r in enumerate(launches) if r["loop"] == "rk3_stage"]
    if len(stages) < 2:
        sys.exit(f"ncu_breakdown.py: {a.ncu_csv}: fewer than two stage updates; profile more launches")
    window = launches[stages[0] + 1 : stages[-1] + 1]
    n_stages = len(stages) - 1

    print(f"copy bandwidth {copy:.1f} GB/s; {n_stages} whole stages, launches {stages[0] + 2} to {stages[-1] + 1}")
    print(f"{'loop':<16}{'per stage':>10}{'time us':>10}{'DRAM GB':>9}{'bytes GB':>9}{'at copy us':>11}"
          f"{'fp64 us':>9}{'fma us':>8}{'issue %':>8}{'warps %':>8}{'regs':>6}{'floor us':>9}{'x floor':>8}")
    total = floor_total = 0.0
    for loop in sorted({r["loop"] for r in window}):
        rs = [r for r in window if r["loop"] == loop]
        med = {k: statistics.median(r[k] for r in rs) for k in METRICS}
        t = med["time_ns"] / 1e3
        dram = (med["dram_read"] + med["dram_write"]) / 1e9
        bytes_gb = ideal.get(loop, dram)
        at_copy = bytes_gb / copy * 1e6
        fp64 = med["fp64_pipe_pct"] / 100 * t
        fma = med["fma_pipe_pct"] / 100 * t
        floor = max(at_copy, fp64, fma)
        per_stage = len(rs) / n_stages
        total += per_stage * t
        floor_total += per_stage * floor
        print(f"{loop:<16}{per_stage:>10.2f}{t:>10.1f}{dram:>9.3f}{bytes_gb:>9.3f}{at_copy:>11.1f}{fp64:>9.1f}"
              f"{fma:>8.1f}{med['issue_active_pct']:>8.1f}{med['warps_active_pct']:>8.1f}"
              f"{med['registers']:>6.0f}{floor:>9.1f}{t / floor:>8.2f}")
    print(f"{'stage':<16}{'':>10}{total:>10.1f}{'':>66}{floor_total:>9.1f}{total / floor_total:>8.2f}")
    if a.compact:
        with open(a.compact, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["launch", "loop", "grid", "block"] + list(METRICS))
            for i, r in enumerate(launches):
                w.writerow([i + 1, r["loop"], r["grid"], r["block"]] + [f"{r[k]:.10g}" for k in METRICS])


if __name__ == "__main__":
    main()
