#!/usr/bin/env python3
"""Prints loopnest benchmark JSON (Google Benchmark) as comparison tables.

One table per family/kernel/precision: a row per extents, a column per schedule/mapping, each
cell the share of the same-run copy bandwidth (pct_copy). Then, per row, the speedup of
collapse3 over collapse4 and whether automatic stays within 5% of the better of the two.
Usage: report.py RESULT.json [...] [--markdown]
"""
import json
import sys
from collections import OrderedDict


def load(paths):
    rows, context = [], {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        context = data.get("context", context)
        for b in data["benchmarks"]:
            if b.get("run_type", "iteration") != "iteration" or "error_occurred" in b and b["error_occurred"]:
                if b.get("error_occurred"):
                    print(f"ERROR {b['name']}: {b.get('error_message')}", file=sys.stderr)
                continue
            name = b["name"].split("/real_time")[0].split("/manual_time")[0]
            parts = name.split("/")
            if len(parts) < 6:
                continue
            family, kernel, schedule, mapping, precision = parts[:5]
            extents = "/".join(parts[5:])
            rows.append(dict(family=family, kernel=kernel, schedule=schedule, mapping=mapping,
                             precision=precision, extents=extents, us=b["real_time"],
                             unit=b.get("time_unit", "us"), pct=b.get("pct_copy", 0.0)))
    return rows, context


def size_key(extents):
    head = extents.split("/")[0]
    out = []
    for x in head.split("x"):
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
    if context:
        keys = ["device", "execution_space", "kokkos_version", "cuda_version", "git_commit", "date",
                "copy_bytes_per_second"]
        for k in keys:
            if k in context:
                print(f"{k}: {context[k]}")
        print()
    groups = OrderedDict()
    for r in rows:
        groups.setdefault((r["family"], r["kernel"], r["precision"]), []).append(r)
    ok = True
    for (family, kernel, precision), rs in groups.items():
        columns = list(OrderedDict.fromkeys(f"{r['schedule']}/{r['mapping']}" for r in rs))
        extents = sorted(OrderedDict.fromkeys(r["extents"] for r in rs), key=size_key)
        cell = {(f"{r['schedule']}/{r['mapping']}", r["extents"]): r for r in rs}
        print(f"{family}/{kernel} {precision}: pct_copy (percent of same-run copy bandwidth)")
        extra = ["c3/c4", "auto ok"]
        header = ["extents"] + columns + extra
        if markdown:
            print("| " + " | ".join(header) + " |")
            print("|" + "---|" * len(header))
        else:
            print("  ".join(f"{h:>14}" if i else f"{h:<18}" for i, h in enumerate(header)))
        for e in extents:
            vals = [cell.get((c, e)) for c in columns]
            text = [f"{v['pct']:.1f}" if v else "-" for v in vals]
            c3 = cell.get(("collapse3/contiguous", e))
            c4 = cell.get(("collapse4/contiguous", e))
            au = cell.get(("automatic/contiguous", e))
            ratio = f"{c4['us'] / c3['us']:.2f}" if c3 and c4 else "-"
            auto_ok = "-"
            if c3 and c4 and au:
                good = au["us"] <= 1.05 * min(c3["us"], c4["us"])
                auto_ok = "yes" if good else "NO"
                ok = ok and good
            line = [e] + text + [ratio, auto_ok]
            if markdown:
                print("| " + " | ".join(line) + " |")
            else:
                print("  ".join(f"{x:>14}" if i else f"{x:<18}" for i, x in enumerate(line)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
