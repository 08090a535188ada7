#!/usr/bin/env python3
# Ratio tables from the TSVs of algorithms-bench and cub-bench: libclwarp vs CUB, native vs local, vs copy.
# SPDX-License-Identifier: MIT
"""Usage: bench/ratios.py CLWARP.tsv [CUB.tsv] [--device SUBSTRING]

Reads rows "device backend op type n median_ms gbps [wall_ms timing [batch_ms]]"
(header optional, several files are concatenated). Both programs now write
all ten: median_ms is the EVENT time (cub-bench: cudaEvents; algorithms-bench:
OpenCL profiling from a marker before the call to the end of its last
command, or, timing "wall", the host time of call+clFinish where the
driver's timestamps were unusable), gbps comes from it; wall_ms is the
BLOCKING call's host wall time (one call that waits: libclwarp's public
call with event NULL, CUB's call + cudaStreamSynchronize); batch_ms is
BACK-TO-BACK, K calls queued, one wait, time / K. Older files: seven
columns from cub-bench (event time only), nine from algorithms-bench
(wall_ms then was call+clFinish). A backend written NAME[label]
(algorithms-bench --label, e.g. another CLWARP_ALGO_TUNING) is compared
with the copy kernel of its own run, opencl[label]. Prints, per operation
and type:

  n, GB/s of each libclwarp backend, of CUB (device-wide call), of
  cub-kernel (a kernel on CUB's warp/block primitives) and of the host
  loop where measured, then native/CUB, native/cub-kernel and native/local,

where "native" is the first libclwarp backend that is not "local" (nv on
NVIDIA). A libclwarp GB/s from wall time, and a ratio with one, is marked
'*' wherever the rows also hold event times: wall time is not comparable
with CUB's event time at small n. Then, at the largest n of each operation, its GB/s as a share of
the copy bandwidth measured in the same runs (the OpenCL float4 copy kernel
of algorithms-bench, and cudaMemcpy of cub-bench).

Then THE THREE MEASURES side by side, native (and labelled runs) against
CUB: us per call by event time, by blocking call and back to back, each
with CUB's time / libclwarp's (>= 1: libclwarp as fast or faster; the
the project's targets read "at least 0.95 of CUB" on one named measure). Then
SMALL N: each call's time over the copy kernel's of the same run and
API, by each measure, n up to 2^17 (the target: at most 1.05 from 2^10
to 2^16, by event time and by blocking call).

Give files of one device (CUDA and OpenCL may spell its name a little
differently), or pick the rows with --device SUBSTRING.
"""
import sys
from collections import defaultdict

LIB_SKIP = {"host", "opencl", "cub", "cub-kernel", "cuda-memcpy", "cuda-kernel"}


CUDA_NAMES = {"cub", "cub-kernel", "cuda-memcpy", "cuda-kernel"}


def base(backend):
    """A backend's name without its [label]."""
    return backend.split("[", 1)[0]


def label(backend):
    """"[label]" of NAME[label], "" for NAME."""
    return backend[len(base(backend)):]


