#!/usr/bin/env python3
# docs/performance.md and its plots, generated from one recorded job per
# machine in bench/results/. Nothing on that page is typed by hand: edit
# this script or record a new job, then run it again.
# SPDX-License-Identifier: MIT
"""Usage: python3 bench/perf-page.py [--out DIR]

Writes DIR/performance.md and DIR/performance/CALL.svg (DIR: docs/ of the
tree this script is in). The jobs it reads are JOBS below:

  H200   bench/run-standing-gpu.sh's TSVs: libclwarp (nv backend) and CUB
         in the same rounds; the blocking call on an engine without
         profiling for the algorithms, event time for the sorts, as
         bench/scorecard.py judges them (its reading of the rows is used);
         for the row calls (segmented reduce, softmax), the faster per cell
         of CUB's device call and cub-bench's CUB kernel per row.
  CPU    bench/run-standing-cpu.sh's TSVs, one set per runtime (PoCL,
         Intel's CPU runtime): libclwarp on an engine without profiling
         against the benches' plain C loops on the host (algorithms-bench,
         hist-rle-bench --host) and qsort of the keys and of the pairs
         (sort-bench --host).

Figures are medians over a job's rounds. Ratio: the baseline's time over
libclwarp's, above 1 when libclwarp is faster. The plots are SVG written
here (no plotting library needed), so the output is the same on every
machine; tests/check-perf-page.py checks that the page in the tree is
this script's output.
"""
import argparse
import glob
import importlib.util
import math
import os
import statistics
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

spec = importlib.util.spec_from_file_location("scorecard", os.path.join(HERE, "scorecard.py"))
scorecard = importlib.util.module_from_spec(spec)
spec.loader.exec_module(scorecard)

# The recorded jobs: (machine, folder under bench/results, kind, baseline,
# the command that records such a job). The folder is a glob: the newest
# match (by name, whose end is the job's date) that holds such a job's
# first round is read, so a new job recorded beside the old one replaces it.
JOBS = [
    ("NVIDIA H200", "h200-standing-*", "gpu", "CUB",
     "bash bench/run-standing-gpu.sh OUTDIR", "1-users.tsv"),
    ("PoCL 3.1, CPU", "cpu-standing-*", "cpu:pocl", "C loop / qsort",
     "bash bench/run-standing-cpu.sh OUTDIR", "pocl-1-users.tsv"),
    ("Intel CPU runtime 2026.2", "cpu-standing-*", "cpu:intel", "C loop / qsort",
     "bash bench/run-standing-cpu.sh OUTDIR", "intel-1-users.tsv"),
]


def newest(results, pattern, marker):
    found = sorted(d for d in glob.glob(os.path.join(results, pattern))
                   if os.path.exists(os.path.join(d, marker)))
    if not found:
        sys.exit("perf-page.py: no recorded job %s with %s in %s" % (pattern, marker, results))
    return os.path.basename(found[-1])


# One plot and one section per call family, in this order: (family, title,
# op prefixes).
FAMILIES = [
    ("reduce", "Reduce (`clwarp_reduce`, add)", ("reduce_add",)),
    ("scan", "Inclusive scan (`clwarp_scan`, add, `CLWARP_SCAN_INCLUSIVE`)", ("scan_inclusive_add",)),
    ("compact", "Compaction (`clwarp_compact`, x > 0)", ("compact_gt0",)),
    ("partition", "Partition (`clwarp_partition`, `CLWARP_PARTITION_REVERSED`; x > 0 and x > 0.9)",
     ("partition_reversed_gt0",)),
    ("histogram", "Histogram (`clwarp_histogram`; bins, and the input's shape)", ("hist",)),
    ("rle", "Run-length encode (runs of 1, 4 and 64)", ("rle",)),
    ("unique", "Unique (runs of 4)", ("unique",)),
    ("reduce-by-key", "Reduce by key (runs of 1, 4 and 64)", ("rbk",)),
    ("sort-keys", "Sort, keys only (`clwarp_sort_keys`)", ("sort_keys",)),
    ("sort-pairs", "Sort, keys and values (`clwarp_sort_pairs`)", ("sort_pairs",)),
    ("segreduce", "Segmented reduce (`clwarp_segmented_reduce`, add; one call per row length)",
     ("segmented_reduce_add",)),
    ("segscan", "Segmented scan (`clwarp_segmented_scan`, inclusive add; one call per row length)",
     ("segmented_scan",)),
    ("softmax", "Row softmax (`clwarp_softmax_rows`, rows of 256)", ("softmax",)),
]

