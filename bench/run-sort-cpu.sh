#!/usr/bin/env bash
# On a CPU OpenCL device (PoCL): sort-bench (libclwarp, and qsort) beside PyOpenCL's RadixSort, in rounds, and the ratios.
# SPDX-License-Identifier: MIT
#
# Usage (from anywhere): bash bench/run-sort-cpu.sh
# Knobs: OUT (default ./bench-out-cpu), BUILD (default build-bench-cpu),
# VENV (default .venv-bench: a virtualenv with pyopencl, numpy and mako,
# made with pip if it lacks them; a benchmark-only dependency),
# MIN_LOG2 (16), MAX_LOG2 (22), REPS (5, per size and round), ROUNDS (3),
# DEVICE (cpu), CLWARP_BACKEND (local), PTHREADS ("0 1": the PoCL worker
# thread counts to run, as POCL_MAX_PTHREAD_COUNT; 0 is PoCL's default,
# one per core).
#
# Each round runs, for each thread count, bench/sort-bench
# (clwarp_sort_keys / clwarp_sort_pairs on uint keys, with --host for
# qsort) and bench/pyopencl-sort-bench.py on the same device, one after the
# other; odd rounds run libclwarp first, even rounds PyOpenCL first, so that
# a slow spell of a shared machine does not always land on the same side.
# Both must report the same device name and driver version. Writes
# $OUT/round<R>-t<T>-{clwarp,pyopencl}.{tsv,log} and $OUT/sort-cpu-table.md:
# per thread count, case and n, the medians over the rounds of each side's
# Mkeys/s, and the ratios libclwarp/PyOpenCL and libclwarp/qsort (throughput
# over throughput: above 1 libclwarp is faster), each taken within one
# round, then their median and min-max over the rounds; then each side's
# speed with fewer threads over its speed with PoCL's default, the same way.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-bench-out-cpu}
BUILD=${BUILD:-build-bench-cpu}
VENV=${VENV:-.venv-bench}
MIN_LOG2=${MIN_LOG2:-16}
MAX_LOG2=${MAX_LOG2:-22}
REPS=${REPS:-5}
ROUNDS=${ROUNDS:-3}
DEVICE=${DEVICE:-cpu}
PTHREADS=${PTHREADS:-0 1}
export CLWARP_BACKEND=${CLWARP_BACKEND:-local}
mkdir -p "$OUT"
status=0

case $BUILD in
/*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$BUILD/clwarp-cache} ;;
*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$PWD/$BUILD/clwarp-cache} ;;
esac
[ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" -Dtests=false -Dbench=true >/dev/null || exit 1
ninja -C "$BUILD" bench/sort-bench >/dev/null || exit 1

if ! "$VENV/bin/python" -c 'import pyopencl, numpy, mako' 2>/dev/null; then
	echo "run-sort-cpu: installing pyopencl, numpy and mako into $VENV"
	python3 -m venv "$VENV" && "$VENV/bin/pip" install -q pyopencl numpy mako || exit 1
fi

# with_threads T CMD...: CMD with POCL_MAX_PTHREAD_COUNT=T (0: unset).
with_threads() {
	local t=$1
	shift
	if [ "$t" = 0 ]; then env -u POCL_MAX_PTHREAD_COUNT "$@"; else POCL_MAX_PTHREAD_COUNT=$t "$@"; fi
}
# run_clwarp ROUND THREADS, run_pyopencl ROUND THREADS
run_clwarp() {
	echo "-- libclwarp, POCL_MAX_PTHREAD_COUNT=$2"
	with_threads "$2" timeout 1500 "$BUILD/bench/sort-bench" --device "$DEVICE" \
		--cases keys-uint,pairs-uint --host --min-log2 "$MIN_LOG2" --max-log2 "$MAX_LOG2" \
		--reps "$REPS" --tsv "$OUT/round$1-t$2-clwarp.tsv" | tee "$OUT/round$1-t$2-clwarp.log" ||
		{ echo "run-sort-cpu: sort-bench failed"; status=1; }
}
run_pyopencl() {
	echo "-- PyOpenCL, POCL_MAX_PTHREAD_COUNT=$2"
	with_threads "$2" timeout 1500 "$VENV/bin/python" bench/pyopencl-sort-bench.py --device "$DEVICE" \
		--min-log2 "$MIN_LOG2" --max-log2 "$MAX_LOG2" --reps "$REPS" \
		--tsv "$OUT/round$1-t$2-pyopencl.tsv" | tee "$OUT/round$1-t$2-pyopencl.log" ||
		{ echo "run-sort-cpu: pyopencl-sort-bench failed"; status=1; }
}

for r in $(seq 1 "$ROUNDS"); do
	for t in $PTHREADS; do
		echo "== round $r of $ROUNDS, PoCL threads $t (0: default), $(date -u +%FT%TZ)," \
			"load average $(cut -d' ' -f1-3 /proc/loadavg)"
		if [ $((r % 2)) = 1 ]; then
			run_clwarp "$r" "$t"
			run_pyopencl "$r" "$t"
		else
			run_pyopencl "$r" "$t"
			run_clwarp "$r" "$t"
		fi
		# The same device: "device: NAME (DRIVER VERSION)" of the two logs' first lines.
		a=$(head -1 "$OUT/round$r-t$t-clwarp.log" | sed 's/).*/)/')
		b=$(head -1 "$OUT/round$r-t$t-pyopencl.log" | sed 's/).*/)/')
		if [ "$a" != "$b" ]; then
			echo "run-sort-cpu: not the same device: libclwarp '$a', PyOpenCL '$b'"
			exit 1
		fi
	done
