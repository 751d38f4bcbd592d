"""loopnest benchmark results as rows: what scripts/report.py and scripts/plot.py both read.

Loads Google Benchmark JSON (one entry per benchmark name, the median where a file holds
repetitions) and parses each name into a row. Names are
`family/kernel/schedule/mapping/precision/extents` (docs/benchmarks.md); a row has those six
fields, the measurements (time in microseconds, GB/s, pct_copy, grind time, the cshift table
counters) and:

- `peer/<family>/<implementation>/<mapping>/<precision>/<extents>`, a hand-written peer, becomes a
  row of <family> whose kernel is the one the peer implements (PEER_KERNEL) and whose schedule is
  `peer-<implementation>`.
- `cshift/rank<r>/strategy-<strategy>/layout-<layout>/<precision>/<extents>/dim<d>/shift<s>`
  gets the fields rank, strategy, layout, dim and shift (numbers as int) besides the six; names
  of the earlier form `cshift/<r>d/<strategy>/<layout>/...` (results measured before the
  rename) are rewritten to this form when they are read, so old and new files merge.
- `diffusion/advance/<variant>/<mapping>/<precision>/<n>x<n>/steps<N>`, N steps per iteration
  (bench/diffusion.cpp): kernel `advance`, schedule the variant as named, extents
  `<n>x<n>/steps<N>`, and the fields variant (without a `-k<K>` suffix), k (the K of
  `temporal-k<K>`, the temporal variant forced to K steps per pass; None without the suffix),
  n and steps (ints). Its counters: gcell_steps (gcell_steps_per_second, 10^9 interior
  cell-steps per second), steps_per_pass and x_single (None where an entry has none).

The MPI benchmark bench/halo.cpp (docs/distributed.md) names its entries otherwise; their rows
have the six fields too (so that every row has them), but the scripts draw and tabulate these
families (DISTRIBUTED_FAMILIES) on their own:

- `halo/<transport>/<precision>/<nx>x<ny>x<nz>x<nvar>/ghost<g>/gpus<P>`, the exchange of a field
  set by a transport: kernel `exchange`, schedule the transport, and the fields transport, n (nx),
  nvar, ghost, gpus (ints) and message_bytes, the bytes of one x face's message
  (g * ny * nz * nvar * the precision's bytes; None for a precision other than fp64 and fp32).
- `halo_reference/<nccl|mpi>_sendrecv/...` (the same form), the same bytes as one plain message
  per face: kernel `sendrecv`, transport `nccl_sendrecv` or `mpi_sendrecv`, the same fields.
- `scaling/<kernel>/<weak|strong>/<transport>/<precision>/<extents>/gpus<P>`, the distributed
  solver: kernel as named (`diffusion`), schedule the transport (`none` on one rank), and the
  fields transport, mode (weak or strong) and gpus.

The counters of these rows: gbs (bytes_per_second / 1e9), pct_nccl and pct_mpi
(pct_nccl_sendrecv, pct_mpi_sendrecv), gcells (gcells_per_second), efficiency and speedup; None
where an entry has no such counter. Google Benchmark's `/iterations:<N>` (bench/halo.cpp fixes
the iterations) is dropped from every name, as are `/real_time` and `/manual_time`.

This module imports neither script; both import it.
"""
import json
import re
import sys
from collections import OrderedDict

# The kernel of a family that a hand-written peer of that family implements.
PEER_KERNEL = {"diffusion": "step"}

SHORT = {"collapse4": "c4", "collapse3": "c3", "flat": "flat", "kokkos_default": "kd",
         "automatic": "auto"}

# Microseconds per unit of Google Benchmark's time_unit.
TIME_UNIT_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}

CSHIFT_NAME = re.compile(r"cshift/rank(?P<rank>\d+)/strategy-(?P<strategy>[a-z_]+)/"
                         r"layout-(?P<layout>[a-z]+)/(?P<precision>[^/]+)/(?P<extents>[^/]+)/"
                         r"dim(?P<dim>\d+)/shift(?P<shift>-?\d+)")
OLD_CSHIFT_NAME = re.compile(r"cshift/(?P<rank>\d+)d/(?P<strategy>[a-z_]+)/(?P<layout>[a-z]+)/"
                             r"(?P<rest>[^/]+/[^/]+/dim\d+/shift-?\d+)")
HALO_NAME = re.compile(r"(?P<family>halo|halo_reference)/(?P<transport>[a-z0-9_]+)/"
                       r"(?P<precision>[^/]+)/(?P<extents>(?P<nx>\d+)x(?P<ny>\d+)x(?P<nz>\d+)"
                       r"x(?P<nvar>\d+))/ghost(?P<ghost>\d+)/gpus(?P<gpus>\d+)")
