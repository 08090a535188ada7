#!/bin/bash
# Call T: staging settings at 16 MiB .. 1 GiB with this tree's library, alternated.
source .device/opencl-env.sh >/dev/null 2>&1
O=$OUT
[ -x /tmp/b-new/bench/copy-bench ] || { meson setup /tmp/b-new -Dtests=false -Dbench=true -Dexamples=false >/dev/null && ninja -C /tmp/b-new bench/copy-bench >/dev/null; }
t=$SECONDS
for r in 1 2; do for k in default threads=16 chunk=1M,chunks=48,threads=16 chunk=4M,chunks=32,threads=16 threads=8; do
  if [ $k = default ]; then unset CLWARP_STAGING; else export CLWARP_STAGING=$k; fi
  timeout 60 /tmp/b-new/bench/copy-bench --device gpu --max 1G --reps 5 > /tmp/t.txt 2>&1 || echo "$k failed"
  grep -E "^(write|read) +(16777216|67108864|268435456|1073741824)" /tmp/t.txt | awk -v k=$k -v r=$r '{print r, k, $1, $2, $6, $7}' >> $O/sweep.txt
done; echo "round $r: $((SECONDS-t)) s"; done
unset CLWARP_STAGING
