#!/usr/bin/env bash
# Session 35, job 2, on an H200, from the repository root with .device/
# carried, on the branch sort-wide-pairs-regs (80 registers for pairs with
# 8-byte keys or values in the H200's entry):
#   base   the branch
#   nocap  sort_wide_pairs_regs=0: main's wide pairs (no cap)
# for uint keys with ulong values, which the key also caps and which
# nothing had timed.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/u"
CASES=pairs-uint-ulong ROUNDS=3 LIMIT=150 bash bench/sort-ab-gpu.sh "$OUT/u/uint-ulong" \
	base nocap::sort_wide_pairs_regs=0
cd "$OUT" && tar czf u.tgz u && rm -rf u
