#!/usr/bin/env bash
# On an NVIDIA GPU machine: host-device copy bandwidth of libclwarp (OpenCL)
# beside the driver's own paths and CUDA's cudaMemcpy, one table with the
# ratios, and (two GPUs or more) the device group's scatter and gather,
# staged and direct. docs/copies.md says what each column is.
# SPDX-License-Identifier: MIT
#
# Usage (from anywhere): bash bench/run-copy-gpu.sh [OUTDIR]
# Knobs: MAX (largest copy, default 4G; capped by the device's largest
# allocation), REPS (default 5), GROUP_LOG2 (group scatter/gather of
# 2^GROUP_LOG2 floats, default 30; 0 skips it), SWEEP (CLWARP_STAGING
# settings tried up to 256 MiB beside the default, space-separated; empty
# skips it), BUILD (default
# build-bench-gpu), ARCH (nvcc -arch, default sm_90), DEVICE (copy-bench's
# --device, default gpu; DEVICE=cpu MAX=16M tries the script without a GPU).
# Writes to OUTDIR (default bench-out/copy): copy-clwarp.{txt,tsv},
# copy-cuda.{txt,tsv}, copy.csv (one line per direction and size: every
# path's GB/s and the ratios), copy-table.txt, copies.svg (the plot,
# bench/plot-copies.py), group-staged.txt and
# group-direct.txt, sweep.txt. About 2 minutes on an H100 with a cold build.
# CLWARP_OPENCL_ENV (optional): a shell file, sourced first, that puts the OpenCL platforms on the loader's path.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${1:-${OUT:-bench-out/copy}}
BUILD=${BUILD:-build-bench-gpu}
MAX=${MAX:-4G}
REPS=${REPS:-5}
GROUP_LOG2=${GROUP_LOG2:-30}
ARCH=${ARCH:-sm_90}
DEVICE=${DEVICE:-gpu}
SWEEP=${SWEEP-threads=2 threads=8 chunk=8M,threads=8 chunks=16,threads=8}
mkdir -p "$OUT" "$BUILD-cuda"
status=0
step() { printf '\n==== [%s] %s ====\n' "$(date +%H:%M:%S)" "$*"; }

if [ -n "${CLWARP_OPENCL_ENV:-}" ]; then
	# shellcheck source=/dev/null
	source "$CLWARP_OPENCL_ENV"
fi
nvidia-smi --query-gpu=name,memory.total,driver_version,pcie.link.gen.current,pcie.link.width.current \
	--format=csv 2>/dev/null || true
