#!/usr/bin/env python3
"""Draws one variable of a loopnest-mfc VTK file (D/state.<rank>.<step>.vtr) as a PNG.

A 1D case gives a line plot of the variable against the cell centres; a 2D case an image of
the cells in the colour map; a 3D case the image of one plane of cells, normal to --axis at
cell --index (default: the middle one). The cells keep their widths (stretched grids look
stretched) and the plane keeps its aspect ratio. The variable's range is printed on standard
output as one legend line, and stored in the PNG's text chunks; a 2D image has a colour bar
on its right, from the minimum (bottom) to the maximum (top).

Reads the files loopnest-mfc --output-format vtk writes (raw appended binary, Float32 or
Float64). Python 3 standard library only. Exit status 2 for a missing or unreadable file, a
variable the file does not have, or a bad option.
"""

import argparse
import bisect
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

PROGRAM = "plot_mfc.py"
AXES = "xyz"

# A viridis-like colour map: colours at equally spaced points from the minimum to the maximum.
COLOUR_MAP = [(68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37)]


class PlotError(Exception):
    """A problem with the command line or the input, said in one line (exit status 2)."""


def read_vtr(path):
    """The grid and arrays of a .vtr file: (extent, coordinates, arrays, values_of, time).

    extent is six ints, coordinates three lists of cell boundaries, arrays a dict of name to
    DataArray element, values_of(element) the list of its cell values (x fastest) and time the
    TimeValue field or None.
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise PlotError(f"{path}: cannot read it: {e.strerror}") from None
    start = data.find(b"<AppendedData")
    underscore = data.find(b"_", start)
    if start < 0 or underscore < 0:
        raise PlotError(f"{path}: not a .vtr file with raw appended data "
                        "(loopnest-mfc --output-format vtk writes them)")
    try:
        root = ET.fromstring(data[:start] + b"</VTKFile>")
        appended = ET.fromstring(data[start:underscore] + b"</AppendedData>")
    except ET.ParseError as e:
        raise PlotError(f"{path}: its XML header is not well-formed: {e}") from None
    if root.get("type") != "RectilinearGrid" or appended.get("encoding") != "raw":
        raise PlotError(f"{path}: not a RectilinearGrid with raw appended data")
    order = "<" if root.get("byte_order", "LittleEndian") == "LittleEndian" else ">"
    count_format = {"UInt64": "Q", "UInt32": "I"}.get(root.get("header_type", "UInt32"))
    if count_format is None:
        raise PlotError(f"{path}: header_type {root.get('header_type')} is not read")
    base = underscore + 1

    def values_of(element):
        kind = {"Float64": "d", "Float32": "f"}.get(element.get("type"))
        if kind is None or element.get("format") != "appended":
            raise PlotError(f"{path}: array {element.get('Name')} is not appended "
                            "Float32 or Float64")
        at = base + int(element.get("offset"))
        size = struct.calcsize(order + count_format)
        (nbytes,) = struct.unpack_from(order + count_format, data, at)
        if at + size + nbytes > len(data):
            raise PlotError(f"{path}: array {element.get('Name')} runs past the file's end")
        n = nbytes // struct.calcsize(kind)
        return list(struct.unpack_from(f"{order}{n}{kind}", data, at + size))

    piece = root.find("RectilinearGrid/Piece")
    if piece is None:
        raise PlotError(f"{path}: no Piece in its RectilinearGrid")
    extent = [int(v) for v in piece.get("Extent").split()]
    coordinates = [values_of(e) for e in piece.findall("Coordinates/DataArray")]
    arrays = {e.get("Name"): e for e in piece.findall("CellData/DataArray")}
    time = root.find("RectilinearGrid/FieldData/DataArray[@Name='TimeValue']")
    return (extent, coordinates, arrays, values_of,
            float(time.text) if time is not None else None)


def colour(fraction):
    """The colour map's colour at fraction (0 to 1) of the range."""
    fraction = min(max(fraction, 0.0), 1.0) * (len(COLOUR_MAP) - 1)
    k = min(int(fraction), len(COLOUR_MAP) - 2)
    t = fraction - k
    a, b = COLOUR_MAP[k], COLOUR_MAP[k + 1]
    return tuple(round(a[c] + t * (b[c] - a[c])) for c in range(3))


