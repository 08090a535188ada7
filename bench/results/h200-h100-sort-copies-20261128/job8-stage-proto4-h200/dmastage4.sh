#!/bin/bash
# Staging prototype 4 (dmastage4.c): coalesced DMAs with a timeline; pieces split across threads or whole.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L .device/exp/dmastage4.c -o /tmp/dmastage4 -lOpenCL -lpthread || echo "build failed"
for r in 1 2; do timeout 60 /tmp/dmastage4 64 > $OUT/ds4-$r.tsv 2>&1; echo "rc $?"; cat $OUT/ds4-$r.tsv; done
