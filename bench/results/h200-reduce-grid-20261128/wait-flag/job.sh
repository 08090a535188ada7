#!/bin/bash
# Session 31: waits for a blocking launch: raw OpenCL (clFinish vs a host-visible flag), CUDA, and libclwarp's copy rows.
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=$OUT/s31c; mkdir -p $O
gcc -O2 .device/exp/waitflag.c -o /tmp/wf -lOpenCL || exit 1
nvcc -O3 -arch=sm_90 .device/exp/waitflag.cu -o /tmp/wfc || exit 1
(meson setup /tmp/b -Dtests=false -Dbench=true >/dev/null 2>&1 && ninja -C /tmp/b bench/algorithms-bench bench/launch-bench >/dev/null 2>&1 || echo "build failed") &
/tmp/wf 1001 | tee $O/waitflag-1.txt
/tmp/wfc 1001 | tee $O/waitflag-cuda.txt
/tmp/wf 1001 | tee $O/waitflag-2.txt
wait
for r in 1 2; do
 timeout 90 /tmp/b/bench/algorithms-bench --device gpu --backends auto --reps 60 --budget 1 --batch 32 --no-profiling --ops reduce --min-log2 10 --max-log2 24 --tsv $O/algo-$r.tsv > $O/algo-$r.log 2>&1 || echo "algo fail"
done
CLWARP_DEVICE=gpu timeout 60 /tmp/b/bench/launch-bench 2000 5 > $O/launch-bench.txt 2>&1; cat $O/launch-bench.txt | tail -12
cd $OUT && tar czf s31c.tgz s31c && rm -rf s31c
