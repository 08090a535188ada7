#!/bin/bash
# Session 11, job B: merged main (sort tiles, run-length kernel, src refactors): tests on NVIDIA; run-length / reduce-by-key default vs look-back naps, interleaved, and CUB.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" | tee -a $L; }
source .device/opencl-env.sh >/dev/null 2>&1
log "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
(timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cubb > /tmp/nvcc.log 2>&1; echo "nvcc rc=$?" >> /tmp/nvcc.log) &
(timeout 250 meson setup build-gpu -Dbench=true && timeout 250 ninja -C build-gpu) > $OUT/build.log 2>&1 || { log "build failed"; tail -20 $OUT/build.log; exit 1; }
wait
log "built; $(tail -1 /tmp/nvcc.log)"
export CLWARP_CACHE_DIR=/tmp/cache
t() { local s=$SECONDS; timeout 200 "$@" > /tmp/t.out 2>&1; local rc=$?; log "rc=$rc $(grep -E '^[0-9]+%' /tmp/t.out | tail -1) ($((SECONDS - s)) s): $*"; [ $rc = 0 ] || tail -5 /tmp/t.out | tee -a $L; }
CLWARP_DEVICE=NVIDIA t build-gpu/tests/test-runs
CLWARP_DEVICE=NVIDIA t build-gpu/tests/test-histogram
CLWARP_DEVICE=NVIDIA CLWARP_TEST_QUICK=1 t build-gpu/tests/test-algorithms
CLWARP_DEVICE=NVIDIA t build-gpu/tests/test-warp
CLWARP_DEVICE=NVIDIA t build-gpu/tests/test-program
CLWARP_DEVICES=NVIDIA,cpu CLWARP_TEST_QUICK=1 t build-gpu/tests/test-group-algorithms
OPS=rle1,rle4,rle64,rbk1,rbk4,rbk64
bench() { local l=$1; shift; rm -f /tmp/b.tsv; timeout 100 build-gpu/bench/hist-rle-bench --device gpu --min-log2 20 --max-log2 28 --reps 10 --only $OPS --tsv /tmp/b.tsv > /dev/null 2>/tmp/b.err || { log "$l failed"; tail -3 /tmp/b.err | tee -a $L; }; awk -v l="$l" '{ print l "\t" $0 }' /tmp/b.tsv; log "$l done"; }
for r in 1 2; do
  bench def$r >> $OUT/rle.tsv
  CLWARP_ALGO_TUNING=runs_wait=1150,runs_poll=76 bench nap$r >> $OUT/rle.tsv
done
timeout 120 /tmp/cubb --min-log2 20 --max-log2 28 --reps 10 --only $OPS --tsv $OUT/cub.tsv > /dev/null 2>>$L || log "cub failed"
log "cub done"
