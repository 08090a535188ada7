#!/bin/bash
# Call R2: float sort, the order-bits body alone compiled (not NaN-safe: timing only) vs both bodies.
source .device/opencl-env.sh >/dev/null 2>&1
O=$OUT
t=$SECONDS
export CLWARP_CACHE_DIR=/tmp/cwcache2
(meson setup /tmp/b-new -Dtests=false -Dbench=true -Dexamples=false >/dev/null && ninja -C /tmp/b-new bench/sort-bench >/dev/null || echo "new build failed") &
(cd .device/fastonly && meson setup /tmp/b-fo -Dtests=false -Dbench=true -Dexamples=false >/dev/null && ninja -C /tmp/b-fo bench/sort-bench >/dev/null || echo "fo build failed") &
wait
A="--device gpu --min-log2 24 --max-log2 28 --reps 10 --cases keys-float,keys-uint"
for r in 1 2; do
  for v in new fo; do for it in 20 24; do
    CLWARP_ALGO_TUNING=sort_items=$it timeout 200 /tmp/b-$v/bench/sort-bench $A --tsv $O/$v-$it-$r.tsv > /dev/null 2>$O/err-$v-$it-$r.txt
  done; done
  echo "round $r: $((SECONDS-t)) s"
done
cd $O && for f in *.tsv; do awk -v f=${f%.tsv} -F'\t' '{print f, $4, $5, $6}' $f; done > summary.txt; cat err-* | head; rm -f *.tsv err-*
