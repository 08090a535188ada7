#!/bin/bash
# Session 12, job E (H100): float keys vs uint keys vs uint keys with the floats' bit patterns, ours and CUB, with the GPU's clocks and power sampled.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $(date +%s.%N) $*" | tee -a $L; }
source .device/opencl-env.sh > /dev/null 2>&1
(timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cub-sort-bench > /tmp/nvcc.log 2>&1; echo "nvcc rc=$?" >> /tmp/nvcc.log) &
(timeout 250 meson setup build-gpu -Dbench=true && timeout 250 ninja -C build-gpu) > $OUT/build.log 2>&1 || { log "build failed"; tail -20 $OUT/build.log; exit 1; }
wait
log "built; $(tail -1 /tmp/nvcc.log)"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,nounits -lms 50 > $OUT/smi.csv 2>&1 &
SMI=$!
export CLWARP_CACHE_DIR=/tmp/cache-e
C=keys-uint,keys-float,keys-uint-fbits
for r in 1 2; do
  log "ours $r start"
  timeout 90 build-gpu/bench/sort-bench --device gpu --min-log2 26 --max-log2 28 --reps 20 --cases $C --tsv /tmp/b.tsv > /dev/null 2>>$L || log "ours failed"
  awk -v l=ours$r '{ print l "\t" $0 }' /tmp/b.tsv >> $OUT/sort.tsv
  log "cub $r start"
  timeout 90 /tmp/cub-sort-bench --min-log2 26 --max-log2 28 --reps 20 --cases $C --tsv /tmp/c.tsv > /dev/null 2>>$L || log "cub failed"
  awk -v l=cub$r '{ print l "\t" $0 }' /tmp/c.tsv >> $OUT/sort.tsv
  log "round $r done"
done
for bits in 0:8 24:32; do
  timeout 60 build-gpu/bench/sort-bench --device gpu --min-log2 28 --max-log2 28 --reps 20 --cases $C --bits $bits --tsv /tmp/b.tsv > /dev/null 2>>$L
  awk -v l=ours$bits '{ print l "\t" $0 }' /tmp/b.tsv >> $OUT/sort.tsv
  timeout 60 /tmp/cub-sort-bench --min-log2 28 --max-log2 28 --reps 20 --cases $C --bits $bits --tsv /tmp/c.tsv > /dev/null 2>>$L
  awk -v l=cub$bits '{ print l "\t" $0 }' /tmp/c.tsv >> $OUT/sort.tsv
done
log "passes done"
kill $SMI
