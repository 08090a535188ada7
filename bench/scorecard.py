#!/usr/bin/env python3
# The performance targets against CUB (TARGETS below; docs/performance.md),
# each met or missed, from the TSVs of the benches.
# SPDX-License-Identifier: MIT
"""Usage: bench/scorecard.py FILE.tsv... [--markdown]

Reads the rows of algorithms-bench, hist-rle-bench and sort-bench (ours)
and of cub-bench, cub-hist-rle-bench and cub-sort-bench (CUB), in any
number of files and rounds: "device backend op type n median_ms ...
[wall_ms timing [batch_ms]]". A call measured in several rounds counts by
the median of its rounds. Which figure is which:

  event     median_ms of rows whose timing is "event" (ours: a profiling
            engine; sort-bench rows, which have no timing column, are
            event time too) and of CUB's rows;
  blocking  wall_ms, the public call that waits for its result; ours
            from an engine without profiling (timing "wall",
            algorithms-bench/hist-rle-bench --no-profiling) as users make
            them, else from the profiling engine, marked '*'.

Then, for each target of the issue ("Done when"), every call and size it
names: CUB's time over ours (at least 0.95 to meet it), or for the small
sizes each call's time over the copy kernel of its own run and API (at
most 1.05). A target with no rows on one side prints "not measured".

The blocking call's floor: where both APIs' copy kernels were timed by
blocking call at a size (ours on an engine without profiling), their
difference there is what OpenCL's launch-and-wait costs over CUDA's for
the same kernel. A blocking miss that this floor covers, i.e. CUB's time
over (ours less the floor) reaches 0.95, is marked '~': it is the API's
cost, measured in the same job, not the call's. It still counts as
missed.
The warp families' target (0.97 of CUDA) comes from bench/warp-ratios.py,
not from here.

Exit status: 0 when every measured target is met, 1 when one is missed,
2 on bad usage.
"""
import statistics
import sys
from collections import defaultdict

CUDA_BACKENDS = {"cub", "cub-kernel", "cuda-memcpy", "cuda-kernel"}

# (name, measure, sizes as log2 range, calls as (op prefix, types or None)),
# in the words. Ops match by prefix: "partition_reversed_gt0"
# covers partition_reversed_gt0 and partition_reversed_gt0.9.
TARGETS = [
    ("blocking call, at least 0.95 of CUB, 2^16-2^28", "blocking", (16, 28),
     [("reduce_add", None), ("scan_inclusive_add", None), ("compact_gt0", None),
      ("partition_reversed_gt0", None), ("hist", None), ("rle", None)]),
    ("blocking call, at least 0.95 of CUB, 2^22-2^28", "blocking", (22, 28),
     [("unique", None), ("rbk", None)]),
    ("event time, at least 0.95 of CUB, 2^24-2^28", "event", (24, 28),
     [("sort_keys", ("uint", "int", "float", "ulong")), ("sort_pairs", ("uint",))]),
]
SMALL = (10, 16)
SMALL_CALLS = ("reduce_add", "scan_inclusive_add", "compact_gt0", "partition_reversed_gt0")
LIMIT, SMALL_LIMIT = 0.95, 1.05


def cub_op(op):
    """CUB's name for one of our ops: DevicePartition::If is our partition_reversed."""
    return op.replace("partition_reversed_", "partition_", 1)


def read(paths):
    """{(side, op, type, n): {"event": [...], "blocking": [...], "blocking*": [...]}}"""
    rows = defaultdict(lambda: defaultdict(list))
    for path in paths:
        with open(path) as f:
            for line in f:
                c = line.rstrip("\n").split("\t")
                if len(c) < 6 or c[0] in ("device", "") or c[0].startswith("#"):
                    continue
                try:
                    n, ms = int(c[4]), float(c[5])
                except ValueError:
                    continue
                backend = c[1].split("[", 1)[0]
                timing = c[8] if len(c) > 8 else "event"
                wall = float(c[7]) if len(c) > 7 and c[7] else None
                if backend == "host" or backend in ("cub-kernel", "cuda-memcpy"):
                    continue
                if c[2] == "copy":
                    side = "cuda-copy" if backend == "cuda-kernel" else "opencl-copy"
                elif backend == "cub":
                    side = "cub"
                elif backend in CUDA_BACKENDS or backend == "opencl":
                    continue
                else:
                    side = "ours"
                r = rows[(side, c[2], c[3], n)]
                if side in ("cub", "cuda-copy"):
                    r["event"].append(ms)
                    if wall is not None:
                        r["blocking"].append(wall)
                elif timing == "wall":
                    # An engine without profiling: median_ms is `call;
                    # clFinish`, wall_ms the public call that waits.
                    r["blocking"].append(wall if wall is not None else ms)
                else:
                    r["event"].append(ms)
                    if wall is not None:
                        r["blocking*"].append(wall)
    return rows


def figure(rows, key, measure):
    """(median, starred) of one measure of one call, or (None, False)."""
    r = rows.get(key)
    if not r:
        return None, False
    if measure == "blocking" and not r["blocking"] and r["blocking*"]:
        return statistics.median(r["blocking*"]), True
    v = r[measure]
    return (statistics.median(v), False) if v else (None, False)


