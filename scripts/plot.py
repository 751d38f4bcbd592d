#!/usr/bin/env python3
"""Draws loopnest benchmark JSON (Google Benchmark) as PNG plots.

Per family, kernel and precision: the share of the copy bandwidth (pct_copy) against the problem
size, one line per schedule/mapping or variant (explicit-tile columns left out; for cshift, per rank
and layout, a line per table strategy averaged over dims and shifts). Per family with collapse3 and
collapse4 (layouts, fields): a bar chart of both per kernel at the largest size. For the MPI
benchmark (bench/halo.cpp), per precision and GPU count: the exchange bandwidth (GB/s that a rank
sends) against the bytes of one face's message (log axis), a line per transport (`halo/<transport>`)
and a dashed line per plain-message reference (`halo_reference/<nccl|mpi>_sendrecv`), the mean where
several entries have one message size; these families are left out of the other plots. For
diffusion/advance (N steps an entry, left out of the plots above), per precision: G cell-steps/s
(gcell_steps_per_second) against the steps per pass K of the `temporal-k<K>` entries, a line per
grid and step count that has them and a dashed line in its colour for its best stepwise variant
(vectorized, flat or collapse), the plain `temporal` entry (its default K) marked with a star
(`diffusion_advance_<precision>_by_k.png`); and G cell-steps/s against the grid's n (log axes), a
line per variant (vectorized, flat, collapse, and temporal at its default K), solid for the
fewest steps and dashed (then dotted) for more (`diffusion_advance_<precision>_by_size.png`).
Reads the files the way report.py does (loopnest_results: medians of repetitions). Prints the
paths written; exit status 1 when there was nothing to draw, 2 when matplotlib is missing.
`report.py --write DIR` draws the same plots into DIR/plots/ through draw().
"""
import argparse
import os
import sys
from collections import OrderedDict

from loopnest_results import (DISTRIBUTED_FAMILIES, PRECISION_BYTES, byte_text, column,
                              halo_reference_of, is_advance, load, size_key)

plt = None


class MissingMatplotlib(Exception):
    pass


def load_matplotlib():
    global plt
    if plt is None:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot
        except ImportError:
            raise MissingMatplotlib("matplotlib is missing (Debian/Ubuntu: apt-get install "
                                    f"python3-matplotlib, for {sys.executable})") from None
        plt = matplotlib.pyplot


def size_of(row):
    """Cells (or sites) of the problem: the product of the spatial extents."""
    dims = size_key(row["extents"])
    if row["family"] in ("layouts", "fields") and len(dims) > 1:
        dims = dims[:-1]  # the last extent is the variable count
    n = 1
    for d in dims:
        n *= max(d, 1)
    return n


