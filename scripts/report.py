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
median is used. For the family `fields`, a last table sums the grind time (ns per grid point per equation) of MFC's eight loops
(copy, three flux differences, three flux finalizes, WENO packing) per schedule. The family
`cshift` gets its own tables: per rank, precision and layout, a row per extents/dim/shift and a
column per table strategy (dt = device_table, htc = host_table_copy, htm = host_table_managed,
none = no_table) with device_table's speedup over host_table_copy; then per strategy and shape
the table work of a first call, and the table work and host-device copies of a repeated one.

Usage: report.py RESULT.json [RESULT.json ...] [--markdown]
"""
import json
import sys
from collections import OrderedDict

# The kernel of a family that a hand-written peer of that family implements.
PEER_KERNEL = {"diffusion": "step"}

SHORT = {"collapse4": "c4", "collapse3": "c3", "flat": "flat", "kokkos_default": "kd",
         "automatic": "auto"}


def column(schedule, mapping):
    if "-tile" in schedule:
        base, tile = schedule.split("-tile", 1)
        name = SHORT.get(base, base) + "@" + tile
    else:
        name = SHORT.get(schedule, schedule)
    return name + ("/s" if mapping == "strided" else "")


def load(paths):
    entries, context = OrderedDict(), {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        context = data.get("context", context)
        for b in data["benchmarks"]:
            if b.get("error_occurred"):
                print(f"ERROR {b['name']}: {b.get('error_message')}", file=sys.stderr)
                continue
            aggregate = b.get("run_type") == "aggregate"
            if aggregate and b.get("aggregate_name") != "median":
                continue
            name = b.get("run_name", b["name"]).split("/real_time")[0].split("/manual_time")[0]
            parts = name.split("/")
            if len(parts) < 6:
                continue
            if name in entries and entries[name]["median"] and not aggregate:
                continue
            family, kernel, schedule, mapping, precision = parts[:5]
            if family == "peer":
                # peer/<family>/<implementation>/...: a column of that family's first kernel.
                family, kernel, schedule = kernel, PEER_KERNEL.get(kernel, kernel), "peer-" + schedule
            entries[name] = dict(family=family, kernel=kernel, schedule=schedule, mapping=mapping,
                                 precision=precision, extents="/".join(parts[5:]),
                                 time=b["real_time"], pct=b.get("pct_copy", 0.0),
                                 grind=b.get("grind_ns"), median=aggregate,
                                 table_build=b.get("table_build_us"),
                                 table_call=b.get("table_us_per_call"),
                                 transfers=b.get("transfers_per_call"))
    return list(entries.values()), context


def size_key(extents):
    out = []
    for x in extents.split("/")[0].split("x"):
        try:
            out.append(int(x))
        except ValueError:
            out.append(0)
    return out


def main(argv):
    markdown = "--markdown" in argv
    paths = [a for a in argv if not a.startswith("--")]
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    rows, context = load(paths)
    for k in ["device", "execution_space", "kokkos_version", "cuda_version", "git_commit", "date"]:
        if k in context:
            print(f"- {k}: {context[k]}" if markdown else f"{k}: {context[k]}")
    if "copy_bytes_per_second" in context:
        gbs = float(context["copy_bytes_per_second"]) / 1e9
        line = f"copy bandwidth (Kokkos::deep_copy, read + write): {gbs:.0f} GB/s"
        print(f"- {line}" if markdown else line)
    print()
    groups = OrderedDict()
    for r in rows:
        groups.setdefault((r["family"], r["kernel"], r["precision"]), []).append(r)
    for (family, kernel, precision), rs in groups.items():
        if family == "cshift":
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
    print_cshift(rows, markdown)
    return 0


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
        for line in [header] + lines:
            print(f"{line[0]:<28}" + "".join(f"{x:>12}" for x in line[1:]))
    print()


def print_cshift(rows, markdown):
    rs = [r for r in rows if r["family"] == "cshift"]
    groups = OrderedDict()
    for r in rs:
        groups.setdefault((r["kernel"], r["precision"], r["mapping"]), []).append(r)
    for (rank, precision, layout), g in groups.items():
        cell = {(r["schedule"], r["extents"]): r for r in g}
        strategies = [s for s in CSHIFT_STRATEGIES if any(r["schedule"] == s for r in g)]
        lines = []
        for e in sorted(OrderedDict.fromkeys(r["extents"] for r in g), key=lambda e: (size_key(e), e)):
            dt, htc = cell.get(("device_table", e)), cell.get(("host_table_copy", e))
            lines.append([e] + [f"{cell[(s, e)]['pct']:.1f}" if (s, e) in cell else "-"
                                for s in strategies]
                         + [f"{htc['time'] / dt['time']:.2f}" if dt and htc else "-"])
        print_rows(f"cshift/{rank} {precision} {layout}: pct_copy",
                   ["extents/dim/shift"] + [CSHIFT_STRATEGIES[s] for s in strategies] + ["htc/dt"],
                   lines, markdown)
    work = OrderedDict()
    for r in rs:
        key = (r["schedule"], r["kernel"], r["precision"], r["extents"].split("/")[0])
        work.setdefault(key, []).append(r)
    lines = []
    for (strategy, rank, precision, shape), g in work.items():
        mean = lambda k: sum(r[k] or 0.0 for r in g) / len(g)
        lines.append([f"{CSHIFT_STRATEGIES.get(strategy, strategy)} {precision} {shape}",
                      f"{mean('table_build'):.1f}", f"{mean('table_call'):.2f}",
                      f"{mean('transfers'):.2f}"])
    if lines:
        print_rows("cshift: table work (mean over layouts, dims and shifts)",
                   ["strategy precision extents", "first_us", "us/call", "copies/call"], lines,
                   markdown)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
