#!/usr/bin/env bash
# The scorecard against CUB in one job: every call bench/scorecard.py's
# targets name, ours and CUB's in the same rounds, and bench/scorecard.py's
# verdict per target.
# SPDX-License-Identifier: MIT
#
# Usage, on the GPU machine, from anywhere (it works in the repository root):
#   bash bench/run-standing-gpu.sh OUTDIR
#
# Builds once (meson: algorithms-bench, hist-rle-bench, sort-bench; nvcc:
# cub-bench, cub-hist-rle-bench, cub-sort-bench, side by side), then runs
# ROUNDS rounds, each of:
#   users      algorithms-bench on an engine without profiling, as users
#              make them (reduce, scan, compaction, partition_reversed,
#              the row calls segmented_reduce (rows of 32-1024),
#              softmax_rows (rows of 256) and segmented_scan (inclusive
#              add, rows of 32, 256, 1024), and the copy kernel),
#              2^10-2^MAX_LOG2: the blocking call and back to back;
#   event      the four device-wide calls on the profiling engine,
#              2^10-2^16: the event time of the small sizes against the
#              copy kernel (the row calls are judged by the blocking call
#              alone);
#   cub        cub-bench, the same calls (segmented reduce: "cub",
#              DeviceSegmentedReduce, and "cub-kernel", a WarpReduce or
#              BlockReduce kernel per row; segmented scan, after all
#              the others: "cub", DeviceScan::InclusiveSumByKey with the
#              row as key, and "cub-kernel", a WarpScan or BlockScan
#              kernel per row; softmax: "cub-kernel" only),
#              2^10-2^MAX_LOG2;
#   hist-rle   hist-rle-bench without profiling and cub-hist-rle-bench,
#              2^16-2^MAX_LOG2;
#   sort       sort-bench and cub-sort-bench (event time, SORT_CASES:
#              their six default cases and the two pairs with 8-byte
#              values), 2^SORT_MIN_LOG2-2^MAX_LOG2;
# with ours and CUB's alternating, and starts no round after LIMIT seconds.
# About 245 s a round on an H200 without the row calls (users 20-55, cub
# 20, hist-rle 70, cub hist-rle 70, sort 40, cub sort 30). The row calls
# add six ops to users and nine rows to cub; at the four calls' cost per
# op (5-11 s over 2^10-2^28; the budget caps an op at 2 x BUDGET s a
# size, 38 s) that is 30-65 s and about 30 s, so a round takes 300-340 s.
# The segmented scan (three ops in users, six rows in cub) adds about
# 25 s a round, 325-365 s; one 600-s call on the device machine still
# gets one round at the defaults; STEPS and MAX_LOG2 make a round
# shorter. Writes into OUTDIR:
#   R-NAME.tsv / R-NAME.txt   each step of round R
#   scorecard.txt             bench/scorecard.py over every TSV: each target
#                             of the issue, met or missed, per call and size
#   run.log                   everything printed
# The warp families' target is bench/run-warp-gpu.sh's, not this job's.
#
# Knobs (environment): STEPS (users,event,hist-rle,sort: which steps a
# round runs, each with CUB's), ROUNDS (3), LIMIT (300), MAX_LOG2 (28),
# SORT_MIN_LOG2 (24), REPS (100; the programs halve it above 2^24), BUDGET
# (1 s per size and measure), BATCH (32), SORT_CASES (keys-uint, keys-int,
# keys-float, pairs-uint, keys-ulong, pairs-ulong, pairs-ulong-ulong,
# pairs-uint-ulong), DEVICE (gpu; "cpu" tries the
# script on PoCL), CUDA (1; 0 leaves CUB out, for a try without a GPU),
# BUILD (build-standing-gpu), ARCH (sm_90), CLWARP_OPENCL_ENV (a shell
# file, a path from the repository root or absolute, sourced first when
# set, for a machine whose OpenCL needs
# variables, such as OCL_ICD_VENDORS).
# Exit status: 0 when every measured target is met, 1 otherwise (a missed
# target or a failed step), 2 on bad usage.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
if [ $# -ne 1 ]; then
	echo "usage: bash bench/run-standing-gpu.sh OUTDIR" >&2
	exit 2
fi
STEPS=,${STEPS:-users,event,hist-rle,sort}, ROUNDS=${ROUNDS:-3} LIMIT=${LIMIT:-300} MAX_LOG2=${MAX_LOG2:-28} SORT_MIN_LOG2=${SORT_MIN_LOG2:-24}
REPS=${REPS:-100} BUDGET=${BUDGET:-1} BATCH=${BATCH:-32} DEVICE=${DEVICE:-gpu} CUDA=${CUDA:-1}
SORT_CASES=${SORT_CASES:-keys-uint,keys-int,keys-float,pairs-uint,keys-ulong,pairs-ulong,pairs-ulong-ulong,pairs-uint-ulong}
BUILD=${BUILD:-build-standing-gpu} ARCH=${ARCH:-sm_90}
for step in ${STEPS//,/ }; do
	case $step in
	users | event | hist-rle | sort) ;;
	*)
		echo "run-standing: unknown step '$step' in STEPS (users, event, hist-rle, sort)" >&2
		exit 2
		;;
	esac
done
mkdir -p "$1"
OUT=$(cd "$1" && pwd)
exec > >(tee "$OUT/run.log") 2>&1
# run_step's own lines go to fd 3, the log, past the step's redirection.
exec 3>&1

status=0
# One step: a failure is recorded and the job goes on, so that the
# scorecard still comes out of what was measured.
run_step() {
	local name=$1 rc=0 start=$SECONDS
	shift
	"$@" || rc=$?
	echo "  $name: $((SECONDS - start)) s" >&3
	if [ "$rc" -ne 0 ]; then
		echo "run-standing: $name failed (exit $rc)" >&3
		status=1
	fi
}
wanted() { [[ $STEPS == *",$1,"* ]]; }

