#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plain-Python reference results of the example kernels in kernels/examples/.

Every example is a function of its kernel arguments and the warp width W that
says what the kernel must compute, written from the definition of the
operation (a warp max is max() over the warp's slice of the input), not by
translating the kernel. The inputs come from the example's own '//! run:'
options, which this file holds too: the INIT of each -a SPEC (iota, fill, a
list, an expression in i) is evaluated here with C semantics, so nothing
depends on clwarp-run or on a device.

Work-groups are 1-D with a local size that is a multiple of W, so global warp
number g covers the global ids g*W .. g*W+W-1 on every backend.

    python3 tests/examples-reference.py              # run and expect lines, W = 32
    python3 tests/examples-reference.py --width 16   # the same for another width
    python3 tests/examples-reference.py --width-lines NAME  # its expect[K]@W lines
    python3 tests/examples-reference.py --verify     # check kernels/examples/*.cl

An example file holds '//! expect[K]:' lines for W = 32 and, for each width W
of WIDTHS where out: buffer K comes out otherwise, an '//! expect[K]@W:' line
(clwarp-run --check takes the @W line at width W, the line without @W at
any other). --width-lines prints those @W lines.

--verify fails when a kernels/examples/*.cl file has no reference here (or
the other way round), when its '//! run:' line differs from the one here, or
when, at W = 32 and at every other width of WIDTHS that its launch allows
(a local size that is a multiple of W) and where its result is defined, the
expect line that clwarp-run --check takes differs from the reference
(integers exactly, floats within 1e-6 relative).
"""

import math
import os
import shlex
import sys

DEFAULT_WIDTH = 32
# The widths the examples run at: 32 (CUDA's, PoCL's, the khr pin), 16
# (Intel's CPU runtime), 8 (Mesa's llvmpipe), 64 (-b local -w 64).
WIDTHS = (8, 16, 32, 64)

# The argument SPECs and INIT values (tests/examples_args.py).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from examples_args import FLOAT_TYPES, Arg, c_mod, parse_run, to_type  # noqa: E402

# ---------------------------------------------------------------------------
# The examples. Each gets its kernel arguments (buffers as lists, scalars as
# numbers, out: buffers with their initial contents) and W, and returns the
# final contents of its out: buffers, in order.

EXAMPLES = {}


def example(run):
    def register(fn):
        EXAMPLES[fn.__name__] = (run, fn)
        return fn
    return register


class Undefined(AssertionError):
    """The example has no single right answer at this width."""


def warps(x, W):
    """The slices of x that the warps of width W hold."""
    return [x[g:g + W] for g in range(0, len(x), W)]


@example("-g 32 -l 32 -a int[32]=i*i -a out:int[32]")
def neighbor_difference(x, out, W):
    return [[0 if i % W == W - 1 else x[i + 1] - x[i] for i in range(len(x))]]


@example("-g 64 -l 32 -a float[64]=(i*7)%11 -a out:float[64]")
def moving_average_3(x, out, W):
    y = []
    for i in range(len(x)):
        lane = i % W
        pts = [x[i + k] for k in range(3) if lane + k < W]   # the warp's own values only
        y.append(sum(pts) / len(pts))
    return [y]


@example("-g 128 -l 64 -a float[128]=(i*i)%23 -a out:float[128]")
def moving_average_5(x, out, W):
    # Binomial weights 1 4 6 4 1 over 16, neighbours from any warp: the same for every
    # W >= 2 (the kernel's halo needs 2 lanes).
    n = len(x)
    w = (1, 4, 6, 4, 1)
    return [[0.0 if i < 2 or i >= n - 2 else
             sum(w[k] * x[i + k - 2] for k in range(5)) / 16 for i in range(n)]]


@example("-g 64 -l 64 -a int[64]=iota(1,1) -a out:int[2] -a uint:2")
def warp_sum(x, out, nout, W):
    sums = [sum(s) for s in warps(x, W)]
    return [[sums[k] if k < len(sums) else out[k] for k in range(len(out))]]


def inclusive_scan(x, W, op):
    y = []
    for s in warps(x, W):
        acc = None
        for v in s:
            acc = v if acc is None else op(acc, v)
            y.append(acc)
    return y


def add(a, b):
    return a + b


@example("-g 64 -l 64 -a int[64]=fill(1) -a out:int[64]")
def warp_prefix_sum(x, out, W):
    return [inclusive_scan(x, W, add)]


@example("-g 64 -l 32 -a int[64]=iota -a out:int[64] -a out:int[64]")
def warp_prefix_sum_builtin(x, inc, exc, W):
    inclusive = inclusive_scan(x, W, add)
    exclusive = [a - v for a, v in zip(inclusive, x)]   # lane 0: the identity 0
    return [inclusive, exclusive]


@example("-g 64 -l 64 -a int[64]=i*3+1 -a out:int[64]")
def broadcast(x, out, W):
    return [[s[0] for s in warps(x, W) for _ in s]]


@example("-g 64 -l 64 -a int[64]=(i%7)-3 -a out:int[64]")
def broadcast_conditional(x, out, W):
    # Lane 0 decides for the whole warp: keep (scaled by 10) when its value is >= 0.
    return [[v * 10 if s[0] >= 0 else 0 for s in warps(x, W) for v in s]]


@example("-g 64 -l 64 -a int[64]=(i*i+5)%61 -a out:int[64]")
def broadcast_shuffle(x, out, W):
    # Each warp rotates its values left by lane 0's value modulo W.
    y = []
    for s in warps(x, W):
        r = s[0] % W
        y += [s[(lane + r) % W] for lane in range(W)]
    return [y]


@example("-g 64 -l 64 -a int[64]=i*10 -a out:int[64]")
def butterfly(x, out, W):
    return [[s[(lane ^ 1) % W] for s in warps(x, W) for lane in range(W)]]


@example("-g 64 -l 64 -a int[64]=(i*37)%101 -a out:int[64]")
def butterfly_max(x, out, W):
    return [[max(s) for s in warps(x, W) for _ in s]]


@example("-g 64 -l 64 -a int[64]=(i*i)%17 -a out:int[64]")
def butterfly_minmax(x, out, W):
    # 1 where the lane holds the warp's max, -1 where it holds the min, else 0.
    return [[1 if v == max(s) else -1 if v == min(s) else 0 for s in warps(x, W) for v in s]]


@example("-g 64 -l 64 -a int[64]=(i*37)%100 -a int:50 -a out:int[64]")
def warp_partition(x, pivot, out, W):
    # Stable: the values below the pivot first, then the others, each in input order.
    return [[v for s in warps(x, W) for v in
             [u for u in s if u < pivot] + [u for u in s if u >= pivot]]]


@example("-g 64 -l 64 -a float[64]=(i*7)%13 -a out:float[64] -a out:int[64]")
def sort_scores(x, keys, index, W):
    # Each warp's scores, largest first; equal scores keep their input order
    # (Python's sort is stable), each with its global index.
    ks, ids = [], []
    for g, s in enumerate(warps(x, W)):
        order = sorted(range(len(s)), key=lambda j: -s[j])
        ks += [s[j] for j in order]
        ids += [g * W + j for j in order]
    return [ks, ids]


@example("-g 256 -l 64 -a int[256]=(i%7)-3 -a int[256]=(i%5)+1 -a out:int[1]=fill(0)")
def dot_product(a, b, out, W):
    return [[out[0] + sum(p * q for p, q in zip(a, b))]]


@example("-g 128 -l 64 -a float[160]=((i*7)%19)/4 -a out:float[160] -a uint:4 -a uint:40")
def softmax(x, out, rows, cols, W):
    y = list(out)
    nwarps = 128 // W   # one row per warp; warps past the last row do nothing
    for r in range(min(rows, nwarps)):
        row = x[r * cols:(r + 1) * cols]
        m = max(row)
        e = [math.exp(v - m) for v in row]
        s = sum(e)
        y[r * cols:(r + 1) * cols] = [v / s for v in e]
    return [y]


# ---------------------------------------------------------------------------
# <clwarp/cuda.h>: CUDA's intrinsics as the CUDA C++ Programming Guide defines
# them ("Warp Shuffle Functions", "Warp Vote Functions", "Warp Reduce
# Functions", "Warp Match Functions") and the integer intrinsics of the CUDA
# Math API, for a warp of W lanes: warpSize is W, masks have W bits, and every
# lane of every warp takes part (full mask).


def cuda_shfl(x, W, src, width=None):
    """__shfl_sync(mask, var, srcLane, width): srcLane modulo width, inside the
    caller's segment of width lanes."""
    width = width or W
    return [x[g + (l - l % width) + src(l) % width] for g in range(0, len(x), W) for l in range(W)]


def cuda_shfl_up(x, W, d, width=None):
    """__shfl_up_sync: lane l reads lane l - delta, no wrap around the segment:
    the lower delta lanes of each segment keep their own value."""
    width = width or W
    return [x[g + l - d] if l % width >= d else x[g + l]
            for g in range(0, len(x), W) for l in range(W)]


def cuda_shfl_down(x, W, d, width=None):
    """__shfl_down_sync: lane l reads lane l + delta; the upper delta lanes of
    each segment keep their own value."""
    width = width or W
    return [x[g + l + d] if l % width + d < width else x[g + l]
            for g in range(0, len(x), W) for l in range(W)]


def cuda_shfl_xor(x, W, m, width=None):
    """__shfl_xor_sync: lane l reads lane l ^ laneMask; a lane may read an
    earlier segment, but reading a later one gives its own value."""
    width = width or W
    out = []
    for g in range(0, len(x), W):
        for l in range(W):
            j = l ^ m
            out.append(x[g + j] if j < (l - l % width) + width and j < W else x[g + l])
    return out


def per_warp(x, W, fn):
    """fn(the warp's values, lane) for every lane of every warp."""
    return [fn(x[g:g + W], l) for g in range(0, len(x), W) for l in range(W)]


def lane_mask(flags):
    return sum(1 << k for k, f in enumerate(flags) if f)


def fold(s, op):
    acc = s[0]
    for b in s[1:]:
        acc = op(acc, b)
    return acc


def popc(x):
    return bin(x).count("1")


def ffs(x):
    """__ffs/__ffsll: 1 + the position of the least significant 1 bit; 0 for 0."""
    return (x & -x).bit_length()


def clz(x, bits):
    """__clz/__clzll: leading zeros; 32 (64) for 0."""
    return bits - x.bit_length()


def brev(x, bits):
    return int(format(x, "0%db" % bits)[::-1], 2)


@example("-g 64 -l 64 -a int[64]=3*i+1 -a int[64]=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,0,1,0,1,1,0,0,0,1,1,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 -a int[64]=(i*7)%23-11 -a uint[64]=(i*37)%256+3840 -a uint[16]=0,1,2,3,0x80000000,0xffffffff,0x7fffffff,0x10,0x12345678,0x80000001,0xf0,0x10000,0xdeadbeef,0x55555555,6,0x40000000 -a ulong[16]=0,1,2,3,0x8000000000000000,0xffffffffffffffff,0x7fffffffffffffff,0x100000000,0x0123456789abcdef,0x8000000000000001,0xff00,0x80000000,0xdeadbeefcafebabe,0x5555555555555555,12,0x4000000000000000 -a out:int[512] -a out:uint[256] -a out:int[384] -a out:int[192] -a out:uint[192] -a out:int[96] -a out:uint[16] -a out:ulong[16]")
def cuda_intrinsics(v, p, w, u, xs, xl, shfl, masks, votes, reds, ureds, bits, rev, revll, W):
    if W > 32:
        # Ballots and masks are ulong beyond 32 lanes (docs/porting-cuda.md);
        # the example keeps them in uint buffers, CUDA's 32 bits.
        raise Undefined("cuda_intrinsics: the lane masks of W = %d do not fit its uint buffers" % W)
    shuffles = (cuda_shfl(v, W, lambda l: 3 * l + 1) + cuda_shfl(v, W, lambda l: 3, 8)
                + cuda_shfl_up(v, W, 3) + cuda_shfl_up(v, W, 2, 4)
                + cuda_shfl_down(v, W, 5) + cuda_shfl_down(v, W, 3, 4)
                + cuda_shfl_xor(v, W, 6) + cuda_shfl_xor(v, W, 5, 8))
    full = (1 << W) - 1     # __activemask(): every lane of the warp is active
    key = [c_mod(a, 7) for a in v]
    same = per_warp(p, W, lambda s, l: all(b == s[0] for b in s))
    masks = (per_warp(p, W, lambda s, l: lane_mask(s))
             + [full] * len(p)
             + per_warp(key, W, lambda s, l: lane_mask([b == s[l] for b in s]))
             + [full if ok else 0 for ok in same])
    votes = (per_warp(p, W, lambda s, l: int(all(s)))
             + per_warp(p, W, lambda s, l: int(any(s)))
             # __uni_sync: the predicate has the same truth value on every lane
             + per_warp(p, W, lambda s, l: int(len(set(bool(b) for b in s)) == 1))
             + [int(ok) for ok in same]
             + [W] * len(p)
             + [v[i ^ 1] for i in range(len(v))])   # lanes 2k and 2k+1 share a warp
    reds = (per_warp(v, W, lambda s, l: sum(s)) + per_warp(w, W, lambda s, l: min(s))
            + per_warp(w, W, lambda s, l: max(s)))
    ureds = (per_warp(u, W, lambda s, l: fold(s, lambda a, b: a & b))
             + per_warp(u, W, lambda s, l: fold(s, lambda a, b: a | b))
             + per_warp(u, W, lambda s, l: fold(s, lambda a, b: a ^ b)))
    bits = ([popc(x) for x in xs] + [ffs(x) for x in xs] + [clz(x, 32) for x in xs]
            + [popc(x) for x in xl] + [ffs(x) for x in xl] + [clz(x, 64) for x in xl])
    return [shuffles, masks, votes, reds, ureds, bits,
            [brev(x, 32) for x in xs], [brev(x, 64) for x in xl]]


# ---------------------------------------------------------------------------
# Kernels in CUDA's own style (docs/porting-cuda.md, "Kernels in CUDA style").
# Their constant mask 0xffffffff names 32 lanes, so they are defined up to
# W = 32.


def full_mask_only(name, W):
    if W > 32:
        raise Undefined("%s: the mask 0xffffffff leaves out lanes of a %d-lane warp" % (name, W))


def softmax_of(row):
    m = max(row)
    e = [math.exp(v - m) for v in row]
    s = sum(e)
    return [v / s for v in e]


@example("-g 192 -l 64 -a float[270]=((i*11)%23)/4-2 -a out:float[270] -a int:90 -a local:float[8]")
def row_softmax_cuda(x, out, cols, partial, W):
    # One block per row: the softmax of each row of cols values.
    full_mask_only("row_softmax_cuda", W)
    return [[v for r in range(0, len(x), cols) for v in softmax_of(x[r:r + cols])]]


@example("-g 96 -l 96 -a int[96]=1,1,2,1,1,1,1,1,1,1,1,-1,1,1,1,1,1,1,1,1,3,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
         "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,1,0,3,1,0,0,1,0"
         " -a out:int[96] -a out:int[96] -a out:int[96]")
def vote_ballot_cuda(flag, any_, all_, below, W):
    # Per lane: whether some / every lane of its warp has a non-zero flag, and
    # how many lanes below it in the warp have one.
    full_mask_only("vote_ballot_cuda", W)
    return [per_warp(flag, W, lambda s, l: int(any(s))),
            per_warp(flag, W, lambda s, l: int(all(s))),
            per_warp(flag, W, lambda s, l: sum(1 for v in s[:l] if v != 0))]


@example("-g 128 -l 64 -a int[128]=-3,2,-2,3,-1,4,0,5,-3,2,-2,3,-1,4,0,5,-3,2,-2,3,-1,4,0,5,"
         "-3,2,-2,3,-1,4,0,5,-3,2,-2,3,-1,4,0,5,-3,2,-2,3,-1,4,0,5,-3,2,-2,3,-1,4,0,5,"
         "-3,2,-2,3,-1,4,0,5,-1,-2,-3,-4,-5,-6,-7,-8,-1,-2,-3,-4,-5,-6,-7,-8,-1,-2,-3,-4,-5,-6,-7,-8,"
         "-1,-2,-3,-4,-5,-6,-7,-8,9,10,11,12,13,14,15,16,9,10,11,12,13,14,15,16,9,10,11,12,13,14,15,16,"
         "9,10,11,12,13,14,15,16 -a int:96 -a out:int[128]=fill(-1) -a out:int[1]=fill(0)")
def aggregated_atomic_cuda(src, n, dst, count, W):
    # The positive src[i], i < n. Each warp's kept values land together in
    # lane order; the warps' blocks come in the order of their atomics, which
    # the device chooses: the input makes every non-empty block the same, so
    # that order cannot show.
    full_mask_only("aggregated_atomic_cuda", W)
    blocks = [[v for k, v in enumerate(s) if g * W + k < n and v > 0]
              for g, s in enumerate(warps(src, W))]
    blocks = [b for b in blocks if b]
    if any(b != blocks[0] for b in blocks):
        raise Undefined("aggregated_atomic_cuda: the result would depend on the order of the warps")
    kept = [v for b in blocks for v in b]
    return [kept + dst[len(kept):], [count[0] + len(kept)]]


@example("-g 256 -l 64 -a int[256]=(i*5)%13-4 -a out:int[256] -a out:int[4] -a local:int[8]")
def block_scan_cuda(x, out, block_total, warp_total, W):
    # The inclusive prefix sum of each block of 64, and each block's total.
    full_mask_only("block_scan_cuda", W)
    block = 64
    scan = inclusive_scan(x, block, add)
    return [scan, [scan[b + block - 1] for b in range(0, len(x), block)]]


@example("-g 256 -l 64 -a int[1000]=(i*9)%17-8 -a int:1000 -a out:int[1]=fill(0) -a local:int[8]")
def block_reduce_atomic_cuda(x, n, total, partial, W):
    # The sum of x[0..n-1] added to total.
    full_mask_only("block_reduce_atomic_cuda", W)
    return [[total[0] + sum(x[:n])]]

# ---------------------------------------------------------------------------


def reference(name, W=DEFAULT_WIDTH):
    """The out: buffers of example NAME at width W: a list of (type, values)."""
    run, fn = EXAMPLES[name]
    args = [Arg(s) for s in parse_run(run)[0]]
    outs = fn(*[a.value for a in args], W=W)
    out_args = [a for a in args if a.out]
    if len(outs) != len(out_args):
        raise AssertionError("%s: %d results for %d out: buffers" % (name, len(outs), len(out_args)))
    result = []
    for a, values in zip(out_args, outs):
        if len(values) != a.count:
            raise AssertionError("%s: %d values for %s" % (name, len(values), a.spec))
        result.append((a.type, [to_type(a.type, v) if a.type not in FLOAT_TYPES else float(v)
                                for v in values]))
    return result


def fmt(t, v):
    return repr(float(v)) if t in FLOAT_TYPES else str(int(v))


def values_match(t, got_text, want):
    try:
        got = float(got_text) if t in FLOAT_TYPES else int(got_text, 0)
    except ValueError:
        return False
    if t in FLOAT_TYPES:
        if math.isnan(want) or math.isnan(got):
            return math.isnan(want) and math.isnan(got)
        return got == want or abs(got - want) <= 1e-6 * max(abs(got), abs(want))
    return got == want


def read_directives(path):
    """The run lines, and the expect lines by (K, W); W is None without @W."""
    runs, expects = [], {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if not s.startswith("//!"):
                continue
            s = s[3:].strip()
            if s.startswith("run:"):
                runs.append(s[4:].strip())
            elif s.startswith("expect"):
                head, _, vals = s.partition(":")
                head, _, width = head.partition("@")
                k = int(head[7:-1]) if head.startswith("expect[") else 0
                expects[(k, int(width) if width else None)] = vals.replace(",", " ").split()
    return runs, expects


def local_size(run):
    rest = parse_run(run)[1]
    return int(rest[rest.index("-l") + 1])


def widths_of(name):
    """{W: the reference at W, or None where it is undefined} for the
    widths of WIDTHS that the example's launch allows."""
    run = EXAMPLES[name][0]
    result = {}
    for W in WIDTHS:
        if local_size(run) % W:
            continue
        try:
            result[W] = reference(name, W)
        except Undefined:
            result[W] = None
    return result


def width_lines(name):
    """The expect[K]@W lines of example NAME: one for each K and W of
    WIDTHS whose values differ from those at W = 32."""
    base = reference(name, DEFAULT_WIDTH)
    lines = []
    for W, ref in sorted(widths_of(name).items()):
        if W == DEFAULT_WIDTH or ref is None:
            continue
        for k, ((t, values), (_, values32)) in enumerate(zip(ref, base)):
            if values != values32:
                lines.append("//! expect[%d]@%d: %s" % (k, W, " ".join(fmt(t, v) for v in values)))
    return lines


def verify(folder):
    errors = []
    files = sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".cl"))
    for name in files:
        path = os.path.join(folder, name + ".cl")
        if name not in EXAMPLES:
            errors.append("%s: no reference in %s" % (path, __file__))
            continue
        runs, expects = read_directives(path)
        want_run = EXAMPLES[name][0]
        if len(runs) != 1 or shlex.split(runs[0]) != shlex.split(want_run):
            errors.append("%s: the //! run: line is %r, the reference's %r" % (path, runs, want_run))
            continue
        ref = reference(name)
        plain = sorted(k for k, w in expects if w is None)
        if plain != list(range(len(ref))):
            errors.append("%s: expect lines without @W for out: buffers %s, the reference has %d"
                          % (path, plain, len(ref)))
            continue
        refs = widths_of(name)
        for k, w in sorted(expects, key=lambda kw: (kw[0], kw[1] or 0)):
            if w is not None and (k >= len(ref) or refs.get(w) is None):
                errors.append("%s: expect[%d]@%d, but the reference has no result for out: "
                              "buffer %d at width %d" % (path, k, w, k, w))
        for W, ref_w in sorted(refs.items()):
            if ref_w is None:
                continue
            for k, (t, want) in enumerate(ref_w):
                key = (k, W) if (k, W) in expects else (k, None)
                got = expects[key]
                line = "expect[%d]%s" % (k, "@%d" % W if key[1] else "")
                if len(got) != len(want):
                    errors.append("%s: %s has %d values, the reference at width %d %d"
                                  % (path, line, len(got), W, len(want)))
                    continue
                bad = [j for j in range(len(want)) if not values_match(t, got[j], want[j])]
                for j in bad[:5]:
                    errors.append("%s: %s[%d] is %s, the reference at width %d %s%s"
                                  % (path, line, j, got[j], W, fmt(t, want[j]),
                                     "" if key[1] else " (add an expect[%d]@%d line)" % (k, W)))
    for name in sorted(set(EXAMPLES) - set(files)):
        errors.append("%s: the reference has no %s.cl" % (folder, name))
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        print("verify: FAIL (%d problems)" % len(errors))
        return 1
    print("verify: %d examples match the reference" % len(files))
    return 0


def main(argv):
    import argparse
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verify", action="store_true",
                    help="check the //! run and //! expect lines of the example files")
    ap.add_argument("--examples", default=os.path.join(root, "kernels", "examples"),
                    help="the folder of the example files (default: %(default)s)")
    ap.add_argument("--width", type=int, default=DEFAULT_WIDTH, help="warp width W (default 32)")
    ap.add_argument("--width-lines", action="store_true",
                    help="print the //! expect[K]@W lines of the examples (W of %s)"
                    % ", ".join(map(str, WIDTHS)))
    ap.add_argument("names", nargs="*", help="examples to print (default: all)")
    opts = ap.parse_args(argv)
    if opts.verify:
        return verify(opts.examples)
    if opts.width_lines:
        for name in opts.names or EXAMPLES:
            if name not in EXAMPLES:
                ap.error("no example %s (have: %s)" % (name, " ".join(EXAMPLES)))
            print("%s.cl" % name)
            for line in width_lines(name):
                print(line)
            print()
        return 0
    for name in opts.names or EXAMPLES:
        if name not in EXAMPLES:
            ap.error("no example %s (have: %s)" % (name, " ".join(EXAMPLES)))
        print("%s.cl (W = %d)" % (name, opts.width))
        print("//! run: " + EXAMPLES[name][0])
        for k, (t, values) in enumerate(reference(name, opts.width)):
            print("//! expect[%d]: %s" % (k, " ".join(fmt(t, v) for v in values)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
