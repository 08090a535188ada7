#!/usr/bin/env bash
# Session 34's last call: ulong keys with uint values on an H200. Session
# 28 found 256 x 16 (92 registers, 2 work-groups an SM) level with 256 x 12
# (72, 3 an SM) there; pairs on nv now stage as ranked, so a cap of 80
# may hold 256 x 16 at 3 work-groups an SM.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/w"
CASES=pairs-ulong ROUNDS=3 LIMIT=110 bash bench/sort-ab-gpu.sh "$OUT/w/wide" \
	base r80::sort_regs=80 r72::sort_regs=72
cd "$OUT" && tar czf w.tgz w && rm -rf w
