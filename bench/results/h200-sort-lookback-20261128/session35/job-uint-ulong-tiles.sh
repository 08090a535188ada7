#!/usr/bin/env bash
# Session 35, job 4, on an H200, from the repository root with .device/
# carried, at main's head: uint keys with ulong values in smaller tiles,
# through sort_wide_items (which also sets 8-byte keys' tiles; only this
# case is timed here):
#   main  256 x 16 (sort_wide_items 32), 80 registers (the H200's entry)
#   w28   256 x 14
#   w24   256 x 12
# Two rounds, CUB in each; about 120 s.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/t"
CASES=pairs-uint-ulong ROUNDS=2 LIMIT=100 bash bench/sort-ab-gpu.sh "$OUT/t/uint-ulong-tiles" \
	main w28::sort_wide_items=28 w24::sort_wide_items=24
cd "$OUT" && tar czf t.tgz t && rm -rf t
