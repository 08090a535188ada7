#!/bin/bash
# scan_regs and runs_regs (none, 96, 80, 64), two rounds, CUB in the same job; ptxas -v of the kernels.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=/tmp/b-regs; R=/tmp/res3; mkdir -p $R
[ -f $B/build.ninja ] || meson setup $B -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1
ninja -C $B bench/hist-rle-bench bench/algorithms-bench >/dev/null || echo build failed
[ -x /tmp/cubhr ] || nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-hist-rle-bench.cu -o /tmp/cubhr &
[ -x /tmp/cubb ] || nvcc -O3 -arch=sm_90 -std=c++17 -Ibench bench/cub-bench.cu -o /tmp/cubb &
wait
RC=rle4,rbk1,rbk4,rbk64
for r in 1 2; do
 for t in none 96 80 64; do
  if [ $t = none ]; then unset CLWARP_ALGO_TUNING; else export CLWARP_ALGO_TUNING=scan_regs=$t,runs_regs=$t; fi
  CLWARP_CACHE_DIR=/tmp/c3-$t timeout 100 $B/bench/algorithms-bench --device gpu --backends auto --ops scan --min-log2 20 --max-log2 28 --reps 10 --keep-going --tsv $R/scan-$t-r$r.tsv > $R/scan-$t-r$r.txt 2>&1; a=$?
  CLWARP_CACHE_DIR=/tmp/c3-$t timeout 100 $B/bench/hist-rle-bench --device gpu --min-log2 20 --max-log2 28 --reps 10 --only $RC --tsv $R/runs-$t-r$r.tsv > $R/runs-$t-r$r.txt 2>&1
  echo "r$r $t scan rc=$a runs rc=$? $SECONDS s"
 done
 unset CLWARP_ALGO_TUNING
 timeout 100 /tmp/cubb --ops scan --min-log2 20 --max-log2 28 --reps 10 --tsv $R/scan-cub-r$r.tsv > /dev/null 2>&1; a=$?
 timeout 100 /tmp/cubhr --min-log2 20 --max-log2 28 --reps 10 --only $RC --tsv $R/runs-cub-r$r.tsv > /dev/null 2>&1
 echo "r$r cub scan rc=$a runs rc=$?"
done
mkdir -p /tmp/px3; n=0
for f in $(find /tmp/c3-none -type f); do n=$((n+1))
python3 - "$f" /tmp/px3/k$n.ptx <<'PY'
import sys
b=open(sys.argv[1],'rb').read()
i=b.find(b'.version')
if i<0: sys.exit(0)
k=b.rfind(b'//',0,i); s=k if k>=0 and i-k<4096 else i
j=b.find(b'\0',i); open(sys.argv[2],'wb').write(b[s:j if j>0 else len(b)])
PY
done
for p in /tmp/px3/*.ptx; do echo "== $p"; ptxas -arch=sm_90 -O3 -v -o /tmp/px3/x.cubin $p 2>&1 | grep -E "entry|Used|spill" | grep -B1 -A1 Used | grep -v "^--"; done > $R/ptxas.txt
tar czf $OUT/regs3.tgz -C /tmp res3 px3
