#!/bin/bash
# PoCL 5.0 (this machine's CPU) on reduce variants, then nv speed of the survivors.
source .device/opencl-env.sh >/dev/null 2>&1
O=/tmp/p5; mkdir -p $O
V="base blockedp v2 v2p"
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-bench.cu -o /tmp/cubb) &
for v in $V; do
 (rm -rf /tmp/s-$v; mkdir /tmp/s-$v; git ls-files -z | xargs -0 cp --parents -t /tmp/s-$v
  cp .device/exp/reduce-$v.cl /tmp/s-$v/kernels/algorithms/reduce.cl
  cd /tmp/s-$v && meson setup /tmp/b5-$v -Dbench=true >/dev/null 2>&1 && ninja -C /tmp/b5-$v tests/test-algorithms tests/test-threads bench/algorithms-bench >/dev/null 2>&1 || echo "build $v failed") &
done
wait; echo "built $SECONDS s"
for v in $V; do
 for rep in 1 2; do
  (cd /tmp/s-$v && CLWARP_DEVICE=cpu CLWARP_CACHE_DIR=/tmp/c5-$v-$rep CLWARP_TEST_QUICK=1 CLWARP_TEST_ONLY=test_reduce,test_reduce_shares,test_event,test_tuning,test_repeated_calls,test_small_default,test_threads timeout 300 /tmp/b5-$v/tests/test-algorithms > $O/$v-$rep.log 2>&1; echo "$v rep $rep: $(grep -E 'Checks' $O/$v-$rep.log)"; grep -m3 ":F:" $O/$v-$rep.log)
 done
 (cd /tmp/s-$v && CLWARP_DEVICE=cpu CLWARP_CACHE_DIR=/tmp/c5t-$v CLWARP_TEST_QUICK=1 timeout 300 /tmp/b5-$v/tests/test-threads > $O/$v-threads.log 2>&1; echo "$v threads: $(grep -E 'Checks' $O/$v-threads.log)")
done
echo "pocl done $SECONDS s"
C="--device gpu --backends auto --reps 100 --budget 1 --batch 32 --keep-going --no-profiling --ops reduce --min-log2 20 --max-log2 28"
for r in 1 2; do for v in base blockedp v2 v2p; do
 CLWARP_CACHE_DIR=/tmp/cn-$v timeout 90 /tmp/b5-$v/bench/algorithms-bench $C --label "$v:r$r" --tsv $O/$r-$v.tsv > /dev/null 2>&1 || echo "fail $v"
 done
 timeout 90 /tmp/cubb --ops reduce --min-log2 20 --max-log2 28 --reps 100 --batch 32 --tsv $O/cub-$r.tsv > /dev/null 2>&1
 echo "round $r $SECONDS s"
done
for v in blockedp v2 v2p; do f=$(grep -rl clwarp_reduce /tmp/cn-$v | head -1); strings $f | grep -v '^//' | sed 's/clwarp[0-9a-f_]*//g' > $O/ptx-$v.txt; done
diff -q $O/ptx-blockedp.txt $O/ptx-v2.txt; diff -q $O/ptx-blockedp.txt $O/ptx-v2p.txt; wc -l $O/ptx-*.txt
cd /tmp && tar czf $OUT/p5.tgz p5
