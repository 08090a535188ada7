#!/bin/bash
# Session 12, job A (nvidia-h200-x2): device-group tests on two GPUs, peer copies, group-bench round 1.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" | tee -a $L; }
source .device/opencl-env.sh > $OUT/clinfo.txt 2>&1
log "$(nvidia-smi --query-gpu=index,name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader | tr '\n' ';')"
nvidia-smi topo -m > $OUT/topo.txt 2>&1
(timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cub-sort-bench > /tmp/nvcc.log 2>&1; echo "nvcc rc=$?" >> /tmp/nvcc.log) &
(timeout 250 meson setup build-gpu -Dbench=true && timeout 250 ninja -C build-gpu) > $OUT/build.log 2>&1 || { log "build failed"; tail -20 $OUT/build.log; exit 1; }
wait
log "built; $(tail -1 /tmp/nvcc.log)"
export CLWARP_CACHE_DIR=/tmp/cache
t() { local s=$SECONDS; timeout 150 "$@" > /tmp/t.out 2>&1; local rc=$?; log "rc=$rc $(grep -E '^[0-9]+%' /tmp/t.out | tail -1) ($((SECONDS - s)) s): $*"; [ $rc = 0 ] || tail -8 /tmp/t.out | tee -a $L; }
CLWARP_DEVICES=gpu t build-gpu/tests/test-group
CLWARP_DEVICES=gpu t build-gpu/tests/test-group-algorithms
CLWARP_DEVICES=gpu t build-gpu/tests/test-group-sort
timeout 60 build-gpu/bench/peer-copy-bench --mib 1024 --reps 5 > $OUT/peer.txt 2>&1; log "peer rc=$?"
timeout 240 build-gpu/bench/group-bench -d gpu -m 20 -M 30 -r 7 > $OUT/group-1.txt 2>&1; log "group-bench rc=$?"
