#!/bin/bash
# Staging prototype (dmastage.c): one pinned block, one submitter coalescing ready sub-pieces into DMAs; against the library's staged copies (copy-bench) in the same job.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/dst; rm -rf $O; mkdir -p $O
gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L .device/exp/dmastage.c -o /tmp/dmastage -lOpenCL -lpthread || echo "build failed"
[ -x /tmp/b-c/bench/copy-bench ] || (meson setup /tmp/b-c -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-c bench/copy-bench >/dev/null 2>&1 || echo "build failed")
for r in 1 2; do
  for m in 64 16 256; do timeout 120 /tmp/dmastage $m > $O/$r-proto-$m.tsv 2>&1 || echo "proto fail $m"; done
  timeout 100 /tmp/b-c/bench/copy-bench --max 256M --reps 7 > $O/$r-lib.txt 2>&1 || echo "lib fail"
  echo "round $r $SECONDS s"
done
cat $O/1-proto-64.tsv; grep -E '^(write|read) +(16777216|67108864|268435456)' $O/*-lib.txt
cd /tmp && tar czf $OUT/dst.tgz dst
