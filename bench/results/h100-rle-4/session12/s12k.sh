#!/bin/bash
# Session 12, job K (H100): test_run_length_encode on NVIDIA, 415bcff (runs.cl loop over the warps unrolled, .device/old) against the working tree (that pragma removed), alternating.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" | tee -a $L; }
source .device/opencl-env.sh > /dev/null 2>&1
(cd .device/old && timeout 250 meson setup build-gpu > /dev/null && timeout 250 ninja -C build-gpu tests/test-runs) > $OUT/build-old.log 2>&1 &
(timeout 250 meson setup build-gpu && timeout 250 ninja -C build-gpu tests/test-runs) > $OUT/build.log 2>&1 || { log "build failed"; tail -20 $OUT/build.log; exit 1; }
wait
log "built"
t() { local s=$SECONDS; timeout 100 "$@" > /tmp/t.out 2>&1; local rc=$?; log "rc=$rc $(grep -E '^[0-9]+%' /tmp/t.out | tail -1) ($((SECONDS - s)) s): $*"; [ $rc = 0 ] || grep -E ":F:|:E:" /tmp/t.out | head -3 | tee -a $L; }
export CLWARP_DEVICE=NVIDIA CLWARP_TEST_ONLY=test_run_length_encode,test_reduce_by_key
for r in 1 2 3 4; do
  CLWARP_CACHE_DIR=/tmp/cache-old t .device/old/build-gpu/tests/test-runs
  CLWARP_CACHE_DIR=/tmp/cache-new t build-gpu/tests/test-runs
done
