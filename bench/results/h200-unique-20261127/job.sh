#!/bin/bash
# Call U2: unique with the key before each vector by shuffle: old (fa1e83e) vs new, CUB; tests on nv.
source .device/opencl-env.sh >/dev/null 2>&1
O=$OUT
t=$SECONDS
export CLWARP_CACHE_DIR=/tmp/cwcache3
(meson setup /tmp/b-new -Dtests=true -Dbench=true -Dexamples=false >/dev/null && ninja -C /tmp/b-new tests/test-runs tests/test-algorithms tests/test-lookback-stress bench/hist-rle-bench bench/algorithms-bench >/dev/null || echo "new build failed") &
(cd .device/old && meson setup /tmp/b-old -Dtests=false -Dbench=true -Dexamples=false >/dev/null && ninja -C /tmp/b-old bench/hist-rle-bench bench/algorithms-bench >/dev/null || echo "old build failed") &
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cub-hr || echo "nvcc failed") &
wait
echo "builds: $((SECONDS-t)) s"
(cd /tmp/b-new && for s in runs algorithms; do CLWARP_TEST_QUICK=0 timeout 400 ./tests/test-$s 2>&1 | tail -2; echo "test-$s rc=$?"; done
 CLWARP_TEST_QUICK=1 timeout 200 ./tests/test-lookback-stress 2>&1 | tail -2) > $O/tests-nv.txt 2>&1
echo "tests: $((SECONDS-t)) s"
for r in 1 2; do
  for v in old new; do
    timeout 200 /tmp/b-$v/bench/hist-rle-bench --device gpu --only unique4 --min-log2 20 --max-log2 28 --reps 10 --tsv $O/u-$v-$r.tsv > /dev/null 2>>$O/err.txt
    timeout 200 /tmp/b-$v/bench/algorithms-bench --device gpu -b auto --ops compact --min-log2 20 --max-log2 28 --tsv $O/c-$v-$r.tsv > /dev/null 2>>$O/err.txt
  done
  timeout 200 /tmp/cub-hr --only unique4 --min-log2 20 --max-log2 28 --reps 10 --tsv $O/u-cub-$r.tsv > /dev/null 2>>$O/err.txt
  echo "round $r: $((SECONDS-t)) s"
done
cd $O && for f in *.tsv; do awk -v f=${f%.tsv} -F'\t' '{print f, $0}' $f; done > summary.txt; tar czf raw.tgz *.tsv && rm -f *.tsv; head -c 2000 err.txt
