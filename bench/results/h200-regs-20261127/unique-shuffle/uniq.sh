#!/bin/bash
# unique: the heads' key before each vector by shuffle (after) against global loads (before), CUB in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/before && tar --exclude=./build-user-gpu --exclude=./.device --exclude='./build*' -cf - . | tar -C /tmp/before -xf -
(cd /tmp/before && patch -s -R -p1 < $OLDPWD/.device/sort/uniq.patch) || echo patch failed
for t in after before; do
  src=.; [ $t = before ] && src=/tmp/before
  B=/tmp/b-$t
  (cd $src && meson setup $B -Dtests=false -Dbench=true -Dexamples=false >/dev/null && ninja -C $B bench/hist-rle-bench >/dev/null) || echo build $t failed
done
[ -x /tmp/cubhr ] || nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cubhr
for r in 1 2; do
 for t in after before; do
  CLWARP_CACHE_DIR=/tmp/cache-$t timeout 60 /tmp/b-$t/bench/hist-rle-bench --device gpu --min-log2 16 --max-log2 28 --reps 10 --only unique4 --tsv /tmp/u.tsv > /tmp/u.log 2>&1
  echo "r$r $t rc=$? $(awk -F'\t' '$5 > 0 {printf "%d:%.4f ", log($5)/log(2)+0.5, $6}' /tmp/u.tsv)"; cp /tmp/u.tsv $OUT/unique-$t-r$r.tsv
 done
 timeout 40 /tmp/cubhr --min-log2 16 --max-log2 28 --reps 10 --only unique4 --tsv /tmp/u.tsv > /dev/null 2>&1
 echo "r$r cub rc=$? $(awk -F'\t' '$5 > 0 {printf "%d:%.4f ", log($5)/log(2)+0.5, $6}' /tmp/u.tsv)"; cp /tmp/u.tsv $OUT/unique-cub-r$r.tsv
done
tail -3 /tmp/u.log