def line_name(row):
    if row["family"] == "cshift":
        return row["strategy"]
    return column(row["schedule"], row["mapping"])


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def bandwidth_plots(rows, context, out):
    groups = OrderedDict()
    for r in rows:
        if (r["family"] in DISTRIBUTED_FAMILIES or is_advance(r)
                or "@" in column(r["schedule"], r["mapping"])):
            continue
        key = (r["family"], r["kernel"], r["precision"])
        if r["family"] == "cshift":
            key = (r["family"], f"{r['rank']}d-{r['layout']}", r["precision"])
        elif r["family"] == "layouts":
            key = (r["family"], f"{r['kernel']}-x{size_key(r['extents'])[-1]}",
                   r["precision"])
        groups.setdefault(key, []).append(r)
    written = []
    for (family, kernel, precision), rs in groups.items():
        lines = OrderedDict()
        for r in rs:
            lines.setdefault(line_name(r), {}).setdefault(size_of(r), []).append(r["pct"])
        fig, ax = plt.subplots(figsize=(7, 4.2))
        for name, points in lines.items():
            xs = sorted(points)
            ax.plot(xs, [sum(points[x]) / len(points[x]) for x in xs], marker="o", label=name)
        ax.set_xscale("log")
        ax.set_xlabel("cells" if family != "cshift" else "elements")
        ax.set_ylabel("% of copy bandwidth")
        ax.set_title(f"{family}/{kernel} {precision} on {context.get('device', '?')}", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        written.append(save(fig, os.path.join(out, f"{family}_{kernel}_{precision}_bandwidth.png")))
    return written


def collapse_plots(rows, context, out):
    written = []
    families = OrderedDict()
    for r in rows:
        if r["family"] in DISTRIBUTED_FAMILIES or is_advance(r):
            continue
        if r["mapping"] == "contiguous" and r["schedule"] in ("collapse3", "collapse4"):
            families.setdefault((r["family"], r["precision"]), []).append(r)
    for (family, precision), rs in families.items():
        largest = max(size_of(r) for r in rs)
        at = {(r["kernel"], r["schedule"]): r["pct"] for r in rs if size_of(r) == largest}
        kernels = list(OrderedDict.fromkeys(k for k, _ in at))
        kernels = [k for k in kernels if (k, "collapse3") in at and (k, "collapse4") in at]
        if not kernels:
            continue
        extents = next(r["extents"] for r in rs if size_of(r) == largest)
        fig, ax = plt.subplots(figsize=(max(5, 1.1 * len(kernels) + 2), 4.2))
        xs = range(len(kernels))
        ax.bar([x - 0.2 for x in xs], [at[(k, "collapse3")] for k in kernels], 0.4,
               label="collapse3")
        ax.bar([x + 0.2 for x in xs], [at[(k, "collapse4")] for k in kernels], 0.4,
               label="collapse4")
        ax.set_xticks(list(xs))
        ax.set_xticklabels(kernels, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("% of copy bandwidth")
        ax.set_title(f"{family} {precision} {extents}: collapse3 against collapse4 on "
                     f"{context.get('device', '?')}", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=8)
        written.append(save(fig, os.path.join(out, f"{family}_{precision}_collapse3_vs_collapse4.png")))
    return written


def halo_plots(rows, context, out):
    """Per precision and GPU count: exchange bandwidth against one face's message size, a line
    per halo transport and a dashed line per halo_reference (in the colour of the first
    transport set against it, loopnest_results.halo_reference_of)."""
    groups = OrderedDict()
    for r in rows:
        if r["family"] in ("halo", "halo_reference") and r["message_bytes"]:
            groups.setdefault((r["precision"], r["gpus"]), []).append(r)
    written = []
    for (precision, gpus), rs in groups.items():
        lines = OrderedDict()
        # The transports first, then the references, each in the order of the files.
        for r in sorted(rs, key=lambda r: r["family"] == "halo_reference"):
            lines.setdefault((r["family"], r["transport"]), {}).setdefault(
                r["message_bytes"], []).append(r["gbs"])
        fig, ax = plt.subplots(figsize=(7, 4.2))
        colours = OrderedDict()  # by transport, and by reference for the first set against it
        for (family, transport), points in lines.items():
            xs = sorted(points)
            reference = family == "halo_reference"
            colour = colours.setdefault((family, transport), f"C{len(set(colours.values()))}")
            if not reference:
                colours.setdefault(("halo_reference", halo_reference_of(transport)), colour)
            ax.plot(xs, [sum(points[x]) / len(points[x]) for x in xs], color=colour,
                    marker="s" if reference else "o", markersize=4 if reference else 5,
                    linestyle="--" if reference else "-", label=f"{family}/{transport}")
        size = PRECISION_BYTES.get(precision)
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda b, _: byte_text(b)))
        ax.set_xlabel(f"message size (one face: ghost x n x n x nvar x {size or '?'} B)")
        ax.set_ylabel("exchange bandwidth (GB/s sent per rank)")
        shapes = sorted({(r["ghost"], r["nvar"]) for r in rs})
        shape = ""
        if len(shapes) == 1:
            ghost, nvar = shapes[0]
            shape = f", ghost {ghost}, nvar {nvar}"
            # One shape: the cells per axis n of a message size on the top axis.
            per_face = ghost * nvar * size
            top = ax.secondary_xaxis("top", functions=(lambda b, f=per_face: (b / f) ** 0.5,
                                                       lambda n, f=per_face: n * n * f))
            top.set_xscale("log", base=2)
            top.xaxis.set_major_formatter(plt.FuncFormatter(lambda n, _: f"{n:g}"))
            top.set_xlabel("n (cells per axis per rank)", fontsize=9)
        ax.set_title(f"halo exchange {precision}{shape}, {gpus} GPU{'s' if gpus != 1 else ''} on "
                     f"{context.get('device', '?')}", fontsize=10)
        ax.set_ylim(bottom=0)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        written.append(save(fig, os.path.join(out, f"halo_{precision}_gpus{gpus}_bandwidth.png")))
    return written


# The stepwise variants of diffusion/advance (one step per pass), in the order of their lines.
STEPWISE = ("vectorized", "flat", "collapse")


def shape_name(n, steps):
    return f"{n}x{n}/steps{steps}"


def log_y_axis(ax):
    """A log y axis labelled at 1, 2 and 5 of each decade: the lines of small and large grids
    lie a decade or two apart, and bare powers of ten leave most lines between two labels."""
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(plt.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda y, _: f"{y:g}"))
    ax.yaxis.set_minor_formatter(plt.NullFormatter())


def advance_rows(rows):
    """The diffusion/advance rows that have the counter, by precision in the order of the
    files."""
    groups = OrderedDict()
    for r in rows:
        if is_advance(r) and r["gcell_steps"] is not None:
            groups.setdefault(r["precision"], []).append(r)
    return groups


