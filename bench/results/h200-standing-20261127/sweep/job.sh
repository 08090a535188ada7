#!/bin/bash
# Tuning sweep, users' engine (no profiling): unique4 at 2^20-2^24, rle64/rle4/rbk4 at 2^16-2^22; CUB once a round.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/sw; mkdir -p $O; B=/tmp/swb
export CLWARP_CACHE_DIR=/tmp/sw-cache
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cubhr) &
(meson setup $B -Dtests=false -Dbench=true >/dev/null 2>&1 && ninja -C $B bench/hist-rle-bench >/dev/null 2>&1) || echo "build failed"
wait
echo "built $SECONDS s"
U="default unique_wait=0 unique_wait=450,unique_poll=350 unique_poll=76 select_vectors=4 select_vectors=8 select_regs=0 select_regs=72 select_wg=128,select_vectors=8"
R="default runs_vectors=4 runs_vectors=2 runs_wg=128 runs_wg=512,runs_vectors=4 runs_regs=64 runs_regs=80"
for r in 1 2; do
 for t in $U; do
  tt=$t; [ $t = default ] && tt=""
  CLWARP_ALGO_TUNING=$tt timeout 60 $B/bench/hist-rle-bench --device gpu --only unique4 --min-log2 20 --max-log2 24 --reps 15 --batch 16 --no-profiling --label "u:$t:r$r" --tsv $O/u-$r-$t.tsv > /dev/null 2>&1 || echo "fail u $t"
 done
 for t in $R; do
  tt=$t; [ $t = default ] && tt=""
  CLWARP_ALGO_TUNING=$tt timeout 60 $B/bench/hist-rle-bench --device gpu --only rle64,rle4,rbk4 --min-log2 16 --max-log2 22 --reps 15 --batch 16 --no-profiling --label "r:$t:r$r" --tsv $O/r-$r-$t.tsv > /dev/null 2>&1 || echo "fail r $t"
 done
 timeout 60 /tmp/cubhr --only unique4,rle64,rle4,rbk4 --min-log2 16 --max-log2 24 --reps 15 --batch 16 --tsv $O/cub-$r.tsv > /dev/null 2>&1
 echo "round $r $SECONDS s"
done
cat $O/*.tsv > $OUT/sweep.tsv
