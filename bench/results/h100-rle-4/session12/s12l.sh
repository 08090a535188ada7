#!/bin/bash
# Session 12, job L (H100): test_run_length_encode on NVIDIA with the runs naps off against the default (naps on since 3042d47).
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" | tee -a $L; }
source .device/opencl-env.sh > /dev/null 2>&1
(timeout 250 meson setup build-gpu && timeout 250 ninja -C build-gpu tests/test-runs) > $OUT/build.log 2>&1 || { log "build failed"; tail -20 $OUT/build.log; exit 1; }
log "built"
t() { local s=$SECONDS; timeout 100 "$@" > /tmp/t.out 2>&1; local rc=$?; log "rc=$rc $(grep -E '^[0-9]+%' /tmp/t.out | tail -1) ($((SECONDS - s)) s): ${CLWARP_ALGO_TUNING:-default} $*"; [ $rc = 0 ] || grep -E ":F:|:E:" /tmp/t.out | head -3 | tee -a $L; }
export CLWARP_DEVICE=NVIDIA CLWARP_CACHE_DIR=/tmp/cache
CLWARP_ALGO_TUNING=runs_wait=0,runs_poll=0 t build-gpu/tests/test-runs
CLWARP_TEST_ONLY=test_run_length_encode t build-gpu/tests/test-runs
CLWARP_ALGO_TUNING=runs_wait=1150,runs_poll=0 CLWARP_TEST_ONLY=test_run_length_encode t build-gpu/tests/test-runs
CLWARP_ALGO_TUNING=runs_wait=0,runs_poll=76 CLWARP_TEST_ONLY=test_run_length_encode t build-gpu/tests/test-runs
