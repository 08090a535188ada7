#!/usr/bin/env python3
# PyOpenCL's RadixSort on an OpenCL device, timed as bench/sort-bench times clwarp_sort_*.
# SPDX-License-Identifier: MIT
"""Usage: pyopencl-sort-bench.py [--device cpu|gpu|all] [--platform SUBSTRING]
          [--min-log2 N] [--max-log2 N] [--reps R] [--bits-at-a-time B]
          [--allocator pool|default] [--no-pairs] [--tsv FILE]

The counterpart of bench/sort-bench for `pyopencl.algorithm.RadixSort`, a
benchmark-only dependency (PyPI: pyopencl, numpy, mako, which PyOpenCL
generates its kernels with; see bench/run-sort-cpu.sh).

- Keys: the same as sort-bench's, splitmix64 seeded with 42 + log2(n), the
  low 32 bits as uint keys; values are 0 .. n-1 (sort-bench's pairs case).
- Cases: "sort_keys uint" (RadixSort over `uint *keys`, key_expr keys[i]),
  and "sort_pairs uint" (over `uint *keys, uint *values`, both sorted by
  keys[i]). RadixSort sorts by an integer key expression over its
  arguments and returns sorted copies; it has no float or in-place mode.
- Timing: a profiling queue; a marker enqueued and flushed just before the
  call, then the call's returned event (its last pass's last kernel):
  COMMAND_END(last) - COMMAND_END(marker), as sort-bench does. Like
  sort-bench's, this includes the host's work between the launches (here
  Python: argument handling and the per-pass output allocations). The
  input is never modified (RadixSort writes new arrays), so no restore
  copy is needed between repetitions. Wall time (call + queue.finish) is
  printed beside it.
- Warm-up: building RadixSort (its scan kernels are compiled there) and
  one call per size, before the timed repetitions.
- Check: every result, the warm-up's and each timed one's, is compared
  with numpy's stable sort (np.sort / np.argsort(kind="stable")); pairs
  must carry the values in stable order.
- Output: "op type log2 median_ms Mkeys/s wall_ms" rows, Mkeys/s = n /
  median event time; --tsv writes sort-bench's TSV rows (device, backend
  "pyopencl", op, type, n, median_ms, mkeys_per_s).
"""
import argparse
import statistics
import sys
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array
import pyopencl.tools as cl_tools
from pyopencl.algorithm import RadixSort


def splitmix_u32(n, seed):
    """sort-bench's keys: (uint32_t)splitmix64(&s) for n draws from s = seed."""
    s = np.uint64(seed) + np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    z = s
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return z.astype(np.uint32)


def pick_device(kind, platform_sub):
    want = {"cpu": cl.device_type.CPU, "gpu": cl.device_type.GPU, "all": cl.device_type.ALL}[kind]
    for p in cl.get_platforms():
        if platform_sub and platform_sub.lower() not in p.name.lower():
            continue
        try:
            devs = p.get_devices(device_type=want)
        except cl.Error:
            continue
        if devs:
            return devs[0]
    sys.exit(f"pyopencl-sort-bench: no {kind} device"
             + (f" on a platform matching {platform_sub!r}" if platform_sub else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu", "all"])
    ap.add_argument("--platform", default="", help="substring of the platform name")
    ap.add_argument("--min-log2", type=int, default=16)
    ap.add_argument("--max-log2", type=int, default=22)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--bits-at-a-time", type=int, default=2,
                    help="RadixSort's digit width (its default: 2, so 16 passes for uint)")
    ap.add_argument("--allocator", default="pool", choices=["pool", "default"],
                    help="pool: a pyopencl.tools.MemoryPool (re-uses the per-pass outputs); "
                         "default: a new cl.Buffer for each pass's output")
    ap.add_argument("--no-pairs", action="store_true")
    ap.add_argument("--tsv")
    a = ap.parse_args()

    dev = pick_device(a.device, a.platform)
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    alloc = (cl_tools.MemoryPool(cl_tools.ImmediateAllocator(queue)) if a.allocator == "pool"
             else None)
    tsv = open(a.tsv, "w") if a.tsv else None

    t0 = time.perf_counter()
    sorters = {"sort_keys": RadixSort(ctx, "uint *keys", key_expr="keys[i]",
                                      sort_arg_names=["keys"], key_dtype=np.uint32,
                                      bits_at_a_time=a.bits_at_a_time)}
    if not a.no_pairs:
        sorters["sort_pairs"] = RadixSort(ctx, "uint *keys, uint *values", key_expr="keys[i]",
                                          sort_arg_names=["keys", "values"], key_dtype=np.uint32,
                                          bits_at_a_time=a.bits_at_a_time)
    build_s = time.perf_counter() - t0

    print(f"device: {dev.name} ({dev.driver_version}), platform {dev.platform.version}")
    print(f"pyopencl {cl.VERSION_TEXT}, numpy {np.__version__}, RadixSort bits_at_a_time "
          f"{a.bits_at_a_time} ({-(-32 // a.bits_at_a_time)} passes), allocator {a.allocator}, "
          f"build {build_s:.1f} s")
    print(f"{'op':<10} {'type':<6} {'log2':>5} {'median ms':>12} {'Mkeys/s':>12} {'wall ms':>12}")
    sys.stdout.flush()

    for op, sorter in sorters.items():
        for lg in range(a.min_log2, a.max_log2 + 1, 2):
            n = 1 << lg
            keys_h = splitmix_u32(n, 42 + lg)
            order = np.argsort(keys_h, kind="stable")
            ref_keys = keys_h[order]
            keys = cl_array.to_device(queue, keys_h, allocator=alloc)
            args = [keys]
            if op == "sort_pairs":
                args.append(cl_array.to_device(queue, np.arange(n, dtype=np.uint32),
                                               allocator=alloc))

            def run_once():
                queue.finish()
                mark = cl.enqueue_marker(queue)
                queue.flush()
                w0 = time.perf_counter()
                out, last = sorter(*args, queue=queue, allocator=alloc)
                queue.finish()
                wall = (time.perf_counter() - w0) * 1e3
                ms = (last.profile.end - mark.profile.end) * 1e-6
                got_k = out[0].get()
                if not np.array_equal(got_k, ref_keys):
                    sys.exit(f"pyopencl-sort-bench: {op} n=2^{lg}: keys differ from numpy's sort")
                if op == "sort_pairs" and not np.array_equal(out[1].get(), order.astype(np.uint32)):
                    sys.exit(f"pyopencl-sort-bench: {op} n=2^{lg}: values not in numpy's stable order")
                del out
                return ms, wall

            run_once()   # warm-up: first launch at this size, allocations, checked
            times = [run_once() for _ in range(a.reps)]
            ms = statistics.median(t for t, _ in times)
            wall = statistics.median(w for _, w in times)
            print(f"{op:<10} {'uint':<6} {lg:>5} {ms:>12.4f} {n / ms * 1e-3:>12.1f} {wall:>12.4f}")
            sys.stdout.flush()
            if tsv:
                tsv.write(f"{dev.name}\tpyopencl\t{op}\tuint\t{n}\t{ms:.6f}\t{n / ms * 1e-3:.3f}\n")
                tsv.flush()
    if tsv:
        tsv.close()


if __name__ == "__main__":
    main()
