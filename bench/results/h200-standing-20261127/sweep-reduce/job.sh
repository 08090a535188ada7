#!/bin/bash
# reduce_groups x reduce_unroll at 2^18-2^26 (users' engine), CUB reduce; 3 rounds alternated.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/sw2; mkdir -p $O; B=/tmp/sw2b
export CLWARP_CACHE_DIR=/tmp/sw2-cache
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-bench.cu -o /tmp/cubb) &
(meson setup $B -Dtests=false -Dbench=true >/dev/null 2>&1 && ninja -C $B bench/algorithms-bench >/dev/null 2>&1) || echo "build failed"
wait
echo "built $SECONDS s"
S="default reduce_groups=2 reduce_groups=8 reduce_unroll=2 reduce_unroll=8 reduce_groups=8,reduce_unroll=2 reduce_groups=2,reduce_unroll=8"
C="--device gpu --backends auto --reps 100 --budget 1 --batch 32 --keep-going --no-profiling --ops reduce --min-log2 18 --max-log2 26"
for r in 1 2 3; do
 for t in $S; do
  tt=$t; [ $t = default ] && tt=""
  CLWARP_ALGO_TUNING=$tt timeout 60 $B/bench/algorithms-bench $C --label "$t:r$r" --tsv $O/$r-$t.tsv > /dev/null 2>&1 || echo "fail $t"
 done
 timeout 60 /tmp/cubb --ops reduce --min-log2 18 --max-log2 26 --reps 100 --batch 32 --tsv $O/cub-$r.tsv > /dev/null 2>&1
 echo "round $r $SECONDS s"
done
cat $O/*.tsv > $OUT/sweep2.tsv
