#!/bin/bash
# Pairs with larger tiles on the 96-register kernel (sort-lean2.cl): 24, 28, 32 keys a work-item, uncapped, against HEAD; CUB in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=$OUT/li; mkdir -p $O; rm -rf /tmp/b-* /tmp/cache-* /tmp/src-m
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cubsort) &
mkdir /tmp/src-m; git ls-files -z | xargs -0 cp --parents -t /tmp/src-m
cp .device/exp/sort-lean2.cl /tmp/src-m/kernels/algorithms/sort.cl
(meson setup /tmp/b-base -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-base bench/sort-bench >/dev/null 2>&1 || echo "base build failed") &
(cd /tmp/src-m && meson setup /tmp/b-m -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-m bench/sort-bench >/dev/null 2>&1 || echo "m build failed") &
wait
echo "built $SECONDS s"
A="--device gpu --min-log2 24 --max-log2 28 --reps 10 --cases pairs-uint"
for r in 1 2; do
  for s in base:base: m:m24: m:m28:sort_pairs_items=28 m:m32:sort_pairs_items=32; do
    IFS=: read b l tt <<< "$s"
    CLWARP_CACHE_DIR=/tmp/cache-$l CLWARP_ALGO_TUNING=$tt timeout 60 /tmp/b-$b/bench/sort-bench $A --tsv $O/$r-$l.tsv > $O/$r-$l.log 2>&1 || echo "fail $l $r"
    echo "$r $l $(cut -f6 $O/$r-$l.tsv | tr '\n' ' ')"
  done
  timeout 60 /tmp/cubsort --min-log2 24 --max-log2 28 --reps 10 --cases pairs-uint --tsv $O/$r-cub.tsv > $O/$r-cub.log 2>&1 || echo "cub fail $r"
  echo "$r cub $(cut -f6 $O/$r-cub.tsv | tr '\n' ' ')"
  echo "round $r $SECONDS s"
  [ $SECONDS -gt 140 ] && break
done
python3 - <<'PY' > $O/ptxas.txt
import os, glob, subprocess
for d in sorted(glob.glob('/tmp/cache-*')):
    for root, _, files in os.walk(d):
        for name in files:
            data = open(os.path.join(root, name), 'rb').read()
            if data.startswith(b'CLWARPC') and b'.entry clwarp_sort_pass' in data:
                p = '/tmp/x.ptx'; open(p, 'wb').write(data[88:].rstrip(b'\0'))
                out = subprocess.run(['ptxas', '-arch=sm_90', '-v', p, '-o', '/dev/null'], capture_output=True, text=True).stderr
                i = out.find("Compiling entry function 'clwarp_sort_pass'")
                print(d, ' '.join(l.strip() for l in out[i:].splitlines()[1:4] if 'registers' in l or 'spill' in l))
PY
cat $O/ptxas.txt
echo "done $SECONDS s"