def load(paths, measures=None):
    """Rows (device, backend, op, type, n, ms, gbps, timing); with
    `measures`, also {(op, type, backend, n): (event, blocking, batch)} in
    ms (None where the file has no such column)."""
    rows = []
    for path in paths:
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) not in (7, 9, 10) or parts[0] == "device":
                    continue
                dev, backend, op, typ, n, ms, gbps = parts[:7]
                if len(parts) >= 9:
                    timing = parts[8]
                elif base(backend) in CUDA_NAMES:
                    timing = "cuda-event"
                else:
                    timing = "wall"  # algorithms-bench before it had event timing
                rows.append((dev, backend, op, typ, int(n), float(ms), float(gbps), timing))
                if measures is not None:
                    block = float(parts[7]) if len(parts) >= 9 else None
                    batch = float(parts[9]) if len(parts) == 10 else None
                    measures[(op, typ, backend, int(n))] = (float(ms), block, batch)
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
    measures = {}
    rows = load(paths, measures)
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
    times = {}  # (op, type, backend, n) -> median ms
    walls = set()  # (op, type, backend, n) of libclwarp results timed by wall time
    timings = defaultdict(set)  # backend -> timing methods of its rows
    backends = []
    for dev, backend, op, typ, n, ms, gbps, timing in rows:
        data[(op, typ)][(backend, n)] = gbps
        times[(op, typ, backend, n)] = ms
        timings[backend].add(timing)
        if timing == "wall" and backend != "host":
            walls.add((op, typ, backend, n))
        if backend not in backends:
            backends.append(backend)
    lib = [b for b in backends if base(b) not in LIB_SKIP]
    # The native backend first, unlabelled runs before labelled ones.
    lib.sort(key=lambda b: (base(b) == "local", label(b) != ""))
    native = next((b for b in lib if b != "local"), None)
    have_local = "local" in lib
    cubs = [b for b in ("cub", "cub-kernel") if b in backends]

    print(f"device: {' / '.join(names)}")
    print(f"libclwarp backends: {', '.join(lib) or 'none'}; baselines: {', '.join(cubs) or 'none'}")
    print("GB/s as in the benchmarks: minimum bytes moved / median time (1 GB = 1e9 bytes);")
    lib_timings = set().union(*(timings[b] for b in lib + ["opencl"] if b in timings))
    any_event = "event" in lib_timings
    mark = any_event and bool(walls)
    how = {"event": "OpenCL event time (marker before the call -> end of its last command)",
           "wall": "WALL time of call+clFinish"}
    print("libclwarp: " + ", ".join(how[t] for t in ("event", "wall") if t in lib_timings)
          + ("" if lib_timings else "-"))
    if mark:
        unprofiled = sum(1 for w in walls if label(w[2]) == "[no-profiling]")
        parts = [f"{unprofiled} on an engine without profiling" if unprofiled else "",
                 f"{len(walls) - unprofiled} whose profiling timestamps were unusable"
                 if unprofiled < len(walls) else ""]
        why = ", ".join(p for p in parts if p)
        print(f"  * = WALL time ({len(walls)} results: {why}), not comparable with event times")
    elif lib_timings == {"wall"} and cubs:
        print("  NOTE: wall time against CUB's event time favours CUB at small n")
    if cubs or "cuda-memcpy" in backends:
        print("CUB: cudaEvents around the call.")

    def cell(x, width, starred):
        return (fmt(x, width - 1) + "*") if starred and x is not None else fmt(x, width)

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
            line = f"{n:>10}" + "".join(
                f" {cell(d.get((c, n)), 10, mark and (op, typ, c, n) in walls)}" for c in cols)
            for _, a, b in ratios:
                x, y = d.get((a, n)), d.get((b, n))
                star = mark and ((op, typ, a, n) in walls or (op, typ, b, n) in walls)
                line += f" {cell(x / y if x and y else None, 16, star)}"
            print(line)
        top = sizes[-1]
        summary.append((op, typ, top, {c: (d.get((c, top)), mark and (op, typ, c, top) in walls)
                                       for c in cols}))

    if summary:
        print("\nat the largest n: GB/s and share of the copy bandwidth at that n")
        heads = [f"{c}" for c in copy_names]
        print(f"{'op':<28}{'type':<6}{'n':>11}  {'backend':<11}{'GB/s':>9}"
              + "".join(f" {'/' + h:>13}" for h in heads))
        for op, typ, top, vals in summary:
            for c, (g, star) in vals.items():
                if g is None:
                    continue
                shares = []
                for h in copy_names:
                    cb = copy[h].get(top)
                    shares.append(f" {fmt(100.0 * g / cb if cb else None, 12, 1)}%" if cb
                                  else f" {'-':>13}")
                print(f"{op:<28}{typ:<6}{top:>11}  {c:<11}{cell(g, 9, star)}" + "".join(shares))
        for h in copy_names:
            if copy[h]:
                top = max(copy[h])
                print(f"copy bandwidth ({h}) at n = {top}: {copy[h][top]:.1f} GB/s (read + write)")
    floors = print_floor(copy_names, copy, times)
    print_above_floor(floors, times, native)
    if device is not None:
        measures = {k: v for k, v in measures.items()
                    if any(r[0] for r in rows if (r[2], r[3], r[1], r[4]) == k)}
    natives = [b for b in lib if base(b) != "local"] or lib
    print_three(measures, natives)
    print_small(measures, lib + [b for b in cubs if b == "cub"])
    return 0


MEASURES = ("event", "blocking", "back-to-back")


def us(x):
    return f"{1000.0 * x:8.1f}" if x is not None else f"{'-':>8}"


