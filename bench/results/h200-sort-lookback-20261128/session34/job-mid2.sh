#!/usr/bin/env bash
# Session 34's second mid-size job: 2^20, 2^22, 2^24 with 50 repetitions.
# The first (2^21, 2^23, 2^25) found 32 keys ahead at each size; the
# confirming job had 32 behind 24 at 2^20 and 2^22 with 10.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/m"
PTX=0 MIN_LOG2=20 MAX_LOG2=24 REPS=50 CASES=pairs-uint ROUNDS=3 LIMIT=120 bash bench/sort-ab-gpu.sh "$OUT/m/mid2" \
	base i24::sort_pairs_items=24 i28::sort_pairs_items=28
cd "$OUT" && tar czf m.tgz m && rm -rf m
