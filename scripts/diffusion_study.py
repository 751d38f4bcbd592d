#!/usr/bin/env python3
"""Runs the diffusion study with loopnest-diffusion and writes its CSVs, table and plot.

Every trial is a fresh process of loopnest-diffusion (so that start-up costs such as the
device's initialisation show where the tool's timings catch them); its KEY=VALUE output is
parsed. Per grid, precision and variant: --warmups warm-up trials, then --repeats measured
trials, one after the other. The cpu variant is the serial host reference.

Files in --out DIR, named as the study names them, with <part> = diffusion (the solver) and
<target> = --target (default gpu: the study's table is for a device build, and its serial
cpu reference runs in the same process as the device variants, so it shares the file):

  bench_diffusion_<target>_<nx>x<ny>_<steps>steps.csv         every trial, warm-ups included
  bench_diffusion_<target>_<nx>x<ny>_<steps>steps_median.csv  medians of the measured trials
  bench_diffusion_<target>_<steps>steps.md                    the study's table, every grid
  bench_diffusion_<target>_<steps>steps_loop_s.png            LOOP_S against grid size

The raw CSV has one row per trial: variant, precision, nx, ny, steps, phase (warmup or
measured), trial (from 1 within its phase), the tool's TOTAL_S, LOOP_S, H2D_S, D2H_S and
EXIT_S, PROCESS_S (the whole process as this script timed it, Kokkos' finalisation and the
tool's check and output included), MASS, CENTRE, CHECK,
exit_status and error (why a trial failed). It is written as the trials run,
so an interrupted run keeps what it measured. The median CSV has per variant and precision the
counts of passed and failed measured trials and the medians of the passed ones.

A trial fails when its process does not exit 0, times out, prints CHECK other than PASS,
lacks a field or reports another grid, variant, precision or step count than it was given. A
failed trial is reported on stderr and in the table and never enters a median; warm-up trials
never enter one either. The table and plot are built from every raw CSV of this target and
step count in DIR, so that runs of different grids (say, the serial reference left out of the
largest) add up to one table; a grid's CSVs are rewritten whole by each run of that grid.

Speedups: T_baseline / T_variant in the same precision, and FP32 over FP64 as
T_FP64 / T_FP32 of the same variant, both for TOTAL_S and LOOP_S (medians).

The plot needs matplotlib; without it the script says so and writes everything else.
Exit status: 0 every trial passed; 1 a trial failed; 2 a command-line mistake (including one
that loopnest-diffusion refuses with its exit status 2, which stops the run).
"""
import argparse
import csv
import datetime
import glob
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import time

PART = "diffusion"
TIMINGS = ["TOTAL_S", "LOOP_S", "H2D_S", "D2H_S", "EXIT_S"]
# The tool's TOTAL_S holds the device's start-up (it starts before Kokkos' initialisation);
# PROCESS_S, the whole process as this script times it, adds the check, output and finalisation.
MEASURED = TIMINGS + ["PROCESS_S", "MASS", "CENTRE"]
RAW_FIELDS = (["variant", "precision", "nx", "ny", "steps", "phase", "trial"] + MEASURED +
              ["CHECK", "exit_status", "error"])
MEDIAN_FIELDS = ["variant", "precision", "nx", "ny", "steps", "passed", "failed"] + MEASURED
# The tool's variants in the study's order; the table lists any other name after them.
VARIANT_ORDER = ["baseline", "contiguous", "strided", "collapse", "flat", "kokkos_default",
                 "vectorized", "cpu"]
PRECISIONS = ["fp32", "fp64"]
REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DEFAULT_TOOL = os.path.join(REPO, "build", "examples", "loopnest-diffusion")


class UsageError(Exception):
    """A command-line mistake: one line on stderr, exit status 2."""


def comma_list(text):
    items = [t.strip() for t in text.split(",")]
    if not all(items):
        raise argparse.ArgumentTypeError(f"'{text}' has an empty item")
    return items