def advance_k_plots(rows, context, out):
    """Per precision: G cell-steps/s against K for every grid and step count with temporal-k<K>
    entries, with the best stepwise variant of the same shape as a dashed line."""
    written = []
    for precision, rs in advance_rows(rows).items():
        shapes = OrderedDict()
        for r in sorted(rs, key=lambda r: (r["steps"], r["n"])):
            if r["k"] is not None and r["variant"] == "temporal":
                shapes.setdefault((r["n"], r["steps"]), {})[r["k"]] = r["gcell_steps"]
        if not shapes:
            continue
        fig, ax = plt.subplots(figsize=(7.5, 4.6))
        for index, ((n, steps), points) in enumerate(shapes.items()):
            colour = f"C{index}"
            ks = sorted(points)
            ax.plot(ks, [points[k] for k in ks], color=colour, marker="o",
                    label=f"{shape_name(n, steps)}: temporal-k<K>")
            same = [r for r in rs if (r["n"], r["steps"]) == (n, steps)]
            stepwise = [r for r in same if r["variant"] in STEPWISE and r["k"] is None]
            if stepwise:
                best = max(stepwise, key=lambda r: r["gcell_steps"])
                ax.axhline(best["gcell_steps"], color=colour, linestyle="--", linewidth=1,
                           label=f"{shape_name(n, steps)}: best stepwise ({best['variant']}, "
                                 f"{best['gcell_steps']:.3g})")
            default = [r for r in same if r["variant"] == "temporal" and r["k"] is None
                       and r["steps_per_pass"]]
            if default:
                # Where the default K lands on its own sweep (the same code, measured apart).
                r = default[0]
                ax.plot([r["steps_per_pass"]], [r["gcell_steps"]], color=colour, marker="*",
                        markersize=13, linestyle="none",
                        label=f"{shape_name(n, steps)}: temporal (default K = "
                              f"{r['steps_per_pass']:g})")
        log_y_axis(ax)
        ax.set_xticks(range(1, max(max(p) for p in shapes.values()) + 1))
        ax.set_xlabel("K (steps per pass of temporal-k<K>)")
        ax.set_ylabel("G cell-steps/s (10^9 interior cells x steps / s)")
        ax.set_title(f"diffusion/advance {precision}: temporal against its steps per pass on "
                     f"{context.get('device', '?')}", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="best")
        written.append(save(fig, os.path.join(out, f"diffusion_advance_{precision}_by_k.png")))
    return written


def advance_size_plots(rows, context, out):
    """Per precision: G cell-steps/s against n, a line per stepwise variant and temporal (its
    default K) per step count, the line style telling the step counts apart."""
    written = []
    for precision, rs in advance_rows(rows).items():
        variants = [v for v in STEPWISE + ("temporal",)
                    if any(r["variant"] == v and r["k"] is None for r in rs)]
        if not variants:
            continue
        step_counts = sorted({r["steps"] for r in rs if r["k"] is None})
        styles = ["-", "--", ":", "-."]
        fig, ax = plt.subplots(figsize=(7.5, 4.6))
        for v_index, variant in enumerate(variants):
            for s_index, steps in enumerate(step_counts):
                points = {r["n"]: r for r in rs
                          if r["variant"] == variant and r["k"] is None and r["steps"] == steps}
                if not points:
                    continue
                ns = sorted(points)
                label = f"{variant}, {steps} steps"
                if variant == "temporal":
                    ks = {points[n]["steps_per_pass"] for n in ns} - {None}
                    if len(ks) == 1:
                        label = f"temporal (K = {next(iter(ks)):g}), {steps} steps"
                ax.plot(ns, [points[n]["gcell_steps"] for n in ns], color=f"C{v_index}",
                        linestyle=styles[s_index % len(styles)], marker="o", label=label)
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda n, _: f"{n:g}"))
        log_y_axis(ax)
        ax.set_xlabel("n (an n x n grid)")
        ax.set_ylabel("G cell-steps/s (10^9 interior cells x steps / s)")
        ax.set_title(f"diffusion/advance {precision}: the variants against the grid size on "
                     f"{context.get('device', '?')}", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        written.append(save(fig, os.path.join(out, f"diffusion_advance_{precision}_by_size.png")))
    return written


def draw(rows, context, out):
    """Every plot of these rows into the folder out; returns the paths written."""
    load_matplotlib()
    os.makedirs(out, exist_ok=True)
    return (bandwidth_plots(rows, context, out) + collapse_plots(rows, context, out)
            + halo_plots(rows, context, out) + advance_k_plots(rows, context, out)
            + advance_size_plots(rows, context, out))


def main(argv):
    parser = argparse.ArgumentParser(
        prog="plot.py", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", metavar="OUT_DIR",
                        help="folder for the PNG files, made if missing; a plot of the same "
                             "name is replaced")
    parser.add_argument("results", nargs="+", metavar="RESULT.json",
                        help="Google Benchmark JSON files to draw, read together (an entry of "
                             "a later file replaces one of the same name in an earlier file)")
    args = parser.parse_args(argv)
    rows, context = load(args.results)
    try:
        written = draw(rows, context, args.out)
    except MissingMatplotlib as missing:
        print(f"plot.py: {missing}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
