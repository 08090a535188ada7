#!/bin/bash
# select_regs: unique (none, 64, 56, 48) and compaction / partition (none, 64), two rounds, CUB in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=/tmp/b-regs; R=/tmp/res; mkdir -p $R
ninja -C $B bench/hist-rle-bench bench/algorithms-bench >/dev/null || echo build failed
[ -x /tmp/cubhr ] || nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cubhr
nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-bench.cu -o /tmp/cubb 2>/dev/null || echo cub-bench build failed
for r in 1 2; do
 for t in none 64 56 48; do
  if [ $t = none ]; then unset CLWARP_ALGO_TUNING; else export CLWARP_ALGO_TUNING=select_regs=$t; fi
  CLWARP_CACHE_DIR=/tmp/cache-regs-$t timeout 60 $B/bench/hist-rle-bench --device gpu --min-log2 20 --max-log2 28 --reps 10 --only unique4 --tsv $R/unique-$t-r$r.tsv > /tmp/u.log 2>&1
  echo "r$r unique $t rc=$? $(awk -F'\t' '$5 > 0 {printf "%d:%.4f ", log($5)/log(2)+0.5, $6}' $R/unique-$t-r$r.tsv)"
 done
 unset CLWARP_ALGO_TUNING
 timeout 40 /tmp/cubhr --min-log2 20 --max-log2 28 --reps 10 --only unique4 --tsv $R/unique-cub-r$r.tsv > /dev/null 2>&1
 echo "r$r unique cub rc=$? $(awk -F'\t' '$5 > 0 {printf "%d:%.4f ", log($5)/log(2)+0.5, $6}' $R/unique-cub-r$r.tsv)"
 for t in none 64; do
  if [ $t = none ]; then unset CLWARP_ALGO_TUNING; else export CLWARP_ALGO_TUNING=select_regs=$t; fi
  CLWARP_CACHE_DIR=/tmp/cache-regs-$t timeout 150 $B/bench/algorithms-bench --device gpu --backends auto --ops compact,compact_sparse,partition_reversed --min-log2 20 --max-log2 28 --reps 10 --keep-going --tsv $R/sel-$t-r$r.tsv > $R/sel-$t-r$r.txt 2>&1
  echo "r$r select $t rc=$?"
 done
 unset CLWARP_ALGO_TUNING
 timeout 100 /tmp/cubb --ops compact,compact_sparse,partition --min-log2 20 --max-log2 28 --reps 10 --tsv $R/sel-cub-r$r.tsv > $R/sel-cub-r$r.txt 2>&1; echo "r$r cub-bench rc=$?"
done
head -3 $R/sel-none-r1.tsv; head -3 $R/sel-cub-r1.tsv
tar czf $OUT/sregs.tgz -C /tmp res
