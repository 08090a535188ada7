#!/bin/bash
# Call R: float sort with order bits in registers: old (fa1e83e) vs new, items 20 and 24, CUB, and test-sort on nv.
source .device/opencl-env.sh >/dev/null 2>&1
O=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/gpu.txt
t=$SECONDS
export CLWARP_CACHE_DIR=/tmp/cwcache
(meson setup /tmp/b-new -Dtests=true -Dbench=true -Dexamples=false >/dev/null && ninja -C /tmp/b-new tests/test-sort bench/sort-bench >/dev/null || echo "new build failed") &
(cd .device/old && meson setup /tmp/b-old -Dtests=false -Dbench=true -Dexamples=false >/dev/null && ninja -C /tmp/b-old bench/sort-bench >/dev/null || echo "old build failed") &
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cub-sort-bench || echo "nvcc failed") &
wait
echo "builds: $((SECONDS-t)) s"
(cd /tmp/b-new && CLWARP_TEST_QUICK=0 timeout 300 ./tests/test-sort > $O/test-sort-nv.txt 2>&1; echo "test-sort nv default rc=$?" >> $O/test-sort-nv.txt
 CLWARP_TEST_QUICK=1 CLWARP_ALGO_TUNING=sort_items=24 timeout 300 ./tests/test-sort >> $O/test-sort-nv.txt 2>&1; echo "test-sort nv items=24 rc=$?" >> $O/test-sort-nv.txt)
echo "tests: $((SECONDS-t)) s"
A="--device gpu --min-log2 22 --max-log2 28 --reps 10"
for r in 1 2; do
  timeout 200 /tmp/b-old/bench/sort-bench $A --cases keys-float,keys-uint --tsv $O/old-$r.tsv > /dev/null 2>$O/err-old-$r.txt
  timeout 200 /tmp/b-new/bench/sort-bench $A --cases keys-float,keys-float-nan --tsv $O/new-$r.tsv > /dev/null 2>$O/err-new-$r.txt
  CLWARP_ALGO_TUNING=sort_items=24 timeout 200 /tmp/b-new/bench/sort-bench $A --cases keys-float,keys-float-nan --tsv $O/new24-$r.tsv > /dev/null 2>$O/err-new24-$r.txt
  timeout 200 /tmp/cub-sort-bench --min-log2 22 --max-log2 28 --reps 10 --cases keys-float,keys-uint --tsv $O/cub-$r.tsv > /dev/null 2>$O/err-cub-$r.txt
  echo "round $r: $((SECONDS-t)) s"
done
cd $O && for f in old new new24 cub; do cat $f-1.tsv $f-2.tsv | awk -v f=$f -F'\t' '{print f, $4, $5, $6}'; done > summary.txt
tar czf raw.tgz *.tsv err-*.txt && rm -f *.tsv err-*.txt
