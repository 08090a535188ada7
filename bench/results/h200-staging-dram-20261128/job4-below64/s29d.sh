#!/bin/bash
# Session 29, job D: non-temporal fills for writes under 64 MiB (the default) against memcpy everywhere (stream=0, main's behaviour), 2 alternated rounds, then the GPU check at this commit.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=$OUT/ab; mkdir -p $O
(meson setup /tmp/bs -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/bs bench/copy-bench >/dev/null 2>&1) || { echo build failed; exit 1; }
for r in 1 2; do for v in memcpy:stream=0 new:; do
  IFS=: read l k <<< "$v"
  CLWARP_STAGING=$k timeout 60 /tmp/bs/bench/copy-bench --sizes 16M,24M,32M,48M,64M,256M --reps 7 > $O/$r-$l.txt 2>&1 || echo "fail $l"
  echo "$r $l: $(awk '$1 ~ /^(write|read)$/ {printf "%s %dM %s; ", $1, $2/1048576, $7}' $O/$r-$l.txt)"
done; echo "round $r at $SECONDS s"; done
bash .device/check.sh "$1"; rc=$?; cd $OUT && tar czf check.tgz gpu-status.md logs ab; rm -rf logs ab; exit $rc