if [ -n "${CLWARP_OPENCL_ENV:-}" ]; then
	if [ ! -f "$CLWARP_OPENCL_ENV" ]; then
		echo "run-standing: CLWARP_OPENCL_ENV names no file: $CLWARP_OPENCL_ENV"
		exit 2
	fi
	# shellcheck disable=SC1090
	source "$CLWARP_OPENCL_ENV" >/dev/null 2>&1
fi
# COMMIT: the commit of a tree copied without its .git (else git says).
echo "commit: ${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git status --porcelain 2>/dev/null | grep -q . && echo ' (with local changes)')}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
unset CLWARP_ALGO_TUNING

case $BUILD in
/*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$BUILD/clwarp-cache} ;;
*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$PWD/$BUILD/clwarp-cache} ;;
esac
CUDA_DIR=$BUILD-cuda
mkdir -p "$CUDA_DIR"
pids=()
if [ "$CUDA" = 1 ]; then
	for prog in cub-bench cub-hist-rle-bench cub-sort-bench; do
		nvcc -O3 -arch="$ARCH" -std=c++17 -Ibench "bench/$prog.cu" -o "$CUDA_DIR/$prog" \
			>"$OUT/nvcc-$prog.log" 2>&1 &
		pids+=($!)
	done
fi
if ! { [ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" -Dtests=false -Dbench=true >"$OUT/meson.log"; } ||
	! ninja -C "$BUILD" bench/algorithms-bench bench/hist-rle-bench bench/sort-bench >"$OUT/ninja.log"; then
	tail -20 "$OUT/meson.log" "$OUT/ninja.log" 2>/dev/null
	echo "run-standing: the build failed"
	exit 1
fi
for pid in "${pids[@]}"; do
	wait "$pid" || { echo "run-standing: nvcc failed (nvcc-*.log)"; exit 1; }
done
echo "built in $SECONDS s"
SECONDS=0

OPS=reduce,scan,compact,partition_reversed ROW_OPS=segreduce,softmax,segscan
COMMON=(--device "$DEVICE" --backends auto --reps "$REPS" --budget "$BUDGET" --batch "$BATCH" --keep-going)
HR=(--device "$DEVICE" --min-log2 16 --max-log2 "$MAX_LOG2" --reps 9 --batch 16)
SMALL_MAX=$((MAX_LOG2 < 16 ? MAX_LOG2 : 16))
for ((r = 1; r <= ROUNDS; r++)); do
	if wanted users; then
		run_step "users $r" timeout 240 "$BUILD/bench/algorithms-bench" "${COMMON[@]}" --ops "$OPS,$ROW_OPS" \
			--no-profiling --label "users-r$r" --min-log2 10 --max-log2 "$MAX_LOG2" --tsv "$OUT/$r-users.tsv" >"$OUT/$r-users.txt" 2>&1
	fi
	if wanted event; then
		run_step "event $r" timeout 120 "$BUILD/bench/algorithms-bench" "${COMMON[@]}" --ops "$OPS" \
			--label "event-r$r" --min-log2 10 --max-log2 "$SMALL_MAX" --tsv "$OUT/$r-event.tsv" >"$OUT/$r-event.txt" 2>&1
	fi
	if [ "$CUDA" = 1 ] && { wanted users || wanted event; }; then
		run_step "cub $r" timeout 240 "$CUDA_DIR/cub-bench" --ops "reduce,scan,compact,partition,$ROW_OPS" \
			--min-log2 10 --max-log2 "$MAX_LOG2" --reps "$REPS" --batch "$BATCH" \
			--tsv "$OUT/$r-cub.tsv" >"$OUT/$r-cub.txt" 2>&1
	fi
	if wanted hist-rle; then
		run_step "hist-rle $r" timeout 240 "$BUILD/bench/hist-rle-bench" "${HR[@]}" --no-profiling \
			--label "users-r$r" --tsv "$OUT/$r-hist-rle.tsv" >"$OUT/$r-hist-rle.txt" 2>&1
		if [ "$CUDA" = 1 ]; then
			run_step "cub hist-rle $r" timeout 180 "$CUDA_DIR/cub-hist-rle-bench" "${HR[@]:2}" \
				--tsv "$OUT/$r-cub-hist-rle.tsv" >"$OUT/$r-cub-hist-rle.txt" 2>&1
		fi
	fi
	if wanted sort && [ "$SORT_MIN_LOG2" -le "$MAX_LOG2" ]; then
		run_step "sort $r" timeout 240 "$BUILD/bench/sort-bench" --device "$DEVICE" \
			--min-log2 "$SORT_MIN_LOG2" --max-log2 "$MAX_LOG2" --reps 10 --cases "$SORT_CASES" \
			--tsv "$OUT/$r-sort.tsv" >"$OUT/$r-sort.txt" 2>&1
		if [ "$CUDA" = 1 ]; then
			run_step "cub sort $r" timeout 180 "$CUDA_DIR/cub-sort-bench" --min-log2 "$SORT_MIN_LOG2" \
				--max-log2 "$MAX_LOG2" --reps 10 --cases "$SORT_CASES" \
				--tsv "$OUT/$r-cub-sort.tsv" >"$OUT/$r-cub-sort.txt" 2>&1
		fi
	fi
	echo "round $r done at $SECONDS s"
	[ "$SECONDS" -lt "$LIMIT" ] || break
done

python3 bench/scorecard.py "$OUT"/*.tsv >"$OUT/scorecard.txt"
verdict=$?
cat "$OUT/scorecard.txt"
[ "$verdict" -eq 0 ] || status=1
exit "$status"
