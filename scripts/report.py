#!/usr/bin/env python3
"""Prints loopnest benchmark JSON (Google Benchmark) as comparison tables.

One table per family/kernel/precision: a row per extents, a column per schedule and mapping,
each cell the share of the same-run copy bandwidth (pct_copy, percent). Columns: c4 = collapse4,
c3 = collapse3, flat, kd = kokkos_default, auto = automatic; a trailing "/s" marks the strided
mapping; "c3@TILE" is collapse3 (in the diffusion family "collapse@TILE" the collapse variant)
with an explicit tile. Then per row: the speedup of collapse3 over collapse4 and over
kokkos_default (contiguous), and whether automatic is within 5% of the better of collapse3 and
collapse4. For the family `diffusion` (variants instead of schedules, and the hand-written peer
`peer/diffusion/...` as a column "peer-<name>"), per row instead: the fastest loopnest variant
and its speedup over the peer and over kokkos_default. Where a file holds repetitions, their
median is used. For the family `fields`, a last table sums the grind time (ns per grid point
per equation) of MFC's eight loops (copy, three flux differences, three flux finalizes, WENO
packing) per schedule. The family `cshift` gets its own tables: per rank, precision and layout,
a row per extents/dim/shift and a column per table strategy (dt = device_table, htc =
host_table_copy, htm = host_table_managed, none = no_table) with device_table's speedup over
host_table_copy; then per strategy and shape the table work of a first call, and the table work
and host-device copies of a repeated one. The families of the MPI benchmark (bench/halo.cpp) get
theirs too: `halo` and `halo_reference` per precision and GPU count, a row per extents and ghost
width with the bytes of one face's message, the exchange bandwidth of every transport and
reference (GB/s sent per rank) and each transport's share of its reference (%ref: nccl against
nccl_sendrecv, the MPI transports against mpi_sendrecv); `scaling` per kernel and precision, a
row per mode (weak, strong), transport and GPU count with time, Gcells/s, speedup and efficiency.
diffusion/advance (N steps an entry) gets, besides its pct_copy table, one per precision: a row
per grid and step count, G cell-steps/s (gcell_steps_per_second) per variant (kK = temporal-k<K>,
the temporal variant at K steps per pass), the best stepwise variant (vectorized, flat, collapse)
and the plain temporal entry's steps per pass (K) and x_single (its speedup over the best
stepwise entry of the same run).

Before those tables, per family (not cshift, halo, halo_reference or scaling), one table of every
variant at the family's largest extents per kernel and precision: time (us), GB/s (ideal bytes),
pct_copy and the speedup over kokkos_default and over collapse4 (contiguous).

By default the output is the short form: first the headline tables (each kernel at its largest
extents: pct_copy of collapse3, collapse4, flat, kokkos_default and automatic and collapse3's
speedup over collapse4; the diffusion family's best variant against its peer; cshift's
strategies at the largest size, the range over dims and shifts; diffusion/advance's best
temporal entry against the best stepwise one on the largest grid; the halo exchange's share of
its reference for the largest message), then the tables of every variant at the largest
extents and the summary tables (the fields grind sums, cshift's table work, diffusion/advance,
halo and scaling). --full adds the tables against extents (a row per size) and cshift's table
per shape: every table the JSON gives.

--write regenerates a results directory from its JSON alone, running nothing: it reads every
DIR/*.json and writes DIR/report.md and the plots DIR/plots/*.png (scripts/plot.py). report.md
opens with the headline tables, then what the JSON contexts say (device, Kokkos, CUDA, execution
space, copy bandwidth, and a table of the files with their commit and date), then DIR/notes.md
verbatim when it exists (hand-written prose: the setup beyond the JSON, targets, findings), then
links to the plots and the tables (the short form; with --full every table). Files are grouped
by family (diffusion/advance, N steps an entry, counts as a family of its own,
`diffusion_advance`): DIR/<family>.json is the family's main file (else its earliest); another
file of the family is merged into it when it holds none of the same entries and was measured at
the same commit on the same device (a run cut short and its rest); otherwise (a re-measurement,
an experiment built from other code) it gets a section of its own, which is not plotted. Exit
status 3: report.md written but no plots (matplotlib missing).
"""
import argparse
import contextlib
import glob
import io
import os
import sys
from collections import OrderedDict

