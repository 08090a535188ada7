#!/bin/bash
# Session 12, job F (H100): the landed code: test-sort on NVIDIA, test-group-sort on NVIDIA + PoCL (pinned staging path), float keys default (cap 64) vs sort_regs=255, CUB.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" | tee -a $L; }
source .device/opencl-env.sh > /dev/null 2>&1
(timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cub-sort-bench > /tmp/nvcc.log 2>&1; echo "nvcc rc=$?" >> /tmp/nvcc.log) &
(timeout 250 meson setup build-gpu -Dbench=true && timeout 250 ninja -C build-gpu) > $OUT/build.log 2>&1 || { log "build failed"; tail -20 $OUT/build.log; exit 1; }
wait
log "built; $(tail -1 /tmp/nvcc.log)"
export CLWARP_CACHE_DIR=/tmp/cache
t() { local s=$SECONDS; timeout 200 "$@" > /tmp/t.out 2>&1; local rc=$?; log "rc=$rc $(grep -E '^[0-9]+%' /tmp/t.out | tail -1) ($((SECONDS - s)) s): $*"; [ $rc = 0 ] || tail -8 /tmp/t.out | tee -a $L; }
CLWARP_DEVICE=NVIDIA t build-gpu/tests/test-sort
CLWARP_DEVICES=NVIDIA,cpu t build-gpu/tests/test-group-sort
CLWARP_DEVICES=NVIDIA,cpu CLWARP_TEST_QUICK=1 t build-gpu/tests/test-group
bench() { local l=$1; shift; rm -f /tmp/b.tsv; timeout 60 build-gpu/bench/sort-bench --device gpu --min-log2 24 --max-log2 28 --reps 10 --cases keys-float --tsv /tmp/b.tsv > /dev/null 2>>$L || log "$l failed"; awk -v l="$l" '{ print l "\t" $0 }' /tmp/b.tsv >> $OUT/sort.tsv; }
for r in 1 2; do bench def$r; CLWARP_ALGO_TUNING=sort_regs=255 bench nocap$r; done
timeout 60 /tmp/cub-sort-bench --min-log2 24 --max-log2 28 --reps 10 --cases keys-float --tsv $OUT/cub.tsv > /dev/null 2>>$L || log "cub failed"
log "done"
