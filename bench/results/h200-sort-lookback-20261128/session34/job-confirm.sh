#!/usr/bin/env bash
# Session 34's last job: main's new H200 default for pairs (32 keys a
# work-item, from cb7d5fa) as users get it, against the old 24, from 2^20.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/c"
PTX=0 MIN_LOG2=20 CASES=pairs-uint ROUNDS=3 LIMIT=150 bash bench/sort-ab-gpu.sh "$OUT/c/confirm" \
	base old24::sort_pairs_items=24
cd "$OUT" && tar czf c.tgz c && rm -rf c