def print_three(measures, natives):
    """libclwarp (each native run) against CUB by all three measures."""
    ops = sorted({(o, t) for o, t, b, _ in measures if b == "cub"})
    if not natives or not ops:
        return
    print("\nTHE THREE MEASURES, us per call; ratio = CUB's time / libclwarp's"
          " (= libclwarp's throughput as a share of CUB's; >= 0.95 is the project's target)")
    print("  event = GPU timeline of one call; blocking = host wall time of one call that"
          " waits for its result;")
    print("  back-to-back = K calls queued, one wait, time / K")
    for nat in natives:
        for op, typ in ops:
            sizes = sorted({n for o, t, b, n in measures if (o, t, b) == (op, typ, nat)})
            if not sizes:
                continue
            print(f"\n{op} {typ}: {nat} vs cub")
            print(f"{'n':>10}" + "".join(f" | {m:^28}" for m in MEASURES))
            print(f"{'':>10}" + " | {:>8} {:>8} {:>10}".format(nat[:8], "cub", "cub/" + nat[:5]) * 3)
            for n in sizes:
                a, c = measures[(op, typ, nat, n)], measures.get((op, typ, "cub", n))
                line = f"{n:>10}"
                for i in range(3):
                    x, y = a[i], c[i] if c else None
                    r = f"{y / x:10.2f}" if x and y else f"{'-':>10}"
                    line += f" | {us(x)} {us(y)} {r}"
                print(line)


def print_small(measures, backends):
    """Small n: time over the copy kernel's time in the same run and API."""
    rows = []
    for i, b in enumerate(backends):
        cb = ("cuda-kernel" if base(b) == "cub" else "opencl") + label(b)
        for (op, typ, bb, n), m in measures.items():
            if bb != b or op == "copy" or n > 1 << 17:
                continue
            c = measures.get(("copy", "float", cb, n))
            if c:
                rows.append((op, typ, b, n, m, c, i))
    # The backends of one (op, type, n) together: the paths side by side.
    rows.sort(key=lambda r: (r[0], r[1], r[3], r[6]))
    if not rows:
        return
    print("\nSMALL N: time / the copy kernel's time at the same n, same run and API"
          " (target: <= 1.05 from 2^10 to 2^16,")
    print("by event time and by blocking call; '!' marks a miss). The copy kernel: OpenCL"
          " float4 copy through libclwarp")
    print("for libclwarp backends, the CUDA float4 copy kernel for cub.")
    print(f"{'op':<26}{'type':<6}{'backend':<22}{'n':>8}" + "".join(f" {m:>13}" for m in MEASURES)
          + f" {'copy us (ev/blk/b2b)':>24}")
    for op, typ, b, n, m, c, _ in rows:
        line = f"{op:<26}{typ:<6}{b:<22}{n:>8}"
        for i in range(3):
            r = m[i] / c[i] if m[i] and c[i] else None
            miss = "!" if r is not None and r > 1.05 and i < 2 and n <= 1 << 16 else " "
            line += f" {r:12.3f}{miss}" if r is not None else f" {'-':>13}"
        line += "  " + " / ".join(f"{1000.0 * x:.1f}" if x else "-" for x in c)
        print(line)


def print_floor(copy_names, copy, times):
    """The launch floor: the copy kernel's time at the smallest n, where
    it moves almost nothing, is what one launch costs as the benchmark
    times it. No call through that API can take less."""
    kernels = [h for h in copy_names if h != "cuda-memcpy" and copy[h]]
    if not kernels:
        return {}
    print("\nlaunch floor: median time of the copy kernel at the smallest n (one launch, ~no data)")
    floors = {}
    for h in kernels:
        low = min(copy[h])
        floors[h] = 1000.0 * times[("copy", "float", h, low)]
        print(f"  {h:<12} n = {low:>8}: {floors[h]:7.2f} us")
    return floors


def print_above_floor(floors, times, native):
    """Per operation with a CUB counterpart: microseconds above each API's
    own launch floor, libclwarp (OpenCL floor) against CUB (CUDA floor),
    for n up to 2^24, where the floor is most of the time."""
    if not native or "opencl" not in floors or "cuda-kernel" not in floors:
        return
    ops = sorted({(op, typ) for op, typ, b, _ in times if b == "cub"})
    print("\ntime above the launch floor (us): native - opencl floor, cub - cuda floor")
    print(f"{'op':<28}{'type':<6}{'n':>10}{native:>10}{'cub':>10}{native + '/cub':>12}")
    for op, typ in ops:
        for n in sorted({n for o, t, b, n in times if (o, t, b) == (op, typ, native)}):
            if n < 1 << 16 or n > 1 << 24 or n.bit_length() % 2 == 0:
                continue
            a, c = times.get((op, typ, native, n)), times.get((op, typ, "cub", n))
            if a is None or c is None:
                continue
            x, y = 1000.0 * a - floors["opencl"], 1000.0 * c - floors["cuda-kernel"]
            ratio = f"{x / y:12.2f}" if y > 0 else f"{'-':>12}"
            print(f"{op:<28}{typ:<6}{n:>10}{x:10.2f}{y:10.2f}{ratio}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
