#!/bin/bash
# Session 12, job D (nvidia-h200-x2): the group sort with pinned, chunked staging: tests on two GPUs, group-bench round 3, peer copies again.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" | tee -a $L; }
source .device/opencl-env.sh > /dev/null 2>&1
{ timeout 250 meson setup build-gpu -Dbench=true 2>/dev/null; timeout 250 ninja -C build-gpu; } > $OUT/build.log 2>&1 || { log "build failed"; tail -20 $OUT/build.log; exit 1; }
log "built"
export CLWARP_CACHE_DIR=/tmp/cache
t() { local s=$SECONDS; timeout 150 "$@" > /tmp/t.out 2>&1; local rc=$?; log "rc=$rc $(grep -E '^[0-9]+%' /tmp/t.out | tail -1) ($((SECONDS - s)) s): $*"; [ $rc = 0 ] || tail -8 /tmp/t.out | tee -a $L; }
CLWARP_DEVICES=gpu t build-gpu/tests/test-group-sort
CLWARP_DEVICES=gpu t build-gpu/tests/test-group
timeout 280 build-gpu/bench/group-bench -d gpu -m 20 -M 30 -r 7 > $OUT/group-3.txt 2>&1; log "group-bench rc=$?"
