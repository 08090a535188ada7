#!/bin/bash
# Session 11, job A: merged main (sort tiles 256x24 pairs, 256x10 8-byte keys on nv): tests on NVIDIA, and the new tiles against the old ones and CUB.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" | tee -a $L; }
source .device/opencl-env.sh >/dev/null 2>&1
log "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
(timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cub-sort-bench > /tmp/nvcc.log 2>&1; echo "nvcc rc=$?" >> /tmp/nvcc.log) &
(timeout 250 meson setup build-gpu -Dbench=true && timeout 250 ninja -C build-gpu) > $OUT/build.log 2>&1 || { log "build failed"; tail -20 $OUT/build.log; exit 1; }
wait
log "built; $(tail -1 /tmp/nvcc.log)"
export CLWARP_CACHE_DIR=/tmp/cache
t() { local s=$SECONDS; timeout 240 "$@" > /tmp/t.out 2>&1; local rc=$?; log "rc=$rc $(grep -E '^[0-9]+%' /tmp/t.out | tail -1) ($((SECONDS - s)) s): $*"; [ $rc = 0 ] || tail -5 /tmp/t.out | tee -a $L; }
CLWARP_DEVICE=NVIDIA t build-gpu/tests/test-sort
CLWARP_DEVICES=NVIDIA,cpu t build-gpu/tests/test-group-sort
bench() { local l=$1; shift; rm -f /tmp/b.tsv; timeout 120 build-gpu/bench/sort-bench --device gpu --reps 10 --tsv /tmp/b.tsv "$@" > /dev/null 2>/tmp/b.err || { log "$l failed"; tail -3 /tmp/b.err | tee -a $L; }; awk -v l="$l" '{ print l "\t" $0 }' /tmp/b.tsv; log "$l done"; }
for r in 1 2; do
  CLWARP_ALGO_TUNING=sort_pairs_items=20,sort_wide_items=16 bench old$r --min-log2 16 --max-log2 28 --cases pairs-uint,keys-ulong >> $OUT/sort.tsv
  bench new$r --min-log2 16 --max-log2 28 --cases pairs-uint,keys-ulong,keys-uint,keys-float >> $OUT/sort.tsv
done
timeout 120 /tmp/cub-sort-bench --max-log2 28 --reps 10 --tsv $OUT/cub.tsv > /dev/null 2>>$L || log "cub failed"
log "cub done"
