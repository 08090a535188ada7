#!/bin/bash
# partition_regs (none, 80), two rounds, CUB in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=/tmp/b-regs; R=/tmp/res4; mkdir -p $R
[ -f $B/build.ninja ] || meson setup $B -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1
ninja -C $B bench/algorithms-bench >/dev/null || echo build failed
[ -x /tmp/cubb ] || nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-bench.cu -o /tmp/cubb
for r in 1 2; do
 for t in none 80; do
  if [ $t = none ]; then unset CLWARP_ALGO_TUNING; else export CLWARP_ALGO_TUNING=partition_regs=$t; fi
  CLWARP_CACHE_DIR=/tmp/c4-$t timeout 150 $B/bench/algorithms-bench --device gpu --backends auto --ops partition_reversed --min-log2 20 --max-log2 28 --reps 10 --keep-going --tsv $R/part-$t-r$r.tsv > $R/part-$t-r$r.txt 2>&1
  echo "r$r $t rc=$? $SECONDS s"
 done
 unset CLWARP_ALGO_TUNING
 timeout 100 /tmp/cubb --ops partition --min-log2 20 --max-log2 28 --reps 10 --tsv $R/part-cub-r$r.tsv > /dev/null 2>&1; echo "r$r cub rc=$?"
done
tar czf $OUT/part.tgz -C /tmp res4
