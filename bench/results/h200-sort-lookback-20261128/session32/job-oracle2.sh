#!/usr/bin/env bash
# Session 32: oracle2, the oracle with each tile's positions loaded at the
# tile's start (in flight through the ranking), so that no DRAM read sits
# where the look-back was.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/p"
CASES=pairs-uint,keys-uint ROUNDS=3 LIMIT=200 bash bench/sort-ab-gpu.sh "$OUT/p/oracle2" \
	base oracle2:.device/exp/oracle2.diff:sort_lookback=3
cd "$OUT" && tar czf p.tgz p && rm -rf p
