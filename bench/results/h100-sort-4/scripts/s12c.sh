#!/bin/bash
# Session 12, job C (GPU 0): sort register caps for float keys (and pairs), interleaved, with CUB; ptxas -v of the cached pass kernels.
set -u
L=$OUT/log.txt
log() { echo "[$SECONDS s] $*" | tee -a $L; }
source .device/opencl-env.sh > /dev/null 2>&1
log "$(nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tr '\n' ';')"
(timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-sort-bench.cu -o /tmp/cub-sort-bench > /tmp/nvcc.log 2>&1; echo "nvcc rc=$?" >> /tmp/nvcc.log) &
(timeout 250 meson setup build-gpu -Dbench=true && timeout 250 ninja -C build-gpu) > $OUT/build.log 2>&1 || { log "build failed"; tail -20 $OUT/build.log; exit 1; }
wait
log "built; $(tail -1 /tmp/nvcc.log)"
export CLWARP_CACHE_DIR=/tmp/cache-c
bench() { local l=$1 c=$2; shift 2; rm -f /tmp/b.tsv; timeout 60 build-gpu/bench/sort-bench --device gpu --min-log2 24 --max-log2 28 --reps 10 --cases $c --tsv /tmp/b.tsv > /dev/null 2>/tmp/b.err || { log "$l failed"; tail -3 /tmp/b.err | tee -a $L; }; awk -v l="$l" '{ print l "\t" $0 }' /tmp/b.tsv >> $OUT/sort.tsv; }
for r in 1 2; do
  bench def$r keys-float,keys-uint,pairs-uint
  for cap in 80 72 64; do CLWARP_ALGO_TUNING=sort_regs=$cap bench cap$cap-$r keys-float,pairs-uint; done
  CLWARP_ALGO_TUNING=sort_regs=80 bench cap80-$r keys-uint
  log "round $r done"
done
timeout 90 /tmp/cub-sort-bench --min-log2 24 --max-log2 28 --reps 10 --cases keys-uint,keys-float,pairs-uint --tsv $OUT/cub.tsv > /dev/null 2>>$L || log "cub failed"
log "cub done"
python3 - /tmp/cache-c $OUT/ptx <<'PY'
import os, sys
cache, dst = sys.argv[1:3]
os.makedirs(dst, exist_ok=True)
n = 0
for root, _, files in os.walk(cache):
    for name in files:
        data = open(os.path.join(root, name), "rb").read()
        if data.startswith(b"CLWARPC") and b".entry clwarp_sort_pass" in data:
            ptx = data[88:].rstrip(b"\0")
            n += 1
            open(os.path.join(dst, f"sort{n}.ptx"), "wb").write(ptx)
print(n, "sort programs")
PY
for f in $OUT/ptx/*.ptx; do
  echo "## $(basename $f): $(grep -o '\.maxnreg [0-9]*' $f | head -1) nan-test=$(grep -c 'testp.notanumber\|setp.nan\|setp.num' $f) values=$(grep -c 'values_out' $f) u64keys=$(grep -c 'ld.global.u64\|ld.global.nc.u64' $f)"
  ptxas -arch=sm_90 -v $f -o /tmp/x.cubin 2>&1 | grep -A1 "clwarp_sort_pass" | grep -v "^$"
done > $OUT/regs.txt 2>&1
rm -f $OUT/ptx/*.ptx
log "regs done"
