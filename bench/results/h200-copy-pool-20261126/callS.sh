#!/bin/bash
# Call S: staged copies before (949f4d8, .device/old) and after (this tree),
# alternated in one job: copy-bench, default staging, 1 MiB .. 4 GiB.
source .device/opencl-env.sh >/dev/null 2>&1
O=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/gpu.txt
t=$SECONDS
(meson setup /tmp/b-new -Dtests=false -Dbench=true -Dexamples=false >/dev/null && ninja -C /tmp/b-new bench/copy-bench >/dev/null) &
(cd .device/old && meson setup /tmp/b-old -Dtests=false -Dbench=true -Dexamples=false >/dev/null && ninja -C /tmp/b-old bench/copy-bench >/dev/null) &
wait
echo "builds: $((SECONDS-t)) s"
for r in 1 2 3; do for v in old new; do
  timeout 100 /tmp/b-$v/bench/copy-bench --device gpu --max 4G --reps 5 --tsv $O/copy-$v-$r.tsv > $O/copy-$v-$r.txt 2>&1 || echo "copy-bench $v $r failed"
  echo "$v $r: $((SECONDS-t)) s"
done; done