from loopnest_results import (DISTRIBUTED_FAMILIES, byte_text, column, halo_reference_of,
                              is_advance, load, merge, read, size_key)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="report.py",
        usage="%(prog)s RESULT.json [RESULT.json ...] [--markdown] [--full]\n"
              "       %(prog)s --write DIR [--no-plots] [--full]",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="*", metavar="RESULT.json",
                        help="Google Benchmark JSON files whose tables to print; an entry of a "
                             "later file replaces one of the same name in an earlier file "
                             "(unless only the earlier one is a median of repetitions)")
    parser.add_argument("--markdown", action="store_true",
                        help="print the tables as Markdown, as report.md has them, instead of "
                             "aligned plain text")
    parser.add_argument("--write", metavar="DIR",
                        help="regenerate DIR/report.md and DIR/plots/*.png from every DIR/*.json "
                             "(no RESULT.json then); exit status 3 when report.md was written "
                             "without plots because matplotlib is missing")
    parser.add_argument("--full", action="store_true",
                        help="every table the JSON gives (a row per size, cshift per shape), "
                             "not only the headline, the largest extents and the summaries")
    parser.add_argument("--no-plots", action="store_true",
                        help="with --write: write report.md only, without plots and without "
                             "its list of them")
    # Intermixed, so that --markdown may stand anywhere among the files.
    args = parser.parse_intermixed_args(argv)
    if args.write is not None:
        if args.results or args.markdown:
            parser.error("--write DIR takes no RESULT.json and no --markdown")
    elif not args.results:
        parser.error("give RESULT.json files, or --write DIR")
    elif args.no_plots:
        parser.error("--no-plots goes with --write DIR")
    return args


def main(argv):
    args = parse_arguments(argv)
    if args.write is not None:
        return write(args.write, plots=not args.no_plots, full=args.full)
    markdown, paths = args.markdown, args.results
    rows, context = load(paths)
    for k in ["device", "execution_space", "kokkos_version", "cuda_version", "git_commit", "date",
              "ranks", "mpi_library", "nccl_version", "transports_unavailable"]:
        if k in context:
            print(f"- {k}: {context[k]}" if markdown else f"{k}: {context[k]}")
    if "copy_bytes_per_second" in context:
        gbs = float(context["copy_bytes_per_second"]) / 1e9
        line = f"copy bandwidth (Kokkos::deep_copy, read + write): {gbs:.0f} GB/s"
        print(f"- {line}" if markdown else line)
    print()
    print_headline(rows, markdown)
    print_tables(rows, markdown, full=args.full)
    return 0


def print_tables(rows, markdown, full=True):
    """The tables of these rows: per family the largest sizes, (full) per family/kernel/precision
    pct_copy against extents, then the fields grind sums, the cshift tables (full: per shape) and
    the halo, scaling and diffusion/advance tables."""
    print_largest(rows, markdown)
    groups = OrderedDict()
    for r in rows if full else []:
        groups.setdefault((r["family"], r["kernel"], r["precision"]), []).append(r)
    for (family, kernel, precision), rs in groups.items():
        if family == "cshift" or family in DISTRIBUTED_FAMILIES:
            continue
        columns = list(OrderedDict.fromkeys(column(r["schedule"], r["mapping"]) for r in rs))
        extents = sorted(OrderedDict.fromkeys(r["extents"] for r in rs), key=size_key)
        cell = {(column(r["schedule"], r["mapping"]), r["extents"]): r for r in rs}
        title = f"{family}/{kernel} {precision}: pct_copy"
        print(f"#### {title}\n" if markdown else title)
        variants = family == "diffusion"
        header = ["extents"] + columns + (["best", "best/peer", "best/kd"] if variants
                                          else ["c3/c4", "c3/kd", "auto<=5%"])
        if markdown:
            print("| " + " | ".join(header) + " |")
            print("|" + "---|" * len(header))
        else:
            print(f"{header[0]:<16}" + "".join(f"{h:>{max(9, len(h) + 1)}}" for h in header[1:]))
        for e in extents:
            text = [f"{cell[(c, e)]['pct']:.1f}" if (c, e) in cell else "-" for c in columns]
            line = [e] + text + (variant_summary(cell, columns, e) if variants
                                 else schedule_summary(cell, e))
            if markdown:
                print("| " + " | ".join(line) + " |")
            else:
                print(f"{line[0]:<16}" + "".join(f"{x:>{max(9, len(h) + 1)}}"
                                                 for x, h in zip(line[1:], header[1:])))
        print()
    print_grind_sums(rows, markdown)
    print_cshift(rows, markdown, full)
    print_halo(rows, markdown)
    print_scaling(rows, markdown)
    print_advance(rows, markdown)