# The row calls' families: on the GPU their baseline is, per cell, the
# faster of CUB's device call ("cub": DeviceSegmentedReduce) and cub-bench's
# hand-written kernel of CUB's WarpReduce or BlockReduce per row
# ("cub-kernel"; the only one for softmax), and the table names which.
ROW_FAMILIES = ("segreduce", "segscan", "softmax")
ROW_BASELINE = {
    "segreduce": ("The baseline of each cell is the faster of the two CUDA codes measured: CUB's "
                  "`DeviceSegmentedReduce` (cub) and, for rows of 32-128, cub-bench's kernel of "
                  "CUB's `WarpReduce`, one warp per row (cub-kernel)."),
    "segscan": ("The baseline of each cell is the faster of the CUDA codes measured: CUB's "
                "device call (cub) and, where cub-bench has one, its kernel per row (cub-kernel)."),
    "softmax": ("The baseline is cub-bench's kernel of CUB's `BlockReduce`, one block per row "
                "(cub-kernel): CUB has no softmax call."),
}
# Families that no recorded job may have yet: while none has a row of one,
# it is left out of "Not in this job" and its sentence here says why.
UNMEASURED = {}

# Under this ratio a cell is a gap, and the page names its cause.
GAP = 0.95

SORT_REGISTERS = (
    "NVIDIA's OpenCL runs 384-wide work-groups right (contrib/driver-bugs/nvidia-work-group-query/) "
    "and the sort can run 384 wide (tuning key `sort_wg`), but its pass kernel then takes 80 registers "
    "(with `reqd_work_group_size` the register cap does not apply), so two work-groups of 384 fit an SM "
    "against four of 256, and it ran at 0.74-0.86 of CUB against 0.84-0.91 at 256 wide. The gap is the "
    "pass kernel's registers per key (each key's value, rank and peer mask live in registers), where "
    "CUB's kernel holds 384 x 20 keys in 56 registers (docs/design/sort-shapes.md).")

# The measured cause of each gap, one sentence, by op prefix and type
# (None: any; the first that matches). A gap with none listed here says so
# on the page.
CAUSES = [
    (("sort_keys", "int"), SORT_REGISTERS),
    (("sort_keys", "float"), SORT_REGISTERS),
    (("sort_pairs", "ulong"), "ulong keys with uint values already run at the fastest cap and tile "
     "measured (80 registers, 3 work-groups an SM, the H200's own defaults); what is left is not "
     "broken down (docs/design/sort-gpu.md)."),
    (("sort_pairs", "uint-ulong"), "its tiles (256 x 16) are 8-byte keys' and spill 32 bytes at the "
     "H200's cap of 80 registers; 256 x 14 took 0.97-0.99x the time, but 8-byte keys alone share the "
     "setting and lose with it (docs/design/sort-gpu.md)."),
    (("sort_pairs", "ulong-ulong"), "capped at 80 registers or not (96), it takes the same time; no "
     "other shape has been timed for it (docs/design/sort-gpu.md)."),
    (("segmented_scan_inclusive_add_r1024", None), "not broken down yet. Measured in the same job: at "
     "2^28 this call moves 3,653 GB/s where rows of 32 and 256 move 4,051 and 4,116 GB/s and CUB's "
     "kernel (a block of 256 per row, a float4 a thread) 4,083 GB/s, so the gap is in the kernel that "
     "rows over 256 elements take (one work-group a row, four scalar loads a lane, then a block scan)."),
    (("rbk", None), "no cause found: a register cap from 2^22 and smaller tiles were each measured and neither "
     "closes it (docs/design/hist-rle.md)."),
]
FLOOR_CAUSE = ("within the blocking call's floor: NVIDIA's OpenCL launch-and-wait of the same copy "
               "kernel costs more than CUDA's at this size, measured in the same job, and that "
               "difference covers the gap.")
