#!/usr/bin/env bash
# Session 32: the look-back split exactly. oracle: wait-free passes whose
# tile positions, every pass's, were counted by the warm-up call and are
# reused (same input each rep), so the stores land where a real pass's do
# and no tile waits or publishes. Results are sorted and checked.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/k"
CASES=pairs-uint,keys-uint ROUNDS=3 LIMIT=200 bash bench/sort-ab-gpu.sh "$OUT/k/oracle" \
	base oracle:.device/exp/oracle.diff:sort_lookback=3
cd "$OUT" && tar czf k.tgz k && rm -rf k