def print_largest(rows, markdown):
    """Per family (not cshift nor the MPI benchmark's): every variant at the largest extents of
    each kernel and precision, with time, GB/s, pct_copy and its speedup over kokkos_default and
    collapse4."""
    families = OrderedDict()
    for r in rows:
        if r["family"] != "cshift" and r["family"] not in DISTRIBUTED_FAMILIES:
            families.setdefault(r["family"], OrderedDict()).setdefault(
                (r["kernel"], r["precision"]), []).append(r)
    for family, groups in families.items():
        lines = []
        for (kernel, precision), rs in groups.items():
            e = max((r["extents"] for r in rs), key=size_key)
            cell = {column(r["schedule"], r["mapping"]): r for r in rs if r["extents"] == e}
            kd, c4 = cell.get("kd"), cell.get("c4")
            for c, r in cell.items():
                t = r["time"]
                lines.append([kernel, precision, e, c, f"{t:.1f}" if t >= 10 else f"{t:.2f}",
                              f"{r['gbs']:.0f}", f"{r['pct']:.1f}",
                              f"{kd['time'] / t:.2f}" if kd else "-",
                              f"{c4['time'] / t:.2f}" if c4 else "-"])
        title = (f"{family}: every variant at the largest extents (time, GB/s, pct_copy, "
                 "speedup over kd and c4)")
        header = ["kernel", "precision", "extents", "variant", "time_us", "GB/s", "pct_copy",
                  "x_kd", "x_c4"]
        if markdown:
            print(f"<details><summary>{title}</summary>\n")
            print("| " + " | ".join(header) + " |")
            print("|" + "---|" * len(header))
            for line in lines:
                print("| " + " | ".join(line) + " |")
            print("\n</details>\n")
        else:
            print(title)
            widths = [max(len(x) for x in col) + 1 for col in zip(header, *lines)]
            for line in [header] + lines:
                print("".join(f"{x:<{w}}" if i < 4 else f"{x:>{w}}"
                              for i, (x, w) in enumerate(zip(line, widths))))
            print()


def pct_text(r):
    return f"{r['pct']:.1f}" if r and r.get("pct") is not None else "-"


def span_text(values, spec=".1f"):
    """min-max of some numbers (one number when they agree to the format), or "-"."""
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    low, high = format(min(values), spec), format(max(values), spec)
    return low if low == high else f"{low}-{high}"


def print_headline(rows, markdown):
    """The headline tables: each kernel at its largest extents (schedules, then the diffusion
    variants against the peer), cshift's strategies at the largest size, diffusion/advance on
    the largest grid and the halo exchange for the largest message."""
    schedules, variants = OrderedDict(), OrderedDict()
    for r in rows:
        if r["family"] == "cshift" or r["family"] in DISTRIBUTED_FAMILIES or is_advance(r):
            continue
        target = variants if r["family"] == "diffusion" else schedules
        target.setdefault((r["family"], r["kernel"], r["precision"]), []).append(r)
    lines = []
    for (family, kernel, precision), rs in schedules.items():
        e = max((r["extents"] for r in rs), key=size_key)
        cell = {column(r["schedule"], r["mapping"]): r for r in rs if r["extents"] == e}
        c3, c4 = cell.get("c3"), cell.get("c4")
        lines.append([f"{family}/{kernel}", precision, e]
                     + [pct_text(cell.get(c)) for c in ("c3", "c4", "flat", "kd", "auto")]
                     + [f"{c4['time'] / c3['time']:.2f}" if c3 and c4 else "-"])
    if lines:
        print_rows("headline: each kernel at its largest extents, pct_copy (% of the same run's "
                   "copy bandwidth), contiguous mapping",
                   ["family/kernel", "precision", "extents", "collapse3", "collapse4", "flat",
                    "kokkos_default", "automatic", "c3/c4"], lines, markdown)
    lines = []
    for (family, kernel, precision), rs in variants.items():
        e = max((r["extents"] for r in rs), key=size_key)
        cell = {column(r["schedule"], r["mapping"]): r for r in rs if r["extents"] == e}
        ours = [r for c, r in cell.items() if not c.startswith("peer-")]
        peers = [r for c, r in cell.items() if c.startswith("peer-")]
        if not ours:
            continue
        best = min(ours, key=lambda r: r["time"])
        peer = min(peers, key=lambda r: r["time"]) if peers else None
        kd = cell.get("kd")
        lines.append([f"{family}/{kernel}", precision, e,
                      f"{column(best['schedule'], best['mapping'])} {pct_text(best)}",
                      f"{column(peer['schedule'], peer['mapping'])} {pct_text(peer)}"
                      if peer else "-", pct_text(kd),
                      f"{peer['time'] / best['time']:.2f}" if peer else "-",
                      f"{kd['time'] / best['time']:.2f}" if kd else "-"])
    if lines:
        print_rows("headline: the best variant at the largest extents against the peer, pct_copy",
                   ["family/kernel", "precision", "extents", "best variant", "peer", "kd",
                    "best/peer", "best/kd"], lines, markdown)
    shifts = OrderedDict()
    for r in rows:
        if r["family"] == "cshift":
            shifts.setdefault((r["rank"], r["precision"], r["layout"]), []).append(r)
    strategies = [s for s in CSHIFT_STRATEGIES
                  if any(r["strategy"] == s for g in shifts.values() for r in g)]
    lines = []
    for (rank, precision, layout), g in shifts.items():
        e = max((r["extents"] for r in g), key=size_key)
        at = [r for r in g if r["extents"] == e]
        lines.append([f"cshift/{rank}d {precision} {layout}", e]
                     + [span_text([r["pct"] for r in at if r["strategy"] == s])
                        for s in strategies])
    if lines:
        print_rows("headline: cshift at the largest extents, pct_copy over every dim and shift "
                   "(min-max) per table strategy",
                   ["rank precision layout", "extents"]
                   + [CSHIFT_STRATEGIES[s] for s in strategies], lines, markdown)
    advance = OrderedDict()
    for r in rows:
        if is_advance(r) and r["gcell_steps"] is not None:
            advance.setdefault(r["precision"], []).append(r)
    lines = []
    for precision, g in advance.items():
        n = max(r["n"] for r in g)
        at = [r for r in g if r["n"] == n]
        temporal = [r for r in at if r["variant"] == "temporal"]
        stepwise = [r for r in at if r["variant"] in ADVANCE_STEPWISE]
        best_t = max(temporal, key=lambda r: r["gcell_steps"]) if temporal else None
        best_s = max(stepwise, key=lambda r: r["gcell_steps"]) if stepwise else None
        lines.append([f"{n}x{n}/steps{(best_t or best_s or at[0])['steps']}", precision,
                      f"{best_t['gcell_steps']:.1f}" if best_t else "-",
                      f"{best_t['steps_per_pass']:g}" if best_t and best_t["steps_per_pass"]
                      else "-",
                      f"{best_s['variant']} {best_s['gcell_steps']:.1f}" if best_s else "-",
                      f"{best_t['gcell_steps'] / best_s['gcell_steps']:.2f}"
                      if best_t and best_s else "-"])
    if lines:
        print_rows("headline: diffusion/advance on the largest grid, G cell-steps/s",
                   ["grid/steps", "precision", "temporal", "K", "best stepwise", "x_single"],
                   lines, markdown)
    halo = OrderedDict()
    for r in rows:
        if r["family"] == "halo":
            halo.setdefault((r["precision"], r["gpus"]), []).append(r)
    lines = []
    for (precision, gpus), g in halo.items():
        largest = max(r["message_bytes"] or 0 for r in g)
        for r in g:
            if (r["message_bytes"] or 0) == largest:
                pct = r["pct_nccl" if halo_reference_of(r["transport"]) == "nccl_sendrecv"
                        else "pct_mpi"]
                lines.append([f"{precision} {gpus} GPUs", f"{r['extents']}/ghost{r['ghost']}",
                              byte_text(largest) if largest else "-", r["transport"],
                              f"{r['gbs']:.1f}", f"{pct:.1f}" if pct is not None else "-"])
    if lines:
        print_rows("headline: the halo exchange for the largest message, GB/s sent per rank and "
                   "% of its plain-message reference",
                   ["precision GPUs", "extents/ghost", "message", "transport", "GB/s", "%ref"],
                   lines, markdown)


