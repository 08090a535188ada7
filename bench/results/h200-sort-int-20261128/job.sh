#!/usr/bin/env bash
# Session 31: int keys (new bench case) against uint keys and CUB; int keys as words (patch).
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/s31a
CASES=keys-int,keys-uint ROUNDS=3 LIMIT=240 bash bench/sort-ab-gpu.sh $OUT/s31a/ab base intwords:.device/exp/intwords.diff
rc=$?
cat $OUT/s31a/ab/summary.txt
cd $OUT && tar czf s31a.tgz s31a && rm -rf s31a
exit $rc