class Canvas:
    """An RGB image on a white background."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.pixels = bytearray(b"\xff" * (width * height * 3))

    def set(self, x, y, rgb):
        if 0 <= x < self.width and 0 <= y < self.height:
            at = 3 * (y * self.width + x)
            self.pixels[at:at + 3] = bytes(rgb)

    def rectangle(self, x0, y0, x1, y1, rgb):
        """The outline of the rectangle with corners (x0, y0) and (x1, y1), inclusive."""
        for x in range(x0, x1 + 1):
            self.set(x, y0, rgb)
            self.set(x, y1, rgb)
        for y in range(y0, y1 + 1):
            self.set(x0, y, rgb)
            self.set(x1, y, rgb)

    def line(self, x0, y0, x1, y1, rgb):
        """A line two pixels wide, sampled at every pixel along its longer side."""
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for s in range(steps + 1):
            x = round(x0 + (x1 - x0) * s / steps)
            y = round(y0 + (y1 - y0) * s / steps)
            for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)):
                self.set(x + dx, y + dy, rgb)

    def png(self, text):
        """The PNG file's bytes, with `text` (keyword to value) as tEXt chunks."""
        def chunk(kind, body):
            return (struct.pack(">I", len(body)) + kind + body
                    + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
        row = 3 * self.width
        raw = b"".join(b"\x00" + bytes(self.pixels[y * row:(y + 1) * row])
                       for y in range(self.height))
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        chunks = [chunk(b"IHDR", header)]
        chunks += [chunk(b"tEXt", k.encode("latin-1") + b"\x00" + v.encode("latin-1", "replace"))
                   for k, v in text.items()]
        chunks += [chunk(b"IDAT", zlib.compress(raw, 9)), chunk(b"IEND", b"")]
        return b"\x89PNG\r\n\x1a\n" + b"".join(chunks)


MARGIN = 20


def plot_line(canvas, centres, values, low, high):
    """The values against the cell centres inside a frame."""
    black = (0, 0, 0)
    x0, y0 = MARGIN, MARGIN
    x1, y1 = canvas.width - 1 - MARGIN, canvas.height - 1 - MARGIN
    canvas.rectangle(x0 - 4, y0 - 4, x1 + 4, y1 + 4, black)
    span = centres[-1] - centres[0] or 1.0
    points = [(round(x0 + (x1 - x0) * (c - centres[0]) / span),
               round(y1 - (y1 - y0) * (v - low) / (high - low))) for c, v in zip(centres, values)]
    for (a, b), (c, d) in zip(points, points[1:] or points):
        canvas.line(a, b, c, d, (31, 119, 180))


def plot_plane(canvas, u_cb, v_cb, value, low, high):
    """The cells of a plane (value(i, j) over cell boundaries u_cb and v_cb) in the colour map,
    aspect kept, and a colour bar to their right."""
    bar = 20
    width = canvas.width - 3 * MARGIN - bar
    height = canvas.height - 2 * MARGIN
    lu, lv = u_cb[-1] - u_cb[0], v_cb[-1] - v_cb[0]
    scale = min(width / lu, height / lv)
    pw, ph = max(1, round(lu * scale)), max(1, round(lv * scale))
    for py in range(ph):
        v = v_cb[0] + (ph - 1 - py + 0.5) / scale
        j = min(max(bisect.bisect_right(v_cb, v) - 1, 0), len(v_cb) - 2)
        for px in range(pw):
            u = u_cb[0] + (px + 0.5) / scale
            i = min(max(bisect.bisect_right(u_cb, u) - 1, 0), len(u_cb) - 2)
            canvas.set(MARGIN + px, MARGIN + py, colour((value(i, j) - low) / (high - low)))
    bx = 2 * MARGIN + pw
    for py in range(height):
        rgb = colour(1.0 - py / max(1, height - 1))
        for px in range(bar):
            canvas.set(bx + px, MARGIN + py, rgb)
    canvas.rectangle(bx - 1, MARGIN - 1, bx + bar, MARGIN + height, (0, 0, 0))


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog=PROGRAM, description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="a .vtr file loopnest-mfc wrote (D/state.<rank>.<step>.vtr)")
    parser.add_argument("--var", required=True,
                        help="the variable, by MFC's name: alpha_rho1, mom1, E, alpha1, rho, "
                             "vel1, pres, ...")
    parser.add_argument("-o", "--output",
                        help="the PNG to write (default: FILE without .vtr, then .VAR.png)")
    parser.add_argument("--axis", choices=list(AXES), default="z",
                        help="3D: the axis normal to the plane drawn (default z)")
    parser.add_argument("--index", type=int,
                        help="3D: the plane's cell index along --axis, from 0 (default: middle)")
    parser.add_argument("--size", default="640x480",
                        help="the image's WIDTHxHEIGHT in pixels (default 640x480)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        size = args.size.split("x")
        if len(size) != 2 or not all(s.isdigit() for s in size):
            raise PlotError(f"--size '{args.size}': it is WIDTHxHEIGHT, e.g. 640x480")
        width, height = int(size[0]), int(size[1])
        if width < 100 or height < 60 or width * height > 10**8:
            raise PlotError(f"--size '{args.size}': at least 100x60 and at most 1e8 pixels")
        extent, coordinates, arrays, values_of, time = read_vtr(args.file)
        if args.var not in arrays:
            raise PlotError(f"--var '{args.var}': {args.file} has no such variable; "
                            f"it has {', '.join(arrays)}")
        values = values_of(arrays[args.var])
        cells = [extent[2 * d + 1] - extent[2 * d] for d in range(3)]
        present = [d for d in range(3) if cells[d] > 0]
        nx, ny = max(cells[0], 1), max(cells[1], 1)
        if len(values) != nx * ny * max(cells[2], 1) or not present:
            raise PlotError(f"{args.file}: {args.var} has {len(values)} values for the cells "
                            f"{cells}")

        def at(i, j, k):
            return values[i + nx * (j + ny * k)]

        canvas = Canvas(width, height)
        what = args.var
        if len(present) == 1:
            d = present[0]
            x_cb = coordinates[d]
            centres = [(a + b) / 2 for a, b in zip(x_cb, x_cb[1:])]
            shown = values
        else:
            if len(present) == 2:
                normal = 3 - sum(present)
                index = 0
            else:
                normal = AXES.index(args.axis)
                index = cells[normal] // 2 if args.index is None else args.index
                if not 0 <= index < cells[normal]:
                    raise PlotError(f"--index {index}: the case has cells 0 to "
                                    f"{cells[normal] - 1} along {args.axis}")
                what += f" at {AXES[normal]} cell {index}"
            u, v = [d for d in range(3) if d != normal]

            def cell(i, j):
                ijk = [0, 0, 0]
                ijk[u], ijk[v], ijk[normal] = i, j, index
                return at(*ijk)

            shown = [cell(i, j) for i in range(cells[u]) for j in range(cells[v])]
        low, high = min(shown), max(shown)
        if high == low:
            low, high = low - 0.5, high + 0.5  # a uniform field in the middle of the range
        if len(present) == 1:
            plot_line(canvas, centres, shown, low, high)
        else:
            plot_plane(canvas, coordinates[u], coordinates[v], cell, low, high)
        legend = (f"{what}: min {min(shown):.9g} max {max(shown):.9g}"
                  + (f" at t = {time:.9g}" if time is not None else ""))
        output = args.output or (args.file[:-4] if args.file.endswith(".vtr")
                                 else args.file) + f".{args.var}.png"
        try:
            with open(output, "wb") as f:
                f.write(canvas.png({"Title": what, "Comment": legend}))
        except OSError as e:
            raise PlotError(f"{output}: cannot write it: {e.strerror}") from None
    except PlotError as e:
        print(f"{PROGRAM}: {e}", file=sys.stderr)
        return 2
    print(f"{legend} -> {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
