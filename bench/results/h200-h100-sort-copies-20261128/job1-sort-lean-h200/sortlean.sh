#!/bin/bash
# Sort: pairs with peers in turn and each staged key's digit in local memory (no dst[] registers), float keys with peers in turn (sort-lean-f.cl), against HEAD; caps; CUB in the same job; ptxas registers; test-sort on nv for the variant.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/lean; mkdir -p $O; rm -rf /tmp/b-* /tmp/cache-* /tmp/src-m
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cubsort) &
mkdir /tmp/src-m; git ls-files -z | xargs -0 cp --parents -t /tmp/src-m
cp .device/exp/sort-lean-f.cl /tmp/src-m/kernels/algorithms/sort.cl
(meson setup /tmp/b-base -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-base bench/sort-bench >/dev/null 2>&1 || echo "base build failed") &
(cd /tmp/src-m && meson setup /tmp/b-m -Dtests=true -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-m bench/sort-bench tests/test-sort >/dev/null 2>&1 || echo "m build failed") &
wait
echo "built $SECONDS s"
A="--device gpu --min-log2 24 --max-log2 28 --reps 10"
for r in 1 2 3; do
  for s in base:base::pairs-uint,keys-float m:m::pairs-uint,keys-float m:mp80:sort_regs=80:pairs-uint m:mp72:sort_regs=72:pairs-uint m:mf56:sort_regs=56:keys-float m:mf48i16:sort_regs=48,sort_items=16:keys-float; do
    IFS=: read b l tt cs <<< "$s"
    CLWARP_CACHE_DIR=/tmp/cache-$l CLWARP_ALGO_TUNING=$tt timeout 100 /tmp/b-$b/bench/sort-bench $A --cases $cs --tsv $O/$r-$l.tsv > $O/$r-$l.log 2>&1 || echo "fail $l $r"
  done
  timeout 100 /tmp/cubsort --min-log2 24 --max-log2 28 --reps 10 --cases pairs-uint,keys-float --tsv $O/$r-cub.tsv > $O/$r-cub.log 2>&1 || echo "cub fail $r"
  echo "round $r $SECONDS s"
  [ $SECONDS -gt 400 ] && break
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
for f in $O/ptx/*.ptx; do for c in 0 80 72 64 56 48; do a=; [ $c != 0 ] && a=--maxrregcount=$c; echo "$(basename $f) cap $c: $(ptxas -arch=sm_90 -v $a $f -o /dev/null 2>&1 | grep -A4 "Compiling entry function 'clwarp_sort_pass'" | grep -o 'Used [0-9]* registers\|[0-9]* bytes spill stores' | tr '\n' ' ')"; done; done > $O/ptxas.txt; cat $O/ptxas.txt
timeout 150 /tmp/b-m/tests/test-sort > $O/test-sort-nv.txt 2>&1; echo "test-sort nv (lean): $? $(tail -1 $O/test-sort-nv.txt)"
echo "done $SECONDS s"
cd /tmp && tar czf $OUT/lean.tgz lean
