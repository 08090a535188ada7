#!/usr/bin/env bash
# On an NVIDIA GPU machine: build and run algorithms-bench (OpenCL) and cub-bench (CUDA), then the ratio tables.
# SPDX-License-Identifier: MIT
#
# Usage (from anywhere; it works in the repository root):
#   bash bench/run-gpu.sh
#
# Writes into $OUT (default ./bench-out):
#   run.log            everything printed, build included
#   clwarp-gpu.tsv     algorithms-bench on the NVIDIA device, every backend it runs (nv, local)
#   clwarp-gpu.txt     its tables
#   cub.tsv            cub-bench: CUB, CUB-primitive kernels and the CUDA copy bandwidth
#   clwarp-cpu.tsv     algorithms-bench on the CPU (PoCL), small sizes, with the host loops
#   ratios.txt         bench/ratios.py: libclwarp nv / CUB, nv / local, share of copy bandwidth
#
# Timing, so that the ratios compare like with like: cub-bench times each
# call with cudaEvents recorded on the stream around it (GPU timeline);
# algorithms-bench times each call with OpenCL profiling on its queue, from
# a marker enqueued just before the call to the end of the call's last
# command. Both include the first kernel's launch latency and the gaps
# between kernels, neither the host's wake-up when the work is done. The
# TSVs' columns are "device backend op type n median_ms gbps wall_ms
# timing batch_ms": median_ms is that event time; wall_ms the host wall
# time of one blocking call, batch_ms back-to-back time per call (K calls
# queued, one wait), both programs alike; timing is "cuda-event" for
# cub-bench, "event" for algorithms-bench, or "wall" for a result whose
# profiling timestamps were unusable (clwarp-gpu.txt marks those '*' and
# says which method each table uses; so does ratios.txt).
# bench/run-user-gpu.sh OUTDIR is the shorter job for the targets against
# CUB (bench/scorecard.py): reduce, scan and compaction by all three
# measures, and the small-n path.
# Plot afterwards where gnuplot is (plot.sh reads seven-column rows):
#   bench/plot.sh -o gbps.png clwarp-gpu.tsv cub.tsv
#
# Knobs: OUT, BUILD (meson build folder, default build-bench-gpu), MAX_LOG2
# (default 28), REPS (default 20; the programs halve it above 2^24),
# CPU_MAX_LOG2 (default 20; 0 skips the CPU run), ARCH (nvcc -arch, default
# sm_90), OPS (default all). Each run has a time limit so that the whole
# script stays within about 8 minutes on an H100/H200.
# CLWARP_OPENCL_ENV (optional): a shell file, sourced first, that puts the OpenCL platforms on the loader's path.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OUT=${OUT:-bench-out}
BUILD=${BUILD:-build-bench-gpu}
MAX_LOG2=${MAX_LOG2:-28}
REPS=${REPS:-20}
CPU_MAX_LOG2=${CPU_MAX_LOG2:-20}
ARCH=${ARCH:-sm_90}
OPS=${OPS:-all}
mkdir -p "$OUT"
step() { printf '\n==== [%s] %s ====\n' "$(date +%H:%M:%S)" "$*"; }

main() {
	local status=0 rc nvcc_pid nvcc_rc f
	local -a tsvs=()

	step "environment"
	if [ -n "${CLWARP_OPENCL_ENV:-}" ]; then
		# shellcheck source=/dev/null
		source "$CLWARP_OPENCL_ENV"
	else
		echo "run-gpu: no CLWARP_OPENCL_ENV; using the OpenCL platforms as installed"
		clinfo -l 2>/dev/null || true
	fi
	nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>/dev/null || true

	step "build: libclwarp + algorithms-bench (meson, tests off), cub-bench (nvcc) in parallel"
	case $BUILD in
	/*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$BUILD/clwarp-cache} ;;
	*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$PWD/$BUILD/clwarp-cache} ;;
	esac
	mkdir -p "$BUILD-cuda"
	( nvcc -O3 -arch="$ARCH" -std=c++17 bench/cub-bench.cu -o "$BUILD-cuda/cub-bench" >"$OUT/.nvcc.log" 2>&1; echo $? >"$OUT/.nvcc.rc" ) &
	nvcc_pid=$!
	if [ ! -f "$BUILD/build.ninja" ]; then
		meson setup "$BUILD" -Dtests=false -Dbench=true >/dev/null || status=1
	fi
	ninja -C "$BUILD" bench/algorithms-bench || status=1
	wait "$nvcc_pid"
	cat "$OUT/.nvcc.log"
	nvcc_rc=$(cat "$OUT/.nvcc.rc" 2>/dev/null || echo 1)
	rm -f "$OUT/.nvcc.log" "$OUT/.nvcc.rc"
	[ "$nvcc_rc" = 0 ] || { echo "run-gpu: nvcc failed"; status=1; }

	if [ -x "$BUILD/bench/algorithms-bench" ]; then
		step "algorithms-bench on the GPU (--device gpu): backends auto (nv) and local"
		timeout 330 "$BUILD/bench/algorithms-bench" --device gpu --max-log2 "$MAX_LOG2" --reps "$REPS" \
			--budget 2 --ops "$OPS" --keep-going --tsv "$OUT/clwarp-gpu.tsv" >"$OUT/clwarp-gpu.txt"
		rc=$?
		cat "$OUT/clwarp-gpu.txt"
		[ $rc = 0 ] || { echo "run-gpu: algorithms-bench (gpu) exited with $rc"; status=1; }
	fi

	if [ -x "$BUILD-cuda/cub-bench" ]; then
		step "cub-bench"
		timeout 120 "$BUILD-cuda/cub-bench" --max-log2 "$MAX_LOG2" --reps "$REPS" --ops "$OPS" \
			--tsv "$OUT/cub.tsv" || { echo "run-gpu: cub-bench exited with $?"; status=1; }
	fi

	if [ -x "$BUILD/bench/algorithms-bench" ] && [ "$CPU_MAX_LOG2" -gt 0 ]; then
		step "algorithms-bench on the CPU (PoCL), up to 2^$CPU_MAX_LOG2, with host loops"
		timeout 120 "$BUILD/bench/algorithms-bench" --device cpu --max-log2 "$CPU_MAX_LOG2" --reps 5 --ops "$OPS" \
			--budget 1 --keep-going --tsv "$OUT/clwarp-cpu.tsv" || echo "run-gpu: algorithms-bench (cpu) exited with $? (not fatal)"
	fi

	step "ratios"
	if [ -s "$OUT/clwarp-gpu.tsv" ] || [ -s "$OUT/cub.tsv" ]; then
		for f in "$OUT/clwarp-gpu.tsv" "$OUT/cub.tsv"; do [ -s "$f" ] && tsvs+=("$f"); done
		python3 bench/ratios.py "${tsvs[@]}" | tee "$OUT/ratios.txt"
	else
		echo "run-gpu: no TSV to compute ratios from"
		status=1
	fi

	if command -v gnuplot >/dev/null && [ -s "$OUT/clwarp-gpu.tsv" ]; then
		step "plot"
		bench/plot.sh -o "$OUT/gbps.png" -t "libclwarp vs CUB on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)" \
			"${tsvs[@]}" || true
	fi

	step "done (status $status); files in $OUT"
	ls -l "$OUT"
	return $status
}

main 2>&1 | tee "$OUT/run.log"
exit "${PIPESTATUS[0]}"