ADVANCE_NAME = re.compile(r"diffusion/advance/(?P<variant>[a-z0-9_]+)(?:-k(?P<k>\d+))?/"
                          r"(?P<mapping>[a-z]+)/(?P<precision>[^/]+)/"
                          r"(?P<extents>(?P<n>\d+)x\d+/steps(?P<steps>\d+))")
SCALING_NAME = re.compile(r"scaling/(?P<kernel>[a-z0-9_]+)/(?P<mode>weak|strong)/"
                          r"(?P<transport>[a-z0-9_]+)/(?P<precision>[^/]+)/"
                          r"(?P<extents>\d+(?:x\d+)*)/gpus(?P<gpus>\d+)")

# The families of the MPI benchmark (bench/halo.cpp): not family/kernel/schedule/mapping/...
# names, so the per-schedule tables and plots leave them to their own.
DISTRIBUTED_FAMILIES = ("halo", "halo_reference", "scaling")
# Families whose names this module parses by a pattern: a name of one of them that does not
# match is reported when it is skipped.
PATTERN_FAMILIES = ("cshift",) + DISTRIBUTED_FAMILIES
# The same for a kernel of a family whose other kernels have the usual names.
PATTERN_KERNELS = ("diffusion/advance",)

# Bytes of one value of a precision.
PRECISION_BYTES = {"fp64": 8, "fp32": 4}


def halo_reference_of(transport):
    """The halo_reference that a halo transport is set against: nccl_sendrecv for nccl,
    mpi_sendrecv (MPI from host buffers) for the MPI transports (mpi_host, mpi_device)."""
    return "nccl_sendrecv" if transport.startswith("nccl") else "mpi_sendrecv"


def byte_text(count):
    """A byte count for people: 512 B, 64 KiB, 9.86 MiB, ..."""
    for unit, size in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10), ("B", 1)):
        if count >= size or unit == "B":
            value = count / size
            return f"{value:.3g} {unit}" if value < 100 else f"{value:.0f} {unit}"


def column(schedule, mapping):
    """The short column name of a schedule and mapping: c3, c4/s, c3@64x4x1, c3x4 (4 cells per
    thread), ..."""
    if "-tile" in schedule:
        base, tile = schedule.split("-tile", 1)
        name = SHORT.get(base, base) + "@" + tile
    elif "-cells" in schedule:
        base, cells = schedule.split("-cells", 1)
        name = SHORT.get(base, base) + "x" + cells
    else:
        name = SHORT.get(schedule, schedule)
    return name + ("/s" if mapping == "strided" else "")


def size_key(extents):
    """The numbers of the first extents field ("64x64x7" -> [64, 64, 7]), to sort by size."""
    out = []
    for x in extents.split("/")[0].split("x"):
        try:
            out.append(int(x))
        except ValueError:
            out.append(0)
    return out


def normalise_name(name):
    """A benchmark name in today's form: an old cshift name is rewritten, others kept."""
    old = OLD_CSHIFT_NAME.fullmatch(name)
    if old:
        return (f"cshift/rank{old['rank']}/strategy-{old['strategy']}/layout-{old['layout']}/"
                f"{old['rest']}")
    return name


def parse_name(name):
    """The fields of a (normalised) benchmark name as a dict, or None when it has too few (or is
    a name of a PATTERN_FAMILIES family that does not match its pattern)."""
    parts = name.split("/")
    if parts[0] in DISTRIBUTED_FAMILIES:
        return parse_distributed_name(name)
    if len(parts) < 6:
        return None
    if parts[0] == "cshift":
        m = CSHIFT_NAME.fullmatch(name)
        if not m:
            return None
        return dict(family="cshift", kernel=parts[1], schedule=parts[2], mapping=parts[3],
                    precision=m["precision"], extents=m["extents"], rank=int(m["rank"]),
                    strategy=m["strategy"], layout=m["layout"], dim=int(m["dim"]),
                    shift=int(m["shift"]))
    if is_advance_name(name):
        m = ADVANCE_NAME.fullmatch(name)
        if not m:
            return None
        return dict(family="diffusion", kernel="advance", schedule=parts[2],
                    mapping=m["mapping"], precision=m["precision"], extents=m["extents"],
                    variant=m["variant"], k=int(m["k"]) if m["k"] else None, n=int(m["n"]),
                    steps=int(m["steps"]))
    family, kernel, schedule, mapping, precision = parts[:5]
    if family == "peer":
        # peer/<family>/<implementation>/...: a column of that family's first kernel.
        family, kernel, schedule = kernel, PEER_KERNEL.get(kernel, kernel), "peer-" + schedule
    return dict(family=family, kernel=kernel, schedule=schedule, mapping=mapping,
                precision=precision, extents="/".join(parts[5:]))


