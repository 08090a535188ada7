#!/usr/bin/env bash
# Session 34's second pairs job: job 1 found tiles of 256 x 28 at 80
# registers 0.96-0.97x the branch's time. Larger tiles, and 28 with the
# look-back in batches of 2, against the branch (24 keys).
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R=bench/results/h200-sort-lookback-20261128
mkdir -p "$OUT/t"
CASES=pairs-uint ROUNDS=3 LIMIT=230 bash bench/sort-ab-gpu.sh "$OUT/t/tiles" \
	base i28::sort_pairs_items=28 i30::sort_pairs_items=30 i32::sort_pairs_items=32 \
	i28lb:$R/session34/lbpairs2-on-stagenv.diff:sort_pairs_items=28
cd "$OUT" && tar czf t.tgz t && rm -rf t
