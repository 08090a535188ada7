#!/bin/bash
# Staging prototype 3 (dmastage3.c): per-piece DMAs against one submitter coalescing the ready prefix (no event callbacks), same pool and pinned block.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=$OUT/ds3; mkdir -p $O
gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L .device/exp/dmastage3.c -o /tmp/dmastage3 -lOpenCL -lpthread || echo "build failed"
for r in 1 2; do
  for a in "64 12" "64 8" "256 12"; do
    f="$O/$r-$(echo $a | tr ' ' '-').tsv"
    timeout 30 /tmp/dmastage3 $a > $f 2>&1; echo "rc $? $a $SECONDS s"; cat $f
  done
done