def grid_list(text):
    """'128,512x256' -> [(128, 128), (512, 256)]: N is a square grid, NXxNY a rectangle."""
    grids = []
    for item in comma_list(text):
        m = re.fullmatch(r"(\d+)(?:x(\d+))?", item)
        if not m:
            raise argparse.ArgumentTypeError(f"'{item}' is not N or NXxNY")
        nx = int(m.group(1))
        ny = int(m.group(2) or m.group(1))
        if nx < 5 or ny < 5:
            raise argparse.ArgumentTypeError(f"'{item}': loopnest-diffusion needs at least 5 "
                                             "cells per direction")
        grids.append((nx, ny))
    return grids


def precision_list(text):
    items = [t.lower() for t in comma_list(text)]
    for p in items:
        if p not in PRECISIONS:
            raise argparse.ArgumentTypeError(f"'{p}' is not fp32 or fp64")
    return items


def positive(minimum):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below {minimum}")
        return value
    return parse


def target_name(text):
    # Underscores separate the parts of the file names, so a target must not hold one.
    if not re.fullmatch(r"[A-Za-z0-9.-]+", text):
        raise argparse.ArgumentTypeError(f"'{text}' is not letters, digits, '.' and '-'")
    return text


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="diffusion_study.py", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example: scripts/diffusion_study.py --sizes 128,512,1024,2048 --steps 400 "
               "--variants baseline,contiguous,strided,cpu --out results/diffusion-study")
    parser.add_argument("--tool", metavar="PATH", default=DEFAULT_TOOL,
                        help="the loopnest-diffusion executable (default: %(default)s)")
    parser.add_argument("--sizes", metavar="N|NXxNY,...", type=grid_list,
                        default=grid_list("1024"),
                        help="grids to run, comma-separated: N for N x N, NXxNY otherwise "
                             "(default: 1024)")
    parser.add_argument("--steps", metavar="STEPS", type=positive(1), default=400,
                        help="time steps per trial (default: %(default)s)")
    parser.add_argument("--variants", metavar="V,...", type=comma_list,
                        default=comma_list("baseline,contiguous,strided,cpu"),
                        help="loopnest-diffusion variants, comma-separated; cpu is the serial "
                             "reference (default: baseline,contiguous,strided,cpu)")
    parser.add_argument("--precisions", metavar="P,...", type=precision_list,
                        default=list(PRECISIONS),
                        help="fp32, fp64 or both, comma-separated (default: fp32,fp64)")
    parser.add_argument("--warmups", metavar="N", type=positive(0), default=1,
                        help="warm-up trials per grid, precision and variant, kept in the raw "
                             "CSV as phase warmup and left out of the medians (default: 1)")
    parser.add_argument("--repeats", metavar="N", type=positive(1), default=5,
                        help="measured trials per grid, precision and variant (default: 5)")
    parser.add_argument("--out", metavar="DIR", default=os.path.join("results", "diffusion-study"),
                        help="where the files go, created if missing (default: %(default)s)")
    parser.add_argument("--target", metavar="NAME", type=target_name, default="gpu",
                        help="what the device variants ran on, the <target> of the file names: "
                             "gpu for a device build, cpu for a host-only one (default: gpu)")
    parser.add_argument("--timeout", metavar="SECONDS", type=positive(1), default=None,
                        help="a trial running longer fails (default: no limit)")
    parser.add_argument("--summary-only", action="store_true",
                        help="run nothing: rewrite the table and plot from the raw CSVs in DIR")
    args = parser.parse_args(argv)
    if not args.summary_only and not (os.path.isfile(args.tool) and
                                      os.access(args.tool, os.X_OK)):
        parser.error(f"--tool {args.tool}: no such executable (build it with cmake --build "
                     "build --target loopnest-diffusion, or give its path)")
    return args


def stem(target, nx, ny, steps):
    return f"bench_{PART}_{target}_{nx}x{ny}_{steps}steps"


