#!/bin/bash
# Session 12, job B (same machine, after A): sort per pass (uint vs float keys, ours vs CUB) on GPU 0, group-bench round 2.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" | tee -a $L; }
source .device/opencl-env.sh > /dev/null 2>&1
[ -x /tmp/cub-sort-bench ] || timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cub-sort-bench
[ -x build-gpu/bench/sort-bench ] || { timeout 250 meson setup build-gpu -Dbench=true && timeout 250 ninja -C build-gpu; } > $OUT/build.log 2>&1
export CLWARP_CACHE_DIR=/tmp/cache
for bits in full 0:8 8:16 16:24 24:32; do
  a=(); [ $bits = full ] || a=(--bits $bits)
  rm -f /tmp/b.tsv /tmp/c.tsv
  timeout 60 build-gpu/bench/sort-bench --device gpu --min-log2 26 --max-log2 28 --reps 10 --cases keys-uint,keys-float "${a[@]}" --tsv /tmp/b.tsv > /dev/null 2>>$L || log "ours $bits failed"
  timeout 60 /tmp/cub-sort-bench --min-log2 26 --max-log2 28 --reps 10 --cases keys-uint,keys-float "${a[@]}" --tsv /tmp/c.tsv > /dev/null 2>>$L || log "cub $bits failed"
  cat /tmp/b.tsv /tmp/c.tsv | awk -v l=$bits '{ print l "\t" $0 }' >> $OUT/passes.tsv
  log "bits $bits done"
done
timeout 200 build-gpu/bench/group-bench -d gpu -m 24 -M 30 -r 7 > $OUT/group-2.txt 2>&1; log "group-bench rc=$?"
