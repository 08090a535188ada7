#!/usr/bin/env bash
# Session 35, job 3, on an H200, from the repository root with .device/
# carried, at main's head (2b6b2b1 plus bench/results): every sort case as
# users get it (no tuning set; the H200's own entry applies), CUB in every
# round, 2^24-2^28.
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p "$OUT/a"
CASES=keys-uint,keys-int,keys-float,pairs-uint,keys-ulong,pairs-ulong,pairs-ulong-ulong,pairs-uint-ulong \
	ROUNDS=3 LIMIT=300 bash bench/sort-ab-gpu.sh "$OUT/a/standing" main
cd "$OUT" && tar czf a.tgz a && rm -rf a