def run_trial(args, variant, precision, nx, ny):
    """One process of the tool: its KEY=VALUE fields, CHECK, exit status and the error if any."""
    command = [args.tool, str(nx), str(ny), str(args.steps), variant, "--precision", precision]
    row = {"variant": variant, "precision": precision, "nx": nx, "ny": ny, "steps": args.steps}
    start = time.perf_counter()
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        row.update(CHECK="", exit_status="", error=f"timed out after {args.timeout} s")
        return row
    except OSError as e:
        row.update(CHECK="", exit_status="", error=f"could not run {args.tool}: {e}")
        return row
    if done.returncode == 2:
        raise UsageError(f"{shlex.join(command)} refused its arguments: "
                         f"{done.stderr.strip() or '(no message)'}")
    fields = {}
    for line in done.stdout.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            fields[key.strip()] = value.strip()
    row.update({k: fields.get(k, "") for k in TIMINGS + ["MASS", "CENTRE"]})
    row["PROCESS_S"] = f"{time.perf_counter() - start:.6f}"
    row.update(CHECK=fields.get("CHECK", ""), exit_status=done.returncode, error="")
    expected = {"METHOD": variant, "PRECISION": precision.upper(), "NX": str(nx),
                "NY": str(ny), "STEPS": str(args.steps)}
    problems = []
    if done.returncode != 0:
        problems.append(f"exit status {done.returncode}")
    if row["CHECK"] != "PASS":
        problems.append(f"CHECK={row['CHECK'] or '(missing)'}")
    missing = [k for k in TIMINGS + ["MASS", "CENTRE"] if not fields.get(k)]
    if missing:
        problems.append("no " + ", ".join(missing))
    for k, v in expected.items():
        if k in fields and fields[k] != v:
            problems.append(f"{k}={fields[k]} where {v} was asked for")
    for k in TIMINGS:
        try:
            float(fields.get(k, "0"))
        except ValueError:
            problems.append(f"{k}={fields[k]} is not a number")
    if problems:
        last = done.stderr.strip().splitlines()
        row["error"] = "; ".join(problems + ([last[-1]] if last else []))
    return row


def passed(row):
    return not row["error"]


def run_grid(args, nx, ny, progress):
    """Every trial of one grid, appended to its raw CSV as it ends; returns the failed rows."""
    failed = []
    path = os.path.join(args.out, stem(args.target, nx, ny, args.steps) + ".csv")
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=RAW_FIELDS)
        writer.writeheader()
        for precision in args.precisions:
            for variant in args.variants:
                phases = [("warmup", args.warmups), ("measured", args.repeats)]
                for phase, count in phases:
                    for trial in range(1, count + 1):
                        row = run_trial(args, variant, precision, nx, ny)
                        row.update(phase=phase, trial=trial)
                        writer.writerow(row)
                        f.flush()
                        progress(row)
                        if not passed(row):
                            failed.append(row)
    return path, failed


def read_raw(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def medians(rows):
    """Per (variant, precision): counts and medians of the measured trials that passed."""
    groups = {}
    for r in rows:
        if r["phase"] != "measured":
            continue
        key = (r["variant"], r["precision"])
        groups.setdefault(key, []).append(r)
    out = []
    for (variant, precision), rs in groups.items():
        good = [r for r in rs if not r["error"]]
        m = {"variant": variant, "precision": precision, "nx": rs[0]["nx"], "ny": rs[0]["ny"],
             "steps": rs[0]["steps"], "passed": len(good), "failed": len(rs) - len(good)}
        for k in MEASURED:
            value = statistics.median(float(r[k]) for r in good) if good else None
            # Times have microsecond digits, so 12 significant ones keep a median of two exact
            # without binary noise; MASS and CENTRE keep every digit (repr reads back the same).
            m[k] = ("" if value is None else repr(value) if k in ("MASS", "CENTRE")
                    else format(value, ".12g"))
        out.append(m)
    return out


def write_medians(raw_path):
    path = raw_path[:-len(".csv")] + "_median.csv"
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=MEDIAN_FIELDS)
        writer.writeheader()
        writer.writerows(medians(read_raw(raw_path)))
    return path


def raw_files(out, target, steps):
    """The raw CSVs of this target and step count in out, by grid size: {(nx, ny): path}."""
    pattern = re.compile(rf"bench_{PART}_{re.escape(target)}_(\d+)x(\d+)_{steps}steps\.csv")
    found = {}
    for path in glob.glob(os.path.join(out, f"bench_{PART}_{target}_*.csv")):
        m = pattern.fullmatch(os.path.basename(path))
        if m:
            found[(int(m.group(1)), int(m.group(2)))] = path
    return dict(sorted(found.items(), key=lambda kv: (kv[0][0] * kv[0][1], kv[0])))


