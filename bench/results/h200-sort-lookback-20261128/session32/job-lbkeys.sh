#!/usr/bin/env bash
# Session 32: branch sort-lookback-batch (keys-only look-back walk in
# batches of 4 words) against main, every 4- and 8-byte key type.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/r"
CASES=keys-uint,keys-int,keys-float,keys-ulong ROUNDS=3 LIMIT=150 bash bench/sort-ab-gpu.sh "$OUT/r/lbkeys" \
	base lbkeys:.device/exp/lbkeys.diff
cd "$OUT" && tar czf r.tgz r && rm -rf r
