#!/bin/bash
# Session 31: reduce's grid (reduce_groups per compute unit) at 2^20-2^28, users' engine, CUB each round.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/s31b; mkdir -p $O
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-bench.cu -o /tmp/cubb) &
(meson setup /tmp/b-base -Dtests=false -Dbench=true >/dev/null 2>&1 && ninja -C /tmp/b-base bench/algorithms-bench >/dev/null 2>&1 || echo "build failed") &
wait
echo "built $SECONDS s"
C="--device gpu --backends auto --reps 60 --budget 1 --batch 32 --keep-going --no-profiling --ops reduce --min-log2 20 --max-log2 28"
S="g4 g8 g16 g32"
for r in 1 2 3; do
 for s in $S; do
  CLWARP_ALGO_TUNING=reduce_groups=${s#g} timeout 90 /tmp/b-base/bench/algorithms-bench $C --label "$s:r$r" --tsv $O/$r-$s.tsv > $O/$r-$s.log 2>&1 || echo "fail $s"
 done
 timeout 90 /tmp/cubb --ops reduce --min-log2 20 --max-log2 28 --reps 60 --batch 32 --tsv $O/cub-$r.tsv > /dev/null 2>&1
 echo "round $r $SECONDS s"
 [ $SECONDS -gt 330 ] && break
done
python3 bench/results/h200-reduce-share-20261127/table.py $O | tee $O/table.txt
cd /tmp && tar czf $OUT/s31b.tgz s31b
