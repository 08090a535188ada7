#!/bin/bash
# Session 12, job J (H100): merged main (block-scan loops unrolled): tests on NVIDIA; the old tree (.device/old, 40339c9) against it on scan, exclusive scan, reduce, run-length encode, interleaved.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" | tee -a $L; }
source .device/opencl-env.sh > /dev/null 2>&1
(cd .device/old && timeout 250 meson setup build-gpu -Dbench=true -Dtests=false > /dev/null && timeout 250 ninja -C build-gpu bench/algorithms-bench bench/hist-rle-bench) > $OUT/build-old.log 2>&1 &
(timeout 250 meson setup build-gpu -Dbench=true && timeout 250 ninja -C build-gpu) > $OUT/build.log 2>&1 || { log "build failed"; tail -20 $OUT/build.log; exit 1; }
wait
log "built"
export CLWARP_CACHE_DIR=/tmp/cache
t() { local s=$SECONDS; timeout 200 "$@" > /tmp/t.out 2>&1; local rc=$?; log "rc=$rc $(grep -E '^[0-9]+%' /tmp/t.out | tail -1) ($((SECONDS - s)) s): $*"; [ $rc = 0 ] || tail -8 /tmp/t.out | tee -a $L; }
CLWARP_DEVICE=NVIDIA CLWARP_TEST_QUICK=1 t build-gpu/tests/test-algorithms
CLWARP_DEVICE=NVIDIA t build-gpu/tests/test-runs
CLWARP_DEVICE=NVIDIA t build-gpu/tests/test-histogram
CLWARP_DEVICE=NVIDIA t build-gpu/tests/test-warp
CLWARP_DEVICE=NVIDIA CLWARP_TEST_QUICK=1 t build-gpu/tests/test-sort
CLWARP_DEVICES=NVIDIA,cpu CLWARP_TEST_QUICK=1 t build-gpu/tests/test-group-algorithms
for r in 1 2; do
  for tree in old new; do
    b=build-gpu; [ $tree = old ] && b=.device/old/build-gpu
    export CLWARP_CACHE_DIR=/tmp/cache-$tree
    rm -f /tmp/a.tsv /tmp/h.tsv
    timeout 120 $b/bench/algorithms-bench -d gpu -b auto --ops reduce,scan,exscan --min-log2 24 --max-log2 28 --tsv /tmp/a.tsv > /dev/null 2>>$L || log "alg $tree failed"
    timeout 100 $b/bench/hist-rle-bench --device gpu --min-log2 24 --max-log2 28 --reps 10 --only rle4,rbk4 --tsv /tmp/h.tsv > /dev/null 2>>$L || log "rle $tree failed"
    cat /tmp/a.tsv /tmp/h.tsv | awk -v l=$tree$r '{ print l "\t" $0 }' >> $OUT/bench.tsv
  done
  log "round $r done"
done
