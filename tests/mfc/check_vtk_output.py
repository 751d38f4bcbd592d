#!/usr/bin/env python3
"""Checks loopnest-mfc's VTK output in D and draws it with scripts/plot_mfc.py.

usage: check_vtk_output.py D PLOT_SCRIPT STEPS DT ARRAYS [AXIS]

D/state.pvd is well-formed XML listing state.00.<step>.vtr at time step*DT for each of the
comma-separated STEPS; each .vtr's XML header is well-formed, names the comma-separated
ARRAYS as cell data in that order and its appended blocks fill the file to its closing tags.
plot_mfc.py draws pres of the last step (a plane normal to AXIS in 3D): a PNG of the size
asked for, with more than one colour. A variable the file does not have and a missing file
are refused with exit status 2 and a line naming them. Exits 1 with a line for the first
check that fails.
"""

import os
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib


def fail(message):
    print(f"check_vtk_output.py: {message}", file=sys.stderr)
    sys.exit(1)


def check_vtr(path, arrays):
    with open(path, "rb") as f:
        data = f.read()
    start = data.find(b"<AppendedData")
    underscore = data.find(b"_", start)
    root = ET.fromstring(data[:start] + b"</VTKFile>")
    names = [e.get("Name") for e in root.iter("DataArray") if e.get("format") == "appended"]
    if names[:len(arrays)] != arrays or names[len(arrays):] != ["x", "y", "z"]:
        fail(f"{path}: arrays {names}, expected {arrays} then x, y, z")
    # The blocks, in offset order, are contiguous and end where the closing tags begin.
    at = underscore + 1
    for e in sorted(root.iter("DataArray"), key=lambda e: int(e.get("offset", -1))):
        if e.get("format") != "appended":
            continue
        if underscore + 1 + int(e.get("offset")) != at:
            fail(f"{path}: {e.get('Name')} at offset {e.get('offset')}, not after the last block")
        (nbytes,) = struct.unpack_from("<Q", data, at)
        at += 8 + nbytes
    if data[at:] != b"\n  </AppendedData>\n</VTKFile>\n":
        fail(f"{path}: {len(data) - at} bytes after the last block are not the closing tags")


def png_facts(path):
    """(width, height, number of distinct colours) of an 8-bit RGB PNG without interlace."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path}: no PNG signature")
    at, idat, header = 8, b"", None
    while at < len(data):
        (length,) = struct.unpack_from(">I", data, at)
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack_from(">I", data, at + 8 + length)
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            fail(f"{path}: chunk {kind} has a wrong CRC")
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    if header is None or header[2:] != (8, 2, 0, 0, 0):
        fail(f"{path}: IHDR {header} is not 8-bit RGB")
    width, height = header[:2]
    raw = zlib.decompress(idat)
    row = 1 + 3 * width
    if len(raw) != row * height or any(raw[y * row] != 0 for y in range(height)):
        fail(f"{path}: the image data is not {height} unfiltered rows of {width} pixels")
    colours = {bytes(raw[y * row + 1 + 3 * x:y * row + 4 + 3 * x])
               for y in range(height) for x in range(width)}
    return width, height, len(colours)


def main():
    d, plot, steps, dt, arrays = sys.argv[1:6]
    axis = sys.argv[6] if len(sys.argv) > 6 else "z"
    steps = [int(s) for s in steps.split(",")]
    arrays = arrays.split(",")
    collection = ET.parse(os.path.join(d, "state.pvd")).getroot()
    listed = [(float(e.get("timestep")), e.get("part"), e.get("file"))
              for e in collection.iter("DataSet")]
    expected = [(s * float(dt), "0", f"state.00.{s:06d}.vtr") for s in steps]
    if listed != expected:
        fail(f"state.pvd lists {listed}, expected {expected}")
    for _, _, name in listed:
        check_vtr(os.path.join(d, name), arrays)
    last = os.path.join(d, listed[-1][2])
    with tempfile.TemporaryDirectory(prefix="check_vtk_output") as tmp:
        png = os.path.join(tmp, "pres.png")
        run = subprocess.run([sys.executable, plot, last, "--var", "pres", "--axis", axis,
                              "--size", "200x120", "-o", png],
                             capture_output=True, text=True)
        if run.returncode != 0 or not run.stdout.startswith("pres"):
            fail(f"plot_mfc.py exited {run.returncode}: {run.stdout}{run.stderr}")
        width, height, colours = png_facts(png)
        if (width, height) != (200, 120) or colours < 3:
            fail(f"{png}: {width}x{height} with {colours} colours, expected 200x120 with several")
        for args, message in (([last, "--var", "pressure"], "--var 'pressure': "),
                              ([os.path.join(tmp, "absent.vtr"), "--var", "pres"], "absent.vtr")):
            run = subprocess.run([sys.executable, plot] + args + ["-o", png],
                                 capture_output=True, text=True)
            if run.returncode != 2 or not run.stderr.startswith("plot_mfc.py: ") \
                    or message not in run.stderr:
                fail(f"plot_mfc.py {args}: exit {run.returncode}, {run.stderr!r}")
    print(f"checked {len(listed)} steps and a {width}x{height} PNG of {colours} colours")


if __name__ == "__main__":
    main()
