#!/usr/bin/env bash
# On an NVIDIA GPU machine: hist-rle-bench (libclwarp, OpenCL) beside cub-hist-rle-bench (CUB), and the ratios.
# SPDX-License-Identifier: MIT
#
# Usage (from anywhere): bash bench/run-hist-rle-gpu.sh
# Knobs: OUT (default ./bench-out), BUILD (default build-bench-gpu), MAX_LOG2
# (default 28), REPS (default 10), ARCH (nvcc -arch, default sm_90), ONLY
# (hist-rle-bench --only, default every case), NOPROF (default 1: a second
# libclwarp pass on an engine without profiling, as users make engines; 0
# skips it).
# Writes $OUT/hist-rle-clwarp.tsv, $OUT/hist-rle-noprof.tsv (rows
# "nv[no-profiling]": blocking and back to back as users see them, no event
# time), $OUT/hist-rle-cub.tsv,
# $OUT/hist-rle-ratios.txt: per case and size, both medians and CUB's time
# over libclwarp's (1.0 is CUB's speed, higher is faster), by event time,
# and $OUT/hist-rle-measures.txt: bench/ratios.py's three measures (event
# time, one blocking call's host wall time, back to back). Event time is
# the call alone on the GPU's timeline (cudaEvents; OpenCL profiling from a
# marker before the call); both sides check every result against the host.
# CLWARP_OPENCL_ENV (optional): a shell file, sourced first, that puts the OpenCL platforms on the loader's path.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-bench-out}
BUILD=${BUILD:-build-bench-gpu}
MAX_LOG2=${MAX_LOG2:-28}
REPS=${REPS:-10}
ARCH=${ARCH:-sm_90}
NOPROF=${NOPROF:-1}
only=(${ONLY:+--only "$ONLY"})
mkdir -p "$OUT" "$BUILD-cuda"
status=0

if [ -n "${CLWARP_OPENCL_ENV:-}" ]; then
	# shellcheck source=/dev/null
	source "$CLWARP_OPENCL_ENV"
fi
case $BUILD in
/*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$BUILD/clwarp-cache} ;;
*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$PWD/$BUILD/clwarp-cache} ;;
esac
( nvcc -O3 -arch="$ARCH" -std=c++17 -Ibench bench/cub-hist-rle-bench.cu \
	-o "$BUILD-cuda/cub-hist-rle-bench" ) &
nvcc_pid=$!
[ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" -Dtests=false -Dbench=true >/dev/null || status=1
ninja -C "$BUILD" bench/hist-rle-bench || status=1
wait "$nvcc_pid" || { echo "run-hist-rle-gpu: nvcc failed"; status=1; }

timeout 300 "$BUILD/bench/hist-rle-bench" --device gpu --max-log2 "$MAX_LOG2" --reps "$REPS" \
	"${only[@]}" --tsv "$OUT/hist-rle-clwarp.tsv" ||
	{ echo "run-hist-rle-gpu: hist-rle-bench exited with $?"; status=1; }
noprof=()
if [ "$NOPROF" = 1 ]; then
	timeout 300 "$BUILD/bench/hist-rle-bench" --device gpu --max-log2 "$MAX_LOG2" --reps "$REPS" \
		"${only[@]}" --no-profiling --label no-profiling --tsv "$OUT/hist-rle-noprof.tsv" ||
		{ echo "run-hist-rle-gpu: hist-rle-bench --no-profiling exited with $?"; status=1; }
	noprof=("$OUT/hist-rle-noprof.tsv")
fi
timeout 200 "$BUILD-cuda/cub-hist-rle-bench" --max-log2 "$MAX_LOG2" --reps "$REPS" \
	"${only[@]}" --tsv "$OUT/hist-rle-cub.tsv" ||
	{ echo "run-hist-rle-gpu: cub-hist-rle-bench exited with $?"; status=1; }

# op type n: CUB's median / libclwarp's median.
awk -F'\t' 'FNR == NR { cub[$3 " " $4 " " $5] = $6; next }
	($3 " " $4 " " $5) in cub {
		printf "%-11s %-6s 2^%-3d libclwarp %9.4f ms  CUB %9.4f ms  libclwarp/CUB speed %.3f\n",
			$3, $4, log($5) / log(2) + 0.5, $6, cub[$3 " " $4 " " $5], cub[$3 " " $4 " " $5] / $6
	}' "$OUT/hist-rle-cub.tsv" "$OUT/hist-rle-clwarp.tsv" | tee "$OUT/hist-rle-ratios.txt"
python3 bench/ratios.py "$OUT/hist-rle-clwarp.tsv" "${noprof[@]}" "$OUT/hist-rle-cub.tsv" \
	> "$OUT/hist-rle-measures.txt" || { echo "run-hist-rle-gpu: ratios.py failed"; status=1; }
exit $status
