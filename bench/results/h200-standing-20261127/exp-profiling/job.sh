#!/bin/bash
# (1) blocking calls on a profiling vs a non-profiling engine, alternated, HEAD and a variant whose
#     blocking algorithm calls wait on their last event instead of clFinish ("evwait");
# (2) small_select_n: the new default (2^13 on GPUs) against the old 2^14, compaction and partition.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/e1; mkdir -p $O
export CLWARP_CACHE_DIR=/tmp/e1-cache
for v in bs bv; do
 (T=/tmp/t-$v; mkdir -p $T; tar cf - --exclude=./build* --exclude=./.git --exclude=./.device . | tar xf - -C $T
  if [ $v = bv ]; then sed -i 's/c->events = event || !engine->queue_in_order;/c->events = true;/' $T/src/algo_call.c; grep -c "c->events = true;" $T/src/algo_call.c; fi
  cd $T && meson setup b -Dtests=false -Dbench=true >/dev/null 2>&1 && ninja -C b bench/algorithms-bench >/dev/null 2>&1 || echo "build $v failed") &
done
wait
echo "built $SECONDS s"
C="--device gpu --backends auto --reps 200 --budget 1 --batch 32 --keep-going"
for r in 1 2; do
 for v in bs bv; do
  for p in np p; do
   extra=""; [ $p = np ] && extra="--no-profiling"
   timeout 100 /tmp/t-$v/b/bench/algorithms-bench $C $extra --ops reduce,scan,compact,partition_reversed --min-log2 10 --max-log2 20 --label $v-$p-r$r --tsv $O/$v-$p-r$r.tsv > $O/$v-$p-r$r.txt 2>&1
  done
 done
 for s in new old; do
  tune=""; [ $s = old ] && tune="small_select_n=16384"
  CLWARP_ALGO_TUNING=$tune timeout 60 /tmp/t-bs/b/bench/algorithms-bench $C --no-profiling --ops compact,partition_reversed --min-log2 12 --max-log2 16 --label sel-$s-r$r --tsv $O/sel-$s-r$r.tsv > $O/sel-$s-r$r.txt 2>&1
 done
 echo "round $r $SECONDS s"
done
tar czf $OUT/e1.tgz -C /tmp e1
