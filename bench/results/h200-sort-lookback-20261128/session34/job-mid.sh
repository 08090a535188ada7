#!/usr/bin/env bash
# Session 34's mid-size job: the confirming job found 32 keys a work-item
# slower than 24 at 2^20-2^22. Where does the crossing lie? 2^21, 2^23,
# 2^25 for 32 (main), 24 and 28.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/m"
PTX=0 MIN_LOG2=21 MAX_LOG2=25 REPS=20 CASES=pairs-uint ROUNDS=3 LIMIT=120 bash bench/sort-ab-gpu.sh "$OUT/m/mid" \
	base i24::sort_pairs_items=24 i28::sort_pairs_items=28
cd "$OUT" && tar czf m.tgz m && rm -rf m