def schedule_summary(cell, e):
    """collapse3 over collapse4 and over kokkos_default, and whether automatic is within 5%."""
    c3, c4, kd, au = (cell.get((c, e)) for c in ("c3", "c4", "kd", "auto"))
    speed_c4 = f"{c4['time'] / c3['time']:.2f}" if c3 and c4 else "-"
    speed_kd = f"{kd['time'] / c3['time']:.2f}" if c3 and kd else "-"
    auto_ok = "-"
    if c3 and c4 and au:
        auto_ok = "yes" if au["time"] <= 1.05 * min(c3["time"], c4["time"]) else "NO"
    return [speed_c4, speed_kd, auto_ok]


def variant_summary(cell, columns, e):
    """The fastest loopnest variant, and its speedup over the peer and over kokkos_default."""
    ours = [cell[(c, e)] for c in columns if (c, e) in cell and not c.startswith("peer-")]
    if not ours:
        return ["-", "-", "-"]
    best = min(ours, key=lambda r: r["time"])
    peers = [cell[(c, e)] for c in columns if (c, e) in cell and c.startswith("peer-")]
    kd = cell.get(("kd", e))
    return [column(best["schedule"], best["mapping"]),
            f"{min(p['time'] for p in peers) / best['time']:.2f}" if peers else "-",
            f"{kd['time'] / best['time']:.2f}" if kd else "-"]


EIGHT_LOOPS = ["copy", "flux_difference_x", "flux_difference_y", "flux_difference_z",
               "finalize_flux_x", "finalize_flux_y", "finalize_flux_z", "pack_weno"]


