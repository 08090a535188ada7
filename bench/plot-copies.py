#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plot host-device copy bandwidth against size as an SVG, one panel per direction.

    plot-copies.py [-o OUT.svg] [-t TITLE] FILE.tsv...

Reads copy-bench / copy-bench-cuda TSV lines "dir bytes path GB/s" (the
--tsv files that bench/run-copy-gpu.sh writes: copy-clwarp.tsv and
copy-cuda.tsv) and draws each path (pageable, raw-pinned, clwarp-pinned,
staged, cuda-pageable, cuda-pinned) as one line: x the copy's size on a
log2 axis, y GB/s. Python's standard library only, so it runs where
matplotlib and gnuplot are not installed.
"""
import argparse
import math
import sys

# Path -> (label, colour, dash pattern); the paths copy-bench and copy-bench-cuda write.
STYLE = {
    "staged": ("clwarp_buffer_write/read from malloc'd memory (staged)", "#d62728", ""),
    "clwarp-pinned": ("clwarp from clwarp_host_buffer_new memory", "#1f77b4", ""),
    "raw-pinned": ("raw OpenCL from a mapped ALLOC_HOST_PTR buffer", "#17becf", "6,3"),
    "pageable": ("raw OpenCL from malloc'd memory", "#7f7f7f", ""),
    "cuda-pinned": ("cudaMemcpy from cudaMallocHost memory", "#2ca02c", "6,3"),
    "cuda-pageable": ("cudaMemcpy from malloc'd memory", "#bcbd22", "2,3"),
}
WIDTH, HEIGHT = 980, 460
PANEL_W, PANEL_H = 400, 300
MARGIN_L, MARGIN_T = 60, 50


def read_rows(paths):
    """{(dir, path): {bytes: GB/s}} from the TSV files; other lines are skipped."""
    rows = {}
    for name in paths:
        with open(name) as f:
            for line in f:
                p = line.rstrip("\n").split("\t")
                if len(p) != 4 or p[0] not in ("write", "read"):
                    continue
                try:
                    rows.setdefault((p[0], p[2]), {})[int(p[1])] = float(p[3])
                except ValueError:
                    continue
    return rows


def size_label(b):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if b >= 1 << shift:
            return "%d %s" % (b >> shift, unit)
    return "%d B" % b


def panel(out, x0, y0, direction, rows, lo, hi, ymax):
    """One direction's axes, grid and lines, with its top-left corner at (x0, y0)."""
    def px(b):
        return x0 + (math.log2(b) - lo) / (hi - lo) * PANEL_W

    def py(v):
        return y0 + PANEL_H - v / ymax * PANEL_H

    out.append('<text x="%d" y="%d" font-size="15" font-weight="bold">%s</text>'
               % (x0, y0 - 12, "host to device (write)" if direction == "write" else "device to host (read)"))
    for g in range(0, int(ymax) + 1, 10):
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (x0, py(g), x0 + PANEL_W, py(g)))
        out.append('<text x="%d" y="%.1f" font-size="11" text-anchor="end">%d</text>' % (x0 - 6, py(g) + 4, g))
    for e in range(int(lo), int(hi) + 1, 2):
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>' % (px(1 << e), y0, px(1 << e), y0 + PANEL_H))
        out.append('<text x="%.1f" y="%d" font-size="10" text-anchor="middle">%s</text>'
                   % (px(1 << e), y0 + PANEL_H + 15, size_label(1 << e)))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>' % (x0, y0, PANEL_W, PANEL_H))
    out.append('<text x="%d" y="%d" font-size="11" transform="rotate(-90 %d %d)" text-anchor="middle">GB/s</text>'
               % (x0 - 40, y0 + PANEL_H // 2, x0 - 40, y0 + PANEL_H // 2))
    for path, (label, colour, dash) in STYLE.items():
        points = sorted(rows.get((direction, path), {}).items())
        if not points:
            continue
        coords = " ".join("%.1f,%.1f" % (px(b), py(v)) for b, v in points)
        out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>'
                   % (coords, colour, ' stroke-dasharray="%s"' % dash if dash else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default="copies.svg")
    ap.add_argument("-t", "--title", default="Host-device copies: GB/s by size")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    rows = read_rows(args.files)
    sizes = [b for series in rows.values() for b in series]
    if not sizes:
        sys.exit("plot-copies: no 'dir bytes path GB/s' lines in %s" % ", ".join(args.files))
    lo, hi = math.floor(math.log2(min(sizes))), math.ceil(math.log2(max(sizes)))
    if hi == lo:
        hi = lo + 1
    ymax = max(10.0, math.ceil(max(v for s in rows.values() for v in s.values()) / 10.0) * 10.0)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">' % (WIDTH, HEIGHT),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="24" font-size="17">%s</text>' % (MARGIN_L, args.title.replace("&", "&amp;").replace("<", "&lt;"))]
    panel(out, MARGIN_L, MARGIN_T, "write", rows, lo, hi, ymax)
    panel(out, MARGIN_L + PANEL_W + 80, MARGIN_T, "read", rows, lo, hi, ymax)
    y = MARGIN_T + PANEL_H + 40
    for i, (path, (label, colour, dash)) in enumerate(STYLE.items()):
        if not any(key[1] == path for key in rows):
            continue
        x = MARGIN_L + (i % 2) * 440
        yy = y + (i // 2) * 18
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
                   % (x, yy - 4, x + 28, yy - 4, colour, ' stroke-dasharray="%s"' % dash if dash else ""))
        out.append('<text x="%d" y="%d" font-size="12">%s</text>' % (x + 34, yy, label.replace("&", "&amp;")))
    out.append("</svg>")
    with open(args.output, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
