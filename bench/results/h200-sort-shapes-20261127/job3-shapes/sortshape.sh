#!/bin/bash
# Sort shapes by tuning only (no code change): work-groups of 128 and register caps of 48-56, against the defaults; 2 rounds, CUB in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/ss; mkdir -p $O
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cubsort) &
(meson setup /tmp/b -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b bench/sort-bench >/dev/null 2>&1 || echo "build failed") &
wait
echo "built $SECONDS s"
A="--device gpu --min-log2 24 --max-log2 28 --reps 10"
FL="D: w256i16r48:sort_items=16,sort_regs=48 w256i18r48:sort_items=18,sort_regs=48 w256i12r48:sort_items=12,sort_regs=48 w128i20r56:wg=128,sort_items=20,sort_regs=56 w128i24r56:wg=128,sort_items=24,sort_regs=56 w128i16r56:wg=128,sort_items=16,sort_regs=56 w128i20r64:wg=128,sort_items=20,sort_regs=64"
UI="D: w256i16r48:sort_items=16,sort_regs=48 w256i20r48:sort_items=20,sort_regs=48 w128i24r56:wg=128,sort_items=24,sort_regs=56 w128i20r56:wg=128,sort_items=20,sort_regs=56"
PA="D: w128p24r80:wg=128,sort_pairs_items=24,sort_regs=80 w128p24:wg=128,sort_pairs_items=24"
run() {
  local c=$1; shift
  for s in "$@"; do
    v=${s%%:*}; tt=${s#*:}
    CLWARP_CACHE_DIR=/tmp/cache-$c-$v CLWARP_ALGO_TUNING=$tt timeout 100 /tmp/b/bench/sort-bench $A --cases $c --tsv $O/$r-$c-$v.tsv > $O/$r-$c-$v.log 2>&1 || echo "fail $c $v"
  done
}
for r in 1 2; do
  run keys-float $FL
  run keys-uint $UI
  run pairs-uint $PA
  timeout 120 /tmp/cubsort --min-log2 24 --max-log2 28 --reps 10 --cases keys-float,keys-uint,pairs-uint --tsv $O/$r-cub.tsv > $O/$r-cub.log 2>&1 || echo "cub fail"
  echo "round $r $SECONDS s"
done
mkdir -p $O/ptx
python3 - $O/ptx <<'PY'
import os, sys, glob
for d in glob.glob('/tmp/cache-*'):
    for root, _, files in os.walk(d):
        for name in files:
            data = open(os.path.join(root, name), 'rb').read()
            if data.startswith(b'CLWARPC') and b'.entry clwarp_sort_pass' in data:
                open(os.path.join(sys.argv[1], d[len('/tmp/cache-'):] + '.ptx'), 'wb').write(data[88:].rstrip(b'\0'))
PY
echo "done $SECONDS s"
cd /tmp && tar czf $OUT/ss.tgz ss
