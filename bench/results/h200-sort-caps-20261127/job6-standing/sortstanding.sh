#!/bin/bash
# Sort standing at HEAD: four cases, 2^22-2^28, 3 rounds alternated with CUB.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/st; mkdir -p $O; rm -rf /tmp/b-st /tmp/cache-st
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cubsort) &
(meson setup /tmp/b-st -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-st bench/sort-bench >/dev/null 2>&1 || echo "build failed") &
wait
echo "built $SECONDS s"
C=keys-uint,keys-float,keys-ulong,pairs-uint
for r in 1 2 3; do
  CLWARP_CACHE_DIR=/tmp/cache-st timeout 150 /tmp/b-st/bench/sort-bench --device gpu --min-log2 22 --max-log2 28 --reps 10 --cases $C --tsv $O/$r-head.tsv > $O/$r-head.log 2>&1 || echo "fail $r"
  timeout 150 /tmp/cubsort --min-log2 22 --max-log2 28 --reps 10 --cases $C --tsv $O/$r-cub.tsv > $O/$r-cub.log 2>&1 || echo "cub fail $r"
  echo "round $r $SECONDS s"
done
cd /tmp && tar czf $OUT/st.tgz st
