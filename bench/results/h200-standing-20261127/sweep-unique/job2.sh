#!/bin/bash
# unique4 at 2^20-2^28: select_vectors 5 vs the default 6; 3 rounds alternated; CUB each round. Users' engine.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/sw4; mkdir -p $O; B=/tmp/sw3b
export CLWARP_CACHE_DIR=/tmp/sw3-cache
[ -x /tmp/cubhr ] || nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cubhr
[ -x $B/bench/hist-rle-bench ] || { meson setup $B -Dtests=false -Dbench=true >/dev/null 2>&1 && ninja -C $B bench/hist-rle-bench >/dev/null 2>&1; }
echo "built $SECONDS s"
for r in 1 2 3; do
 for t in default select_vectors=5 select_vectors=5 default; do
  tt=$t; [ $t = default ] && tt=""
  for lo in 20 21; do
   CLWARP_ALGO_TUNING=$tt timeout 60 $B/bench/hist-rle-bench --device gpu --only unique4 --min-log2 $lo --max-log2 28 --reps 11 --batch 16 --no-profiling --label "$t:r$r" --tsv $O/$r-$t-$lo-$SECONDS.tsv > /dev/null 2>&1 || echo "fail $t"
  done
 done
 for lo in 20 21; do timeout 60 /tmp/cubhr --only unique4 --min-log2 $lo --max-log2 28 --reps 11 --batch 16 --tsv $O/cub-$r-$lo.tsv > /dev/null 2>&1; done
 echo "round $r $SECONDS s"
done
cat $O/*.tsv > $OUT/sweep4.tsv
