#!/usr/bin/env python3
# Plot Mkeys/s against n from the rounds of bench/run-sort-cpu.sh: medians with min-max bars.
# SPDX-License-Identifier: MIT
"""Usage: plot-sort-cpu.py OUT_DIR [-o FILE.png]

Reads OUT_DIR/round<R>-t<T>-{clwarp,pyopencl}.tsv (run-sort-cpu.sh) and
draws one panel per case (uint keys, uint pairs): a line per side
(libclwarp, PyOpenCL, and qsort for keys) and PoCL thread count, at the
median over the rounds, with a bar from the slowest to the fastest round.
Needs matplotlib (benchmark-only: pip install matplotlib into the
benchmark virtualenv).
"""
import argparse
import glob
import os
import re
import statistics
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("-o", "--output", default="sort-cpu.png")
    a = ap.parse_args()

    # mk[(op, series)][n] = [Mkeys/s of each round]
    mk = defaultdict(lambda: defaultdict(list))
    for path in sorted(glob.glob(os.path.join(a.dir, "round*-t*-*.tsv"))):
        t = re.search(r"-t(\d+)-", os.path.basename(path)).group(1)
        threads = "PoCL default threads" if t == "0" else f"PoCL {t} thread" + ("s" if t != "1" else "")
        for line in open(path):
            dev, backend, op, typ, n, ms, mks = line.rstrip("\n").split("\t")
            if backend == "host":
                if t != "0":   # qsort does not use PoCL's threads: draw it once
                    continue
                series = "qsort (host)"
            elif backend == "pyopencl":
                series = f"PyOpenCL RadixSort, {threads}"
            else:
                series = f"libclwarp ({backend}), {threads}"
            mk[(op, series)][int(n)].append(float(mks))

    cases = [("sort_keys", "uint keys"), ("sort_pairs", "uint keys + uint values")]
    fig, axes = plt.subplots(1, len(cases), figsize=(12, 4.5), sharey=True)
    style = {"libclwarp": "-o", "PyOpenCL": "-s", "qsort": "--^"}
    for ax, (op, title) in zip(axes, cases):
        for (o, series), per_n in sorted(mk.items()):
            if o != op:
                continue
            ns = sorted(per_n)
            med = [statistics.median(per_n[n]) for n in ns]
            lo = [m - min(per_n[n]) for m, n in zip(med, ns)]
            hi = [max(per_n[n]) - m for m, n in zip(med, ns)]
            fmt = style[series.split()[0]]
            ls = ":" if "default" in series and not series.startswith("qsort") else None
            line = ax.errorbar(ns, med, yerr=[lo, hi], fmt=fmt, capsize=3, label=series)
            if ls:
                line[0].set_linestyle(ls)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("n (keys)")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("Mkeys/s (median over rounds, bars: min-max)")
    axes[0].legend(fontsize=8)
    fig.suptitle("Radix sort on PoCL 3.1 (2 shared cores): libclwarp vs PyOpenCL vs qsort")
    fig.tight_layout()
    fig.savefig(a.output, dpi=110)
    print(a.output)


if __name__ == "__main__":
    main()