def variant_key(name):
    return (VARIANT_ORDER.index(name) if name in VARIANT_ORDER else len(VARIANT_ORDER), name)


def seconds(m):
    return lambda k: float(m[k]) if m and m[k] else None


def ratio(num, den):
    return f"{num / den:.2f}" if num is not None and den else "-"


def time_cell(m, key):
    """A median with its failures: '0.123456', '0.123456 (1 of 5 failed)' or 'FAIL (5 of 5)'."""
    if m is None:
        return "-"
    total = int(m["passed"]) + int(m["failed"])
    if not m[key]:
        return f"FAIL ({m['failed']} of {total})"
    text = f"{float(m[key]):.6f}"
    return text + (f" ({m['failed']} of {total} failed)" if int(m["failed"]) else "")


def grid_section(nx, ny, steps, rows):
    """The study's table for one grid: medians of TOTAL_S and LOOP_S per variant and precision,
    then the speedups, then every failed trial."""
    table = {(m["variant"], m["precision"]): m for m in medians(rows)}
    variants = sorted({v for v, _ in table}, key=variant_key)
    precisions = [p for p in PRECISIONS if any(q == p for _, q in table)]
    measured = [r for r in rows if r["phase"] == "measured"]
    warmups = [r for r in rows if r["phase"] == "warmup"]
    repeats = max((int(r["trial"]) for r in measured), default=0)
    nwarm = max((int(r["trial"]) for r in warmups), default=0)
    lines = [f"## {nx} x {ny}, {steps} steps", "",
             f"Medians in seconds of {repeats} measured trials per row, each a fresh process, "
             f"after {nwarm} warm-up trial{'s' if nwarm != 1 else ''} left out.", ""]
    header = ["variant"] + [f"{p.upper()} {k}" for p in precisions for k in ("TOTAL_S", "LOOP_S")]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for v in variants:
        label = "cpu (serial reference)" if v == "cpu" else v
        cells = [time_cell(table.get((v, p)), k) for p in precisions
                 for k in ("TOTAL_S", "LOOP_S")]
        lines.append("| " + " | ".join([label] + cells) + " |")
    lines += ["", "Speedups: T_baseline / T_variant in the same precision; FP32 / FP64 is "
              "T_FP64 / T_FP32 of the same variant.", ""]
    header = ["variant"]
    if "baseline" in variants:
        header += [f"{p.upper()} {k} vs baseline" for p in precisions for k in ("TOTAL", "LOOP")]
    both = len(precisions) == 2
    if both:
        header += ["FP32 / FP64 TOTAL", "FP32 / FP64 LOOP"]
    if len(header) > 1:
        lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for v in variants:
            cells = []
            if "baseline" in variants:
                for p in precisions:
                    t, b = seconds(table.get((v, p))), seconds(table.get(("baseline", p)))
                    cells += [ratio(b("TOTAL_S"), t("TOTAL_S")), ratio(b("LOOP_S"), t("LOOP_S"))]
            if both:
                s32, s64 = seconds(table.get((v, "fp32"))), seconds(table.get((v, "fp64")))
                cells += [ratio(s64("TOTAL_S"), s32("TOTAL_S")),
                          ratio(s64("LOOP_S"), s32("LOOP_S"))]
            label = "cpu (serial reference)" if v == "cpu" else v
            lines.append("| " + " | ".join([label] + cells) + " |")
    else:
        lines.append("(no speedups: neither baseline nor both precisions were run)")
    failed = [r for r in rows if r["error"]]
    if failed:
        lines += ["", f"Failed trials ({len(failed)}), left out of every median:", ""]
        lines += [f"- {r['variant']} {r['precision'].upper()} {r['phase']} trial {r['trial']}: "
                  f"{r['error']}" for r in failed]
    return lines + [""]


