#!/usr/bin/env bash
# The CPU counterpart of bench/run-standing-gpu.sh: libclwarp's calls on a
# CPU OpenCL runtime beside the bench's plain C baselines, in one job, for
# docs/performance.md (bench/perf-page.py reads the TSVs).
# SPDX-License-Identifier: MIT
#
# Usage, from anywhere (it works in the repository root):
#   bash bench/run-standing-cpu.sh OUTDIR
#
# Per runtime in RUNTIMES (pocl: the system's ICD, PoCL's CPU device;
# intel: Intel's CPU runtime through tools/intel-opencl-env.sh), ROUNDS
# rounds of:
#   users     algorithms-bench on an engine without profiling, as users
#             make them (reduce, scan, compaction, partition_reversed,
#             segmented reduce, row softmax, segmented scan; the row calls from a size of
#             one row up), and its plain C loops on the host,
#             2^MIN_LOG2-2^MAX_LOG2;
#   hist-rle  hist-rle-bench on an engine without profiling (histogram,
#             run-length encode, reduce by key, unique) and the same calls
#             as plain C loops on the host (--host), 2^MIN_LOG2-2^MAX_LOG2
#             in steps of 4x;
#   sort      sort-bench (its default cases: keys of four types, pairs of
#             uint and ulong keys with uint values) and qsort of the same
#             keys and pairs (--host), 2^MIN_LOG2-2^SORT_MAX_LOG2.
# Writes into OUTDIR: RUNTIME-R-users.tsv/.txt, RUNTIME-R-hist-rle.tsv/.txt,
# RUNTIME-R-sort.tsv/.txt, and run.log (the commit, the machine's CPU,
# everything printed).
#
# One round with the defaults took about 4 minutes on 2 shared Xeon cores
# (skylake-avx512, load 5-8): PoCL's steps 2.5 minutes (users 70 s,
# hist-rle 50 s, sort 25 s), Intel's 1.7; the three rounds about 13.
#
# Knobs (environment): RUNTIMES (pocl,intel), ROUNDS (3), MIN_LOG2 (16),
# MAX_LOG2 (22), SORT_MAX_LOG2 (20), BUDGET (1), BUILD (build).
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
if [ $# -ne 1 ]; then
	echo "usage: bash bench/run-standing-cpu.sh OUTDIR" >&2
	exit 2
fi
RUNTIMES=${RUNTIMES:-pocl,intel} ROUNDS=${ROUNDS:-3} MIN_LOG2=${MIN_LOG2:-16} MAX_LOG2=${MAX_LOG2:-22}
SORT_MAX_LOG2=${SORT_MAX_LOG2:-20} BUDGET=${BUDGET:-1} BUILD=${BUILD:-build}
mkdir -p "$1"
OUT=$(cd "$1" && pwd)
exec > >(tee "$OUT/run.log") 2>&1

if ! ninja -C "$BUILD" bench/algorithms-bench bench/hist-rle-bench bench/sort-bench >/dev/null; then
	echo "run-standing-cpu: the build failed (meson setup $BUILD -Dbench=true first)"
	exit 1
fi
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git status --porcelain 2>/dev/null | grep -q . && echo ' (with local changes)')"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) x $(nproc)"
unset CLWARP_ALGO_TUNING

status=0
for ((r = 1; r <= ROUNDS; r++)); do
	for rt in ${RUNTIMES//,/ }; do
		case $rt in
		pocl) run=() ;;
		intel) run=(sh tools/intel-opencl-env.sh) ;;
		*)
			echo "run-standing-cpu: unknown runtime '$rt' (pocl, intel)" >&2
			exit 2
			;;
		esac
		echo "== round $r $rt, load $(cut -d' ' -f1-3 /proc/loadavg)"
		"${run[@]}" "$BUILD/bench/algorithms-bench" --device cpu --backends auto \
			--ops reduce,scan,compact,partition_reversed,segreduce,softmax,segscan --no-profiling --keep-going \
			--min-log2 "$MIN_LOG2" --max-log2 "$MAX_LOG2" --reps 5 --budget "$BUDGET" \
			--tsv "$OUT/$rt-$r-users.tsv" >"$OUT/$rt-$r-users.txt" 2>&1 || status=1
		"${run[@]}" "$BUILD/bench/hist-rle-bench" --device cpu --host --no-profiling --reps 5 \
			--min-log2 "$MIN_LOG2" --max-log2 "$MAX_LOG2" \
			--tsv "$OUT/$rt-$r-hist-rle.tsv" >"$OUT/$rt-$r-hist-rle.txt" 2>&1 || status=1
		"${run[@]}" "$BUILD/bench/sort-bench" --device cpu --host --reps 3 \
			--min-log2 "$MIN_LOG2" --max-log2 "$SORT_MAX_LOG2" \
			--tsv "$OUT/$rt-$r-sort.tsv" >"$OUT/$rt-$r-sort.txt" 2>&1 || status=1
	done
done
exit "$status"