def print_grind_sums(rows, markdown):
    grind = {(r["precision"], r["extents"], column(r["schedule"], r["mapping"]), r["kernel"]): r["grind"]
             for r in rows if r["family"] == "fields" and r["grind"] is not None}
    if not grind:
        return
    shapes = sorted({(p, e) for (p, e, _, _) in grind}, key=lambda pe: (pe[0], size_key(pe[1])))
    columns = list(OrderedDict.fromkeys(c for (_, _, c, _) in grind))
    title = "fields: summed grind time of the eight loops (ns per grid point per equation)"
    print(f"#### {title}\n" if markdown else title)
    header = ["precision", "extents"] + columns
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
    else:
        print(f"{header[0]:<10}{header[1]:<16}" + "".join(f"{h:>9}" for h in header[2:]))
    for p, e in shapes:
        sums = []
        for c in columns:
            parts = [grind.get((p, e, c, k)) for k in EIGHT_LOOPS]
            sums.append(f"{sum(parts):.4f}" if all(x is not None for x in parts) else "-")
        if markdown:
            print("| " + " | ".join([p, e] + sums) + " |")
        else:
            print(f"{p:<10}{e:<16}" + "".join(f"{x:>9}" for x in sums))
    print()


CSHIFT_STRATEGIES = OrderedDict([("device_table", "dt"), ("host_table_copy", "htc"),
                                 ("host_table_managed", "htm"), ("no_table", "none")])


def print_rows(title, header, lines, markdown):
    print(f"#### {title}\n" if markdown else title)
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        # 28 characters for the first column, 12 for the others, more where a cell needs them.
        widths = [max([28 if i == 0 else 12] + [len(x) + 1 for x in col])
                  for i, col in enumerate(zip(header, *lines))]
        for line in [header] + lines:
            print(f"{line[0]:<{widths[0]}}" + "".join(f"{x:>{w}}"
                                                      for x, w in zip(line[1:], widths[1:])))
    print()


def print_cshift(rows, markdown, full=True):
    rs = [r for r in rows if r["family"] == "cshift"]
    groups = OrderedDict()
    for r in rs if full else []:
        groups.setdefault((r["rank"], r["precision"], r["layout"]), []).append(r)
    for (rank, precision, layout), g in groups.items():
        cell = {(r["strategy"], r["extents"], r["dim"], r["shift"]): r for r in g}
        strategies = [s for s in CSHIFT_STRATEGIES if any(r["strategy"] == s for r in g)]
        shapes = sorted(OrderedDict.fromkeys((r["extents"], r["dim"], r["shift"]) for r in g),
                        key=lambda e: (size_key(e[0]), e))
        lines = []
        for e in shapes:
            dt, htc = cell.get(("device_table",) + e), cell.get(("host_table_copy",) + e)
            lines.append([f"{e[0]}/dim{e[1]}/shift{e[2]}"]
                         + [f"{cell[(s,) + e]['pct']:.1f}" if (s,) + e in cell else "-"
                            for s in strategies]
                         + [f"{htc['time'] / dt['time']:.2f}" if dt and htc else "-"])
        print_rows(f"cshift/{rank}d {precision} {layout}: pct_copy",
                   ["extents/dim/shift"] + [CSHIFT_STRATEGIES[s] for s in strategies] + ["htc/dt"],
                   lines, markdown)
    work = OrderedDict()
    for r in rs:
        work.setdefault((r["strategy"], r["rank"], r["precision"], r["extents"]), []).append(r)
    lines = []
    for (strategy, _, precision, shape), g in work.items():
        mean = lambda k: sum(r[k] or 0.0 for r in g) / len(g)
        lines.append([f"{CSHIFT_STRATEGIES.get(strategy, strategy)} {precision} {shape}",
                      f"{mean('table_build'):.1f}", f"{mean('table_call'):.2f}",
                      f"{mean('transfers'):.2f}"])
    if lines:
        print_rows("cshift: table work (mean over layouts, dims and shifts)",
                   ["strategy precision extents", "first_us", "us/call", "copies/call"], lines,
                   markdown)


def print_halo(rows, markdown):
    """Per precision and GPU count: a row per extents and ghost width (by message size), the
    GB/s of every transport and reference and each transport's percentage of its reference."""
    groups = OrderedDict()
    for r in rows:
        if r["family"] in ("halo", "halo_reference"):
            groups.setdefault((r["precision"], r["gpus"]), []).append(r)
    for (precision, gpus), g in groups.items():
        cell = {(r["family"], r["transport"], r["extents"], r["ghost"]): r for r in g}
        transports = list(OrderedDict.fromkeys(r["transport"] for r in g if r["family"] == "halo"))
        references = list(OrderedDict.fromkeys(r["transport"] for r in g
                                               if r["family"] == "halo_reference"))
        shapes = sorted(OrderedDict((((r["extents"], r["ghost"]), r["message_bytes"]))
                                    for r in g).items(),
                        key=lambda s: (s[1] or 0, size_key(s[0][0]), s[0][1]))
        lines = []
        for (extents, ghost), message in shapes:
            line = [f"{extents}/ghost{ghost}", byte_text(message) if message else "-"]
            for family, names in (("halo", transports), ("halo_reference", references)):
                line += [f"{cell[(family, t, extents, ghost)]['gbs']:.1f}"
                         if (family, t, extents, ghost) in cell else "-" for t in names]
            for t in transports:
                r = cell.get(("halo", t, extents, ghost))
                pct = r and r["pct_nccl" if halo_reference_of(t) == "nccl_sendrecv" else "pct_mpi"]
                line.append(f"{pct:.1f}" if pct is not None else "-")
            lines.append(line)
        family = "halo" if transports else "halo_reference"
        print_rows(f"{family} {precision}, {gpus} GPU{'s' if gpus != 1 else ''}: exchange "
                   "bandwidth (GB/s sent per rank)",
                   ["extents/ghost", "message"] + transports + [f"ref {t}" for t in references]
                   + [f"{t} %ref" for t in transports], lines, markdown)


