#!/bin/bash
# Sort pairs: values loaded as soon as the keys are staged (before the look-back), staged keys' digits in local memory, peers in turn (sort-lean2.cl), against HEAD; caps 80/72; CUB in the same job; ptxas; test-sort on nv.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=$OUT/lean2; mkdir -p $O; rm -rf /tmp/b-* /tmp/cache-* /tmp/src-m
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cubsort) &
mkdir /tmp/src-m; git ls-files -z | xargs -0 cp --parents -t /tmp/src-m
cp .device/exp/sort-lean2.cl /tmp/src-m/kernels/algorithms/sort.cl
(meson setup /tmp/b-base -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-base bench/sort-bench >/dev/null 2>&1 || echo "base build failed") &
(cd /tmp/src-m && meson setup /tmp/b-m -Dtests=true -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-m bench/sort-bench tests/test-sort >/dev/null 2>&1 || echo "m build failed") &
wait
echo "built $SECONDS s"
A="--device gpu --min-log2 24 --max-log2 28 --reps 10 --cases pairs-uint"
for r in 1 2; do
  for s in base:base: m:m: m:m80:sort_regs=80 m:m72:sort_regs=72 base:b80:sort_regs=80; do
    IFS=: read b l tt <<< "$s"
    CLWARP_CACHE_DIR=/tmp/cache-$l CLWARP_ALGO_TUNING=$tt timeout 60 /tmp/b-$b/bench/sort-bench $A --tsv $O/$r-$l.tsv > $O/$r-$l.log 2>&1 || echo "fail $l $r"
  done
  timeout 60 /tmp/cubsort --min-log2 24 --max-log2 28 --reps 10 --cases pairs-uint --tsv $O/$r-cub.tsv > $O/$r-cub.log 2>&1 || echo "cub fail $r"
  echo "round $r $SECONDS s"; cat $O/$r-*.tsv | cut -f1,2,3,5,6
  [ $SECONDS -gt 150 ] && break
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
for f in $O/ptx/m-*.ptx $O/ptx/base-*.ptx; do for c in 0 80 72; do a=; [ $c != 0 ] && a=--maxrregcount=$c; echo "$(basename $f) cap $c: $(ptxas -arch=sm_90 -v $a $f -o /dev/null 2>&1 | grep -A4 "Compiling entry function 'clwarp_sort_pass'" | grep -o 'Used [0-9]* registers\|[0-9]* bytes spill stores' | tr '\n' ' ')"; done; done > $O/ptxas.txt; cat $O/ptxas.txt
timeout 120 /tmp/b-m/tests/test-sort > $O/test-sort-nv.txt 2>&1; echo "test-sort nv (lean2): $? $(tail -1 $O/test-sort-nv.txt)"
echo "done $SECONDS s"
