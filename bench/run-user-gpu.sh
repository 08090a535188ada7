#!/usr/bin/env bash
# What users feel, against CUB's times (bench/scorecard.py's targets):
# libclwarp and CUB in one job, reduce / scan / compaction from 2^10 to
# 2^28, each call timed three ways, the small-n path against the look-back
# path, and the copy kernels of both APIs.
# SPDX-License-Identifier: MIT
#
# Usage, on the GPU machine, from anywhere (it works in the repository root):
#   bash bench/run-user-gpu.sh OUTDIR
#
# It builds first (meson setup + ninja of algorithms-bench, nvcc of
# cub-bench, side by side), then measures (about 2-3 minutes on an H100),
# and writes into OUTDIR:
#   run.log               everything printed, build included
#   SUMMARY.txt           what to read first: the device, each step's status, and
#                         the ratio tables below in one file
#   clwarp.tsv/.txt       algorithms-bench, backend auto (nv on NVIDIA), default tuning
#   clwarp-small-off.tsv/.txt  the same up to 2^17 with the small-n path off
#                         (CLWARP_ALGO_TUNING=small_n=0, rows "nv[small_n=0]"): before/after
#   clwarp-noprof.tsv/.txt     2^10 .. 2^20 on an engine without profiling
#                         (--no-profiling, rows "nv[no-profiling]"): blocking and back
#                         to back as users see them
#   clwarp-small-on.tsv/.txt   2^13 .. 2^17 with the small-n path up to 2^17
#                         (small_n=131072, rows "nv[small_n=131072]"): where to put the threshold
#   cub.tsv/.txt          cub-bench: CUB, and the CUDA copy kernel and cudaMemcpy
#   ratios.txt            bench/ratios.py over the three TSVs
#
# The three measures, on both sides (bench/algorithms-bench.c, bench/cub-bench.cu):
#   event        GPU timeline of one call: OpenCL profiling from a marker just
#                before the call to the end of its last command / cudaEvents
#                around the call (median of R);
#   blocking     host wall time (clock_gettime) of one call that waits for its
#                result: the public call with event NULL / the CUB call +
#                cudaStreamSynchronize (median of R);
#   back-to-back K calls queued, one wait, wall time / K (median of 5 rounds).
# The copy kernel (float4, n elements; through libclwarp for OpenCL) is timed
# the same three ways in the same run: SMALL N in ratios.txt divides each call
# by it (the target: at most 1.05 from 2^10 to 2^16).
#
# Knobs (environment): BUILD (meson build folder, default build-user-gpu),
# ARCH (nvcc -arch, default sm_90), REPS (default 200; the programs halve it
# above 2^24 and cap each measure at BUDGET seconds per size, default 1),
# BATCH (K, default 32), MAX_LOG2 (default 28), OPS (default reduce,scan,compact),
# DEVICE (algorithms-bench --device, default gpu; "cpu" tries the script here),
# NOPROF_MAX_LOG2 (the largest size without profiling, default 20: 28
# gives the users' blocking call at every size the targets judge),
# SMALL_SWEEPS (default 1; 0 leaves out the two small_n passes).
# CLWARP_OPENCL_ENV (optional): a shell file, sourced first, that puts the OpenCL platforms on the loader's path.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ $# -ne 1 ]; then
	echo "usage: bash bench/run-user-gpu.sh OUTDIR" >&2
	exit 2
fi
OUT=$1
BUILD=${BUILD:-build-user-gpu}
ARCH=${ARCH:-sm_90}
REPS=${REPS:-200}
BUDGET=${BUDGET:-1}
BATCH=${BATCH:-32}
MAX_LOG2=${MAX_LOG2:-28}
OPS=${OPS:-reduce,scan,compact}
DEVICE=${DEVICE:-gpu}
SMALL_SWEEPS=${SMALL_SWEEPS:-1}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
exec > >(tee "$OUT/run.log") 2>&1

status=0
declare -a notes=()
step() { printf '\n==== [%s] %s ====\n' "$(date +%H:%M:%S)" "$*"; }
# Run a step; a failure is recorded, not fatal, so that later steps and the
# ratios still come out of what was measured.
run_step() {
	local name=$1 rc=0
	shift
	"$@" || rc=$?
	if [ "$rc" -eq 0 ]; then
		notes+=("ok      $name")
	else
		notes+=("FAILED  $name (exit $rc)")
		status=1
	fi
}

step "environment"
if [ -n "${CLWARP_OPENCL_ENV:-}" ]; then
	set +eu
	# shellcheck source=/dev/null
	source "$CLWARP_OPENCL_ENV"
	set -eu
else
	echo "run-user-gpu: no CLWARP_OPENCL_ENV; using the OpenCL platforms as installed"
fi
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown) $(git status --porcelain 2>/dev/null | grep -q . && echo '(with local changes)')"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv || true
unset CLWARP_ALGO_TUNING

