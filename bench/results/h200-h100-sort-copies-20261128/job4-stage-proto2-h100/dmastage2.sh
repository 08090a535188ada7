#!/bin/bash
# Staging prototype 2 (dmastage2.c): per-piece DMAs against one submitter coalescing the ready prefix, same pool and pinned block.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/ds2; rm -rf $O; mkdir -p $O
gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L .device/exp/dmastage2.c -o /tmp/dmastage2 -lOpenCL -lpthread || echo "build failed"
for r in 1 2; do
  for a in "64 12" "64 8" "256 12" "16 12"; do timeout 120 /tmp/dmastage2 $a > "$O/$r-$(echo $a | tr ' ' '-').tsv" 2>&1 || echo "fail $a"; done
  echo "round $r $SECONDS s"
done
cat $O/1-*.tsv $O/2-64-12.tsv
cd /tmp && tar czf $OUT/ds2.tgz ds2
