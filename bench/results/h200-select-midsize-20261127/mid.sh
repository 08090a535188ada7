#!/bin/bash
# Compaction and unique at 2^20-2^25: tile shapes (select_wg x select_vectors) against the default 256 x 6, two rounds, CUB in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=/tmp/b-mid; R=/tmp/mid; mkdir -p $R
[ -f $B/build.ninja ] || meson setup $B -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1
ninja -C $B bench/hist-rle-bench bench/algorithms-bench >/dev/null || echo build failed
[ -x /tmp/cubhr ] || nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cubhr &
[ -x /tmp/cubb ] || nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-bench.cu -o /tmp/cubb &
wait
run() { # tag tuning
  if [ -n "$2" ]; then export CLWARP_ALGO_TUNING=$2; else unset CLWARP_ALGO_TUNING; fi
  CLWARP_CACHE_DIR=/tmp/c-$1 timeout 100 $B/bench/algorithms-bench --device gpu --backends auto --ops compact,compact_sparse --min-log2 20 --max-log2 25 --reps 20 --keep-going --tsv $R/sel-$1-r$r.tsv > $R/sel-$1-r$r.txt 2>&1
  for lo in 20 21; do
  CLWARP_CACHE_DIR=/tmp/c-$1 timeout 100 $B/bench/hist-rle-bench --device gpu --min-log2 $lo --max-log2 25 --reps 15 --only unique4 --tsv $R/uniq-$1-$lo-r$r.tsv > $R/uniq-$1-$lo-r$r.txt 2>&1
  done
  echo "r$r $1 $SECONDS s"
  unset CLWARP_ALGO_TUNING
}
for r in 1 2; do
 run d ""
 run v8 select_vectors=8
 run v4 select_vectors=4
 run w128v8 select_wg=128,select_vectors=8
 run v8r72 select_vectors=8,select_regs=72
 timeout 100 /tmp/cubb --ops compact,compact_sparse --min-log2 20 --max-log2 25 --reps 20 --tsv $R/sel-cub-r$r.tsv > /dev/null 2>&1
 for lo in 20 21; do
  timeout 100 /tmp/cubhr --min-log2 $lo --max-log2 25 --reps 15 --only unique4 --tsv $R/uniq-cub-$lo-r$r.tsv > /dev/null 2>&1
 done
 echo "r$r cub $SECONDS s"
done
tar czf $OUT/mid.tgz -C /tmp mid
