#!/bin/bash
# Session 29, job B2: non-temporal fills paced by fewer chunks in flight (dmadram: NT stores from 8-12 threads held a DMA to 22-24 GB/s; job B: fewer threads lost), against memcpy; alternated rounds.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/s29c; rm -rf $O; mkdir -p $O
S=/tmp/src-nt; rm -rf $S; mkdir -p $S; git ls-files -z | xargs -0 cp --parents -t $S
(cd $S && patch -s -p1 < $OLDPWD/.device/exp/stream2.diff) || { echo patch failed; exit 1; }
(cd $S && meson setup /tmp/bs -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/bs bench/copy-bench >/dev/null 2>&1) || { echo build failed; exit 1; }
echo "built at $SECONDS s"
V="mc12:stream=0 nt12: nt12c4:chunks=4 nt12c8:chunks=8 nt12c16:chunks=16 mc12c8:stream=0,chunks=8 nt8c8:threads=8,chunks=8"
for r in 1 2 3 4; do for v in $V; do
  IFS=: read l k <<< "$v"
  CLWARP_STAGING=$k timeout 60 /tmp/bs/bench/copy-bench --max 256M --reps 7 --tsv $O/$r-$l.tsv > $O/$r-$l.txt 2>&1 || echo "fail $l"
  echo "$r $l: $(awk '$1 ~ /^(write|read)$/ && $2 >= 16777216 {printf "%s %dM %s (%s/%s); ", $1, $2/1048576, $7, $6, $4}' $O/$r-$l.txt)"
done; echo "round $r at $SECONDS s"; [ $SECONDS -gt 230 ] && break; done
cd /tmp && tar czf $OUT/s29c.tgz s29c
