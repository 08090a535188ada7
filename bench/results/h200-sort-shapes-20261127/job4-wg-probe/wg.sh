#!/bin/bash
source .device/opencl-env.sh >/dev/null 2>&1
cd .device/exp/wg && gcc -O1 -o /tmp/wgprobe wgprobe.c -lOpenCL 2>/dev/null || exit 1
clinfo 2>/dev/null | grep -i "max work group size\|Device Name" | head -6
echo "== default (CUDA_MODULE_LOADING=${CUDA_MODULE_LOADING:-unset})"
timeout 60 /tmp/wgprobe t1.cl "" sort384.ptx "" sort256-float.ptx "-cl-nv-maxrregcount=64" 2>&1 | grep -v warning
echo "== CUDA_MODULE_LOADING=EAGER"
CUDA_MODULE_LOADING=EAGER timeout 60 /tmp/wgprobe t1.cl "" sort384.ptx "" sort256-float.ptx "-cl-nv-maxrregcount=64" 2>&1 | grep -v warning
