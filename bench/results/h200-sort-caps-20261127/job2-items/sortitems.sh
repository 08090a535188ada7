#!/bin/bash
# Sort tile sizes under register caps on main's kernel: pairs-uint at 80 registers with 16/20/24/28 items, ulong keys with 16/20/24 items (uncapped: 64 registers); 3 rounds alternated, CUB in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/si; mkdir -p $O
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cubsort) &
(meson setup /tmp/b -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b bench/sort-bench >/dev/null 2>&1 || echo "build failed") &
wait
echo "built $SECONDS s"
A="--device gpu --min-log2 24 --max-log2 28 --reps 10"
for r in 1 2 3; do
  for s in base::pairs-uint,keys-ulong p80:sort_regs=80:pairs-uint p80i16:sort_regs=80,sort_pairs_items=16:pairs-uint p80i20:sort_regs=80,sort_pairs_items=20:pairs-uint p80i28:sort_regs=80,sort_pairs_items=28:pairs-uint p96i28:sort_regs=96,sort_pairs_items=28:pairs-uint u16:sort_wide_items=16:keys-ulong u24:sort_wide_items=24:keys-ulong u24r64:sort_wide_items=24,sort_regs=64:keys-ulong; do
    IFS=: read l tt cs <<< "$s"
    CLWARP_CACHE_DIR=/tmp/cache-$l CLWARP_ALGO_TUNING=$tt timeout 100 /tmp/b/bench/sort-bench $A --cases $cs --tsv $O/$r-$l.tsv > $O/$r-$l.log 2>&1 || echo "fail $l $r"
  done
  timeout 100 /tmp/cubsort --min-log2 24 --max-log2 28 --reps 10 --cases pairs-uint,keys-ulong --tsv $O/$r-cub.tsv > $O/$r-cub.log 2>&1 || echo "cub fail $r"
  echo "round $r $SECONDS s"
  [ $SECONDS -gt 330 ] && break
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
echo "done $SECONDS s"
cd /tmp && tar czf $OUT/si.tgz si
