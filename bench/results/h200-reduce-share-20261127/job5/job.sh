#!/bin/bash
source .device/opencl-env.sh >/dev/null 2>&1
O=/tmp/p6; mkdir -p $O
V="base v3"
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-bench.cu -o /tmp/cubb) &
for v in $V; do
 (rm -rf /tmp/s-$v; mkdir /tmp/s-$v; git ls-files -z | xargs -0 cp --parents -t /tmp/s-$v
  cp .device/exp/reduce-$v.cl /tmp/s-$v/kernels/algorithms/reduce.cl
  cd /tmp/s-$v && meson setup /tmp/b6-$v -Dbench=true >/dev/null 2>&1 && ninja -C /tmp/b6-$v tests/test-algorithms bench/algorithms-bench >/dev/null 2>&1 || echo "build $v failed") &
done
wait; echo "built $SECONDS s"
(cd /tmp/s-v3 && CLWARP_DEVICE=cpu CLWARP_CACHE_DIR=/tmp/c6 CLWARP_TEST_QUICK=1 CLWARP_TEST_ONLY=test_reduce,test_reduce_shares,test_event,test_tuning timeout 200 /tmp/b6-v3/tests/test-algorithms > $O/v3-pocl.log 2>&1; echo "v3 pocl: $(grep -E 'Checks' $O/v3-pocl.log)"; grep -m3 ":F:" $O/v3-pocl.log)
echo "pocl done $SECONDS s"
C="--device gpu --backends auto --reps 100 --budget 1 --batch 32 --keep-going --no-profiling --ops reduce --min-log2 20 --max-log2 28"
for r in 1 2 3; do for v in $V; do
 CLWARP_CACHE_DIR=/tmp/cn6-$v timeout 90 /tmp/b6-$v/bench/algorithms-bench $C --label "$v:r$r" --tsv $O/$r-$v.tsv > /dev/null 2>&1 || echo "fail $v"
 done
 timeout 90 /tmp/cubb --ops reduce --min-log2 20 --max-log2 28 --reps 100 --batch 32 --tsv $O/cub-$r.tsv > /dev/null 2>&1
 echo "round $r $SECONDS s"
done
for f in $(grep -rl clwarp_reduce /tmp/cn6-v3); do echo "$f $(strings $f | grep -c ld.global.nc)"; done
cd /tmp && tar czf $OUT/p6.tgz p6