SMALL_CAUSE = ("below 2^16 a call is one or two launches on both sides and its time is the "
               "launch and the wait (11-17 us on the H200); one call's ratio moves by up to 1.4x "
               "between the rounds of one job there, which covers these cells.")
# The measured causes on CPU runtimes, by (runtime, family).
SCAN_ON_POCL = ("the local backend makes every warp exchange a work-group barrier through local "
                "memory, and the look-back spins while PoCL's other worker thread is descheduled "
                "(long scans run 1.4-1.7x faster on one PoCL thread than on two; "
                "docs/design/cpu-sort.md).")
CPU_CAUSE = {
    ("pocl", "scan"): SCAN_ON_POCL,
    ("pocl", "compact"): "compaction is the scan's look-back and barriers plus a scatter: " + SCAN_ON_POCL,
    ("pocl", "partition"): "partition is the scan's look-back and barriers plus a scatter: " + SCAN_ON_POCL,
    ("pocl", "sort-keys"): ("the local backend's `warp_match_any` emulation is 23 % of the sort pass's time "
                            "(every lane compares its digit with its warp's 32 between two barriers), and "
                            "each wait-free pass is three kernels that end with their slowest worker thread "
                            "(docs/design/cpu-sort.md)."),
}


# The families bench/run-standing-cpu.sh measures: one missing from a CPU
# job that the script runs is one the recorded job predates.
CPU_RUNS = {fam for fam, _, _ in FAMILIES}


def family_of(op):
    for fam, _, prefixes in FAMILIES:
        if op.startswith(prefixes):
            return fam
    return None


def log2(n):
    return n.bit_length() - 1


def read_rows(paths):
    """{(side, op, type, n): {"t": [ms...], "bytes": float}} for the CPU jobs.

    side: "ours" or "base" (the host's C loop or qsort). Time: wall_ms
    (an engine without profiling; the host loops' own wall time); sort-bench
    rows have only median_ms."""
    rows = defaultdict(lambda: {"t": [], "work": None})
    for path in paths:
        with open(path) as f:
            for line in f:
                c = line.rstrip("\n").split("\t")
                if len(c) < 7 or c[0] == "device":
                    continue
                backend = c[1].split("[", 1)[0]
                if backend == "opencl" or c[2] == "copy":
                    continue
                side = "base" if backend == "host" else "ours"
                n, ms, rate = int(c[4]), float(c[5]), float(c[6])
                t = float(c[7]) if len(c) > 7 and c[7] else ms
                r = rows[(side, c[2], c[3], n)]
                r["t"].append(t)
                r["work"] = rate * ms  # GB/s * ms (MB) or Mkeys/s * ms (kkeys)
    return rows


