#!/usr/bin/env bash
# Session 31: what the look-back costs a sort pass: no publish, no wait (results wrong; timing only, --bits 0:32).
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/s31d
BITS=0:32 CASES=pairs-uint,keys-uint ROUNDS=3 LIMIT=120 bash bench/sort-ab-gpu.sh $OUT/s31d/ab base nolb:.device/exp/nolb.diff
rc=$?
cd $OUT && tar czf s31d.tgz s31d && rm -rf s31d
exit $rc
