#!/usr/bin/env bash
# Session 34's third job: job 2 found pairs faster with every larger tile
# up to 32 keys (the most NVIDIA's 48 KB of local memory holds). The same
# for keys alone (nv defaults: 64 registers, uint 24 keys, float 20), and
# 32 keys at 80 registers (3 work-groups an SM instead of 4).
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/k"
CASES=keys-float,keys-uint ROUNDS=2 LIMIT=200 bash bench/sort-ab-gpu.sh "$OUT/k/keys" \
	base k24::sort_items=24 k28::sort_items=28 k32::sort_items=32 \
	k32r80::sort_items=32,sort_regs=80
cd "$OUT" && tar czf k.tgz k && rm -rf k