def print_scaling(rows, markdown):
    """Per kernel and precision: a row per mode, transport and GPU count with time, Gcells/s,
    speedup and efficiency (against one rank, gpus1)."""
    groups = OrderedDict()
    for r in rows:
        if r["family"] == "scaling":
            groups.setdefault((r["kernel"], r["precision"]), []).append(r)
    number = lambda x, spec: format(x, spec) if x is not None else "-"
    for (kernel, precision), g in groups.items():
        modes = list(OrderedDict.fromkeys(r["mode"] for r in g))
        lines = [[f"{r['mode']} {r['extents']}", r["transport"], str(r["gpus"]),
                  number(r["time"], ".1f"), number(r["gcells"], ".1f"),
                  number(r["speedup"], ".2f"), number(r["efficiency"], ".3f")]
                 for r in sorted(g, key=lambda r: (modes.index(r["mode"]), r["gpus"]))]
        print_rows(f"scaling/{kernel} {precision}: weak and strong scaling",
                   ["mode extents", "transport", "gpus", "time_us", "Gcells/s", "speedup",
                    "efficiency"], lines, markdown)


# The stepwise variants of diffusion/advance, whose best the temporal entries are set against.
ADVANCE_STEPWISE = ("vectorized", "flat", "collapse")


def print_advance(rows, markdown):
    """Per precision: G cell-steps/s of every diffusion/advance variant, a row per grid and step
    count, with the best stepwise variant and temporal's K and x_single."""
    groups = OrderedDict()
    for r in rows:
        if is_advance(r) and r["gcell_steps"] is not None:
            groups.setdefault(r["precision"], []).append(r)
    number = lambda x, spec: format(x, spec) if x is not None else "-"
    for precision, g in groups.items():
        name = lambda r: r["variant"] if r["k"] is None else f"k{r['k']}"
        # The variants without K first (as the benchmark registers them), then K = 1, 2, ...
        columns = list(OrderedDict.fromkeys(name(r) for r in sorted(
            g, key=lambda r: (r["k"] is not None, r["k"] or 0))))
        cell = {(name(r), r["n"], r["steps"]): r for r in g}
        lines = []
        for n, steps in sorted(OrderedDict.fromkeys((r["n"], r["steps"]) for r in g),
                               key=lambda s: (s[1], s[0])):
            line = [f"{n}x{n}/steps{steps}"]
            line += [number(cell[(c, n, steps)]["gcell_steps"], ".1f")
                     if (c, n, steps) in cell else "-" for c in columns]
            stepwise = [cell[(v, n, steps)] for v in ADVANCE_STEPWISE if (v, n, steps) in cell]
            best = max(stepwise, key=lambda r: r["gcell_steps"]) if stepwise else None
            temporal = cell.get(("temporal", n, steps))
            line += [best["variant"] if best else "-",
                     number(temporal and temporal["steps_per_pass"], "g"),
                     number(temporal and temporal["x_single"], ".2f")]
            lines.append(line)
        print_rows(f"diffusion/advance {precision}: G cell-steps/s",
                   ["grid/steps"] + columns + ["best stepwise", "temporal K", "x_single"], lines,
                   markdown)


# The order of the families in a written report; others follow by name.
FAMILY_ORDER = ["layouts", "fields", "diffusion", "diffusion_advance", "cshift"]


def report_family(entry):
    """The family a written report groups an entry under: diffusion/advance (N steps an entry)
    apart from the diffusion family's single steps."""
    return "diffusion_advance" if is_advance(entry) else entry["family"]


def short_commit(commit):
    """A 40-digit hash to its first 7 digits (keeping a suffix such as -dirty); else as written."""
    head, dash, tail = commit.partition("-")
    if len(head) == 40 and all(ch in "0123456789abcdef" for ch in head.lower()):
        return head[:7] + dash + tail
    return commit


