#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plain-Python reference results of the CUDA-style corpus in tests/corpus/.

Each kernel file holds one '//! run:' line; its inputs are evaluated here
(tests/examples_args.py, C semantics) and each reference function returns
what the kernel must compute for a warp of W lanes, from the definition of
the operation (a block's sum is sum() over the block), not by translating
the kernel. Work-groups are 1-D with a local size that is a multiple of W.

    python3 tests/corpus/reference.py [--width W] [NAME...]   print the results
"""

import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from examples_args import FLOAT_TYPES, Arg, parse_run, to_type  # noqa: E402

# Every kernel says 0xffffffff, CUDA's full mask of 32 lanes, and assumes no
# more than 32 warps in a block: the widths it allows.
WIDTHS = (8, 16, 32)

KERNELS = {}


def kernel(unordered=()):
    """Registers a reference; unordered: the out: buffers (by index) whose
    order the device's atomics decide, compared as sorted lists."""
    def register(fn):
        KERNELS[fn.__name__] = (fn, tuple(unordered))
        return fn
    return register


def chunks(x, n):
    return [x[k:k + n] for k in range(0, len(x), n)]


def scan(values):
    out, acc = [], 0
    for v in values:
        acc += v
        out.append(acc)
    return out


def softmax(row):
    m = max(row)
    e = [math.exp(v - m) for v in row]
    s = sum(e)
    return [v / s for v in e]


@kernel()
def block_reduce_sum(x, out, W):
    return [[sum(b) for b in chunks(x, 64)]]


@kernel()
def row_softmax_warp(x, out, rows, cols, W):
    y = list(out)
    for r in range(rows):
        y[r * cols:(r + 1) * cols] = softmax(x[r * cols:(r + 1) * cols])
    return [y]


@kernel()
def rms_norm(x, weight, y, cols, eps, W):
    out = []
    for row in chunks(x, cols):
        scale = 1 / math.sqrt(sum(v * v for v in row) / cols + eps)
        out += [v * scale * w for v, w in zip(row, weight)]
    return [out]


@kernel()
def argmax_pair(x, best, where, W):
    b, w = list(best), list(where)
    for g, s in enumerate(chunks(x, W)):
        b[g] = max(s)
        w[g] = g * W + s.index(b[g])   # the first occurrence
    return [b, w]


@kernel(unordered=(0,))
def aggregated_counter(src, n, dst, count, W):
    kept = [v for v in src[:n] if v % 3 == 0]
    return [sorted(kept) + dst[len(kept):], [count[0] + len(kept)]]


@kernel()
def ballot_compact(x, out, counts, W):
    y, c = list(out), list(counts)
    for g, s in enumerate(chunks(x, W)):
        kept = [v for v in s if v > 0]
        y[g * W:g * W + len(kept)] = kept
        c[g] = len(kept)
    return [y, c]


@kernel()
def block_scan_warp0(x, out, W):
    return [[v for b in chunks(x, 64) for v in scan(b)]]


@kernel()
def segmented_reduce(x, flags, out, W):
    y = list(out)
    for i in range(len(x)):
        if i % W == 0 or flags[i]:            # a head: sum up to the next head
            j = i + 1
            while j < len(x) and j % W != 0 and not flags[j]:
                j += 1
            y[i] = sum(x[i:j])
    return [y]


@kernel()
def bitonic_warp_sort(x, out, W):
    return [[v for s in chunks(x, W) for v in sorted(s)]]


@kernel()
def grid_stride_warps(x, nchunks, out, W):
    y = list(out)
    for c in range(nchunks):
        y[c] = sum(x[c * W:(c + 1) * W])
    return [y]


@kernel()
def odd_warp_helper(x, out, W):
    # Warp numbers count within a block of 64.
    return [[max(s) if (g % (64 // W)) % 2 else 2 * v
             for g, s in enumerate(chunks(x, W)) for v in s]]


@kernel()
def warp_if_else(x, out, W):
    y = []
    for g, s in enumerate(chunks(x, W)):
        y += scan(s) if (g % (64 // W)) % 2 == 0 else [max(s)] * W
    return [y]


@kernel()
def flow_do_while(x, out, W):
    y = []
    for g, s in enumerate(chunks(x, W)):
        for _ in range(g % 3 + 1):
            total = sum(s)
            s = [total - v for v in s]
        y += s
    return [y]


@kernel()
def flow_break_continue(x, out, W):
    y = []
    for g, s in enumerate(chunks(x, W)):
        w = g % (128 // W)
        acc = sum(s[k % W] for k in range(w + 2) if (k + w) % 2 == 0)
        y += [acc] * W
    return [y]


@kernel()
def flow_helper_return(x, out, W):
    y = []
    for g, s in enumerate(chunks(x, W)):
        w = g % (128 // W)
        y += s if w == 1 else [-1.0] * W if w % 3 == 2 else [max(s)] * W
    return [y]


@kernel()
def flow_2d(x, out, active, W):
    y = []
    for g, s in enumerate(chunks(x, W)):
        row = (g * W // 32) % 4          # threadIdx.y of the warp's threads
        y += [-1000] * W if row >= active else [max(s)] * W
    return [y]


@kernel()
def flow_nested(x, out, n, W):
    nw = 128 // W
    y = list(out)
    for g in range(min(nw, 4)):
        total = 0
        for base in range(g * W, n, nw * W):
            chunk = [x[j] if j < n else 0 for j in range(base, base + W)]
            if any(v < 0 for v in chunk):
                total += sum(chunk)
            else:
                total += max(chunk) if g % 2 else min(chunk)
        y[g] = total
    return [y]


@kernel()
def flow_loop_return(x, out, nchunks, limit, W):
    nw = 128 // W
    y = list(out)
    for g in range(nw):
        for c in range(g, nchunks, nw):
            if (c + 1) * W > len(x):
                break
            y[c] = float(sum(x[c * W:(c + 1) * W]))
            if y[c] > limit * W:
                break
    return [y]


def run_line(name):
    with open(os.path.join(HERE, name + ".cl"), encoding="utf-8") as f:
        runs = [line.strip()[3:].strip()[4:].strip() for line in f
                if line.strip().startswith("//!") and line.strip()[3:].strip().startswith("run:")]
    if len(runs) != 1:
        raise AssertionError("%s.cl: %d //! run: lines" % (name, len(runs)))
    return runs[0]


def reference(name, W):
    """The out: buffers of corpus kernel NAME at width W: a list of (type, values)."""
    fn, _ = KERNELS[name]
    args = [Arg(s) for s in parse_run(run_line(name))[0]]
    outs = fn(*[a.value for a in args], W=W)
    out_args = [a for a in args if a.out]
    if len(outs) != len(out_args):
        raise AssertionError("%s: %d results for %d out: buffers" % (name, len(outs), len(out_args)))
    result = []
    for a, values in zip(out_args, outs):
        if len(values) != a.count:
            raise AssertionError("%s: %d values for %s" % (name, len(values), a.spec))
        result.append((a.type, [float(v) if a.type in FLOAT_TYPES else to_type(a.type, v)
                                for v in values]))
    return result


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("names", nargs="*")
    opts = ap.parse_args(argv)
    for name in opts.names or sorted(KERNELS):
        print("%s.cl (W = %d)" % (name, opts.width))
        for k, (t, values) in enumerate(reference(name, opts.width)):
            print("out %d: %s" % (k, " ".join(str(v) for v in values)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
