#!/usr/bin/env bash
# #25's misses by blocking call at main's head (session 35), on an H200,
# from the repository root with .device/ carried: reduce (2^16-2^24),
# run-length encode of runs of 1, 4 and 64 (2^16-2^20), unique and reduce
# by key (2^22-2^24), each on an engine without profiling as users make
# them, CUB in the same round, three rounds alternated. Event time comes
# along in the same rows of CUB; ours on this engine is "wall".
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log --oneline -1 2>/dev/null
O=$OUT/s; B=/tmp/bs; C=/tmp/bsc; mkdir -p $O $C
export CLWARP_CACHE_DIR=/tmp/bs-cache
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-bench.cu -o $C/cub-bench) &
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o $C/cub-hist-rle-bench) &
(meson setup $B -Dtests=false -Dbench=true >/dev/null && ninja -C $B bench/algorithms-bench bench/hist-rle-bench >/dev/null) || echo "build failed"
wait
echo "built at $SECONDS s"
for r in 1 2 3; do
	$B/bench/algorithms-bench --device gpu --backends auto --reps 100 --budget 1 --batch 32 --keep-going \
		--ops reduce --no-profiling --label r$r --min-log2 16 --max-log2 24 --tsv $O/$r-reduce.tsv >$O/$r-reduce.txt 2>&1
	timeout 60 $C/cub-bench --ops reduce --min-log2 16 --max-log2 24 --reps 100 --batch 32 --tsv $O/$r-cub-reduce.tsv >$O/$r-cub-reduce.txt 2>&1
	$B/bench/hist-rle-bench --device gpu --min-log2 16 --max-log2 20 --reps 51 --batch 16 --no-profiling --label r$r \
		--only rle1,rle4,rle64 --tsv $O/$r-rle.tsv >$O/$r-rle.txt 2>&1
	timeout 60 $C/cub-hist-rle-bench --min-log2 16 --max-log2 20 --reps 51 --batch 16 --only rle1,rle4,rle64 \
		--tsv $O/$r-cub-rle.tsv >$O/$r-cub-rle.txt 2>&1
	$B/bench/hist-rle-bench --device gpu --min-log2 22 --max-log2 24 --reps 51 --batch 16 --no-profiling --label r$r \
		--only unique4,rbk1,rbk4,rbk64 --tsv $O/$r-sel.tsv >$O/$r-sel.txt 2>&1
	timeout 60 $C/cub-hist-rle-bench --min-log2 22 --max-log2 24 --reps 51 --batch 16 --only unique4,rbk1,rbk4,rbk64 \
		--tsv $O/$r-cub-sel.tsv >$O/$r-cub-sel.txt 2>&1
	echo "round $r done at $SECONDS s"
	[[ $SECONDS -lt 330 ]] || break
done
cd $OUT && tar czf s.tgz s && rm -rf s
