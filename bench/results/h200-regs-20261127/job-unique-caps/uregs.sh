#!/bin/bash
# unique: register caps (select_regs) against none, CUB in the same job; ptxas -v of the default kernel.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=/tmp/b-regs
meson setup $B -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1; ninja -C $B bench/hist-rle-bench >/dev/null || echo build failed
[ -x /tmp/cubhr ] || nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cubhr
for r in 1 2; do
 for t in none 80 72 64 96; do
  if [ $t = none ]; then unset CLWARP_ALGO_TUNING; else export CLWARP_ALGO_TUNING=select_regs=$t; fi
  CLWARP_CACHE_DIR=/tmp/cache-regs-$t timeout 60 $B/bench/hist-rle-bench --device gpu --min-log2 20 --max-log2 28 --reps 10 --only unique4 --tsv /tmp/u.tsv > /tmp/u.log 2>&1
  echo "r$r $t rc=$? $(awk -F'\t' '$5 > 0 {printf "%d:%.4f ", log($5)/log(2)+0.5, $6}' /tmp/u.tsv)"; cp /tmp/u.tsv $OUT/unique-regs$t-r$r.tsv
 done
 unset CLWARP_ALGO_TUNING
 timeout 40 /tmp/cubhr --min-log2 20 --max-log2 28 --reps 10 --only unique4 --tsv /tmp/u.tsv > /dev/null 2>&1
 echo "r$r cub rc=$? $(awk -F'\t' '$5 > 0 {printf "%d:%.4f ", log($5)/log(2)+0.5, $6}' /tmp/u.tsv)"; cp /tmp/u.tsv $OUT/unique-cub-r$r.tsv
done
mkdir -p /tmp/px; n=0
for f in $(find /tmp/cache-regs-none -type f); do n=$((n+1))
python3 - "$f" /tmp/px/u$n.ptx <<'PY'
import sys
b=open(sys.argv[1],'rb').read()
i=b.find(b'.version')
if i<0: sys.exit(0)
k=b.rfind(b'//',0,i); s=k if k>=0 and i-k<4096 else i
j=b.find(b'\0',i); open(sys.argv[2],'wb').write(b[s:j if j>0 else len(b)])
PY
done
for p in /tmp/px/*.ptx; do ptxas -arch=sm_90 -O3 -v -o /tmp/px/x.cubin $p 2>&1 | grep -E "entry|Used|spill"; done
tar czf $OUT/px.tgz /tmp/px 2>/dev/null
