#!/usr/bin/env python3
"""Draws loopnest benchmark JSON (Google Benchmark) as PNG plots.

Per family, kernel and precision: the share of the copy bandwidth (pct_copy) against the
problem size, one line per schedule/mapping or variant (explicit-tile columns left out; for
cshift, per rank and layout, a line per table strategy averaged over dims and shifts). Per
family with collapse3 and collapse4 (layouts, fields): a bar chart of both per kernel at the
largest size. Reads the files the way report.py does (loopnest_results: medians of
repetitions). Prints the paths written; exit status 1 when there was nothing to draw, 2 when
matplotlib is missing. `report.py --write DIR` draws the same plots into DIR/plots/ through
draw().
"""
import argparse
import os
import sys
from collections import OrderedDict

from loopnest_results import column, load, size_key

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
        if "@" in column(r["schedule"], r["mapping"]):
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


def draw(rows, context, out):
    """Every plot of these rows into the folder out; returns the paths written."""
    load_matplotlib()
    os.makedirs(out, exist_ok=True)
    return bandwidth_plots(rows, context, out) + collapse_plots(rows, context, out)


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
