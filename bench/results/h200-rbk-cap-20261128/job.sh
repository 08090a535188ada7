#!/usr/bin/env bash
# Reduce by key at 2^22-2^25 with the 80-register cap from 2^22
# (by_key_regs_n=2^22) against the default (cap from 2^25), CUB in each
# round. Blocking call and back to back on an engine without profiling.
# Run from the repository root on the GPU machine: bash THIS OUTDIR
set -u
source .device/opencl-env.sh >/dev/null 2>&1
O=$1; mkdir -p "$O"
B=build-rbk-cap
nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o cub-hist-rle-bench.bin > "$O/nvcc.log" 2>&1 &
(meson setup $B -Dtests=false -Dbench=true > /dev/null && ninja -C $B bench/hist-rle-bench > /dev/null) || { echo "build failed"; exit 1; }
wait || { echo "nvcc failed"; exit 1; }
export CLWARP_CACHE_DIR=$PWD/$B/cache
ONLY=rbk1,rbk4,rbk64
for r in 1 2 3; do
	for lo in 22 23; do
		A=(--only $ONLY --min-log2 $lo --max-log2 $((lo + 2)) --reps 21 --batch 16)
		$B/bench/hist-rle-bench --device gpu "${A[@]}" --no-profiling --label "default-r$r" --tsv "$O/$r-$lo-default.tsv" > "$O/$r-$lo-default.txt" 2>&1 || echo "default $r $lo failed"
		CLWARP_ALGO_TUNING=by_key_regs_n=4194304 $B/bench/hist-rle-bench --device gpu "${A[@]}" --no-profiling --label "cap22-r$r" --tsv "$O/$r-$lo-cap22.tsv" > "$O/$r-$lo-cap22.txt" 2>&1 || echo "cap22 $r $lo failed"
		./cub-hist-rle-bench.bin "${A[@]}" --tsv "$O/$r-$lo-cub.tsv" > "$O/$r-$lo-cub.txt" 2>&1 || echo "cub $r $lo failed"
	done
	echo "round $r at $SECONDS s"
done
