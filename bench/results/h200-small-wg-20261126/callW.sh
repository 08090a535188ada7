#!/bin/bash
# Call W: the one-work-group path's width (small_wg) at 2^10-2^14, on an
# engine without profiling, alternated: reduce and scan, blocking and back to back.
source .device/opencl-env.sh >/dev/null 2>&1
O=$OUT
t=$SECONDS
meson setup /tmp/b-ab -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-ab bench/algorithms-bench >/dev/null 2>&1 || echo "build failed"
echo "build: $((SECONDS-t)) s"
for r in 1 2 3; do for w in 1024 512 256 128; do
  CLWARP_ALGO_TUNING=small_wg=$w timeout 60 /tmp/b-ab/bench/algorithms-bench -b auto --ops reduce,scan --min-log2 10 --max-log2 14 -r 100 --budget 1 --no-profiling --tsv $O/w$w-$r.tsv >/dev/null 2>&1 || echo "wg $w round $r failed"
done; echo "round $r: $((SECONDS-t)) s"; done
for f in $O/w*-*.tsv; do awk -F'\t' -v f=$(basename $f .tsv) 'NR>1 && $2 ~ /^nv/ {printf "%s %s %s %s blk %.4f b2b %.4f\n", f, $3, $4, $5, $8, $10}' $f; done > $O/summary.txt
wc -l $O/summary.txt
