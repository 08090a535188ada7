#!/bin/bash
# Call Q: streaming stores and the first piece's size, alternated in one job.
source .device/opencl-env.sh >/dev/null 2>&1
O=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/gpu.txt
t=$SECONDS
meson setup /tmp/b -Dtests=false -Dbench=true -Dexamples=false >/dev/null && ninja -C /tmp/b bench/copy-bench >/dev/null || echo "build failed"
B=/tmp/b/bench
for r in 1 2 3 4; do
  for cfg in stream=1 stream=0 stream=1,piece=256K stream=0,piece=256K stream=1,piece=512K; do
    CLWARP_STAGING=$cfg $B/copy-bench --device gpu --max 1G --reps 7 > $O/r$r-$cfg.txt 2>&1
  done
done
CLWARP_STAGING=stream=1 CLWARP_LOG_LEVEL=debug $B/copy-bench --device gpu --profiling --max 64M --reps 5 > $O/trace-s1.txt 2>&1
CLWARP_STAGING=stream=1,piece=256K CLWARP_LOG_LEVEL=debug $B/copy-bench --device gpu --profiling --max 64M --reps 5 > $O/trace-s1p256.txt 2>&1
echo "runs: $((SECONDS-t)) s"
cd $O && for f in r*.txt; do awk -v f=$f '$2==67108864||$2==268435456||$2==1073741824{print f, $1, $2, $6, $7}' $f; done > summary.txt; tar czf runs.tgz r*.txt && rm r*.txt