def gpu_cells(folder):
    """Cells (family, op, type, n, ours ms, base ms, work, within floor) of a GPU job."""
    tsvs = sorted(glob.glob(os.path.join(folder, "*.tsv")))
    rows = scorecard.read(tsvs)
    work = {}
    kernel = defaultdict(list)  # cub-bench's kernels per row (scorecard.read skips them)
    for path in tsvs:
        for line in open(path):
            c = line.rstrip("\n").split("\t")
            if len(c) >= 7 and c[0] != "device":
                backend = c[1].split("[", 1)[0]
                try:
                    work.setdefault((backend not in scorecard.CUDA_BACKENDS, c[2], c[3], int(c[4])),
                                    float(c[5]) * float(c[6]))
                    if backend == "cub-kernel" and len(c) > 7 and c[7]:
                        kernel[(c[2], c[3], int(c[4]))].append(float(c[7]))
                except ValueError:
                    pass
    cells = []
    for side, op, typ, n in sorted(k for k in rows if k[0] == "ours"):
        fam = family_of(op)
        if fam is None or n & (n - 1):
            continue
        measure = "event" if op.startswith("sort") else "blocking"
        mine, star = scorecard.figure(rows, ("ours", op, typ, n), measure)
        theirs, _ = scorecard.figure(rows, ("cub", scorecard.cub_op(op), typ, n), measure)
        base = "cub"
        if fam in ROW_FAMILIES and kernel.get((op, typ, n)):
            hand = statistics.median(kernel[(op, typ, n)])
            if theirs is None or hand < theirs:
                theirs, base = hand, "cub-kernel"
        if mine is None or theirs is None or star:
            continue
        floor = measure == "blocking" and scorecard.within_floor(rows, n, mine, theirs)
        cells.append((fam, op, typ, n, mine, theirs, work.get((True, op, typ, n)), floor, base))
    return cells


def cpu_cells(folder, runtime):
    rows = read_rows(sorted(glob.glob(os.path.join(folder, runtime + "-*.tsv"))))
    cells = []
    for side, op, typ, n in sorted(k for k in rows if k[0] == "ours"):
        fam = family_of(op)
        base = rows.get(("base", op, typ, n))
        if fam is None or not base:
            continue
        mine = statistics.median(rows[(side, op, typ, n)]["t"])
        cells.append((fam, op, typ, n, mine, statistics.median(base["t"]),
                      rows[(side, op, typ, n)]["work"], False, None))
    return cells


def job_facts(folder):
    """(commit, device line) from a job's run.log."""
    commit, device = "unknown", ""
    path = os.path.join(folder, "run.log")
    if os.path.exists(path):
        for line in open(path):
            if line.startswith("commit: "):
                commit = line.split()[1]
            elif line.startswith(("NVIDIA", "cpu: ")):
                device = device or line.strip()
    return commit, device


def type_label(op, typ):
    """sort-bench's pairs: "ulong" is ulong keys with uint values, "K-V" K keys with V values."""
    if op != "sort_pairs":
        return typ
    keys, _, values = typ.partition("-")
    return "%s keys, %s values" % (keys, values or "uint")


def rate_text(op, work, ms):
    if work is None:
        return ""
    return "%.1f" % (work / ms) if work / ms < 100 else "%.0f" % (work / ms)


def fmt_ms(ms):
    return "%.4f" % ms if ms < 0.1 else "%.3f" % ms if ms < 10 else "%.1f" % ms


# -- SVG ----------------------------------------------------------------
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f"]
DASHES = ["", "6,3", "2,2", "8,3,2,3"]


