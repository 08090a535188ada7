#!/bin/bash
# The one-work-group path at 1024 work-items (NVIDIA's CL_KERNEL_WORK_GROUP_SIZE of 256 ignored for small variants) against main, which narrows to 256.
source .device/opencl-env.sh >/dev/null 2>&1
O=/tmp/sm; mkdir -p $O
rm -rf /tmp/src-b; mkdir /tmp/src-b; git ls-files -z | xargs -0 cp --parents -t /tmp/src-b
sed -i 's/max_wg < v->wg) {/max_wg < v->wg \&\& !v->small) {/' /tmp/src-b/src/algo_variants.c
grep -c "!v->small) {" /tmp/src-b/src/algo_variants.c
(meson setup /tmp/b-a -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-a bench/algorithms-bench >/dev/null 2>&1 || echo "a build failed") &
(cd /tmp/src-b && meson setup /tmp/b-b -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-b bench/algorithms-bench >/dev/null 2>&1 || echo "b build failed") &
wait
echo "built $SECONDS s"
C="--device gpu --backends auto --reps 100 --budget 1 --batch 32 --keep-going --no-profiling --ops reduce,scan,compact --min-log2 10 --max-log2 16"
for r in 1 2; do
  for s in a:A b:B b:B512:small_wg=512 a:A256:small_wg=256; do
    IFS=: read v l tt <<< "$s"
    CLWARP_CACHE_DIR=/tmp/cache-$l CLWARP_ALGO_TUNING=$tt timeout 100 /tmp/b-$v/bench/algorithms-bench $C --label $l --tsv $O/$r-$l.tsv > $O/$r-$l.log 2>&1 || echo "fail $l $r"
  done
  echo "round $r $SECONDS s"
done
cd /tmp && tar czf $OUT/sm.tgz sm
