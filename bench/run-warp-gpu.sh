#!/usr/bin/env bash
# On an NVIDIA GPU machine: the warp micro-benchmark, libclwarp (nv and local) against CUDA, and the ratio table.
# SPDX-License-Identifier: MIT
#
# Usage (paths are relative to the repository root, where the script works):
#   bash bench/run-warp-gpu.sh [RESULTS_DIR [BUILD_DIR]]
# RESULTS_DIR defaults to bench/results, BUILD_DIR to build. The caller has
# run `meson setup BUILD_DIR` (with -Dbench=true, the default); the script
# builds warp-bench there with ninja and bench/warp-bench.cu with nvcc
# (into BUILD_DIR/bench/warp-bench-cuda), and needs nothing else.
#
# Writes into RESULTS_DIR:
#   warp-run.log           everything printed, builds included
#   warp-cuda.tsv          warp-bench-cuda: the CUDA kernels (__shfl_*_sync, ...)
#   warp-clwarp-nv.tsv     warp-bench, CLWARP_DEVICE=NVIDIA CLWARP_BACKEND=nv
#   warp-clwarp-local.tsv  warp-bench, CLWARP_DEVICE=NVIDIA CLWARP_BACKEND=local
#   warp-ratios.txt        bench/warp-ratios.py: nv/cuda (target >= 0.97) and nv/local
#
# One process per side, the same sizes: 2^LOG2 work-items in groups of 256,
# ITERS dependent warp operations each, 3 warm-up and 11 timed launches,
# median of the timed ones; CUDA times with cudaEvents around the launch,
# OpenCL with profiling from a marker before the launch to the kernel's
# end (see bench/warp-bench.c). Every family is checked against the same
# host reference (bench/warp-bench-ref.h) on both sides; a wrong result
# gives no row and a non-zero status.
#
# Knobs: LOG2 (default 24), ITERS (default 256), ARCH (nvcc -arch, default
# sm_90), FAMILY (one family only; default all).
# CLWARP_OPENCL_ENV (optional): a shell file, sourced first, that puts the OpenCL platforms on the loader's path.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
RESULTS=${1:-bench/results}
BUILD=${2:-build}
LOG2=${LOG2:-24}
ITERS=${ITERS:-256}
ARCH=${ARCH:-sm_90}
FAMILY=${FAMILY:-}
mkdir -p "$RESULTS"
step() { printf '\n==== [%s] %s ====\n' "$(date +%H:%M:%S)" "$*"; }

main() {
	local status=0 rc nvcc_pid nvcc_rc backend
	local -a args=(-n "$LOG2" -i "$ITERS")
	[ -n "$FAMILY" ] && args+=(-f "$FAMILY")

	step "environment"
	if [ -n "${CLWARP_OPENCL_ENV:-}" ]; then
		# shellcheck source=/dev/null
		source "$CLWARP_OPENCL_ENV"
	else
		echo "run-warp-gpu: no CLWARP_OPENCL_ENV; using the OpenCL platforms as installed"
		clinfo -l 2>/dev/null || true
	fi
	nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>/dev/null || true

	if [ ! -f "$BUILD/build.ninja" ]; then
		echo "run-warp-gpu: $BUILD is not a configured build folder; run: meson setup $BUILD"
		return 1
	fi
	case $BUILD in
	/*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$BUILD/clwarp-cache} ;;
	*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$PWD/$BUILD/clwarp-cache} ;;
	esac

	step "build: warp-bench (ninja) and warp-bench-cuda (nvcc -O3 -arch=$ARCH) in parallel"
	mkdir -p "$BUILD/bench"
	( nvcc -O3 -arch="$ARCH" -o "$BUILD/bench/warp-bench-cuda" bench/warp-bench.cu >"$RESULTS/.nvcc.log" 2>&1; echo $? >"$RESULTS/.nvcc.rc" ) &
	nvcc_pid=$!
	ninja -C "$BUILD" bench/warp-bench || status=1
	wait "$nvcc_pid"
	cat "$RESULTS/.nvcc.log"
	nvcc_rc=$(cat "$RESULTS/.nvcc.rc" 2>/dev/null || echo 1)
	rm -f "$RESULTS/.nvcc.log" "$RESULTS/.nvcc.rc"
	[ "$nvcc_rc" = 0 ] || { echo "run-warp-gpu: nvcc failed"; status=1; }

	if [ -x "$BUILD/bench/warp-bench-cuda" ]; then
		step "CUDA: warp-bench-cuda ${args[*]}"
		timeout 300 "$BUILD/bench/warp-bench-cuda" "${args[@]}" >"$RESULTS/warp-cuda.tsv"
		rc=$?
		cat "$RESULTS/warp-cuda.tsv"
		[ $rc = 0 ] || { echo "run-warp-gpu: warp-bench-cuda exited with $rc"; status=1; }
	fi

	if [ -x "$BUILD/bench/warp-bench" ]; then
		for backend in nv local; do
			step "libclwarp: CLWARP_DEVICE=NVIDIA CLWARP_BACKEND=$backend warp-bench ${args[*]}"
			CLWARP_DEVICE=NVIDIA CLWARP_BACKEND=$backend timeout 300 "$BUILD/bench/warp-bench" \
				"${args[@]}" -k bench/warp-bench.cl >"$RESULTS/warp-clwarp-$backend.tsv"
			rc=$?
			cat "$RESULTS/warp-clwarp-$backend.tsv"
			[ $rc = 0 ] || { echo "run-warp-gpu: warp-bench ($backend) exited with $rc"; status=1; }
		done
	fi

	step "ratios"
	if [ -s "$RESULTS/warp-clwarp-nv.tsv" ] && [ -s "$RESULTS/warp-cuda.tsv" ]; then
		local -a tsvs=("$RESULTS/warp-clwarp-nv.tsv" "$RESULTS/warp-cuda.tsv")
		[ -s "$RESULTS/warp-clwarp-local.tsv" ] && tsvs+=("$RESULTS/warp-clwarp-local.tsv")
		python3 bench/warp-ratios.py "${tsvs[@]}" | tee "$RESULTS/warp-ratios.txt"
	else
		echo "run-warp-gpu: the nv or the CUDA TSV is missing; no ratios"
		status=1
	fi

	step "done (status $status); files in $RESULTS"
	ls -l "$RESULTS"/warp-*
	return $status
}

main 2>&1 | tee "$RESULTS/warp-run.log"
exit "${PIPESTATUS[0]}"