step "build: libclwarp + algorithms-bench (meson, ninja) and cub-bench (nvcc), side by side"
case $BUILD in
/*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$BUILD/clwarp-cache} ;;
*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$PWD/$BUILD/clwarp-cache} ;;
esac
mkdir -p "$BUILD-cuda"
nvcc -O3 -arch="$ARCH" -std=c++17 bench/cub-bench.cu -o "$BUILD-cuda/cub-bench" >"$OUT/nvcc.log" 2>&1 &
nvcc_pid=$!
if [ ! -f "$BUILD/build.ninja" ]; then
	meson setup "$BUILD" -Dtests=false -Dbench=true
fi
ninja -C "$BUILD" bench/algorithms-bench
nvcc_rc=0
wait "$nvcc_pid" || nvcc_rc=$?
cat "$OUT/nvcc.log"
if [ "$nvcc_rc" -ne 0 ]; then
	echo "run-user-gpu: nvcc failed (exit $nvcc_rc)"
	exit 1
fi
SECONDS=0

COMMON=(--device "$DEVICE" --backends auto --ops "$OPS" --reps "$REPS" --budget "$BUDGET" --batch "$BATCH"
	--keep-going)

step "algorithms-bench: 2^10 .. 2^$MAX_LOG2, default tuning (the small-n path where it fits)"
run_step "algorithms-bench, default tuning" timeout 240 "$BUILD/bench/algorithms-bench" \
	"${COMMON[@]}" --min-log2 10 --max-log2 "$MAX_LOG2" --tsv "$OUT/clwarp.tsv" \
	>"$OUT/clwarp.txt"
cat "$OUT/clwarp.txt"

if [ "$SMALL_SWEEPS" = 1 ]; then
step "algorithms-bench: 2^10 .. 2^17 with the small-n path off (CLWARP_ALGO_TUNING=small_n=0)"
run_step "algorithms-bench, small_n=0" env CLWARP_ALGO_TUNING=small_n=0 timeout 120 \
	"$BUILD/bench/algorithms-bench" "${COMMON[@]}" --min-log2 10 --max-log2 17 \
	--label small_n=0 --tsv "$OUT/clwarp-small-off.tsv" >"$OUT/clwarp-small-off.txt"
cat "$OUT/clwarp-small-off.txt"

step "algorithms-bench: 2^13 .. 2^17 with the small-n path up to 2^17 (CLWARP_ALGO_TUNING=small_n=131072)"
run_step "algorithms-bench, small_n=131072" env CLWARP_ALGO_TUNING=small_n=131072 timeout 120 \
	"$BUILD/bench/algorithms-bench" "${COMMON[@]}" --min-log2 13 --max-log2 17 \
	--label small_n=131072 --tsv "$OUT/clwarp-small-on.tsv" >"$OUT/clwarp-small-on.txt"
cat "$OUT/clwarp-small-on.txt"
fi

NOPROF_MAX=${NOPROF_MAX_LOG2:-20}
NOPROF_MAX=$((MAX_LOG2 < NOPROF_MAX ? MAX_LOG2 : NOPROF_MAX))
step "algorithms-bench: 2^10 .. 2^$NOPROF_MAX on an engine without profiling (--no-profiling), as users make engines"
# The runs above use a profiling engine, which the event measure needs;
# on an H200 it cost 5-8 us a call back to back (docs/design/host.md).
# Rows "nv[no-profiling]": blocking and back to back as
# users see them; their first column is wall time, not event time.
run_step "algorithms-bench, no profiling" timeout 120 "$BUILD/bench/algorithms-bench" \
	"${COMMON[@]}" --no-profiling --min-log2 10 --max-log2 "$NOPROF_MAX" \
	--label no-profiling --tsv "$OUT/clwarp-noprof.tsv" >"$OUT/clwarp-noprof.txt"
cat "$OUT/clwarp-noprof.txt"

step "cub-bench: 2^10 .. 2^$MAX_LOG2"
run_step "cub-bench" timeout 240 "$BUILD-cuda/cub-bench" --ops "$OPS" --min-log2 10 \
	--max-log2 "$MAX_LOG2" --reps "$REPS" --batch "$BATCH" --tsv "$OUT/cub.tsv" >"$OUT/cub.txt"
cat "$OUT/cub.txt"
measured=$SECONDS

step "ratios"
tsvs=()
for f in clwarp.tsv clwarp-small-off.tsv clwarp-small-on.tsv clwarp-noprof.tsv cub.tsv; do
	if [ -s "$OUT/$f" ]; then tsvs+=("$OUT/$f"); fi
done
if [ ${#tsvs[@]} -gt 0 ]; then
	run_step "ratios.py" python3 bench/ratios.py "${tsvs[@]}" >"$OUT/ratios.txt"
	cat "$OUT/ratios.txt"
else
	notes+=("FAILED  ratios: no TSV")
	status=1
fi

{
	echo "run-user-gpu.sh summary ($(date -u '+%Y-%m-%d %H:%M UTC'))"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
	echo "measurement (after the build): ${measured} s"
	printf '%s\n' "${notes[@]}"
	echo
	echo "Read ratios.txt: 'THE THREE MEASURES' (libclwarp vs CUB by event, blocking call,"
	echo "back to back) and 'SMALL N' (each call / the copy kernel of the same run; nv is the"
	echo "default tuning, nv[small_n=0] the look-back path at the same sizes, nv[small_n=131072]"
	echo "the one-work-group path up to 2^17: the threshold belongs where the two cross)."
	echo "nv[no-profiling] ran on an engine without profiling, as users make them: its blocking and"
	echo "back-to-back columns are the users' case (the others ran on the profiling engine)."
	echo
	if [ -s "$OUT/ratios.txt" ]; then
		sed -n '/^\(THE THREE MEASURES\|SMALL N\)/,$p' "$OUT/ratios.txt"
	fi
} >"$OUT/SUMMARY.txt"

step "done (status $status, measurement ${measured} s); files in $OUT"
ls -l "$OUT"
exit "$status"
