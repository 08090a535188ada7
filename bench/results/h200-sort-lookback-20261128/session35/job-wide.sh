#!/usr/bin/env bash
# The next sort job (not run yet), on an H200, from the repository root
# with .device/ carried and the branch sort-wide-pairs-regs sent (80
# registers for pairs with 8-byte keys or values in the H200's entry):
#   base   the branch
#   nocap  sort_wide_pairs_regs=0: main's wide pairs
# for ulong keys with uint values (job 7 had 0.89-0.91x the time at 80)
# and ulong keys with ulong values, which nothing has timed at 80 yet.
# About 200 s. Then the whole GPU check on the branch, and merge it if
# both cases gain (restrict the key to 4-byte values if only they do).
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/w"
CASES=pairs-ulong,pairs-ulong-ulong ROUNDS=3 LIMIT=150 bash bench/sort-ab-gpu.sh "$OUT/w/wide" \
	base nocap::sort_wide_pairs_regs=0
cd "$OUT" && tar czf w.tgz w && rm -rf w
