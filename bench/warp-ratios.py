#!/usr/bin/env python3
# Ratio table of the warp micro-benchmark: libclwarp (nv) vs CUDA per family, and nv vs local.
# SPDX-License-Identifier: MIT
"""Usage: bench/warp-ratios.py CLWARP.tsv CUDA.tsv [LOCAL.tsv] [--target 0.97]

Reads the TSVs of build/bench/warp-bench (libclwarp, one backend per
file: the native one, nv on NVIDIA, first; optionally the local backend
on the same GPU third) and of warp-bench-cuda (bench/warp-bench.cu), rows
"family backend n iters median_ms min_ms max_ms Gop/s" (header lines are
skipped). Prints per family: Gop/s of libclwarp and of CUDA and their
ratio, and with a third file the local backend's Gop/s and native/local.
A ratio below --target (default 0.97, the project's bar) is marked '<'.
Families present on one side only (CUDA's reduce_xor_redux) get '-'.
A family whose n or iters differ between the files is marked '!'.
"""
import math
import sys


def load(path):
    rows = {}
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 8 or parts[0] in ("family", "") or parts[0].startswith("#"):
                continue
            family, backend, n, iters, med, lo, hi, gops = parts
            rows[family] = {"backend": backend, "n": int(n), "iters": int(iters),
                            "ms": float(med), "min": float(lo), "max": float(hi),
                            "gops": float(gops)}
    return rows


def fmt(x, width, prec=2):
    return f"{x:{width}.{prec}f}" if x is not None else f"{'-':>{width}}"


def main(argv):
    paths, target = [], 0.97
    it = iter(argv[1:])
    for a in it:
        if a in ("-h", "--help"):
            print(__doc__)
            return 0
        if a == "--target":
            target = float(next(it, "0.97"))
        else:
            paths.append(a)
    if len(paths) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    lib, cuda = load(paths[0]), load(paths[1])
    local = load(paths[2]) if len(paths) == 3 else None
    if not lib or not cuda:
        print(f"warp-ratios: no rows in {paths[0] if not lib else paths[1]}")
        return 1
    native = next(iter(lib.values()))["backend"]
    lname = next(iter(local.values()))["backend"] if local else None

    families = list(lib)
    families += [f for f in cuda if f not in families]
    if local:
        families += [f for f in local if f not in families]

    head = f"{'family':<24}{native + ' Gop/s':>12}{'cuda Gop/s':>12}{native + '/cuda':>11}"
    if local:
        head += f"{lname + ' Gop/s':>13}{native + '/' + lname:>11}"
    sample = next(iter(lib.values()))
    print(f"warp micro-benchmark: n = {sample['n']}, {sample['iters']} dependent warp operations"
          " per work-item, Gop/s = n * iters / median time (10^9 warp ops/s)")
    print(f"libclwarp ({native}): {paths[0]}; CUDA: {paths[1]}"
          + (f"; libclwarp ({lname}): {paths[2]}" if local else ""))
    print(head)
    ratios, below, mismatched = [], [], []
    for fam in families:
        a, c = lib.get(fam), cuda.get(fam)
        l = local.get(fam) if local else None
        shapes = {(r["n"], r["iters"]) for r in (a, c, l) if r}
        flag = "!" if len(shapes) > 1 else ""
        if flag:
            mismatched.append(fam)
        r = a["gops"] / c["gops"] if a and c and c["gops"] > 0 else None
        mark = "<" if r is not None and r < target else " "
        line = f"{fam:<24}{fmt(a and a['gops'], 12)}{fmt(c and c['gops'], 12)}{fmt(r, 10, 3)}{mark}"
        if r is not None:
            ratios.append(r)
            if r < target:
                below.append(fam)
        if local:
            rl = a["gops"] / l["gops"] if a and l and l["gops"] > 0 else None
            line += f"{fmt(l and l['gops'], 13)}{fmt(rl, 11, 2)}"
        print(line + flag)
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"\n{native}/cuda over {len(ratios)} families: min {min(ratios):.3f}, "
              f"geometric mean {geo:.3f}, max {max(ratios):.3f}")
        if below:
            print(f"below {target}: {', '.join(below)}")
        else:
            print(f"every family at or above {target}")
    if mismatched:
        print(f"! n or iters differ between the files for: {', '.join(mismatched)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