def code(text):
    return f"`{text}`"


def plan(paths):
    """Reads the files and groups them into sections: per family its main file with the files
    merged into it, then one section per file that was not merged. Returns (files, sections)."""
    files = []
    for path in paths:
        entries, context = read(path)
        families = OrderedDict()
        for e in entries.values():
            families.setdefault(report_family(e), []).append(e)
        files.append(dict(name=os.path.basename(path), context=context, families=families,
                          role={}))
    by_family = OrderedDict()
    for f in files:
        for family in f["families"]:
            by_family.setdefault(family, []).append(f)
    order = lambda fam: (FAMILY_ORDER.index(fam) if fam in FAMILY_ORDER else len(FAMILY_ORDER), fam)
    sections = []
    for family in sorted(by_family, key=order):
        fs = by_family[family]
        main = next((f for f in fs if f["name"] == family + ".json"),
                    min(fs, key=lambda f: (f["context"].get("date", ""), f["name"])))
        ctx = lambda f, k: f["context"].get(k, "?")
        merged, separate = [main], []
        names = {e["name"] for e in main["families"][family]}
        main["role"][family] = "main file"
        for f in fs:
            if f is main:
                continue
            own = {e["name"] for e in f["families"][family]}
            why = []
            if own & names:
                why.append(f"re-measures {len(own & names)} entries of {code(main['name'])}")
            for k, what in (("git_commit", "commit"), ("device", "device"),
                            ("execution_space", "execution space")):
                if ctx(f, k) != ctx(main, k):
                    value = short_commit(ctx(f, k)) if k == "git_commit" else ctx(f, k)
                    main_value = short_commit(ctx(main, k)) if k == "git_commit" else ctx(main, k)
                    why.append(f"{what} {code(value)}, not {code(main_value)}")
            if why:
                f["role"][family] = "own section: " + "; ".join(why)
                separate.append(f)
            else:
                f["role"][family] = (f"merged into {code(main['name'])} (none of its entries, "
                                     "same commit and device)")
                merged.append(f)
                names |= own
        sections.append(dict(family=family, files=merged, main=True))
        sections += [dict(family=family, files=[f], main=False) for f in separate]
    return files, sections


def entries_text(entries):
    reps = sorted({e["repetitions"] for e in entries if e["median"]})
    text = str(len(entries))
    if reps:
        text += " (medians of " + "/".join(map(str, reps)) + " repetitions)"
    return text


def header(files, sections, title_dir, has_notes, headline="", full=False):
    """The top of a written report: the headline tables, what the JSON contexts say, a row per
    file and family in the order of the sections."""
    out = io.StringIO()
    w = lambda line="": print(line, file=out)

    def values(key, shorten=lambda v: v):
        """Each value of a context key with the files that give it."""
        seen = OrderedDict()
        for f in files:
            seen.setdefault(shorten(f["context"].get(key, "(not recorded)")), []).append(f["name"])
        if len(seen) == 1:
            return next(iter(seen))
        return "; ".join(f"{v} ({', '.join(names)})" for v, names in seen.items())

    devices = values("device")
    w(f"# loopnest benchmarks on {devices if len(devices) < 60 else 'several devices'}")
    w()
    w(f"Generated by `scripts/report.py --write {title_dir}{' --full' if full else ''}` from "
      "the JSON files in this directory and their `context`" +
      ("; the prose after the file table is [`notes.md`](notes.md), included as it stands"
       if has_notes else "") + ". Do not edit this file by hand." +
      ("" if full else " The headline and the largest extents only: `--full` gives every "
       "table (a row per size) from the same JSON."))
    w()
    if headline:
        w(headline.rstrip("\n"))
        w()
    w(f"- Device: {devices} (Kokkos execution space {values('execution_space')})")
    w(f"- Kokkos: {values('kokkos_version')}")
    w(f"- CUDA: {values('cuda_version')}")
    w(f"- Commit: {values('git_commit')}")
    dates = sorted(f["context"].get("date", "") for f in files if f["context"].get("date"))
    if dates:
        w(f"- Date: {dates[0]}" + (f" to {dates[-1]}" if dates[-1] != dates[0] else ""))
    copies = [float(f["context"]["copy_bytes_per_second"]) / 1e9 for f in files
              if "copy_bytes_per_second" in f["context"]]
    if copies:
        low, high = f"{min(copies):.0f}", f"{max(copies):.0f}"
        span = low if low == high else f"{low} to {high}"
        w(f"- Copy bandwidth, the reference of `pct_copy` (`Kokkos::deep_copy`, bytes read plus "
          f"written): {span} GB/s")
    w()
    w("| file | family | entries | commit | date | copy GB/s | binary | in this report |")
    w("|---|---|---|---|---|---|---|---|")
    rows = [(f, s["family"]) for s in sections for f in s["files"]]
    rows += [(f, None) for f in files if not f["families"]]
    for f, family in rows:
        c = f["context"]
        copy = (f"{float(c['copy_bytes_per_second']) / 1e9:.0f}"
                if "copy_bytes_per_second" in c else "-")
        binary = os.path.basename(c.get("executable", ""))
        w(f"| [`{f['name']}`]({f['name']}) | {family or '-'} | "
          f"{entries_text(f['families'][family]) if family else '0'} | "
          f"{code(short_commit(c.get('git_commit', '(not recorded)')))} | {c.get('date', '-')} | "
          f"{copy} | {code(binary) if binary else '-'} | "
          f"{f['role'][family] if family else 'no entries'} |")
    w()
    return out.getvalue()


