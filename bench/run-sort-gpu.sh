#!/usr/bin/env bash
# On an NVIDIA GPU machine: sort-bench (libclwarp, OpenCL) beside cub-sort-bench (CUB), and the ratios.
# SPDX-License-Identifier: MIT
#
# Usage (from anywhere): bash bench/run-sort-gpu.sh
# Knobs: OUT (default ./bench-out), BUILD (default build-bench-gpu), MAX_LOG2
# (default 28), REPS (default 10), ARCH (nvcc -arch, default sm_90).
# Writes $OUT/sort-clwarp.tsv, $OUT/sort-cub.tsv and $OUT/sort-ratios.txt:
# libclwarp's time / CUB's per case and size (CUB time over ours: 1.0 is
# CUB's speed, higher is faster).
# CLWARP_OPENCL_ENV (optional): a shell file, sourced first, that puts the OpenCL platforms on the loader's path.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-bench-out}
BUILD=${BUILD:-build-bench-gpu}
MAX_LOG2=${MAX_LOG2:-28}
REPS=${REPS:-10}
ARCH=${ARCH:-sm_90}
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
( nvcc -O3 -arch="$ARCH" -std=c++17 -Ibench bench/cub-sort-bench.cu -o "$BUILD-cuda/cub-sort-bench" ) &
nvcc_pid=$!
[ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" -Dtests=false -Dbench=true >/dev/null || status=1
ninja -C "$BUILD" bench/sort-bench || status=1
wait "$nvcc_pid" || { echo "run-sort-gpu: nvcc failed"; status=1; }

timeout 400 "$BUILD/bench/sort-bench" --device gpu --max-log2 "$MAX_LOG2" --reps "$REPS" \
	--tsv "$OUT/sort-clwarp.tsv" || { echo "run-sort-gpu: sort-bench exited with $?"; status=1; }
timeout 300 "$BUILD-cuda/cub-sort-bench" --max-log2 "$MAX_LOG2" --reps "$REPS" \
	--tsv "$OUT/sort-cub.tsv" || { echo "run-sort-gpu: cub-sort-bench exited with $?"; status=1; }

# op type n: CUB's median / libclwarp's median.
awk -F'\t' 'FNR == NR { cub[$3 " " $4 " " $5] = $6; next }
	($3 " " $4 " " $5) in cub {
		printf "%-10s %-6s 2^%-3d libclwarp %9.4f ms  CUB %9.4f ms  libclwarp/CUB speed %.3f\n",
			$3, $4, log($5) / log(2) + 0.5, $6, cub[$3 " " $4 " " $5], cub[$3 " " $4 " " $5] / $6
	}' "$OUT/sort-cub.tsv" "$OUT/sort-clwarp.tsv" | tee "$OUT/sort-ratios.txt"
exit $status
