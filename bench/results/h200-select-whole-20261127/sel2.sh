#!/bin/bash
# Confirm at 179c446: compaction, partition_reversed and unique (unique back on the old heads code) against 906506d; two rounds; CUB each round.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R=/tmp/sel2; mkdir -p $R
[ -x /tmp/cubhr3 ] || (nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cubhr3) &
[ -x /tmp/cubb3 ] || (nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-bench.cu -o /tmp/cubb3) &
for v in base new; do
  (T=/tmp/s-$v; mkdir -p $T; tar cf - --exclude=./build* --exclude=./.git . | tar xf - -C $T
   if [ $v = base ]; then cp .device/sel/common-base.cl $T/kernels/algorithms/common.cl; cp .device/sel/scan-base.cl $T/kernels/algorithms/scan.cl; fi
   t=false
   cd $T && meson setup b -Dtests=$t -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C b bench/hist-rle-bench bench/algorithms-bench >/dev/null 2>&1 || echo "build $v failed"
   [ $v = new ] && { true; }) &
done
wait
echo "built $SECONDS s"
for r in 1 2; do
 for v in base new; do
  CLWARP_CACHE_DIR=/tmp/c3-$v timeout 120 /tmp/s-$v/b/bench/algorithms-bench --device gpu --backends auto --ops compact,compact_sparse,partition_reversed --min-log2 16 --max-log2 28 --reps 15 --budget 1 --keep-going --tsv $R/sel-$v-r$r.tsv > $R/sel-$v-r$r.txt 2>&1
  CLWARP_CACHE_DIR=/tmp/c3-$v timeout 100 /tmp/s-$v/b/bench/hist-rle-bench --device gpu --min-log2 16 --max-log2 28 --reps 9 --batch 8 --only unique4 --tsv $R/uniq-$v-r$r.tsv > $R/uniq-$v-r$r.txt 2>&1
  echo "r$r $v $SECONDS s: $(awk -F'\t' '$5==268435456 {printf "%s %s  ", $3, $6}' $R/sel-$v-r$r.tsv $R/uniq-$v-r$r.tsv)"
 done
 timeout 100 /tmp/cubb3 --ops compact,compact_sparse,partition --min-log2 16 --max-log2 28 --reps 15 --tsv $R/sel-cub-r$r.tsv > /dev/null 2>&1
 timeout 100 /tmp/cubhr3 --min-log2 16 --max-log2 28 --reps 9 --batch 8 --only unique4 --tsv $R/uniq-cub-r$r.tsv > /dev/null 2>&1
 echo "r$r cub $SECONDS s: $(awk -F'\t' '$5==268435456 {printf "%s %s  ", $3, $6}' $R/sel-cub-r$r.tsv $R/uniq-cub-r$r.tsv)"
done
tar czf $OUT/sel2.tgz -C /tmp sel2
