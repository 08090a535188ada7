#!/bin/bash
# Sort: the scatter loop unrolled fully (working tree) against main's kernel (sort-base.cl); 3 rounds alternated, CUB in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/su; mkdir -p $O
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cubsort) &
rm -rf /tmp/src-base; mkdir /tmp/src-base; git ls-files -z | xargs -0 cp --parents -t /tmp/src-base
cp .device/exp/sort-base.cl /tmp/src-base/kernels/algorithms/sort.cl
(cd /tmp/src-base && meson setup /tmp/b-base -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-base bench/sort-bench >/dev/null 2>&1 || echo "base build failed") &
(meson setup /tmp/b-new -Dtests=true -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-new bench/sort-bench tests/test-sort >/dev/null 2>&1 || echo "new build failed") &
wait
echo "built $SECONDS s"
A="--device gpu --min-log2 22 --max-log2 28 --reps 10 --cases keys-float,keys-uint,keys-ulong,pairs-uint"
for r in 1 2 3; do
  for v in base new; do
    CLWARP_CACHE_DIR=/tmp/cache-$v timeout 150 /tmp/b-$v/bench/sort-bench $A --tsv $O/$r-$v.tsv > $O/$r-$v.log 2>&1 || echo "fail $v $r"
  done
  timeout 150 /tmp/cubsort --min-log2 22 --max-log2 28 --reps 10 --cases keys-float,keys-uint,keys-ulong,pairs-uint --tsv $O/$r-cub.tsv > $O/$r-cub.log 2>&1 || echo "cub fail $r"
  echo "round $r $SECONDS s"
done
mkdir -p $O/ptx
python3 - $O/ptx <<'PY'
import os, sys
for v in ('base', 'new'):
    k = 0
    for root, _, files in os.walk('/tmp/cache-' + v):
        for name in files:
            data = open(os.path.join(root, name), 'rb').read()
            if data.startswith(b'CLWARPC') and b'.entry clwarp_sort_pass' in data:
                k += 1
                open(os.path.join(sys.argv[1], '%s-%d.ptx' % (v, k)), 'wb').write(data[88:].rstrip(b'\0'))
PY
if [ $SECONDS -lt 420 ]; then
  timeout 100 /tmp/b-new/tests/test-sort > $O/test-sort-nv.txt 2>&1; echo "test-sort nv: $? $(tail -1 $O/test-sort-nv.txt)"
  CLWARP_DEVICE=cpu CLWARP_TEST_QUICK=1 timeout 60 /tmp/b-new/tests/test-sort > $O/test-sort-pocl5.txt 2>&1; echo "test-sort pocl5: $? $(tail -1 $O/test-sort-pocl5.txt)"
fi
echo "done $SECONDS s"
cd /tmp && tar czf $OUT/su.tgz su
