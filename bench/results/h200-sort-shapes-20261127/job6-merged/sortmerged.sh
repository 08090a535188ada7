#!/bin/bash
# Sort: each key's peer mask used at once (no peer_masks array) against main; 2 rounds alternated; PTX kept; test-sort on nv.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/sm2; mkdir -p $O
rm -rf /tmp/src-m; mkdir /tmp/src-m; git ls-files -z | xargs -0 cp --parents -t /tmp/src-m
cp .device/exp/sort-merged.cl /tmp/src-m/kernels/algorithms/sort.cl
(meson setup /tmp/b-base -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-base bench/sort-bench >/dev/null 2>&1 || echo "base build failed") &
(cd /tmp/src-m && meson setup /tmp/b-m -Dtests=true -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-m bench/sort-bench tests/test-sort >/dev/null 2>&1 || echo "m build failed") &
wait
echo "built $SECONDS s"
A="--device gpu --min-log2 24 --max-log2 28 --reps 10"
for r in 1 2; do
  for s in base:base:: m:m:: m:m-f24:sort_items=24:keys-float m:m-p80:sort_regs=80:pairs-uint m:m-p96:sort_regs=96:pairs-uint; do
    IFS=: read b l tt cs <<< "$s"
    CLWARP_CACHE_DIR=/tmp/cache-$l CLWARP_ALGO_TUNING=$tt timeout 100 /tmp/b-$b/bench/sort-bench $A --cases ${cs:-keys-float,keys-uint,pairs-uint} --tsv $O/$r-$l.tsv > $O/$r-$l.log 2>&1 || echo "fail $l $r"
  done
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
timeout 100 /tmp/b-m/tests/test-sort > $O/test-sort-nv.txt 2>&1; echo "test-sort nv (merged): $? $(tail -1 $O/test-sort-nv.txt)"
echo "done $SECONDS s"
cd /tmp && tar czf $OUT/sm2.tgz sm2
