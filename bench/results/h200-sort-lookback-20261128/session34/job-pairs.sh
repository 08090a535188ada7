#!/usr/bin/env bash
# Session 34's pairs job, on an H200, from the repository root with
# .device/ carried and the branch sort-stage-nv's tree sent (0b0ad92:
# pairs stage as ranked on nv only; the nv kernel text is 22738e3's).
#   base      the branch: pairs at the H200's 80 registers and 24 keys
#   lbpairs2  pairs walk back in batches of 2 (lbpairs2-on-stagenv.diff)
#   i20, i28  tiles of 256 x 20 and 256 x 28 at 80 registers
#   earlyv    the values load with the keys (session33/earlyv.diff)
set -uo pipefail
source .device/opencl-env.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R=bench/results/h200-sort-lookback-20261128
mkdir -p "$OUT/p"
CASES=pairs-uint ROUNDS=3 LIMIT=230 bash bench/sort-ab-gpu.sh "$OUT/p/shapes" \
	base lbpairs2:$R/session34/lbpairs2-on-stagenv.diff \
	i20::sort_pairs_items=20 i28::sort_pairs_items=28 \
	earlyv:$R/session33/earlyv.diff
cd "$OUT" && tar czf p.tgz p && rm -rf p
