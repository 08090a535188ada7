#!/bin/bash
# DMA from pinned memory just written by the CPU (dmafresh.c).
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L .device/exp/dmafresh.c -o /tmp/dmafresh -lOpenCL || echo "build failed"
timeout 60 /tmp/dmafresh | tee $OUT/dmafresh.tsv
