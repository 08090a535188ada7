#!/bin/bash
# Sort: ulong keys with 24/28/32 items (sort_wide_items), float keys under caps of 72/80 with 20/24 items; 3 rounds alternated, CUB in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/sj; mkdir -p $O
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cubsort) &
(meson setup /tmp/b -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b bench/sort-bench >/dev/null 2>&1 || echo "build failed") &
wait
echo "built $SECONDS s"
A="--device gpu --min-log2 24 --max-log2 28 --reps 10"
for r in 1 2 3; do
  for s in base::keys-float,keys-ulong u24:sort_wide_items=24:keys-ulong u28:sort_wide_items=28:keys-ulong u32:sort_wide_items=32:keys-ulong f80i20:sort_regs=80:keys-float f80i24:sort_regs=80,sort_items=24:keys-float f72i24:sort_regs=72,sort_items=24:keys-float f80i28:sort_regs=80,sort_items=28:keys-float; do
    IFS=: read l tt cs <<< "$s"
    CLWARP_CACHE_DIR=/tmp/cache-$l CLWARP_ALGO_TUNING=$tt timeout 100 /tmp/b/bench/sort-bench $A --cases $cs --tsv $O/$r-$l.tsv > $O/$r-$l.log 2>&1 || echo "fail $l $r"
  done
  timeout 100 /tmp/cubsort --min-log2 24 --max-log2 28 --reps 10 --cases keys-float,keys-ulong --tsv $O/$r-cub.tsv > $O/$r-cub.log 2>&1 || echo "cub fail $r"
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
cd /tmp && tar czf $OUT/sj.tgz sj
