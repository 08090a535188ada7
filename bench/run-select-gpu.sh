#!/usr/bin/env bash
# On an NVIDIA GPU machine: compaction and partition of libclwarp (OpenCL), of its CUDA port and of CUB, and the ratios.
# SPDX-License-Identifier: MIT
#
# Usage (from anywhere; it works in the repository root):
#   bash bench/run-select-gpu.sh
#
# Runs, in one job, for float data k/256 (k uniform in [-256, 255]) with the
# predicates x > 0 (49.8 % kept) and x > 0.9f (4.9 % kept):
#   bench/select-port.cu   a CUDA port of clwarp_select / clwarp_reverse_tail,
#                          timed in turn with cub::DeviceSelect::If and
#                          cub::DevicePartition::If, checked element by element
#                          against them
#   bench/cub-bench.cu     CUB alone (--ops compact,compact_sparse,partition)
#   algorithms-bench       clwarp_compact / clwarp_partition /
#                          clwarp_partition(CLWARP_PARTITION_REVERSED) on the nv backend
# at n = 2^MIN_LOG2 .. 2^MAX_LOG2 (the last two from 2^10, for the launch
# floors), then prints one table:
#   ours/CUB   algorithms-bench (nv) over cub-bench: the measure the targets use
#   port/CUB   the port over CUB, both from select-port's own run
#   ours/port  the same kernel through NVIDIA's OpenCL compiler over nvcc
#   asm/port   the port with nv.cl's inline PTX over the port with CUDA's
#              intrinsics (how the warp calls' asm compiles)
#   norev/CUB  partition without the reverse of the rejected part (CUB's
#              output order) over CUB: the select kernel alone; the times
#              table also gives the reverse step alone (rev)
# The partition_reversed rows are clwarp_partition with
# CLWARP_PARTITION_REVERSED, which gives
# CUB's order itself: their CUB is cub::DevicePartition::If (the partition
# rows' CUB) and their port the port without the reverse step (port-norev).
#   CUB/CUB'   cub-bench's CUB over select-port's: ~1 when the two
#              processes saw the same GPU speed, so that ours/port holds
# The code step takes the PTX NVIDIA's OpenCL compiler made of ours (from
# the program cache), asks the OpenCL driver what it allows of each kernel
# (bench/cl-kernel-info: work-group size, which registers bound) and
# assembles it with ptxas -v beside the port's, for registers and SASS.
#
# Writes into $OUT (default ./select-out), 7 files:
#   run.log        everything printed, builds included
#   summary.txt    the table above
#   port.tsv       select-port (backends port, port-asm, port-norev, port-rev, cub)
#   cub.tsv        cub-bench
#   clwarp.tsv     algorithms-bench (backend nv)
#   code.txt       registers (ptxas -v, OpenCL work-group size), shared and
#                  local memory per kernel, ours and the port's
#   code.tar.gz    ours' PTX and SASS per variant, the port's PTX and SASS
#
# Knobs: OUT, BUILD (meson build folder, default build-bench-gpu; cub-bench
# and select-port go to $BUILD-cuda), MIN_LOG2 / MAX_LOG2 (default 22 / 28),
# REPS (default 40; algorithms-bench and cub-bench halve it above 2^24),
# ARCH (nvcc -arch, default sm_90), DEVICE (algorithms-bench --device,
# default gpu). Run time on an H100: 70-80 s, builds included;
# every step has a time limit, 7.5 minutes in all at worst.
# CLWARP_OPENCL_ENV (optional): a shell file, sourced first, that puts the OpenCL platforms on the loader's path.
# Exit status: 0 when every build, run and check passed.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-select-out}
BUILD=${BUILD:-build-bench-gpu}
MIN_LOG2=${MIN_LOG2:-22}
MAX_LOG2=${MAX_LOG2:-28}
REPS=${REPS:-40}
ARCH=${ARCH:-sm_90}
DEVICE=${DEVICE:-gpu}
OPS=compact,compact_sparse,partition
OURS_OPS=$OPS,partition_reversed
mkdir -p "$OUT" "$BUILD-cuda" || exit 1
OUT=$(cd "$OUT" && pwd)
step() { printf '\n==== [%s] %s ====\n' "$(date +%H:%M:%S)" "$*"; }
# The launch floor: the copy kernels at 2^10, from the same runs.
FLOOR_LOG2=10

