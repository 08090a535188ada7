#!/usr/bin/env bash
# Session 32: the oracle split at equal register budgets. At 128 registers
# base and oracle both run 2 work-groups an SM with no spills; at the
# defaults (pairs capped at 80 on an H200, keys at 64) the oracle's kernel
# needs 14 more registers uncapped, so the caps' spills differ.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/m"
CASES=pairs-uint,keys-uint ROUNDS=3 LIMIT=260 bash bench/sort-ab-gpu.sh "$OUT/m/oracle128" \
	base base128::sort_regs=128 oracle:.device/exp/oracle.diff:sort_lookback=3 \
	oracle128:.device/exp/oracle.diff:sort_lookback=3,sort_regs=128
ls -la /tmp/sort-ab/ | head; for f in /tmp/sort-ab/oracle-*.ptx /tmp/sort-ab/base-*.ptx; do echo "$f $(grep -c 'ld.global' $f) global loads, $(wc -c <$f) bytes"; done
cd "$OUT" && tar czf m.tgz m && rm -rf m