case $BUILD in
/*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$BUILD/clwarp-cache} ;;
*) export CLWARP_CACHE_DIR=${CLWARP_CACHE_DIR:-$PWD/$BUILD/clwarp-cache} ;;
esac

step "build: copy-bench and group-bench (meson, tests off), copy-bench-cuda (nvcc) in parallel"
nvcc -O3 -arch="$ARCH" -std=c++17 -Ibench bench/copy-bench-cuda.cu -o "$BUILD-cuda/copy-bench-cuda" \
	>"$OUT/nvcc.log" 2>&1 &
nvcc_pid=$!
if [ ! -f "$BUILD/build.ninja" ]; then
	meson setup "$BUILD" -Dtests=false -Dbench=true -Dexamples=false >/dev/null
fi
ninja -C "$BUILD" bench/copy-bench bench/group-bench
if ! wait "$nvcc_pid"; then
	cat "$OUT/nvcc.log"
	echo "run-copy-gpu: nvcc failed; no CUDA column"
	status=1
fi

step "copy-bench (libclwarp, OpenCL) up to $MAX"
if ! timeout 150 "$BUILD/bench/copy-bench" --device "$DEVICE" --max "$MAX" --reps "$REPS" \
	--tsv "$OUT/copy-clwarp.tsv" | tee "$OUT/copy-clwarp.txt"; then
	echo "run-copy-gpu: copy-bench failed"
	status=1
fi
if [ -x "$BUILD-cuda/copy-bench-cuda" ]; then
	step "copy-bench-cuda (cudaMemcpy) up to $MAX"
	if ! timeout 90 "$BUILD-cuda/copy-bench-cuda" --max "$MAX" --reps "$REPS" \
		--tsv "$OUT/copy-cuda.tsv" | tee "$OUT/copy-cuda.txt"; then
		echo "run-copy-gpu: copy-bench-cuda failed"
		status=1
	fi
fi

step "table: GB/s by path, ratios (pinned = raw-pinned, the driver's own pinned copy)"
touch "$OUT/copy-clwarp.tsv" "$OUT/copy-cuda.tsv"
# Both TSVs: dir, bytes, path, GB/s. One row per dir and bytes; a path
# that was not measured is "-", and so is every ratio that needs it.
awk -F'\t' -v csv="$OUT/copy.csv" '
	function v(k) { return (k in g) ? g[k] : "" }
	function ratio(a, b) { return (a != "" && b != "" && b > 0) ? sprintf("%.2f", a / b) : "-" }
	function show(x) { return x == "" ? "-" : sprintf("%.2f", x) }
	{ g[$1 " " $2 " " $3] = $4; if (!(($1 " " $2) in seen)) { seen[$1 " " $2] = 1; key[n++] = $1 " " $2 } }
	END {
		print "dir,bytes,pageable,raw_pinned,clwarp_pinned,staged,cuda_pageable,cuda_pinned,staged_over_pinned,staged_over_cuda_pageable,clwarp_pinned_over_raw_pinned" > csv
		printf "%-5s %11s %8s %8s %8s %8s %8s %8s | %10s %10s %10s\n", "dir", "bytes", "pageabl", "raw-pin",
			"cw-pin", "staged", "cuda-pg", "cuda-pin", "stg/pin", "stg/cudapg", "cw/raw"
		for (i = 0; i < n; i++) {
			split(key[i], d, " ")
			pg = v(key[i] " pageable"); rp = v(key[i] " raw-pinned"); cp = v(key[i] " clwarp-pinned")
			st = v(key[i] " staged"); cu = v(key[i] " cuda-pageable"); cpn = v(key[i] " cuda-pinned")
			printf "%-5s %11d %8s %8s %8s %8s %8s %8s | %10s %10s %10s\n", d[1], d[2], show(pg), show(rp),
				show(cp), show(st), show(cu), show(cpn), ratio(st, rp), ratio(st, cu), ratio(cp, rp)
			printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", d[1], d[2], pg, rp, cp, st, cu, cpn,
				ratio(st, rp), ratio(st, cu), ratio(cp, rp) > csv
		}
	}' "$OUT/copy-clwarp.tsv" "$OUT/copy-cuda.tsv" | tee "$OUT/copy-table.txt"
echo "CSV: $OUT/copy.csv"
python3 bench/plot-copies.py -o "$OUT/copies.svg" "$OUT/copy-clwarp.tsv" "$OUT/copy-cuda.tsv" &&
	echo "plot: $OUT/copies.svg"

if [ -n "$SWEEP" ]; then
	step "staging settings, 16 MiB to 256 MiB (staged GB/s; default = the table above)"
	: >"$OUT/sweep.txt"
	for knob in $SWEEP; do
		if CLWARP_STAGING=$knob timeout 60 "$BUILD/bench/copy-bench" --device "$DEVICE" --max 256M --reps 3 \
			--tsv "$OUT/sweep.tsv" >/dev/null; then
			awk -F'\t' -v k="$knob" '$3 == "staged" && $2 >= 16777216 {
				printf "%-24s %-5s %10d %8.2f GB/s\n", k, $1, $2, $4 }' "$OUT/sweep.tsv" | tee -a "$OUT/sweep.txt"
		else
			echo "run-copy-gpu: copy-bench with CLWARP_STAGING=$knob failed"
			status=1
		fi
	done
	rm -f "$OUT/sweep.tsv"
fi

gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [ "$GROUP_LOG2" -gt 0 ] && [ "${gpus:-0}" -ge 2 ]; then
	# -c: only write/scatter and read/gather (no kernel builds).
	step "group-bench on every GPU, 2^$GROUP_LOG2 floats: staged (default)"
	timeout 120 "$BUILD/bench/group-bench" -d gpu -m "$GROUP_LOG2" -M "$GROUP_LOG2" -c -r 3 \
		>"$OUT/group-staged.txt" || { echo "run-copy-gpu: group-bench failed"; status=1; }
	step "group-bench, direct copies (CLWARP_STAGING=chunks=0: the driver's own path)"
	CLWARP_STAGING=chunks=0 timeout 120 "$BUILD/bench/group-bench" -d gpu -m "$GROUP_LOG2" -M "$GROUP_LOG2" \
		-c -r 3 >"$OUT/group-direct.txt" || { echo "run-copy-gpu: group-bench (direct) failed"; status=1; }
	step "write/scatter and read/gather, ms (one = device 0 alone, group = the GPUs' slices)"
	for f in staged direct; do
		grep -E '^(write/scatter|read/gather)' "$OUT/group-$f.txt" | sed "s/^/$f  /" || true
	done
else
	step "group scatter/gather: skipped (${gpus:-0} GPU(s), GROUP_LOG2=$GROUP_LOG2)"
fi
exit "$status"
