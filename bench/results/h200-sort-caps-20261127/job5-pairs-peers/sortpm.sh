#!/bin/bash
# Sort pairs: each key's peers computed as it is ranked (pairs only, sort-pairs-merged.cl) against HEAD (80 registers for pairs on nv); 4 rounds alternated, CUB in the same job; test-sort on nv for the variant.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/pm; mkdir -p $O; rm -rf /tmp/b* /tmp/cache-* /tmp/src-m
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cubsort) &
mkdir /tmp/src-m; git ls-files -z | xargs -0 cp --parents -t /tmp/src-m
cp .device/exp/sort-pairs-merged.cl /tmp/src-m/kernels/algorithms/sort.cl
(meson setup /tmp/b-base -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-base bench/sort-bench >/dev/null 2>&1 || echo "base build failed") &
(cd /tmp/src-m && meson setup /tmp/b-m -Dtests=true -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-m bench/sort-bench tests/test-sort >/dev/null 2>&1 || echo "m build failed") &
wait
echo "built $SECONDS s"
A="--device gpu --min-log2 22 --max-log2 28 --reps 10 --cases pairs-uint"
for r in 1 2 3 4; do
  for v in base m; do
    CLWARP_CACHE_DIR=/tmp/cache-$v timeout 100 /tmp/b-$v/bench/sort-bench $A --tsv $O/$r-$v.tsv > $O/$r-$v.log 2>&1 || echo "fail $v $r"
  done
  timeout 100 /tmp/cubsort --min-log2 22 --max-log2 28 --reps 10 --cases pairs-uint --tsv $O/$r-cub.tsv > $O/$r-cub.log 2>&1 || echo "cub fail $r"
  echo "round $r $SECONDS s"
done
mkdir -p $O/ptx
python3 - $O/ptx <<'PY'
import os, sys, glob
for d in glob.glob('/tmp/cache-*'):
    k = 0
    for root, _, files in os.walk(d):
        for name in files:
            data = open(os.path.join(root, name), 'rb').read()
            if data.startswith(b'CLWARPC') and b'.entry clwarp_sort_pass' in data:
                k += 1
                open(os.path.join(sys.argv[1], '%s-%d.ptx' % (d[len('/tmp/cache-'):], k)), 'wb').write(data[88:].rstrip(b'\0'))
PY
timeout 240 /tmp/b-m/tests/test-sort > $O/test-sort-nv.txt 2>&1; echo "test-sort nv (pairs merged): $? $(tail -1 $O/test-sort-nv.txt)"
echo "done $SECONDS s"
cd /tmp && tar czf $OUT/pm.tgz pm
