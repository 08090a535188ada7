#!/bin/bash
# Session 12, job G (H100): tile sizes for float keys (with the new cap 64) and for pairs, interleaved, with CUB.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" | tee -a $L; }
source .device/opencl-env.sh > /dev/null 2>&1
(timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cub-sort-bench > /tmp/nvcc.log 2>&1; echo "nvcc rc=$?" >> /tmp/nvcc.log) &
(timeout 250 meson setup build-gpu -Dbench=true && timeout 250 ninja -C build-gpu) > $OUT/build.log 2>&1 || { log "build failed"; tail -20 $OUT/build.log; exit 1; }
wait
log "built; $(tail -1 /tmp/nvcc.log)"
export CLWARP_CACHE_DIR=/tmp/cache
bench() { local l=$1 c=$2; shift 2; rm -f /tmp/b.tsv; timeout 60 build-gpu/bench/sort-bench --device gpu --min-log2 24 --max-log2 28 --reps 10 --cases $c --tsv /tmp/b.tsv > /dev/null 2>/tmp/b.err || { log "$l failed"; tail -3 /tmp/b.err | tee -a $L; }; awk -v l="$l" '{ print l "\t" $0 }' /tmp/b.tsv >> $OUT/sort.tsv; }
for r in 1 2; do
  bench def$r keys-float,pairs-uint
  for i in 12 14 18 20; do CLWARP_ALGO_TUNING=sort_items=$i bench items$i-$r keys-float; done
  for i in 20 28 32; do CLWARP_ALGO_TUNING=sort_pairs_items=$i bench pitems$i-$r pairs-uint; done
  log "round $r done"
done
timeout 60 /tmp/cub-sort-bench --min-log2 24 --max-log2 28 --reps 10 --cases keys-float,pairs-uint --tsv $OUT/cub.tsv > /dev/null 2>>$L || log "cub failed"
log "done"
