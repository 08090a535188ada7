#!/bin/bash
# unique4 at 2^21-2^24: select_vectors 4/5/6, select_regs=0; 4 rounds, order rotated; CUB each round. Users' engine.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/sw3; mkdir -p $O; B=/tmp/sw3b
export CLWARP_CACHE_DIR=/tmp/sw3-cache
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cubhr) &
(meson setup $B -Dtests=false -Dbench=true >/dev/null 2>&1 && ninja -C $B bench/hist-rle-bench >/dev/null 2>&1) || echo "build failed"
wait
echo "built $SECONDS s"
S=(default select_vectors=4 select_vectors=5 select_regs=0)
for r in 1 2 3 4; do
 for i in 0 1 2 3; do
  t=${S[$(( (i + r) % 4 ))]}
  tt=$t; [ $t = default ] && tt=""
  for lo in 21 22; do
   CLWARP_ALGO_TUNING=$tt timeout 60 $B/bench/hist-rle-bench --device gpu --only unique4 --min-log2 $lo --max-log2 24 --reps 15 --batch 16 --no-profiling --label "$t:r$r" --tsv $O/$r-$t-$lo.tsv > /dev/null 2>&1 || echo "fail $t"
  done
 done
 for lo in 21 22; do timeout 60 /tmp/cubhr --only unique4 --min-log2 $lo --max-log2 24 --reps 15 --batch 16 --tsv $O/cub-$r-$lo.tsv > /dev/null 2>&1; done
 echo "round $r $SECONDS s"
done
cat $O/*.tsv > $OUT/sweep3.tsv