def svg_plot(title, series, path):
    """Ratio against log2(n), one line per (machine, call and type)."""
    w, h, left, right, top, bottom = 720, 400, 60, 250, 30, 45
    xs = [x for _, pts, _, _ in series for x, _ in pts]
    ys = [y for _, pts, _, _ in series for _, y in pts] + [1.0]
    x0, x1 = min(xs), max(xs)
    if x0 == x1:
        x0, x1 = x0 - 1, x1 + 1
    y0, y1 = 0.0, max(ys) * 1.08
    # A log scale where the ratios span more than a factor of 20.
    logy = min(ys) > 0 and max(ys) / min(ys) > 20
    if logy:
        y0, y1 = math.log10(min(ys) / 1.2), math.log10(max(ys) * 1.2)

    def px(x):
        return left + (x - x0) / (x1 - x0) * (w - left - right)

    def py(y):
        if logy:
            y = math.log10(y)
        return h - bottom - (y - y0) / (y1 - y0) * (h - top - bottom)

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (w, h),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="13">%s</text>' % (left, esc(title))]
    for x in range(x0, x1 + 1):
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' %
                   (px(x), top, px(x), h - bottom))
        if (x - x0) % 2 == 0 or x1 - x0 <= 10:
            out.append('<text x="%.1f" y="%d" text-anchor="middle">2^%d</text>' %
                       (px(x), h - bottom + 15, x))
    ticks = ([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20] if logy else
             [i * step for step in [nice_step(y1)] for i in range(int(y1 / step) + 1)])
    for t in ticks:
        if logy:
            if not y0 <= math.log10(t) <= y1:
                continue
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s"/>' %
                   (left, py(t), w - right, py(t), "#888" if t == 1 else "#eee"))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (left - 4, py(t) + 4, t))
    out.append('<text x="%d" y="%d" text-anchor="middle">n (elements)</text>' %
               ((left + w - right) // 2, h - 8))
    out.append('<text x="14" y="%d" transform="rotate(-90 14 %d)" text-anchor="middle">'
               'baseline time / libclwarp time</text>' % ((top + h - bottom) // 2, (top + h - bottom) // 2))
    for i, (label, pts, colour, dash) in enumerate(series):
        d = " ".join("%.1f,%.1f" % (px(x), py(y)) for x, y in pts)
        out.append('<polyline fill="none" stroke="%s" stroke-width="1.6"%s points="%s"/>' %
                   (colour, ' stroke-dasharray="%s"' % dash if dash else "", d))
        ly = top + 12 + 14 * i
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1.6"%s/>' %
                   (w - right + 10, ly - 4, w - right + 30, ly - 4, colour,
                    ' stroke-dasharray="%s"' % dash if dash else ""))
        out.append('<text x="%d" y="%d">%s</text>' % (w - right + 34, ly, esc(label)))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def nice_step(top):
    for step in (0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10):
        if top / step <= 8:
            return step
    return 20


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("`", "")


# -- the page -----------------------------------------------------------
# The summary (this page's first table, and README's between its markers):
# per call family and machine, the range of the ratio from this size up.
SUMMARY_FROM_LOG2 = 20
README_BEGIN = "<!-- summary: made by bench/perf-page.py from docs/performance.md's jobs; do not edit -->"
README_END = "<!-- end of summary -->"


def summary_table(jobs):
    """Markdown lines: each family's ratio range per machine, 2^SUMMARY_FROM_LOG2 and up."""
    lines = ["| call | " + " | ".join("%s against %s" % (job[0], job[3]) for job in jobs) + " |",
             "| --- |" + " ---: |" * len(jobs)]
    for fam, title, _ in FAMILIES:
        cols = []
        for job in jobs:
            ratios = [c[5] / c[4] for c in job[5] if c[0] == fam and log2(c[3]) >= SUMMARY_FROM_LOG2]
            lo, hi = (min(ratios), max(ratios)) if ratios else (None, None)
            cols.append("–" if lo is None else "%.2f" % lo if "%.2f" % lo == "%.2f" % hi
                        else "%.2f-%.2f" % (lo, hi))
        lines.append("| %s | %s |" % (title.split(" (")[0], " | ".join(cols)))
    return lines


def write_readme_summary(path, lines):
    """Replace the block between README's summary markers with lines."""
    text = open(path).read()
    if README_BEGIN not in text or README_END not in text:
        sys.exit("perf-page.py: %s lacks the summary markers" % path)
    head, rest = text.split(README_BEGIN, 1)
    tail = rest.split(README_END, 1)[1]
    with open(path, "w") as f:
        f.write(head + README_BEGIN + "\n" + "\n".join(lines) + "\n" + README_END + tail)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs"))
    ap.add_argument("--results", default=os.path.join(HERE, "results"))
    ap.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    args = ap.parse_args()

    jobs = []
    for machine, pattern, kind, base, command, marker in JOBS:
        folder = newest(args.results, pattern, marker)
        path = os.path.join(args.results, folder)
        if kind == "gpu":
            cells = gpu_cells(path)
        else:
            cells = cpu_cells(path, kind.split(":")[1])
        jobs.append((machine, folder, kind, base, command, cells, job_facts(path)))

    os.makedirs(os.path.join(args.out, "performance"), exist_ok=True)
    md = ["# Performance", "",
          "<!-- Generated by bench/perf-page.py from bench/results/; do not edit. -->", "",
          "Every figure on this page comes from one recorded job per machine in",
          "`bench/results/`, the median over that job's rounds. **Ratio** is the",
          "baseline's time over libclwarp's: above 1, libclwarp is faster. On the",
          "GPU the baseline is CUB in the same job, and the time is what a user",
          "waits for: the blocking call on an engine without profiling (CUB: the",
          "call and `cudaStreamSynchronize`), but for the sorts, whose time is the",
          "GPU timeline of the call (event time) on both sides. On CPUs the",
          "baseline is the benches' own: a plain single-threaded C loop for each",
          "call (algorithms-bench, and hist-rle-bench with `--host`), and `qsort`",
          "for the sorts (`sort-bench --host`: of the keys, and of the pairs as",
          "structs ordered by key and then input place, so that equal keys keep",
          "their order), and the time is the blocking call on an engine without",
          "profiling, but for libclwarp's sorts, whose time is their event time",
          "as on the GPU (qsort's is its wall time). GB/s count each element",
          "read and written",
          "once; sorts give Mkeys/s. The design choices behind these figures, and",
          "what was tried and ruled out, are in [design/](design/). Older jobs,",
          "and the raw results the design notes cite that are no longer in the",
          "tree, stay in git history: `git log --stat -- bench/results/` lists",
          "them, and `git show COMMIT:PATH` prints one file.", "",
          "| machine | recorded job | commit | baseline | regenerate the job |",
          "| --- | --- | --- | --- | --- |"]
    for machine, folder, kind, base, command, cells, (commit, device) in jobs:
        md.append("| %s | [bench/results/%s/](../bench/results/%s/) | %s | %s | `%s` |" %
                  (machine, folder, folder, commit, base, command))
    md += ["", "The CPU job ran on 2 shared virtual cores: its figures move by tens of per",
           "cent with the machine's load (each job's README says more).", "",
           "Then this page and its plots: `python3 bench/perf-page.py` (the unit",
           "test `perf-page` fails while the page differs from its output).", ""]

    summary = summary_table(jobs)
    md += ["## Summary", "",
           "Ratio per call and machine, lowest-highest over every case and size",
           "from 2^%d up (the sorts' GPU job starts at 2^24, the CPU job ends at" % SUMMARY_FROM_LOG2,
           "2^22, its sorts at 2^20); README.md shows this table:", ""] + summary + [""]
    write_readme_summary(args.readme, summary)

    md += ["## Known gaps", "",
           "Every cell under %.2f, with its measured cause:" % GAP, ""]
    for machine, folder, kind, base, command, cells, _ in jobs:
        gaps = defaultdict(list)
        for fam, op, typ, n, mine, theirs, work, floor, _ in cells:
            if theirs / mine < GAP:
                if kind == "gpu":
                    cause = FLOOR_CAUSE if floor else SMALL_CAUSE if n < 1 << 16 else next(
                        (c for (p, t), c in CAUSES if op.startswith(p) and t in (None, typ)),
                        "no measured cause yet.")
                else:
                    cause = CPU_CAUSE.get((kind.split(":")[1], fam), "no measured cause yet.")
                gaps[(cause, "%s %s" % (op, type_label(op, typ)))].append("2^%d (%.2f)" % (log2(n), theirs / mine))
        if not gaps:
            md.append("- **%s**: none." % machine)
            continue
        by_cause = defaultdict(list)
        for (cause, call), sizes in gaps.items():
            by_cause[cause].append("%s at %s" % (call, ", ".join(sizes)))
        for cause in sorted(by_cause, key=lambda c: by_cause[c][0]):
            md.append("- **%s**, %s: %s" % (machine, "; ".join(sorted(by_cause[cause])),
                                             cause[0].upper() + cause[1:]))
    md.append("")

    md += ["## Not in this job", ""]
    missing = False
    anywhere = {c[0] for job in jobs for c in job[5]}
    unmeasured = [fam for fam in UNMEASURED if fam not in anywhere]
    for machine, folder, kind, base, command, cells, _ in jobs:
        present = {c[0] for c in cells} | set(unmeasured)
        absent = [title for fam, title, _ in FAMILIES if fam not in present]
        if not absent:
            continue
        missing = True
        if kind == "gpu":
            md.append("- **%s**, against %s: %s. The recorded job predates them; `%s` records "
                      "them." % (machine, base, "; ".join(absent), command))
            continue
        why = defaultdict(list)
        for fam, title, _ in FAMILIES:
            if fam not in present:
                why["the recorded job predates them; `%s` records them" % command if fam in CPU_RUNS
                    else "`%s` does not run them" % command].append(title)
        md.append("- **%s**, against %s: %s." % (machine, base, "; ".join(
            "%s: %s" % ("; ".join(titles), reason) for reason, titles in why.items())))
    if not missing:
        md.append("Every call family measured has rows from every machine.")
    md += [""] + [UNMEASURED[fam] for fam in unmeasured] + ([""] if unmeasured else [])

    for fam, title, _ in FAMILIES:
        series = []
        section = ["## " + title, "", "![%s](performance/%s.svg)" % (fam, fam), ""]
        any_cells = False
        for ji, (machine, folder, kind, base, command, cells, _) in enumerate(jobs):
            mine_cells = [c for c in cells if c[0] == fam]
            if not mine_cells:
                continue
            any_cells = True
            unit = "Mkeys/s" if fam.startswith("sort") else "GB/s"
            named = kind == "gpu" and fam in ROW_FAMILIES
            section += ["**%s** against %s:" % (machine, base), ""]
            if named:
                section += [ROW_BASELINE[fam], ""]
            section += ["| call | type | n | libclwarp ms | %s | %s ms | %s |%s ratio |" %
                        (unit, base, unit, " CUDA code |" if named else ""),
                        "| --- | --- | ---: | ---: | ---: | ---: | ---: |%s ---: |" % (" --- |" if named else "")]
            by_call = defaultdict(list)
            for _, op, typ, n, mine, theirs, work, floor, which in mine_cells:
                ratio = theirs / mine
                section.append("| %s | %s | 2^%d | %s | %s | %s | %s |%s %s%.2f%s |" % (
                    op, type_label(op, typ), log2(n), fmt_ms(mine), rate_text(op, work, mine), fmt_ms(theirs),
                    rate_text(op, work, theirs), " %s |" % which if named else "",
                    "**" if ratio < GAP else "", ratio, "**" if ratio < GAP else ""))
                by_call[(op, typ)].append((log2(n), ratio))
            section.append("")
            for ci, ((op, typ), pts) in enumerate(sorted(by_call.items())):
                series.append(("%s: %s %s" % (machine.split(",")[0].replace(" CPU runtime 2026.2", ""),
                                              op, type_label(op, typ)), pts,
                               COLOURS[(ji * 3 + ci) % len(COLOURS)], DASHES[ji % len(DASHES)]))
        if not any_cells:
            continue
        svg_plot(title, series, os.path.join(args.out, "performance", fam + ".svg"))
        md += section
    with open(os.path.join(args.out, "performance.md"), "w") as f:
        f.write("\n".join(md).rstrip("\n") + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
