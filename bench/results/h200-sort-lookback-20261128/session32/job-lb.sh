#!/usr/bin/env bash
# Session 32: the look-back's walk in batches of 4 or 8 predecessors'
# words loaded at once (lb4, lb8), against main.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/q"
CASES=keys-uint,pairs-uint ROUNDS=3 LIMIT=140 bash bench/sort-ab-gpu.sh "$OUT/q/lb" \
	base lb4:.device/exp/lb4.diff lb8:.device/exp/lb8.diff
cd "$OUT" && tar czf q.tgz q && rm -rf q
