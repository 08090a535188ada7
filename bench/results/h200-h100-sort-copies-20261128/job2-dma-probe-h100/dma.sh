#!/bin/bash
# DMA probe: pieces, queues, ring and memcpy hogs (dmaprobe.c); staged copies with small chunks (LLC-sized ring).
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/dma; rm -rf $O; mkdir -p $O
lscpu > $O/lscpu.txt; grep -i "model name\|L3\|L2\|NUMA" $O/lscpu.txt
gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L .device/exp/dmaprobe.c -o /tmp/dmaprobe -lOpenCL -lpthread || echo "probe build failed"
rm -rf /tmp/b-c; (meson setup /tmp/b-c -Dtests=false -Dbench=true -Dexamples=false >/dev/null 2>&1 && ninja -C /tmp/b-c bench/copy-bench >/dev/null 2>&1 || echo "build failed") &
timeout 200 /tmp/dmaprobe > $O/probe.tsv 2>&1; echo "probe $? $SECONDS s"
wait
for r in 1 2; do
for s in default: c256k48:chunk=256K,chunks=48 c512k24:chunk=512K,chunks=24 c1m24:chunk=1M,chunks=24; do
  IFS=: read l v <<< "$s"
  CLWARP_STAGING=$v timeout 100 /tmp/b-c/bench/copy-bench --max 64M --reps 7 > $O/$r-$l.txt 2>&1 || echo "fail $l"
done
echo "round $r $SECONDS s"
done
cat $O/probe.tsv
cd /tmp && tar czf $OUT/dma.tgz dma