def section_title(section):
    family, files = section["family"], section["files"]
    if section["main"]:
        return f"### {family}: " + " + ".join(code(f["name"]) for f in files)
    return f"### {family}: {code(files[0]['name'])} (a separate run, not plotted)"


def write(directory, plots=True, full=False):
    """Regenerates DIR/report.md and DIR/plots/*.png from DIR/*.json; runs nothing."""
    paths = sorted(glob.glob(os.path.join(directory, "*.json")))
    if not paths:
        print(f"report.py: no *.json in {directory}", file=sys.stderr)
        return 2
    files, sections = plan(paths)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    title_dir = os.path.relpath(os.path.abspath(directory), root)
    if title_dir.startswith(".."):
        title_dir = os.path.abspath(directory)
    notes = os.path.join(directory, "notes.md")
    main_rows = [e for s in sections if s["main"] for f in s["files"]
                 for e in f["families"][s["family"]]]
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        print_headline(main_rows, markdown=True)
    text = header(files, sections, title_dir, os.path.exists(notes), buffer.getvalue(), full)
    if os.path.exists(notes):
        with open(notes) as f:
            text += f.read().rstrip("\n") + "\n\n"
    status = 0
    if plots:
        # Imported here, so that the tables need neither plot.py nor matplotlib; plot.py
        # imports only loopnest_results, never this script.
        import plot
        try:
            written = plot.draw(main_rows, files[0]["context"], os.path.join(directory, "plots"))
        except plot.MissingMatplotlib as missing:
            print(f"report.py: no plots: {missing}", file=sys.stderr)
            written, status = [], 3
        if written:
            text += "## Plots\n\n"
            halo = [p for p in written if os.path.basename(p).startswith("halo_")]
            advance = [p for p in written
                       if os.path.basename(p).startswith("diffusion_advance_")]
            what = []
            if len(halo) + len(advance) < len(written):
                what.append("Share of the copy bandwidth against size, a line per variant, and "
                            "collapse3 against collapse4 per kernel at the largest size")
            if advance:
                what.append("diffusion/advance in G cell-steps/s against the steps per pass K "
                            "of temporal-k<K>, with the best stepwise variant dashed, and "
                            "against the grid size, a line per variant and step count")
            if halo:
                what.append("the bandwidth of the halo exchange against the message size of "
                            "one face, a line per transport and a dashed line per plain-message "
                            "reference")
            what = "; ".join(what)
            text += (what[0].upper() + what[1:] + "; drawn from the main file of each family "
                     "(with what is merged into it).\n\n")
            by_family = OrderedDict()
            for path in written:
                stem = os.path.splitext(os.path.basename(path))[0]
                family, _, rest = stem.partition("_")
                label = rest.replace("_bandwidth", "").replace("_", " ")
                link = f"[{label}](plots/{os.path.basename(path)})"
                by_family.setdefault(family, []).append(link)
            for family, links in by_family.items():
                text += f"- {family}: " + ", ".join(links) + "\n"
            text += "\n"
    text += "## Tables\n\n"
    for section in sections:
        family = section["family"]
        text += section_title(section) + "\n\n"
        if section["main"] and len(section["files"]) > 1:
            text += ("Merged: " + ", ".join(f"{code(f['name'])} ({len(f['families'][family])} "
                                            "entries)" for f in section["files"]) + ".\n\n")
        if not section["main"]:
            f = section["files"][0]
            count, _, reps = entries_text(f["families"][family]).partition(" ")
            text += (f"{count} entries{' ' + reps if reps else ''}; "
                     f"{f['role'][family].replace('own section: ', '')}.\n\n")
        merged = OrderedDict()
        for f in section["files"]:
            merge(merged, OrderedDict((e["name"], e) for e in f["families"][family]))
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            print_tables(list(merged.values()), markdown=True, full=full)
        text += buffer.getvalue().rstrip("\n") + "\n\n"
    with open(os.path.join(directory, "report.md"), "w") as f:
        f.write(text.rstrip("\n") + "\n")
    print(f"report.py: {os.path.join(directory, 'report.md')} from {len(paths)} JSON files")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