# A build in the background, its output in $BUILD-cuda/NAME.log; waitfor
# prints the log (without ptxas -v's lines, which go to code.txt) and gives
# its status.
declare -A bg_pid
spawn() {
	local name=$1
	shift
	"$@" >"$BUILD-cuda/$name.log" 2>&1 &
	bg_pid[$name]=$!
}
waitfor() {
	local rc
	wait "${bg_pid[$1]}"
	rc=$?
	grep -v '^ptxas info\|bytes stack frame' "$BUILD-cuda/$1.log"
	[ $rc = 0 ] || echo "run-select-gpu: building $1 failed (status $rc)"
	return $rc
}
demangle() { if command -v c++filt >/dev/null; then c++filt; else cat; fi; }

main() {
	local status=0 rc cache
	local port=$BUILD-cuda/select-port cub=$BUILD-cuda/cub-bench ours=$BUILD/bench/algorithms-bench

	step "environment"
	if [ -n "${CLWARP_OPENCL_ENV:-}" ]; then
		# shellcheck source=/dev/null
		source "$CLWARP_OPENCL_ENV"
	else
		echo "run-select-gpu: no CLWARP_OPENCL_ENV; using the OpenCL platforms as installed"
	fi
	git log -1 --format='commit %h %s' 2>/dev/null || true
	nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>/dev/null || true
	nvcc --version | tail -1

	step "build: select-port, cub-bench (nvcc) and algorithms-bench (meson) in parallel"
	# A cache of our own, emptied, so that the code step finds this run's binaries only.
	case $BUILD in
	/*) cache=$BUILD-cuda/clwarp-cache ;;
	*) cache=$PWD/$BUILD-cuda/clwarp-cache ;;
	esac
	rm -rf "$cache"
	export CLWARP_CACHE_DIR=$cache
	rm -f "$port" "$cub"
	spawn select-port timeout 200 nvcc -O3 -arch="$ARCH" -std=c++17 -Xptxas -v bench/select-port.cu -o "$port"
	spawn cub-bench timeout 200 nvcc -O3 -arch="$ARCH" -std=c++17 bench/cub-bench.cu -o "$cub"
	if [ ! -f "$BUILD/build.ninja" ]; then
		meson setup "$BUILD" -Dtests=false -Dbench=true >/dev/null || status=1
	fi
	timeout 200 ninja -C "$BUILD" bench/algorithms-bench bench/cl-kernel-info ||
		{ echo "run-select-gpu: ninja failed"; status=1; }
	waitfor select-port || status=1
	[ -x "$port" ] || status=1
	waitfor cub-bench || status=1
	[ -x "$cub" ] || status=1

	if [ -x "$port" ]; then
		step "select-port: the CUDA port beside CUB"
		timeout 100 "$port" --min-log2 "$MIN_LOG2" --max-log2 "$MAX_LOG2" --step 1 --reps "$REPS" \
			--tsv "$OUT/port.tsv"
		rc=$?
		[ $rc = 0 ] || { echo "run-select-gpu: select-port exited with $rc"; status=1; }
	fi

	if [ -x "$cub" ]; then
		step "cub-bench: $OPS"
		timeout 90 "$cub" --min-log2 "$FLOOR_LOG2" --max-log2 "$MAX_LOG2" --reps "$REPS" --ops "$OPS" \
			--tsv "$OUT/cub.tsv"
		rc=$?
		[ $rc = 0 ] || { echo "run-select-gpu: cub-bench exited with $rc"; status=1; }
	fi

	if [ -x "$ours" ]; then
		step "algorithms-bench on the GPU (--device $DEVICE), backend auto (nv): $OURS_OPS"
		timeout 150 "$ours" --device "$DEVICE" --backends auto --ops "$OURS_OPS" --min-log2 "$FLOOR_LOG2" \
			--max-log2 "$MAX_LOG2" --reps "$REPS" --budget 2 --keep-going --no-host --tsv "$OUT/clwarp.tsv"
		rc=$?
		[ $rc = 0 ] || { echo "run-select-gpu: algorithms-bench exited with $rc"; status=1; }
	fi

	step "code: registers and shared memory of ours (PTX from the program cache, ptxas -v) and of the port"
	code_step "$port"

	step "summary"
	summary "$MIN_LOG2" "$OUT/clwarp.tsv" "$OUT/cub.tsv" "$OUT/port.tsv" | tee "$OUT/summary.txt"

	step "done (status $status); files in $OUT"
	ls -l "$OUT"
	return $status
}

# ours-<op>.ptx from the cache entries (88-byte header, then the binary,
# which NVIDIA's OpenCL gives as PTX), each assembled by ptxas -v; the
# port's PTX and SASS from its fat binary. Nothing here is fatal.
code_step() {
	local port=$1 dir=$BUILD-cuda/code f ours_info
	ours_info=$(cd "$BUILD/bench" 2>/dev/null && pwd)/cl-kernel-info
	rm -rf "$dir"
	mkdir -p "$dir"
	python3 - "$CLWARP_CACHE_DIR" "$dir" <<'PY'
import os, sys
cache, dst = sys.argv[1:3]
found = []
for root, _, files in os.walk(cache):
    for name in files:
        path = os.path.join(root, name)
        data = open(path, "rb").read()
        if data.startswith(b"CLWARPC") and b".entry clwarp_select" in data:
            found.append((os.stat(path).st_mtime_ns, data[88:].rstrip(b"\0")))
# Both kinds hold clwarp_select and clwarp_reverse_tail (scan.cl), so the
# kind comes from the build order, algorithms-bench's case order; the
# predicate, an immediate (0.9f is 0f3F666666), confirms it.
found.sort()
preds = ["gt0.9" if b"0f3F666666" in ptx else "gt0" for _, ptx in found]
names = ["compact_gt0", "compact_gt0.9", "partition_gt0", "partition_gt0.9"]
if [n.split("_")[1] for n in names] != preds:
    names = [f"select{i}_{p}" for i, p in enumerate(preds)]
for name, (_, ptx) in zip(names, found):
    open(os.path.join(dst, f"ours-{name}.ptx"), "wb").write(ptx)
print(f"{len(found)} clwarp_select program(s) in the cache: {', '.join(names)}")
PY
	{
		echo "# ours: NVIDIA OpenCL's PTX assembled with this CUDA's ptxas -arch=$ARCH -v"
		echo "# (the driver JIT-assembles the same PTX itself; its register counts may differ a little)"
		for f in "$dir"/ours-*.ptx; do
			[ -f "$f" ] || continue
			echo "## $(basename "$f" .ptx)"
			ptxas -arch="$ARCH" -v "$f" -o "${f%.ptx}.cubin" 2>&1 | grep -v "^$"
			cuobjdump -sass "${f%.ptx}.cubin" >"${f%.ptx}.sass" 2>&1
		done
		echo
		echo "# ours as NVIDIA's OpenCL driver builds the same PTX (bench/cl-kernel-info): the work-group"
		echo "# size the registers allow, to hold against the port's threads a block (run.log, select-port)"
		(cd "$dir" && "$ours_info" ours-*.ptx)
		echo
		echo "# port: nvcc -Xptxas -v (select_kernel<1: compact, 2: partition; true: nv.cl's inline PTX>)"
		awk '/Compiling entry function/ { keep = /select_kernel|reverse_tail/ }
			keep && !/Function properties|Compile time/' "$BUILD-cuda/select-port.log" |
			demangle | sed 's/^ptxas info *: //'
	} >"$OUT/code.txt" 2>&1
	cat "$OUT/code.txt"
	if [ -x "$port" ]; then
		cuobjdump -ptx "$port" >"$dir/port.ptx" 2>&1
		cuobjdump -sass "$port" >"$dir/port.sass" 2>&1
	fi
	tar -czf "$OUT/code.tar.gz" -C "$dir" . || true
}

# The table: GB/s per op and n >= 2^MIN_LOG2, the ratios, then the times
# and launch floors.
summary() {
	python3 - "$@" <<'PY'
import sys

min_log2 = int(sys.argv[1])
files = dict(zip(("ours", "cub", "port"), sys.argv[2:5]))


def load(path):
    """{(backend, op, n): (ms, gbps)}"""
    rows = {}
    try:
        f = open(path)
    except OSError:
        print(f"summary: no {path}")
        return rows
    for line in f:
        p = line.rstrip("\n").split("\t")
        if len(p) < 7 or p[0] == "device":
            continue
        rows[(p[1], p[2], int(p[4]))] = (float(p[5]), float(p[6]))
    return rows


ours = load(files["ours"])
cub = load(files["cub"])
port = load(files["port"])
native = sorted({b for b, _, _ in ours} - {"local", "opencl", "host"})
native = native[0] if native else "nv"
ops = ["compact_gt0", "compact_gt0.9", "partition_gt0", "partition_gt0.9",
       "partition_reversed_gt0", "partition_reversed_gt0.9"]


def theirs(op):
    """CUB's op and the port's backend beside one of ours: clwarp_partition with
    CLWARP_PARTITION_REVERSED writes what DevicePartition::If writes, so it meets CUB's partition and the port
    without its reverse step."""
    if op.startswith("partition_reversed"):
        return op.replace("partition_reversed", "partition"), "port-norev"
    return op, "port"
sizes = sorted({n for _, _, n in list(ours) + list(cub) + list(port) if n >= 1 << min_log2})


def g(rows, backend, op, n, i=1):
    v = rows.get((backend, op, n))
    return v[i] if v else None


def kept(op, n):
    """The share kept, from a compaction's GB/s: bytes = 4 (n + kept)."""
    comp = "compact_" + op.rsplit("_", 1)[1]
    for rows, b in ((cub, "cub"), (port, "cub"), (ours, native)):
        v = rows.get((b, comp, n))
        if v:
            return (v[0] * 1e-3 * v[1] * 1e9 / 4 - n) / n
    return None


def f(x, w, p=1):
    return f"{x:{w}.{p}f}" if x is not None else f"{'-':>{w}}"


def r(a, b, w=10):
    return f(a / b if a and b else None, w, 3)


cub2, cub_ratio = "CUB'", "CUB/CUB'"


print(f"libclwarp ({native}) = ours, bench/select-port.cu = port, CUB = cub-bench's cub::DeviceSelect::If /")
print("DevicePartition::If, CUB' = select-port's CUB (timed in turn with the port). GB/s: compaction")
print("n*4 read + kept*4 written, partition 2n*4. Ratios of GB/s; >= 0.95 is the project's target.")
print()
head = (f"{'op':<26}{'kept':>6}{'n':>11}{'ours':>8}{'port':>8}{'CUB':>8}"
        f"{'ours/CUB':>10}{'port/CUB':>10}{'ours/port':>10}{'asm/port':>10}{'norev/CUB':>10}{cub_ratio:>10}")
print(head)
for op in ops:
    for n in sizes:
        top, pb = theirs(op)
        o, p, c = g(ours, native, op, n), g(port, pb, top, n), g(cub, "cub", top, n)
        c2 = g(port, "cub", top, n)
        pa = g(port, "port-asm", op, n)
        nr = g(port, "port-norev", op, n) if pb == "port" else None
        if not any((o, p, c)):
            continue
        k = kept(op, n)
        print(f"{op:<26}{f(k * 100 if k is not None else None, 5)}%{n:>11}{f(o, 8)}{f(p, 8)}{f(c, 8)}"
              f"{r(o, c)}{r(p, c2)}{r(o, p)}{r(pa, p)}{r(nr, c2)}{r(c, c2)}")
    print()

print("median times (us); below about 2^24 the launch floors weigh in: an OpenCL launch costs")
print("more than a CUDA one, so ours/port there is not the compiler alone. rev: the port's")
print("clwarp_reverse_tail alone (port - norev is the same step right after the select kernel)")
print(f"{'op':<26}{'n':>11}{'ours':>10}{'port':>10}{'port-asm':>10}{'norev':>10}{'rev':>10}{'CUB':>10}{cub2:>10}")
for op in ops:
    for n in sizes:
        top, pb = theirs(op)
        vals = [g(ours, native, op, n, 0), g(port, pb, top, n, 0), g(port, "port-asm", op, n, 0),
                g(port, "port-norev", op, n, 0), g(port, "port-rev", op, n, 0), g(cub, "cub", top, n, 0),
                g(port, "cub", top, n, 0)]
        if any(vals):
            print(f"{op:<26}{n:>11}" + "".join(f(v * 1e3 if v else None, 10) for v in vals))
floors = [(name, rows.get((b, "copy", n)))
          for name, rows, b in (("OpenCL copy kernel", ours, "opencl"), ("CUDA copy kernel", cub, "cuda-kernel"))
          for n in [min((k[2] for k in rows if k[1] == "copy" and k[0] == b), default=None)] if n]
for name, v in floors:
    if v:
        print(f"launch floor, {name} at its smallest n: {v[0] * 1e3:.1f} us")
for name, rows, b in (("OpenCL copy kernel", ours, "opencl"), ("cudaMemcpy", cub, "cuda-memcpy")):
    big = max((k[2] for k in rows if k[1] == "copy" and k[0] == b), default=None)
    if big:
        print(f"copy bandwidth, {name} at n = 2^{big.bit_length() - 1}: {rows[(b, 'copy', big)][1]:.0f} GB/s")
PY
}

main 2>&1 | tee "$OUT/run.log"
exit "${PIPESTATUS[0]}"