def log2(n):
    return n.bit_length() - 1


def blocking_floor(rows, n):
    """OpenCL's blocking copy kernel less CUDA's at n, in ms, or None."""
    r = rows.get(("opencl-copy", "copy", "float", n))
    cuda, _ = figure(rows, ("cuda-copy", "copy", "float", n), "blocking")
    if not r or not r["blocking"] or cuda is None:
        return None
    return statistics.median(r["blocking"]) - cuda


def within_floor(rows, n, mine, theirs):
    """True when the blocking floor at n covers our gap to CUB's target."""
    floor = blocking_floor(rows, n)
    return floor is not None and floor > 0 and mine > floor and theirs / (mine - floor) >= LIMIT


def against_cub(rows, target):
    """Lines (call, size, ratio text, ratio, within the floor) for one CUB target."""
    name, measure, (lo, hi), calls = target
    out = []
    ours = sorted({k[1:] for k in rows if k[0] == "ours"})
    for op, typ, n in ours:
        if not lo <= log2(n) <= hi or n & (n - 1):
            continue
        if not any(op.startswith(p) and (types is None or typ in types) for p, types in calls):
            continue
        mine, star = figure(rows, ("ours", op, typ, n), measure)
        theirs, _ = figure(rows, ("cub", cub_op(op), typ, n), measure)
        if mine is None or theirs is None:
            continue
        ratio = theirs / mine
        floor = measure == "blocking" and not star and within_floor(rows, n, mine, theirs)
        out.append(("%s %s" % (op, typ), log2(n), "%.2f%s" % (ratio, "*" if star else ""), ratio,
                    floor))
    return out


def against_copy(rows, side, copy_side, measure):
    """Each small call's time over the copy kernel of its own API and run."""
    out = []
    for key in sorted(k for k in rows if k[0] == side):
        _, op, typ, n = key
        if not SMALL[0] <= log2(n) <= SMALL[1] or not op.startswith(SMALL_CALLS):
            continue
        call, _ = figure(rows, key, measure)
        copy = None
        for ctyp in (typ, "float"):
            copy, _ = figure(rows, (copy_side, "copy", ctyp, n), measure)
            if copy is not None:
                break
        if call is None or copy is None:
            continue
        out.append(("%s %s" % (op, typ), log2(n), "%.2f" % (call / copy), call / copy, False))
    return out


def report(title, lines, ok, markdown):
    """Print one target; return True (met), False (missed) or None (no rows)."""
    if not lines:
        print("%s: not measured" % title)
        return None
    missed = [l for l in lines if not ok(l[3])]
    verdict = "met" if not missed else "MISSED at %d of %d" % (len(missed), len(lines))
    floored = sum(1 for l in missed if l[4])
    if floored:
        verdict += " (%d within the blocking call's floor, '~')" % floored
    print("%s: %s" % (title, verdict))
    by_call = defaultdict(list)
    for call, l2, text, ratio, floor in lines:
        # Three decimals where two would round a miss onto the line.
        if ok(float(text.rstrip("*"))) != ok(ratio):
            text = "%.3f%s" % (ratio, text[4:])
        mark = "" if ok(ratio) else "!~" if floor else "!"
        by_call[call].append((l2, text + mark, ok(ratio)))
    for call, cells in by_call.items():
        worst = "" if all(c[2] for c in cells) else "  <- "
        text = "  ".join("2^%d %s" % (l2, t) for l2, t, _ in cells)
        print(("  - %s: %s%s" if markdown else "  %-30s %s%s") % (call, text, worst.rstrip()))
    return not missed


def main(argv):
    markdown = "--markdown" in argv
    paths = [a for a in argv if a != "--markdown"]
    if not paths or any(p.startswith("-") for p in paths):
        print(__doc__, file=sys.stderr)
        return 2
    rows = read(paths)
    verdicts = []
    for target in TARGETS:
        verdicts.append(report(target[0], against_cub(rows, target), lambda r: r >= LIMIT, markdown))
    for measure in ("blocking", "event"):
        lines = against_copy(rows, "ours", "opencl-copy", measure)
        verdicts.append(report("%s, at most 1.05x the OpenCL copy kernel, 2^10-2^16" % measure,
                               lines, lambda r: r <= SMALL_LIMIT, markdown))
        lines = against_copy(rows, "cub", "cuda-copy", measure)
        report("(CUB, for comparison) %s, its calls over the CUDA copy kernel, 2^10-2^16" % measure,
               lines, lambda r: r <= SMALL_LIMIT, markdown)
    floors = sorted((log2(k[3]), blocking_floor(rows, k[3])) for k in rows
                    if k[:3] == ("opencl-copy", "copy", "float") and SMALL[1] <= log2(k[3]))
    floors = [(l2, f) for l2, f in floors if f is not None]
    if floors:
        print("the blocking call's floor, OpenCL's copy kernel less CUDA's, same job, us: " +
              "  ".join("2^%d %.1f" % (l2, f * 1000) for l2, f in floors))
    print("'*': our blocking figure from a profiling engine (no --no-profiling rows); "
          "'!': under the target; '~': a miss the floor covers")
    return 1 if False in verdicts else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