done

# shellcheck disable=SC2086 # PTHREADS is a list
python3 - "$OUT" "$ROUNDS" $PTHREADS <<'EOF' | tee "$OUT/sort-cpu-table.md"
import statistics, sys
from collections import defaultdict

out, rounds, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
# mk[(threads, side, op, n)][round] = Mkeys/s
mk = defaultdict(dict)
for r in range(1, rounds + 1):
    for t in threads:
        for side in ("clwarp", "pyopencl"):
            try:
                f = open(f"{out}/round{r}-t{t}-{side}.tsv")
            except OSError:
                continue
            for line in f:
                dev, backend, op, typ, n, ms, mks = line.rstrip("\n").split("\t")
                name = {"pyopencl": "pyopencl", "host": "qsort"}.get(backend, "clwarp")
                mk[(t, name, op, int(n))][r] = float(mks)


def med(k):
    return f"{statistics.median(mk[k].values()):.2f}" if mk.get(k) else "–"


def ratio(a, b):
    """Per-round ratios a/b where both ran, then median (min-max)."""
    rs = [mk[a][r] / mk[b][r] for r in mk.get(a, {}) if r in mk.get(b, {})]
    if not rs:
        return "–"
    return f"{statistics.median(rs):.2f} ({min(rs):.2f}-{max(rs):.2f})"


cases = (("sort_keys", "keys, uint"), ("sort_pairs", "pairs, uint + uint"))
ns = sorted({k[3] for k in mk})
print(f"Mkeys/s: medians over {rounds} rounds; ratios: median (min-max) of the per-round "
      "ratios, above 1 = libclwarp faster. PoCL threads: POCL_MAX_PTHREAD_COUNT "
      "(default: one per core).\n")
print("| PoCL threads | case | n | libclwarp Mkeys/s | PyOpenCL Mkeys/s | qsort Mkeys/s "
      "| libclwarp/PyOpenCL | libclwarp/qsort |")
print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
for t in threads:
    for op, name in cases:
        for n in ns:
            c, p, q = (t, "clwarp", op, n), (t, "pyopencl", op, n), (t, "qsort", "sort_keys", n)
            if not mk.get(c) and not mk.get(p):
                continue
            hq = op == "sort_keys" and bool(mk.get(q))
            print(f"| {'default' if t == '0' else t} | {name} | 2^{n.bit_length() - 1} "
                  f"| {med(c)} | {med(p)} | {med(q) if hq else '–'} "
                  f"| {ratio(c, p)} | {ratio(c, q) if hq else '–'} |")
others = [t for t in threads if t != "0"]
if "0" in threads and others:
    print("\nEach side with fewer PoCL threads over itself with the default, per-round ratios "
          "(above 1 = faster with fewer threads):\n")
    print("| case | n | " + " | ".join(f"libclwarp {t}/default | PyOpenCL {t}/default"
                                        for t in others) + " |")
    print("| --- | --- |" + " ---: | ---: |" * len(others))
    for op, name in cases:
        for n in ns:
            cells = []
            for t in others:
                cells += [ratio((t, "clwarp", op, n), ("0", "clwarp", op, n)),
                          ratio((t, "pyopencl", op, n), ("0", "pyopencl", op, n))]
            print(f"| {name} | 2^{n.bit_length() - 1} | " + " | ".join(cells) + " |")
EOF
exit $status
