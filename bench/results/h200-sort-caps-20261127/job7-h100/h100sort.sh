#!/bin/bash
# H100: HEAD's sort defaults (ulong tiles 256 x 16, pairs at 80 registers with peers in turn) against 99552f3's; 3 rounds alternated, CUB in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/h1; mkdir -p $O; rm -rf /tmp/b-* /tmp/cache-* /tmp/src-old
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cubsort) &
mkdir /tmp/src-old; git ls-files -z | xargs -0 cp --parents -t /tmp/src-old
cp .device/exp/old/algo_tuning.c /tmp/src-old/src/algo_tuning.c; cp .device/exp/old/sort.cl /tmp/src-old/kernels/algorithms/sort.cl
(meson setup /tmp/b-head -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-head bench/sort-bench >/dev/null 2>&1 || echo "head build failed") &
(cd /tmp/src-old && meson setup /tmp/b-old -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-old bench/sort-bench >/dev/null 2>&1 || echo "old build failed") &
wait
echo "built $SECONDS s"
A="--device gpu --min-log2 22 --max-log2 28 --reps 10 --cases pairs-uint,keys-ulong"
for r in 1 2 3; do
  for v in old head; do
    CLWARP_CACHE_DIR=/tmp/cache-$v timeout 120 /tmp/b-$v/bench/sort-bench $A --tsv $O/$r-$v.tsv > $O/$r-$v.log 2>&1 || echo "fail $v $r"
  done
  timeout 120 /tmp/cubsort --min-log2 22 --max-log2 28 --reps 10 --cases pairs-uint,keys-ulong --tsv $O/$r-cub.tsv > $O/$r-cub.log 2>&1 || echo "cub fail $r"
  echo "round $r $SECONDS s"
  [ $SECONDS -gt 420 ] && break
done
cd /tmp && tar czf $OUT/h1.tgz h1
