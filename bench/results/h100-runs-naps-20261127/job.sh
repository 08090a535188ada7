#!/bin/bash
# Run-length encode and reduce by key with the look-back naps (nv), shapes alternated twice, CUB in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=build-user-gpu
[ -f $B/build.ninja ] || meson setup $B -Dtests=false -Dbench=true -Dexamples=false >/dev/null
ninja -C $B bench/hist-rle-bench >/dev/null || exit 1
[ -x /tmp/cubhr ] || nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cubhr
export CLWARP_CACHE_DIR=/tmp/rshape-cache
OPS=rle1,rle4,rle64,rbk1,rbk4,rbk64
mkdir -p $OUT/r
for r in 1 2; do
 for shape in runs_wait=0 runs_wait=1150,runs_poll=76 runs_wait=1150 runs_wait=450,runs_poll=350; do
  CLWARP_ALGO_TUNING=$shape timeout 60 $B/bench/hist-rle-bench --device gpu --min-log2 20 --max-log2 28 --reps 10 --only $OPS --tsv $OUT/r/$r-$(echo $shape | tr '=,' '__').tsv > /dev/null 2>&1; echo "r$r $shape rc=$?"
 done
 timeout 60 /tmp/cubhr --min-log2 20 --max-log2 28 --reps 10 --only $OPS --tsv $OUT/r/$r-cub.tsv > /dev/null 2>&1; echo "r$r cub rc=$?"
done
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
