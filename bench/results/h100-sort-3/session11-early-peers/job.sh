#!/bin/bash
# Session 11, job C: sort passes with SORT_EARLY_PEERS (sort_early_peers=1) against without, on nv; tests with it on.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" | tee -a $L; }
source .device/opencl-env.sh >/dev/null 2>&1
(timeout 200 meson setup build-gpu -Dbench=true && timeout 200 ninja -C build-gpu tests/test-sort bench/sort-bench) > $OUT/build.log 2>&1 || { log "build failed"; tail -20 $OUT/build.log; exit 1; }
log "built"
export CLWARP_CACHE_DIR=/tmp/cache
s=$SECONDS; CLWARP_ALGO_TUNING=sort_early_peers=1 CLWARP_DEVICE=NVIDIA CLWARP_TEST_QUICK=1 CLWARP_TEST_ONLY=test_sort_passes,test_sort_keys,test_sort_pairs,test_sort_small timeout 150 build-gpu/tests/test-sort > /tmp/t.out 2>&1; log "test-sort early_peers rc=$? $(grep -E '^[0-9]+%' /tmp/t.out) ($((SECONDS - s)) s)"; grep -E ":F:|:E:" /tmp/t.out | head -5 | tee -a $L
bench() { local l=$1; shift; rm -f /tmp/b.tsv; timeout 100 build-gpu/bench/sort-bench --device gpu --reps 10 --min-log2 22 --max-log2 28 --tsv /tmp/b.tsv --cases keys-uint,keys-float,pairs-uint "$@" > /dev/null 2>/tmp/b.err || { log "$l failed"; tail -3 /tmp/b.err | tee -a $L; }; awk -v l="$l" '{ print l "\t" $0 }' /tmp/b.tsv; log "$l done"; }
for r in 1 2; do
  bench base$r >> $OUT/sort.tsv
  CLWARP_ALGO_TUNING=sort_early_peers=1 bench early$r >> $OUT/sort.tsv
done
