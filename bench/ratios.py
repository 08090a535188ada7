#!/usr/bin/env python3
# Ratio tables from the TSVs of algorithms-bench and cub-bench: libclwarp vs CUB, native vs local, vs copy.
# SPDX-License-Identifier: MIT
"""Usage: bench/ratios.py CLWARP.tsv [CUB.tsv] [--device SUBSTRING]

Reads rows "device backend op type n median_ms gbps" (header optional,
several files are concatenated) and prints, per operation and type:

  n, GB/s of each libclwarp backend, of CUB (device-wide call), of
  cub-kernel (a kernel on CUB's warp/block primitives) and of the host
  loop where measured, then native/CUB, native/cub-kernel and native/local,

where "native" is the first libclwarp backend that is not "local" (nv on
NVIDIA). Then, at the largest n of each operation, its GB/s as a share of
the copy bandwidth measured in the same runs (the OpenCL float4 copy kernel
of algorithms-bench, and cudaMemcpy of cub-bench).

Give files of one device (CUDA and OpenCL may spell its name a little
differently), or pick the rows with --device SUBSTRING.
"""
import sys
from collections import defaultdict

LIB_SKIP = {"host", "opencl", "cub", "cub-kernel", "cuda-memcpy", "cuda-kernel"}


def load(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) != 7 or parts[0] == "device":
                    continue
                dev, backend, op, typ, n, ms, gbps = parts
                rows.append((dev, backend, op, typ, int(n), float(ms), float(gbps)))
    return rows


def fmt(x, width=9, prec=2):
    return f"{x:{width}.{prec}f}" if x is not None else f"{'-':>{width}}"


def main(argv):
    paths, device = [], None
    it = iter(argv[1:])
    for a in it:
        if a == "--device":
            device = next(it, None)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            paths.append(a)
    if not paths:
        sys.stderr.write(__doc__)
        return 2
    rows = load(paths)
    if not rows:
        print("ratios: no rows")
        return 1
    if device is not None:
        rows = [r for r in rows if device in r[0]]
    names = sorted({r[0] for r in rows})
    if not rows:
        print(f"ratios: no rows for device {device!r}")
        return 1
    data = defaultdict(dict)  # (op, type) -> {(backend, n): gbps}
    backends = []
    for dev, backend, op, typ, n, ms, gbps in rows:
        data[(op, typ)][(backend, n)] = gbps
        if backend not in backends:
            backends.append(backend)
    lib = [b for b in backends if b not in LIB_SKIP]
    lib.sort(key=lambda b: b == "local")  # the native backend first
    native = next((b for b in lib if b != "local"), None)
    have_local = "local" in lib
    cubs = [b for b in ("cub", "cub-kernel") if b in backends]

    print(f"device: {' / '.join(names)}")
    print(f"libclwarp backends: {', '.join(lib) or 'none'}; baselines: {', '.join(cubs) or 'none'}")
    print("GB/s as in the benchmarks: minimum bytes moved / median time (1 GB = 1e9 bytes);")
    print("libclwarp: wall time of call+clFinish; CUB: cudaEvents around the call.")

    copy_names = [b for b in ("opencl", "cuda-memcpy", "cuda-kernel") if b in backends]
    copy = {b: {n: g for (bb, n), g in data.get(("copy", "float"), {}).items() if bb == b}
            for b in copy_names}

    summary = []
    for (op, typ) in sorted(data):
        if op == "copy":
            continue
        d = data[(op, typ)]
        cols = [b for b in lib + cubs + ["host"] if any(bb == b for bb, _ in d)]
        ratios = []
        if native and native in cols:
            ratios += [(f"{native}/{c}", native, c) for c in cubs if c in cols]
            if have_local and "local" in cols and native != "local":
                ratios.append((f"{native}/local", native, "local"))
        sizes = sorted({n for _, n in d})
        print(f"\n{op} {typ}")
        print(f"{'n':>10}" + "".join(f" {c:>10}" for c in cols)
              + "".join(f" {r[0]:>16}" for r in ratios))
        for n in sizes:
            line = f"{n:>10}" + "".join(f" {fmt(d.get((c, n)), 10)}" for c in cols)
            for _, a, b in ratios:
                x, y = d.get((a, n)), d.get((b, n))
                line += f" {fmt(x / y if x and y else None, 16)}"
            print(line)
        top = sizes[-1]
        summary.append((op, typ, top, {c: d.get((c, top)) for c in cols}))

    if summary:
        print("\nat the largest n: GB/s and share of the copy bandwidth at that n")
        heads = [f"{c}" for c in copy_names]
        print(f"{'op':<28}{'type':<6}{'n':>11}  {'backend':<11}{'GB/s':>9}"
              + "".join(f" {'/' + h:>13}" for h in heads))
        for op, typ, top, vals in summary:
            for c, g in vals.items():
                if g is None:
                    continue
                shares = []
                for h in copy_names:
                    cb = copy[h].get(top)
                    shares.append(f" {fmt(100.0 * g / cb if cb else None, 12, 1)}%" if cb
                                  else f" {'-':>13}")
                print(f"{op:<28}{typ:<6}{top:>11}  {c:<11}{fmt(g)}" + "".join(shares))
        for h in copy_names:
            if copy[h]:
                top = max(copy[h])
                print(f"copy bandwidth ({h}) at n = {top}: {copy[h][top]:.1f} GB/s (read + write)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