def is_advance_name(name):
    """Whether a (normalised) name is one of the diffusion/advance family."""
    return name.startswith("diffusion/advance/")


def is_advance(row):
    """Whether a row is of diffusion/advance: N steps an entry, whose pct_copy and time do not
    compare with one step's, so the per-size plots leave it to its own."""
    return row["family"] == "diffusion" and row["kernel"] == "advance"


def parse_distributed_name(name):
    """The fields of a halo, halo_reference or scaling name (see the module's docstring), or
    None when it does not match its family's pattern."""
    halo = HALO_NAME.fullmatch(name)
    if halo:
        nx, ny, nz, nvar, ghost = (int(halo[k]) for k in ("nx", "ny", "nz", "nvar", "ghost"))
        size = PRECISION_BYTES.get(halo["precision"])
        return dict(family=halo["family"],
                    kernel="exchange" if halo["family"] == "halo" else "sendrecv",
                    schedule=halo["transport"], mapping="", precision=halo["precision"],
                    extents=halo["extents"], transport=halo["transport"], n=nx, nvar=nvar,
                    ghost=ghost, gpus=int(halo["gpus"]),
                    message_bytes=ghost * ny * nz * nvar * size if size else None)
    scaling = SCALING_NAME.fullmatch(name)
    if scaling:
        return dict(family="scaling", kernel=scaling["kernel"], schedule=scaling["transport"],
                    mapping="", precision=scaling["precision"], extents=scaling["extents"],
                    transport=scaling["transport"], mode=scaling["mode"],
                    gpus=int(scaling["gpus"]))
    return None


def benchmark_name(b):
    """The name of a Google Benchmark entry without its run suffixes (/iterations:<N>,
    /real_time, /manual_time and aggregate suffixes)."""
    name = b.get("run_name", b["name"]).split("/real_time")[0].split("/manual_time")[0]
    return re.sub(r"/iterations:\d+", "", name)


def read(path):
    """One JSON file: its rows by name (medians of repetitions where there are some), context."""
    with open(path) as f:
        data = json.load(f)
    entries = OrderedDict()
    for b in data["benchmarks"]:
        if b.get("error_occurred"):
            print(f"ERROR {b['name']}: {b.get('error_message')}", file=sys.stderr)
            continue
        aggregate = b.get("run_type") == "aggregate"
        if aggregate and b.get("aggregate_name") != "median":
            continue
        name = normalise_name(benchmark_name(b))
        fields = parse_name(name)
        if fields is None:
            family = name.split("/")[0]
            kernel = "/".join(name.split("/")[:2])
            if family in PATTERN_FAMILIES or kernel in PATTERN_KERNELS:
                # A name of no known form would otherwise vanish from the report unseen.
                what = kernel if kernel in PATTERN_KERNELS else family
                print(f"skipped {name}: not a {what} name this script knows", file=sys.stderr)
            continue
        time_us = b["real_time"] * TIME_UNIT_US.get(b.get("time_unit", "ns"), 1e-3)
        merge(entries, {name: dict(name=name, **fields, time=time_us,
                                   gbs=b.get("bytes_per_second", 0.0) / 1e9,
                                   pct=b.get("pct_copy", 0.0), grind=b.get("grind_ns"),
                                   median=aggregate, repetitions=b.get("repetitions", 1),
                                   table_build=b.get("table_build_us"),
                                   table_call=b.get("table_us_per_call"),
                                   transfers=b.get("transfers_per_call"),
                                   pct_nccl=b.get("pct_nccl_sendrecv"),
                                   pct_mpi=b.get("pct_mpi_sendrecv"),
                                   gcells=b.get("gcells_per_second"),
                                   efficiency=b.get("efficiency"),
                                   speedup=b.get("speedup"),
                                   gcell_steps=b.get("gcell_steps_per_second"),
                                   steps_per_pass=b.get("steps_per_pass"),
                                   x_single=b.get("x_single"))})
    return entries, data.get("context", {})


def merge(entries, more):
    """Adds rows by name; a median (of repetitions) is not replaced by a single run."""
    for name, e in more.items():
        if name in entries and entries[name]["median"] and not e["median"]:
            continue
        entries[name] = e


def load(paths):
    """The rows of several files (a later file's row replaces an earlier one of the same
    name, unless only the earlier is a median) and the last non-empty context."""
    entries, context = OrderedDict(), {}
    for path in paths:
        more, file_context = read(path)
        merge(entries, more)
        context = file_context or context
    return list(entries.values()), context
