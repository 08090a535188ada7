#!/usr/bin/env bash
# Session 32: next-job.sh without naps0 (naps off compiles the same kernels as base).
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/j"
BITS=0:32 CASES=pairs-uint,keys-uint ROUNDS=3 LIMIT=120 bash bench/sort-ab-gpu.sh "$OUT/j/split" \
	base nolb:.device/exp/nolb.diff spread:.device/exp/spread.diff
CASES=pairs-uint,keys-uint ROUNDS=3 LIMIT=200 bash bench/sort-ab-gpu.sh "$OUT/j/naps" \
	base \
	naps-both:.device/exp/naps.diff:sort_wait=1150,sort_poll=76 \
	naps-wait:.device/exp/naps.diff:sort_wait=1150 \
	naps-poll:.device/exp/naps.diff:sort_poll=200
cd "$OUT" && tar czf j.tgz j && rm -rf j
