#!/bin/bash
# Reduce by key: the new size-dependent cap (default) against no cap, and mid-size tile shapes; CUB in the same job. Two rounds.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=/tmp/b-rbk; R=/tmp/rbk; mkdir -p $R
[ -f $B/build.ninja ] || meson setup $B -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1
ninja -C $B bench/hist-rle-bench >/dev/null || echo build failed
[ -x /tmp/cubhr ] || nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cubhr
RC=rle4,rbk1,rbk4,rbk64
run() { # tag tuning min max
  if [ -n "$2" ]; then export CLWARP_ALGO_TUNING=$2; else unset CLWARP_ALGO_TUNING; fi
  CLWARP_CACHE_DIR=/tmp/c-$1 timeout 120 $B/bench/hist-rle-bench --device gpu --min-log2 $3 --max-log2 $4 --reps 15 --only $RC --tsv $R/$1-$3-r$r.tsv > $R/$1-$3-r$r.txt 2>&1
  echo "r$r $1 $3..$4 rc=$? $SECONDS s"
  unset CLWARP_ALGO_TUNING
}
for r in 1 2; do
 for lo in 22 23; do
  run new "" $lo 28
  run nocap by_key_regs=0 $lo 28
 done
 run v4 runs_vectors=4 20 24
 run w128 runs_wg=128 20 24
 run v6 runs_vectors=6 20 24
 run new "" 20 20
 for lo in 20 22 23; do
  timeout 100 /tmp/cubhr --min-log2 $lo --max-log2 28 --reps 15 --only $RC --tsv $R/cub-$lo-r$r.tsv > /dev/null 2>&1; echo "r$r cub $lo rc=$?"
 done
done
tar czf $OUT/rbk.tgz -C /tmp rbk