def write_summary(args, files):
    path = os.path.join(args.out, f"bench_{PART}_{args.target}_{args.steps}steps.md")
    lines = [f"# Diffusion study: {PART}, target {args.target}, {args.steps} steps", "",
             f"Written {datetime.datetime.now().isoformat(timespec='seconds')} on "
             f"{platform.node()} by scripts/diffusion_study.py from "
             + ", ".join(f"`{os.path.basename(p)}`" for p in files.values()) + ".",
             "TOTAL_S: the solver region (the device's start-up in the fresh process, transfers "
             "in, loop, result back, release); LOOP_S: "
             "host wall time of the time loop, launches and synchronisation included; "
             "see docs/api.md, loopnest-diffusion.", ""]
    for (nx, ny), raw in files.items():
        lines += grid_section(nx, ny, args.steps, read_raw(raw))
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return path


def write_plot(args, files):
    """LOOP_S against grid size (cells), one line per variant and precision; None without
    matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError as e:
        print(f"diffusion_study.py: no plot: matplotlib does not import ({e}); install it "
              f"for {sys.executable} (apt-get install python3-matplotlib, or python3 -m pip "
              "install matplotlib)", file=sys.stderr)
        return None
    series = {}
    for (nx, ny), raw in files.items():
        for m in medians(read_raw(raw)):
            if m["LOOP_S"]:
                series.setdefault((m["variant"], m["precision"]), []).append(
                    (nx * ny, float(m["LOOP_S"])))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    colours = {}
    for (variant, precision), points in sorted(series.items(),
                                               key=lambda kv: (variant_key(kv[0][0]), kv[0][1])):
        colour = colours.setdefault(variant, f"C{len(colours) % 10}")
        xs, ys = zip(*sorted(points))
        ax.plot(xs, ys, marker="o", color=colour, linestyle="-" if precision == "fp64" else "--",
                label=f"{variant} {precision.upper()}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    # Ticks at the grids run, named as the table names them, instead of powers of ten.
    ax.set_xticks([nx * ny for nx, ny in files])
    ax.set_xticklabels([f"{nx}x{ny}" for nx, ny in files])
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    ax.set_xlabel("grid cells (nx * ny)")
    ax.set_ylabel("LOOP_S, median (s)")
    ax.set_title(f"diffusion, {args.steps} steps, target {args.target}")
    ax.grid(True, which="both", alpha=0.3)
    if series:
        ax.legend(fontsize="small")
    path = os.path.join(args.out, f"bench_{PART}_{args.target}_{args.steps}steps_loop_s.png")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def main(argv):
    args = parse_arguments(argv)
    os.makedirs(args.out, exist_ok=True)
    failures = 0
    if args.summary_only:
        files = raw_files(args.out, args.target, args.steps)
        if not files:
            print(f"diffusion_study.py: no bench_{PART}_{args.target}_NXxNY_{args.steps}steps.csv "
                  f"in {args.out}", file=sys.stderr)
            return 2
        failures = sum(1 for raw in files.values() for r in read_raw(raw) if r["error"])
    else:
        per_grid = len(args.precisions) * len(args.variants) * (args.warmups + args.repeats)
        total = per_grid * len(args.sizes)
        done = [0]

        def progress(row):
            done[0] += 1
            status = "PASS" if passed(row) else "FAILED: " + row["error"]
            print(f"[{done[0]}/{total}] {row['nx']}x{row['ny']} {row['precision']} "
                  f"{row['variant']} {row['phase']} {row['trial']}: LOOP_S={row.get('LOOP_S', '')} "
                  f"TOTAL_S={row.get('TOTAL_S', '')} {status}", flush=True)
            if not passed(row):
                print(f"diffusion_study.py: trial failed: {row['nx']}x{row['ny']} "
                      f"{row['precision']} {row['variant']} {row['phase']} {row['trial']}: "
                      f"{row['error']}", file=sys.stderr, flush=True)

        try:
            for nx, ny in args.sizes:
                raw, failed = run_grid(args, nx, ny, progress)
                failures += len(failed)
                print(f"wrote {raw}\nwrote {write_medians(raw)}")
        except UsageError as e:
            print(f"diffusion_study.py: {e}", file=sys.stderr)
            return 2
        files = raw_files(args.out, args.target, args.steps)
    print(f"wrote {write_summary(args, files)}")
    plot = write_plot(args, files)
    if plot:
        print(f"wrote {plot}")
    if failures:
        print(f"diffusion_study.py: {failures} trial{'s' if failures != 1 else ''} failed; "
              "see the table", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
