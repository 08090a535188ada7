#!/bin/bash
# reduce variants: base, nc (restrict), blocked (even share + restrict); 3 rounds alternated with CUB.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/rx2; mkdir -p $O
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-bench.cu -o /tmp/cubb) &
for v in base blocked balanced; do
 (rm -rf /tmp/src-$v; mkdir /tmp/src-$v; git ls-files -z | xargs -0 cp --parents -t /tmp/src-$v
  cp .device/exp/reduce-$v.cl /tmp/src-$v/kernels/algorithms/reduce.cl
  cd /tmp/src-$v && meson setup /tmp/b-$v -Dtests=false -Dbench=true >/dev/null 2>&1 && ninja -C /tmp/b-$v bench/algorithms-bench >/dev/null 2>&1 || echo "build $v failed") &
done
wait
echo "built $SECONDS s"
C="--device gpu --backends auto --reps 100 --budget 1 --batch 32 --keep-going --no-profiling --ops reduce --min-log2 18 --max-log2 28"
S="base blocked balanced balanced:reduce_groups=8 balanced:reduce_groups=2"
for r in 1 2 3 4; do
 for s in $S; do
  v=${s%%:*}; tt=""; [ "$s" != "$v" ] && tt=${s#*:}
  CLWARP_CACHE_DIR=/tmp/cache-$v CLWARP_ALGO_TUNING=$tt timeout 90 /tmp/b-$v/bench/algorithms-bench $C --label "$s:r$r" --tsv $O/$r-$s.tsv > $O/$r-$s.log 2>&1 || echo "fail $s"
 done
 timeout 90 /tmp/cubb --ops reduce --min-log2 18 --max-log2 28 --reps 100 --batch 32 --tsv $O/cub-$r.tsv > /dev/null 2>&1
 echo "round $r $SECONDS s"
done
for v in base blocked balanced; do
 for f in $(grep -rl clwarp_reduce /tmp/cache-$v 2>/dev/null); do
  echo "== $v $f: nc=$(strings $f | grep -c 'ld.global.nc') ld.global=$(strings $f | grep -c 'ld.global')"
 done
done > $O/ptx.txt
mkdir -p $O/ptx; for v in base blocked balanced; do f=$(grep -rl clwarp_reduce /tmp/cache-$v 2>/dev/null | head -1); [ -n "$f" ] && strings $f > $O/ptx/$v.txt; done
cat $O/ptx.txt
cd /tmp && tar czf $OUT/rx2.tgz rx2
