#!/bin/bash
# Sort work-groups of 384 (CUB's sm_90 shape) against the defaults, 2 rounds, CUB in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/sw; mkdir -p $O
(nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cubsort) &
rm -rf /tmp/src-nc; mkdir /tmp/src-nc; git ls-files -z | xargs -0 cp --parents -t /tmp/src-nc
sed -i 's/max_wg < v->wg) {/max_wg < v->wg \&\& v->kind != ALGO_SORT) {/' /tmp/src-nc/src/algo_variants.c
grep -c "v->kind != ALGO_SORT" /tmp/src-nc/src/algo_variants.c
(cd /tmp/src-nc && meson setup /tmp/b -Dtests=true -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b bench/sort-bench bench/cl-kernel-info tests/test-sort >/dev/null 2>&1 || echo "build failed") &
wait
echo "built $SECONDS s"
A="--device gpu --min-log2 24 --max-log2 28 --reps 10"
FL="D: w384i19r56:sort_wg=384,sort_items=19,sort_regs=56 w384i18r56:sort_wg=384,sort_items=18,sort_regs=56 w384i20r56:sort_wg=384,sort_items=20,sort_regs=56 w384i19r64:sort_wg=384,sort_items=19,sort_regs=64 w384i16r56:sort_wg=384,sort_items=16,sort_regs=56"
UI="D: w384i20r56:sort_wg=384,sort_items=20,sort_regs=56 w384i19r56:sort_wg=384,sort_items=19,sort_regs=56 w384i22r64:sort_wg=384,sort_items=22,sort_regs=64 w384i24r64:sort_wg=384,sort_items=24,sort_regs=64"
PA="D: w384p20r80:sort_wg=384,sort_pairs_items=20,sort_regs=80 w384p20:sort_wg=384,sort_pairs_items=20 w384p16r80:sort_wg=384,sort_pairs_items=16,sort_regs=80"
probe() {
  CLWARP_CACHE_DIR=/tmp/cache-probe CLWARP_ALGO_TUNING=sort_wg=384,sort_items=20,sort_regs=56 timeout 60 /tmp/b/bench/sort-bench --device gpu --min-log2 20 --max-log2 20 --cases keys-uint > $O/probe.log 2>&1
}
if ! probe; then
  echo "probe failed:"; cat $O/probe.log
  mkdir -p $O/ptx
  python3 - $O/ptx <<'PY'
import os, sys
for root, _, files in os.walk('/tmp/cache-probe'):
    for name in files:
        data = open(os.path.join(root, name), 'rb').read()
        if data.startswith(b'CLWARPC') and b'.entry clwarp_sort_pass' in data:
            open(os.path.join(sys.argv[1], 'probe.ptx'), 'wb').write(data[88:].rstrip(b'\0'))
PY
  (cd $O/ptx && /tmp/b/bench/cl-kernel-info *.ptx)
  cd /tmp && tar czf $OUT/sw.tgz sw; exit 1
fi
echo "probe ok $SECONDS s"
run() { # case list
  local c=$1; shift
  for s in "$@"; do
    v=${s%%:*}; tt=${s#*:}
    CLWARP_CACHE_DIR=/tmp/cache-$c-$v CLWARP_ALGO_TUNING=$tt timeout 120 /tmp/b/bench/sort-bench $A --cases $c --tsv $O/$r-$c-$v.tsv > $O/$r-$c-$v.log 2>&1 || echo "fail $c $v"
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
(cd $O/ptx && /tmp/b/bench/cl-kernel-info *.ptx > ../kernel-info.txt 2>&1)
if [ $SECONDS -lt 420 ]; then
  CLWARP_ALGO_TUNING=sort_wg=384,sort_items=19,sort_regs=56 timeout 120 /tmp/b/tests/test-sort > $O/test-sort-nv-384.txt 2>&1; echo "test-sort nv 384: $? $(tail -1 $O/test-sort-nv-384.txt)"
  CLWARP_ALGO_TUNING=sort_wg=384,sort_items=4 CLWARP_DEVICE=cpu CLWARP_TEST_QUICK=1 timeout 60 /tmp/b/tests/test-sort > $O/test-sort-pocl5-384.txt 2>&1; echo "test-sort pocl5 384: $? $(tail -1 $O/test-sort-pocl5-384.txt)"
fi
echo "done $SECONDS s"
cd /tmp && tar czf $OUT/sw.tgz sw
