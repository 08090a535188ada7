#!/bin/bash
# Session 29, job A: host DRAM traffic against one DMA (dmadram.c); on an H200, uint pairs at a cap of 80 against main.
source .device/opencl-env.sh >/dev/null 2>&1
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); echo "$gpu"; nproc
O=/tmp/s29a; rm -rf $O; mkdir -p $O
lscpu > $O/lscpu.txt; grep -i "model name\|L3\|NUMA node(s)\|Socket" $O/lscpu.txt
gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L .device/exp/dmadram.c -o /tmp/dmadram -lOpenCL -lpthread || echo "probe build failed"
timeout 150 /tmp/dmadram > $O/dmadram.tsv 2>&1; echo "dmadram rc $? at $SECONDS s"
column -t $O/dmadram.tsv
if [[ $gpu == *H200* ]]; then
  CASES=pairs-uint ROUNDS=3 LIMIT=330 bash bench/sort-ab-gpu.sh $O/ab base c80i24::sort_regs=80,sort_pairs_items=24 c80i20::sort_regs=80,sort_pairs_items=20 > $O/ab.log 2>&1
  echo "ab rc $? at $SECONDS s"; cat $O/ab/summary.txt $O/ab/ptxas.txt
fi
cd /tmp && tar czf $OUT/s29a.tgz s29a
